"""The course's tooling: simulated students for the grading checks, the grading report, and the
assignments' builder (``course/`` holds the assignments themselves)."""
