#!/usr/bin/env python3
"""session_spread: how far the same configuration measured in different H200 sessions lies apart.

Reads the measured sweeps of tests/gpu/advise.sh (DIR/PRESET.sweep-A.json: untraced cudaEvent makespans, the
preset's own settings on 8 queues) and the validation matrices (validate-*.csv of streamscope validate: measured_ns
per preset, streams, order, queues) given on the command line, keys each measurement by preset, streams, order and
queues, and prints for every key measured in two or more sessions the times and their spread ((max - min) / min),
then the median spread per preset. A model error below a preset's spread across sessions cannot be told from the
GPU's own variation: docs/results.md uses it to say which validation rows are the model's and which the host's.

  tests/gpu/session_spread.py [--preset P,...] PATH...   (PATH: an advise folder or a validate CSV)
"""
import csv
import glob
import json
import os
import statistics
import sys


def main():
    args = sys.argv[1:]
    only = None
    if len(args) >= 2 and args[0] == "--preset":
        only = set(args[1].split(","))
        args = args[2:]
    if not args:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    vals = {}
    for path in args:
        norm = os.path.normpath(path)
        label = os.path.join(os.path.basename(os.path.dirname(norm)), os.path.basename(norm))
        if os.path.isdir(path):
            for f in sorted(glob.glob(os.path.join(path, "*.sweep-A.json"))):
                try:
                    with open(f) as fh:
                        d = json.load(fh)
                except ValueError:
                    print(f"session_spread: {f}: not JSON (a step that did not finish): left out", file=sys.stderr)
                    continue
                ex = d["experiment"]
                for p in d["points"]:
                    if p.get("untraced_ns"):
                        key = (ex["preset"], p["streams"], p["order"], ex["connections"])
                        vals.setdefault(key, []).append((p["untraced_ns"] / 1e6, label))
        else:
            with open(path) as fh:
                rows = list(csv.reader(line for line in fh if not line.startswith("#")))
            for r in rows[1:]:
                if len(r) > 4 and r[4].isdigit() and int(r[4]) > 0:
                    key = (r[0], int(r[1]), r[2], int(r[3]))
                    vals.setdefault(key, []).append((int(r[4]) / 1e6, label))
    per = {}
    for key in sorted(vals):
        v = vals[key]
        if len(v) < 2 or (only is not None and key[0] not in only):
            continue
        xs = [t for t, _ in v]
        spread = (max(xs) - min(xs)) / min(xs)
        per.setdefault(key[0], []).append(spread)
        times = "  ".join(f"{t:.3f} ({s})" for t, s in v)
        print(f"{key[0]:16} {key[1]:4} {key[2]:8} {key[3]:2}q  {times}  spread {100 * spread:.0f}%")
    for preset, s in sorted(per.items()):
        print(f"{preset}: {len(s)} configurations, median spread {100 * statistics.median(s):.0f}%, "
              f"max {100 * max(s):.0f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
