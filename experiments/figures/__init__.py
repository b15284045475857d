"""Shared pieces of the figure and report scripts: reading sweep results (results.py),
the paper's stated values (paper.py), the averages both use (metrics.py) and the
matplotlib helpers (plotting.py)."""
