"""Scripts the Makefile runs: installers, the reader-install check, re-executing chapters."""
