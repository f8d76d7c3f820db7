"""The website: Sphinx extensions (deck links, live figures) and static files (CSS)."""
