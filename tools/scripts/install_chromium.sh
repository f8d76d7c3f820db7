#!/usr/bin/env bash
# The browser tests drive Debian's chromium through Playwright (Playwright's own browser
# download needs a host this project does not use). Install it if it is missing.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "chromium is missing: run 'sudo apt-get install -y chromium' and try again" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
