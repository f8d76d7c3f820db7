"""The bayescomp package (numbers, errors, widget data), on its own: no notebook, no browser."""
