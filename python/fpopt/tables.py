"""fp-opt's two sources of truth as Python data.

``float_formats()`` holds the numeric facts of every float format (derived
from LLVM's APFloat semantics, exactly what the passes use) and ``targets()``
the hardware capability table, keyed by the vendors' chip names.
"""

from __future__ import annotations

import functools
import types
from dataclasses import dataclass
from typing import FrozenSet, Mapping, Optional, Tuple

from . import _fpopt


@dataclass(frozen=True)
class FloatFormat:
    """Numeric facts of one float format (a row of ``fp-opt --print-format-table``)."""

    name: str  #: MLIR spelling, e.g. "f8E4M3FN"
    bits: int
    exponent_bits: int
    mantissa_bits: int  #: explicit fraction bits (precision - 1)
    has_sign: bool
    max_finite: float
    min_normal: float
    min_subnormal: float
    epsilon: float  #: distance from 1.0 to the next larger value
    binades: float  #: log2(max_finite / min_subnormal)
    normal_binades: float  #: log2(max_finite / min_normal)
    has_inf: bool
    has_nan: bool
    has_negative_zero: bool


@dataclass(frozen=True)
class Target:
    """One row of the hardware capability table (``fp-opt --print-target-table``)."""

    name: str  #: vendor chip name: "sm_90", "gfx942", "tpu-v5e", ...
    vendor: str  #: "nvidia", "amd", "google", "x86"
    matrix_formats: FrozenSet[str]  #: formats with dense matrix units
    elementwise_formats: FrozenSet[str]  #: native elementwise arithmetic
    native_conversions: FrozenSet[str]  #: native conversions to/from f32
    preferred16: Optional[str]  #: 16-bit type automatic mixed precision uses
    fp8_flavor: str  #: "none", "FN" (OCP) or "FNUZ" (AMD MI300)
    tile16: Tuple[int, int, int]  #: matrix tile (M, N, K) for 16-bit inputs
    tile8: Tuple[int, int, int]  #: matrix tile for 8-bit inputs
    vector_tile: Tuple[int, int]  #: vector-unit layout tile (TPU (8, 128))
    llvm_cpu: str
    llvm_features: str
    l2_bytes: int  #: per-core L2 (CPU rows; 0 elsewhere)
    f32_k_block: int  #: k block of the x86 f32 GEMM kernel (0 off x86)
    #: multiply-adds per cycle and core of f32 FMAs and of vdpbf16ps (x86
    #: rows; 0 where not measured): the x86 kernels use vdpbf16ps only
    #: where it is not slower
    f32_fma_macs_per_cycle: int
    bf16_dot_macs_per_cycle: int
    #: CPU rows: the extensions (/proc/cpuinfo flags) the kernels use, the
    #: AMX ones used under ``amx=true``, and the vendor_id of the row's
    #: cores ("" for a generic row); empty elsewhere
    cpu_features: FrozenSet[str]
    amx_features: FrozenSet[str]
    host_vendor: str
    vector_bits: int  #: CPU rows' vector register width (0 elsewhere)
    subgroup_size: int  #: GPU rows' warp / wavefront (0 elsewhere)

    def has_matrix_unit(self, fmt: str) -> bool:
        return fmt in self.matrix_formats

    def has_native_arithmetic(self, fmt: str) -> bool:
        return fmt in self.elementwise_formats


@functools.lru_cache(maxsize=None)
def float_formats() -> Mapping[str, FloatFormat]:
    """The format table, keyed by MLIR type name, in table order (read-only)."""
    return types.MappingProxyType(
        {row["name"]: FloatFormat(**row) for row in _fpopt.float_formats()})


@functools.lru_cache(maxsize=None)
def targets() -> Mapping[str, Target]:
    """The capability table, keyed by chip name, in table order (read-only)."""
    result = {}
    for row in _fpopt.targets():
        for key in ("matrix_formats", "elementwise_formats",
                    "native_conversions", "cpu_features", "amx_features"):
            row[key] = frozenset(row[key])
        for key in ("tile16", "tile8", "vector_tile"):
            row[key] = tuple(row[key])
        result[row["name"]] = Target(**row)
    return types.MappingProxyType(result)


def float_format(name: str) -> FloatFormat:
    """The facts of format ``name``; KeyError lists the known formats."""
    table = float_formats()
    if name not in table:
        raise KeyError(f"unknown float format '{name}'; known: "
                       + ", ".join(table))
    return table[name]


def target(chip: str) -> Target:
    """The capability row of ``chip``; KeyError lists the known chips."""
    table = targets()
    if chip not in table:
        raise KeyError(f"unknown target '{chip}'; known: " + ", ".join(table))
    return table[chip]
