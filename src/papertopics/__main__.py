"""`python -m papertopics`: the papertopics command (papertopics.cli)."""

import sys

from papertopics.cli import main

sys.exit(main())
