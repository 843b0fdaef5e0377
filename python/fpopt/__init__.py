"""fp-opt from Python.

Runs fp-opt's passes and pipelines (next to every upstream MLIR pass) on
textual MLIR, exposes the format and target tables, builds the lowp
attributes, parses decision reports, and provides numpy reference rounding
to the low-precision formats::

    import fpopt
    out = fpopt.run_pipeline(ir, "lowp-auto-mixed-precision{target=sm_90}")

The package stands on fp-opt's C API (libFpOptCAPI); MLIR's own Python
bindings are not needed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import warnings
from dataclasses import dataclass
from typing import Dict, List, Optional, Union

from . import _fpopt
from . import numerics
from .report import DecisionReport, KeptWide, TensorBytes
from .tables import (FloatFormat, Target, float_format, float_formats, target,
                     targets)
from .tune import Candidate, TuneError, TuneResult, tune

__version__: str = _fpopt.version

__all__ = [
    "CompileError", "CompileResult", "LoweredModule", "DecisionReport", "FloatFormat",
    "KeptWide", "PrecisionGraph", "Target", "TensorBytes", "compile",
    "describe_attr", "precision_graph", "render_svg",
    "FP8Decision", "InferenceResult", "auto_mixed_precision",
    "float_format", "select_fp8_format",
    "float_formats", "numerics", "policy_attr",
    "lower_to_bitcode", "run_pipeline", "stats_attr", "target", "target_attr", "targets",
    "Candidate", "TuneError", "TuneResult", "tune",
    "Argument", "Signature", "function_signature",
]


class CompileError(Exception):
    """A module failed to parse, or a pipeline failed to parse or run.

    ``diagnostics`` holds every diagnostic text ("loc: error: message",
    notes on following lines); ``stage`` is "parse", "pipeline" or (for
    lower_to_bitcode) "translate".
    """

    def __init__(self, stage: str, pipeline: str, diagnostics: List[str]):
        self.stage = stage
        self.pipeline = pipeline
        self.diagnostics = list(diagnostics)
        what = ("parsing the input" if stage == "parse" else
                f"translating the result of pipeline '{pipeline}' to LLVM IR"
                if stage == "translate" else f"running pipeline '{pipeline}'")
        text = "".join(self.diagnostics).rstrip() or "(no diagnostics)"
        super().__init__(f"fp-opt failed {what}:\n{text}")


@dataclass(frozen=True)
class CompileResult:
    """The transformed module and the warnings/remarks emitted on the way."""

    ir: str
    diagnostics: List[str]

    def prepacked_arguments(self, function: str = "forward") -> List[int]:
        """With ``lowp-pipeline-x86{prepack=true}``: the numbers of the
        arguments of ``function`` that now take packed weights, in the order
        of ``<function>_prepack``'s arguments and results (read off the
        remark ``weights of 'F' (arguments 1, 3) are packed once, by
        'F_prepack'``); empty when none was split out."""
        return _prepacked_arguments(self.diagnostics, function)


def _prepacked_arguments(diagnostics: List[str], function: str) -> List[int]:
    pattern = re.compile(r"weights of '" + re.escape(function) +
                         r"' \(arguments? ([0-9, ]+)\) are packed once")
    for d in diagnostics:
        m = pattern.search(d)
        if m:
            return [int(i) for i in m.group(1).split(",")]
    return []


@dataclass(frozen=True)
class LoweredModule:
    """A module lowered to the LLVM dialect and translated to LLVM IR in
    this process (lower_to_bitcode): no module text on the way."""

    bitcode: bytes
    #: Every LLVM function of the module (declarations too) -> its type as
    #: MLIR prints it (``!llvm.func<void (ptr, ptr, i64)>``).
    functions: Dict[str, str]
    diagnostics: List[str]

    def prepacked_arguments(self, function: str = "forward") -> List[int]:
        """As CompileResult.prepacked_arguments."""
        return _prepacked_arguments(self.diagnostics, function)


def lower_to_bitcode(ir: str, pipeline: str, *,
                     source_name: str = "<input>") -> LoweredModule:
    """Parses ``ir``, runs ``pipeline`` (one that ends in the LLVM dialect,
    such as lowp-pipeline-x86) and translates the result to LLVM bitcode,
    all in this process: what ``compile(ir, pipeline)`` followed by
    ``mlir-translate --mlir-to-llvmir`` computes, without printing and
    parsing the lowered module. Raises CompileError (stage "translate"
    when an op has no translation to LLVM IR)."""
    ok, stage, bitcode, diagnostics, functions = _fpopt.lower_to_llvm_bitcode(
        ir, pipeline, source_name)
    if not ok:
        raise CompileError(stage, pipeline, diagnostics)
    return LoweredModule(bitcode, dict(functions), diagnostics)


def compile(ir: str, pipeline: Optional[str] = None, *,
            source_name: str = "<input>", target: Optional[str] = None,
            policy: str = "auto", threads: int = 1, function: Optional[str] = None,
            prepack: bool = False, demote_weights: bool = False,
            demote_state: Union[bool, str] = False,
            x86_options: str = "", cache_dir: Optional[str] = None,
            lowering: str = "x86", line_tables: bool = False):
    """Two uses, told apart by ``pipeline``:

    ``fpopt.compile(ir, pipeline)`` parses ``ir`` and runs ``pipeline``
    (mlir-opt's textual form) on it, returning a CompileResult (the module
    text and the diagnostics). ``pipeline`` is a pass list such as
    ``"lowp-auto-mixed-precision{target=sm_90},canonicalize"`` or an
    anchored one such as ``"builtin.module(func.func(canonicalize))"``.

    ``fpopt.compile(ir, target=..., policy=..., threads=...)`` (no
    pipeline) compiles ``ir`` to machine code for this x86 CPU and returns a
    ``runtime.CompiledFunction``, a callable on numpy arrays: the decisions
    (``lowp-auto-mixed-precision{target policy}``; none for ``policy="f32"``),
    ``lowp-pipeline-x86{target threads prepack}`` (``x86_options`` added),
    llc and a shared object cached on disk (docs/embedding.md). ``target``
    None is the host's row of the capability table; ``function`` None is
    the entry function. ``lowering="reference"`` builds the decided module
    through lowp-pipeline-reference instead (plain loops, every op rounded to
    its format): the check the x86 kernels are held to; it takes any row of
the table as ``target`` (FP8 decisions for sm_90, emulated on this CPU). With
    ``policy="fp8-weights"`` the weights become E4M3 arguments with a scale
    argument each (``CompiledFunction.fp8_channel_scales``); ``bind()``
    quantizes float weights given for them. ``demote_state=True``
    (``demote-state``): state the function returns updated, such as a
    decoder's KV cache, read only in the decided 16-bit format, is taken
    and returned in that format (bf16 results are uint16 arrays of raw
    bits, which pass back in unchanged); ``demote_state="f8E4M3FN"`` (or
    another 8-bit format, ``state-format``) stores it in FP8 instead: uint8
    arrays of codes, rounded to nearest even with saturation and no scale
    where the function returns them. ``line_tables=True`` builds the
    object with line tables into the decided module, written to the build
    cache without its locations (``<hash>.decided.mlir``): profilers and
    debuggers (``perf report --sort srcline``) then name the op of the
    decided module each instruction comes from (bench/models/profile.py
    --lines).

    Raises CompileError when a pipeline fails, runtime.BuildError when the
    LLVM tools do.
    """
    if pipeline is None:
        from .runtime import compile_module
        return compile_module(ir, target=target, policy=policy, threads=threads,
                              function=function, prepack=prepack,
                              demote_weights=demote_weights, demote_state=demote_state,
                              x86_options=x86_options,
                              cache_dir=cache_dir, source_name=source_name,
                              lowering=lowering, line_tables=line_tables)
    ok, stage, output, diagnostics = _fpopt.run_pipeline(ir, pipeline,
                                                         source_name)
    if not ok:
        raise CompileError(stage, pipeline, diagnostics)
    return CompileResult(output, diagnostics)


def run_pipeline(ir: str, pipeline: str) -> str:
    """Runs ``pipeline`` on the module ``ir`` and returns the result as text.

    Raises CompileError (carrying the diagnostics) on failure.
    """
    return compile(ir, pipeline).ir


@dataclass(frozen=True)
class Argument:
    """One argument of a compiled function: the type a caller passes."""

    type: str  #: e.g. "tensor<64x32xbf16>"
    attributes: Dict[str, str]  #: e.g. {"lowp.fp8_scale": "3 : i64"}

    @property
    def element_type(self) -> str:
        """The element type of a tensor ("bf16"), else the type itself."""
        if self.type.startswith("tensor<") and self.type.endswith(">"):
            return self.type[len("tensor<"):-1].split("x")[-1]
        return self.type


@dataclass(frozen=True)
class Signature:
    """A function's argument and result types after compilation."""

    function: str
    arguments: List[Argument]
    results: List[str]


def function_signature(ir: str, function: Optional[str] = None) -> Signature:
    """The signature of ``function`` (None: the entry function, the one
    public function nothing in the module calls) of the module ``ir``.

    After ``demote-weights=arguments`` it says which arguments a caller
    must now pass in bf16/f16 or FP8, and where each FP8 argument's scale
    goes (``lowp.fp8_scale``: a constant scale, or the index of the scale
    argument). Raises ValueError when there is no such function.
    """
    ok, text = _fpopt.function_signature(ir, function or "")
    if not ok:
        raise ValueError(text)
    data = json.loads(text)
    return Signature(data["function"],
                     [Argument(a["type"], dict(a["attributes"]))
                      for a in data["arguments"]],
                     list(data["results"]))


@dataclass(frozen=True)
class InferenceResult:
    """A module after fp-opt's precision decisions, and why they were made."""

    ir: str
    report: DecisionReport
    diagnostics: List[str]

    def signature(self, function: Optional[str] = None) -> Signature:
        """The decided module's signature (see function_signature)."""
        return function_signature(self.ir, function)


def auto_mixed_precision(ir: str, target: Optional[str] = None,
                         policy: str = "auto", *,
                         demote_weights: str = "none",
                         source_name: str = "<input>") -> InferenceResult:
    """Runs ``lowp-auto-mixed-precision`` and returns the decided module with
    its decision report as Python objects.

    ``target`` is a chip of the capability table (None: the module's
    ``lowp.target``); ``policy`` is ``auto``, ``f16``, ``bf16``, ``fp8``,
    ``fp8-weights`` (``auto``, then weight arguments stored as E4M3 with a
    scale per output channel: lowp-fp8-weight-only) or ``autocast``
    (PyTorch autocast's decision, a baseline: matrix inputs 16-bit,
    everything else f32). ``demote_weights="arguments"`` lets
    arguments read only as matrix op inputs take their decided format;
    ``result.signature()`` says what the caller now passes.
    Raises CompileError on failure.
    """
    with tempfile.TemporaryDirectory(prefix="fpopt-") as tmp:
        report_path = os.path.join(tmp, "report.json")
        options = [f"policy={policy}", f"demote-weights={demote_weights}",
                   f'report="{report_path}"']
        if target is not None:
            options.insert(0, f"target={target}")
        pipeline = "lowp-auto-mixed-precision{%s}" % " ".join(options)
        result = compile(ir, pipeline, source_name=source_name)
        with open(report_path) as f:
            report = DecisionReport.from_json(f.read())
    return InferenceResult(result.ir, report, result.diagnostics)


@dataclass(frozen=True)
class PrecisionGraph:
    """The picture of a module's precisions (lowp-view-precision-graph)."""

    dot: str  #: Graphviz DOT text
    svg: Optional[str]  #: the rendered SVG, when it was asked for


def render_svg(dot: str) -> str:
    """Renders DOT text to SVG with Graphviz's ``dot``.

    Raises RuntimeError when Graphviz is not installed or fails.
    """
    program = shutil.which("dot")
    if program is None:
        raise RuntimeError("rendering SVG needs Graphviz's 'dot', which is "
                           "not on PATH (Debian: apt-get install graphviz)")
    result = subprocess.run([program, "-Tsvg"], input=dot.encode(),
                            capture_output=True)
    if result.returncode != 0:
        raise RuntimeError("dot failed: " +
                           result.stderr.decode(errors="replace").strip())
    return result.stdout.decode("utf-8", errors="replace")


def precision_graph(ir: str, pipeline: Optional[str] = None, *,
                    svg: bool = False, collapse_threshold: int = 64,
                    source_name: str = "<input>") -> PrecisionGraph:
    """Draws each function of ``ir`` coloured by precision.

    ``pipeline`` (e.g. ``"lowp-auto-mixed-precision{target=sm_90}"``) runs
    first, so the picture shows what it decided; without it the module is
    drawn as it is. ``collapse_threshold`` is the pass option of the same
    name (-1: never collapse repeated blocks). With ``svg`` the DOT is also
    rendered (RuntimeError without Graphviz). Raises CompileError when the
    pipeline fails.
    """
    with tempfile.TemporaryDirectory(prefix="fpopt-") as tmp:
        dot_path = os.path.join(tmp, "graph.dot")
        view = ('lowp-view-precision-graph{output="%s" '
                "collapse-threshold=%d}" % (dot_path, collapse_threshold))
        full = f"{pipeline},{view}" if pipeline else view
        compile(ir, full, source_name=source_name)
        with open(dot_path) as f:
            dot = f.read()
    return PrecisionGraph(dot, render_svg(dot) if svg else None)


@dataclass(frozen=True)
class FP8Decision:
    """What ``lowp-select-fp8-formats`` chooses for one tensor."""

    format: str  #: "f8E4M3FN", "f8E5M2", their FNUZ forms, or "bf16"
    scale: Optional[float]  #: static scale fp8_max / amax / 2**margin
    binades_needed: float  #: log2(amax / min); 0 without statistics
    binades_e4m3: float  #: binades E4M3 holds after scaling with the margin
    binades_e5m2: float
    reason: str


_TENSOR_ROLES = {"activation": 0, "weight": 1, "gradient": 2}
_FP8_RECIPES = {"hybrid": 0, "e4m3": 1, "e5m2": 2, "range": 3}


def select_fp8_format(target: str, role: str = "activation", *,
                      amax: Optional[float] = None,
                      min: Optional[float] = None, recipe: str = "hybrid",
                      margin: int = 0,
                      allow_bf16_fallback: bool = False) -> FP8Decision:
    """The FP8 format (and static scale) fp-opt chooses for one tensor.

    ``role`` is activation, weight or gradient; ``amax``/``min`` are the
    tensor's calibration statistics (as in ``#lowp.stats``; give both or
    neither); ``recipe`` is hybrid, e4m3, e5m2 or range. The same function
    the ``lowp-select-fp8-formats`` pass calls. ValueError on failure (an
    unknown chip, a target without FP8 and no fallback).
    """
    if role not in _TENSOR_ROLES:
        raise ValueError(f"role must be one of {list(_TENSOR_ROLES)}")
    if recipe not in _FP8_RECIPES:
        raise ValueError(f"recipe must be one of {list(_FP8_RECIPES)}")
    if (amax is None) != (min is None):
        raise ValueError("give both amax and min, or neither")
    has_stats = amax is not None
    ok, fmt, scale, needed, e4m3, e5m2, message = _fpopt.select_fp8_format(
        target, _TENSOR_ROLES[role], has_stats,
        float(amax) if has_stats else 0.0, float(min) if has_stats else 0.0,
        _FP8_RECIPES[recipe], int(margin), bool(allow_bf16_fallback))
    if not ok:
        raise ValueError(message)
    return FP8Decision(fmt, scale, needed, e4m3, e5m2, message)


_LOSS_SCALE_MODES = {"none": 0, "static": 1, "dynamic": 2}


def target_attr(target: Optional[str] = None, *,
                chip: Optional[str] = None) -> str:
    """``#lowp.target<"...">`` for ``target``, a row of the capability
    table; ValueError for names not in the table. ``chip=`` is the
    deprecated spelling of ``target`` (one release; DeprecationWarning)."""
    if chip is not None:
        warnings.warn("fpopt.target_attr(chip=...) is deprecated; use target=",
                      DeprecationWarning, stacklevel=2)
        if target is None:
            target = chip
    if target is None:
        raise TypeError("target_attr() needs a target")
    return _fpopt.target_attr(target)


def policy_attr(compute: str, accumulate: str = "f32", storage: str = "f32",
                loss_scale: str = "none") -> str:
    """``#lowp.policy<...>`` from MLIR float type names; ValueError if invalid."""
    if loss_scale not in _LOSS_SCALE_MODES:
        raise ValueError(f"loss_scale must be one of {list(_LOSS_SCALE_MODES)}")
    return _fpopt.policy_attr(compute, accumulate, storage,
                              _LOSS_SCALE_MODES[loss_scale])


def stats_attr(amax: float, min: float, samples: Optional[int] = None) -> str:
    """``#lowp.stats<amax = ..., min = ...[, samples = n]>``; ValueError if invalid."""
    return _fpopt.stats_attr(float(amax), float(min),
                             -1 if samples is None else int(samples))


def describe_attr(text: str) -> dict:
    """Parses a lowp attribute and returns its kind and parameters."""
    d = _fpopt.describe_attr(text)
    if d["kind"] == "policy":
        d["loss_scale"] = {v: k for k, v in _LOSS_SCALE_MODES.items()}[
            d["loss_scale"]]
    return d
