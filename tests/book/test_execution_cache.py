"""The website's execution cache is cleared when the package changes (tools/scripts/execution_cache.py):
jupyter-cache keys the chapters on their cells alone, and would keep the old code's outputs."""
from pathlib import Path

from tools.freshness import Stamps
from tools.scripts import execution_cache


def test_the_caches_are_kept_while_the_inputs_are_unchanged_and_cleared_when_they_change(tmp_path):
    caches = [tmp_path / ".jupyter_cache", tmp_path / ".doctrees"]
    stamp = Stamps(tmp_path / "inputs.json")

    def fill():
        for cache in caches:
            cache.mkdir(exist_ok=True)
            (cache / "entry").write_text("outputs")

    fill()
    assert execution_cache.refresh(caches, stamp, "a") is True, "no record of the inputs: clear"
    assert not any(cache.exists() for cache in caches)
    fill()
    assert execution_cache.refresh(caches, stamp, "a") is False
    assert all((cache / "entry").exists() for cache in caches)
    assert execution_cache.refresh(caches, stamp, "b") is True
    assert not any(cache.exists() for cache in caches)


def test_the_website_and_the_pdf_environments_are_among_the_caches():
    names = {cache.relative_to(execution_cache.ROOT).as_posix() for cache in execution_cache.CACHES}
    assert names == {"_build/.jupyter_cache", "_build/.doctrees", "_build/pdf/_build/.doctrees"}


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
