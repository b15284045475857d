#!/usr/bin/python3
"""Fig. 15a: total IPC of 1, 2, 4 and 8 co-running copies of betw and of back on ZnG
and the ideal GPU, as speedup over one copy on the same platform."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figures import paper  # noqa: E402
from figures.plotting import figure_main, grouped_bars, new_figure, save, write_table  # noqa: E402
from figures.results import load_results, pivot, require  # noqa: E402

NAME = "fig15a_corunning"
COPIES = [1, 2, 4, 8]
PLATFORMS = ["zng", "ideal"]


def copies_workload(app, n):
    return ",".join([app] * n)


def speedups(df, app):
    """{(copies, platform): total IPC of n copies / IPC of one copy on that platform}."""
    ipc = pivot(df, "ipc")
    out = {}
    for cfg in PLATFORMS:
        base = ipc.get((app, cfg))
        for n in COPIES:
            r = ipc.get((copies_workload(app, n), cfg))
            if base and r is not None:
                out[(n, cfg)] = r / base
    return out


def draw(results_root, out):
    df = load_results(results_root, NAME)
    require(df, NAME, "ipc")
    fig, axes = new_figure(10, 4, ncols=2)
    table = []
    for ax, app in zip(axes, ["betw", "back"]):
        s = speedups(df, app)
        grouped_bars(ax, [f"{n} cop{'y' if n == 1 else 'ies'}" for n in COPIES], PLATFORMS,
                     lambda g, c: s.get((int(g.split()[0]), c)), "total IPC / IPC of one copy (x)",
                     f"{app} ({'read' if app == 'betw' else 'write'}-intensive)")
        ax.legend(fontsize=8)
        for n in COPIES:
            z, d = s.get((n, "zng")), s.get((n, "ideal"))
            table.append([app, n, z, d, z / d if z and d else None])
    fig.suptitle("Fig. 15a: co-running copies on ZnG and Ideal")
    files = save(fig, out, NAME)
    files.append(write_table(out, NAME, "Fig. 15a: speedup of n co-running copies over one copy",
                             ["app", "copies", "zng", "ideal", "zng / ideal"], table,
                             ["Paper, 8 copies: " + paper.SCALE8_ZNG_OVER_IDEAL_BETW.quote]))
    return files


if __name__ == "__main__":
    sys.exit(figure_main(NAME, NAME, draw))
