# Every target bootstraps its own environment: a fresh machine needs only python3 and make.
PY      ?= python3
UV_DIR  := .cache/uv-bin
UV      := $(UV_DIR)/bin/uv
VENV    := .venv
RUN     := $(UV) run --frozen
CODE    := pwc_core pwc_cli pwc_mcp tests

.PHONY: install test lint format regen new-command run demo bench dist interop smoke clean

$(UV):
	@command -v uv >/dev/null 2>&1 && { mkdir -p $(UV_DIR)/bin; ln -sf "$$(command -v uv)" $(UV); } \
	  || $(PY) -m pip install --quiet --target $(UV_DIR)/lib uv && { mkdir -p $(UV_DIR)/bin; \
	     [ -e $(UV) ] || printf '#!/bin/sh\nPYTHONPATH=%s exec %s -m uv "$$@"\n' "$(CURDIR)/$(UV_DIR)/lib" "$(PY)" > $(UV) && chmod +x $(UV); }

$(VENV)/.installed: $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --all-extras --python $(PY)
	@touch $@

install: $(VENV)/.installed  ## create .venv from the lock file

test: install  ## run the whole test suite (unit, end-to-end over loopback)
	$(RUN) pytest

lint: install
	$(RUN) ruff check $(CODE)
	$(RUN) ruff format --check $(CODE)
	$(RUN) mypy
	bash tests/js/typecheck.sh  # the app's JavaScript: tsc --checkJs, TypeScript bootstrapped into .cache

format: install
	$(RUN) ruff format $(CODE)
	$(RUN) ruff check --fix $(CODE)

regen: install  ## rewrite every generated file (README regions, interop plan, tools/list golden)
	$(RUN) python scripts/regen.py

new-command: install  ## the README's "Adding a command or tool", done on a copy and tested (CI)
	$(RUN) python scripts/check_new_command.py

run: install  ## production: serve /mcp on 127.0.0.1:$${PORT:-7860} against the public catalog
	$(RUN) pwc-mcp

# The demo is for a human trying SDK loops: the public per-client limits (60 requests and 10
# semantic searches a minute, 4 concurrent) are raised unless already set in the environment.
DEMO_LIMITS = PWC_MCP_REQUEST_LIMIT=$(or $(PWC_MCP_REQUEST_LIMIT),1000) \
  PWC_MCP_SEMANTIC_LIMIT=$(or $(PWC_MCP_SEMANTIC_LIMIT),200) \
  PWC_MCP_CONCURRENCY_LIMIT=$(or $(PWC_MCP_CONCURRENCY_LIMIT),16)

demo: install  ## offline: sample catalog + MCP server on loopback (PORT, PWC_SAMPLE_PORT pin them)
	@echo "make demo: per-client limits raised for local use: $(strip $(DEMO_LIMITS))"
	$(DEMO_LIMITS) $(RUN) pwc-mcp --sample-catalog

bench: install  ## benchmarks side by side (not part of the test suite)
	$(RUN) python -m bench

dist: install  ## build the sdist and wheel into dist/, twine-check, install in a fresh venv, use it
	$(RUN) python scripts/check_dist.py

interop: install  ## the official MCP conformance suite and the Inspector CLI, on loopback
	bash scripts/interop.sh

smoke: install  ## deployment smoke test: make smoke URL=https://host
	$(RUN) python scripts/smoke.py $(URL)

clean:
	rm -rf $(VENV) .cache .pytest_cache .ruff_cache dist build
