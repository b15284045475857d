"""The figure shape Figs. 12, 13, 14 and 16b share: one bar per variant (label) for
each workload, an average group, the paper's stated averages as diamonds, and the
table of the same numbers."""
from figures import paper
from figures.metrics import by_label, geomean, mean, normalised
from figures.plotting import grouped_bars, legend_outside, new_figure, paper_marks, save, write_table
from figures.results import load_rows, require


def variant_averages(rows, column, labels, normalise_to=None, average=mean):
    """({(workload, label): value}, {label: average over workloads}, workloads shown)."""
    workloads = [w for w in paper.WORKLOADS + paper.PAIRS if any(r["workload"] == w for r in rows)]
    table = by_label(rows, column, workloads, labels)
    if normalise_to:
        table = normalised(table, normalise_to)
    avg = {l: average([v for (w, ll), v in table.items() if ll == l]) for l in labels}
    return table, avg, workloads


def draw_variant_bars(results_root, out, name, column, labels, ylabel, title, normalise_to=None,
                      average=mean, paper_avg=None, notes=(), log=False):
    rows = load_rows(results_root, name)
    require(rows, name, column)
    table, avg, workloads = variant_averages(rows, column, labels, normalise_to, average)
    avg_name = "geomean" if average is geomean else "average"
    groups = workloads + [avg_name]
    fig, ax = new_figure(14, 4.5)
    grouped_bars(ax, groups, labels, lambda g, l: avg[l] if g == avg_name else table.get((g, l)), ylabel, title,
                 log=log)
    if normalise_to:
        ax.axhline(1.0, color="grey", linewidth=0.8)
    paper_marks(ax, groups, labels, {(avg_name, l): v for l, v in (paper_avg or {}).items()})
    legend_outside(ax)
    files = save(fig, out, name)
    rows_md = [[w] + [table.get((w, l)) for l in labels] for w in workloads]
    rows_md.append([f"{avg_name} (ours)"] + [avg[l] for l in labels])
    if paper_avg:
        rows_md.append(["paper (stated)"] + [paper_avg.get(l) for l in labels])
    files.append(write_table(out, name, title, ["workload"] + list(labels), rows_md, notes))
    return files
