#!/usr/bin/env python3
"""cupti_probe_replay.py DIR: what CUPTI's presence costs the untraced issue of document 001's loop
(tests/data/h200/cupti-detach: cupti_probe's runs in probe-*/probe.txt, tests/gpu/cupti_probe.sh). Holds what the
folder's README and docs/results.md read off them: per file, stream count and order, the median host time of the
issue loop with CUPTI loaded and initialised but no kind enabled (attached) is above that of the same loop without
CUPTI (plain) at 17 of the 18 points, by 0.07 to 1.10 us a call (4 calls a stream; median 0.54) where it is
above; with CUPTI detached (cuptiFinalize) the loop is at most 0.2 us a call above plain at every point of
probe-detached (at 128 streams breadth-first plain itself was the slowest of the four), and with every kind off but
CUPTI still attached (finished) it is above plain by more than 0.2 us a call at 3 of 4.
Every program's result was verified. Prints the medians. Exit 0 when all hold, 1 otherwise."""
import os
import re
import statistics
import sys

FILES = ("probe-attached", "probe-alternate", "probe-kt", "probe-detached")
FIELD = re.compile(r"(\w+)=(\S+)")


def load(path):
    """{(mode, streams, order): [issue us, ...]} and the verdicts ('verified=' values) of the probe runs."""
    issue, verdicts = {}, []
    for line in open(path):
        f = dict(FIELD.findall(line))
        if "issue_us" in f:
            issue.setdefault((f["mode"], int(f["streams"]), f["order"]), []).append(float(f["issue_us"]))
        elif "verified" in f and "mode" not in f and "ref" not in line:
            verdicts.append(f["verified"])
    return {k: statistics.median(v) for k, v in issue.items()}, verdicts


def per_call(med, mode, streams, order):
    """(mode's median issue time - plain's) / the loop's calls, in us."""
    return (med[(mode, streams, order)] - med[("plain", streams, order)]) / (4 * streams)


def main():
    if len(sys.argv) != 2:
        print("usage: cupti_probe_replay.py DIR", file=sys.stderr)
        return 2
    ok, points, above, costs = True, 0, 0, []
    detached_ok = finished_above = 0
    for name in FILES:
        med, verdicts = load(os.path.join(sys.argv[1], name, "probe.txt"))
        if not verdicts or any(v != "1" for v in verdicts):
            print(f"{name}: a probe run was not verified: {verdicts}")
            ok = False
        for (mode, streams, order) in sorted(k for k in med if k[0] == "attached"):
            d = per_call(med, mode, streams, order)
            points += 1
            if d > 0:
                above += 1
                costs.append(d)
            print(f"{name} {streams:4d} {order:8s} plain {med[('plain', streams, order)]:7.0f} us attached "
                  f"{med[(mode, streams, order)]:7.0f} us ({d:+.2f} us a call)")
            for other in ("finished", "detached"):
                if (other, streams, order) in med:
                    o = per_call(med, other, streams, order)
                    print(f"{'':>20s} {other} {med[(other, streams, order)]:7.0f} us ({o:+.2f} us a call)")
                    if other == "detached":
                        detached_ok += o <= 0.2
                    else:
                        finished_above += o > 0.2
    mid = statistics.median(costs)
    print(f"attached above plain at {above} of {points} points, {min(costs):.2f}..{max(costs):.2f} us a call "
          f"(median {mid:.2f}); detached at most 0.2 us a call above plain at {detached_ok} of 4; finished above "
          f"by more at {finished_above} of 4")
    ok = ok and points == 18 and above == 17 and 0.05 <= min(costs) and max(costs) <= 1.1 and 0.5 <= mid <= 0.6
    ok = ok and detached_ok == 4 and finished_above == 3
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
