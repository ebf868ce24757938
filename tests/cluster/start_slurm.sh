#!/usr/bin/env bash
# Start a one-node SLURM (munged + slurmctld + slurmd) on localhost, for the cluster test.
#
# Idempotent: installs slurm-wlm and munge via apt only when missing, rewrites
# /etc/slurm/slurm.conf only when its content changes (restarting running daemons then),
# starts only the daemons that are not already running, and returns once `sinfo` reports
# the node idle (bounded wait, SLURM_START_TIMEOUT seconds, default 90).
# Needs root (Debian 12: SLURM 22.05, munge 0.5). Stop with tests/cluster/stop_slurm.sh.
set -euo pipefail

TIMEOUT=${SLURM_START_TIMEOUT:-90}
NODE=localhost
CONF=/etc/slurm/slurm.conf
LOG_DIR=/var/log/slurm
MUNGE_PID=/run/munge/munged.pid
CTLD_PID=/run/slurmctld.pid
SLURMD_PID=/run/slurmd.pid

log() { printf '[start_slurm] %s\n' "$*" >&2; }
die() { printf '[start_slurm] ERROR: %s\n' "$*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || die "must run as root (it installs packages and starts daemons)"

# alive PIDFILE NAME: the pid in PIDFILE is a running process whose command is NAME.
alive() {
    local pid
    [[ -s $1 ]] || return 1
    pid=$(<"$1")
    [[ $pid =~ ^[0-9]+$ ]] && [[ -r /proc/$pid/comm ]] && [[ $(</proc/$pid/comm) == "$2" ]]
}

# --- packages ---------------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
    || ! command -v sinfo >/dev/null || ! command -v munged >/dev/null; then
    log "installing slurm-wlm and munge (apt)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q slurm-wlm munge >/dev/null
fi
PATH=/usr/sbin:/usr/bin:$PATH

# --- slurm.conf ---------------------------------------------------------------------------
cpus=$(nproc)
total_mb=$(free -m | awk '/^Mem:/ {print $2}')
mem_mb=$(( total_mb > 2048 ? total_mb - 1024 : total_mb / 2 ))   # leave ~1 GiB spare
mkdir -p /etc/slurm
new_conf=$(cat <<EOF
# Written by tests/cluster/start_slurm.sh: a one-node SLURM on localhost for the cluster test.
ClusterName=local
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=300
ReturnToService=2
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=$LOG_DIR/slurmctld.log
SlurmdLogFile=$LOG_DIR/slurmd.log
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
)
conf_changed=0
if [[ ! -f $CONF ]] || [[ $(<"$CONF") != "$new_conf" ]]; then
    printf '%s\n' "$new_conf" >"$CONF"
    conf_changed=1
    log "wrote $CONF (CPUs=$cpus RealMemory=$mem_mb)"
fi
mkdir -p /var/spool/slurmctld /var/spool/slurmd "$LOG_DIR"

if (( conf_changed )) && { alive "$CTLD_PID" slurmctld || alive "$SLURMD_PID" slurmd; }; then
    log "configuration changed: restarting the running SLURM daemons"
    for spec in "$SLURMD_PID:slurmd" "$CTLD_PID:slurmctld"; do
        f=${spec%%:*}; n=${spec##*:}
        if alive "$f" "$n"; then kill "$(<"$f")"; fi
        for _ in $(seq 50); do alive "$f" "$n" || break; sleep 0.2; done
        alive "$f" "$n" && die "$n (pid $(<"$f")) did not stop"
    done
fi

# --- munge --------------------------------------------------------------------------------
mkdir -p /etc/munge /run/munge /var/lib/munge /var/log/munge
if [[ ! -s /etc/munge/munge.key ]]; then
    log "creating /etc/munge/munge.key"
    mungekey --create --keyfile=/etc/munge/munge.key
fi
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge
chmod 0700 /etc/munge /var/log/munge
chmod 0600 /etc/munge/munge.key
chmod 0755 /run/munge
if ! alive "$MUNGE_PID" munged; then
    log "starting munged"
    runuser -u munge -- munged --force
    for _ in $(seq 50); do alive "$MUNGE_PID" munged && break; sleep 0.2; done
fi
munge -n | unmunge >/dev/null 2>&1 || die "munge does not work (see /var/log/munge/munged.log)"

# --- slurmctld, slurmd ----------------------------------------------------------------------
if ! alive "$CTLD_PID" slurmctld; then
    log "starting slurmctld"
    slurmctld || die "slurmctld failed to start (see $LOG_DIR/slurmctld.log)"
fi
if ! alive "$SLURMD_PID" slurmd; then
    log "starting slurmd"
    slurmd -N "$NODE" || die "slurmd failed to start (see $LOG_DIR/slurmd.log)"
fi

# --- wait for the node --------------------------------------------------------------------
deadline=$(( SECONDS + TIMEOUT ))
state=""
resumed=0
while (( SECONDS < deadline )); do
    state=$(sinfo -h -N -n "$NODE" -o '%T' 2>/dev/null | head -n1 || true)
    case $state in
        idle|mixed|allocated|completing)
            log "node $NODE is $state: $(sinfo -h -N -n "$NODE" -o 'CPUs=%c Memory=%m MB') (took ${SECONDS}s)"
            exit 0 ;;
        down*|drain*|fail*)
            if (( ! resumed )); then
                scontrol update NodeName="$NODE" State=RESUME >/dev/null 2>&1 || true
                resumed=1
            fi ;;
    esac
    sleep 1
done
die "node $NODE not idle after ${TIMEOUT}s (last state: '${state:-no answer from slurmctld}'); \
see $LOG_DIR/slurmctld.log and $LOG_DIR/slurmd.log, and: sinfo -R"
