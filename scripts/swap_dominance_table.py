"""Tables of the swap dominance grid (scripts/swap_dominance.sh) from its sweeps' results.csv.

(a) async with the budget prefetch rule against sync and semi_sync of the same selection,
    and its peak against the budget; (b) the hybrid against the better of swap-only (async,
    budget selection, budget prefetch) and recompute-only (dtr); (c) the prefetch rules
    ranked per disk by their mean time relative to the best rule at each point.
Usage: swap_dominance_table.py OUT_DIR [HYBRID_TOLERANCE]
"""
import csv
import glob
import math
import os
import sys
from collections import defaultdict

DISKS = {
    "104094472B/4.452s": "phone",
    "315.22MiB/s": "phone_samsung",
    "121.54MiB/s": "phone_redmi",
    "3.2GB/s": "nvme_datacenter",
    "25GB/s": "host_ram_pcie4",
}
ORDER = list(DISKS.values())


def disk_name(text):
    return next(name for key, name in DISKS.items() if key in text)


def policy_key(text):
    """(mode, select, prefetch) of a sweep policy value, or the recompute/hybrid label."""
    if "hybrid: true" in text:
        return "hybrid"
    if "recompute" in text:
        return "recompute"
    mode = text.split("mode: ")[1].split(",")[0].split("}")[0]
    select = text.split("select: ")[1].split(",")[0].split("}")[0]
    prefetch = "-"
    if "prefetch: {lead_ops: " in text:
        prefetch = "lead_ops:" + text.split("lead_ops: ")[1].split("}")[0]
    elif "prefetch: " in text:
        prefetch = text.split("prefetch: ")[1].split("}")[0].split(",")[0]
    return (mode, select, prefetch)


REFUSED = set()  # (sweep, disk, budget) points memsim refused to run (status error)


def load(out):
    points = defaultdict(dict)  # (workload, disk, budget) -> policy -> row
    for path in sorted(glob.glob(os.path.join(out, "*", "results.csv"))):
        for row in csv.DictReader(open(path)):
            budget = row.get("platform.memory.budget_ratio") or "none"
            if row["status"] == "error":  # e.g. a budget under one operator's working set
                REFUSED.add((os.path.basename(os.path.dirname(path)), disk_name(row["platform.disk"]), budget))
                continue
            key = (row["workload"], disk_name(row["platform.disk"]), budget)
            points[key][policy_key(row["policy"])] = row
    return points


def t(row):
    return float(row["time_ms"]) if row and row["status"] == "ok" else math.inf


def main():
    out = sys.argv[1]
    tol = float(sys.argv[2]) if len(sys.argv) > 2 else 0.01
    points = load(out)
    print(f"{len(points)} grid points (workload x disk x budget), "
          f"{sum(len(p) for p in points.values())} runs; {len(REFUSED)} points refused before running "
          f"(memsim error, e.g. a budget under one operator's working set)\n")

    print("(a) async + budget prefetch vs sync / semi_sync, same selection\n")
    print("| disk | points | infeasible (all three oom) | async <= min(sync, semi_sync) | fails | worst async / best serial | above budget | async alone not ok |")
    print("|---|---|---|---|---|---|---|---|")
    fails_a = []
    for disk in ORDER:
        n = holds = above = notok = infeasible = 0
        worst = 0.0
        for (wl, d, budget), pol in sorted(points.items()):
            if d != disk:
                continue
            for select in ("budget", "feature_maps", "hideable"):
                a = pol.get(("async", select, "budget"))
                s = [pol.get((m, select, "-")) for m in ("sync", "semi_sync")]
                if not a or not all(s):
                    continue
                n += 1
                serial = min(t(x) for x in s)
                if a["status"] != "ok" and math.isinf(serial):
                    infeasible += 1
                    continue
                if a["status"] != "ok":
                    notok += 1
                    fails_a.append((wl, d, budget, select, a["status"], serial))
                    continue
                ratio = t(a) / serial
                worst = max(worst, ratio)
                if ratio <= 1 + 1e-9:
                    holds += 1
                else:
                    fails_a.append((wl, d, budget, select, round(t(a), 1), round(serial, 1)))
                bb = a.get("details.budget_bytes")
                if bb and int(a["peak_bytes"]) > float(bb):
                    above += 1
        print(f"| {disk} | {n} | {infeasible} | {holds} | {n - holds - notok - infeasible} | {worst:.3f} | {above} | {notok} |")
    if fails_a:
        print("\nfailures of (a): workload, disk, budget, selection, async time (or status), best serial time")
        for f in fails_a:
            print("-", *f)

    print(f"\n(b) hybrid vs min(swap-only, recompute-only), tolerance {tol:.0%}\n")
    print("| disk | points | hybrid within tolerance | fails | worst hybrid / best single | hybrid swapped and recomputed: both used at |")
    print("|---|---|---|---|---|---|")
    fails_b = []
    for disk in ORDER:
        n = holds = mixed = 0
        worst = 0.0
        for (wl, d, budget), pol in sorted(points.items()):
            if d != disk or "hybrid" not in pol:
                continue
            h, sw, rc = pol["hybrid"], pol.get(("async", "budget", "budget")), pol.get("recompute")
            best = min(t(sw), t(rc))
            if math.isinf(best):
                continue
            n += 1
            ratio = t(h) / best
            worst = max(worst, ratio)
            if ratio <= 1 + tol:
                holds += 1
            else:
                fails_b.append((wl, d, budget, h["status"], round(t(h), 1), round(t(sw), 1), round(t(rc), 1)))
            # Swapped: planned swaps or evictions sent to disk; recomputed: ops regenerated.
            swapped = float(h.get("swap_selected_tensors") or 0) + float(h.get("details.hybrid_swapped") or 0)
            recomputed = float(h.get("recomputed_ops") or 0)
            if swapped > 0 and recomputed > 0:
                mixed += 1
        print(f"| {disk} | {n} | {holds} | {n - holds} | {worst:.3f} | {mixed} of {n} |")
    if fails_b:
        print("\nfailures of (b): workload, disk, budget, hybrid status, hybrid, swap-only, recompute-only time")
        for f in fails_b:
            print("-", *f)

    print("\n(c) prefetch rules per disk: mean of time / best rule's time at the same point (1 = always best)\n")
    rules = ["budget", "eager", "just_in_time", "lead_ops:10", "lead_ops:50"]
    print("| disk | " + " | ".join(rules) + " | ranking |")
    print("|---|" + "---|" * (len(rules) + 1))
    for disk in ORDER:
        rel = defaultdict(list)
        for (wl, d, budget), pol in sorted(points.items()):
            if d != disk:
                continue
            for select in ("budget", "feature_maps"):
                times = {r: t(pol.get(("async", select, r))) for r in rules}
                best = min(times.values())
                if math.isinf(best) or any(math.isinf(v) for v in times.values()):
                    continue
                for r in rules:
                    rel[r].append(times[r] / best)
        means = {r: sum(v) / len(v) for r, v in rel.items() if v}
        ranking = " < ".join(sorted(means, key=means.get))
        print(f"| {disk} | " + " | ".join(f"{means.get(r, math.nan):.3f}" for r in rules) + f" | {ranking} |")


main()
