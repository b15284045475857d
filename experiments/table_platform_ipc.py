#!/usr/bin/python3
"""The platform IPC table (V-A, V-B): IPC of the ideal DRAM GPU, Optane, HybridGPU,
Hetero and ZnG-base on the 16 workloads, as a log-scale bar chart and a markdown table;
plus, from fig10's runs, the table of the ZnG steps (zng-base, zng-rdopt, zng-wropt,
zng) with zng's predictor accuracy and write redundancy per workload."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figures import paper  # noqa: E402
from figures.metrics import geomean  # noqa: E402
from figures.plotting import figure_main, grouped_bars, legend_outside, new_figure, save, write_table  # noqa: E402
from figures.results import ResultsMissing, load_results, pivot, points, require  # noqa: E402

NAME = "table_platform_ipc"
PLATFORMS = ["ideal", "optane", "hybridgpu", "hetero", "zng-base"]
ZNG_STEPS = ["zng-base", "zng-rdopt", "zng-wropt", "zng"]


def ordered(ipc, workload, configs):
    """True/False when `configs` (highest first) are in strictly decreasing IPC order, None if one is absent."""
    v = [ipc.get((workload, c)) for c in configs]
    if any(x is None for x in v):
        return None
    return all(a > b for a, b in zip(v, v[1:]))


def geo(ipc, config, workloads):
    vals = [ipc.get((w, config)) for w in workloads]
    vals = [v for v in vals if v]
    return geomean(vals) if len(vals) == len(workloads) else None


def platform_table(df, out):
    workloads = [w for w in paper.WORKLOADS if any((w, c) in points(df) for c in PLATFORMS)]
    ipc = pivot(df, "ipc")
    fig, ax = new_figure(12, 4)
    grouped_bars(ax, workloads, PLATFORMS, lambda w, c: ipc.get((w, c)) or 0.0,
                 "IPC (warp instructions / GPU cycle, log)", "Platform IPC, paper preset", log=True)
    legend_outside(ax)
    files = save(fig, out, NAME)
    table = [[w] + [ipc.get((w, c)) for c in PLATFORMS] for w in workloads]
    table.append(["geomean"] + [geo(ipc, c, workloads) for c in PLATFORMS])
    order = ["ideal", "optane", "hybridgpu"]
    notes = [f"IPC order ideal > optane > hybridgpu on {w}: "
             f"{ {True: 'yes', False: 'no', None: 'not measured'}[ordered(ipc, w, order)] }"
             for w in ("bfs1", "back")]
    files.append(write_table(out, NAME, "IPC per platform (warp instructions per GPU cycle)",
                             ["workload"] + PLATFORMS, table, notes))
    return files


def zng_steps_table(results_root, out):
    try:
        df = load_results(results_root, "fig10_ipc")
    except ResultsMissing as e:
        return [], str(e)
    require(df, "fig10_ipc", "ipc")
    workloads = [w for w in paper.WORKLOADS + paper.PAIRS if any((w, c) in points(df) for c in ZNG_STEPS)]
    ipc, acc, wr = pivot(df, "ipc"), pivot(df, "predictor_accuracy"), pivot(df, "write_redundancy")
    table = [[w] + [ipc.get((w, c)) for c in ZNG_STEPS]
             + [acc.get((w, "zng")), wr.get((w, "zng-base")), wr.get((w, "zng"))] for w in workloads]
    single = [w for w in workloads if w in paper.WORKLOADS]
    table.append(["geomean (16)"] + [geo(ipc, c, single) for c in ZNG_STEPS] + [None, None, None])
    path = write_table(out, "table_zng_steps", "ZnG steps: IPC, zng's predictor accuracy, write redundancy",
                       ["workload"] + ZNG_STEPS + ["zng predictor accuracy", "zng-base write redundancy",
                                                   "zng write redundancy"], table,
                       ["predictor accuracy: prefetched lines later accessed / prefetched lines "
                        "(gpu.l2.policy.accuracy); write redundancy: programs per distinct flash page "
                        "programmed (memory.write_redundancy). From fig10's runs."])
    return [path], None


def draw(results_root, out):
    df = load_results(results_root, NAME)
    require(df, NAME, "ipc")
    files = platform_table(df, out)
    steps, missing = zng_steps_table(results_root, out)
    if missing:
        print(f"{NAME}: no ZnG-steps table: {missing}", file=sys.stderr)
    return files + steps


if __name__ == "__main__":
    sys.exit(figure_main(NAME, NAME, draw))
