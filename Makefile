# Two commands on a fresh machine: `make run` (set up + start) and `make test` (set up + test).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q -U pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

run: setup
	$(BIN)/advisor web

# Network blocked for the whole suite; only loopback is allowed (local test servers).
test: setup
	$(BIN)/python -m pytest --disable-socket --allow-unix-socket \
		--allow-hosts=127.0.0.1,localhost,::1 $(PYTEST_ARGS)

clean:
	rm -rf $(VENV)
