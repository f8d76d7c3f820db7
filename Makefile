# Two commands for a newcomer:  `make book` builds the website, `make test` runs every test.
# Both set themselves up first. With no virtual environment active they create `.venv/` in the
# checkout (stock Debian/Ubuntu Python refuses system-wide pip installs, PEP 668) and install
# the locked packages for their use into it; with one active, they install into that one.
# Front-end files come from the npm registry (tools/package-lock.json), chromium from Debian.
#
# Three locked installs for three uses (regenerate them all with `make locks`):
#   requirements.txt              reader: JupyterLab with MyST and RISE, numpy, matplotlib
#   tools/requirements/build.txt  build:  the reader set + Jupyter Book 1.x and its extensions
#   tools/requirements/test.txt   test:   the build set + pytest, nbval, ArviZ, Playwright

SITE := _build/html
ifdef VIRTUAL_ENV
ENV := $(VIRTUAL_ENV)
else
ENV := $(CURDIR)/.venv
endif
PYTHON := $(ENV)/bin/python
BOOTSTRAP_PYTHON ?= python3
LOCK_reader := requirements.txt
LOCK_build := tools/requirements/build.txt
LOCK_test := tools/requirements/test.txt
PYTEST := $(PYTHON) -m pytest -q -p no:cacheprovider
NBVAL := --nbval chapters --nbval-sanitize-with tools/nbval_sanitize.cfg

.PHONY: book test lab locks outputs env-reader env-build env-test npm assets slides unit nbval browser \
        reader-check benchmark clean widgets widgets-benchmark

# A venv with a lock installed; the copy of the lock in the venv says it is current, so a second
# run installs nothing.
env-reader env-build env-test:
	@test -x $(PYTHON) || $(BOOTSTRAP_PYTHON) -m venv $(ENV)
	@cmp -s $(LOCK_$(@:env-%=%)) $(ENV)/.bayescomp-$@.lock || { \
	  echo "Installing the locked $(@:env-%=%) set into $(ENV) ..."; \
	  $(PYTHON) -m pip install -q -r $(LOCK_$(@:env-%=%)) && \
	  cp $(LOCK_$(@:env-%=%)) $(ENV)/.bayescomp-$@.lock; }

npm:
	@test tools/node_modules/.package-lock.json -nt tools/package-lock.json \
	  || npm ci --prefix tools --no-audit --no-fund --silent

# Front-end files the site serves itself (never a CDN): MathJax 3 as one self-contained file.
assets: npm
	mkdir -p _build/vendor/mathjax
	cp tools/node_modules/mathjax/es5/tex-svg-full.js _build/vendor/mathjax/

# The live figures: one classic-script bundle (esbuild, from the pinned tools/node_modules) and
# the package's data script beside it, in _build/widgets (pages and decks copy them from there).
widgets: env-reader npm
	node code/widgets/build.mjs _build/widgets
	$(PYTHON) -m bayescomp.widgets _build/widgets

# Decks, then their PDF handouts (one slide per page), printed offline by Debian's chromium.
slides: env-build npm widgets
	$(PYTHON) tools/build_slides.py --out _build/slides_out/slides
	bash tools/install_chromium.sh
	$(PYTHON) tools/print_handouts.py _build/slides_out/slides

book: env-build assets slides widgets
	$(PYTHON) -m jupyter book build . -W -n --keep-going
	@echo "Website: $(SITE)/index.html"

# The reader's path: JupyterLab on the chapters, MyST rendered, RISE for live slides.
lab: env-reader widgets
	$(PYTHON) -m jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) chapters/

unit: env-test
	$(PYTEST) code/tests

nbval: env-test
	$(PYTEST) $(NBVAL)

browser: env-test slides
	bash tools/install_chromium.sh
	$(PYTEST) tools/test_slides.py tools/test_site.py tools/test_jupyterlab.py tools/test_rise.py \
		tools/test_widgets_browser.py

test: env-test slides
	bash tools/install_chromium.sh
	$(PYTEST) code/tests tools/test_outputs.py tools/test_slides.py tools/test_site.py \
		tools/test_jupyterlab.py tools/test_rise.py tools/test_widgets_browser.py $(NBVAL)

# After changing bayescomp: re-execute every chapter from a fresh kernel and store its outputs.
outputs: env-test
	$(PYTHON) tools/execute_chapters.py

# Proves the reader install is enough: a fresh reader-only venv runs every chapter.
reader-check:
	bash tools/check_reader_env.sh

# Regenerate the three locks, top down, so the reader and build sets pin exactly the versions
# the test set pins.
UV_COMPILE := uv pip compile --universal --python-version 3.11 --fork-strategy fewest --custom-compile-command "make locks"
locks:
	$(UV_COMPILE) tools/requirements/test.in -o $(LOCK_test)
	mkdir -p _build && grep -v '^-e ' $(LOCK_test) > _build/test-constraints.txt
	$(UV_COMPILE) -c _build/test-constraints.txt tools/requirements/build.in -o $(LOCK_build)
	$(UV_COMPILE) -c _build/test-constraints.txt tools/requirements/reader.in -o $(LOCK_reader)

# Timings as ratios measured side by side in one run (the machine is shared and noisy).
benchmark: env-test
	$(PYTHON) tools/benchmark.py
	$(PYTHON) code/benchmarks/plain_numpy_lecture.py

# The live figures' speed in headless chromium (the README's widget figures).
widgets-benchmark: env-test npm
	$(PYTHON) code/widgets/benchmark.py

clean:
	rm -rf _build
