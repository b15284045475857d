#!/usr/bin/env python3
"""Counts kernels, thread blocks, warps and instructions in Accel-Sim and MacSim traces
straight from the files, independently of the C++ importers, to check them.

  count_foreign_traces.py accelsim DIR    (DIR holds kernelslist.g)
  count_foreign_traces.py macsim DIR      (DIR holds kernel_config.txt)
"""
import gzip
import os
import re
import sys

INSTRUCTION = re.compile(r"^[0-9a-fA-F]+ [0-9a-fA-F]{8} ")


def accelsim(d):
    c = dict(kernels=0, ctas=0, warps=0, instructions=0, exits=0, partial_exits=0,
             global_loads=0, global_stores=0, shared_loads=0, shared_stores=0, barriers=0,
             memcpy=0, global_line_requests=0, footprint_lines=0)
    footprint = set()
    with open(os.path.join(d, "kernelslist.g")) as f:
        files = []
        for line in f:
            line = line.strip()
            if line.startswith("Memcpy"):
                c["memcpy"] += 1
            elif line.startswith("kernel"):
                files.append(line)
    for name in files:
        c["kernels"] += 1
        remaining = 0
        with open(os.path.join(d, name)) as f:
            for line in f:
                line = line.strip()
                if line.startswith("#BEGIN_TB"):
                    c["ctas"] += 1
                elif line.startswith("warp ="):
                    c["warps"] += 1
                elif line.startswith("insts ="):
                    remaining = int(line.split("=")[1])
                elif INSTRUCTION.match(line):
                    remaining -= 1
                    c["instructions"] += 1
                    fields = line.split()
                    ndst = int(fields[2])
                    opcode = fields[3 + ndst]
                    base = opcode.split(".")[0]
                    active = int(fields[1], 16) != 0
                    if base == "EXIT":
                        c["exits" if remaining == 0 else "partial_exits"] += 1
                    elif base in ("LDG", "STG") and active:
                        c["global_loads" if base == "LDG" else "global_stores"] += 1
                        lines = global_lines(int(fields[1], 16), fields[4 + ndst:])
                        c["global_line_requests"] += len(lines)
                        footprint |= lines
                    elif base == "LDS" and active:
                        c["shared_loads"] += 1
                    elif base == "STS" and active:
                        c["shared_stores"] += 1
                    elif base == "BAR":
                        c["barriers"] += 1
    c["footprint_lines"] = len(footprint)
    return c


def lines_of(addr, size):
    return {addr // 128, (addr + size - 1) // 128}


def global_lines(mask, rest):
    """128-byte lines touched by a traced memory instruction; `rest` starts at nsrc."""
    nsrc = int(rest[0])
    width, mode = int(rest[1 + nsrc]), int(rest[2 + nsrc])
    vals = rest[3 + nsrc:]
    lanes = [i for i in range(32) if mask >> i & 1]
    if mode == 0:
        addrs = [int(v, 16) for v in vals[:len(lanes)]]
    elif mode == 1:
        addrs = [int(vals[0], 16) + k * int(vals[1]) for k in range(len(lanes))]
    else:
        addrs = [int(vals[0], 16)]
        for d in vals[1:len(lanes)]:
            addrs.append(addrs[-1] + int(d))
    out = set()
    for a in addrs:
        out |= lines_of(a, width)
    return out


# MacSim's NVBIT_OPCODE numbers of the opcodes counted here (src/trace_read.h).
NVBIT_LDG, NVBIT_STG, NVBIT_EXIT = 73, 78, 139


def macsim(d):
    c = dict(kernels=0, ctas=0, warps=0, instructions=0, exits=0, global_loads=0, global_stores=0,
             global_line_requests=0, footprint_lines=0)
    footprint = set()
    with open(os.path.join(d, "kernel_config.txt")) as f:
        tokens = f.read().split()
    kernels = tokens[3:]
    for k in kernels:
        c["kernels"] += 1
        kdir = os.path.join(d, os.path.basename(os.path.dirname(k)))
        with open(os.path.join(kdir, "trace.txt")) as f:
            t = f.read().split()
        nwarps = int(t[3])
        ids = [int(t[4 + 2 * i]) for i in range(nwarps)]
        c["warps"] += nwarps
        c["ctas"] += len({i >> 16 for i in ids})
        for i in ids:
            data = gzip.open(os.path.join(kdir, "trace_%d.raw" % i)).read()
            assert len(data) % 64 == 0
            for r in range(0, len(data), 64):
                c["instructions"] += 1
                op, is_load = data[r], data[r + 2]
                if op == NVBIT_EXIT:
                    c["exits"] += 1
                elif op in (NVBIT_LDG, NVBIT_STG) and (is_load or op == NVBIT_STG):
                    c["global_loads" if op == NVBIT_LDG else "global_stores"] += 1
                    # One address per warp: active lanes contiguous from it, size bytes each.
                    mask = int.from_bytes(data[r + 24:r + 28], "little")
                    addr = int.from_bytes(data[r + 48:r + 56], "little")
                    size = data[r + 56]
                    lines = set()
                    for k in range(bin(mask).count("1")):
                        lines |= lines_of(addr + k * size, size)
                    c["global_line_requests"] += len(lines)
                    footprint |= lines
    c["footprint_lines"] = len(footprint)
    return c


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("accelsim", "macsim"):
        sys.exit(__doc__)
    counts = (accelsim if sys.argv[1] == "accelsim" else macsim)(sys.argv[2])
    print(" ".join("%s=%d" % kv for kv in counts.items()))
