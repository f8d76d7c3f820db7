"""What turns the chapters into a website, lecture decks and handouts, and checks the installs.

Run its Python from the checkout's top folder as modules (``python -m tools.slides.build``), so
that every part can import the chapter list from :mod:`tools.toc`. The Makefile does.
"""
