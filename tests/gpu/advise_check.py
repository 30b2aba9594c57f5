#!/usr/bin/env python3
"""advise_check: holds `advise --verify`'s choice to the measured sweep of tests/gpu/advise.sh.

For every preset with DIR/PRESET.advise.json and DIR/PRESET.sweep-*.json: the choice is verify's measured best (the
fastest of the at most 6 configurations advise measured); it passes when its measured time is within 3% of the
best point of the measured sweep (the untraced cudaEvent makespan of every point that ran; for a preset whose
stream count the advisor keeps, only the points with that count). Prints one line per preset (the choice, the
advice as measured, the sweep's best, how many measured runs each side took) and exits 1 when a preset fails or
has no data, 0 otherwise. Without --verify data (a dry run on the model) it compares the model's predictions.

With --replay (CI's test_replay_advise on tests/data/h200/advise): exit 77 (skipped) when DIR does not exist, and
a preset also fails without --verify data or when verify measured more than a fifth of the configurations the
advisor searched (what a full measured sweep of the same space would measure). A preset
DIR/known-failures.txt lists ("PRESET RATIO" lines) may miss the target, but by no more than RATIO; a "PRESET runs"
line waives the fifth for a preset whose whole space is a few configurations.

  tests/gpu/advise_check.py [--replay] DIR
"""
import glob
import json
import os
import sys

PRESETS = ["kernel-transfer", "decrypt", "hyperq", "default-stream", "sync-order", "managed", "pageable",
           "vector-add", "managed-threads"]
TARGET = 1.03


def point_ns(p):
    """The time of a sweep point: the untraced makespan, else the one the sweep used."""
    return p.get("untraced_ns") or p.get("used_makespan_ns")


def main():
    args = sys.argv[1:]
    replay = "--replay" in args
    args = [a for a in args if a != "--replay"]
    d = args[0] if args else "."
    if replay and not os.path.isdir(d):
        print(f"advise_check: {d} does not exist yet (tests/gpu/advise.sh's data): skipped")
        return 77
    known = {}
    if replay and os.path.exists(os.path.join(d, "known-failures.txt")):
        with open(os.path.join(d, "known-failures.txt")) as f:
            for line in f:
                w = line.split()
                if w and not w[0].startswith("#"):
                    known[w[0] if w[1] != "runs" else w[0] + " runs"] = 0.0 if w[1] == "runs" else float(w[1])
    bad = 0
    for preset in PRESETS:
        try:
            with open(os.path.join(d, preset + ".advise.json")) as f:
                adv = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{preset}: FAIL no advise data ({e})")
            bad += 1
            continue
        pts = []
        for path in sorted(glob.glob(os.path.join(d, preset + ".sweep-*.json"))):
            try:
                with open(path) as f:
                    sw = json.load(f)
            except (OSError, ValueError):
                continue
            part = os.path.basename(path)[len(preset) + 7:-5]
            for p in sw.get("points", []):
                if p.get("failed") or not point_ns(p):
                    continue
                if "streams" not in adv["varied"] and p["streams"] != adv["current"]["config"]["streams"]:
                    continue
                pts.append((point_ns(p), f"{part} {p['streams']} streams {p['order']}"))
        if not pts:
            print(f"{preset}: FAIL no measured sweep point")
            bad += 1
            continue
        sweep_ns, sweep_what = min(pts)
        v = adv.get("verify")
        if v and v.get("best"):
            choice_ns = v["best"]["measured_ns"]
            choice = v["best"]["config"]["changes"]
            rec = [m for m in v["measured"] if m["recommended"]]
            advised = (f"advice measured {rec[0]['measured_ns'] / 1e6:.3f} ms"
                       if rec and rec[0]["measured_ns"] else "advice not measured")
            runs = len([m for m in v["measured"] if m["measured_ns"]])
            kind = "measured"
        else:
            choice_ns = adv["best"]["predicted_ns"]
            choice = adv["best"]["config"]["changes"] + " (MODELLED: no --verify data)"
            advised = "no verify"
            runs = 0
            kind = "modelled"
        ratio = choice_ns / sweep_ns
        ok = ratio <= TARGET or (preset in known and ratio <= known[preset] + 1e-9)
        # "far fewer measured runs" than a full measured sweep of the same space: that sweep would measure every
        # configuration the advisor searched (the sweep here is a subset, cut to fit the device's minutes)
        if replay and (kind != "measured" or (5 * runs > adv["candidates_searched"] and preset + " runs" not in known)):
            ok = False
        bad += not ok
        verdict = "PASS" if ok and ratio <= TARGET else "KNOWN-MISS" if ok else "FAIL"
        print(f"{preset}: {verdict} {kind} choice {choice}: {choice_ns / 1e6:.3f} ms, "
              f"{ratio:.3f}x the sweep's best ({sweep_what}: {sweep_ns / 1e6:.3f} ms; target <= {TARGET}); "
              f"{advised}; {runs} measured runs against the sweep's {len(pts)}, "
              f"{adv['candidates_searched']} configurations modelled")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
