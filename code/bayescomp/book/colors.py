"""The figures' colours: one palette for the matplotlib figures and the live widgets alike.

Plain data, no matplotlib: the widgets' data (:func:`bayescomp.book.widgets.widget_data`) carries these
dictionaries to the browser, and :mod:`bayescomp.book.plotting` draws with them.
"""

# Okabe and Ito (2008): distinguishable under the common forms of colour blindness.
PALETTE = {
    "black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7",
}
# One colour per method, used in every chapter so a reader learns them once.
METHOD_COLORS = {
    "grid": PALETTE["black"], "map": PALETTE["orange"], "importance": PALETTE["purple"],
    "mcmc": PALETTE["sky"], "laplace": PALETTE["blue"], "vi": PALETTE["vermillion"],
    "target": PALETTE["black"], "proposal": PALETTE["green"],
}
# The order of matplotlib's colour cycle; yellow goes last: it is the hardest to see on white.
CYCLE = ("orange", "sky", "green", "blue", "vermillion", "purple", "yellow")
# The chains of a trace, rank or scatter plot, in the figures and the live figures alike: four
# colours far apart in hue and lightness (sky and blue, neighbours in the cycle, were taken for
# one chain on a projector).
CHAIN_COLORS = tuple(PALETTE[k] for k in ("orange", "blue", "green", "purple"))
