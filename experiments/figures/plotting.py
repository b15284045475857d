"""matplotlib helpers shared by every figure script, and their common command line.

    experiments/figNN_x.py [--results-root DIR] [--out DIR]

reads DIR/<spec name>/results.csv (the sweep of experiments/figNN_x.yaml) and writes
<out>/figNN_x.png, .svg and .md (our values beside the paper's). A figure whose
statistic zngsim does not write yet is skipped with a message and <out>/figNN_x.skipped.txt.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")   # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

from figures.results import EXPERIMENTS, ResultsMissing, StatisticMissing  # noqa: E402

PAPER_STYLE = dict(marker="D", color="black", linestyle="none", markersize=6, zorder=5)


def figure_main(name, spec_name, draw, argv=None):
    """Runs draw(results_root, out_dir) -> list of written files; returns the exit status."""
    ap = argparse.ArgumentParser(description=f"Plot {name} from the {spec_name} sweep.")
    ap.add_argument("--results-root", default=os.path.join(EXPERIMENTS, "results"),
                    help="directory holding one results directory per sweep (default: %(default)s)")
    ap.add_argument("--out", help="where the figure goes (default: <results-root>/figures)")
    a = ap.parse_args(argv)
    out = a.out or os.path.join(a.results_root, "figures")
    os.makedirs(out, exist_ok=True)
    skipped = os.path.join(out, f"{name}.skipped.txt")
    try:
        written = draw(a.results_root, out)
    except ResultsMissing as e:
        print(f"{name}: cannot plot: {e}", file=sys.stderr)
        return 2
    except StatisticMissing as e:
        print(f"{name}: SKIPPED: {e}", file=sys.stderr)
        with open(skipped, "w") as f:
            f.write(f"{name} skipped: {e}\n")
        return 0
    if os.path.exists(skipped):
        os.remove(skipped)
    for w in written:
        print(f"{name}: wrote {w}")
    return 0


def save(fig, out_dir, name):
    # Same results, same files: no creation date in the SVG, and its element ids salted
    # with the figure's name instead of a random salt, so a rerun changes no byte.
    matplotlib.rcParams["svg.hashsalt"] = name
    paths = []
    for ext in ("png", "svg"):
        p = os.path.join(out_dir, f"{name}.{ext}")
        if ext == "svg":
            fig.savefig(p, bbox_inches="tight", metadata={"Date": None})
        else:
            fig.savefig(p, dpi=150, bbox_inches="tight")
        paths.append(p)
    plt.close(fig)
    return paths


def grouped_bars(ax, groups, series, value, ylabel, title=None, log=False):
    """Bars of value(group, series) (None = no bar) for each group, one colour per series."""
    n = max(len(series), 1)
    width = 0.8 / n
    for i, s in enumerate(series):
        xs, ys = [], []
        for g, name in enumerate(groups):
            v = value(name, s)
            if v is not None:
                xs.append(g - 0.4 + width * (i + 0.5))
                ys.append(v)
        ax.bar(xs, ys, width, label=str(s))
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=45, ha="right")
    ax.set_ylabel(ylabel)
    if log:
        ax.set_yscale("log")
    if title:
        ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)


def paper_marks(ax, groups, series, marks, label="paper (stated in text)"):
    """Black diamonds at the paper's stated values: marks = {(group, series): value}."""
    n = max(len(series), 1)
    width = 0.8 / n
    xs, ys = [], []
    for (g, s), v in marks.items():
        if g in groups and s in series:
            xs.append(groups.index(g) - 0.4 + width * (series.index(s) + 0.5))
            ys.append(v)
    if xs:
        ax.plot(xs, ys, label=label, **PAPER_STYLE)


def legend_outside(ax):
    """Legend right of the axes, so it never hides bars of wide per-workload figures."""
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))


def new_figure(width=10, height=4, ncols=1):
    """(figure, axes); axes is a list when ncols > 1."""
    return plt.subplots(1, ncols, figsize=(width, height))


def fmt(v, digits=3):
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return f"{v:.{digits}g}"
    return str(v)


def write_table(out_dir, name, title, header, rows, notes=()):
    """A markdown table next to the figure: the numbers behind it, ours beside the paper's."""
    path = os.path.join(out_dir, f"{name}.md")
    lines = [f"# {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(fmt(c) for c in r) + " |" for r in rows]
    lines += [""] + [f"{n}" for n in notes]
    with open(path, "w") as f:
        f.write("\n".join(lines).rstrip() + "\n")
    return path
