#!/usr/bin/env python3
"""gaps_report: per-operation facts from the CSV traces of tests/gpu/model_gaps.sh and tests/gpu/chunk_shape.sh.

For each trace (streamscope's CSV export: stream, kind, start_ns, end_ns, bytes, ...) prints one line: the work span,
the engines' busy times, how much of their time the kernels ran alone, and the median kernel duration; then per
stream (up to 16 shown) when the H2D copies before its first kernel ended and when that kernel started (the wait a
kernel spent behind a queue head, the weaker-order question), and for chunk_shape's traces (GROUP-sS-cC-nN.csv: kernel-transfer, floats) the median
time per element of the kernels whose chunks start on a 128-byte line and off one. Given two folders (the H200's and
the same script's dry run on the model, SS_GAPS_BACKEND=model), it prints each trace of the first beside the second's.

  tests/gpu/gaps_report.py DIR [MODEL_DIR]
"""
import csv
import glob
import os
import re
import statistics
import sys


def load(path):
    """The trace's device records: (stream, kind, start, end, bytes)."""
    recs = []
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["kind"] in ("H2D", "D2H", "KER") and int(r["stream"]) >= 0:
                recs.append((int(r["stream"]), r["kind"], int(r["start_ns"]), int(r["end_ns"]), int(r["bytes"] or 0)))
    recs.sort(key=lambda x: x[2])
    return recs


def union(iv):
    """Total length of the union of intervals."""
    tot, cur = 0, None
    for a, b in sorted(iv):
        if cur is None or a > cur[1]:
            if cur:
                tot += cur[1] - cur[0]
            cur = [a, b]
        else:
            cur[1] = max(cur[1], b)
    return tot + (cur[1] - cur[0] if cur else 0)


def alone_share(kers):
    """Of the kernels' summed time, the share no other kernel ran beside them."""
    total = sum(e - s for s, e in kers)
    shared = 0
    for i, (s, e) in enumerate(kers):
        shared += union([(max(s, s2), min(e, e2)) for j, (s2, e2) in enumerate(kers) if j != i and s2 < e and e2 > s])
    return 1 - shared / total if total else 0


def summary(path):
    recs = load(path)
    if not recs:
        return None, []
    t0 = min(r[2] for r in recs)
    t1 = max(r[3] for r in recs)
    kers = [(r[2], r[3]) for r in recs if r[1] == "KER"]
    busy = {k: union([(r[2], r[3]) for r in recs if r[1] == k]) for k in ("H2D", "KER", "D2H")}
    line = (f"span {(t1 - t0) / 1e6:.3f} ms  busy H2D {busy['H2D'] / 1e6:.3f} KER {busy['KER'] / 1e6:.3f} "
            f"D2H {busy['D2H'] / 1e6:.3f}  kernels alone {100 * alone_share(kers):.0f}%  "
            f"kernel median {statistics.median(e - s for s, e in kers) / 1e3:.1f} us" if kers else "no kernels")
    detail = []
    streams = sorted({r[0] for r in recs})
    for s in streams[:16]:
        k = [r[2] for r in recs if r[0] == s and r[1] == "KER"]
        h2d = [r[3] for r in recs if r[0] == s and r[1] == "H2D" and k and r[2] < min(k)]
        if h2d and k:
            detail.append(f"s{s}: its first kernel's inputs in at {(max(h2d) - t0) / 1e3:.0f} us, the kernel started "
                          f"{(min(k) - t0) / 1e3:.0f} us (+{(min(k) - max(h2d)) / 1e3:.0f})")
    m = re.match(r"[a-z]+-s(\d+)-c(\d+)-n(\d+)\.csv$", os.path.basename(path))
    if m:
        chunks, n = int(m.group(2)), int(m.group(3))
        size = -(-n // chunks)
        per = {True: [], False: []}
        # the k-th kernel of stream s is chunk s + k * streams (chunk c on stream c % streams)
        nstreams = int(m.group(1))
        seen = {}
        for r in recs:
            if r[1] != "KER":
                continue
            k = seen.get(r[0], 0)
            seen[r[0]] = k + 1
            c = r[0] + k * nstreams
            count = min(size, n - c * size)
            if count > 0:
                per[(c * size * 4) % 128 == 0].append((r[3] - r[2]) / count)
        if per[True] and per[False]:
            detail.append(f"per element: on a line {statistics.median(per[True]):.4f} ns ({len(per[True])}), off "
                          f"{statistics.median(per[False]):.4f} ns ({len(per[False])}): "
                          f"{statistics.median(per[False]) / statistics.median(per[True]):.2f}x")
    return line, detail


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    first = sys.argv[1]
    other = sys.argv[2] if len(sys.argv) == 3 else None
    for path in sorted(glob.glob(os.path.join(first, "*.csv"))):
        name = os.path.basename(path)
        line, detail = summary(path)
        print(f"{name}: {line}")
        if other and os.path.exists(os.path.join(other, name)):
            mline, mdetail = summary(os.path.join(other, name))
            print(f"{' ' * len(name)}  model: {mline}")
        for d in detail:
            print(f"    {d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
