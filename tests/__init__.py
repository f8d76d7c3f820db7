"""Every test of the book, run by pytest from here (``make check`` runs them all, ``make test``
the developer's loop; ``make help`` lists the parts).

- ``package/``: the ``bayescomp`` package: the lecture's numbers, known answers, generality,
  bad input, cross-checks against ArviZ, the widgets' data and their Jupyter display;
- ``engine/``: the widgets' JavaScript engine against the package (golden values, ``node --test``);
- ``book/``: the chapters as stored: the chapter list, stored outputs, the live-widget cells,
  and the nbval configuration (``pytest --nbval chapters`` re-executes every chapter);
- ``course/``: the course's nbgrader assignments (``course/``): fresh, well formed, and a
  generate-autograde-export round trip in a temporary course folder;
- ``browser/``: headless chromium with the network cut: the website, the decks and handouts,
  JupyterLab, RISE, and the live figures;
- ``hub/``: the book on a real local JupyterHub, as a course runs it: ten students at once
  through nbgitpuller links, the course's updates, the faults a class hits, the Binder
  configuration (``make hub``; the last part of ``make check``, not in ``make test``).

Every make target loads ``tests/skips.py``, under which a skip is a failure unless it is explained.
"""
