"""Headless chromium with the network cut: website, decks, handouts, JupyterLab, RISE, widgets."""
