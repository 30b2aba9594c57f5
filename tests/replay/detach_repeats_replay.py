#!/usr/bin/env python3
"""detach_repeats_replay.py CALL2_DIR [CALL3_DIR]: CUPTI detached between traced runs, repeat by repeat (tests/gpu/documents.sh's
detach and repeats steps). DIR/repeats.txt has, per run (run --repeat 10 --warmup 1, SS_VERBOSE=1), a header line
naming its configuration and way, then each repeat's traced and untraced cudaEvent makespans: the experiment's 10,
then its one-stream twin's 10 (left out here). DIR/detach.txt has one run --json a line.

tests/data/h200/detach-h100/call2 (H100), two rounds of three ways in turn: detached (SS_CUPTI_DETACH=1) with
every stream primed (SS_PRIME=all) and with the first op's stream primed (SS_PRIME=first; that priming was not
kept), and attached (SS_CUPTI_DETACH=0). Holds what its README and docs/results.md read off it (medians of 20):
- every run exited 0; every run of detach.txt verified with the records its op list expects, its untraced_cupti
  'detached' where SS_CUPTI_DETACH=1 and 'attached' where 0;
- 8 streams (kernel-transfer), 2 and 32 streams (vector-add): the three ways within 1% of each other, traced and
  untraced, and traced within 6% of untraced each way (vector-add 32 streams: +4.2..+5.3%): priming every stream changes nothing measurable;
- 128 streams of 16k elements (host-bound, its repeats spread 1.3..4.8 ms): untraced detached faster than
  attached (1923 and 1687 against 2112 us), traced detached slower (3068 and 2984 against 2403 us): CUPTI
  attached again costs the traced run more than CUPTI kept attached does.

tests/data/h200/detach-h100/call3/pageable (H100, another machine), two rounds of three ways in turn: detached,
detached with an untimed traced run between each attach and the timed one (SS_CUPTI_WARM=1, a diagnostic since
removed), attached. Holds (medians of 20):
- every run exited 0;
- untraced detached faster than attached in each configuration (128 small streams 1988 against 2383 us, 64
  streams 1378 against 1559, vector-add 128 streams 4186 against 4441);
- at 128 small streams traced detached slower than attached (3145 against 2836 us), and the warm-up traced run
  does not bring it back (3018; the warm-up itself 3053): a re-attached CUPTI costs the traced run more for as long
  as it is attached, not only in its first run; at 64 streams and vector-add 128 traced within 5% each way.
Prints the medians. Exit 0 when all hold, 1 otherwise."""
import os
import re
import statistics
import sys

HEAD = re.compile(r'round=(\d) cfg="([^"]*)" (?:way="([^"]*)"|(SS_CUPTI_DETACH=\d SS_PRIME=\w+)) exit=(\d+)')
REP = re.compile(r"repeat (\d+)/(\d+): traced ([\d.]+) us, untraced ([\d.]+) us")


def load(path):
    """{(cfg, way): ([traced us...], [untraced us...])} of the experiments' repeats, and the exit codes."""
    data, exits, cur, seen = {}, [], None, 0
    for line in open(path):
        m = HEAD.match(line)
        if m:
            cur = data.setdefault((m.group(2), m.group(3) or m.group(4)), ([], []))
            exits.append(int(m.group(5)))
            seen = 0
            continue
        m = REP.search(line)
        if m and cur is not None:
            seen += 1
            if seen <= int(m.group(2)):  # the experiment's repeats come before its one-stream twin's
                cur[0].append(float(m.group(3)))
                cur[1].append(float(m.group(4)))
    return data, exits


def call3(folder):
    """What call3/pageable's repeats hold (the docstring's second part)."""
    data, exits = load(os.path.join(folder, "repeats.txt"))
    ok = len(exits) == 18 and all(e == 0 for e in exits)
    med = {}
    for (cfg, way), (t, u) in sorted(data.items()):
        ok = ok and len(t) == 20 and len(u) == 20
        med[(cfg, way)] = (statistics.median(t), statistics.median(u))
        print(f"{cfg:58s} {way:34s} traced {med[(cfg, way)][0]:7.1f} us untraced {med[(cfg, way)][1]:7.1f} us")
    det, warm, att = "SS_CUPTI_DETACH=1", "SS_CUPTI_DETACH=1 SS_CUPTI_WARM=1", "SS_CUPTI_DETACH=0"
    small = "kernel-transfer --streams 128 --elements 16k --sync stream"
    for cfg in (small, "kernel-transfer --streams 64", "vector-add --streams 128"):
        ok = ok and med[(cfg, det)][1] < 0.96 * med[(cfg, att)][1] and med[(cfg, warm)][1] < 0.96 * med[(cfg, att)][1]
        if cfg != small:
            vals = [med[(cfg, w)][0] for w in (det, warm, att)]
            ok = ok and max(vals) <= 1.05 * min(vals)
    ok = ok and min(med[(small, det)][0], med[(small, warm)][0]) > 1.05 * med[(small, att)][0]
    return ok


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: detach_repeats_replay.py CALL2_DIR [CALL3_DIR]", file=sys.stderr)
        return 2
    data, exits = load(os.path.join(sys.argv[1], "repeats.txt"))
    ok = len(exits) == 24 and all(e == 0 for e in exits)
    med = {}
    for (cfg, way), (t, u) in sorted(data.items()):
        ok = ok and len(t) == 20 and len(u) == 20
        med[(cfg, way)] = (statistics.median(t), statistics.median(u))
        print(f"{cfg:58s} {way:32s} traced {med[(cfg, way)][0]:7.1f} us untraced {med[(cfg, way)][1]:7.1f} us "
              f"({min(u):.0f}..{max(u):.0f})")
    all_, first, att = "SS_CUPTI_DETACH=1 SS_PRIME=all", "SS_CUPTI_DETACH=1 SS_PRIME=first", "SS_CUPTI_DETACH=0 SS_PRIME=all"
    small = "kernel-transfer --streams 128 --elements 16k --sync stream"
    for cfg in ("kernel-transfer", "vector-add", "vector-add --streams 32"):
        for i in (0, 1):
            vals = [med[(cfg, w)][i] for w in (all_, first, att)]
            ok = ok and max(vals) <= 1.01 * min(vals)
        for w in (all_, first, att):
            ok = ok and med[(cfg, w)][0] <= 1.06 * med[(cfg, w)][1]
    ok = ok and max(med[(small, all_)][1], med[(small, first)][1]) < 0.95 * med[(small, att)][1]
    ok = ok and min(med[(small, all_)][0], med[(small, first)][0]) > 1.2 * med[(small, att)][0]
    runs = 0
    for line in open(os.path.join(sys.argv[1], "detach.txt")):
        if "verified=" not in line:
            continue
        runs += 1
        want = "untraced_cupti=attached" if "SS_CUPTI_DETACH=0" in line else "untraced_cupti=detached"
        if "verified=True records_as_expected=True" not in line or want not in line:
            print("not as expected: " + line.strip())
            ok = False
    ok = ok and runs == 6
    if len(sys.argv) == 3:
        ok = call3(sys.argv[2]) and ok
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
