"""Benchmarks (not tests): the stages of a run, the package against plain NumPy, the live figures."""
