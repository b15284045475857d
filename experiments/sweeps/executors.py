"""Execution engines for sweep points.

The sweep hands an Executor jobs (one `zngsim run` each) and waits for them to end; it
never starts processes itself. LocalExecutor runs them on this machine. A cluster
engine (Slurm, PBS, ...) implements the same four methods: submit would write a batch
script running `job.command` with output to `job.log` and call the scheduler, wait would
poll the scheduler for ended jobs and read their exit codes. The results directory must
then be on a file system the compute nodes share.
"""
import abc
import ctypes
import os
import signal
import subprocess
from dataclasses import dataclass


@dataclass
class Job:
    point: object    # the sweeps.spec.Point
    command: list    # argv of the zngsim run
    workdir: str     # the point's .running directory (zngsim's --out)
    log: str         # where stdout and stderr go


class Executor(abc.ABC):
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
