#!/usr/bin/env bash
# A private single-node Slurm on this machine, for testing the sweep's Slurm executor:
# its own munged (own key and socket), slurmctld and slurmd (node "zngnode", 2 CPUs,
# localhost), on free ports, with every file under DIR. Nothing system-wide is used or
# changed, so it runs beside (or without) any installed Slurm or munge service.
#
#   slurm_local_cluster.sh start DIR [PID]
#                                      writes DIR/slurm.conf, starts the daemons, waits
#                                      until the node is idle; prints SLURM_CONF=DIR/slurm.conf.
#                                      With PID, a watcher stops them once that process
#                                      has ended (a test killed by its timeout) or after
#                                      10 minutes, whichever comes first.
#   slurm_local_cluster.sh stop DIR    cancels the jobs left, stops the daemons (TERM, after
#                                      3 s KILL), by their pid files
#
# Exit status of start: 0 up; 77 Slurm or munge is not installed (a test skips);
# 1 installed but a daemon did not come up (its log is printed). Every wait is bounded.
#
# Accounting: there is no slurmdbd, so AccountingStorageType=accounting_storage/none
# and plain `sacct` answers nothing. The job completion plugin jobcomp/filetxt writes
# one line per ended job (state and exit code), which `sacct --completion` reads; the
# executor falls back to it (sweeps/executors.py).
set -uo pipefail

cmd=${1:-}
dir=${2:-}
watch_pid=${3:-}
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi

stop_daemons() {   # TERM to all at once; KILL what still runs 3 s later
  local pids=() f pid
  for f in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
    pid=$(cat "$f" 2>/dev/null) || continue
    [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
    rm -f "$f"
  done
  for _ in $(seq 30); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && return 0
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  return 0
}

if [ "$cmd" = stop ]; then
  # Jobs still queued or running are cancelled first, so that no job outlives the
  # node daemon (KillWait=2: their processes are killed within 2 s).
  if [ -f "$dir/slurm.conf" ] && [ -f "$dir/slurmctld.pid" ]; then
    export SLURM_CONF="$dir/slurm.conf"
    if [ -n "$(timeout 5 squeue --noheader 2>/dev/null)" ]; then
      timeout 5 scancel --full --user="$(id -un)" 2>/dev/null
      for _ in $(seq 50); do
        [ -z "$(timeout 5 squeue --noheader 2>/dev/null)" ] && break
        sleep 0.1
      done
    fi
  fi
  stop_daemons
  exit 0
fi
[ "$cmd" = start ] || { echo "$0: unknown command '$cmd' (start|stop)" >&2; exit 2; }

for prog in munged mungekey slurmctld slurmd sbatch sacct scancel scontrol sinfo; do
  if ! command -v "$prog" > /dev/null 2>&1 && [ ! -x "/usr/sbin/$prog" ]; then
    echo "$prog not installed (Debian: apt-get install slurm-wlm munge)"
    exit 77
  fi
done
export PATH="$PATH:/usr/sbin"

mkdir -p "$dir"/{state,spool,munge}
chmod 700 "$dir/munge"
dir=$(cd "$dir" && pwd)

fail() {
  echo "local Slurm: $1" >&2
  for log in "$dir"/munged.log "$dir"/slurmctld.log "$dir"/slurmd.log; do
    [ -f "$log" ] && { echo "--- $log (last lines)" >&2; tail -n 20 "$log" >&2; }
  done
  stop_daemons
  exit 1
}

free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# munge: a fresh key and a private socket (slurm.conf's AuthInfo names it).
mungekey --create --keyfile="$dir/munge/munge.key" --force > /dev/null 2>&1 ||
  fail "mungekey could not create a key"
chmod 600 "$dir/munge/munge.key"
socket="$dir/munge/munge.socket"
timeout 10 munged --force --socket="$socket" --key-file="$dir/munge/munge.key" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed" ||
  fail "munged did not start"

ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
host=$(hostname -s)

cat > "$dir/slurm.conf" <<EOF
ClusterName=zngtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/pgid
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/builtin
# A job starts as soon as it is submitted or a CPU frees, not after the default 3 s
# batch delay or 60 s scheduling interval.
SchedulerParameters=batch_sched_delay=0,sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
# Jobs end and are cancelled within seconds, and stay known to scontrol for 10 min.
KillWait=2
MinJobAge=600
InactiveLimit=0
MessageTimeout=10
SlurmdTimeout=60
# No slurmdbd: completed jobs are written to a text file that sacct --completion reads.
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
NodeName=zngnode NodeHostname=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=1024 State=UNKNOWN
PartitionName=zngq Nodes=zngnode Default=YES MaxTime=60 State=UP
PartitionName=zngother Nodes=zngnode Default=NO MaxTime=60 State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"

timeout 20 slurmctld -c -f "$SLURM_CONF" || fail "slurmctld did not start"
timeout 20 slurmd -N zngnode -f "$SLURM_CONF" || fail "slurmd did not start"

# Up when the node is idle (slurmd registered with the controller): at most 30 s.
for _ in $(seq 150); do
  state=$(timeout 5 sinfo -h -n zngnode -o %T 2>/dev/null | head -n 1)
  if [ "$state" = idle ]; then
    if [ -n "$watch_pid" ]; then
      # Detached, so that it outlives whoever killed PID; it ends early when the
      # daemons were stopped (their pid files gone).
      setsid bash -c 'for _ in $(seq 3000); do
                        kill -0 "$1" 2>/dev/null || break
                        [ -f "$2/slurmctld.pid" ] || exit 0
                        sleep 0.2
                      done
                      "$0" stop "$2"' "$self" "$watch_pid" "$dir" < /dev/null > /dev/null 2>&1 &
    fi
    echo "SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  sleep 0.2
done
fail "node zngnode not idle after 30 s (state '${state:-none}')"
