#!/usr/bin/python3
"""Fig. 16a: ZnG's IPC over the access monitor's (high, low) waste thresholds, as the
geometric mean over workloads normalised to the paper's choice (0.3, 0.05); our best
cell and the paper's are marked."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figures import paper  # noqa: E402
from figures.metrics import geomean  # noqa: E402
from figures.plotting import figure_main, new_figure, save, write_table  # noqa: E402
from figures.results import load_results, require  # noqa: E402

NAME = "fig16a_monitor_thresholds"
HIGH, LOW = "set.gpu.l2.policy.waste_high", "set.gpu.l2.policy.waste_low"


def grid(df):
    """{(high, low): geomean over workloads of IPC / IPC at the paper's thresholds}, and
    the thresholds present."""
    t = df.assign(high=df[HIGH].astype(float), low=df[LOW].astype(float))  # --set values are text
    t = t[t["ipc"].notna()]
    at_best = t[(t["high"] == paper.BEST_WASTE_HIGH.value) & (t["low"] == paper.BEST_WASTE_LOW.value) & (t["ipc"] != 0)]
    ref = dict(zip(at_best["workload"], at_best["ipc"]))
    t = t[t["workload"].isin(ref)]
    norm = t["ipc"] / t["workload"].map(ref)
    g = {(float(h), float(l)): geomean(v) for (h, l), v in norm.groupby([t["high"], t["low"]])}
    return g, sorted({h for h, _ in g}), sorted({l for _, l in g})


def best(g):
    return max(g, key=g.get) if g else None


def draw(results_root, out):
    df = load_results(results_root, NAME)
    require(df, NAME, "ipc")
    g, highs, lows = grid(df)
    fig, ax = new_figure(6, 4.5)
    data = [[g.get((h, l), float("nan")) for l in lows] for h in highs]
    im = ax.imshow(data, cmap="viridis", origin="lower", aspect="auto")
    ax.set_xticks(range(len(lows)))
    ax.set_xticklabels([f"{l:g}" for l in lows])
    ax.set_yticks(range(len(highs)))
    ax.set_yticklabels([f"{h:g}" for h in highs])
    ax.set_xlabel("low waste threshold (fraction of evicted lines)")
    ax.set_ylabel("high waste threshold (fraction of evicted lines)")
    ax.set_title("Fig. 16a: access-monitor thresholds")
    fig.colorbar(im, ax=ax, label="IPC / IPC at (0.3, 0.05), geomean")
    for i, h in enumerate(highs):
        for j, l in enumerate(lows):
            if (h, l) in g:
                ax.text(j, i, f"{g[(h, l)]:.3f}", ha="center", va="center", color="white", fontsize=8)
    b = best(g)
    if b:
        ax.plot(lows.index(b[1]), highs.index(b[0]), marker="s", markersize=22, fillstyle="none", color="red",
                label=f"our best ({b[0]:g}, {b[1]:g})")
    if paper.BEST_WASTE_HIGH.value in highs and paper.BEST_WASTE_LOW.value in lows:
        ax.plot(lows.index(paper.BEST_WASTE_LOW.value), highs.index(paper.BEST_WASTE_HIGH.value), marker="D",
                color="black", linestyle="none", label="paper's best (0.3, 0.05)")
    ax.legend(fontsize=8, loc="upper right")
    files = save(fig, out, NAME)
    table = [[h, l, g[(h, l)]] for h in highs for l in lows if (h, l) in g]
    files.append(write_table(out, NAME, "Fig. 16a: IPC / IPC at (0.3, 0.05), geomean over workloads",
                             ["high", "low", "normalised IPC"], table,
                             [f"Our best: {b}" if b else "", paper.BEST_WASTE_HIGH.quote]))
    return files


if __name__ == "__main__":
    sys.exit(figure_main(NAME, NAME, draw))
