# Two commands set everything up on a fresh Debian/Ubuntu machine:
#   make run    installs the app's packages in .venv and serves the app on http://localhost:8501
#   make test   installs everything the tests need (Python packages, Chromium, a CJK font and the
#               TeX Live packages the worksheets compile with), then runs make lint and the suite
#   make lint   ruff, the layer contracts (import-linter) and the type checker (mypy)
#   make serve-lecture REPLICAS=3   a class on several app servers: nginx in front, one PostgreSQL
#   make test-fast  the suite without the browser and slow tests, for the edit-test loop
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMPS := .stamps
PORT ?= 8501
ADDRESS ?= localhost
REPLICAS ?= 3
# nginx and PostgreSQL: several app servers for one class (make serve-lecture, and its tests).
LECTURE_PACKAGES := nginx postgresql
APT_PACKAGES := chromium fonts-wqy-microhei $(LECTURE_PACKAGES)
# The LaTeX worksheets: pdflatex with geometry, amsmath and Latin Modern (en, es, tr); xelatex with
# the ctexart class and its Fandol fonts (zh). Installed without recommends: the documentation and
# the extra fonts they recommend are not needed to compile.
TEX_PACKAGES := texlive-latex-base texlive-latex-recommended texlive-fonts-recommended lmodern \
	texlive-xetex texlive-lang-chinese

# The suite runs on every core (pytest-xdist; WORKERS=0 runs it in this one process). Tests that
# must share a worker (one costly module fixture: the built wheel, the JupyterLab server) carry
# @pytest.mark.xdist_group, which --dist loadgroup keeps together.
WORKERS ?= auto
PYTEST := $(PY) -m pytest -n $(WORKERS) --dist loadgroup

.PHONY: run serve-class serve-lecture test test-fast lint bench setup setup-test os-packages clean

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

# Installs the Debian packages of $(1) that are missing, with apt-get options $(2).
define apt_install
	@missing=""; \
	for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else \
	    echo "Cannot install$$missing without root: the tests that need them will be skipped."; exit 0; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(2) $$missing >/dev/null; \
	fi
endef

# Browser tests need Debian's Chromium and a CJK font (Chinese renders as boxes without one), and
# axe-core from the npm registry for the accessibility check; the worksheet test needs TeX Live;
# the class tests need nginx and PostgreSQL (started by the tests on loopback, never as services).
os-packages:
	$(call apt_install,$(APT_PACKAGES),)
	$(call apt_install,$(TEX_PACKAGES),--no-install-recommends)
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

# A class on REPLICAS app servers behind nginx (sticky sessions), all sharing one throwaway
# PostgreSQL, on every interface of this machine at PORT (deploy/lecture.py; Ctrl+C stops all).
serve-lecture: setup
	$(call apt_install,$(LECTURE_PACKAGES),)
	$(PY) -m deploy.lecture --replicas $(REPLICAS) --port $(PORT)

# The layers' import rules are contracts in pyproject.toml ([tool.importlinter]); mypy's files and
# strictness are there too ([tool.mypy]).
lint: $(STAMPS)/dev
	$(VENV)/bin/ruff check .
	PYTHONPATH=. $(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

test: setup-test
	$(MAKE) --no-print-directory lint
	$(PYTEST)

test-fast: $(STAMPS)/dev
	$(PYTEST) -m "not slow and not browser"

# Every script in bench/, each at quick settings (a few minutes in all); each prints its ratios side
# by side in one run. The README's Performance section gives the full settings behind its figures.
bench: $(STAMPS)/dev os-packages
	$(PY) -m bench.bench_core --sizes 1e4 1e6 --repeat 3
	$(PY) -m bench.bench_app --repeats 5
	$(PY) -m bench.bench_browser --repeats 3 --cold 1
	$(PY) -m bench.bench_resampling --sizes 1e4 1e5 --resamples 2000 --naive-resamples 5
	$(PY) -m bench.bench_thresholds --sizes 1e4 --seeds 2 --repeat 1
	$(PY) -m bench.bench_browser_thresholds --repeats 2
	$(PY) -m bench.bench_batch --lines 1e3
	$(PY) -m bench.grading_audit --cases 100
	$(PY) -m bench.load_classroom --edits 2
	$(PY) -m bench.memory_session --pastes 3 --uploads 1
	$(PY) -m bench.share_links --sizes 50 200

clean:
	rm -rf $(VENV) $(STAMPS) .cache .pytest_cache .ruff_cache .mypy_cache .import_linter_cache .hypothesis
