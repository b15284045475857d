#!/usr/bin/env python3
"""Packs the real Accel-Sim and MacSim traces of a testdata directory into seed inputs of
the importer fuzz targets (the archive of fuzz/fuzz_support.hpp: "=== path" lines, each
followed by the file's decompressed content).

Usage: pack_seeds.py TESTDATA_DIR OUT_DIR   (writes OUT_DIR/accelsim/*, OUT_DIR/macsim/*)

Seeds stay small (a fuzzer runs slower on large inputs and mutates them less usefully):
an Accel-Sim kernel keeps its header and whole warps up to MAX_TRACEG bytes; a MacSim
kernel keeps the first WARPS_PER_BLOCK warps of its first BLOCKS blocks, with its
trace.txt listing just those.
"""
import gzip
import re
import sys
from pathlib import Path

MAX_TRACEG = 48 * 1024
BLOCKS = 4
WARPS_PER_BLOCK = 2


def archive(files):
    """files: list of (relative path, bytes) -> one archive."""
    return b"\n".join(b"=== " + name.encode() + b"\n" + content for name, content in files)


def cut_traceg(text):
    """The header and the first whole warps of an Accel-Sim kernel, under MAX_TRACEG."""
    if len(text) <= MAX_TRACEG:
        return text
    lines = text.split(b"\n")
    out, size, warp_start = [], 0, None
    for i, line in enumerate(lines):
        if line.startswith(b"warp = "):
            warp_start = len(out)
        if size + len(line) + 1 > MAX_TRACEG and warp_start is not None:
            out = out[:warp_start]
            break
        out.append(line)
        size += len(line) + 1
    out.append(b"#END_TB")
    return b"\n".join(out) + b"\n"


def accelsim_seeds(root, out):
    for d in sorted(p for p in (root / "accelsim").glob("*") if p.is_dir()):
        files = [("kernelslist.g", (d / "kernelslist.g").read_bytes())]
        for t in sorted(d.glob("kernel-*.traceg")):
            files.append((t.name, cut_traceg(t.read_bytes())))
        (out / f"{d.name}.arc").write_bytes(archive(files))


def macsim_kernel(kdir, name):
    """(files of one kernel under `name`/, with a subset of its warps)."""
    lines = (kdir / "trace.txt").read_text().split()
    kind, version, rest = lines[0], lines[1], lines[2:]
    header = [kind, version]
    if kind in ("nvbit", "newptx"):
        header.append(rest[0])
        rest = rest[1:]
    pairs = [(int(rest[i]), rest[i + 1]) for i in range(1, 1 + 2 * int(rest[0]), 2)]
    keep = [(w, s) for w, s in pairs if (w >> 16) < BLOCKS and (w & 0xFFFF) < WARPS_PER_BLOCK]
    text = "\n".join(header + [str(len(keep))] + [f"{w} {s}" for w, s in keep]) + "\n"
    files = [(f"{name}/trace.txt", text.encode())]
    for w, _ in keep:
        files.append((f"{name}/trace_{w}.raw", gzip.decompress((kdir / f"trace_{w}.raw").read_bytes())))
    return files


def macsim_seeds(root, out):
    for cfg in sorted((root / "macsim-nvbit").glob("**/kernel_config.txt")):
        d = cfg.parent
        head = cfg.read_text().split()[:3]
        kernels = [Path(p).parent.name for p in cfg.read_text().split()[3:]]
        tag = "-".join(d.relative_to(root / "macsim-nvbit").parts)
        for k in kernels:  # one kernel per seed
            config = "\n".join(head + [f"./{k}/trace.txt"]) + "\n"
            files = [("kernel_config.txt", config.encode())] + macsim_kernel(d / k, k)
            (out / f"{tag}-{k}.arc").write_bytes(archive(files))
        files = [("kernel_config.txt", ("\n".join(head + [f"./{k}/trace.txt" for k in kernels]) + "\n").encode())]
        for k in kernels:
            files += macsim_kernel(d / k, k)
        (out / f"{tag}-all.arc").write_bytes(archive(files))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root, out = Path(sys.argv[1]), Path(sys.argv[2])
    for sub, make in (("accelsim", accelsim_seeds), ("macsim", macsim_seeds)):
        (out / sub).mkdir(parents=True, exist_ok=True)
        make(root, out / sub)


if __name__ == "__main__":
    main()
