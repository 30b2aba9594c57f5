#!/usr/bin/env python3
"""kernel_alone_replay.py KERNELS.TXT STREAMSCOPE: document 001's add kernel on 2^17 elements (2^22 in 32 chunks) on
the H200 (tests/data/h200/kernel-alone: one traced run a line, its kernels' median duration) against the model's
trace of the same configuration, run here. Holds: each line's configuration ran on the model, and where the kernels
run alone (1 stream of 32 chunks, default-stream's legacy operation) the model's median kernel is within BOUND of
the H200's. BOUND is a ratchet: alone, the H200's launch of 1024 blocks took 45-48 us, where the model, from
calibrate's whole-device rate and its saturation size, gives 39 us (docs/results.md, "Chunks off a 128-byte line").
Where kernels share the GPU (2 and 32 streams) the lines are printed, not held: the model runs such launches one
after another at the full rate, the H200 3-4 side by side, each slower, so one launch's duration is not comparable.
Exit 0 when all hold, 1 otherwise."""
import re
import sys

import model_run

BOUND = 0.20


def main():
    if len(sys.argv) != 3:
        print("usage: kernel_alone_replay.py KERNELS.TXT STREAMSCOPE", file=sys.stderr)
        return 2
    ok, n = True, 0
    for line in open(sys.argv[1]):
        m = re.match(r"\d+ (.+?)\s+kernels \d+ median ([\d.]+) us", line)
        if not m:
            continue
        n += 1
        args = m.group(1).split()
        h200 = float(m.group(2))
        model = model_run.kernel_median_ns(sys.argv[2], ["--preset"] + args + ["--sync", "stream"]) / 1e3
        err = model / h200 - 1
        # alone: one stream, or default-stream's legacy operation, which serialises the kernels
        alone = args[args.index("--streams") + 1] == "1" or args[0] == "default-stream"
        good = abs(err) <= BOUND or not alone
        ok &= good
        verdict = "  (shares the GPU: not held)" if not alone else "" if good else "  FAIL"
        print("%-45s H200 %.1f us, model %.1f us (%+.1f%%)%s" % (m.group(1), h200, model, 100 * err, verdict))
    if n < 10:
        print("%d of the 10 lines read  FAIL" % n)
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
