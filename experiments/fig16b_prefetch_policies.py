#!/usr/bin/python3
"""Fig. 16b: ZnG's IPC per L2 prefetch policy, normalised to no prefetch; the paper's
1KBpref (+22%) and 4KBpref (+32%) averages drawn as diamonds."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figures import paper  # noqa: E402
from figures.metrics import geomean  # noqa: E402
from figures.plotting import figure_main  # noqa: E402
from figures.variant_bars import draw_variant_bars  # noqa: E402

NAME = "fig16b_prefetch_policies"
LABELS = ["nopref", "1KBpref", "4KBpref", "predict-4KBpref", "dyn-pref"]


def draw(results_root, out):
    return draw_variant_bars(results_root, out, NAME, "ipc", LABELS, "IPC normalised to nopref",
                             "Fig. 16b: prefetch policies", normalise_to="nopref", average=geomean,
                             paper_avg={"nopref": 1.0, "1KBpref": paper.PREF1K_OVER_NOPREF.value,
                                        "4KBpref": paper.PREF4K_OVER_NOPREF.value},
                             notes=[paper.PREF4K_OVER_NOPREF.quote, paper.DYN_OVER_PREDICT_MAX.quote])


if __name__ == "__main__":
    sys.exit(figure_main(NAME, NAME, draw))
