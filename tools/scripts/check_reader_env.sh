#!/usr/bin/env bash
# The reader's path, as the README gives it, in a fresh venv: `pip install -r requirements.txt`
# must be the whole set-up. Checks that it gives JupyterLab with the MyST, RISE and anywidget
# extensions, stays under the size budget, and imports the checkout's own bayescomp. It does not
# run the chapters: tests/browser/test_download.py runs every one of them in JupyterLab from the
# archive's requirements.txt, which is this file with only the `-e ./code` line swapped for the
# wheel (tools/download/archive.py, reader_requirements), so a second run here would add nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=${READER_VENV:-_build/reader-check/venv}   # its own folder: never a venv of yours
budget_mb=500
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q -r requirements.txt
size_mb=$(du -sm "$venv" | cut -f1)
echo "reader venv: ${size_mb} MB (budget ${budget_mb} MB)"
if [ "$size_mb" -gt "$budget_mb" ]; then
  echo "the reader install is over budget" >&2; exit 1
fi
"$venv/bin/jupyter" lab --version
"$venv/bin/jupyter" labextension list > "$venv/labextensions.txt" 2>&1
# "enabled" is what matters. The full listing is not printed: its static version check marks
# jupyterlab-myst with an X (an @jupyter/ydoc range), yet it renders, which
# tests/browser/test_download.py checks in the reader's JupyterLab.
for extension in jupyterlab-myst jupyterlab-rise anywidget; do
  grep -q "$extension v.*enabled" "$venv/labextensions.txt" \
    || { echo "JupyterLab extension $extension is missing from the reader install" >&2; exit 1; }
  echo "JupyterLab extension $extension: enabled"
done
# The editable install: the reader who edits code/bayescomp sees the change in the chapters.
"$venv/bin/python" - <<'PY'
from pathlib import Path
import anywidget, matplotlib, numpy, bayescomp
source = Path(bayescomp.__file__).resolve()
expected = Path("code/bayescomp").resolve()
if source.parent != expected:
    raise SystemExit(f"bayescomp comes from {source}, not from the checkout's {expected}")
print(f"bayescomp {bayescomp.__version__} from {source.parent}")
PY
