#!/usr/bin/env python3
"""many_queues_replay.py MANY-QUEUES.TSV STREAMSCOPE: hardware queues on the H200 (tests/gpu/many_queues.sh's rounds,
tests/data/h200/many-queues) against the model, each configuration run once on the model here. Holds:
  - every H200 row ran (exit 0, a makespan);
  - hyperq depth-first, the false dependency: the H200's median at least 1.5x faster for each doubling of 1, 2, 4, 8
    queues, and the model's too;
  - the model's error on each configuration's median at most WORST (a ratchet: default-stream's 32 streams are the
    model's worst, 11-16% fast; docs/results.md).
Exit 0 when all hold, 1 otherwise. Prints every configuration."""
import csv
import statistics
import sys

import model_run

WORST = 0.17


def main():
    if len(sys.argv) != 3:
        print("usage: many_queues_replay.py MANY-QUEUES.TSV STREAMSCOPE", file=sys.stderr)
        return 2
    ok = True
    runs = {}
    for r in csv.DictReader(open(sys.argv[1]), delimiter="\t"):
        if r["exit"] != "0" or not r["untraced_ns"].isdigit():
            print("row did not run: %s  FAIL" % r)
            ok = False
            continue
        runs.setdefault((r["preset"], r["order"], int(r["streams"]), int(r["queues"])), []).append(
            int(r["untraced_ns"]))
    h, m = {}, {}
    for k, v in sorted(runs.items()):
        h[k] = statistics.median(v)
        m[k] = model_run.makespan_ns(sys.argv[2], ["--preset", k[0], "--order", k[1], "--streams", str(k[2]),
                                                   "--connections", str(k[3])])
        err = m[k] / h[k] - 1
        good = abs(err) <= WORST
        ok &= good
        print("%-16s %-8s %3d streams %2d queues: H200 %.3f ms (%.3f-%.3f, %d runs), model %.3f ms (%+.1f%%)%s" %
              (k[0], k[1], k[2], k[3], h[k] / 1e6, min(v) / 1e6, max(v) / 1e6, len(v), m[k] / 1e6, 100 * err,
               "" if good else "  FAIL"))
    for q in (1, 2, 4):
        a, b = ("hyperq", "depth", 32, q), ("hyperq", "depth", 32, 2 * q)
        if a in h and b in h:
            good = h[a] / h[b] >= 1.5 and m[a] / m[b] >= 1.5
            ok &= good
            print("hyperq depth-first %d -> %d queues: H200 %.2fx, model %.2fx%s" %
                  (q, 2 * q, h[a] / h[b], m[a] / m[b], "" if good else "  FAIL"))
        else:
            print("hyperq depth-first %d or %d queues missing  FAIL" % (q, 2 * q))
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
