# Two commands set everything up on a fresh Debian/Ubuntu machine:
#   make run    installs the app's packages in .venv and serves the app on http://localhost:8501
#   make test   installs everything the tests need (Python packages, Chromium and a CJK font),
#               then runs ruff and the whole test suite
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMPS := .stamps
PORT ?= 8501
ADDRESS ?= localhost
APT_PACKAGES := chromium fonts-wqy-microhei

.PHONY: run serve-class test lint bench setup setup-test os-packages clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMPS)/app: requirements.txt pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .
	@mkdir -p $(STAMPS) && touch $@

$(STAMPS)/dev: requirements-dev.txt $(STAMPS)/app
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@mkdir -p $(STAMPS) && touch $@

setup: $(STAMPS)/app

setup-test: $(STAMPS)/dev os-packages

# Browser tests need Debian's Chromium and a CJK font (Chinese renders as boxes without one), and
# axe-core from the npm registry for the accessibility check.
os-packages:
	@missing=""; \
	for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else \
	    echo "Cannot install$$missing without root: browser tests will be skipped."; exit 0; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
	@if [ ! -f .cache/npm/node_modules/axe-core/axe.min.js ] && command -v npm >/dev/null; then \
	  npm install --silent --no-audit --no-fund --prefix .cache/npm axe-core@4 >/dev/null || \
	  echo "axe-core could not be installed: the accessibility test will be skipped."; fi

# The launcher (qwk_app/launch.py) imports everything and opens every page once as soon as the
# server answers, so the first visitor after a start does not wait for it.
run: setup
	$(PY) -m qwk_app.launch --port $(PORT) --address $(ADDRESS)

# Serve to the local network (a classroom): every interface, same port; share links and their QR
# codes use this machine's network address (or QWK_PUBLIC_URL when set), never localhost.
serve-class: setup
	$(PY) -m qwk_app.launch --class --port $(PORT)

lint: $(STAMPS)/dev
	$(VENV)/bin/ruff check .

test: setup-test
	$(VENV)/bin/ruff check .
	$(PY) -m pytest

bench: $(STAMPS)/dev os-packages
	$(PY) bench/bench_core.py
	$(PY) bench/bench_app.py
	$(PY) bench/bench_browser.py

clean:
	rm -rf $(VENV) $(STAMPS) .cache .pytest_cache .ruff_cache .hypothesis
