#!/usr/bin/env python3
"""The workload cache key's digest of the sources that produce traces, checked from outside.

usage: trace_sources_digest_test.py SOURCE_ROOT GENERATED_HEADER CMAKE DIGEST_SCRIPT

1. Recomputes the digest of the source tree here (own file selection, own include
   closure, hashlib) and requires the header the build compiled into the cache key to
   hold the same digest and the same manifest: a stale header (an edit the build did
   not notice) fails.
2. Runs the CMake script on a copy of traces/ and storage/ in a temporary directory:
   same digest as the real tree (it depends on relative paths and contents only, not
   on where the tree is), and editing a generator, a shared helper, the trace writer or
   a header reached from outside traces/ changes it, each time to the value computed here.
"""
import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.MULTILINE)
DIGEST = re.compile(r'kTraceSourcesDigest\[\] = "([0-9a-f]{64})";')
MANIFEST_LINE = re.compile(r'^// ([0-9a-f]{64})  (\S+)$', re.MULTILINE)


def normal(path: str) -> str:
    parts = []
    for p in path.split("/"):
        if p in ("", "."):
            continue
        if p == ".." and parts and parts[-1] != "..":
            parts.pop()
        else:
            parts.append(p)
    return "/".join(parts)


def source_files(root: Path) -> list[str]:
    seeds = [p for p in (root / "traces").iterdir() if p.is_file() and p.suffix in (".cpp", ".hpp")]
    seeds += [p for p in (root / "traces" / "workloads").rglob("*") if p.is_file() and p.suffix in (".cpp", ".hpp")]
    pending = [p.relative_to(root).as_posix() for p in seeds]
    found: set[str] = set()
    while pending:
        rel = pending.pop()
        if rel in found:
            continue
        found.add(rel)
        here = rel.rsplit("/", 1)[0]
        for inc in INCLUDE.findall((root / rel).read_text()):
            for candidate in (normal(here + "/" + inc), normal(inc)):
                if not candidate.startswith("../") and (root / candidate).is_file():
                    pending.append(candidate)
                    break
    return sorted(found)


def manifest_and_digest(root: Path) -> tuple[list[tuple[str, str]], str]:
    entries = [(hashlib.sha256((root / rel).read_bytes()).hexdigest(), rel) for rel in source_files(root)]
    text = "".join(f"{h}  {rel}\n" for h, rel in entries)
    return entries, hashlib.sha256(text.encode()).hexdigest()


def header_digest(header: Path) -> tuple[list[tuple[str, str]], str]:
    text = header.read_text()
    m = DIGEST.search(text)
    assert m, f"{header}: no kTraceSourcesDigest"
    return MANIFEST_LINE.findall(text), m.group(1)


def run_script(cmake: str, script: str, root: Path, out: Path) -> str:
    subprocess.run([cmake, f"-DSOURCE_ROOT={root}", f"-DOUTPUT={out}", "-P", script], check=True)
    return header_digest(out)[1]


def main() -> int:
    root, header, cmake, script = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], sys.argv[4]
    failures = []

    entries, digest = manifest_and_digest(root)
    files = [rel for _, rel in entries]
    for must in ("traces/trace_writer.cpp", "traces/trace_file_format.cpp",
                 "traces/workloads/kernel_emitter.cpp", "traces/workloads/workload_registry.cpp",
                 "traces/workloads/graph/kronecker_generator.cpp", "traces/workloads/dense/gaussian.cpp",
                 "storage/cache_vol/file_close.hpp", "storage/gofs/file_offset.hpp"):
        if must not in files:
            failures.append(f"{must} is not among the digested sources")
    if any(rel.startswith("traces/importers/") for rel in files):
        failures.append("the importers do not produce cached traces, yet are digested")

    built_entries, built_digest = header_digest(header)
    if built_entries != entries:
        failures.append(f"{header}: manifest differs from the source tree (stale header?)")
    if built_digest != digest:
        failures.append(f"{header}: digest {built_digest}, the source tree's is {digest}")

    with tempfile.TemporaryDirectory(prefix="zng-trace-digest-") as tmp:
        copy = Path(tmp) / "src"
        for top in ("traces", "storage"):
            shutil.copytree(root / top, copy / top)
        out = Path(tmp) / "digest.hpp"
        first = run_script(cmake, script, copy, out)
        if first != digest:
            failures.append(f"a copy of the tree elsewhere digests to {first}, the tree to {digest}")
        previous = first
        for edited in ("traces/workloads/graph/kronecker_generator.cpp", "traces/workloads/kernel_emitter.cpp",
                       "traces/trace_writer.cpp", "storage/gofs/file_offset.hpp"):
            with open(copy / edited, "a") as f:
                f.write("// an edit that changes no behaviour still changes the key\n")
            now = run_script(cmake, script, copy, out)
            expected = manifest_and_digest(copy)[1]
            if now == previous:
                failures.append(f"editing {edited} left the digest at {now}")
            if now != expected:
                failures.append(f"after editing {edited} the script gives {now}, recomputed {expected}")
            previous = now

    for f in failures:
        print("FAIL:", f)
    print(f"{len(files)} sources, digest {digest}: {'FAILED' if failures else 'ok'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
