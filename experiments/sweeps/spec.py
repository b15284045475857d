"""Sweep specs: YAML files listing what to simulate, expanded into points.

A point is one `zngsim run`: a platform config, a workload (several co-running apps
as "betw-back" or "betw,betw"), workload options (preset, scale, ...) and `--set`
overrides. A spec gives either the cartesian product

    configs x workloads x variants x (every combination of the `set` lists)

or an explicit list of `points`. Every error names the spec file and the key.
"""
import hashlib
import itertools
import json
import os
from dataclasses import dataclass, field

import yaml

from .executors import SLURM_OPTIONS, slurm_option_error
from .series import check_series

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Workload options a spec may give, with their type and the `zngsim run` flag.
WORKLOAD_OPTIONS = {
    "preset": (str, "--preset"),
    "scale": (int, "--scale"),
    "edge_factor": (int, "--edge-factor"),
    "input": (str, "--input"),
    "seed": (int, "--seed"),
    "max_launches": (int, "--max-launches"),
    "skip_init": (bool, "--skip-init"),
}
PRESETS = ("small", "paper")
# Any other option with an integer value is an option of the workload's original
# program (root, maxiter, size, ...: `zngsim workloads --json` declares them), passed
# as --<name>; sweep.py checks it against that declaration before running anything.

# Columns every results.csv has. Names are stat names as zngsim registers them
# (paths inside stats.json's "stats"); an Average is read as "<name>.mean".
DEFAULT_METRICS = {
    "ipc": "gpu.ipc",
    "instructions": "gpu.instructions",
    "cycles": "gpu.cycles",
    "l2_hit_rate": "gpu.l2.hit_rate",
    "medium_read_GBps": "memory.medium_read_bandwidth",
    "medium_write_GBps": "memory.medium_write_bandwidth",
}
# Per-application columns app<i>_<metric>; {app} is the app's name in stats.json.
DEFAULT_APP_METRICS = {
    "ipc": "gpu.app.{app}.ipc",
    "instructions": "gpu.app.{app}.instructions",
    "cycles": "gpu.app.{app}.cycles",
}

SPEC_KEYS = {
    "name": "sweep name (default: the file name); results go to results/<name>",
    "description": "free text",
    "configs": "platform files (paths relative to the repository or the spec)",
    "workloads": "workload names; co-running apps as 'betw-back' or 'betw,back'",
    "options": "workload options: " + ", ".join(WORKLOAD_OPTIONS),
    "workload_options": "options of one workload on top of 'options', workload: {option: value}",
    "set": "config overrides key: value or key: [values] (cartesian product)",
    "variants": "named alternatives crossed with the rest, label: {config: (replaces configs), set: {key: value}}",
    "points": "explicit points instead of the product: [{config, workload, label, options, set}]",
    "metrics": "extra CSV columns, column: stat name",
    "app_metrics": "extra per-app CSV columns, column: stat name with {app}",
    "series": "time series kept in OUT/series.csv, {bin: <time>, columns: {glob: sum|mean|last}} (sweeps/series.py)",
    "slurm": "defaults of --executor slurm, {" + ", ".join(SLURM_OPTIONS) + "}; the command line overrides them",
}
POINT_KEYS = ("config", "workload", "label", "options", "set")


class SpecError(Exception):
    """A spec that cannot be run; the message names the file and the key."""


@dataclass(frozen=True)
class Point:
    config: str      # as written in the spec, resolved relative to ROOT when inside it
    workload: str
    label: str = ""
    options: tuple = ()   # sorted (key, value) pairs
    set: tuple = ()       # sorted (key, value-as-string) pairs

    def definition(self):
        """What makes a point this point: its id is a hash of this. The label only names
        it in a figure, so specs that label the same run differently share its result."""
        return {"config": self.config, "workload": self.workload,
                "options": dict(self.options), "set": dict(self.set)}

    @property
    def config_name(self):
        return os.path.splitext(os.path.basename(self.config))[0]

    @property
    def id(self):
        parts = [self.config_name, self.workload]
        parts += [f"{k}={v}" for k, v in self.set]
        readable = "__".join(parts)
        readable = "".join(c if c.isalnum() or c in "._=-," else "_" for c in readable)[:120]
        digest = hashlib.sha1(json.dumps(self.definition(), sort_keys=True).encode()).hexdigest()[:10]
        return f"{readable}__{digest}"

    def config_path(self):
        return self.config if os.path.isabs(self.config) else os.path.join(ROOT, self.config)

    def command(self, zngsim, out_dir):
        cmd = [zngsim, "run", "--config", self.config_path(), "--workload", self.workload,
               "--out", out_dir, "--quiet"]
        for k, v in self.options:
            if k not in WORKLOAD_OPTIONS:
                cmd += [f"--{k}", str(v)]
                continue
            flag = WORKLOAD_OPTIONS[k][1]
            if WORKLOAD_OPTIONS[k][0] is bool:
                if v:
                    cmd.append(flag)
            else:
                cmd += [flag, str(v)]
        for k, v in self.set:
            cmd += ["--set", f"{k}={v}"]
        return cmd


@dataclass
class Spec:
    path: str
    name: str
    description: str
    points: list
    metrics: dict = field(default_factory=dict)
    app_metrics: dict = field(default_factory=dict)
    slurm: dict = field(default_factory=dict)   # SLURM_OPTIONS key -> value (text)
    series: dict = None                          # sweeps/series.py check_series(), or None


def _scalar_text(v):
    """A YAML scalar as zngsim's --set expects it (YAML turns 'true' into True, '8' into 8)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class _Checker:
    """Type checks that name the spec file and the key path."""

    def __init__(self, path):
        self.path = path

    def fail(self, key, msg):
        raise SpecError(f"{self.path}: {key}: {msg}")

    def mapping(self, v, key):
        if not isinstance(v, dict):
            self.fail(key, f"expected a map, got {type(v).__name__}")
        return v

    def string_list(self, v, key):
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list) or not v:
            self.fail(key, "expected a non-empty list of names")
        for i, x in enumerate(v):
            if not isinstance(x, (str, int, float)) or isinstance(x, bool) or str(x) == "":
                self.fail(f"{key}[{i}]", f"expected a name, got {x!r}")
        return [str(x) for x in v]

    def name(self, v, key):
        if not isinstance(v, (str, int)) or isinstance(v, bool) or str(v).strip() == "":
            self.fail(key, f"expected a non-empty name, got {v!r}")
        return str(v)

    def options(self, v, key):
        out = {}
        for k, x in self.mapping(v, key).items():
            if k not in WORKLOAD_OPTIONS:
                if isinstance(k, str) and k.isidentifier() and isinstance(x, int) and not isinstance(x, bool):
                    out[k] = x   # a program option, checked by sweep.py against zngsim's declaration
                    continue
                self.fail(f"{key}.{k}", f"unknown workload option (known: {', '.join(WORKLOAD_OPTIONS)}, "
                                        "or an integer option of the workload's program: zngsim workloads)")
            want = WORKLOAD_OPTIONS[k][0]
            if not isinstance(x, want) or (want is int and isinstance(x, bool)):
                self.fail(f"{key}.{k}", f"expected {want.__name__}, got {x!r}")
            if k == "preset" and x not in PRESETS:
                self.fail(f"{key}.{k}", f"expected one of {', '.join(PRESETS)}, got {x!r}")
            out[k] = x
        return out

    def overrides(self, v, key, allow_lists):
        out = {}
        for k, x in self.mapping(v, key).items():
            if not isinstance(k, str) or not k or " " in k or "=" in k:
                self.fail(f"{key}.{k}", "expected a dotted config key such as gpu.l2.size")
            values = x if (allow_lists and isinstance(x, list)) else [x]
            if not values:
                self.fail(f"{key}.{k}", "empty list of values")
            for i, y in enumerate(values):
                if isinstance(y, (dict, list)) or y is None:
                    self.fail(f"{key}.{k}" + (f"[{i}]" if isinstance(x, list) else ""),
                              f"expected a scalar value, got {y!r}")
            out[k] = [_scalar_text(y) for y in values] if allow_lists else _scalar_text(x)
        return out

    def slurm(self, v, key):
        out = {}
        for k, x in self.mapping(v, key).items():
            if k not in SLURM_OPTIONS:
                self.fail(f"{key}.{k}", f"unknown key (known: {', '.join(SLURM_OPTIONS)})")
            err = slurm_option_error(k, x)
            if err:
                self.fail(f"{key}.{k}", err)
            out[k] = str(x)
        return out

    def metrics(self, v, key, needs_app):
        out = {}
        for col, stat in self.mapping(v, key).items():
            if not isinstance(stat, str) or not stat:
                self.fail(f"{key}.{col}", "expected a stat name such as gpu.l2.hit_rate")
            if needs_app and "{app}" not in stat:
                self.fail(f"{key}.{col}", "a per-app stat name must contain {app}")
            out[str(col)] = stat
        return out


def _config_ref(check, cfg, key, spec_dir):
    """The config path stored in a point: relative to ROOT when inside it, so point ids
    do not change when the checkout moves."""
    for cand in (os.path.join(ROOT, cfg), os.path.join(spec_dir, cfg), cfg):
        if os.path.isfile(cand):
            full = os.path.realpath(cand)
            rel = os.path.relpath(full, os.path.realpath(ROOT))
            return full if rel.startswith("..") else rel
    check.fail(key, f"config file '{cfg}' not found (looked in {ROOT} and {spec_dir})")


def _variants(check, raw):
    """label -> (config or None, overrides); one unnamed variant when the spec has none."""
    if "variants" not in raw:
        return {"": (None, {})}
    out = {}
    for label, v in check.mapping(raw["variants"], "variants").items():
        key = f"variants.{label}"
        label = check.name(label, "variants")
        v = check.mapping(v if v is not None else {}, key)
        for k in v:
            if k not in ("config", "set"):
                check.fail(f"{key}.{k}", "unknown key (known: config, set)")
        cfg = check.name(v["config"], f"{key}.config") if "config" in v else None
        out[label] = (cfg, check.overrides(v.get("set") or {}, f"{key}.set", False))
    return out


# A product this large is more likely a typo in a list than a plan; --yes confirms it.
MAX_POINTS = 10_000


def product_size(workloads, configs, variants, sets):
    n = len(workloads) * len(configs) * len(variants)
    for values in sets.values():
        n *= len(values)
    return n


def load_spec(path, preset=None, max_points=MAX_POINTS):
    """Reads and validates a spec; `preset` (if given) overrides options.preset of every
    point. A product of more than `max_points` points is refused before it is built."""
    check = _Checker(path)
    try:
        with open(path, encoding="utf-8") as f:
            raw = yaml.safe_load(f)
    except OSError as e:
        raise SpecError(f"{path}: cannot read: {e.strerror}")
    except UnicodeDecodeError as e:
        raise SpecError(f"{path}: not a text file (byte {e.start} is not UTF-8)")
    except yaml.YAMLError as e:
        raise SpecError(f"{path}: not valid YAML: {e}")
    if raw is None:
        raise SpecError(f"{path}: empty spec")
    check.mapping(raw, "(top level)")
    for k in raw:
        if k not in SPEC_KEYS:
            check.fail(k, f"unknown key (known: {', '.join(SPEC_KEYS)})")
    if preset is not None and preset not in PRESETS:
        raise SpecError(f"--preset: expected one of {', '.join(PRESETS)}, got {preset!r}")

    spec_dir = os.path.dirname(os.path.abspath(path))
    name = check.name(raw.get("name", os.path.splitext(os.path.basename(path))[0]), "name")
    options = check.options(raw.get("options") or {}, "options")
    if preset is not None:
        options["preset"] = preset
    per_workload = raw.get("workload_options") or {}
    check.mapping(per_workload, "workload_options")
    per_workload = {check.name(w, "workload_options"): check.options(o or {}, f"workload_options.{w}")
                    for w, o in per_workload.items()}

    def options_of(workload, base):
        return {**base, **per_workload.get(workload, {})}

    def make(cfg_key, cfg, workload, label, opts, sets):
        return Point(_config_ref(check, cfg, cfg_key, spec_dir), workload, label,
                     tuple(sorted(opts.items())), tuple(sorted(sets.items())))

    points = []
    if "points" in raw:
        for k in ("configs", "workloads", "set", "variants"):
            if k in raw:
                check.fail(k, "give either 'points' or the product keys (configs, workloads, set, variants)")
        plist = raw["points"]
        if not isinstance(plist, list) or not plist:
            check.fail("points", "expected a non-empty list")
        for i, p in enumerate(plist):
            key = f"points[{i}]"
            check.mapping(p, key)
            for k in p:
                if k not in POINT_KEYS:
                    check.fail(f"{key}.{k}", f"unknown key (known: {', '.join(POINT_KEYS)})")
            for k in ("config", "workload"):
                if k not in p:
                    check.fail(key, f"missing '{k}'")
            opts = {**options_of(p.get("workload"), options),
                    **check.options(p.get("options") or {}, f"{key}.options")}
            if preset is not None:
                opts["preset"] = preset
            points.append(make(f"{key}.config", check.name(p["config"], f"{key}.config"),
                               check.name(p["workload"], f"{key}.workload"),
                               check.name(p["label"], f"{key}.label") if "label" in p else "",
                               opts, check.overrides(p.get("set") or {}, f"{key}.set", False)))
    else:
        if "workloads" not in raw:
            check.fail("workloads", "missing (or give explicit 'points')")
        workloads = check.string_list(raw["workloads"], "workloads")
        variants = _variants(check, raw)
        if "configs" in raw:
            configs = check.string_list(raw["configs"], "configs")
        elif all(cfg for cfg, _ in variants.values()):
            configs = [None]
        else:
            check.fail("configs", "missing (or give every variant its own 'config')")
        sets = check.overrides(raw.get("set") or {}, "set", True)
        n = product_size(workloads, configs, variants, sets)
        if max_points is not None and n > max_points:
            check.fail("configs/workloads/variants/set",
                       f"the product has {n:,} points (more than {max_points:,}); confirm with --yes")
        keys = sorted(sets)
        for ci, cfg in enumerate(configs):
            for wl in workloads:
                for label, (vcfg, fixed) in variants.items():
                    cfg_key = f"variants.{label}.config" if vcfg else f"configs[{ci}]"
                    for combo in itertools.product(*(sets[k] for k in keys)):
                        ov = {**fixed, **dict(zip(keys, combo))}
                        points.append(make(cfg_key, vcfg or cfg, wl, label, options_of(wl, options), ov))

    seen = {}
    for i, p in enumerate(points):
        if p.id in seen:
            check.fail("points" if "points" in raw else "configs/workloads",
                       f"point {i} repeats point {seen[p.id]} ({p.config_name} {p.workload} {p.label})")
        seen[p.id] = i
    return Spec(path, name, str(raw.get("description", "")), points,
                {**DEFAULT_METRICS, **check.metrics(raw.get("metrics") or {}, "metrics", False)},
                {**DEFAULT_APP_METRICS, **check.metrics(raw.get("app_metrics") or {}, "app_metrics", True)},
                check.slurm(raw.get("slurm") or {}, "slurm"),
                check_series(raw["series"], check.fail) if "series" in raw else None)
