"""The benchmark's plain NumPy script computes exactly the package's numbers (no timing here)."""
import importlib.util
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
