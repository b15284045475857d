#!/usr/bin/python3
"""How the Slurm executor reads the scheduler's answers, without a cluster: task states
and exit codes from sacct (a cluster with slurmdbd) and from scontrol (one without),
their returncodes, and the option checks. The texts are the commands' real formats:
the scontrol line is one task of a job array on Slurm 22.05, the sacct lines what
`sacct --noheader --parsable2 --allocations --format JobID,State,ExitCode` prints for
an array with tasks in each state."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exp_test_support as t  # noqa: E402

sys.path.insert(0, t.EXPERIMENTS)
from sweeps.executors import (parse_sacct, parse_scontrol, slurm_option_error, slurm_returncode,  # noqa: E402
                              slurm_seconds)

SACCT = """12_0|COMPLETED|0:0
12_1|FAILED|3:0
12_2|CANCELLED by 0|0:15
12_[3-5,8]|PENDING|0:0
12_6|TIMEOUT|0:0
12_7|RUNNING|0:0
13|COMPLETED|0:0
"""

SCONTROL = (
    "JobId=3 ArrayJobId=1 ArrayTaskId=1 ArrayTaskThrottle=0 JobName=a.sh UserId=root(0) JobState=FAILED "
    "Reason=NonZeroExitCode Dependency=(null) Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=3:0 "
    "DerivedExitCode=0:0 RunTime=00:00:00 TimeLimit=00:01:00\n"
    "JobId=1 ArrayJobId=1 ArrayTaskId=4-9%2 JobName=a.sh JobState=PENDING Reason=Resources ExitCode=0:0\n"
    "JobId=5 ArrayJobId=1 ArrayTaskId=2 JobName=a.sh JobState=CANCELLED Reason=None ExitCode=0:15 "
    "DerivedExitCode=0:9\n")


class States(unittest.TestCase):
    def test_sacct(self):
        s = parse_sacct(SACCT)
        self.assertEqual(s[("12", 0)], ("COMPLETED", 0, 0))
        self.assertEqual(s[("12", 1)], ("FAILED", 3, 0))
        self.assertEqual(s[("12", 2)], ("CANCELLED", 0, 15))   # 'by 0' (the user) dropped
        for task in (3, 4, 5, 8):                              # a pending range, one entry per task
            self.assertEqual(s[("12", task)], ("PENDING", 0, 0))
        self.assertEqual(s[("12", 6)], ("TIMEOUT", 0, 0))
        self.assertEqual(s[("12", 7)], ("RUNNING", 0, 0))
        self.assertEqual(len(s), 9)                            # tasks 0-8; job 13 is no array task

    def test_scontrol(self):
        s = parse_scontrol(SCONTROL)
        self.assertEqual(s[("1", 1)], ("FAILED", 3, 0))        # ExitCode, not DerivedExitCode
        self.assertEqual(s[("1", 2)], ("CANCELLED", 0, 15))
        self.assertEqual(sorted(k[1] for k, v in s.items() if v[0] == "PENDING"), [4, 5, 6, 7, 8, 9])

    def test_returncodes(self):
        self.assertEqual(slurm_returncode("COMPLETED", 0, 0), 0)
        self.assertEqual(slurm_returncode("FAILED", 3, 0), 3)
        self.assertEqual(slurm_returncode("CANCELLED", 0, 15), -15)
        self.assertEqual(slurm_returncode("FAILED", 0, 9), -9)
        self.assertEqual(slurm_returncode("NODE_FAIL", 0, 0), 1)   # ended without a status of its own

    def test_time_limits_in_seconds(self):
        self.assertEqual(slurm_seconds("30"), 30 * 60)                    # minutes
        self.assertEqual(slurm_seconds("30:15"), 30 * 60 + 15)            # minutes:seconds
        self.assertEqual(slurm_seconds("01:00:00"), 3600)                 # scontrol's MaxTime=60
        self.assertEqual(slurm_seconds("2-6"), (2 * 24 + 6) * 3600)       # days-hours
        self.assertEqual(slurm_seconds("1-00:30"), 24 * 3600 + 30 * 60)   # days-hours:minutes
        self.assertEqual(slurm_seconds("1-00:00:05"), 24 * 3600 + 5)
        self.assertIsNone(slurm_seconds("UNLIMITED"))

    def test_options(self):
        for good in ("30", "30:00", "2:00:00", "1-0", "1-12:00", "1-12:00:00", "UNLIMITED"):
            self.assertIsNone(slurm_option_error("time", good), good)
        for bad in ("", "1:2:3:4", "2h", "1-", "-1"):
            self.assertIsNotNone(slurm_option_error("time", bad), bad)
        for good in ("500", "500M", "2G", "1T", 4096):
            self.assertIsNone(slurm_option_error("mem", good), good)
        for bad in ("2GB", "G", "1.5G", True):
            self.assertIsNotNone(slurm_option_error("mem", bad), bad)
        self.assertIsNone(slurm_option_error("partition", "gpu,cpu"))
        self.assertIsNotNone(slurm_option_error("partition", "a b"))


if __name__ == "__main__":
    t.main()
