"""The benchmark's premises, without timing: the plain NumPy script computes exactly the
package's numbers, and importing the package does not pull in matplotlib."""
import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "plain_numpy_lecture.py"


def load_script():
    spec = importlib.util.spec_from_file_location("plain_numpy_lecture", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_plain_script_reproduces_run_lecture_bit_for_bit(lecture):
    script = load_script()
    plain, package = script.run_plain(), script.package_numbers(lecture)
    for name in plain:
        np.testing.assert_array_equal(plain[name], package[name], err_msg=name)


def test_import_leaves_matplotlib_for_when_a_plot_is_asked_for():
    # A fresh interpreter: this test process may have imported matplotlib already.
    code = ("import sys, bayescomp as bc; assert 'matplotlib' not in sys.modules; "
            "bc.setup_figures; from bayescomp import plotting; "
            "assert 'matplotlib' in sys.modules and plotting.plot_walk")
    subprocess.run([sys.executable, "-c", code], check=True)
