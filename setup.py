"""Build hook: a wheel carries the workflow (Snakefile, workflow/, profiles/) as package data.

Everything else is in pyproject.toml. The workflow lives at the repository root, where
`snakemake --cores 4` runs it; `pip install .` copies it into papertopics/_workflow/ of the
built package, where papertopics.runtime.launch.workflow_root finds it. An editable install
(`pip install -e .`, what `make run` does) uses the repository's own files instead.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
WORKFLOW = ("Snakefile", "workflow", "profiles")


class BuildPyWithWorkflow(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "papertopics" / "_workflow"
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        for name in WORKFLOW:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                shutil.copy2(source, target / name)


setup(cmdclass={"build_py": BuildPyWithWorkflow})
