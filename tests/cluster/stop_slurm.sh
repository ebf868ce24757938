#!/usr/bin/env bash
# Stop the daemons that tests/cluster/start_slurm.sh started, by their pid files:
# slurmd, slurmctld, then munged. Idempotent; a pid file whose process is gone (or is some
# other program now) is ignored. Set KEEP_MUNGE=1 to leave munged running.
set -uo pipefail

log() { printf '[stop_slurm] %s\n' "$*" >&2; }

status=0
stop() {  # stop PIDFILE NAME
    local f=$1 name=$2 pid
    [[ -s $f ]] || return 0
    pid=$(<"$f")
    if ! [[ $pid =~ ^[0-9]+$ ]] || ! [[ -r /proc/$pid/comm ]] || [[ $(</proc/$pid/comm) != "$name" ]]; then
        return 0
    fi
    log "stopping $name (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || return 0
    for _ in $(seq 100); do
        [[ -d /proc/$pid ]] || { rm -f "$f"; return 0; }
        sleep 0.1
    done
    log "$name (pid $pid) still running after 10 s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 0.5
    if [[ -d /proc/$pid ]]; then log "ERROR: could not stop $name (pid $pid)"; status=1; fi
    rm -f "$f"
}

stop /run/slurmd.pid slurmd
stop /run/slurmctld.pid slurmctld
[[ ${KEEP_MUNGE:-0} == 1 ]] || stop /run/munge/munged.pid munged
exit $status
