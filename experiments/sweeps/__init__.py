"""Sweep machinery: spec parsing (spec.py), per-point result store (store.py) and
execution engines (executors.py). experiments/sweep.py is the command on top."""
