#!/usr/bin/python3
"""Fig. 11: bandwidth at the storage medium (read + write, GB/s) per platform and
workload; the paper's HybridGPU average and the ratios it states drawn beside."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figures import paper  # noqa: E402
from figures.metrics import mean  # noqa: E402
from figures.plotting import figure_main, grouped_bars, legend_outside, new_figure, paper_marks, save, write_table  # noqa: E402
from figures.results import load_results, pivot, require  # noqa: E402

NAME = "fig11_flash_bandwidth"
SHOWN = ["hybridgpu", "optane", "zng-base", "zng-rdopt", "zng-wropt", "zng"]


def medium_bandwidth(df):
    """{(workload, config): medium read + write bandwidth} of the points with a read bandwidth."""
    return pivot(df.assign(medium=df["medium_read_GBps"] + df["medium_write_GBps"].fillna(0.0)), "medium")


def averages(df):
    """Arithmetic mean bandwidth per platform over the workloads (the paper says 'average')."""
    bw = medium_bandwidth(df)
    return {c: mean(v for (_, cc), v in bw.items() if cc == c) for c in SHOWN}


def paper_averages():
    """The paper's average bandwidths: HybridGPU stated, the ZnG steps by its ratios."""
    h = paper.HYBRIDGPU_FLASH_BW.value
    rd = h * paper.RDOPT_BW_OVER_HYBRIDGPU.value
    wr = rd * paper.WROPT_BW_OVER_RDOPT.value
    z = wr * paper.ZNG_BW_OVER_WROPT.value
    return {"hybridgpu": h, "zng-rdopt": rd, "zng-wropt": wr, "zng": z, "optane": z / paper.ZNG_BW_OVER_OPTANE.value}


def draw(results_root, out):
    df = load_results(results_root, NAME)
    require(df, NAME, "medium_read_GBps")
    workloads = [w for w in paper.WORKLOADS + paper.PAIRS if (df["workload"] == w).any()]
    avg = averages(df)
    bw = medium_bandwidth(df)
    groups = workloads + ["average"]
    fig, ax = new_figure(14, 4.5)
    grouped_bars(ax, groups, SHOWN,
                 lambda g, c: avg[c] if g == "average" else bw.get((g, c)),
                 "medium bandwidth, read + write (GB/s)", "Fig. 11: bandwidth of the flash arrays", log=True)
    paper_marks(ax, groups, SHOWN, {("average", c): v for c, v in paper_averages().items()},
                "paper average (4.2 GB/s stated; others by stated ratios)")
    legend_outside(ax)
    files = save(fig, out, NAME)
    pa = paper_averages()
    table = [[w] + [bw.get((w, c)) for c in SHOWN] for w in workloads]
    table += [["average (ours)"] + [avg[c] for c in SHOWN], ["paper average"] + [pa.get(c) for c in SHOWN]]
    files.append(write_table(out, NAME, "Fig. 11: medium bandwidth (GB/s)", ["workload"] + SHOWN, table,
                             [paper.HYBRIDGPU_FLASH_BW.quote, paper.RDOPT_BW_OVER_HYBRIDGPU.quote,
                              paper.WROPT_BW_OVER_RDOPT.quote, paper.ZNG_BW_OVER_WROPT.quote,
                              paper.ZNG_BW_OVER_OPTANE.quote]))
    return files


if __name__ == "__main__":
    sys.exit(figure_main(NAME, NAME, draw))
