"""Show the package's own source in a chapter, so the code a reader sees is the code that runs."""
import inspect


def show_source(obj):
    """Return the source of a function or class from this package, syntax-highlighted.

    In Jupyter and on the website it renders as a highlighted listing; in plain Python it is
    the source text. No copy of the algorithm lives in the notebook.
    """
    from IPython.display import Code

    return Code(inspect.getsource(obj), language="python")
