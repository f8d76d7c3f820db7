#!/usr/bin/env bash
# The browser tests and the PDFs are driven through Playwright on Debian's chromium (Playwright's
# own browser download needs a host this project does not use); the book's PDF is checked with
# poppler-utils (pdftotext, pdfinfo). Install them if they are missing.
exec bash "$(dirname "$0")/install_debian.sh" chromium=/usr/bin/chromium poppler-utils=/usr/bin/pdftotext
