#!/usr/bin/python3
"""Writes results.csv files shaped like the figure sweeps' (one per experiments/fig*.yaml,
table*.yaml, cam_*.yaml, gofs_*.yaml, cachevol_*.yaml and streamer_*.yaml)
with made-up, known values, so the plot and report scripts can be checked against
numbers computed by hand. Test data only: never mixed with measured results.

usage: synthetic_results.py OUT_ROOT [--drop COLUMN]...
"""
import argparse
import csv
import glob
import itertools
import os

import yaml

EXPERIMENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "experiments")

# Known values: IPC per platform, medium bandwidth per platform, per-label factors.
IPC = {"hetero": 0.2, "hybridgpu": 0.25, "optane": 0.5, "zng-base": 0.1, "zng-rdopt": 0.3, "zng-wropt": 0.9,
       "zng": 2.0, "ideal": 4.0}
BANDWIDTH = {"hybridgpu": 4.0, "optane": 10.0, "zng-base": 2.0, "zng-rdopt": 12.0, "zng-wropt": 20.0, "zng": 40.0}
# Fig. 11's data between medium and controllers (GB/s over 1 ms), and the column of the
# link it crosses on each platform (optane's bus: reads 3/4, writes 1/4).
INTERFACE_GBPS = {"hybridgpu": 3.0, "optane": 8.0, "zng-base": 1.0, "zng-rdopt": 6.0, "zng-wropt": 9.0,
                  "zng": 18.0}
INTERFACE_COLUMN = {"hybridgpu": "onfi_bytes", "zng-base": "flash_port_bytes", "zng-rdopt": "flash_port_bytes",
                    "zng-wropt": "flash_port_bytes", "zng": "flash_port_bytes"}
LABEL_FACTOR = {"SWnet": 1.0, "FCnet": 1.2, "NiF": 1.17, "nopref": 1.0, "1KBpref": 1.1, "4KBpref": 1.3,
                "predict-4KBpref": 1.4, "dyn-pref": 1.5, "default": 1.0, "gc-pressure": 0.5}
REACCESSES = {"sram-l2": 1000.0, "stt-mram-l2": 500.0, "dyn-prefetch": 100.0, "redirection": 110.0}
REDUNDANCY = {"baseline": 40.0, "network": 20.0, "redirection": 1.5}
# GPU-issued read throughput (GB/s) per control plane; cam_fig12's: 10 GB/s, 75% when a
# thread drives more than 2 SSDs.
GNN_TIME = {"gids-512": 1.5, "gids-4096": 1.8, "bam": 1.6}
IO_GBPS = {"cam": 20.0, "bam": 19.0, "spdk": 18.0, "posix": 4.0, "gds": 0.8}
# File I/O throughput (GB/s) of the gofs_* points by the plane their label starts with;
# labels with "4ssd" four times that.
FILE_IO_GBPS = {"gofs": 5.0, "bam": 5.5, "gds": 0.4, "basic": 1.0}
# cachevol_table2: 64 GiB written per point; observed I/O time (s) 128 with no compute
# (8 x 65536 MiB / 128 s = 4096 MiB/s), 131.072 otherwise (4000 MiB/s); the simulated
# time adds iterations x compute_ms. cachevol_table3: 1 GiB read per epoch; the baseline
# 1 s per epoch, Cache VOL 2 s for epoch 1 and 0.5 s for each later one.
CACHEVOL_OBSERVED_S = {"compute-0": 128.0}
CACHEVOL_EPOCH_S = {"baseline": (1.0, 1.0), "cachevol": (2.0, 0.5)}
# streamer_* points by caching model: (simulated time, summed disk access time), seconds.
STREAMER = {"sst": (0.7, 0.2), "m+d": (1.0, 1.0), "d": (0.9, 1.0), "pref": (0.85, 0.8), "userio": (0.88, 0.5)}


def expand(spec):
    for p in spec.get("points") or []:
        yield os.path.splitext(os.path.basename(p["config"]))[0], str(p["workload"]), p.get("label", ""), \
            dict(p.get("set") or {}), dict(p.get("options") or {})
    if "points" in spec:
        return
    variants = spec.get("variants") or {"": {}}
    sets = spec.get("set") or {}
    keys = sorted(sets)
    lists = [sets[k] if isinstance(sets[k], list) else [sets[k]] for k in keys]
    for cfg in spec.get("configs") or [None]:
        for wl in spec["workloads"]:
            for label, v in variants.items():
                c = (v or {}).get("config") or cfg
                for combo in itertools.product(*lists):
                    yield os.path.splitext(os.path.basename(c))[0], str(wl), label, dict(zip(keys, combo)), {}


def row(cfg, wl, label, sets, options, index):
    apps = wl.replace("-", ",").split(",")
    ipc = IPC.get(cfg, 1.0) * LABEL_FACTOR.get(label, 1.0)
    if "gpu.l2.policy.waste_high" in sets:   # a single best cell at (0.4, 0.01)
        ipc *= 1.1 if (sets["gpu.l2.policy.waste_high"], sets["gpu.l2.policy.waste_low"]) == (0.4, 0.01) else 1.0
    if len(apps) > 1 and len(set(apps)) == 1:   # n copies: zng scales by sqrt(n), ideal by n
        ipc *= len(apps) ** (0.5 if cfg == "zng" else 1.0)
    r = {"point": f"p{index}", "label": label, "config": cfg, "platform": cfg, "workload": wl,
         "ipc": ipc, "medium_read_GBps": BANDWIDTH.get(cfg, 1.0) * 0.75,
         "medium_write_GBps": BANDWIDTH.get(cfg, 1.0) * 0.25, "read_reaccesses": REACCESSES.get(label, 0.0),
         "write_redundancy": REDUNDANCY.get(label, 1.0), "predictor_accuracy": 0.8 + 0.01 * (index % 10),
         "gc_merges": 5.0 if label == "gc-pressure" else 0.0, "dir": f"points/p{index}"}
    if cfg in INTERFACE_GBPS:   # 1 ms of simulated time
        r["sim_time_ps"] = 1e9
        data = INTERFACE_GBPS[cfg] * 1e9 * 1e-3
        if cfg == "optane":
            r["bus_read_bytes"], r["bus_write_bytes"] = data * 0.75, data * 0.25
        else:
            r[INTERFACE_COLUMN[cfg]] = data
    if cfg in IO_GBPS:   # 1 ms of simulated time
        gbps = IO_GBPS[cfg]
        if "storage.control_plane.threads" in sets:
            gbps = 10.0 * (1.0 if 2 * sets["storage.control_plane.threads"] >= sets["storage.array.ssds"] else 0.75)
        r["sim_time_ps"] = 1e9
        r["io_bytes_read"] = gbps * 1e9 * 1e-3
        r["io_bytes_written"] = 0.0
        # cam_fig4: BaM's pollers on 90% of the SMs, CAM's on none.
        r["polling_sm_share"] = 0.9 if cfg == "bam" else 0.0
        # cam_fig9: GIDS 1.5x CAM's time with 512 B rows, 1.8x with 4 KB rows.
        r["sim_time_ps"] *= GNN_TIME.get(label, 1.0)
    # gofs_* points are labelled plane-pattern ("gofs-seq-read"); cam_* labels have no
    # such plane prefix ("bam", "gids-512").
    plane = label.split("-")[0]
    if "-" in label and plane in FILE_IO_GBPS:   # 1 ms of simulated time
        r["sim_time_ps"] = 1e9
        r["io_bytes_read"] = FILE_IO_GBPS[plane] * (4 if "4ssd" in label else 1) * 1e9 * 1e-3
        r["io_bytes_written"] = 0.0
    if wl == "checkpoint":
        observed = CACHEVOL_OBSERVED_S.get(label, 131.072)
        r["sim_time_ps"] = (observed + options["iterations"] * options["compute_ms"] * 1e-3) * 1e12
        r["io_bytes_written"] = float(64 << 30)
    if wl == "epoch_reader":
        first, later = CACHEVOL_EPOCH_S[label.split("-")[0]]
        epochs = options["epochs"]
        r["sim_time_ps"] = (first + (epochs - 1) * later) * 1e12
        r["io_bytes_read"] = float(epochs << 30)
    if cfg == "streamer" and label in STREAMER:
        r["sim_time_ps"] = STREAMER[label][0] * 1e12
        r["disk_access_ps"] = STREAMER[label][1] * 1e12
    for k, v in sets.items():
        r[f"set.{k}"] = v
    for k, v in options.items():
        r[f"option.{k}"] = v
    for i, a in enumerate(apps, start=1):
        r[f"app{i}"] = a if apps.count(a) == 1 else (a if i == 1 else f"{a}_{i}")
        r[f"app{i}_ipc"] = ipc / len(apps) * (0.5 if (a == "back" and label == "gc-pressure") else 1.0)
    return r


def write(out_root, drop):
    for path in sorted(glob.glob(os.path.join(EXPERIMENTS, "fig*.yaml")) + glob.glob(os.path.join(EXPERIMENTS, "table*.yaml"))
                       + glob.glob(os.path.join(EXPERIMENTS, "cam_*.yaml"))
                       + glob.glob(os.path.join(EXPERIMENTS, "gofs_*.yaml"))
                       + glob.glob(os.path.join(EXPERIMENTS, "cachevol_*.yaml"))
                       + glob.glob(os.path.join(EXPERIMENTS, "streamer_*.yaml"))):
        name = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            spec = yaml.safe_load(f)
        rows = [row(*p, i) for i, p in enumerate(expand(spec))]
        for r in rows:
            for d in drop:
                r.pop(d, None)
        d = os.path.join(out_root, name)
        os.makedirs(d, exist_ok=True)
        fields = sorted({k for r in rows for k in r})
        with open(os.path.join(d, "results.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields, restval="")
            w.writeheader()
            w.writerows(rows)
        if name == "fig17_gc":
            for r in rows:
                pd = os.path.join(d, r["dir"])
                os.makedirs(pd, exist_ok=True)
                with open(os.path.join(pd, "series.csv"), "w") as f:
                    f.write("time_us,gpu.app.betw.requests,gpu.app.back.requests\n")
                    for t in range(5):
                        f.write(f"{10 * (t + 1)},{100 - t},{50 if t < 3 else 0}\n")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("out_root")
    ap.add_argument("--drop", action="append", default=[])
    a = ap.parse_args()
    write(a.out_root, a.drop)
