"""The book on a real JupyterHub, as a course runs it (see tests/hub/conftest.py)."""
