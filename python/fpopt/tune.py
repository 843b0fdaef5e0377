"""A precision search driven by measured error: ``fpopt.tune``.

Runs the f32 model and candidate decisions on calibration inputs through
fp-opt's own CPU lowering (``lowp-pipeline-x86``, executed by MLIR's JIT,
``mlir-runner``) and returns the decision with the most low-precision bytes
whose output error is within the tolerance, with the error and bytes of
every candidate it tried.

The search space is the decision pipeline's policy (the target's FP8
policy where it has FP8, then its 16-bit one) and per-op overrides:
``lowp.precision = f32`` on matrix ops, set by ``lowp-pin-matrix-ops``,
which numbers them the way the decision passes see them. For each policy:

1. all matrix ops low (the pipeline's own decision); if the error is within
   the tolerance, that is the answer for the policy;
2. otherwise the matrix ops are split in halves (program order, so halves
   are runs of layers) and each half is tried low with everything else
   pinned to f32, recursively, until the parts that stay within the
   tolerance are found; parts found good separately are tried together and
   kept together when they still are (else the one with more bytes).

Every candidate is one compile and one JIT run; results are memoized by the
pinned set. With k ops that cannot go low among G matrix ops the search
evaluates about 2 k log2(G) candidates per policy: on a 12-layer
transformer (96 matrix ops) with one sensitive layer, ~15 candidates of
one compile + one run each (bench/tune/tune_transformer.py prints the
figures). The two halves of every split are independent and run at the
same time (``jobs``, default: every core).

Candidates execute through ``lowp-pipeline-reference``, a plain loop
lowering of the decided module (linalg to loops, every op in the formats
the decision chose and rounded after each op, conversions as exact integer
code, f32 accumulation), which compiles in a fraction of the time of the
x86 kernels and gives the decision's numbers, not one chip's kernels'.
``lowering="x86"`` runs ``lowp-pipeline-x86`` instead; a model the loop
lowering cannot take falls back to it (the summary says so).

Error: max |y - y_ref| / max |y_ref| over every output element (the
reference is the f32 model through the same lowering, or ``expected``);
non-finite outputs count as infinite error.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Sequence

import numpy as np

LLVM_LIB = "/usr/lib/llvm-22/lib"
MLIR_RUNNER = "/usr/lib/llvm-22/bin/mlir-runner"

#: The evaluation lowering: lowp-pipeline-reference, loops over the decided
#: module's own ops, every op rounded to the format the IR states, narrow
#: conversions as exact integer code whatever the decision's target.
LOOP_LOWERING = "lowp-pipeline-reference"


class TuneError(Exception):
    """Bad input for ``tune``: the message names the cause."""


@dataclass(frozen=True)
class Candidate:
    """One decision the search compiled and ran."""

    policy: str  #: policy of lowp-auto-mixed-precision
    pinned: List[int]  #: matrix ops pinned to f32 (lowp-pin-matrix-ops)
    error: float  #: max |y - y_ref| / max |y_ref|
    bytes_saved: int  #: tensor bytes saved, from the decision report
    low_input_bytes: int  #: matrix-op input bytes saved by low precision
    low_matrix_ops: int  #: matrix ops not pinned
    seconds: float  #: compile + run
    within_tolerance: bool
    #: matrix ops kept at the 16-bit format by the FP8 policy (not FP8)
    pinned16: List[int] = field(default_factory=list)


@dataclass
class TuneResult:
    """The chosen decision and everything tried on the way."""

    ir: str  #: the decided module (input to a lowering pipeline)
    pipeline: str  #: the fp-opt pipeline that produces ``ir`` from the input
    chosen: Candidate
    candidates: List[Candidate] = field(default_factory=list)
    matrix_ops: List[str] = field(default_factory=list)  #: "name at loc"
    all_f32: bool = False  #: no low-precision candidate met the tolerance
    summary: str = ""

    def table(self) -> str:
        """The candidates as a Markdown table."""
        rows = ["| policy | pinned f32 | kept 16-bit | error | matrix input "
                "bytes saved | tensor bytes saved | low matrix ops | within "
                "| s |",
                "|---|---|---|---|---|---|---|---|---|"]
        for c in self.candidates:
            rows.append("| %s | %s | %s | %.3g | %d | %d | %d | %s | %.1f |" % (
                c.policy, format_ops(c.pinned), format_ops(c.pinned16),
                c.error,
                c.low_input_bytes, c.bytes_saved, c.low_matrix_ops,
                "yes" if c.within_tolerance else "no", c.seconds))
        return "\n".join(rows)


# --------------------------------------------------------------------------
# Reading the entry function's signature
# --------------------------------------------------------------------------

_TENSOR = re.compile(r"tensor<((?:\d+x)*)f32>")


def _balanced(text: str, start: int) -> int:
    """Index just past the bracket group opening at text[start]."""
    pairs = {"(": ")", "<": ">", "[": "]", "{": "}"}
    stack = []
    i = start
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = text.index('"', i + 1)
        elif ch in pairs and not (ch == "<" and text[i - 1] == "-"):
            stack.append(pairs[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
            if not stack:
                return i + 1
        i += 1
    raise TuneError("unbalanced brackets in the model's text")


def _split_top(text: str) -> List[str]:
    """Splits at commas outside brackets."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def _shape(type_text: str, what: str):
    m = _TENSOR.fullmatch(type_text.strip())
    if not m:
        raise TuneError(f"{what} has type {type_text.strip()}: tune runs "
                        "models whose arguments and results are statically "
                        "shaped f32 tensors")
    return tuple(int(d) for d in m.group(1).split("x") if d)


def read_signature(ir: str, entry: Optional[str]):
    """(name, argument shapes, result shapes) of the entry function: `entry`
    or the first public func.func with a body."""
    for m in re.finditer(r"func\.func\s+(private\s+)?@([\w$.\-]+)\s*\(", ir):
        name = m.group(2)
        if entry is not None and name != entry:
            continue
        if entry is None and m.group(1):
            continue
        close = _balanced(ir, m.end() - 1)
        args = ir[m.end():close - 1]
        rest = ir[close:]
        body = rest.find("{")
        sig_tail = rest[:body] if body >= 0 else rest
        if "attributes" in sig_tail:  # the body follows the attribute dict
            sig_tail = sig_tail[:sig_tail.index("attributes")]
        arrow = sig_tail.find("->")
        results = sig_tail[arrow + 2:] if arrow >= 0 else ""
        results = results.split("attributes")[0].strip()
        if results.startswith("("):
            results = results[1:_balanced(results, 0) - 1]
        arg_shapes = []
        for i, arg in enumerate(_split_top(args)):
            t = arg.split(":", 1)[1] if ":" in arg else arg
            t = t.strip()
            if t.endswith("}"):  # argument attributes
                t = t[:t.index("{")]
            arg_shapes.append(_shape(t, f"argument #{i} of @{name}"))
        res_shapes = [_shape(r.split("{")[0], f"result #{i} of @{name}")
                      for i, r in enumerate(_split_top(results))]
        if not res_shapes:
            raise TuneError(f"@{name} returns nothing to compare")
        return name, arg_shapes, res_shapes
    if entry is not None:
        raise TuneError(f"the model has no function @{entry}")
    raise TuneError("the model has no public func.func with a body")


# --------------------------------------------------------------------------
# Running a decided module
# --------------------------------------------------------------------------

def _hex_constant(array: np.ndarray) -> str:
    data = np.ascontiguousarray(array, dtype="<f4").tobytes().hex().upper()
    dims = "x".join(map(str, array.shape))
    return f'dense<"0x{data}"> : tensor<{dims}xf32>'


def _harness(name, arg_shapes, res_shapes, batch) -> str:
    """@main: the inputs as constants, one call, every result printed
    bit-exactly as i32."""
    lines = ["  func.func private @printMemrefI32(tensor<*xi32>)",
             "  func.func @main() {"]
    for i, a in enumerate(batch):
        lines.append(f"    %in{i} = arith.constant {_hex_constant(a)}")
    ins = ", ".join(f"%in{i}" for i in range(len(batch)))
    tys = lambda shapes: ", ".join(
        "tensor<%sf32>" % "".join(f"{d}x" for d in s) for s in shapes)
    outs = ", ".join(f"%r#{i}" for i in range(len(res_shapes))) \
        if len(res_shapes) > 1 else "%r"
    lines.append(f"    %r{':%d' % len(res_shapes) if len(res_shapes) > 1 else ''}"
                 f" = func.call @{name}({ins}) : ({tys(arg_shapes)}) -> "
                 f"({tys(res_shapes)})")
    for i, s in enumerate(res_shapes):
        v = outs.split(", ")[i]
        t = "tensor<%sf32>" % "".join(f"{d}x" for d in s)
        ti = t.replace("f32>", "i32>")
        lines += [f"    %b{i} = arith.bitcast {v} : {t} to {ti}",
                  f"    %u{i} = tensor.cast %b{i} : {ti} to tensor<*xi32>",
                  f"    func.call @printMemrefI32(%u{i}) : (tensor<*xi32>) -> ()"]
    lines += ["    return", "  }"]
    return "\n".join(lines) + "\n"


def _append_to_module(ir: str, text: str) -> str:
    end = ir.rstrip().rfind("}")
    if ir.lstrip().startswith("module") or re.search(r"^module\b", ir, re.M):
        return ir[:end] + text + "}\n"
    return ir + "\n" + text


def _parse_outputs(out: str, res_shapes) -> List[np.ndarray]:
    arrays = []
    for chunk in out.split("Unranked Memref")[1:]:
        data = chunk[chunk.index("data =") + len("data ="):]
        ints = [int(t) for t in re.findall(r"-?\d+", data)]
        arrays.append(np.array(ints, dtype=np.int64).astype(np.uint32)
                      .view(np.float32))
    if len(arrays) != len(res_shapes):
        raise TuneError("the compiled model printed %d results, expected %d"
                        % (len(arrays), len(res_shapes)))
    return [a.reshape(s) for a, s in zip(arrays, res_shapes)]


# --------------------------------------------------------------------------
# The search
# --------------------------------------------------------------------------

_BYTES = {"f32": 4, "tf32": 4, "f16": 2, "bf16": 2, "f8E4M3FN": 1,
          "f8E5M2": 1, "f8E4M3FNUZ": 1, "f8E5M2FNUZ": 1}


def _matrix_input_bytes_saved(decided: str) -> int:
    """Bytes the matrix ops' inputs of a decided module save against f32:
    each input's elements times (4 - its element type's bytes), from
    lowp-pin-matrix-ops{list=true}'s remarks."""
    from . import CompileError, compile as fp_compile
    try:
        listed = fp_compile(decided, "lowp-pin-matrix-ops{list=true}")
    except CompileError as e:
        raise TuneError(f"the decided module does not list its matrix ops:"
                        f"\n{e}") from None
    saved = 0
    for d in listed.diagnostics:
        m = re.search(r"remark: matrix op #\d+: .*, \d+ input elements "
                      r"\(([^)]*)\)", d)
        if not m:
            continue
        for part in m.group(1).split(", "):
            n, _, elem = part.partition(" x ")
            saved += int(n) * (4 - _BYTES.get(elem.strip(), 4))
    return saved


def format_ops(ops: Sequence[int]) -> str:
    """Matrix-op numbers as runs: [0, 1, 2, 5, 7, 8] -> "0-2,5,7-8"."""
    runs: List[List[int]] = []
    for i in sorted(ops):
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs) \
        or "-"


def _error(outputs, reference) -> float:
    peak = max(float(np.max(np.abs(r))) if r.size else 0.0 for r in reference)
    worst = 0.0
    for y, r in zip(outputs, reference):
        if not np.all(np.isfinite(y)):
            return float("inf")
        if y.size:
            worst = max(worst, float(np.max(np.abs(y.astype(np.float64) -
                                                   r.astype(np.float64)))))
    return worst / peak if peak > 0 else worst


def tune(ir: str, target: str, inputs, tolerance: float, *,
         expected=None, entry: Optional[str] = None,
         policies: Optional[Sequence[str]] = None, cpu: str = "avx2",
         max_candidates: int = 64, group: Optional[int] = None,
         lowering: str = "loops", jobs: Optional[int] = None,
         log=None) -> TuneResult:
    """Searches for the decision with the most low-precision bytes whose
    error on ``inputs`` stays within ``tolerance``.

    ``inputs``: one numpy array per argument of the entry function (its
    exact shape), or a list of such lists (several calibration batches).
    ``expected``: reference outputs (one array per result, or a list per
    batch); default: the f32 model's outputs through the same lowering.
    ``policies``: the decision policies to try (default: ``fp8`` where the
    target has FP8, then ``auto``, the target's 16-bit format).
    ``lowering``: how candidates execute: ``loops`` (default: the decided
    module's ops as loops, rounded as the IR states; quick to compile) or
    ``x86`` (``lowp-pipeline-x86{target=cpu}``: the CPU kernels; ``cpu``
    ``avx2`` runs on every x86-64 host). A model the loop lowering cannot
    take is run through ``x86`` (the summary says so). ``jobs``: candidates
    compiled and run at the same time (default: the cores this process may
    use). ``max_candidates`` bounds the compiles and runs; a search stopped
    by it keeps the best decision found and says so.
    ``group``: the finest unit of the search, runs of that many consecutive
    matrix ops kept low or pinned together (default: a sixteenth of the
    matrix ops, at least 1; 6 for a 12-layer transformer's 96), which bounds
    the halving to about 2 x 16 candidates per policy whatever the depth.
    Raises TuneError on bad input (naming the cause), never answers all-f32
    silently: when no low-precision candidate is within the tolerance the
    result says so (``all_f32``, ``summary``).
    """
    from . import CompileError, DecisionReport, compile as fp_compile
    from . import target as lookup_target

    if lowering not in ("loops", "x86"):
        raise TuneError(f"lowering must be 'loops' or 'x86', got {lowering!r}")
    if jobs is None:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
            else (os.cpu_count() or 1)
    if not isinstance(jobs, int) or jobs < 1:
        raise TuneError(f"jobs must be a positive integer, got {jobs!r}")
    if not (isinstance(tolerance, (int, float)) and np.isfinite(tolerance)
            and tolerance > 0):
        raise TuneError(f"tolerance must be a positive finite number, got "
                        f"{tolerance!r}")
    try:
        chip = lookup_target(target)
    except Exception as e:  # the table's message lists the targets
        raise TuneError(str(e)) from None
    name, arg_shapes, res_shapes = read_signature(ir, entry)

    # Inputs: one batch or several.
    if len(inputs) and isinstance(inputs[0], (list, tuple)):
        batches = [list(b) for b in inputs]
    else:
        batches = [list(inputs)]
    if not batches or not batches[0]:
        raise TuneError("no calibration inputs")
    for bi, batch in enumerate(batches):
        if len(batch) != len(arg_shapes):
            raise TuneError(f"batch {bi}: @{name} takes {len(arg_shapes)} "
                            f"arguments, got {len(batch)} inputs")
        for i, (a, s) in enumerate(zip(batch, arg_shapes)):
            a = np.asarray(a)
            if tuple(a.shape) != s:
                raise TuneError(f"batch {bi}: input #{i} of @{name} has shape "
                                f"{tuple(a.shape)}, the model expects {s}")
            if not np.all(np.isfinite(a)):
                raise TuneError(f"batch {bi}: input #{i} has NaN or inf")
            batch[i] = a.astype(np.float32)

    runner_libs = ",".join(os.path.join(LLVM_LIB, lib) for lib in [
        "libmlir_c_runner_utils.so", "libmlir_runner_utils.so"])

    pipelines = {"loops": LOOP_LOWERING,
                 "x86": f"lowp-pipeline-x86{{target={cpu}}}"}
    used = [lowering]  # the lowering candidates run through

    def run(decided: str, what: str,
            how: Optional[str] = None) -> List[List[np.ndarray]]:
        how = how or used[0]
        results = []
        for batch in batches:
            program = _append_to_module(
                decided, _harness(name, arg_shapes, res_shapes, batch))
            try:
                llvm = fp_compile(program, pipelines[how]).ir
            except CompileError as e:
                raise TuneError(f"{what} does not lower for the CPU "
                                f"({how}):\n{e}") from None
            # mlir-runner does not load the lowp dialect: drop its module
            # attributes (the lowering has consumed them).
            llvm = re.sub(r"lowp\.target = #lowp\.target<\"[\w-]+\">,?\s*", "",
                          llvm)
            p = subprocess.run(
                [MLIR_RUNNER, "-e", "main", "-entry-point-result=void", "-O0",
                 "-shared-libs=" + runner_libs], input=llvm,
                capture_output=True, text=True)
            if p.returncode != 0:
                raise TuneError(f"{what} does not run (mlir-runner exit "
                                f"{p.returncode}):\n{p.stderr[-3000:]}")
            results.append(_parse_outputs(p.stdout, res_shapes))
        return results

    # The matrix ops the search can pin.
    try:
        listed = fp_compile(ir, "lowp-pin-matrix-ops{list=true}")
    except CompileError as e:
        raise TuneError(f"the model does not parse:\n{e}") from None
    matrix_ops = []
    for d in listed.diagnostics:
        m = re.search(r"remark: matrix op #\d+: (.*?), \d+ input elements",
                      d)
        if m:
            matrix_ops.append(f"{m.group(1)} at {d.split(': remark')[0]}")
    count = len(matrix_ops)
    if group is not None and (not isinstance(group, int) or group < 1):
        raise TuneError(f"group must be a positive integer, got {group!r}")
    unit = group if group is not None else max(1, count // 16)

    # The reference.
    t0 = time.perf_counter()
    fallback = ""
    try:
        f32_outputs = run(ir, "the f32 model")
    except TuneError as e:
        if lowering != "loops":
            raise TuneError(f"the f32 model does not run: {e}") from None
        # Front-end IR the loop lowering does not take (ml_program globals,
        # dense_resource blobs, ...): the x86 pipeline prepares it.
        lines = str(e).splitlines()
        first_line = next((l.strip() for l in lines if "error:" in l),
                          lines[0])
        try:
            f32_outputs = run(ir, "the f32 model", "x86")
        except TuneError as e2:
            raise TuneError(f"the f32 model does not run: {e2}") from None
        used[0] = "x86"
        fallback = (f"candidates ran through lowp-pipeline-x86: the loop "
                    f"lowering failed ({first_line})")
        if log:
            log(fallback)
    for outs in f32_outputs:
        for i, y in enumerate(outs):
            if not np.all(np.isfinite(y)):
                raise TuneError(f"the f32 model's result #{i} has NaN or inf "
                                "on these inputs: no decision can be "
                                "measured against it")
    if expected is not None:
        exp = expected if isinstance(expected[0], (list, tuple)) \
            else [expected]
        if len(exp) != len(batches):
            raise TuneError(f"expected holds {len(exp)} batches, inputs "
                            f"{len(batches)}")
        reference = []
        for bi, outs in enumerate(exp):
            if len(outs) != len(res_shapes):
                raise TuneError(f"expected batch {bi}: @{name} has "
                                f"{len(res_shapes)} results, got {len(outs)}")
            arrays = []
            for i, (o, s) in enumerate(zip(outs, res_shapes)):
                o = np.asarray(o, dtype=np.float64)
                if tuple(o.shape) != s:
                    raise TuneError(f"expected batch {bi}: result #{i} has "
                                    f"shape {tuple(o.shape)}, the model "
                                    f"returns {s}")
                arrays.append(o)
            reference.append(arrays)
        f32_error = max(_error(o, r) for o, r in zip(f32_outputs, reference))
        if f32_error > tolerance:
            raise TuneError(f"the f32 model itself has error {f32_error:.3g} "
                            f"against the expected outputs, above the "
                            f"tolerance {tolerance:.3g}: no decision can "
                            f"meet it")
    else:
        reference = f32_outputs
    f32_seconds = time.perf_counter() - t0

    sixteen = chip.preferred16 or ""
    has_fp8 = chip.fp8_flavor not in ("none", "")
    if policies is None:
        # The 16-bit policy first: the ops it must keep f32 stay f32 under
        # FP8 too, and the FP8 search keeps the others it cannot take at the
        # 16-bit format rather than f32 (Transformer Engine's bf16 layers).
        policies = ["auto"] + (["fp8"] if has_fp8 else [])
    candidates: List[Candidate] = []
    decided_ir: Dict[tuple, tuple] = {}
    memo: Dict[tuple, Candidate] = {}
    all_ops = frozenset(range(count))
    # Candidates run on `jobs` threads: the compiles release the GIL and the
    # JIT runs in its own process. One lock guards the tables; a key being
    # evaluated is waited for, not evaluated twice.
    lock = threading.Lock()
    in_flight: Dict[tuple, threading.Event] = {}
    slots = threading.Semaphore(jobs)

    def evaluate(policy: str, pin16: FrozenSet[int],
                 pin32: FrozenSet[int]) -> Candidate:
        key = (policy, pin16, pin32)
        with lock:
            if key in memo:
                return memo[key]
            waiting = in_flight.get(key)
            if waiting is None:
                in_flight[key] = threading.Event()
        if waiting is not None:
            waiting.wait()
            with lock:
                if key in memo:
                    return memo[key]
            raise TuneError("a candidate failed on another thread")
        try:
            with slots:
                return _evaluate(policy, pin16, pin32, key)
        finally:
            in_flight[key].set()

    def _evaluate(policy: str, pin16: FrozenSet[int], pin32: FrozenSet[int],
                  key) -> Candidate:
        t = time.perf_counter()
        steps = []
        for ops, precision in ((pin32, "f32"), (pin16, sixteen)):
            if ops:
                steps.append("lowp-pin-matrix-ops{ops=%s precision=%s}" % (
                    ",".join(map(str, sorted(ops))), precision))
        with tempfile.TemporaryDirectory(prefix="fpopt-tune-") as tmp:
            report = os.path.join(tmp, "report.json")
            # The pipeline a user reruns has no report path (a temporary
            # file here).
            pipeline = ",".join(steps + [
                f"lowp-auto-mixed-precision{{target={target} "
                f"policy={policy}}}"])
            steps.append(f'lowp-auto-mixed-precision{{target={target} '
                         f'policy={policy} report="{report}"}}')
            try:
                decided = fp_compile(ir, ",".join(steps)).ir
            except CompileError as e:
                raise TuneError(f"the decision pipeline fails on the model:"
                                f"\n{e}") from None
            with open(report) as f:
                saved = DecisionReport.from_json(f.read()).bytes_saved
        outs = run(decided, f"the decision {pipeline}")
        err = max(_error(o, r) for o, r in zip(outs, reference))
        # Bytes the decided module's matrix inputs save against f32, from
        # the element types the decision gave them.
        low_bytes = _matrix_input_bytes_saved(decided)
        c = Candidate(policy, sorted(pin32), err, saved, low_bytes,
                      count - len(pin32) - len(pin16),
                      time.perf_counter() - t, err <= tolerance,
                      sorted(pin16))
        with lock:
            memo[key] = c
            decided_ir[key] = (decided, pipeline)
            candidates.append(c)
        if log:
            extra = f" kept16={format_ops(pin16)}" if pin16 else ""
            log(f"{policy} pinned={format_ops(pin32)}{extra} error={err:.3g} "
                f"bytes_saved={saved} ({c.seconds:.1f} s)")
        return c

    stopped = []

    def in_parallel(first, second):
        """first() and second() at the same time (when jobs > 1)."""
        if jobs == 1:
            return first(), second()
        box: Dict[str, object] = {}

        def other():
            try:
                box["value"] = second()
            except BaseException as e:  # re-raised on the calling thread
                box["error"] = e
        thread = threading.Thread(target=other)
        thread.start()
        try:
            a = first()
        finally:
            thread.join()
        if "error" in box:
            raise box["error"]
        return a, box["value"]

    def search(policy: str, universe: List[int], wide: FrozenSet[int],
               fallback16: bool) -> Optional[Candidate]:
        """The candidate of `policy` with the largest low subset of
        `universe` within the tolerance; `wide` stays f32, the rest of
        `universe` at f32 or (fallback16) at the 16-bit format."""
        def pins(low: List[int]):
            rest = frozenset(universe) - frozenset(low)
            return (rest, wide) if fallback16 else (frozenset(), wide | rest)

        def candidate(low: List[int]) -> Candidate:
            return evaluate(policy, *pins(low))

        def low_set(low: List[int]) -> List[int]:
            """A subset of `low` that can be low together, by halving."""
            if not low:
                return []
            with lock:
                full = len(memo) >= max_candidates
            if full:
                stopped.append(policy)
                return []
            if candidate(low).within_tolerance:
                return low
            if len(low) <= unit:
                return []
            # Halves on unit boundaries: both are non-empty. They are
            # independent: the second runs on its own thread.
            half = ((len(low) + unit - 1) // unit // 2) * unit
            a, b = in_parallel(lambda: low_set(low[:half]),
                               lambda: low_set(low[half:]))
            if a and b:
                if candidate(a + b).within_tolerance:
                    return a + b
                ca, cb = candidate(a), candidate(b)
                return a if ca.low_input_bytes >= cb.low_input_bytes else b
            return a or b

        base = candidate(universe)
        if base.within_tolerance:
            return base
        low = low_set(universe)
        return candidate(low) if low else None

    best: Optional[Candidate] = None
    wide = frozenset()  # what the 16-bit policy must keep f32
    for policy in policies:
        fallback16 = policy == "fp8" and bool(sixteen) and "auto" in policies
        universe = sorted(all_ops - wide) if fallback16 else list(range(count))
        chosen = search(policy, universe, wide if fallback16 else frozenset(),
                        fallback16) if universe else None
        if policy == "auto":
            wide = frozenset(chosen.pinned) if chosen else all_ops
        if chosen and chosen.within_tolerance and \
                chosen.low_matrix_ops + len(chosen.pinned16) > 0 and (
                    best is None or (chosen.low_input_bytes,
                                     chosen.bytes_saved) >
                    (best.low_input_bytes, best.bytes_saved)):
            best = chosen

    if best is None:
        # Nothing low fits: the answer is the f32 model, said loudly.
        f32 = Candidate("none", list(range(count)), 0.0 if expected is None
                        else max(_error(o, r) for o, r in
                                 zip(f32_outputs, reference)), 0, 0, 0,
                        f32_seconds, True)
        candidates.append(f32)
        return TuneResult(ir, "", f32, candidates, matrix_ops, True,
                          f"no low-precision decision of {len(candidates) - 1}"
                          f" tried is within tolerance {tolerance:.3g} "
                          f"(smallest error "
                          f"{min(c.error for c in candidates[:-1]):.3g}); "
                          f"the model stays f32"
                          + (f"; {fallback}" if fallback else ""))
    decided, pipeline = decided_ir[(best.policy, frozenset(best.pinned16),
                                    frozenset(best.pinned))]
    kept16 = (f", {len(best.pinned16)} kept at {sixteen} instead of FP8"
              if best.pinned16 else "")
    summary = (f"policy {best.policy}, {len(best.pinned)} of {count} matrix "
               f"ops pinned to f32{kept16}, error {best.error:.3g} <= "
               f"{tolerance:.3g},"
               f" {best.low_input_bytes} matrix-input bytes saved; "
               f"{len(candidates)} candidates")
    if stopped:
        summary += (f"; the search stopped at max_candidates="
                    f"{max_candidates} (policy {stopped[0]})")
    if fallback:
        summary += "; " + fallback
    return TuneResult(decided, pipeline, best, candidates, matrix_ops, False,
                      summary)
