"""The live figures' one anywidget class (imported only when a widget is shown, so that
``import bayescomp`` needs no anywidget).

``_esm`` is the ES module's text: the package's built bundle with anywidget's render() added
(:func:`bayescomp.book.widgets.anywidget_module`), so one bundle serves the website, the decks
and JupyterLab. Which figure to draw, the data and the starting state are traits the kernel
syncs, and ``readout`` comes back from the browser.
"""
import anywidget
import traitlets

from .widgets import anywidget_module


class BayesCompWidget(anywidget.AnyWidget):
    """A live figure in Jupyter; make one with :func:`bayescomp.book.widgets.metropolis` and friends."""

    _esm = anywidget_module()
    widget = traitlets.Unicode().tag(sync=True)    # its name, one of bayescomp.book.widgets.WIDGETS
    data = traitlets.Dict().tag(sync=True)         # bayescomp.book.widgets.widget_data()
    params = traitlets.Dict().tag(sync=True)       # the starting state, e.g. {"scale": 0.5}
    readout = traitlets.Dict().tag(sync=True)      # what the figure shows, sent back by it

    def _repr_mimebundle_(self, **kwargs):
        # JupyterLab shows the widget; a front end that cannot run widgets (RISE) shows the
        # HTML: the figure's still image, linked to its live slide.
        from .widgets import still_html

        shown = super()._repr_mimebundle_(**kwargs)
        if shown is None:
            return None
        data, metadata = shown if isinstance(shown, tuple) else (shown, {})
        return {**data, "text/html": still_html(self.widget)}, metadata
