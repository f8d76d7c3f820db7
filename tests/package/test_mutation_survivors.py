"""Tests written to kill the mutants that survived the mutation study (`make mutation`).

Each test names the behaviour the surviving mutant changed without any other test noticing;
the README's mutation table says which survivors are left and why they do not matter.
"""
