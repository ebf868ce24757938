# Two commands on a fresh machine with Python 3.11:  make run   and   make test
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
CORES ?= 4

# Offline model loading and a persistent numba cache (UMAP's JIT costs ~13 s per process).
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache

.PHONY: run test test-fast dry-run lint bench clean

$(VENV)/.installed: requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements.lock
	$(BIN)/pip install -q --no-deps -e .
	touch $@

# Snakemake reads profiles/default/ (beside the Snakefile) by itself.
run: $(VENV)/.installed
	$(BIN)/snakemake --cores $(CORES)

test: $(VENV)/.installed
	$(BIN)/python -m pytest

dry-run: $(VENV)/.installed
	$(BIN)/snakemake -n

lint: $(VENV)/.installed
	$(BIN)/snakemake --lint

# The SLURM cluster test (root): a one-node SLURM on this machine, the DAG on the seeds through
# workflow/profiles/slurm and locally, outputs compared byte for byte. Uses its own venv,
# .venv-cluster (requirements-cluster.txt): the SLURM plugin stays out of $(VENV).
.PHONY: test-cluster
test-cluster:
	PYTHON=$(PYTHON) CORES=$(CORES) tests/cluster/run_cluster_test.sh
