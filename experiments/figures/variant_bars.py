"""The figure shape Figs. 12, 13, 14 and 16b share: one bar per variant (label) for
each workload, an average group, the paper's stated averages as diamonds, and the
table of the same numbers."""
from figures import paper
from figures.metrics import geomean, mean
from figures.plotting import grouped_bars, legend_outside, new_figure, paper_marks, save, write_table
from figures.results import load_results, pivot, require


def variant_averages(df, column, labels, normalise_to=None, average=mean):
    """({(workload, label): value}, {label: average over workloads}, workloads shown);
    normalised to the workload's `normalise_to` label where given (and it is non-zero)."""
    workloads = [w for w in paper.WORKLOADS + paper.PAIRS if (df["workload"] == w).any()]
    table = {(w, l): v for (w, l), v in pivot(df, column, columns="label").items()
             if w in workloads and l in labels}
    if normalise_to:
        table = {(w, l): v / table[(w, normalise_to)] for (w, l), v in table.items()
                 if table.get((w, normalise_to))}
    avg = {l: average([v for (w, ll), v in table.items() if ll == l]) for l in labels}
    return table, avg, workloads


def draw_variant_bars(results_root, out, name, column, labels, ylabel, title, normalise_to=None,
                      average=mean, paper_avg=None, notes=(), log=False):
    df = load_results(results_root, name)
    require(df, name, column)
    table, avg, workloads = variant_averages(df, column, labels, normalise_to, average)
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
