"""The whole book as one PDF: Sphinx's single-page HTML, printed by Debian's chromium."""
