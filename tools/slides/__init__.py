"""Lecture decks from the chapter notebooks (nbconvert and a reveal.js template), and their PDF handouts."""
