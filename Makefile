# Two commands on a fresh machine with Python 3.11:  make run   and   make test
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
CORES ?= 4

# Offline model loading and a persistent numba cache (UMAP's JIT costs ~13 s per process).
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache

.PHONY: run test dry-run lint

$(VENV)/.installed: requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements.lock
	$(BIN)/pip install -q --no-deps -e .
	touch $@

# Snakemake reads profiles/default/ (beside the Snakefile) by itself.
run: $(VENV)/.installed
	$(BIN)/snakemake --cores $(CORES)

# PYTEST_ARGS picks tests: `make test PYTEST_ARGS="tests/test_embedding.py -x"`.
PYTEST_ARGS ?=
test: $(VENV)/.installed
	$(BIN)/python -m pytest $(PYTEST_ARGS)

dry-run: $(VENV)/.installed
	$(BIN)/snakemake -n

# ruff (lint + format check, one line length, no relative imports: pyproject.toml), snakefmt, and
# snakemake --lint, whose only accepted finding is its advice to give each rule a conda env or container.
LINT_ACCEPTED := Specify a conda environment or container for each rule.
lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/snakefmt --check Snakefile workflow/rules
	@out="$$($(BIN)/snakemake --lint 2>&1)"; rc=$$?; \
	findings="$$(printf '%s\n' "$$out" | grep -E '^[[:space:]]+\* .+:$$' | sed -E 's/^[[:space:]]+\* (.+):$$/\1/' | sort -u)"; \
	other="$$(printf '%s\n' "$$findings" | grep -vxF '$(LINT_ACCEPTED)' | grep . || true)"; \
	if [ -n "$$other" ] || { [ $$rc -ne 0 ] && [ -z "$$findings" ]; }; then \
		printf '%s\n' "$$out"; echo "snakemake --lint: findings beyond the accepted conda/container advice" >&2; exit 1; \
	fi; \
	echo "snakemake --lint: nothing but the accepted conda/container advice"

# The SLURM cluster test (root): a one-node SLURM on this machine, the DAG on the seeds through
# workflow/profiles/slurm and locally, outputs compared byte for byte. Uses its own venv,
# .venv-cluster (requirements-cluster.txt): the SLURM plugin stays out of $(VENV).
.PHONY: test-cluster
test-cluster:
	PYTHON=$(PYTHON) CORES=$(CORES) tests/cluster/run_cluster_test.sh
