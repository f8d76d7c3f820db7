"""Re-execute chapters from fresh kernels and store their outputs (after changing bayescomp).

Each notebook runs in its own kernel, from the chapters folder, with no timing metadata; then
consecutive stream outputs of a cell are merged, so a table printed by several ``print`` calls is
stored, rendered and compared as one block however the kernel happened to flush it.

Usage: python -m tools.scripts.execute_chapters [chapters/NAME.ipynb ...]
(default: every chapter of ``_toc.yml``)
"""
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbconvert.preprocessors import CoalesceStreamsPreprocessor

from .. import toc


def execute(path):
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3", record_timing=False,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    notebook, _ = CoalesceStreamsPreprocessor().preprocess(notebook, {})
    nbformat.write(notebook, path)


if __name__ == "__main__":
    paths = [Path(p) for p in sys.argv[1:]] or [toc.notebook(name) for name in toc.CHAPTERS]
    for path in paths:
        execute(path.resolve())
        print(f"executed {path}")
