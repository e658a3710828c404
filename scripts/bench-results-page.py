#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench-results-page.py [RUN] [--out FILE] [--image FILE]
#
# Writes Documentation/bench-results.rst, the current results page, from
# the JSON files of one "make bench" run in bench-results/: the tree's
# <stamp>-<commit>[-quick].json and mm/'s <stamp>-<commit>[-quick]-mm.json
# (the same stamp and commit), and copies the run's chart,
# <stamp>-...-mm.png, to Documentation/images/bench-mm.png.
#
# RUN names the run: either of its two files, or the name they share
# without ".json" (bench-results/20261205-215608-7e1231c).  Without RUN,
# the newest full run (one whose JSON says "quick": false) in
# bench-results/; if every run there is a QUICK=1 one, the newest, and
# the page says so.  A run with only one of the two files (make
# vma-bench writes the -mm.json alone) gives a page with that part only.
#
# The page: the commit measured and the date, the verdict's counts per
# baseline, then per baseline one table of metric, the baseline's value,
# ours, %change and the spread (±, the larger relative standard deviation
# of the two), with each row's verdict worked out as
# tools/testing/bench/verdict.c does.  Documentation/bench.rst says how to
# read them.  Only the Python standard library is used.
#
# make bench-page [RUN=...] runs it.

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import textwrap

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RESULTS = "bench-results"


def die(msg):
    print("bench-results-page: " + msg, file=sys.stderr)
    sys.exit(1)


def run_name(path):
    """The name a run's files share: the path without -mm.json or .json."""
    for end in ("-mm.json", "-mm.png", ".json"):
        if path.endswith(end):
            return path[: -len(end)]
    return path


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        die("cannot read %s: %s" % (path, e))


def runs_in(folder):
    """Every make bench run in folder, oldest first (the stamp sorts)."""
    names = set()
    for path in glob.glob(os.path.join(folder, "*.json")):
        if path.endswith("-kernel.json") or "-kernel-" in os.path.basename(path):
            continue
        names.add(run_name(path))
    return sorted(names)


def files_of(name):
    tree = name + ".json"
    mm = name + "-mm.json"
    return (tree if os.path.isfile(tree) else None,
            mm if os.path.isfile(mm) else None)


def is_quick(name):
    for path in files_of(name):
        if path:
            return bool(load(path).get("quick", False))
    return True


def pick_run(arg, folder):
    if arg:
        name = run_name(arg)
        if not any(files_of(name)):
            die("no %s.json or %s-mm.json" % (name, name))
        return name, None
    runs = runs_in(folder)
    if not runs:
        die("no make bench run in %s/ (run make bench first)" % folder)
    full = [r for r in runs if not is_quick(r)]
    if full:
        return full[-1], None
    return runs[-1], ("No full run was in ``%s/`` when this page was "
                      "made, so it shows the newest run, a ``QUICK=1`` one"
                      % os.path.relpath(folder, TOP))


# ---- verdict.c, in Python ------------------------------------------------

def higher_is_better(metric):
    return metric.endswith("_ops") or metric.endswith(".mops")


def verdict_change(base, new):
    if base == 0:
        return 0.0 if new == 0 else (float("inf") if new > 0 else float("-inf"))
    return 100 * (new - base) / base


def tenths(x):
    x = abs(x)
    return int(x * 10 + 0.5) if x < 1e15 else 10 ** 16


def spread(base_rsd, new_rsd):
    s = base_rsd if base_rsd and base_rsd > 0 else 0.0
    return new_rsd if new_rsd and new_rsd > s else s


def classify(metric, change, spr):
    if tenths(change) <= tenths(spr):
        return "level"
    if (change > 0) == higher_is_better(metric):
        return "ahead"
    return "behind"


def label(baseline):
    if baseline == "rbtree":
        return "the rbtree design"
    if baseline == "upstream":
        return "Linux 6.1"
    if baseline.startswith("upstream-") and len(baseline) > 9:
        return "Linux " + baseline[9:]
    if baseline == "base":
        return "the base run"
    return baseline


# ---- formatting ----------------------------------------------------------

def num(v):
    if v is None:
        return "--"
    a = abs(v)
    if a >= 1000:
        return "%.0f" % v
    if a >= 10:
        return "%.1f" % v
    return "%.2f" % v


def table(header, rows):
    """An RST simple table; the first column left-aligned, the rest right."""
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    rule = "  ".join("=" * w for w in widths)

    def line(r):
        cells = [str(r[0]).ljust(widths[0])]
        cells += [str(c).rjust(w) for c, w in zip(r[1:], widths[1:])]
        return "  ".join(cells).rstrip()

    return [rule, line(header), rule] + [line(r) for r in rows] + [rule]


def heading(text, ch):
    return [text, ch * len(text), ""]


class Part:
    """One level of the run (the tree, or mm/): its baselines and values."""

    def __init__(self, scope, data, path):
        self.scope = scope
        self.data = data
        self.path = path

    def ours(self):
        m = self.data.get("metrics", {})
        return m.get("maple", m) if self.scope == "mm/" else m

    def ours_rsd(self):
        r = self.data.get("rsd_pct", {})
        return r.get("maple", r) if self.scope == "mm/" else r

    def baseline(self, b):
        """The baseline's metrics and spreads, as far as the JSON has them."""
        d = self.data
        if self.scope == "mm/":
            return d.get("metrics", {}).get(b), d.get("rsd_pct", {}).get(b, {})
        bl = d.get("baselines", {}).get(b)
        if bl:
            return bl.get("metrics", {}), bl.get("rsd_pct", {})
        return None, {}

    def baselines(self):
        return list(self.data.get("change_pct", {}).keys())

    def rows(self, b):
        ours, ours_rsd = self.ours(), self.ours_rsd()
        base, base_rsd = self.baseline(b)
        change = self.data["change_pct"][b]
        behind = self.data.get("verdict", {}).get(b, {}).get("behind_pct")
        out, counts = [], {"ahead": 0, "level": 0, "behind": 0}
        for metric in ours:
            if metric in change:
                c = change[metric]
            elif base and metric in base:
                # Left out of change_pct when the baseline's value is 0.
                c = verdict_change(base[metric], ours[metric])
            else:
                continue
            s = spread(base_rsd.get(metric, 0), ours_rsd.get(metric, 0))
            v = classify(metric, c, s)
            # The program's verdict wins where the JSON rounding of a
            # spread would move a row across the line.
            if behind is not None:
                if metric in behind:
                    v = "behind"
                elif v == "behind":
                    v = "level"
            counts[v] += 1
            out.append(("``%s``" % metric,
                        num(base.get(metric) if base else None),
                        num(ours[metric]), "%+.1f%%" % c,
                        "±%.1f%%" % s if s > 0 else "", v))
        return out, counts

    def counts(self, b, rows_counts):
        v = self.data.get("verdict", {}).get(b)
        if v:
            return v["ahead"], v["level"], v["behind"]
        return (rows_counts["ahead"], rows_counts["level"],
                rows_counts["behind"])


def describe(d, scope):
    if scope == "mm/":
        return ("%d rounds of %d ms per measurement, backends %s"
                % (d.get("rounds", 0), d.get("ms", 0),
                   ", ".join(d.get("backends", []))))
    sizes = sorted({int(m.split(".")[1]) for m in d.get("metrics", {})
                    if m.startswith("mtree_load.")})
    return "%s run, %s ranges" % (
        "a QUICK=1" if d.get("quick") else "a full",
        ", ".join("{:,}".format(n) for n in sizes) or "no lookups at")


def critical_section(parts):
    """The mm/ run's mmap_lock critical section, every backend side by side."""
    mm = [p for p in parts if p.scope == "mm/"]
    cs = mm[0].data.get("cs_metrics") if mm else None
    if not cs:
        return []
    backends = [b for b in mm[0].data.get("backends", []) if b in cs]
    metrics = [m for m in cs.get("maple", {})]
    rows = [("``%s``" % m,) + tuple(num(cs[b].get(m)) for b in backends)
            for m in metrics]
    L = heading("The critical section under mmap_lock", "=")
    L += ["Per backend, what holding ``mmap_lock`` for write costs per",
          "operation (``*.cs_ns_per_op``; ``*.cs_insn_per_op`` with",
          "``CALLGRIND=1``), thread mode's Amdahl ceiling from it",
          "(``*.cs_amdahl_ops``) and how much of that ceiling the threads",
          "reached (``*.cs_ceiling_reached_pct``); in no verdict.  How they",
          "are measured, and their limits: ``Documentation/bench.rst``.", ""]
    L += table(("metric",) + tuple(backends), rows)
    L.append("")
    return L


def page(name, note, out, image):
    tree_path, mm_path = files_of(name)
    parts = []
    if tree_path:
        parts.append(Part("the tree", load(tree_path), tree_path))
    if mm_path:
        parts.append(Part("mm/", load(mm_path), mm_path))
    first = parts[0].data
    commit = first.get("commit", "?")
    date = first.get("date", "?")
    quick = any(p.data.get("quick") for p in parts)

    L = [".. SPDX-License-Identifier: GPL-2.0+",
         "",
         ".. Generated by scripts/bench-results-page.py (make bench-page);",
         "   do not edit, run it again.  From:"]
    L += ["   " + os.path.relpath(p.path, TOP) for p in parts]
    L += ["",
         "=================",
         "Benchmark results",
         "=================",
         "",
         "One ``make bench`` run, as its JSON files hold it.  How to run the",
         "benchmark and how to read every column below:",
         "``Documentation/bench.rst``.  Results of other runs stay in",
         "``bench-results/`` of the tree that ran them; this page is made",
         "again from a newer run with ``make bench-page``.",
         ""]
    L += [":Commit measured: ``%s``%s" % (
        commit, " (with uncommitted changes in the work tree)"
        if commit.endswith("-dirty") else ""),
        ":Date: %s" % date,
        ":Kind: %s" % ("``make bench QUICK=1``" if quick else
                       "full ``make bench``")]
    for p in parts:
        L.append(":%s: %s (``%s``)" % (
            "The tree" if p.scope == "the tree" else "mm/",
            describe(p.data, p.scope), os.path.basename(p.path)))
    L.append("")
    if note:
        L += textwrap.wrap(note + ": its figures show the shape of the "
                           "comparison (fewer rounds, shorter measurements, "
                           "smaller trees), not one to act on.", 72) + [""]

    # The chart.
    L += heading("The chart", "=")
    png = name + "-mm.png"
    if mm_path and not os.path.isfile(png) and shutil.which("gnuplot"):
        subprocess.run([os.path.join(TOP, "scripts/bench-chart.sh"),
                        mm_path, png], check=False,
                       stdout=subprocess.DEVNULL)
    if os.path.isfile(png):
        os.makedirs(os.path.dirname(image), exist_ok=True)
        shutil.copyfile(png, image)
        rel = os.path.relpath(image, os.path.dirname(out))
        L += ["``mm/`` on our tree against each baseline, as how many times",
              "faster (above 1: ours is faster; log scale), and below it",
              "thread-mode scaling per backend, with the ceiling that each",
              "backend's ``mmap_lock`` critical section puts on it (black)",
              "(``scripts/bench-chart.sh``, from ``%s``):"
              % os.path.basename(png),
              "",
              ".. image:: %s" % rel,
              "   :alt: mm/ on our tree, times faster than each baseline, per",
              "         workload; thread-mode scaling per backend",
              ""]
    elif mm_path:
        L += ["This run has no chart (gnuplot was not installed).", ""]
    else:
        L += ["This run has no ``mm/`` part, so no chart.", ""]

    # The verdict's counts, then the tables.
    tables = []
    summary = []
    for p in parts:
        for b in p.baselines():
            rows, c = p.rows(b)
            ahead, level, behind = p.counts(b, c)
            if (ahead, level, behind) != (c["ahead"], c["level"], c["behind"]):
                print("bench-results-page: %s, %s: the rows add up to %d "
                      "ahead, %d level, %d behind; the run's verdict said "
                      "%d, %d, %d" % (p.scope, b, c["ahead"], c["level"],
                                      c["behind"], ahead, level, behind),
                      file=sys.stderr)
            summary.append((p.scope, label(b), ahead, level, behind))
            title = "%s against %s" % (
                "The tree" if p.scope == "the tree" else "mm/", label(b))
            base_col = b if p.scope == "mm/" or b.startswith("upstream") \
                else "base"
            tables += heading(title, "-")
            tables += ["%d ahead, %d level, %d behind; ``%s %%change maple``."
                       % (ahead, level, behind, b), ""]
            tables += table(("metric", base_col, "maple", "%change", "±",
                             "verdict"), rows)
            tables.append("")
    L += heading("The verdict", "=")
    if summary:
        L += ["Per baseline, the rows where ours is ahead, level (the",
              "``%change`` no larger than the spread) and behind:", ""]
        L += table(("part", "baseline", "ahead", "level", "behind"),
                   [(s, l, a, lv, bh) for s, l, a, lv, bh in summary])
        L.append("")
    else:
        L += ["The run had no baseline to compare with.", ""]
        tables = ["No tables: there was no baseline."]
    L += critical_section(parts)
    L += heading("The tables", "=")
    if summary:
        L += ["Per baseline, every row the two sides share, in the",
              "programs' order: the baseline's median, ours, the ``%change``",
              "of the two, the spread (``±``, blank where both are exact",
              "counts) and the row's verdict.  ``*_ops`` and ``*.mops``:",
              "higher is better; the rest: lower.", ""]
    L += tables
    while L and L[-1] == "":
        L.pop()
    with open(out, "w") as f:
        f.write("\n".join(L) + "\n")
    return len(L)


def main():
    ap = argparse.ArgumentParser(
        description="Documentation/bench-results.rst from one make bench run")
    ap.add_argument("run", nargs="?",
                    help="either JSON file of the run, or their shared name "
                         "(default: the newest full run in bench-results/)")
    ap.add_argument("--out", default=os.path.join(TOP, "Documentation",
                                                  "bench-results.rst"))
    ap.add_argument("--image", default=os.path.join(TOP, "Documentation",
                                                    "images", "bench-mm.png"))
    ap.add_argument("--results", default=os.path.join(TOP, RESULTS),
                    help="where the runs are (default bench-results/)")
    a = ap.parse_args()
    name, note = pick_run(a.run, a.results)
    lines = page(name, note, a.out, a.image)
    print("bench-results-page: %s from %s (%d lines)%s"
          % (os.path.relpath(a.out), os.path.relpath(name),
             lines, ", a QUICK=1 run: no full run there" if note else ""))


if __name__ == "__main__":
    main()
