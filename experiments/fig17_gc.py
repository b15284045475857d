#!/usr/bin/python3
"""Fig. 17: garbage collection in betw-back on ZnG. (a) per-app IPC of each run, with
its number of GC merges, and the change from the run without merges to the one with
the most; (b) memory requests per app over time from that run's series (the
sweep's series.csv, re-binned by the spec's `series` key)."""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figures import paper  # noqa: E402
from figures.plotting import figure_main, grouped_bars, new_figure, save, write_table  # noqa: E402
from figures.results import load_results, require  # noqa: E402

NAME = "fig17_gc"
APPS = ["betw", "back"]
# Series columns holding an app's memory requests per interval, e.g. gpu.app.back.requests.
REQUEST_COLUMN = re.compile(r"^gpu\.app\.(?P<app>[A-Za-z0-9_]+)\.(?P<what>\w*requests\w*)$")


def app_ipc(row, app):
    for i in range(1, 9):
        if row.get(f"app{i}") == app:
            return row.get(f"app{i}_ipc")
    return None


def gc_change(df):
    """{app: IPC with GC / IPC without - 1}: the run with most merges against one with
    none; None when the sweep has no such pair (said in the table)."""
    without, with_gc = df[df["gc_merges"] == 0], df[df["gc_merges"] > 0]
    if without.empty or with_gc.empty:
        return None, None, None
    w, g = without.iloc[0], with_gc.loc[with_gc["gc_merges"].idxmax()]
    return {a: (app_ipc(g, a) / app_ipc(w, a) - 1) if app_ipc(g, a) and app_ipc(w, a) else None
            for a in APPS}, g, w


def request_series(results_root, row):
    """(time_us, {app: requests per bin}) of the row's point from the sweep's series.csv
    (the spec's `series` key), or None."""
    path = os.path.join(results_root, NAME, "series.csv")
    if not os.path.isfile(path):
        return None
    with open(path, newline="") as f:
        data = [d for d in csv.DictReader(f) if d["point"] == row["point"]]
    cols = {m["app"]: c for c in (data[0].keys() if data else []) if (m := REQUEST_COLUMN.match(c))}
    if not cols:
        return None
    return ([float(d["time_us"]) for d in data],
            {a: [float(d[c]) if d[c] else 0.0 for d in data] for a, c in cols.items()})


def draw(results_root, out):
    df = load_results(results_root, NAME)
    require(df, NAME, "ipc", "gc_merges")
    rows = [r for _, r in df.iterrows()]
    labels = [r["label"] for r in rows]
    change, with_gc, without = gc_change(df)
    shown = with_gc if with_gc is not None else df.loc[df["gc_merges"].fillna(0).idxmax()]
    series = request_series(results_root, shown)
    fig, (ax_a, ax_b) = new_figure(12, 4, ncols=2)
    by = {r["label"]: r for r in rows}
    grouped_bars(ax_a, APPS, labels, lambda a, l: app_ipc(by[l], a), "IPC (warp instr./cycle)",
                 "(a) per-app IPC in betw-back")
    ax_a.legend([f"{l} ({by[l]['gc_merges']:.0f} GC merges)" for l in labels], fontsize=8)
    notes = [paper.GC_BACK_CHANGE.quote, paper.GC_BETW_CHANGE.quote]
    if series:
        t, per_app = series
        for a, ys in per_app.items():
            ax_b.plot(t, ys, label=a)
        ax_b.set_xlabel("simulated time (us)")
        ax_b.set_ylabel("memory requests per bin of the series")
        ax_b.set_title(f"(b) memory requests, {shown['label']} run")
        ax_b.legend(fontsize=8)
    else:
        msg = (f"no per-app request columns (gpu.app.<app>.*requests*) for point {shown['point']} in "
               f"{os.path.join(results_root, NAME, 'series.csv')} (written by the sweep from the spec's "
               "`series` key)")
        print(f"{NAME}: panel (b) skipped: {msg}", file=sys.stderr)
        notes.append(f"Panel (b) skipped: {msg}.")
        ax_b.text(0.5, 0.5, "per-app request series\nnot available", ha="center", va="center")
        ax_b.set_axis_off()
    fig.suptitle("Fig. 17: garbage collection in betw-back on ZnG")
    files = save(fig, out, NAME)
    table = [[r["label"], r["gc_merges"], app_ipc(r, "betw"), app_ipc(r, "back")] for r in rows]
    if change:
        table.append([f"change {without['label']} -> {with_gc['label']} (ours)", "", change["betw"], change["back"]])
    else:
        notes.append("No pair of runs with and without GC merges: the GC change is not measured.")
    table.append(["change with GC (paper)", "", paper.GC_BETW_CHANGE.value, paper.GC_BACK_CHANGE.value])
    files.append(write_table(out, NAME, "Fig. 17: GC impact on betw-back", ["run", "GC merges", "betw IPC",
                                                                           "back IPC"], table, notes))
    return files


if __name__ == "__main__":
    sys.exit(figure_main(NAME, NAME, draw))
