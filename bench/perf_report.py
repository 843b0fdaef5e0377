"""The reports of the profile scripts (bench/models/profile.py,
bench/train/profile.py): a callable run under ``perf record``, the samples
in its compiled object summed per split function
(op<N>__<module path>__<aten op>, see ``fpopt.torch.export(split=True)``),
or, for a model compiled whole with line tables (``line_tables=True``), per
line of its decided module."""
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


def _perf_report(call, calls: int, sort: str) -> str:
    """``perf report --sort SORT`` of ``calls`` calls of ``call``."""
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
        return subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children",
                               "--sort", sort, "-q"], capture_output=True, text=True).stdout


def profile_lines(call, calls: int, source: str, workers=None):
    """Runs ``call`` ``calls`` times under ``perf record`` and returns the
    samples per line of ``source`` (the decided module a line_tables=True
    build refers to) and the share of all others. With a ``workers``
    Counter, the samples per line taken on threads other than the caller's
    (a compiled parallel loop's workers) are added to it."""
    name = os.path.basename(source)
    per_line, other = collections.Counter(), 0.0
    caller = str(os.getpid())
    for line in _perf_report(call, calls, "pid,srcline").splitlines():
        mm = re.match(r"\s*([\d.]+)%\s+(\d+):\S*\s+(\S+?):(\d+)\s*$", line)
        if mm and os.path.basename(mm.group(3)) == name:
            share, at = float(mm.group(1)), int(mm.group(4))
            per_line[at] += share
            if workers is not None and mm.group(2) != caller:
                workers[at] += share
        elif re.match(r"\s*[\d.]+%", line):
            other += float(line.split("%")[0])
    if not per_line:
        sys.exit("no samples on the decided module's lines (is perf allowed here?)")
    return per_line, other


def print_lines(per_line, other: float, source: str, top: int, workers=None):
    """The top lines of the decided module by share of all samples, each
    with the op written there; with ``workers`` (profile_lines), also the
    part of each line's samples taken on other threads than the caller's
    (0% for a line that ran on the caller alone)."""
    text = open(source).read().splitlines()
    total = sum(per_line.values()) + other
    print(f"top {top} lines of {source} by share of the samples"
          + (" (and the part on worker threads)" if workers is not None else "") + ":")
    for line, share in per_line.most_common(top):
        op = text[line - 1].strip() if 0 < line <= len(text) else ""
        split = "" if workers is None else f" ({100 * workers[line] / share:3.0f}%)"
        print(f"  {100 * share / total:5.1f}%{split}  {line:>5}: {op[:150]}")
    if workers is not None:
        alone = sum(s for at, s in per_line.items() if not workers[at])
        print(f"  {100 * alone / total:5.1f}%  on lines no worker thread ran")
    print(f"  {100 * other / total:5.1f}%  elsewhere (runtime helpers, libc, Python, line 0)")


def profile_ops(call, calls: int, so_path: str):
    """Runs ``call`` ``calls`` times under ``perf record`` and returns the
    samples in the compiled object per (module path, aten op) of its split
    functions, and the share outside them."""
    report = _perf_report(call, calls, "dso,sym")
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
