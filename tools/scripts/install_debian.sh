#!/usr/bin/env bash
# Install Debian packages that the build or the tests run, when their program is missing.
# Usage: install_debian.sh PACKAGE=PROGRAM ...   e.g. chromium=/usr/bin/chromium
# (chromium prints the handouts and runs the browser checks, poppler-utils' pdftotext checks the
# book's PDF; Playwright's own browser download needs a host this project does not use.)
set -euo pipefail
missing=()
for pair in "$@"; do
  [ -x "${pair#*=}" ] || missing+=("${pair%%=*}")
done
[ "${#missing[@]}" -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "missing: run 'sudo apt-get install -y ${missing[*]}' and try again" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
