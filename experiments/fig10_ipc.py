#!/usr/bin/python3
"""Fig. 10: IPC of each platform normalised to ZnG's, per workload, with the geometric
mean; the paper's averages (stated as ratios in V-B) drawn as diamonds."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figures import paper  # noqa: E402
from figures.metrics import geomean  # noqa: E402
from figures.plotting import figure_main, grouped_bars, legend_outside, new_figure, paper_marks, save, write_table  # noqa: E402
from figures.results import load_results, pivot, points, require  # noqa: E402

NAME = "fig10_ipc"
SHOWN = ["hetero", "hybridgpu", "optane", "zng-base", "zng-rdopt", "zng-wropt"]


def paper_normalised():
    """The paper's averages as IPC / ZnG's IPC, derived from its stated ratios."""
    hybrid = 1 / paper.ZNG_OVER_HYBRIDGPU.value
    return {"hybridgpu": hybrid, "optane": hybrid * paper.OPTANE_OVER_HYBRIDGPU.value}


def draw(results_root, out):
    df = load_results(results_root, NAME)
    require(df, NAME, "ipc")
    workloads = [w for w in paper.WORKLOADS + paper.PAIRS if (w, "zng") in points(df)]
    ipc = pivot(df, "ipc")

    def norm(w, cfg):
        r, z = ipc.get((w, cfg)), ipc.get((w, "zng"))
        return r / z if r is not None and z else None

    means = {cfg: geomean([norm(w, cfg) for w in workloads]) for cfg in SHOWN}
    groups = workloads + ["geomean"]
    fig, ax = new_figure(14, 4.5)
    grouped_bars(ax, groups, SHOWN, lambda g, c: means[c] if g == "geomean" else norm(g, c),
                 "IPC normalised to zng (warp instr./cycle ratio)", "Fig. 10: performance of GPU-SSD platforms",
                 log=True)
    ax.axhline(1.0, color="grey", linewidth=0.8)
    paper_marks(ax, groups, SHOWN, {("geomean", c): v for c, v in paper_normalised().items()},
                "paper average (derived from V-B ratios)")
    legend_outside(ax)
    files = save(fig, out, NAME)
    table = [[w] + [norm(w, c) for c in SHOWN] for w in workloads]
    table.append(["geomean (ours)"] + [means[c] for c in SHOWN])
    pn = paper_normalised()
    table.append(["paper average"] + [pn.get(c) for c in SHOWN])
    files.append(write_table(out, NAME, "Fig. 10: IPC normalised to zng", ["workload"] + SHOWN, table,
                             ["Paper averages derived from: " + paper.ZNG_OVER_HYBRIDGPU.quote + " / "
                              + paper.OPTANE_OVER_HYBRIDGPU.quote]))
    return files


if __name__ == "__main__":
    sys.exit(figure_main(NAME, NAME, draw))
