#!/usr/bin/python3
"""Fig. 11: bandwidth of the flash arrays (Optane's media) per platform and workload:
the data the medium exchanges with its controllers, reads + writes, in GB/s (the paper
counts what memory requests use, so ZnG-base's 4 KB senses for 128 B lines count 128 B
each; fig11_flash_bandwidth.yaml); the paper's HybridGPU average and the ratios it states
drawn beside, and the arrays' own traffic (pages sensed and programmed) in the table."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figures import paper  # noqa: E402
from figures.metrics import mean  # noqa: E402
from figures.plotting import figure_main, grouped_bars, legend_outside, new_figure, paper_marks, save, write_table  # noqa: E402
from figures.results import load_results, pivot, require  # noqa: E402

NAME = "fig11_flash_bandwidth"
SHOWN = ["hybridgpu", "optane", "zng-base", "zng-rdopt", "zng-wropt", "zng"]


# The link each platform's medium data crosses (fig11_flash_bandwidth.yaml's metrics): a
# point has the columns of its own platform's link and leaves the others empty.
INTERFACE_COLUMNS = ["flash_port_bytes", "onfi_bytes", "bus_read_bytes", "bus_write_bytes"]


def interface_bandwidth(df):
    """{(workload, config): bytes between the medium and its controllers / simulated time,
    GB/s} of the points that have any of the interface columns."""
    cols = [c for c in INTERFACE_COLUMNS if c in df]
    present = df[cols].notna().any(axis=1)
    gbps = df[cols].fillna(0.0).sum(axis=1) * 1e3 / df["sim_time_ps"]  # B / ps x 1e12 / 1e9
    return pivot(df.assign(interface=gbps.where(present)), "interface")


def array_bandwidth(df):
    """{(workload, config): pages sensed + programmed, GB/s} of the points with a read bandwidth."""
    return pivot(df.assign(medium=df["medium_read_GBps"] + df["medium_write_GBps"].fillna(0.0)), "medium")


def averages(df, bandwidth=interface_bandwidth):
    """Arithmetic mean bandwidth per platform over the workloads (the paper says 'average')."""
    bw = bandwidth(df)
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
    if not any(c in df and df[c].notna().any() for c in INTERFACE_COLUMNS):
        require(df, NAME, *INTERFACE_COLUMNS)
    workloads = [w for w in paper.WORKLOADS + paper.PAIRS if (df["workload"] == w).any()]
    avg = averages(df)
    bw = interface_bandwidth(df)
    groups = workloads + ["average"]
    fig, ax = new_figure(14, 4.5)
    grouped_bars(ax, groups, SHOWN,
                 lambda g, c: avg[c] if g == "average" else bw.get((g, c)),
                 "medium <-> controller data, read + write (GB/s)", "Fig. 11: bandwidth of the flash arrays",
                 log=True)
    paper_marks(ax, groups, SHOWN, {("average", c): v for c, v in paper_averages().items()},
                "paper average (4.2 GB/s stated; others by stated ratios)")
    legend_outside(ax)
    files = save(fig, out, NAME)
    pa = paper_averages()
    table = [[w] + [bw.get((w, c)) for c in SHOWN] for w in workloads]
    table += [["average (ours)"] + [avg[c] for c in SHOWN], ["paper average"] + [pa.get(c) for c in SHOWN]]
    arrays = averages(df, array_bandwidth)
    table += [["array traffic, average (pages sensed + programmed)"] + [arrays[c] for c in SHOWN]]
    files.append(write_table(out, NAME, "Fig. 11: data between the medium and its controllers (GB/s)",
                             ["workload"] + SHOWN, table,
                             [paper.HYBRIDGPU_FLASH_BW.quote, paper.RDOPT_BW_OVER_HYBRIDGPU.quote,
                              paper.WROPT_BW_OVER_RDOPT.quote, paper.ZNG_BW_OVER_WROPT.quote,
                              paper.ZNG_BW_OVER_OPTANE.quote]))
    return files


if __name__ == "__main__":
    sys.exit(figure_main(NAME, NAME, draw))
