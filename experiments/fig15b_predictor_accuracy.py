#!/usr/bin/python3
"""Fig. 15b: accuracy of ZnG's PC-based prefetch predictor per workload, with the
paper's average (93%) and worst case (87%) as lines."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figures import paper  # noqa: E402
from figures.metrics import mean  # noqa: E402
from figures.plotting import figure_main, grouped_bars, new_figure, save, write_table  # noqa: E402
from figures.results import load_results, pivot, require  # noqa: E402

NAME = "fig15b_predictor_accuracy"


def _checks(df):
    return pivot(df, "predictor_checks") if "predictor_checks" in df else {}


def accuracies(df):
    """{workload: decision accuracy} over the workloads whose predictor decided at least
    once: with no decision the ratio is undefined (stats.json reports 0), so such a
    workload is left out."""
    acc, checks = pivot(df, "predictor_accuracy"), _checks(df)
    return {w: acc[(w, "zng")] for w in paper.WORKLOADS if (w, "zng") in acc and checks.get((w, "zng")) != 0}


def silent(df):
    """Workloads whose predictor made no decision (no read miss was tested)."""
    checks = _checks(df)
    return [w for w in paper.WORKLOADS if checks.get((w, "zng")) == 0]


def draw(results_root, out):
    df = load_results(results_root, NAME)
    require(df, NAME, "predictor_accuracy")
    acc = accuracies(df)
    groups = list(acc) + ["average"]
    avg = mean(acc.values())
    fig, ax = new_figure(10, 4)
    grouped_bars(ax, groups, ["zng"], lambda g, _: avg if g == "average" else acc[g],
                 "predictor accuracy (fraction)", "Fig. 15b: PC-based predictor accuracy")
    ax.axhline(paper.PREDICTOR_ACCURACY_MEAN.value, color="black", linestyle="--", label="paper average (93%)")
    ax.axhline(paper.PREDICTOR_ACCURACY_WORST.value, color="black", linestyle=":", label="paper worst case (87%)")
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=8)
    files = save(fig, out, NAME)
    table = [[w, v] for w, v in acc.items()] + [["average (ours)", avg], ["worst (ours)", min(acc.values())],
                                                ["paper average", paper.PREDICTOR_ACCURACY_MEAN.value],
                                                ["paper worst", paper.PREDICTOR_ACCURACY_WORST.value]]
    files.append(write_table(out, NAME, "Fig. 15b: predictor accuracy", ["workload", "accuracy"], table,
                             [paper.PREDICTOR_ACCURACY_MEAN.quote, paper.PREDICTOR_ACCURACY_WORST.quote,
                              "No predictor decision (no read miss tested), so no accuracy: "
                              + (", ".join(silent(df)) or "none")]))
    return files


if __name__ == "__main__":
    sys.exit(figure_main(NAME, NAME, draw))
