#!/usr/bin/env bash
# The cluster test (`make test-cluster`): run the workflow on the seed listings once through the
# SLURM executor (workflow/profiles/slurm, on a one-node SLURM on this machine) and once locally,
# and check that results/topics/document_topics.csv and results/topics/topics.csv are
# byte-identical between the two.  Prints a PASS/FAIL summary with per-job timings.
#
# Both runs use one snapshot of the workflow code (Snakefile, config, workflow/, src/) copied at
# the start, so that edits made to the tree while the test runs cannot make the runs differ.
#
# Needs root (tests/cluster/start_slurm.sh installs and starts SLURM + munge).  Creates
# .venv-cluster (requirements.lock + requirements-cluster.txt) if missing or stale: the SLURM
# executor plugin is kept out of the main .venv on purpose (see requirements-cluster.txt).
#
# Environment knobs:
#   PYTHON=python3.11     interpreter for creating .venv-cluster
#   CONFIG=path           workflow config to copy into the run directories
#                         (default: config/config.yaml, else config.yaml, in the repository)
#   CORES=4               --cores of the local run (as `make run`)
#   RUN_TIMEOUT=1800      seconds allowed for each of the two runs
#   KEEP_TMP=1            keep the run directories even when the test passes
#   KEEP_SLURM=1          leave the SLURM daemons running at the end
#   SNAKEMAKE_EXTRA="..." extra arguments for both runs
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

PYTHON=${PYTHON:-python3.11}
VENV=$ROOT/.venv-cluster
CORES=${CORES:-4}
RUN_TIMEOUT=${RUN_TIMEOUT:-1800}
COMPARE=(results/topics/document_topics.csv results/topics/topics.csv)
# Offline model loading and a persistent numba cache, as in the Makefile (SLURM jobs inherit
# the environment: the plugin submits with --export=ALL).
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
export NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-$ROOT/.numba_cache}

say() { printf '\n[test-cluster] %s\n' "$*"; }
die() { printf '\n[test-cluster] FAIL: %s\n' "$*" >&2; exit 1; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

[[ $(id -u) -eq 0 ]] || die "run as root (start_slurm.sh installs and starts SLURM)"
if [[ -f Snakefile ]]; then SNAKEFILE_REL=Snakefile
elif [[ -f workflow/Snakefile ]]; then SNAKEFILE_REL=workflow/Snakefile
else die "no Snakefile or workflow/Snakefile in $ROOT"; fi
if [[ -n ${CONFIG:-} ]]; then CONFIG_SRC=$CONFIG
elif [[ -f config/config.yaml ]]; then CONFIG_SRC=config/config.yaml
elif [[ -f config.yaml ]]; then CONFIG_SRC=config.yaml
else die "no workflow config found (config/config.yaml or config.yaml; or set CONFIG=...)"; fi

# --- 1. the cluster virtual environment -------------------------------------------------------
stamp=$VENV/.installed
if [[ ! -f $stamp || requirements.lock -nt $stamp || requirements-cluster.txt -nt $stamp \
      || pyproject.toml -nt $stamp ]]; then
    say "creating/updating $VENV (requirements.lock + requirements-cluster.txt)"
    t0=$(now)
    [[ -x $VENV/bin/python ]] || "$PYTHON" -m venv "$VENV"
    "$VENV/bin/pip" install -q --upgrade pip
    "$VENV/bin/pip" install -q -r requirements.lock -r requirements-cluster.txt
    "$VENV/bin/pip" install -q --no-deps -e .
    touch "$stamp"
    say "venv ready in $(elapsed "$t0" "$(now)") s"
fi
SNAKEMAKE=$VENV/bin/snakemake
"$VENV/bin/python" -c "import snakemake_executor_plugin_slurm" \
    || die "snakemake-executor-plugin-slurm missing from $VENV"

# --- 2. SLURM ---------------------------------------------------------------------------------
slurm_was_running=0
if [[ -s /run/slurmctld.pid ]] && [[ -r /proc/$(cat /run/slurmctld.pid)/comm ]] \
   && [[ $(cat "/proc/$(cat /run/slurmctld.pid)/comm") == slurmctld ]]; then
    slurm_was_running=1
fi
WORK=$(mktemp -d /tmp/papertopics-cluster.XXXXXX)
chmod 755 "$WORK"
result=FAIL
cleanup() {
    local rc=$?
    if [[ ${KEEP_SLURM:-0} != 1 && $slurm_was_running == 0 ]]; then
        "$ROOT/tests/cluster/stop_slurm.sh" || true
    fi
    if [[ $result == PASS && ${KEEP_TMP:-0} != 1 ]]; then
        rm -rf "$WORK"
    else
        printf '[test-cluster] run directories and logs kept in %s\n' "$WORK" >&2
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "starting SLURM"
"$ROOT/tests/cluster/start_slurm.sh"
NODE_CPUS=$(sinfo -h -N -o '%c' | sort -n | tail -n1)
SLURM_VERSION=$(sinfo --version)
srun -N1 -n1 -t 1 true || die "srun cannot run a trivial job"

# --- 3. the two runs --------------------------------------------------------------------------
# One snapshot of the code for both runs; scripts import papertopics from it (PYTHONPATH comes
# before the editable install's path), and so does the Snakefile's own process.
CODE=$WORK/code
mkdir -p "$CODE"
tar -C "$ROOT" --exclude=__pycache__ --exclude='*.egg-info' --exclude='*.pyc' \
    -cf - "$SNAKEFILE_REL" profiles workflow src | tar -C "$CODE" -xf -
SNAKEFILE=$CODE/$SNAKEFILE_REL
export PYTHONPATH=$CODE/src${PYTHONPATH:+:$PYTHONPATH}
CODE_HASH=$(cd "$CODE" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
# Same inputs in two fresh directories: the seed listings and the workflow config.
for d in local slurm; do
    mkdir -p "$WORK/$d"
    cp -r seeds "$WORK/$d/seeds"
    cp "$CONFIG_SRC" "$WORK/$d/config.yaml"
done

# Both runs cap every job at the node's CPU count, so that each job gets the same number of
# threads locally and under SLURM (sbatch refuses --cpus-per-task above the node's CPUs).
COMMON=(--snakefile "$SNAKEFILE" --max-threads "$NODE_CPUS" ${SNAKEMAKE_EXTRA:-})

say "local run: snakemake --workflow-profile profiles/default --cores $CORES -> $WORK/local"
t0=$(now); local_rc=0
timeout "$RUN_TIMEOUT" "$SNAKEMAKE" "${COMMON[@]}" --workflow-profile "$CODE/profiles/default" \
    --cores "$CORES" --directory "$WORK/local" --configfile "$WORK/local/config.yaml" \
    >"$WORK/local.log" 2>&1 || local_rc=$?
local_s=$(elapsed "$t0" "$(now)")
tail -n 3 "$WORK/local.log"

say "SLURM run: snakemake --workflow-profile workflow/profiles/slurm -> $WORK/slurm"
t0=$(now); slurm_rc=0
timeout "$RUN_TIMEOUT" "$SNAKEMAKE" "${COMMON[@]}" --workflow-profile "$CODE/workflow/profiles/slurm" \
    --slurm-keep-successful-logs --directory "$WORK/slurm" --configfile "$WORK/slurm/config.yaml" \
    >"$WORK/slurm.log" 2>&1 || slurm_rc=$?
slurm_s=$(elapsed "$t0" "$(now)")
tail -n 3 "$WORK/slurm.log"

# --- 4. summary -------------------------------------------------------------------------------
say "summary"
echo "  SLURM:     $SLURM_VERSION, node $(sinfo -h -N -o '%N CPUs=%c RealMemory=%m MB')"
echo "  Snakemake: $("$SNAKEMAKE" --version), plugin $("$VENV/bin/pip" show snakemake-executor-plugin-slurm 2>/dev/null | awk '/^Version/ {print $2}')"
echo "  code:      snapshot of $ROOT ($SNAKEFILE_REL, workflow/, src/; tree hash $CODE_HASH), config $CONFIG_SRC"
echo "  local run: exit $local_rc, ${local_s} s  (log: $WORK/local.log)"
echo "  SLURM run: exit $slurm_rc, ${slurm_s} s  (log: $WORK/slurm.log, job logs: $WORK/slurm/.snakemake/slurm_logs/)"
cmp_args=()
for f in "${COMPARE[@]}"; do cmp_args+=(--compare "$f"); done
sum_rc=0
"$VENV/bin/python" "$ROOT/tests/cluster/summarize.py" --local "$WORK/local" --slurm "$WORK/slurm" \
    --local-log "$WORK/local.log" --slurm-log "$WORK/slurm.log" "${cmp_args[@]}" || sum_rc=$?

if [[ $local_rc -ne 0 ]]; then
    echo; echo "  local run failed (exit $local_rc); last lines of its log:"; tail -n 25 "$WORK/local.log" | sed 's/^/    /'
fi
if [[ $slurm_rc -ne 0 ]]; then
    echo; echo "  SLURM run failed (exit $slurm_rc); last lines of its log:"; tail -n 25 "$WORK/slurm.log" | sed 's/^/    /'
fi
if [[ $local_rc -eq 0 && $slurm_rc -eq 0 && $sum_rc -eq 0 ]]; then
    result=PASS
fi
echo
echo "RESULT: $result  (cluster test: SLURM executor vs local, ${#COMPARE[@]} outputs compared)"
[[ $result == PASS ]]
