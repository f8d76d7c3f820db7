"""Is a built output current? One answer for every build step that skips work it has done.

A step names what its output is made from (files, and strings such as flags or an edition
line) and gets a key for them, :func:`files_hash`. A :class:`Stamps` file records, for each
output, the key it was last built from: while the key is the same and the output is there, the
step would write the same bytes again and may skip. The steps that use it: the execution cache
(tools/scripts/execution_cache.py), the decks and their handouts and stills (tools/slides), the
reader's archive (tools/download/archive.py) and the PDF (tools/pdf/build.py).
"""
import hashlib
import json
from pathlib import Path

from .toc import ROOT


def files_hash(paths, *texts):
    """A short key for the content of some files (their names in the checkout included) and
    some strings."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode())
    for path in paths:
        digest.update(Path(path).resolve().relative_to(ROOT).as_posix().encode())
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()[:20]


def tree_files(names):
    """Every file under each of ``names`` (folders or files, relative to the checkout), sorted,
    caches and checkpoints left out: the inputs of a build step, for :func:`files_hash`."""
    files = []
    for name in names:
        path = ROOT / name
        files += [path] if path.is_file() else sorted(
            p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts
            and ".ipynb_checkpoints" not in p.parts)
    return files


class Stamps:
    """The keys some outputs were built from, in one JSON file (``{output: key}``)."""

    def __init__(self, path):
        self.path = Path(path)

    def _read(self):
        return json.loads(self.path.read_text()) if self.path.exists() else {}

    def current(self, output, key, *made):
        """True when ``output`` was built from ``key`` and it, and every path of ``made`` (the
        other files the step writes), exist."""
        return (self._read().get(str(output)) == key
                and all(Path(path).exists() for path in (output, *made)))

    def record(self, output, key):
        """Note that ``output`` was just built from ``key``."""
        self._write({**self._read(), str(output): key})

    def forget(self, output):
        """``output`` no longer counts as built from anything (a partial build, or one under way)."""
        stamps = self._read()
        if stamps.pop(str(output), None) is not None:
            self._write(stamps)

    def _write(self, stamps):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(stamps, indent=1))
