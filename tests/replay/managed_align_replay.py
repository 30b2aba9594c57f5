#!/usr/bin/env python3
"""managed_align_replay.py DIR: the managed preset's work on the H200 with its arrays on and off the driver's 2 MiB
migration blocks (tests/data/h200/managed-align: managed_probe's probe-Nq.txt, aligned, and probe-Nq-o1024.txt,
1024 KiB off, two processes each, on 1 and 8 hardware queues). Holds what docs/results.md ("Chunks across the
driver's 2 MiB blocks") reads off them: every file has two processes of 11 rounds of the six variants at 1..128
streams; on one queue at 8 streams the whole preset (full) takes at least 1.15x as long off the blocks in both
processes, more than any variant without the prefetch of z to the host or without the faults moves there (nod2h,
fault, zdev). Prints the medians. Exit 0 when all hold, 1 otherwise."""
import os
import re
import statistics
import sys

VARIANTS = ("full", "nod2h", "zdev", "h2d", "fault", "d2h")
STREAMS = (1, 2, 4, 8, 16, 32, 64, 128)
ROUNDS, PROCS = 11, 2
LINE = re.compile(r"(\w+)\s+(\d+) streams round\s+(\d+):\s+([\d.]+) us")


def load(path):
    """{(variant, streams): [median us of process 1, of process 2, ...]} and whether every round is there."""
    runs, proc = {}, -1
    for line in open(path):
        if line.startswith("# managed_probe:"):
            proc += 1
            continue
        m = LINE.match(line)
        if m:
            runs.setdefault((m.group(1), int(m.group(2))), [[] for _ in range(PROCS)])[proc].append(float(m.group(4)))
    whole = proc + 1 == PROCS and all(
        len(runs.get((v, k), [[]] * PROCS)[p]) == ROUNDS for v in VARIANTS for k in STREAMS for p in range(PROCS))
    return {key: [statistics.median(r) for r in rs] for key, rs in runs.items()}, whole


def main():
    if len(sys.argv) != 2:
        print("usage: managed_align_replay.py DIR", file=sys.stderr)
        return 2
    ok = True
    med = {}
    for q in (1, 8):
        for off in ("", "-o1024"):
            name = "probe-%dq%s.txt" % (q, off)
            med[q, off], whole = load(os.path.join(sys.argv[1], name))
            if not whole:
                print("%s: not every variant, stream count and round of %d processes  FAIL" % (name, PROCS))
                ok = False
    if not ok:
        return 1
    for q in (1, 8):
        for v in VARIANTS:
            print("%dq %-6s " % (q, v) + " ".join(
                "%3d: %s" % (k, "/".join("%.3f" % (b / a) for a, b in zip(med[q, ""][v, k], med[q, "-o1024"][v, k])))
                for k in STREAMS) + "  (off / aligned, process 1/2)")
    ratio = {v: [b / a for a, b in zip(med[1, ""][v, 8], med[1, "-o1024"][v, 8])] for v in VARIANTS}
    controls = max(max(ratio[v]) for v in ("nod2h", "fault", "zdev"))
    full = min(ratio["full"])
    good = full >= 1.15 and full > controls
    print("1 queue, 8 streams: full %.3f..%.3f off the blocks, the controls at most %.3f%s" %
          (full, max(ratio["full"]), controls, "" if good else "  FAIL"))
    return 0 if ok and good else 1


if __name__ == "__main__":
    sys.exit(main())
