# Two commands for a newcomer:  `make book` builds the website, `make test` runs every test.
# Both install what they need first (pip packages, npm front-end files, Debian's chromium).
PYTHON ?= python3
SITE := _build/html

.PHONY: book test install assets slides unit nbval browser benchmark clean

install:
	$(PYTHON) -m pip install -q -r requirements.txt
	npm ci --prefix tools --no-audit --no-fund --silent

# Front-end files the site serves itself (never a CDN): MathJax 3 as one self-contained file.
assets: install
	mkdir -p _build/vendor/mathjax
	cp tools/node_modules/mathjax/es5/tex-svg-full.js _build/vendor/mathjax/

slides: install
	$(PYTHON) tools/build_slides.py --out _build/slides_out/slides

book: assets slides
	$(PYTHON) -m jupyter book build . -W -n --keep-going
	@echo "Website: $(SITE)/index.html"

unit: install
	$(PYTHON) -m pytest -q code/tests

nbval: install
	$(PYTHON) -m pytest -q --nbval chapters --nbval-sanitize-with tools/nbval_sanitize.cfg -p no:cacheprovider

browser: install slides
	bash tools/install_chromium.sh
	$(PYTHON) -m pytest -q tools/test_slides.py

test: install slides
	bash tools/install_chromium.sh
	$(PYTHON) -m pytest -q -p no:cacheprovider code/tests tools/test_slides.py tools/test_site.py \
		--nbval chapters --nbval-sanitize-with tools/nbval_sanitize.cfg

benchmark: install
	$(PYTHON) tools/benchmark.py

clean:
	rm -rf _build
