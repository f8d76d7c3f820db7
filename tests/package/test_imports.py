"""What ``import bayescomp`` promises (its docstring, the README): the maths needs NumPy and the
standard library only. matplotlib and anywidget are for :mod:`bayescomp.book`, which the
top-level package never imports."""
import subprocess
import sys

# Run in a fresh interpreter: lists the top-level modules ``import bayescomp`` loads that are
# neither the standard library, NumPy nor the package, with matplotlib and anywidget made
# unimportable, then runs a sampler, a reference and a diagnostic.
PROBE = """
import sys
for name in ("matplotlib", "anywidget", "IPython", "ipywidgets", "scipy"):
    sys.modules[name] = None          # importing any of these now raises ImportError
import numpy as np
import bayescomp as bc
loaded = {name.split(".")[0] for name, module in sys.modules.items() if module is not None}
foreign = sorted(loaded - set(sys.stdlib_module_names) - {"numpy", "bayescomp", "__main__"}
                 - {name for name in loaded if name.startswith("_")})
print("foreign:", ",".join(foreign))
print("book:", "bayescomp.book" in sys.modules)
target = bc.gaussian_target(np.zeros(2), np.eye(2))
chain = bc.metropolis_chain(target, np.zeros(2), np.eye(2), 200, np.random.default_rng(0))
print("ran:", chain.draws.shape, bc.grid_posterior(target.log_density, [(-4, 4), (-4, 4)], 41).mean.shape,
      round(float(bc.ess_bulk(chain.draws[None])[0]), 3) > 0)
"""


def probe():
    run = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    return dict(line.split(": ", 1) for line in run.stdout.splitlines())


def test_import_bayescomp_needs_numpy_only():
    found = probe()
    assert found["foreign"] == "", f"import bayescomp loads {found['foreign']}"
    assert found["book"] == "False", "import bayescomp imports bayescomp.book"
    assert found["ran"] == "(200, 2) (2,) True"
