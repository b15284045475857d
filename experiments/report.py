#!/usr/bin/python3
"""Writes the reproduction report: each headline claim of the ZnG paper beside the
value zngsim measured and the ratio of the two.

usage: experiments/report.py [--results-root DIR] [--out FILE] [--reasons FILE]

Reads the results.csv of each figure's sweep under DIR (default experiments/results).
A claim whose sweep or statistic is missing is listed as such, never estimated. Where
ours differs from the paper's by more than 25%, the row gets a numbered reason slot
below the table: the sentence --reasons gives for that claim (a YAML map of claim ->
reason, written by whoever analysed the run), else an empty slot to fill. This script
does not guess reasons.
"""
import argparse
import os
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fig11_flash_bandwidth as fig11  # noqa: E402
import fig12_read_reaccesses as fig12  # noqa: E402
import fig13_write_redundancy as fig13  # noqa: E402
import fig15b_predictor_accuracy as fig15b  # noqa: E402
import fig16a_monitor_thresholds as fig16a  # noqa: E402
import fig17_gc as fig17  # noqa: E402
from figures import cache_vol_paper, cam_paper, gofs_paper, paper, streamer_paper  # noqa: E402
from figures.metrics import geomean, mean  # noqa: E402
from figures.plotting import fmt  # noqa: E402
from figures.results import EXPERIMENTS, ResultsMissing, StatisticMissing, load_results, pivot, require  # noqa: E402
from figures.variant_bars import variant_averages  # noqa: E402

TOLERANCE = 0.25


class Missing(Exception):
    pass


def fig10_bar_ratio(df, num, den, workloads=None, base="zng"):
    """The paper's Fig. 10 average: each workload's IPCs normalised to ZnG's ("the values
    are normalized to ZnG's IPCs"), each platform's bars averaged (arithmetic mean), then
    num's mean over den's. None when no workload has all three IPCs."""
    ipc = pivot(df, "ipc")
    keys = sorted({w for w in df["workload"] if workloads is None or w in workloads})
    bars = {c: [] for c in (num, den)}
    for w in keys:
        b, n, d = ipc.get((w, base)), ipc.get((w, num)), ipc.get((w, den))
        if b and n is not None and d is not None:
            bars[num].append(n / b)
            bars[den].append(d / b)
    m_num, m_den = mean(bars[num]), mean(bars[den])
    return m_num / m_den if m_num is not None and m_den else None


def fig10_claim(num, den, workloads=None):
    """(mean of ZnG-normalised bars, as the paper averages Fig. 10; the geomean of the
    per-workload ratios beside it). The status uses the first."""
    def f(df):
        bars = fig10_bar_ratio(df, num, den, workloads)
        ipc = pivot(df, "ipc")
        g = geomean([v / ipc[(w, den)] for (w, c), v in ipc.items()
                     if c == num and ipc.get((w, den)) and (workloads is None or w in workloads)])
        if bars is None or g is None:
            raise Missing(f"no workload has IPC for {num}, {den} and zng")
        return bars, f"geomean of per-workload ratios {fmt(g)}"
    return f


def bw_ratio(num, den):
    def f(df):
        avg = fig11.averages(df)
        if not avg.get(num) or not avg.get(den):
            raise Missing(f"no medium bandwidth for {num} or {den}")
        arrays = fig11.averages(df, fig11.array_bandwidth)
        note = ""
        if arrays.get(num) and arrays.get(den):
            note = f"array traffic (pages sensed + programmed) ratio {fmt(arrays[num] / arrays[den])}"
        return avg[num] / avg[den], note
    return f


def bw_of(cfg):
    def f(df):
        v = fig11.averages(df).get(cfg)
        if v is None:
            raise Missing(f"no medium bandwidth for {cfg}")
        a = fig11.averages(df, fig11.array_bandwidth).get(cfg)
        return v, (f"array traffic (pages sensed + programmed) {fmt(a)} GB/s" if a is not None else "")
    return f


def variant_avg(column, labels):
    def f(df):
        _, avg, _ = variant_averages(df, column, labels)
        return avg
    return f


def reaccess_cut(lo, hi):
    def f(df):
        avg = variant_avg("read_reaccesses", fig12.LABELS)(df)
        if not avg.get(lo) or avg.get(hi) is None:
            raise Missing(f"no read re-accesses for {lo} or {hi}")
        return 1 - avg[hi] / avg[lo]
    return f


def redirection_rise(df):
    avg = variant_avg("read_reaccesses", fig12.LABELS)(df)
    if not avg.get("dyn-prefetch") or avg.get("redirection") is None:
        raise Missing("no read re-accesses for dyn-prefetch or redirection")
    return avg["redirection"] / avg["dyn-prefetch"] - 1


def redundancy(label):
    def f(df):
        v = variant_avg("write_redundancy", fig13.LABELS)(df).get(label)
        if v is None:
            raise Missing(f"no write redundancy for {label}")
        return v
    return f


def redundancy_cut(df):
    avg = variant_avg("write_redundancy", fig13.LABELS)(df)
    if not avg.get("baseline") or avg.get("network") is None:
        raise Missing("no write redundancy for baseline or network")
    return 1 - avg["network"] / avg["baseline"]


def label_ratio(num, den, reduce=geomean):
    def f(df):
        ipc = pivot(df, "ipc", columns="label")
        rs = [v / ipc[(w, den)] for (w, l), v in ipc.items() if l == num and v and ipc.get((w, den))]
        if not rs:
            raise Missing(f"no workload has IPC for both {num} and {den}")
        return reduce(rs)
    return f


def accuracy(reduce):
    def f(df):
        acc = fig15b.accuracies(df)
        if not acc:
            raise Missing("no predictor accuracy")
        return reduce(acc.values())
    return f


def best_threshold(index):
    def f(df):
        b = fig16a.best(fig16a.grid(df)[0])
        if b is None:
            raise Missing("no threshold point with IPC")
        return b[index]
    return f


def gc_effect(app):
    def f(df):
        change, _, _ = fig17.gc_change(df)
        if change is None or change.get(app) is None:
            raise Missing("the sweep has no pair of runs with and without GC merges")
        return change[app]
    return f


FIG10_HOW = "ratio of the mean ZnG-normalised IPC bars, as Fig. 10 (the status uses it)"
# Fig. 11 counts the data the medium exchanges with its controllers, what requests use
# (fig11_flash_bandwidth.yaml), not the pages its arrays sense.
BW_HOW = ("mean over workloads of the data between medium and controllers, reads + writes / simulated "
          "time (flash network, ONFI channel or DDR-T bus bytes)")
BW_HOW_RATIO = "ratio of " + BW_HOW


def io_read_GBps(df, platform, ssds):
    """GPU-issued read throughput (GB/s) of `platform` with `ssds` SSDs in a cam_* sweep (a
    sweep that does not set the SSD count runs the configs' 12)."""
    rows = df[df["platform"] == platform]
    if "set.storage.array.ssds" in df.columns:
        rows = rows[rows["set.storage.array.ssds"].astype(str) == str(ssds)]
    elif ssds != 12:
        raise Missing(f"the sweep runs 12 SSDs, not {ssds}")
    if rows.empty:
        raise Missing(f"no {platform} point with {ssds} SSDs")
    r = rows.iloc[0]
    return r["io_bytes_read"] / (r["sim_time_ps"] * 1e-12) / 1e9


def threads_ratio(ssds):
    """CAM's throughput with one thread for `ssds` SSDs over one thread per SSD (cam_fig12)."""
    def f(df):
        def tp(threads):
            rows = df[(df["set.storage.array.ssds"].astype(str) == str(ssds)) &
                      (df["set.storage.control_plane.threads"].astype(str) == str(threads))]
            if rows.empty:
                raise Missing(f"no point with {ssds} SSDs and {threads} threads")
            r = rows.iloc[0]
            return r["io_bytes_read"] / r["sim_time_ps"]
        return tp(1) / tp(ssds)
    return f


def polling_sm_share(platform, min_ssds):
    """Mean share of the SMs holding a polling warp (cam_fig4) over the points of
    `platform` with more than `min_ssds` SSDs."""
    def f(df):
        rows = df[(df["platform"] == platform) & (df["set.storage.array.ssds"].astype(int) > min_ssds)]
        if rows.empty:
            raise Missing(f"no {platform} point with more than {min_ssds} SSDs")
        return float(rows["polling_sm_share"].astype(float).mean())
    return f


def gnn_speedup(df):
    """cam_fig9: the largest ratio, over feature sizes, of GIDS's (BaM, serial program)
    simulated time to CAM's (pipelined program)."""
    t = {r["label"]: r["sim_time_ps"] for _, r in df.iterrows()}
    ratios = [t[f"gids-{f}"] / t[f"cam-{f}"] for f in (512, 4096) if f"gids-{f}" in t and f"cam-{f}" in t]
    if not ratios:
        raise Missing("no pair of gids-<size> and cam-<size> points")
    return max(ratios)


def label_time_ratio(num, den):
    """Simulated time of the point labelled `num` over that of `den` (points specs)."""
    def f(df):
        t = {r["label"]: r["sim_time_ps"] for _, r in df.iterrows()}
        if num not in t or den not in t:
            raise Missing(f"no points labelled {num} and {den}")
        return t[num] / t[den]
    return f


def label_time_ratio_max(nums, den):
    """The largest simulated-time ratio of a point labelled in `nums` over the point `den`."""
    def f(df):
        return max(label_time_ratio(n, den)(df) for n in nums)
    return f


def gds_gemm_GBps(df):
    """cam_fig10: GDS's bytes read and written over its simulated time (GB/s)."""
    rows = df[df["label"] == "gds"]
    if rows.empty:
        raise Missing("no point labelled gds")
    r = rows.iloc[0]
    return (r["io_bytes_read"] + r["io_bytes_written"]) / (r["sim_time_ps"] * 1e-12) / 1e9


def io_read_of(platform, ssds=12):
    return lambda df: io_read_GBps(df, platform, ssds)


def io_read_ratio(num, den, ssds=12):
    return lambda df: io_read_GBps(df, num, ssds) / io_read_GBps(df, den, ssds)

def file_io_GBps(label):
    """Throughput (GB/s, bytes read + written / simulated time) of the gofs_fig* point
    labelled `label` (<plane>-<seq|rand>-<read|write>)."""
    def f(df):
        rows = df[df["label"] == label]
        if rows.empty:
            raise Missing(f"no point labelled {label}")
        r = rows.iloc[0]
        return (r["io_bytes_read"] + r["io_bytes_written"]) / (r["sim_time_ps"] * 1e-12) / 1e9
    return f


def label_reduction(column, ours, theirs):
    """1 - (column of the point labelled `ours`) / (that of `theirs`): how far below."""
    def f(df):
        v = {r["label"]: r[column] for _, r in df.iterrows()}
        if ours not in v or theirs not in v:
            raise Missing(f"no points labelled {ours} and {theirs}")
        return 1.0 - v[ours] / v[theirs]
    return f


STREAMER_HOW = ("streamer_ml on one node: 32 tasks, 2,304 x 128 MiB partitions (1.6x the 192 GB cache), "
                "a caching pass and 10 re-reading passes")

GOFS_FIG10_HOW = "bytes / simulated time, io_bench 262,144 x 4 KiB over one 8 GiB file, one 990 Pro"

CACHEVOL_NODES = 8  # configs/cache_vol.yaml: storage.control_plane.nodes (seed 004 Table II: 8 Theta nodes)


def _labelled(df, label):
    rows = df[df["label"] == label]
    if rows.empty:
        raise Missing(f"no point labelled {label}")
    return rows.iloc[0]


def observed_write_MiBps(label):
    """cachevol_table2: seed 004's Eq. 1 for the point labelled `label`: the 8 nodes' bytes
    written / (simulated time - iterations x compute per iteration), in MiB/s."""
    def f(df):
        r = _labelled(df, label)
        observed = r["sim_time_ps"] * 1e-12 - float(r["option.iterations"]) * float(r["option.compute_ms"]) * 1e-3
        return CACHEVOL_NODES * r["io_bytes_written"] / observed / 2**20
    return f


def epoch_read_MiBps(df, variant, later):
    """cachevol_table3: read bandwidth (MiB/s) of `variant` (<baseline|cachevol>-<seq|rnd>)
    in epoch 1 (its epochs=1 point) or in epochs 2-4 (the epochs=4 point less the epochs=1 one)."""
    one, four = _labelled(df, f"{variant}-e1"), _labelled(df, f"{variant}-e4")
    if not later:
        return one["io_bytes_read"] / (one["sim_time_ps"] * 1e-12) / 2**20
    return (four["io_bytes_read"] - one["io_bytes_read"]) / ((four["sim_time_ps"] - one["sim_time_ps"]) * 1e-12) / 2**20


def epoch_read_ratio(pattern, later):
    return lambda df: (epoch_read_MiBps(df, f"cachevol-{pattern}", later) /
                       epoch_read_MiBps(df, f"baseline-{pattern}", later))


CACHEVOL_TABLE2_HOW = ("8 x bytes written / (simulated time - 32 x compute per iteration), one Theta node of 16 ranks x "
                       "16 MiB x 8 writes x 32 iterations staged on its SSD (552.5 MiB/s) and migrated to its 1/8 of "
                       "the job's 4666.5 MiB/s Lustre rate")
CACHEVOL_TABLE3_HOW = ("Cache VOL's over the baseline's read bandwidth, one rank reading 256 GiB in 16 MiB batches; "
                       "Lustre at the seed's baseline 1861.6 MiB/s, the cache on four 3.84 TB NVMe drives (P5510 "
                       "model)")

def cores_throughput(plane, op):
    """{cores: GB/s} of the gofs_fig11 points labelled <plane>-seq-<op>-<n>core."""
    def tp(df):
        out = {}
        for _, r in df.iterrows():
            label = str(r["label"])
            prefix = f"{plane}-seq-{op}-"
            if label.startswith(prefix) and label.endswith("core"):
                out[int(label[len(prefix):-len("core")])] = \
                    (r["io_bytes_read"] + r["io_bytes_written"]) / (r["sim_time_ps"] * 1e-12) / 1e9
        if not out:
            raise Missing(f"no {plane}-seq-{op}-<n>core point")
        return out
    return tp


def cores_for_best(plane, op):
    """Fewest host cores at which `plane` reaches 95% of its best throughput (gofs_fig11)."""
    def f(df):
        tp = cores_throughput(plane, op)(df)
        best = max(tp.values())
        return min(n for n, v in tp.items() if v >= 0.95 * best)
    return f


def cores_spread(plane, op):
    """`plane`'s lowest over its highest throughput across the core counts (gofs_fig11)."""
    def f(df):
        tp = cores_throughput(plane, op)(df)
        return min(tp.values()) / max(tp.values())
    return f


GOFS_FIG11_HOW = "io_bench 262,144 sequential 4 KiB requests over one 8 GiB file, one 990 Pro, 1-16 host cores"
GOFS_FIG12_HOW = "file_query: 16 batches of 8,192 files of 12 KiB, one 990 Pro"
GOFS_FIG15_HOW = "file_graph: Kronecker scale 19 as one file, 4 KiB data-dependent reads, one 990 Pro"


def mean_time_ratio(num, den, apps):
    """Mean over `apps` of the simulated time of the point labelled <num>-<app> over
    that of <den>-<app>."""
    def f(df):
        return sum(label_time_ratio(f"{num}-{a}", f"{den}-{a}")(df) for a in apps) / len(apps)
    return f
GOFS_TABLE2_HOW = ("Host-Only's (host F2FS, 16 host cores transforming each file as it arrives, 1.361 ms per "
                   "image) over GoFS's simulated time, preprocess: 96 directories of 256 x 128 KiB files into "
                   "12 KiB outputs")

# (claim as the paper states it, its value, the sweep it is measured from, how, what
# ours means, the statistics it needs)
CLAIMS = [
    ("ZnG 7.5x HybridGPU IPC on average", paper.ZNG_OVER_HYBRIDGPU, "fig10_ipc",
     fig10_claim("zng", "hybridgpu"), FIG10_HOW, ["ipc"]),
    ("Optane +186% over HybridGPU", paper.OPTANE_OVER_HYBRIDGPU, "fig10_ipc",
     fig10_claim("optane", "hybridgpu"), FIG10_HOW, ["ipc"]),
    ("HybridGPU +31% over Hetero (multi-app pairs)", paper.HYBRIDGPU_OVER_HETERO, "fig10_ipc",
     fig10_claim("hybridgpu", "hetero", paper.PAIRS), FIG10_HOW + " over " + ", ".join(paper.PAIRS), ["ipc"]),
    ("ZnG-wropt 2.6x ZnG-rdopt", paper.WROPT_OVER_RDOPT, "fig10_ipc",
     fig10_claim("zng-wropt", "zng-rdopt"), FIG10_HOW, ["ipc"]),
    ("ZnG 1.9x Optane bandwidth", paper.ZNG_BW_OVER_OPTANE, "fig11_flash_bandwidth",
     bw_ratio("zng", "optane"), BW_HOW_RATIO, ["flash_port_bytes", "bus_read_bytes"]),
    ("HybridGPU flash bandwidth 4.2 GB/s", paper.HYBRIDGPU_FLASH_BW, "fig11_flash_bandwidth",
     bw_of("hybridgpu"), BW_HOW, ["onfi_bytes"]),
    ("ZnG-rdopt 2.9x HybridGPU flash bandwidth", paper.RDOPT_BW_OVER_HYBRIDGPU, "fig11_flash_bandwidth",
     bw_ratio("zng-rdopt", "hybridgpu"), BW_HOW_RATIO, ["flash_port_bytes", "onfi_bytes"]),
    ("ZnG-wropt +137% flash bandwidth over ZnG-rdopt", paper.WROPT_BW_OVER_RDOPT, "fig11_flash_bandwidth",
     bw_ratio("zng-wropt", "zng-rdopt"), BW_HOW_RATIO, ["flash_port_bytes"]),
    ("ZnG +167% flash bandwidth over ZnG-wropt", paper.ZNG_BW_OVER_WROPT, "fig11_flash_bandwidth",
     bw_ratio("zng", "zng-wropt"), BW_HOW_RATIO, ["flash_port_bytes"]),
    ("read re-accesses -55% (STT-MRAM L2 vs SRAM L2)", paper.STT_READ_REACCESS_CUT, "fig12_read_reaccesses",
     reaccess_cut("sram-l2", "stt-mram-l2"), "1 - mean(stt)/mean(sram)", ["read_reaccesses"]),
    ("read re-accesses -87% (dynamic prefetch vs STT-MRAM L2)", paper.DYN_READ_REACCESS_CUT,
     "fig12_read_reaccesses", reaccess_cut("stt-mram-l2", "dyn-prefetch"), "1 - mean(dyn)/mean(stt)",
     ["read_reaccesses"]),
    ("read re-accesses +11% with redirection", paper.REDIRECTION_READ_REACCESS_RISE, "fig12_read_reaccesses",
     redirection_rise, "mean(redirection)/mean(dyn) - 1", ["read_reaccesses"]),
    ("write redundancy 51 (baseline registers)", paper.BASELINE_WRITE_REDUNDANCY, "fig13_write_redundancy",
     redundancy("baseline"), "mean over workloads", ["write_redundancy"]),
    ("write redundancy -46% with NiF grouping", paper.NETWORK_WRITE_REDUNDANCY_CUT, "fig13_write_redundancy",
     redundancy_cut, "1 - mean(network)/mean(baseline)", ["write_redundancy"]),
    ("write redundancy 1.2 with redirection", paper.REDIRECTION_WRITE_REDUNDANCY, "fig13_write_redundancy",
     redundancy("redirection"), "mean over workloads", ["write_redundancy"]),
    ("FCnet +19% over SWnet", paper.FCNET_OVER_SWNET, "fig14_register_networks",
     label_ratio("FCnet", "SWnet"), "geomean IPC ratio", ["ipc"]),
    ("NiF 98% of FCnet", paper.NIF_OF_FCNET, "fig14_register_networks",
     label_ratio("NiF", "FCnet"), "geomean IPC ratio", ["ipc"]),
    ("predictor accuracy 93% on average", paper.PREDICTOR_ACCURACY_MEAN, "fig15b_predictor_accuracy",
     accuracy(mean), "mean over workloads", ["predictor_accuracy"]),
    ("predictor accuracy 87% in the worst case", paper.PREDICTOR_ACCURACY_WORST, "fig15b_predictor_accuracy",
     accuracy(min), "lowest over workloads", ["predictor_accuracy"]),
    ("best high waste threshold 0.3", paper.BEST_WASTE_HIGH, "fig16a_monitor_thresholds",
     best_threshold(0), "threshold of the best geomean IPC", ["ipc"]),
    ("best low waste threshold 0.05", paper.BEST_WASTE_LOW, "fig16a_monitor_thresholds",
     best_threshold(1), "threshold of the best geomean IPC", ["ipc"]),
    ("1KBpref +22% over nopref", paper.PREF1K_OVER_NOPREF, "fig16b_prefetch_policies",
     label_ratio("1KBpref", "nopref"), "geomean IPC ratio", ["ipc"]),
    ("4KBpref +32% over nopref", paper.PREF4K_OVER_NOPREF, "fig16b_prefetch_policies",
     label_ratio("4KBpref", "nopref"), "geomean IPC ratio", ["ipc"]),
    ("dyn-pref up to +21% over predict-4KBpref", paper.DYN_OVER_PREDICT_MAX, "fig16b_prefetch_policies",
     label_ratio("dyn-pref", "predict-4KBpref", max), "largest IPC ratio over workloads", ["ipc"]),
    ("GC: back -73%", paper.GC_BACK_CHANGE, "fig17_gc", gc_effect("back"),
     "IPC with GC / without - 1", ["ipc", "gc_merges"]),
    ("GC: betw +5%", paper.GC_BETW_CHANGE, "fig17_gc", gc_effect("betw"),
     "IPC with GC / without - 1", ["ipc", "gc_merges"]),
    # Seed 000 (CAM), Fig. 8: GPU-issued 4 KB random reads.
    ("CAM: 4 KB random read with 12 SSDs 20 GB/s", cam_paper.CAM_12SSD_4K_READ, "cam_fig8", io_read_of("cam"),
     "bytes read / simulated time, io_bench with 12 SSDs", ["io_bytes_read"]),
    ("CAM: SPDK similar to CAM (4 KB random read, 12 SSDs)", cam_paper.SPDK_OF_CAM_4K_READ, "cam_fig8",
     io_read_ratio("spdk", "cam"), "ratio of read throughputs", ["io_bytes_read"]),
    ("CAM: BaM similar to CAM (4 KB random read, 12 SSDs)", cam_paper.BAM_OF_CAM_4K_READ, "cam_fig8",
     io_read_ratio("bam", "cam"), "ratio of read throughputs", ["io_bytes_read"]),
    ("CAM: GDS 0.8 GB/s with 12 SSDs", cam_paper.GDS_12SSD, "cam_fig8", io_read_of("gds"),
     "bytes read / simulated time, io_bench 4 KB reads with 12 SSDs (the seed's value is from GEMM)",
     ["io_bytes_read"]),
    ("CAM: one thread driving 4 SSDs 75% of one per SSD", cam_paper.ONE_THREAD_4_SSDS, "cam_fig12",
     threads_ratio(4), "throughput with 1 thread / with 4 threads, 4 SSDs (the SPDK cost is derived from this)",
     ["io_bytes_read"]),
    ("CAM: one thread driving 2 SSDs similar to one per SSD", cam_paper.ONE_THREAD_2_SSDS, "cam_fig12",
     threads_ratio(2), "throughput with 1 thread / with 2 threads, 2 SSDs", ["io_bytes_read"]),
    ("CAM: SPDK with non-contiguous 4 KB destinations 1.3 GB/s", cam_paper.SPDK_SCATTERED_4K, "cam_fig16",
     io_read_of("spdk"), "bytes read / simulated time, a copy per request (the copy cost is derived from this)",
     ["io_bytes_read"]),
    # Seed 000 Fig. 4: SMs held by threads waiting for their I/O.
    ("CAM: BaM engages nearly all SMs beyond 5 SSDs", cam_paper.BAM_SMS_BEYOND_5_SSDS, "cam_fig4",
     polling_sm_share("bam", 5), "mean share of SMs holding a polling warp, 6-12 SSDs (fixed 65,536-thread grid)",
     ["polling_sm_share"]),
    ("CAM: CAM engages no SMs", cam_paper.CAM_SMS_LEFT_FREE, "cam_fig4",
     lambda df: 1.0 - polling_sm_share("cam", 0)(df), "1 - mean share of SMs holding a polling warp, 1-12 SSDs",
     ["polling_sm_share"]),
    # Seed 000 Fig. 9: GNN training.
    ("CAM: GNN training up to 1.84x over GIDS (BaM)", cam_paper.GNN_SPEEDUP_MAX, "cam_fig9", gnn_speedup,
     "largest GIDS/CAM simulated-time ratio over 512 B and 4 KB rows (gnn_gather: serial on bam vs pipelined on cam)",
     ["sim_time_ps"]),
    # Seed 000 Fig. 10b-c: out-of-core GEMM.
    ("CAM: GEMM up to 1.84x over BaM", cam_paper.GEMM_SPEEDUP_MAX, "cam_fig10", label_time_ratio("bam", "cam"),
     "BaM's (serial program) over CAM's (pipelined) simulated time, gemm_ooc", ["sim_time_ps"]),
    ("CAM: GDS 0.8 GB/s with 12 SSDs (GEMM)", cam_paper.GDS_12SSD, "cam_fig10", gds_gemm_GBps,
     "bytes read and written / simulated time of gemm_ooc on GDS", ["io_bytes_read", "io_bytes_written"]),
    # Seed 001 (GoFS), Fig. 10: 4 KB file I/O from GPU threads on one 990 Pro.
    ("GoFS: sequential read 5.5 GB/s", gofs_paper.GOFS_SEQ_READ, "gofs_fig10", file_io_GBps("gofs-seq-read"),
     GOFS_FIG10_HOW, ["io_bytes_read", "io_bytes_written"]),
    ("GoFS: sequential write 6.5 GB/s", gofs_paper.GOFS_SEQ_WRITE, "gofs_fig10", file_io_GBps("gofs-seq-write"),
     GOFS_FIG10_HOW, ["io_bytes_read", "io_bytes_written"]),
    ("GoFS: random read 5.1 GB/s", gofs_paper.GOFS_RAND_READ, "gofs_fig10", file_io_GBps("gofs-rand-read"),
     GOFS_FIG10_HOW, ["io_bytes_read", "io_bytes_written"]),
    ("GoFS: raw device random read 5.4 GB/s", gofs_paper.RAW_RAND_READ, "gofs_fig10", file_io_GBps("bam-rand-read"),
     GOFS_FIG10_HOW + "; GPU threads on the raw device (bam)", ["io_bytes_read", "io_bytes_written"]),
    ("GoFS: random write 6.1 GB/s", gofs_paper.GOFS_RAND_WRITE, "gofs_fig10", file_io_GBps("gofs-rand-write"),
     GOFS_FIG10_HOW, ["io_bytes_read", "io_bytes_written"]),
    ("GoFS: cuFile sequential read 0.44 GB/s", gofs_paper.CUFILE_SEQ_READ, "gofs_fig10",
     file_io_GBps("gds-seq-read"), GOFS_FIG10_HOW + "; gds with 16 host threads", ["io_bytes_read", "io_bytes_written"]),
    ("GoFS: cuFile sequential write 0.48 GB/s", gofs_paper.CUFILE_SEQ_WRITE, "gofs_fig10",
     file_io_GBps("gds-seq-write"), GOFS_FIG10_HOW + "; gds with 16 host threads",
     ["io_bytes_read", "io_bytes_written"]),
    ("GoFS: Basic sequential write 1.1 GB/s", gofs_paper.BASIC_SEQ_WRITE, "gofs_fig10",
     file_io_GBps("basic-seq-write"), GOFS_FIG10_HOW + "; basic (the inode lock hold is derived from this)",
     ["io_bytes_read", "io_bytes_written"]),
    # Seed 001, Fig. 17: GoFS over RAID0 of four 990 Pros.
    ("GoFS: 4 SSDs sequential read 20.4 GB/s", gofs_paper.GOFS_4SSD_SEQ_READ, "gofs_fig17",
     file_io_GBps("gofs-4ssd-seq-read"), GOFS_FIG10_HOW.replace("one 990 Pro", "RAID0 of 4"),
     ["io_bytes_read", "io_bytes_written"]),
    ("GoFS: 4 SSDs sequential write 22.1 GB/s", gofs_paper.GOFS_4SSD_SEQ_WRITE, "gofs_fig17",
     file_io_GBps("gofs-4ssd-seq-write"), GOFS_FIG10_HOW.replace("one 990 Pro", "RAID0 of 4"),
     ["io_bytes_read", "io_bytes_written"]),
    ("GoFS: Basic up to 7.8 GB/s with 4 SSDs", gofs_paper.BASIC_4SSD, "gofs_fig17",
     file_io_GBps("basic-4ssd-seq-read"), GOFS_FIG10_HOW.replace("one 990 Pro", "RAID0 of 4") + "; basic reads",
     ["io_bytes_read", "io_bytes_written"]),
    # Seed 004 (HDF5 Cache VOL), Table II: check-pointing writes staged on node-local SSDs
    # and migrated to Lustre behind compute; Table III(a): epoch reads cached on NVMe.
    ("Cache VOL: 2,994 MiB/s observed write bandwidth with no compute", cache_vol_paper.WRITE_BW_NO_COMPUTE,
     "cachevol_table2", observed_write_MiBps("compute-0"), CACHEVOL_TABLE2_HOW + "; no compute",
     ["io_bytes_written"]),
    ("Cache VOL: 4,319 MiB/s at compute/IO 1.14", cache_vol_paper.WRITE_BW_RATIO_1_14, "cachevol_table2",
     observed_write_MiBps("compute-128s"), CACHEVOL_TABLE2_HOW + "; 4 s compute per iteration", ["io_bytes_written"]),
    ("Cache VOL: 4,336 MiB/s at compute/IO 2.00 (SSDs: 4,420)", cache_vol_paper.WRITE_BW_RATIO_2_00, "cachevol_table2",
     observed_write_MiBps("compute-224s"), CACHEVOL_TABLE2_HOW + "; 7 s compute per iteration", ["io_bytes_written"]),
    ("Cache VOL: epochs 2-4 at 1.5-2x the baseline (sequential)", cache_vol_paper.LATER_EPOCHS_SEQ, "cachevol_table3",
     epoch_read_ratio("seq", True), CACHEVOL_TABLE3_HOW + "; batches in file order", ["io_bytes_read"]),
    ("Cache VOL: epochs 2-4 at 1.5-2x the baseline (random)", cache_vol_paper.LATER_EPOCHS_RND, "cachevol_table3",
     epoch_read_ratio("rnd", True), CACHEVOL_TABLE3_HOW + "; batches shuffled every epoch", ["io_bytes_read"]),
    ("Cache VOL: epoch 1 slower than the baseline (sequential)", cache_vol_paper.FIRST_EPOCH_SEQ, "cachevol_table3",
     epoch_read_ratio("seq", False), CACHEVOL_TABLE3_HOW + "; epoch 1 reads Lustre and caches each batch",
     ["io_bytes_read"]),
    # Seed 000 Fig. 10a: external merge sort.
    ("CAM: sort up to 1.50x over SPDK and POSIX", cam_paper.SORT_SPEEDUP_MAX, "cam_fig10_sort",
     label_time_ratio_max(["spdk", "posix"], "cam"),
     "largest of SPDK's and POSIX's simulated time over CAM's, merge_sort in 4 KB requests (same pipelined program)",
     ["sim_time_ps"]),
    ("CAM: SPDK similar to CAM (sort)", cam_paper.SPDK_SORT_OF_CAM, "cam_fig10_sort", label_time_ratio("spdk", "cam"),
     "SPDK's simulated time over CAM's, merge_sort", ["sim_time_ps"]),
    # Seed 002 (SSDStreamer), Fig. 5: cache-intensive iterative ML under each caching model.
    ("SSDStreamer: total time 33% below memory-and-disk (192 GB cache)", streamer_paper.SST_TOTAL_BELOW_MD,
     "streamer_fig5", label_reduction("sim_time_ps", "sst", "m+d"),
     "1 - simulated time of sst / of m+d; " + STREAMER_HOW, ["sim_time_ps"]),
    ("SSDStreamer: disk access time 82% below disk-only", streamer_paper.SST_DISK_BELOW_D, "streamer_fig5",
     label_reduction("disk_access_ps", "sst", "d"), "1 - tasks' summed disk access time of sst / of d; " + STREAMER_HOW,
     ["disk_access_ps"]),
    ("SSDStreamer: disk access time 72% below user-space I/O without prefetch", streamer_paper.SST_DISK_BELOW_USERIO,
     "streamer_fig5", label_reduction("disk_access_ps", "sst", "userio"),
     "1 - tasks' summed disk access time of sst / of userio; " + STREAMER_HOW, ["disk_access_ps"]),
    ("SSDStreamer: disk access time 76% below libaio prefetch", streamer_paper.SST_DISK_BELOW_PREF, "streamer_fig5",
     label_reduction("disk_access_ps", "sst", "pref"),
     "1 - tasks' summed disk access time of sst / of pref; " + STREAMER_HOW, ["disk_access_ps"]),
    # Seed 001, Table 2: dataset preprocessing, GoFS over Host-Only (the host's cores transform).
    ("GoFS: preprocessing 1.16x Host-Only on 1 SSD", gofs_paper.PREPROCESS_1SSD, "gofs_table2",
     label_time_ratio("host-only-1ssd", "gofs-1ssd"), GOFS_TABLE2_HOW, ["sim_time_ps"]),
    ("GoFS: preprocessing 1.96x Host-Only on 2 SSDs", gofs_paper.PREPROCESS_2SSD, "gofs_table2",
     label_time_ratio("host-only-2ssd", "gofs-2ssd"), GOFS_TABLE2_HOW, ["sim_time_ps"]),
    ("GoFS: preprocessing 3.16x Host-Only on 4 SSDs", gofs_paper.PREPROCESS_4SSD, "gofs_table2",
     label_time_ratio("host-only-4ssd", "gofs-4ssd"), GOFS_TABLE2_HOW, ["sim_time_ps"]),
    # Seed 001, Fig. 11: throughput against the host cores given to the I/O.
    ("GoFS: Basic needs 8-16 cores for its best sequential read", gofs_paper.BASELINE_CORES_FOR_BEST, "gofs_fig11",
     cores_for_best("basic", "read"), "fewest cores reaching 95% of Basic's best; " + GOFS_FIG11_HOW,
     ["io_bytes_read", "io_bytes_written"]),
    ("GoFS: cuFile needs 8-16 cores for its best sequential read", gofs_paper.BASELINE_CORES_FOR_BEST, "gofs_fig11",
     cores_for_best("gds", "read"), "fewest cores reaching 95% of cuFile's best; " + GOFS_FIG11_HOW,
     ["io_bytes_read", "io_bytes_written"]),
    ("GoFS: GoFS sequential read independent of host cores", gofs_paper.GOFS_CORE_INDEPENDENT, "gofs_fig11",
     cores_spread("gofs", "read"), "GoFS's lowest over highest throughput across 1-16 cores; " + GOFS_FIG11_HOW,
     ["io_bytes_read", "io_bytes_written"]),
    ("GoFS: GoFS sequential write independent of host cores", gofs_paper.GOFS_CORE_INDEPENDENT, "gofs_fig11",
     cores_spread("gofs", "write"), "GoFS's lowest over highest throughput across 1-16 cores; " + GOFS_FIG11_HOW,
     ["io_bytes_read", "io_bytes_written"]),
    # Seed 001, Fig. 12: intelligent queries over 12 KB files.
    ("GoFS: intelligent queries 6.2x Basic", gofs_paper.QUERY_OVER_BASIC, "gofs_fig12",
     label_time_ratio("basic-batch", "gofs-batch"), "Basic's over GoFS's simulated time; " + GOFS_FIG12_HOW,
     ["sim_time_ps"]),
    ("GoFS: intelligent queries 2.1x GeminiFS", gofs_paper.QUERY_OVER_GEMINIFS, "gofs_fig12",
     label_time_ratio("geminifs-perfile", "gofs-batch"), "GeminiFS's (a read per file) over GoFS's simulated time; "
     + GOFS_FIG12_HOW, ["sim_time_ps"]),
    ("GoFS: intelligent queries batch API 1.41x", gofs_paper.QUERY_BATCH_API, "gofs_fig12",
     label_time_ratio("gofs-perfile", "gofs-batch"), "GoFS's simulated time with a read per file over batched; "
     + GOFS_FIG12_HOW, ["sim_time_ps"]),
    # Seed 001, Fig. 15: BFS and CC reading the graph from a file.
    ("GoFS: BFS/CC 1.53x Basic on average", gofs_paper.GRAPH_OVER_BASIC, "gofs_fig15",
     mean_time_ratio("basic", "gofs", ("bfs", "cc")), "mean over BFS and CC of Basic's over GoFS's simulated time; "
     + GOFS_FIG15_HOW, ["sim_time_ps"]),
    ("GoFS: BFS/CC 1.2x GeminiFS", gofs_paper.GRAPH_OVER_GEMINIFS, "gofs_fig15",
     mean_time_ratio("geminifs", "gofs", ("bfs", "cc")), "mean over BFS and CC of GeminiFS's over GoFS's simulated "
     "time; " + GOFS_FIG15_HOW, ["sim_time_ps"]),
    ("GoFS: BFS/CC cuFile up to 19.8x slower than Basic", gofs_paper.GRAPH_CUFILE_UNDER_BASIC, "gofs_fig15",
     lambda df: max(label_time_ratio(f"gds-{a}", f"basic-{a}")(df) for a in ("bfs", "cc")),
     "largest over BFS and CC of cuFile's (gds, 16 threads) over Basic's simulated time; " + GOFS_FIG15_HOW,
     ["sim_time_ps"]),
]


def measure(results_root):
    """[(claim, stated, spec, how, ours or None, problem or None)]"""
    out, cache = [], {}
    for claim, stated, spec, compute, how, needs in CLAIMS:
        try:
            if spec not in cache:
                cache[spec] = load_results(results_root, spec)
            df = cache[spec]
            require(df, spec, *needs)
            ours = compute(df)
            if isinstance(ours, tuple):  # (value, a second average shown beside it)
                ours, note = ours
                how = f"{how}; {note}" if note else how
            out.append((claim, stated, spec, how, ours, None))
        except (ResultsMissing, StatisticMissing, Missing) as e:
            out.append((claim, stated, spec, how, None, str(e)))
    return out


def load_reasons(path):
    """{claim: reason sentence} from a YAML map; every key must name a claim."""
    if not path:
        return {}
    with open(path) as f:
        reasons = yaml.safe_load(f) or {}
    known = {c[0] for c in CLAIMS}
    if not isinstance(reasons, dict) or not all(isinstance(v, str) for v in reasons.values()):
        raise SystemExit(f"report: {path}: expected a map of claim -> reason sentence")
    unknown = [k for k in reasons if k not in known]
    if unknown:
        raise SystemExit(f"report: {path}: {', '.join(repr(k) for k in unknown)} is not a claim of the report")
    return reasons


def render(results, results_root, command, reasons=None):
    reasons = reasons or {}
    lines = ["# The seed papers' claims beside zngsim", "",
             "Rows 1-26 are the ZnG paper's (seed 003), rows starting \"CAM:\" seed 000's, rows starting "
             "\"GoFS:\" seed 001's, rows starting \"SSDStreamer:\" seed 002's and rows starting \"Cache VOL:\" "
             "seed 004's.", "",
             f"Results: `{results_root}`. Made by: `{command}`.", "",
             "Ratio = ours / paper. Rows marked **differs** are more than 25% away from the paper; each has a "
             "reason slot below, filled in by whoever analysed the run.", "",
             "| # | claim (paper) | paper | ours | ratio | how ours is computed | status |",
             "|---|---|---|---|---|---|---|"]
    slots, missing = [], []
    for i, (claim, stated, spec, how, ours, problem) in enumerate(results, start=1):
        if ours is None:
            status, ratio = "inputs missing", None
            missing.append(f"{i}. {claim}: {problem}")
        else:
            ratio = ours / stated.value if stated.value else None
            if ratio is None or ratio <= 0 or abs(ratio - 1) > TOLERANCE:
                status = f"**differs** (reason {len(slots) + 1})"
                why = reasons.get(claim, "_(to be filled in: model difference, input difference, ...)_")
                slots.append(f"{len(slots) + 1}. {claim} (paper {fmt(stated.value)}, ours {fmt(ours)}): "
                             f"Reason: {why}")
            else:
                status = "within 25%"
        lines.append(f"| {i} | {claim} | {fmt(stated.value)} {stated.unit} | {fmt(ours)} | {fmt(ratio)} | "
                     f"{how} ({spec}) | {status} |")
    if slots:
        lines += ["", "## Why ours differs", ""] + slots
    if missing:
        lines += ["", "## Claims whose inputs are missing", ""] + missing
    lines += ["", "## The paper's sentences", ""]
    lines += [f"{i}. {stated.quote}" for i, (_, stated, *_rest) in enumerate(results, start=1)]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--results-root", default=os.path.join(EXPERIMENTS, "results"))
    ap.add_argument("--out", help="markdown file (default: <results-root>/report.md)")
    ap.add_argument("--reasons", help="YAML map claim -> why ours differs, for the claims more than 25%% away")
    a = ap.parse_args(argv)
    out = a.out or os.path.join(a.results_root, "report.md")
    results = measure(a.results_root)
    command = "experiments/report.py " + " ".join(argv if argv is not None else sys.argv[1:])
    repo = os.path.dirname(EXPERIMENTS)
    shown = os.path.relpath(a.results_root, repo)
    text = render(results, shown if not shown.startswith("..") else os.path.abspath(a.results_root), command.strip(),
                  load_reasons(a.reasons))
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, out)
    n_missing = sum(1 for r in results if r[4] is None)
    print(f"report: {len(results)} claims, {len(results) - n_missing} measured, {n_missing} missing inputs -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
