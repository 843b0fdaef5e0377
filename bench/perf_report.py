"""The per-op report of the profile scripts (bench/models/profile.py,
bench/train/profile.py): a callable run under ``perf record``, the samples
in its compiled object summed per split function
(op<N>__<module path>__<aten op>, see ``fpopt.torch.export(split=True)``)."""
import collections
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

# lowp-pipeline-x86 options for a split model: every op's loops stay in its
# own function (lowp-outline-repeated-loops would move loops repeated across
# ops into one function named after the first, and its samples with them).
SPLIT_X86_OPTIONS = "outline-repeated-loops=false"


def profile_arguments(doc: str, policy: str, calls: int, batch: int):
    """The command line both profile scripts take: MODEL, --policy, --calls,
    --batch, --target, --top and --cache-dir, with these defaults; the
    caller adds its own and parses."""
    import argparse
    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("--policy", default=policy)
    ap.add_argument("--calls", type=int, default=calls)
    ap.add_argument("--batch", type=int, default=batch)
    ap.add_argument("--target")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--cache-dir")
    return ap


def profile_ops(call, calls: int, so_path: str):
    """Runs ``call`` ``calls`` times under ``perf record`` and returns the
    samples in the compiled object per (module path, aten op) of its split
    functions, and the share outside them."""
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        perf = subprocess.Popen(["perf", "record", "-q", "-F", "1999", "-p", str(os.getpid()),
                                 "-o", data], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        for _ in range(calls):
            call()
        perf.send_signal(signal.SIGINT)
        perf.wait()
        report = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children",
                                 "--sort", "dso,sym", "-q"], capture_output=True, text=True).stdout
    so = os.path.basename(so_path)
    per_op, other = collections.Counter(), 0.0
    for line in report.splitlines():
        mm = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[\.\]\s+(\S+)", line)
        if not mm or mm.group(2) != so:
            continue
        share, sym = float(mm.group(1)), mm.group(3)
        op = re.match(r"op\d{4}__(.*)__(aten_\w+|fpopt_\w+)$", sym)
        if op:
            per_op[(op.group(1), op.group(2))] += share
        else:
            other += share
    if not sum(per_op.values()) + other:
        sys.exit("no samples in the compiled code (is perf allowed here?)")
    return per_op, other


def print_shares(per_op, other: float, top: int):
    """The top ops by share of the compiled code's samples, then the shares
    per aten op kind."""
    total = sum(per_op.values()) + other
    print(f"top {top} ops by share of the compiled code's samples:")
    for (path, kind), share in per_op.most_common(top):
        print(f"  {100 * share / total:5.1f}%  {kind.replace('aten_', 'aten.'):<32} "
              f"{path}")
    kinds = collections.Counter()
    for (_, kind), share in per_op.items():
        kinds[kind] += share
    print("by aten op:")
    for kind, share in kinds.most_common():
        print(f"  {100 * share / total:5.1f}%  {kind.replace('aten_', 'aten.')}")
    if other:
        print(f"  {100 * other / total:5.1f}%  outside the ops' functions (forward, runtime helpers)")
