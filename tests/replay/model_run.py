"""model_run: the replay scripts' one way to run streamscope on the model (imported from tests/replay/*.py)."""
import csv
import json
import os
import statistics
import subprocess
import tempfile


def makespan_ns(bin_, args):
    """The modelled makespan of `streamscope run --backend model ARGS --json`; raises if the run fails."""
    out = subprocess.run([bin_, "run", "--backend", "model"] + args + ["--json"], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)["makespan_ns"]


def kernel_median_ns(bin_, args):
    """The median duration of the kernels in the model's trace of `streamscope run --backend model ARGS`."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "trace.csv")
        subprocess.run([bin_, "run", "--backend", "model"] + args + ["--export", path], capture_output=True,
                       text=True, check=True)
        with open(path) as f:
            return statistics.median(int(r["duration_ns"]) for r in csv.DictReader(f) if r["kind"] == "KER")
