"""The website's execution cache is cleared when the package changes (tools/scripts/execution_cache.py):
jupyter-cache keys the chapters on their cells alone, and would keep the old code's outputs."""
from pathlib import Path

from tools.scripts import execution_cache


def test_the_cache_is_kept_while_the_inputs_are_unchanged_and_cleared_when_they_change(tmp_path):
    cache = tmp_path / ".jupyter_cache"
    cache.mkdir()
    (cache / "entry").write_text("outputs")
    assert execution_cache.refresh(cache, "a") is True, "no record of the inputs: clear"
    cache.mkdir()
    (cache / "entry").write_text("outputs")
    assert execution_cache.refresh(cache, "a") is False and (cache / "entry").exists()
    assert execution_cache.refresh(cache, "b") is True and not cache.exists()


def test_the_fingerprint_follows_the_package(monkeypatch):
    before = execution_cache.fingerprint()
    assert execution_cache.fingerprint() == before
    module = (execution_cache.ROOT / "code" / "bayescomp" / "__init__.py").resolve()
    original = Path.read_bytes
    # The package's __init__.py one byte longer, as read by the fingerprint.
    monkeypatch.setattr(Path, "read_bytes",
                        lambda self: original(self) + (b"#" if self.resolve() == module else b""))
    assert execution_cache.fingerprint() != before


def test_the_inputs_are_the_package_and_the_build_lock():
    assert all((execution_cache.ROOT / name).exists() for name in execution_cache.INPUTS)
    assert "code/bayescomp" in execution_cache.INPUTS
