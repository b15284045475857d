#!/usr/bin/python3
"""Fig. 13: write redundancy (programs per distinct page programmed) per workload for
the baseline registers, NiF grouping and L2 redirection; the paper's averages (51,
-46%, 1.2) drawn as diamonds."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figures import paper  # noqa: E402
from figures.metrics import mean  # noqa: E402
from figures.plotting import figure_main  # noqa: E402
from figures.variant_bars import draw_variant_bars  # noqa: E402

NAME = "fig13_write_redundancy"
LABELS = ["baseline", "network", "redirection"]


def paper_averages():
    b = paper.BASELINE_WRITE_REDUNDANCY.value
    return {"baseline": b, "network": b * (1 - paper.NETWORK_WRITE_REDUNDANCY_CUT.value),
            "redirection": paper.REDIRECTION_WRITE_REDUNDANCY.value}


def draw(results_root, out):
    return draw_variant_bars(results_root, out, NAME, "write_redundancy", LABELS,
                             "write redundancy (programs per distinct page)", "Fig. 13: write redundancy in flash arrays",
                             average=mean, paper_avg=paper_averages(), log=True,
                             notes=[paper.BASELINE_WRITE_REDUNDANCY.quote, paper.NETWORK_WRITE_REDUNDANCY_CUT.quote,
                                    paper.REDIRECTION_WRITE_REDUNDANCY.quote])


if __name__ == "__main__":
    sys.exit(figure_main(NAME, NAME, draw))
