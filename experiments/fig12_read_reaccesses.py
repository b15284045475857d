#!/usr/bin/python3
"""Fig. 12: read re-accesses of the flash array (pages sensed again) per workload as
the read optimisations are added; the paper's stated relative cuts applied to our
SRAM-L2 average are drawn as diamonds."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from figures import paper  # noqa: E402
from figures.metrics import mean  # noqa: E402
from figures.plotting import figure_main  # noqa: E402
from figures.results import load_results, require  # noqa: E402
from figures.variant_bars import draw_variant_bars, variant_averages  # noqa: E402

NAME = "fig12_read_reaccesses"
LABELS = ["sram-l2", "stt-mram-l2", "dyn-prefetch", "redirection"]


def paper_relative(sram_average):
    """The paper gives only relative changes (V-C); anchored at our SRAM-L2 average."""
    stt = sram_average * (1 - paper.STT_READ_REACCESS_CUT.value)
    dyn = stt * (1 - paper.DYN_READ_REACCESS_CUT.value)
    return {"stt-mram-l2": stt, "dyn-prefetch": dyn,
            "redirection": dyn * (1 + paper.REDIRECTION_READ_REACCESS_RISE.value)}


def draw(results_root, out):
    df = load_results(results_root, NAME)
    require(df, NAME, "read_reaccesses")
    _, avg, _ = variant_averages(df, "read_reaccesses", LABELS)
    marks = paper_relative(avg["sram-l2"]) if avg.get("sram-l2") else None
    return draw_variant_bars(results_root, out, NAME, "read_reaccesses", LABELS,
                             "read re-accesses (pages sensed again)", "Fig. 12: read re-accesses in flash arrays",
                             average=mean, paper_avg=marks, log=True,
                             notes=["Paper diamonds: its stated relative changes applied to our sram-l2 average.",
                                    paper.STT_READ_REACCESS_CUT.quote, paper.DYN_READ_REACCESS_CUT.quote,
                                    paper.REDIRECTION_READ_REACCESS_RISE.quote])


if __name__ == "__main__":
    sys.exit(figure_main(NAME, NAME, draw))
