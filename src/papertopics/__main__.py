"""`python -m papertopics`: the papertopics command (papertopics.runtime.cli)."""

import sys

from papertopics.runtime.cli import main

sys.exit(main())
