#!/usr/bin/python3
"""Fig. 11: bandwidth at the storage medium (read + write, GB/s) per platform and
workload; the paper's HybridGPU average and the ratios it states drawn beside."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figures import paper  # noqa: E402
from figures.metrics import mean  # noqa: E402
from figures.plotting import figure_main, grouped_bars, legend_outside, new_figure, paper_marks, save, write_table  # noqa: E402
from figures.results import load_rows, one, require  # noqa: E402

NAME = "fig11_flash_bandwidth"
SHOWN = ["hybridgpu", "optane", "zng-base", "zng-rdopt", "zng-wropt", "zng"]


def medium_bandwidth(r):
    if r is None or r.get("medium_read_GBps") is None:
        return None
    return r["medium_read_GBps"] + (r.get("medium_write_GBps") or 0.0)


def averages(rows):
    """Arithmetic mean bandwidth per platform over the workloads (the paper says 'average')."""
    return {c: mean([medium_bandwidth(r) for r in rows if r["config"] == c]) for c in SHOWN}


def paper_averages():
    """The paper's average bandwidths: HybridGPU stated, the ZnG steps by its ratios."""
    h = paper.HYBRIDGPU_FLASH_BW.value
    rd = h * paper.RDOPT_BW_OVER_HYBRIDGPU.value
    wr = rd * paper.WROPT_BW_OVER_RDOPT.value
    z = wr * paper.ZNG_BW_OVER_WROPT.value
    return {"hybridgpu": h, "zng-rdopt": rd, "zng-wropt": wr, "zng": z, "optane": z / paper.ZNG_BW_OVER_OPTANE.value}


def draw(results_root, out):
    rows = load_rows(results_root, NAME)
    require(rows, NAME, "medium_read_GBps")
    workloads = [w for w in paper.WORKLOADS + paper.PAIRS if any(r["workload"] == w for r in rows)]
    avg = averages(rows)
    groups = workloads + ["average"]
    fig, ax = new_figure(14, 4.5)
    grouped_bars(ax, groups, SHOWN,
                 lambda g, c: avg[c] if g == "average" else medium_bandwidth(one(rows, config=c, workload=g)),
                 "medium bandwidth, read + write (GB/s)", "Fig. 11: bandwidth of the flash arrays", log=True)
    paper_marks(ax, groups, SHOWN, {("average", c): v for c, v in paper_averages().items()},
                "paper average (4.2 GB/s stated; others by stated ratios)")
    legend_outside(ax)
    files = save(fig, out, NAME)
    pa = paper_averages()
    table = [[w] + [medium_bandwidth(one(rows, config=c, workload=w)) for c in SHOWN] for w in workloads]
    table += [["average (ours)"] + [avg[c] for c in SHOWN], ["paper average"] + [pa.get(c) for c in SHOWN]]
    files.append(write_table(out, NAME, "Fig. 11: medium bandwidth (GB/s)", ["workload"] + SHOWN, table,
                             [paper.HYBRIDGPU_FLASH_BW.quote, paper.RDOPT_BW_OVER_HYBRIDGPU.quote,
                              paper.WROPT_BW_OVER_RDOPT.quote, paper.ZNG_BW_OVER_WROPT.quote,
                              paper.ZNG_BW_OVER_OPTANE.quote]))
    return files


if __name__ == "__main__":
    sys.exit(figure_main(NAME, NAME, draw))
