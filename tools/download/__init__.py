"""The book as readers download it: the ``bayescomp`` wheel and sdist, and the book's archive."""
