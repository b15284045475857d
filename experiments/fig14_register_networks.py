#!/usr/bin/python3
"""Fig. 14: ZnG's IPC with SWnet, FCnet and NiF register interconnects, normalised to
SWnet; the paper's FCnet (+19%) and NiF (98% of FCnet) averages drawn as diamonds."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figures import paper  # noqa: E402
from figures.metrics import geomean  # noqa: E402
from figures.plotting import figure_main  # noqa: E402
from figures.variant_bars import draw_variant_bars  # noqa: E402

NAME = "fig14_register_networks"
LABELS = ["SWnet", "FCnet", "NiF"]


def draw(results_root, out):
    fc = paper.FCNET_OVER_SWNET.value
    return draw_variant_bars(results_root, out, NAME, "ipc", LABELS, "IPC normalised to SWnet",
                             "Fig. 14: flash register interconnects", normalise_to="SWnet", average=geomean,
                             paper_avg={"SWnet": 1.0, "FCnet": fc, "NiF": fc * paper.NIF_OF_FCNET.value},
                             notes=[paper.FCNET_OVER_SWNET.quote, paper.NIF_OF_FCNET.quote])


if __name__ == "__main__":
    sys.exit(figure_main(NAME, NAME, draw))
