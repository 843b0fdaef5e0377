"""The decision report of ``lowp-infer-precision`` as Python objects.

The pass writes its report as JSON (see docs/ of the pass); this module turns
that JSON into dataclasses: the chosen low-precision format, the per-op-kind
counts of chosen precisions, the ops kept at their original precision with
the reason, the casts inserted and the tensor bytes before and after.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Union


@dataclass(frozen=True)
class TensorBytes:
    """Bytes of the statically shaped float tensors a lowering materializes,
    split by role (conversions a producer or consumer fuses are no tensors;
    docs/passes/write-precision-report.md)."""

    arguments: int = 0
    results: int = 0
    intermediates: int = 0
    conversions: int = 0  #: materialized conversions' results
    conversions_fused: int = 0  #: number of conversions fused
    conversions_materialized: int = 0  #: number of conversions materialized

    @property
    def total(self) -> int:
        return (self.arguments + self.results + self.intermediates +
                self.conversions)

    @staticmethod
    def from_json(obj: Dict[str, Any]) -> "TensorBytes":
        return TensorBytes(int(obj.get("arguments", 0)),
                           int(obj.get("results", 0)),
                           int(obj.get("intermediates", 0)),
                           int(obj.get("conversions", 0)),
                           int(obj.get("conversions_fused", 0)),
                           int(obj.get("conversions_materialized", 0)))


@dataclass(frozen=True)
class DemotedArgument:
    """A function argument whose type demote-weights narrowed."""

    function: str
    index: int
    type: str  #: the type a caller now passes, e.g. "tensor<64x32xbf16>"
    reason: str


@dataclass(frozen=True)
class KeptWide:
    """An op left at its original precision, and why."""

    op: str  #: op name, e.g. "math.exp"
    location: str
    precision: str  #: the element type it kept, e.g. "f32"
    op_class: str  #: matrix / sensitive / follow / transparent / none
    reason: str  #: the rule or class reason that decided


@dataclass(frozen=True)
class DecisionReport:
    """Everything precision inference decided for one module."""

    low: str  #: the low-precision format ("f16", "bf16", "none")
    accumulate: str  #: accumulator type of matrix ops
    target: str  #: chip name ("" when none)
    note: str  #: why nothing changed, when nothing did
    #: op kind -> precision -> number of ops
    counts: Dict[str, Dict[str, int]] = field(default_factory=dict)
    casts_inserted: int = 0
    constants_rounded: int = 0
    bytes_before: TensorBytes = TensorBytes()
    bytes_after: TensorBytes = TensorBytes()
    kept_wide: List[KeptWide] = field(default_factory=list)
    #: matrix ops by the element type of their inputs ("f8E4M3FN": 3)
    matrix_inputs: Dict[str, int] = field(default_factory=dict)
    demoted_arguments: List[DemotedArgument] = field(default_factory=list)

    @property
    def bytes_saved(self) -> int:
        return self.bytes_before.total - self.bytes_after.total

    @property
    def bytes_ratio(self) -> float:
        """Tensor bytes after the decisions over those before."""
        before = self.bytes_before.total
        return self.bytes_after.total / before if before else 1.0

    def ops_in(self, precision: str) -> int:
        """Number of ops whose float values got ``precision``."""
        return sum(by.get(precision, 0) for by in self.counts.values())

    @staticmethod
    def from_json(data: Union[str, bytes, Dict[str, Any]]) -> "DecisionReport":
        """Builds a report from the pass's JSON (text or parsed object)."""
        obj = json.loads(data) if isinstance(data, (str, bytes)) else data
        kept = [KeptWide(k["op"], k.get("loc", ""), k.get("precision", ""),
                         k.get("class", ""), k.get("reason", ""))
                for k in obj.get("kept_wide", [])]
        counts = {kind: {prec: int(n) for prec, n in by.items()}
                  for kind, by in obj.get("counts", {}).items()}
        return DecisionReport(
            low=obj.get("low", ""), accumulate=obj.get("accumulate", ""),
            target=obj.get("target", ""), note=obj.get("note", ""),
            counts=counts,
            casts_inserted=int(obj.get("casts_inserted", 0)),
            constants_rounded=int(obj.get("constants_rounded", 0)),
            bytes_before=TensorBytes.from_json(obj.get("bytes_before", {})),
            bytes_after=TensorBytes.from_json(obj.get("bytes_after", {})),
            kept_wide=kept,
            matrix_inputs={k: int(n) for k, n in
                           obj.get("matrix_inputs", {}).items()},
            demoted_arguments=[
                DemotedArgument(d["function"], int(d["index"]), d["type"],
                                d.get("reason", ""))
                for d in obj.get("demoted_arguments", [])])
