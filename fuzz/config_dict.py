#!/usr/bin/env python3
"""Writes a libFuzzer dictionary for the config target from `zngsim config describe
--format markdown` (read on stdin): every slot, implementation name, key, default and
choice, plus YAML's own tokens and the unit suffixes, so that mutations build configs
the schema knows instead of guessing names a byte at a time."""
import re
import sys

words = {"include", "type", "platform", "run", "name", ": ", "- ", "\n  ", "&a ", "*a", "<<: ", "~", "[", "]",
         "{", "}", "0x", "1e9", "-1", "inf", "ps", "ns", "us", "ms", "s", "Hz", "MHz", "GHz", "MT/s", "B", "KiB",
         "MiB", "GiB", "TiB", "KB", "MB", "GB", "B/s", "GB/s", "%"}
for line in sys.stdin:
    m = re.match(r"## (\S+): `([^`]+)`", line)
    if m:
        words.update(m.groups())
        continue
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) == 5 and cells[0].startswith("`"):
        words.add(cells[0].strip("`"))
        default = cells[2].strip("`")
        if default and not default.startswith("("):
            words.add(default)
        words.update(c.strip() for c in cells[4].split(" | ") if re.fullmatch(r"[A-Za-z0-9_.-]+", c.strip()))


def escaped(word):
    """libFuzzer's dictionary syntax: printable bytes as they are, others as \\xHH."""
    return "".join(c if c.isprintable() and c not in '"\\' else f"\\x{ord(c):02x}" for c in word)


for w in sorted(words):
    print(f'"{escaped(w)}"')
