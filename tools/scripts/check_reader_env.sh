#!/usr/bin/env bash
# The reader's path, as the README gives it, in a fresh venv: `pip install -r requirements.txt`
# must be the whole set-up. Checks that it gives JupyterLab with the MyST and RISE extensions,
# stays under the size budget, and runs every chapter from a fresh kernel.
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
# Every chapter of _toc.yml (tools/toc.py lists them) from a fresh kernel, each in its own
# process, two at a time (the machines have two cores), in reverse order (no shared state).
chapters=$("$venv/bin/python" -m tools.toc)   # an assignment, so that set -e sees a failure
printf '%s\n' "$chapters" | tac | xargs -P 2 -I{} sh -c \
  '"$1/bin/jupyter" nbconvert --to notebook --execute --stdout "$2" > /dev/null && echo "ran $2 in the reader venv"' \
  _ "$venv" {}
