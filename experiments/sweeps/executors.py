"""Execution engines for sweep points.

The sweep hands an Executor jobs (one `zngsim run` each) and waits for them to end; it
never starts processes itself. LocalExecutor runs them on this machine; SlurmExecutor
submits them to a Slurm cluster as job arrays, and then the points pool must be on a
file system the compute nodes share.
"""
import abc
import ctypes
import glob
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass


@dataclass
class Job:
    point: object    # the sweeps.spec.Point
    command: list    # argv of the zngsim run
    workdir: str     # the point's .running directory (zngsim's --out)
    log: str         # where stdout and stderr go


class ExecutorError(Exception):
    """The execution engine cannot go on (a scheduler refused a job, cannot be reached)."""


class Executor(abc.ABC):
    def check(self):
        """Fails with ExecutorError, before any point runs, when the engine cannot run
        jobs as configured."""

    def reclaim(self, points_dir):
        """Stops jobs that a sweep killed without a chance to cancel them (SIGKILL) left
        running on this pool, before their directories are deleted and redone; returns
        how many. Local jobs die with their sweep, so there are none."""
        return 0

    @abc.abstractmethod
    def free_slots(self):
        """How many more jobs may be submitted now."""

    @abc.abstractmethod
    def submit(self, job):
        """Starts a job; returns at once."""

    @abc.abstractmethod
    def wait(self):
        """Blocks until at least one job has ended; returns [(job, returncode)]
        (negative returncode: killed by that signal)."""

    @abc.abstractmethod
    def cancel(self):
        """Stops every job still running."""

    @property
    @abc.abstractmethod
    def in_flight(self):
        """Number of jobs submitted and not yet returned by wait()."""


def _die_with_parent():
    """Run in the child before exec: if the sweep dies (even by SIGKILL), the kernel
    kills its simulations too, so no orphan keeps writing into a point directory."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass   # not Linux: the process group still receives terminal signals


class LocalExecutor(Executor):
    """Each job a child process of the sweep, at most `jobs` at once."""

    def __init__(self, jobs):
        if jobs < 1:
            raise ValueError("-j must be at least 1")
        self.jobs = jobs
        self.running = {}   # Popen -> (Job, log file)

    def free_slots(self):
        return self.jobs - len(self.running)

    @property
    def in_flight(self):
        return len(self.running)

    def submit(self, job):
        log = open(job.log, "w")
        log.write("$ " + " ".join(job.command) + "\n")
        log.flush()
        proc = subprocess.Popen(job.command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                preexec_fn=_die_with_parent)
        self.running[proc] = (job, log)

    def wait(self):
        if not self.running:
            return []
        while True:
            ended = []
            for proc in list(self.running):
                rc = proc.poll()
                if rc is not None:
                    job, log = self.running.pop(proc)
                    log.close()
                    ended.append((job, rc))
            if ended:
                return ended
            # Sleep until some child exits, without reaping it (Popen.poll does that).
            try:
                os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT)
            except ChildProcessError:
                pass

    def cancel(self):
        for proc in self.running:
            proc.kill()
        for proc, (_, log) in list(self.running.items()):
            proc.wait()
            log.close()
        self.running.clear()


# --- Slurm --------------------------------------------------------------------------

# Job states after which a job runs no more (squeue(1), JOB STATE CODES); PENDING,
# RUNNING, COMPLETING, REQUEUED, SUSPENDED ... are still in flight.
SLURM_ENDED = {"BOOT_FAIL", "CANCELLED", "COMPLETED", "DEADLINE", "FAILED", "NODE_FAIL", "OUT_OF_MEMORY",
               "PREEMPTED", "TIMEOUT"}
# sbatch(1) --time: minutes, minutes:seconds, hours:minutes:seconds, days-hours,
# days-hours:minutes, days-hours:minutes:seconds.
_SLURM_TIME = re.compile(r"\d+|\d+:\d+|\d+:\d+:\d+|\d+-\d+|\d+-\d+:\d+|\d+-\d+:\d+:\d+|UNLIMITED|INFINITE")
# sbatch(1) --mem: a size with an optional unit K, M (the default), G or T.
_SLURM_MEM = re.compile(r"\d+[KMGT]?")
_SLURM_NAME = re.compile(r"[A-Za-z0-9_.,+-]+")
SLURM_OPTIONS = {
    "partition": "partition (or comma-separated partitions) the points run in (sbatch --partition)",
    "account": "account charged (sbatch --account)",
    "time": "time limit of one point (sbatch --time: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS)",
    "mem": "memory of one point (sbatch --mem: a size with unit K, M, G or T; M when none)",
}


def slurm_option_error(name, value):
    """Why `value` is not a valid Slurm option `name` (a SLURM_OPTIONS key), or None."""
    if not isinstance(value, (str, int)) or isinstance(value, bool) or str(value) == "":
        return f"expected a non-empty string, got {value!r}"
    value = str(value)
    if name == "time" and not _SLURM_TIME.fullmatch(value):
        return f"'{value}' is not a Slurm time limit (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS)"
    if name == "mem" and not _SLURM_MEM.fullmatch(value):
        return f"'{value}' is not a Slurm memory size (a number with an optional unit K, M, G or T, e.g. 2G)"
    if name in ("partition", "account") and not _SLURM_NAME.fullmatch(value):
        return f"'{value}' is not a Slurm {name} name"
    return None


def slurm_seconds(text):
    """Seconds of a Slurm time limit in the forms of sbatch --time (and scontrol's
    MaxTime); None for UNLIMITED or INFINITE."""
    if text in ("UNLIMITED", "INFINITE"):
        return None
    days, _, rest = text.rpartition("-")
    parts = [int(x) for x in rest.split(":")]
    if days:                       # D-HH, D-HH:MM, D-HH:MM:SS
        h, m, s = (parts + [0, 0])[:3]
        return ((int(days) * 24 + h) * 60 + m) * 60 + s
    if len(parts) == 1:            # minutes
        return parts[0] * 60
    if len(parts) == 2:            # minutes:seconds
        return parts[0] * 60 + parts[1]
    return (parts[0] * 60 + parts[1]) * 60 + parts[2]


def _task_ids(text):
    """Array task ids of '3', '2-5', '[1,4-6]' or '4-9%2' (a throttled range)."""
    text = text.strip("[]").split("%")[0]
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        if not a.isdigit() or (b and not b.isdigit()):
            return []
        out += range(int(a), int(b or a) + 1)
    return out


def parse_sacct(text):
    """{(array id, task): (state, exit code, signal)} from
    `sacct --noheader --parsable2 --allocations --format JobID,State,ExitCode`."""
    out = {}
    for line in text.splitlines():
        fields = line.split("|")
        if len(fields) < 3 or "_" not in fields[0]:
            continue
        array, _, tasks = fields[0].partition("_")
        state = fields[1].split()[0] if fields[1].strip() else ""   # 'CANCELLED by 1000'
        code, _, sig = fields[2].partition(":")
        if not array.isdigit():
            continue
        for t in _task_ids(tasks):
            out[(array, t)] = (state, int(code or 0), int(sig or 0))
    return out


def parse_scontrol(text):
    """The same from `scontrol --oneliner show job ARRAY` (one line per task record)."""
    out = {}
    for line in text.splitlines():
        fields = dict(m.groups() for m in re.finditer(r"(?:^|\s)(ArrayJobId|ArrayTaskId|JobState|ExitCode)=(\S+)", line))
        if not {"ArrayJobId", "ArrayTaskId", "JobState"} <= fields.keys():
            continue
        code, _, sig = fields.get("ExitCode", "0:0").partition(":")
        for t in _task_ids(fields["ArrayTaskId"]):
            out[(fields["ArrayJobId"], t)] = (fields["JobState"], int(code or 0), int(sig or 0))
    return out


def slurm_returncode(state, code, sig):
    """A task's end as a returncode: the exit code, or minus the signal that killed it;
    1 for an end with neither (a node failure, say: the log says which)."""
    if sig:
        return -sig
    if state == "COMPLETED" or code:
        return code
    return 1


class SlurmExecutor(Executor):
    """Each job a task of a Slurm job array: the jobs submitted between two wait()s go
    to the scheduler as one `sbatch --array`, whose task i runs the batch script of
    job i (its `zngsim run`, output to the job's log). wait() polls the tasks' states
    and exit codes; cancel() is `scancel` of the arrays in flight. The scripts and
    Slurm's own output of a task live in <points pool>/.slurm/array-*/ until the array
    has ended, so the pool must be on a file system the compute nodes share.

    Exit codes come from `sacct`, which needs the cluster's accounting database
    (slurmdbd). Without one (AccountingStorageType=accounting_storage/none) sacct
    answers nothing, and `sacct --completion` (the jobcomp/filetxt file) does not tell
    which array a record belongs to (Slurm 22.05 does not read the file's
    ArrayJobId/ArrayTaskId fields), so the states are read from `scontrol show job`,
    which holds every task for MinJobAge (300 s by default) after it ended, far longer
    than the polling interval."""

    MAX_ARRAY = 1000          # Slurm's default MaxArraySize is 1001: task ids 0..1000
    COMMAND_TIMEOUT = 60      # seconds one sbatch, sacct, scontrol or scancel may take
    QUERY_PATIENCE = 300      # seconds of failing status queries before the sweep gives up
    CANCEL_WAIT = 60          # seconds cancel() waits for the cancelled tasks to end

    def __init__(self, partition=None, account=None, time_limit=None, mem=None, max_in_flight=None,
                 poll=30.0, job_name="zngsim", cwd=None):
        for name, value in (("partition", partition), ("account", account), ("time", time_limit), ("mem", mem)):
            if value is not None:
                err = slurm_option_error(name, value)
                if err:
                    raise ExecutorError(f"slurm {name}: {err}")
        if max_in_flight is not None and max_in_flight < 1:
            raise ExecutorError("-j must be at least 1")
        if poll <= 0:
            raise ExecutorError(f"slurm poll interval {poll}: expected a positive number of seconds")
        self.resources = []
        for flag, value in (("--partition", partition), ("--account", account), ("--time", time_limit),
                            ("--mem", mem)):
            if value is not None:
                self.resources.append(f"{flag}={value}")
        self.partition, self.time_limit = partition, time_limit
        self.max_in_flight = max_in_flight or self.MAX_ARRAY
        self.poll = poll
        self.job_name = job_name
        self.cwd = cwd or os.getcwd()   # relative paths of a point resolve as in the sweep
        self.pending = []               # submitted to this executor, not yet to Slurm
        self.tasks = {}                 # (array id, task id) -> Job
        self.batches = {}               # array id -> its directory of scripts
        self.source = "sacct"           # or "scontrol" once sacct has no accounting storage

    # -- running the Slurm commands

    def _run(self, argv):
        """The completed process, or None when it did not answer in time."""
        try:
            return subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                                  timeout=self.COMMAND_TIMEOUT)
        except FileNotFoundError:
            raise ExecutorError(f"{argv[0]}: not found on PATH (Slurm's client commands are needed)")
        except subprocess.TimeoutExpired:
            return None

    def check(self):
        for prog in ("sbatch", "scancel", "scontrol", "sacct"):
            if shutil.which(prog) is None:
                raise ExecutorError(f"--executor slurm: {prog} not found on PATH (Slurm's client commands are needed)")
        argv = ["sbatch", "--test-only", f"--chdir={self.cwd}", *self.resources, "--wrap", "true"]
        r = self._run(argv)
        if r is None:
            raise ExecutorError(f"{' '.join(argv)}: no answer within {self.COMMAND_TIMEOUT} s (is slurmctld up?)")
        if r.returncode != 0:
            msg = (r.stderr or r.stdout).strip().replace("\n", "; ")
            raise ExecutorError(f"Slurm refuses a job with {' '.join(self.resources) or 'the default options'}: {msg}")
        self._check_time_limit()

    def _check_time_limit(self):
        """A time limit above the partition's passes `sbatch --test-only`, and its jobs
        would wait in the queue for ever (reason PartitionTimeLimit): refused here."""
        if self.time_limit is None:
            return
        r = self._run(["scontrol", "--oneliner", "show", "partition"])
        if r is None or r.returncode != 0:
            return   # sbatch accepted the job; nothing more to learn
        limits = {}
        for line in r.stdout.splitlines():
            f = dict(m.groups() for m in re.finditer(r"(?:^|\s)(PartitionName|Default|MaxTime)=(\S+)", line))
            if "PartitionName" in f and (f["PartitionName"] in (self.partition or "").split(",")
                                         or (self.partition is None and f.get("Default") == "YES")):
                limits[f["PartitionName"]] = f.get("MaxTime", "UNLIMITED")
        def seconds(t):
            try:
                return slurm_seconds(t)
            except ValueError:   # a form this code does not know: no limit is assumed
                return None
        want = seconds(self.time_limit)
        if limits and want is not None and all(seconds(t) is not None and seconds(t) < want
                                               for t in limits.values()):
            raise ExecutorError(f"slurm time {self.time_limit} is above the time limit of partition "
                                + ", ".join(f"{p} ({t})" for p, t in limits.items())
                                + ": its jobs would never start")

    # -- the Executor interface

    def free_slots(self):
        return self.max_in_flight - self.in_flight

    @property
    def in_flight(self):
        return len(self.pending) + len(self.tasks)

    def submit(self, job):
        self.pending.append(job)

    def wait(self):
        while self.pending:
            batch, self.pending = self.pending[: self.MAX_ARRAY], self.pending[self.MAX_ARRAY:]
            self._submit_array(batch)
        if not self.tasks:
            return []
        delay, failing_since = min(1.0, self.poll), None
        while True:
            states = self._states()
            if states is None:
                failing_since = failing_since or time.monotonic()
                if time.monotonic() - failing_since > self.QUERY_PATIENCE:
                    raise ExecutorError(f"{self.source}: no answer about the jobs for {self.QUERY_PATIENCE} s")
            else:
                failing_since = None
                ended = [self._ended(key, states[0].get(key), states[1]) for key in list(self.tasks)
                         if key[0] in states[1] or states[0].get(key, ("",))[0] in SLURM_ENDED]
                if ended:
                    self._remove_ended_batches()
                    return ended
            time.sleep(delay)
            delay = min(self.poll, delay * 2)

    def cancel(self):
        self.pending.clear()
        self._scancel(self.tasks)
        self.tasks.clear()
        self._remove_ended_batches()

    def reclaim(self, points_dir):
        """The arrays of a killed sweep are those whose batch directory is still in
        <pool>/.slurm (each holds its array id once submitted): they are cancelled and
        their directories removed."""
        root = os.path.join(points_dir, ".slurm")
        batches = {}
        for d in sorted(glob.glob(os.path.join(root, "array-*"))):
            try:
                with open(os.path.join(d, "array-id")) as f:
                    batches[d] = f.read().strip()
            except OSError:
                batches[d] = ""   # sbatch never answered: nothing was submitted
        arrays = {a for a in batches.values() if a.isdigit()}
        if arrays:
            print(f"slurm: cancelling job array(s) {', '.join(sorted(arrays, key=int))} of an interrupted sweep",
                  flush=True)
            self._scancel({(a, t): None for a in arrays for t in range(self.MAX_ARRAY + 1)})
        for d in batches:
            shutil.rmtree(d, ignore_errors=True)
        return len(arrays)

    # -- helpers

    def _submit_array(self, jobs):
        root = os.path.join(os.path.dirname(jobs[0].workdir), ".slurm")
        os.makedirs(root, exist_ok=True)
        batch = tempfile.mkdtemp(prefix="array-", dir=root)
        for i, job in enumerate(jobs):
            with open(os.path.join(batch, f"point-{i}.sh"), "w") as f:
                cmd = " ".join(shlex.quote(c) for c in job.command)
                f.write(f"#!/bin/sh\n# point {job.point.id}\n"
                        f"printf '%s\\n' {shlex.quote('$ ' + ' '.join(job.command))} > {shlex.quote(job.log)}\n"
                        f"exec {cmd} >> {shlex.quote(job.log)} 2>&1\n")
        script = os.path.join(batch, "array.sh")
        with open(script, "w") as f:
            f.write("#!/bin/sh\n# A job array of zngsim runs: task i runs point-i.sh.\n"
                    f"exec /bin/sh {shlex.quote(batch)}/point-\"$SLURM_ARRAY_TASK_ID\".sh\n")
        argv = ["sbatch", "--parsable", f"--array=0-{len(jobs) - 1}", f"--job-name={self.job_name}",
                f"--chdir={self.cwd}", f"--output={batch}/slurm-%a.out", "--ntasks=1", *self.resources, script]
        r = self._run(argv)
        array = r.stdout.strip().split(";")[0] if r is not None and r.returncode == 0 else ""
        if not array.isdigit():
            shutil.rmtree(batch, ignore_errors=True)
            why = "no answer" if r is None else (r.stderr or r.stdout).strip().replace("\n", "; ")
            raise ExecutorError(f"sbatch of {len(jobs)} point(s) failed: {why}")
        with open(os.path.join(batch, "array-id"), "w") as f:
            f.write(array + "\n")
        self.batches[array] = batch
        for i, job in enumerate(jobs):
            self.tasks[(array, i)] = job
        print(f"slurm: submitted job array {array} ({len(jobs)} point(s))", flush=True)

    def _scancel(self, tasks):
        """scancel of the arrays of `tasks` ({(array, task): ...}); returns once every
        one of those tasks Slurm knows has ended, or after CANCEL_WAIT seconds."""
        arrays = sorted({a for a, _ in tasks}, key=int)
        if not arrays:
            return
        self._run(["scancel", *arrays])
        deadline = time.monotonic() + self.CANCEL_WAIT
        while True:
            states = self._states(arrays)
            if states is not None and all(a in states[1] or states[0].get((a, t), ("COMPLETED",))[0] in SLURM_ENDED
                                          for a, t in tasks):
                return
            if time.monotonic() > deadline:
                print(f"slurm: job array(s) {', '.join(arrays)} still not ended {self.CANCEL_WAIT} s after scancel",
                      flush=True)
                return
            time.sleep(min(1.0, self.poll))

    def _states(self, arrays=None):
        """({(array, task): (state, exit code, signal)}, {arrays Slurm no longer knows}),
        or None when the query failed."""
        arrays = arrays or sorted({a for a, _ in self.tasks}, key=int)
        if self.source == "sacct":
            r = self._run(["sacct", "--noheader", "--parsable2", "--allocations", "--jobs", ",".join(arrays),
                           "--format", "JobID,State,ExitCode"])
            if r is not None and r.returncode != 0 and "accounting storage is disabled" in r.stderr.lower():
                self.source = "scontrol"
                print("slurm: sacct has no accounting storage on this cluster; reading job states from scontrol",
                      flush=True)
            else:
                return None if r is None or r.returncode != 0 else (parse_sacct(r.stdout), set())
        states, gone = {}, set()
        for a in arrays:
            r = self._run(["scontrol", "--oneliner", "show", "job", a])
            if r is None:
                return None
            if r.returncode != 0:
                if "invalid job id" not in (r.stderr + r.stdout).lower():
                    return None
                gone.add(a)   # purged by the controller
            states.update(parse_scontrol(r.stdout))
        return states, gone

    def _ended(self, key, state, gone):
        """(job, returncode) of an ended task; what Slurm says goes into the job's log
        when it did not complete."""
        job = self.tasks.pop(key)
        if key[0] in gone and state is None:
            state = ("UNKNOWN", 0, 0)
            note = f"slurm: array task {key[0]}_{key[1]}: the controller no longer knows the job"
        else:
            note = f"slurm: array task {key[0]}_{key[1]} ended {state[0]} (exit code {state[1]}, signal {state[2]})"
        rc = slurm_returncode(*state)
        if rc != 0 or state[0] != "COMPLETED":
            try:
                with open(job.log, "a") as log:
                    log.write(note + "\n")
                    out = os.path.join(self.batches.get(key[0], ""), f"slurm-{key[1]}.out")
                    if os.path.isfile(out) and os.path.getsize(out):
                        with open(out) as f:
                            log.write("slurm: the batch script's own output:\n" + f.read())
            except OSError:
                pass
            rc = rc or 1
        return job, rc

    def _remove_ended_batches(self):
        live = {a for a, _ in self.tasks}
        for array in [a for a in self.batches if a not in live]:
            shutil.rmtree(self.batches.pop(array), ignore_errors=True)
