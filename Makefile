# Two commands for a newcomer:  `make book` builds the website, `make check` runs every test.
# `make test` is the developer's loop (under 3 min): the part of `make check` worth running
# after every change. `make help` lists every target.
#
# Both set themselves up first. With no virtual environment active they create `.venv/` in the
# checkout (stock Debian/Ubuntu Python refuses system-wide pip installs, PEP 668) and install
# the locked packages for their use into it; with one active, they install into that one; with
# PYTHON=<venv>/bin/python, into that venv. Front-end files come from the npm registry
# (tools/npm/package-lock.json), chromium from Debian.
#
# Three locked installs for three uses, and the students' one (regenerate them all with `make locks`):
#   requirements.txt              reader: JupyterLab with MyST and RISE, numpy, matplotlib
#   tools/requirements/build.txt  build:  the reader set + Jupyter Book 1.x and its extensions
#   tools/requirements/test.txt   test:   the build set + pytest, nbval, ArviZ, Playwright, repo2docker
#   tools/requirements/hub.txt    hub:    the reader set + jupyterhub, nbgitpuller, nbgrader (make hub)
#
# Python under tools/ and tests/ runs as modules from this folder (`python -m tools.slides.build`),
# so every part imports the chapter list from tools/toc.py, which reads _toc.yml.

SITE := _build/html
REPORTS := _build/reports
SLIDES := _build/slides_out/slides
ifeq ($(origin PYTHON),command line)
# PYTHON=/path/to/venv/bin/python: use that virtual environment (checked in env-*).
ENV := $(patsubst %/,%,$(dir $(patsubst %/,%,$(dir $(PYTHON)))))
else ifdef VIRTUAL_ENV
ENV := $(VIRTUAL_ENV)
PYTHON := $(ENV)/bin/python
else
ENV := $(CURDIR)/.venv
PYTHON := $(ENV)/bin/python
endif
BOOTSTRAP_PYTHON ?= python3
LOCK_reader := requirements.txt
LOCK_build := tools/requirements/build.txt
LOCK_test := tools/requirements/test.txt
LOCK_hub := tools/requirements/hub.txt
NPM_DIR := tools/npm

# Every test lives under tests/ (see tests/__init__.py); the parts below are its folders, and
# nbval re-executes the chapters. tests/skips.py turns any unexplained skip into a failure.
PYTEST := $(PYTHON) -m pytest -q -rs -p no:cacheprovider -p tests.skips -p tests.xdist_units \
          --durations=25
# pytest-xdist: the tests run in parallel in units of work (tests/xdist_units.py): a test file, a
# chapter under nbval (its cells in order in one kernel) or one deck of the deck checks per
# unit, so a file's fixtures (chromium, a JupyterLab server) start once per worker and the
# decks spread over the workers. One worker per core. `make check PYTEST_WORKERS=0` runs
# them serially. --durations lists the slowest tests.
PYTEST_WORKERS ?= 2
PARALLEL := $(if $(filter 0,$(PYTEST_WORKERS)),,-n $(PYTEST_WORKERS) --dist loadscope)
NBVAL := --nbval chapters --nbval-sanitize-with tests/book/nbval_sanitize.cfg
UNIT_TESTS := tests/package tests/engine tests/book
BROWSER_TESTS := tests/browser
# The developer's loop (`make test`): no browser but for the website's own pages (that they work
# offline, pass axe and reflow on a phone), so it stays under 3 minutes on two cores. The rest
# of tests/browser (every slide of every deck inspected, the live figures in pages, decks and
# JupyterLab, RISE, the reader's archive installed and run in JupyterLab) and the hub take
# another 17 minutes; `make check` runs them all.
LOOP_TESTS := $(UNIT_TESTS) tests/browser/test_site.py tests/browser/test_accessibility.py \
              tests/browser/test_reflow.py
# The course's hub (a real JupyterHub, ten simulated students; TEACHING.md, "Teaching a class"):
# the last part of `make check`, after the rest and on its own, since its ten students load both
# cores (about 7 minutes); `make hub` runs only it. In `make check` the class that runs the MCMC
# chapter at once (tests/hub/test_class.py) has CHECK_CLASS_SIZE students, so that CI's run
# stays under 45 minutes; `make hub` runs it with ten.
HUB_TESTS := tests/hub
CHECK_CLASS_SIZE ?= 5

.PHONY: help book test check lab locks outputs env-reader env-build env-test npm assets slides unit \
        nbval browser lint golden reader-check benchmark clean widgets mutation mutation-js hub \
        hub-capacity portability assignments grading-report pageweight student-chapters

help: ## list the targets
	@echo "make book    builds the website (with decks, handouts, archive and PDF)"
	@echo "make check   runs every test (CI runs it; CI's log gives its time)"
	@echo "make test    the developer's loop, the part of make check to run after every change (under 3 min)"
	@grep -E '^[a-z][a-z -]*:.*## ' $(MAKEFILE_LIST) \
	  | sed -E 's/^([a-z -]+):.*## (.*)$$/\1\t\2/' \
	  | awk -F '\t' '{ printf "  %-26s %s\n", $$1, $$2 }'

# A venv with a lock installed; the copy of the lock (and of code/pyproject.toml, whose version
# the editable install's metadata holds) in the venv says it is current, so a second run
# installs nothing. pip 25.1 or newer: older pip ignores the PEP 639 licence in `pip show`.
# The stamp cannot tell whose code/ the venv's editable bayescomp is: a venv shared by two
# clones holds the one installed last. So every env target also checks that bayescomp is found
# in this checkout's code/ (without importing it) and installs it from here when it is not.
export BAYESCOMP_HERE := import importlib.util, pathlib, sys; \
  spec = importlib.util.find_spec("bayescomp"); \
  sys.exit(spec is None or pathlib.Path(spec.origin).resolve().parent != pathlib.Path("code/bayescomp").resolve())
env-reader env-build env-test: ## install the reader, build or test lock into the venv
ifeq ($(origin PYTHON),command line)
	@test -x "$(PYTHON)" || { echo "PYTHON=$(PYTHON) does not exist or is not executable." >&2; exit 2; }
	@test -f "$(ENV)/pyvenv.cfg" || { \
	  echo "PYTHON=$(PYTHON) is not the python of a virtual environment (no $(ENV)/pyvenv.cfg)." >&2; \
	  echo "Pass a venv's python (PYTHON=/path/to/venv/bin/python), activate a venv, or pass no" >&2; \
	  echo "PYTHON at all and the commands set up .venv/ in this checkout." >&2; exit 2; }
else
	@test -x $(PYTHON) || $(BOOTSTRAP_PYTHON) -m venv $(ENV)
endif
	@cat $(LOCK_$(@:env-%=%)) code/pyproject.toml | cmp -s - $(ENV)/.bayescomp-$@.lock || { \
	  echo "Installing the locked $(@:env-%=%) set into $(ENV) ..."; \
	  $(PYTHON) -m pip install -q "pip>=25.1" && \
	  $(PYTHON) -m pip install -q -r $(LOCK_$(@:env-%=%)) && \
	  cat $(LOCK_$(@:env-%=%)) code/pyproject.toml > $(ENV)/.bayescomp-$@.lock; }
	@$(PYTHON) -c "$$BAYESCOMP_HERE" || { \
	  echo "bayescomp in $(ENV) is not this checkout's code/: installing it from here (editable) ..."; \
	  $(PYTHON) -m pip install -q --no-deps -e ./code && $(PYTHON) -c "$$BAYESCOMP_HERE"; }

npm: ## install the pinned front-end files (tools/npm/node_modules)
	@test $(NPM_DIR)/node_modules/.package-lock.json -nt $(NPM_DIR)/package-lock.json \
	  || npm ci --prefix $(NPM_DIR) --no-audit --no-fund --silent

# Front-end files the build uses (never a CDN): MathJax 3 typesets the website's and the decks'
# math in Node (tools/website/prerendered_math.py, tools/slides/typeset_deck.cjs) from tools/npm,
# so neither serves a math script.
assets: npm ## install the front-end files the website's build uses (MathJax, axe-core)

# The live figures, after changing code/widgets: esbuild (pinned in tools/npm) rebuilds the two
# bundles (the figures' classic script for pages, decks and anywidget, the questions' script) into _build/widgets
# with a demo page and the package's data script, and copies the bundles into the package
# (code/bayescomp/book/static/, package data). Commit them: readers get them with no Node.js, and
# tests/package/test_distribution.py fails while the committed copies are stale.
widgets: env-reader npm ## rebuild the live figures' bundles into the package (then commit them)
	node code/widgets/build.mjs _build/widgets
	cp _build/widgets/bayescomp-widgets.js _build/widgets/bayescomp-question.js \
	   code/bayescomp/book/static/
	$(PYTHON) -m bayescomp.book.widgets _build/widgets

# Decks, the live figures' still images (for paper and RISE), then the PDF handouts (one slide
# per page, its speaker notes below it), drawn and printed offline by Debian's chromium.
slides: env-build npm ## build the lecture decks, the live figures' stills and the PDF handouts
	$(PYTHON) -m tools.slides.build --out $(SLIDES)
	bash tools/scripts/install_chromium.sh
	$(PYTHON) -m tools.slides.stills $(SLIDES)
	$(PYTHON) -m tools.slides.handouts $(SLIDES)
	mkdir -p $(REPORTS) && $(PYTHON) -m tools.slides.lectures > $(REPORTS)/term-plan.md

# The website, with the two downloads it links from every chapter (_build/download, served from
# its top folder): the archive that runs with Python alone, and the whole book as one PDF; and,
# beside them, the chapters' questions as a question bank for an LMS quiz (Moodle XML, GIFT).
book: env-build assets slides ## build the website into _build/html (decks, archive, PDF, question bank)
	$(PYTHON) -m tools.download.archive _build/download
	$(PYTHON) -m tools.download.question_bank _build/download
	$(PYTHON) -m tools.scripts.execution_cache
	$(PYTHON) -m tools.pdf.build _build/download/bayescomp-book.pdf
	$(PYTHON) -m jupyter book build . -W -n --keep-going
	@echo "Website: $(SITE)/index.html"

# The reader's path: JupyterLab on the chapters, MyST rendered, RISE for live slides.
# `jupyter trust`: JupyterLab then runs the scripts stored in the chapters' outputs, so the
# self-check questions work before a chapter has run (an untrusted chapter shows them with the
# answer folded away, and no Check button).
# BAYESCOMP_STILLS: where `make slides` put the live figures' stills, for RISE (the package
# never looks for a checkout's _build itself).
lab: env-reader ## open the chapters in JupyterLab
	$(PYTHON) -m jupyter trust chapters/*.ipynb > /dev/null
	BAYESCOMP_STILLS=$(CURDIR)/_build/widgets/stills \
	  $(PYTHON) -m jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) chapters/

# The linters, settings in the repository: ruff (ruff.toml, the test lock) over the Python and
# eslint (eslint.config.mjs, tools/npm) over the JavaScript; `make test` and `make check` run them.
lint: env-test npm ## ruff over the Python, eslint over the JavaScript
	$(PYTHON) -m ruff check code tools tests
	$(NPM_DIR)/node_modules/.bin/eslint --config eslint.config.mjs code/widgets tests/engine tools

# The chapters come first: the longest units of work start first, so both workers end together.
test: env-test lint ## the developer's loop (after `make book`): linters, package, engine, chapters, website
	bash tools/scripts/install_chromium.sh
	$(PYTEST) $(PARALLEL) $(NBVAL) $(LOOP_TESTS)

check: env-test lint slides ## every test (after `make book`; what CI runs): the suite, then the hub
	bash tools/scripts/install_chromium.sh
	$(PYTEST) $(PARALLEL) tests --ignore=$(HUB_TESTS) $(NBVAL)
	CLASS_SIZE=$(CHECK_CLASS_SIZE) $(PYTEST) $(HUB_TESTS)

unit: env-test ## the package, the widgets' engine and the stored chapters (no browser)
	$(PYTEST) $(PARALLEL) $(UNIT_TESTS)

nbval: env-test ## re-execute every chapter and compare its stored outputs
	$(PYTEST) $(PARALLEL) $(NBVAL)

browser: env-test slides ## the browser checks: website, decks, JupyterLab, RISE, widgets
	bash tools/scripts/install_chromium.sh
	$(PYTEST) $(PARALLEL) $(BROWSER_TESTS)

# The stored outputs on other CPUs (not part of `make check`: four nbval runs, about 15 min): every
# chapter re-executed under OpenBLAS's Prescott and Sandybridge kernels, each with NumPy's own
# dispatch and with it cut to X86_V3, as on a CPU without AVX-512. (Cutting a feature the CPU
# lacks is refused by NumPy, so the X86_V3 runs need an AVX-512 CPU, as these machines have.)
NO_AVX512 := X86_V4 AVX512_ICL AVX512_SPR
portability: env-test ## re-execute every chapter under other CPUs' BLAS kernels and SIMD dispatch
	@for core in Prescott Sandybridge; do for cut in "" "$(NO_AVX512)"; do \
	  echo "== OPENBLAS_CORETYPE=$$core NPY_DISABLE_CPU_FEATURES='$$cut'"; \
	  OPENBLAS_CORETYPE=$$core NPY_DISABLE_CPU_FEATURES="$$cut" \
	    $(PYTEST) $(PARALLEL) $(NBVAL) || exit 1; done; done

# The engine's golden values for `npm test` in code/widgets (the tests write their own).
golden: env-reader ## write the widgets' golden values to _build/widgets/golden.json
	$(PYTHON) -m tests.engine.golden

# After changing bayescomp: re-execute every chapter from a fresh kernel and store its outputs.
outputs: env-test ## re-execute every chapter and store its outputs
	$(PYTHON) -m tools.scripts.execute_chapters

# Proves the reader install is enough: a fresh reader-only venv runs every chapter.
reader-check: ## check that requirements.txt alone gives JupyterLab, its extensions and bayescomp
	bash tools/scripts/check_reader_env.sh

# A course on a local JupyterHub (tools/hub): the students' environment (the hub lock, in
# _build/hub/venv), configurable-http-proxy from tools/npm, ten students in chromium at once,
# nbgitpuller, the faults a class hits, the Binder configuration. Everything on 127.0.0.1.
hub: env-test npm ## the book on a local JupyterHub: ten students at once, updates, faults
	bash tools/scripts/install_chromium.sh
	$(PYTEST) $(HUB_TESTS)

# What a class costs the local hub (TEACHING.md, "Capacity"): N = 1, 5 and 10 students, against the
# course's Z2JH design targets, into _build/reports/hub-capacity.md (no guide copies its figures).
hub-capacity: env-test npm ## measure a class on the local hub against the Z2JH sizes (_build/reports/hub-capacity.md)
	bash tools/scripts/install_chromium.sh
	mkdir -p $(REPORTS)
	$(PYTHON) -m tools.benchmarks.hub_capacity > $(REPORTS)/hub-capacity.md
	cat $(REPORTS)/hub-capacity.md

# The course's homework (course/, TEACHING.md "Homework"): rewrite the nbgrader source notebooks
# from tools/course/assignments.py (tests/course fails while the committed ones are stale).
assignments: env-test ## rewrite the course's nbgrader source notebooks (course/source)
	$(PYTHON) -m tools.course.assignments

# The chapters for a course's students (TEACHING.md, "Student copies without solutions"): every
# exercise's solution removed, nothing else, into OUT/chapters, ready to publish as the course's
# repository for its nbgitpuller links.
student-chapters: env-reader ## write the chapters without their solutions to OUT (make student-chapters OUT=dir)
	@test -n "$(OUT)" || { echo "Say where: make student-chapters OUT=dir" >&2; exit 2; }
	$(PYTHON) -m tools.course.student_chapters $(OUT)

# How often the homework's grading fails an honest student (at most 1 %) and catches a wrong one,
# over 1,000 simulated students per assignment (not part of `make check`; about 10 min on 2 cores).
grading-report: env-test ## measure the grading's false-fail and catch rates (_build/reports/grading.md)
	nice -n 10 $(PYTHON) -m tools.course.rates

# Regenerate the five locks, top down, so the reader, build and hub sets pin exactly the versions
# the test set pins; cffconvert's (CITATION.cff's validator, in a venv of its own since it needs
# jsonschema < 4) on its own.
UV_COMPILE := uv pip compile --universal --python-version 3.11 --fork-strategy fewest --custom-compile-command "make locks"
locks: ## regenerate the five locks (needs uv)
	$(UV_COMPILE) tools/requirements/test.in -o $(LOCK_test)
	mkdir -p _build && grep -v '^-e ' $(LOCK_test) > _build/test-constraints.txt
	$(UV_COMPILE) -c _build/test-constraints.txt tools/requirements/build.in -o $(LOCK_build)
	$(UV_COMPILE) -c _build/test-constraints.txt tools/requirements/reader.in -o $(LOCK_reader)
	$(UV_COMPILE) -c _build/test-constraints.txt tools/requirements/hub.in -o $(LOCK_hub)
	$(UV_COMPILE) tools/requirements/cff.in -o tools/requirements/cff.txt

# The mutation study (not part of `make check` or CI; about 20 min on 2 cores): mutmut 3 mutates the
# package's numerical core (tools/mutation/setup.cfg: every module but those it names) in a copy
# under _build/mutation and, for each mutant, runs only the tests below that call the mutated
# function (mutmut maps tests to functions in a first run). The tests are every package test but
# those of the book's subpackage and of modules outside the core (MUTATION_NOT), so a new
# method's tests join with no edit; the score per module goes to _build/reports/mutation.md.
MUTATION := _build/mutation
MUTATION_NOT := cpu_independence display distribution docstrings error_rates grading hierarchical \
	homework imports lean_figures plain_benchmark predictive_plots questions rank_plot version \
	weight_tail_plots widgets
MUTATION_TESTS := $(filter-out $(MUTATION_NOT:%=tests/package/test_%.py),$(sort $(wildcard tests/package/test_*.py)))
mutation: env-test ## mutation study of the numerical core (mutmut; slow, not in `make check`)
	rm -rf $(MUTATION) && mkdir -p $(MUTATION)/tests/package
	cp -r code/bayescomp tools/mutation/setup.cfg $(MUTATION)/
	cp tests/__init__.py $(MUTATION)/tests/
	cp tests/package/__init__.py tests/package/conftest.py tests/package/densities.py \
	  $(MUTATION_TESTS) $(MUTATION)/tests/package/
	cd $(MUTATION) && nice -n 10 $(PYTHON) -m mutmut run --max-children 2 > mutmut.log 2>&1 \
	  || { tail -30 $(MUTATION)/mutmut.log; exit 1; }
	mkdir -p $(REPORTS)
	$(PYTHON) -m tools.mutation.report $(MUTATION) > $(REPORTS)/mutation.md
	cat $(REPORTS)/mutation.md

# The engine's mutation study (not part of `make check` or CI; about 50 min on 2 busy cores):
# StrykerJS, from its own npm lock in tools/mutation/js, mutates the numerical core of the
# widgets' engine in a copy under _build/mutation-js, one Stryker run per entry below (a file,
# or file:lines), and runs tests/engine/engine.test.mjs against each mutant on golden values the
# package writes there. Stryker instruments only what a run mutates, and every test run pays for
# it, so each file has its own run. Of diagnostics.js only the production half (lines 213-509,
# rank-normalized R-hat, bulk and tail ESS) is mutated: the lecture's half with the FFT
# (diagnostics:1-212, 247 mutants, each test run slowed by the FFT's instrumented loops) was
# left out for time, as were the other ten files. _build/reports/mutation-js.md has the score per
# file and lists every mutant not killed, and recheck.mjs re-tries them against the tests.
STRYKER_DIR := tools/mutation/js
MUTATION_JS := _build/mutation-js
MUTATION_JS_RUNS := numeric random metropolis hmc diagnostics:213-509
mutation-js: env-reader ## mutation study of the widgets' engine (StrykerJS; slow, not in `make check`)
	@test $(STRYKER_DIR)/node_modules/.package-lock.json -nt $(STRYKER_DIR)/package-lock.json \
	  || npm ci --prefix $(STRYKER_DIR) --no-audit --no-fund --silent
	rm -rf $(MUTATION_JS) && mkdir -p $(MUTATION_JS)/code/widgets $(MUTATION_JS)/tests/engine
	cp -r code/widgets/engine code/widgets/package.json $(MUTATION_JS)/code/widgets/
	cp tests/engine/engine.test.mjs $(MUTATION_JS)/tests/engine/
	cp $(STRYKER_DIR)/stryker.config.json $(STRYKER_DIR)/skip-coverage-count*.mjs $(MUTATION_JS)/
	$(PYTHON) -m tests.engine.golden $(MUTATION_JS)/inputs/golden.json
	$(PYTHON) -m bayescomp.book.widgets $(MUTATION_JS)/inputs
	cd $(MUTATION_JS) && for run in $(MUTATION_JS_RUNS); do \
	  name=$$(echo $$run | tr : -); file=$${run%%:*}; \
	  BAYESCOMP_GOLDEN=$(CURDIR)/$(MUTATION_JS)/inputs/golden.json \
	  BAYESCOMP_DATA=$(CURDIR)/$(MUTATION_JS)/inputs/bayescomp-widgets-data.js \
	  nice -n 10 $(CURDIR)/$(STRYKER_DIR)/node_modules/.bin/stryker run \
	    --mutate code/widgets/engine/$$file.js$${run#$$file} > stryker-$$name.log 2>&1 \
	    || { tail -30 stryker-$$name.log; exit 1; }; \
	  mv reports/mutation.json reports/$$name.json && mv reports/mutation.html reports/$$name.html; \
	done
	mkdir -p $(REPORTS)
	node $(STRYKER_DIR)/report.mjs $(MUTATION_JS)/reports > $(REPORTS)/mutation-js.md
	cat $(REPORTS)/mutation-js.md

# Timings as ratios measured side by side in one run (the machine is shared and noisy). Every
# study below writes its report into $(REPORTS) (tests/README.md lists them); no guide copies them.
benchmark: env-test npm ## run every benchmark in tools/benchmarks (not tests)
	bash tools/scripts/install_chromium.sh
	mkdir -p $(REPORTS)
	$(PYTHON) -m tools.benchmarks.stages > $(REPORTS)/stages.md
	$(PYTHON) -m tools.benchmarks.plain_numpy_lecture > $(REPORTS)/plain-numpy.md
	$(PYTHON) -m tools.benchmarks.widgets > $(REPORTS)/widgets.md
	cat $(REPORTS)/stages.md $(REPORTS)/plain-numpy.md $(REPORTS)/widgets.md

# What each page costs a phone (tools/benchmarks/pageweight.py): bytes by kind, requests, and the
# first paint and load under Fast 3G and a 4x slower CPU, into _build/reports/pageweight.md.
# BEFORE=<folder of an older build> measures it too, side by side in the same run.
pageweight: env-test ## weigh and time every page of the built site on a phone (after make book)
	bash tools/scripts/install_chromium.sh
	$(PYTHON) -m tools.benchmarks.pageweight $(if $(BEFORE),--before $(BEFORE))

clean: ## delete _build
	rm -rf _build
