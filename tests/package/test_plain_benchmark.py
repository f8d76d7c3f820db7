"""The benchmark's premises, without timing: the plain NumPy script computes exactly the
package's numbers, and importing the package does not pull in matplotlib."""
import subprocess
import sys

import numpy as np

from tools.benchmarks import plain_numpy_lecture as script


def test_plain_script_reproduces_run_lecture_bit_for_bit(lecture):
    plain, package = script.run_plain(), script.package_numbers(lecture)
    for name in plain:
        np.testing.assert_array_equal(plain[name], package[name], err_msg=name)


def test_import_leaves_matplotlib_for_when_a_plot_is_asked_for():
    # A fresh interpreter: this test process may have imported matplotlib already.
    code = ("import sys, bayescomp as bc; from bayescomp import book; "
            "assert 'matplotlib' not in sys.modules; "
            "book.setup_figures; from bayescomp.book import plotting; "
            "assert 'matplotlib' in sys.modules and plotting.plot_walk")
    subprocess.run([sys.executable, "-c", code], check=True)
