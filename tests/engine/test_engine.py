"""The widgets' JavaScript engine against the package, under Node's own test runner.

The package writes the golden values (``tests/engine/golden.py``) and the widgets' data script
into a temporary folder, then ``node --test tests/engine/`` runs ``engine.test.mjs`` on them: the
same command as ``npm test`` in ``code/widgets``, which reads them from ``_build/widgets``.
"""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bayescomp.book.widgets import write_data_script

from . import golden

HERE = Path(__file__).resolve().parent


def test_engine_matches_the_package_under_node(tmp_path):
    node = shutil.which("node")
    if node is None:   # plain pytest skips; under a make target (tests/skips.py) this fails
        pytest.skip("the widget engine tests need Node.js (node) on PATH")
    inputs = {"BAYESCOMP_GOLDEN": str(golden.write(tmp_path / "golden.json")),
              "BAYESCOMP_DATA": str(write_data_script(tmp_path))}
    run = subprocess.run([node, "--test", str(HERE)], capture_output=True, text=True,
                         env=dict(os.environ, **inputs), timeout=600)
    summary = "\n".join(line for line in run.stdout.splitlines()
                        if line.startswith(("not ok", "# pass", "# fail")) or "error:" in line)
    assert run.returncode == 0, f"node --test failed:\n{summary}\n{run.stderr[-2000:]}"
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout, run.stdout[-2000:]
