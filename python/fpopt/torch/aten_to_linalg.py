"""aten graph -> linalg on tensors, written as torch-mlir's TorchToLinalg
writes it (the IR real exports contain, not a tidied form):

- convolutions: ``tensor.pad`` of the input, the bias broadcast into the
  init by a ``linalg.generic`` (or a zero fill), ``linalg.conv_2d_nchw_fchw``;
  ``groups == channels`` as ``linalg.depthwise_conv_2d_nchw_chw`` on the
  collapsed filter; other groups as ``linalg.conv_2d_ngchw_gfchw`` between
  ``expand_shape`` / ``collapse_shape``;
- transposes and permutes: a copy ``linalg.generic`` whose output map is
  permuted (not ``linalg.transpose``);
- ``aten.linear``: the weight transposed, then ``linalg.matmul`` on a 2-D
  input, or broadcast over the batch dimensions and ``linalg.batch_matmul``
  on a 3-D/4-D one; the bias added by a generic;
- eval batch norm unfolded: ``(x - mean) * rsqrt(var + eps) * w + b`` in one
  generic, eps an f64 constant truncated in the body;
- elementwise ops one generic each, size-1 broadcast dimensions as constant
  0 in the maps; ``relu`` as ``cmpf ugt`` + ``select``; hardswish,
  hardsigmoid, silu and softmax decomposed into the ops torch-mlir's
  decompositions produce; layer norm as reductions + an elementwise generic;
- reductions as ``linalg.generic`` with a filled init; pooling as
  ``linalg.pooling_nchw_max`` / ``_sum`` over a padded input;
- training steps' backward ops: convolution gradients as convolutions
  (input) and im2col GEMMs or grouped contractions (weight), loss and
  activation gradients as elementwise generics; a running statistic
  written in place (``aten.copy_``) is the step's result for its argument.

Ops outside this set raise ``UnsupportedOp`` naming the op, what it was
asked to do and the module path.
"""

from __future__ import annotations

import json
import math
import operator
import re
import struct
from dataclasses import asdict, dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch
import torch.fx

from .tracing import TracedModule, UnsupportedOp

aten = torch.ops.aten


_DTYPES = {torch.float32: "f32", torch.float64: "f64", torch.float16: "f16",
           torch.bfloat16: "bf16", torch.int64: "i64", torch.int32: "i32",
           torch.int8: "i8", torch.bool: "i1"}


def mlir_type(dtype: torch.dtype) -> str:
    try:
        return _DTYPES[dtype]
    except KeyError:
        raise UnsupportedOp("dtype", f"tensors of {dtype} are not supported") from None


def ttype(shape: Sequence[int], elt: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + elt + ">"


def float_literal(value: float, elt: str = "f32") -> str:
    if math.isinf(value) or math.isnan(value):
        # Hexadecimal: the bit pattern at the width of the element type.
        if elt == "f64":
            return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]
        if elt == "f16":
            return "0x%04X" % struct.unpack("<H", struct.pack("<e", value))[0]
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        return "0x%04X" % (bits >> 16) if elt == "bf16" else "0x%08X" % bits
    return f"{float(value):.17e}" if elt == "f64" else f"{float(value):.9e}"


class Value:
    __slots__ = ("name", "shape", "elt")

    def __init__(self, name: str, shape: Sequence[int], elt: str):
        self.name = name
        self.shape = tuple(int(s) for s in shape)
        self.elt = elt

    @property
    def type(self) -> str:
        return ttype(self.shape, self.elt)

    @property
    def rank(self) -> int:
        return len(self.shape)


def _dims(rank: int) -> str:
    return "(" + ", ".join(f"d{i}" for i in range(rank)) + ")"


def _map(rank: int, results: Sequence[str]) -> str:
    return f"affine_map<{_dims(rank)} -> ({', '.join(results)})>"


def _identity(rank: int) -> str:
    return _map(rank, [f"d{i}" for i in range(rank)])


def _broadcast_map(src: Sequence[int], out: Sequence[int]) -> str:
    """numpy broadcasting of src to out: trailing alignment, a size-1 source
    dimension against a larger one read at constant 0."""
    rank = len(out)
    lead = rank - len(src)
    exprs = []
    for i, s in enumerate(src):
        o = out[lead + i]
        exprs.append("0" if s == 1 and o != 1 else f"d{lead + i}")
    return _map(rank, exprs)


def broadcast_shape(*shapes: Sequence[int]) -> Tuple[int, ...]:
    return tuple(np.broadcast_shapes(*[tuple(s) for s in shapes]))


@dataclass
class IndexBound:
    """An integer argument of the exported function whose values index a
    tensor: they must lie in [low, high) (or be one of ``allowed``, such as
    nll_loss's ignore_index). Recorded by the importer where an argument
    reaches an index position (embedding, index, index_select, gather,
    nll_loss targets) unchanged or through views, or is compared for
    equality with a read-only range of integers (a one-hot index, such as
    ``self.slots == position`` with ``slots = arange(n)``); checked by the
    callers of the compiled function (CompiledModule, CompiledTrainingStep)
    before each call."""

    argument: int       # the function argument's position
    name: str           # the forward's parameter name ('position')
    low: int
    high: int
    indexes: str        # what it indexes: a weight or buffer name, or a node
    op: str             # aten.embedding
    path: str           # the module path of the op (the module's class at the top)
    allowed: Tuple[int, ...] = ()

    def violation(self, array) -> Optional[str]:
        """None if every element of ``array`` is in bounds, else the message."""
        a = np.asarray(array)
        if a.dtype.kind not in "iu" or a.size == 0:
            return None
        bad = (a < self.low) | (a >= self.high)
        for v in self.allowed:
            bad &= a != v
        if not bad.any():
            return None
        where = tuple(int(i) for i in np.argwhere(bad)[0]) if a.ndim else ()
        value = int(a[where])
        at = f"[{', '.join(map(str, where))}]" if a.size > 1 else ""
        allowed = "".join(f" and is not {v}" for v in self.allowed)
        return (f"argument '{self.name}'{at} = {value} is outside [{self.low}, {self.high})"
                f"{allowed}: it indexes '{self.indexes}' ({self.op} at {self.path})")

    def check(self, array) -> None:
        message = self.violation(array)
        if message is not None:
            raise IndexError(message)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["allowed"] = list(self.allowed)
        return d


#: The module attribute that carries the index bounds in the exported text
#: (a JSON list of IndexBound fields), read back by index_bounds().
INDEX_BOUNDS_ATTRIBUTE = "fpopt.index_bounds"


def index_bounds(text: str) -> List[IndexBound]:
    """The IndexBound records of a module exported by fpopt.torch (its
    ``fpopt.index_bounds`` module attribute; none if it has none)."""
    head = text[:text.find("{-#")] if "{-#" in text else text
    m = re.search(re.escape(INDEX_BOUNDS_ATTRIBUTE) + r' = "((?:[^"\\]|\\.)*)"', head)
    if not m:
        return []
    raw = re.sub(r"\\(.)", lambda e: e.group(1), m.group(1))
    out = []
    for d in json.loads(raw):
        d["allowed"] = tuple(d.get("allowed", ()))
        out.append(IndexBound(**d))
    return out


def _mlir_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Body:
    """The payload of one linalg.generic: scalar SSA lines."""

    def __init__(self, fn: "FunctionWriter"):
        self.fn = fn
        self.lines: List[str] = []

    def op(self, text: str, elt: str = "f32") -> str:
        v = self.fn.fresh("b")
        self.lines.append(f"{v} = {text} : {elt}")
        return v

    def raw(self, line: str) -> str:
        v = self.fn.fresh("b")
        self.lines.append(f"{v} = {line}")
        return v

    def const(self, value: float, elt: str = "f32") -> str:
        return self.fn.constant(value, elt)

    def scalar(self, value: float, elt: str = "f32") -> str:
        """A Python float scalar as torch-mlir writes it: an f64 constant
        truncated to the tensor's type in the body."""
        if elt == "f64":
            return self.fn.constant(value, "f64")
        c = self.fn.constant(value, "f64")
        return self.raw(f"arith.truncf {c} : f64 to {elt}")

    def index(self, value: str, elt: str, size: int, checked: bool,
              wrap_negative: bool = False) -> str:
        """An integer tensor element as an index into a dimension of
        ``size``: negative values counted from the end with
        ``wrap_negative``; clamped into [0, size) unless ``checked`` (the
        value comes from an argument the caller checks, or is a known value
        in range), so that no value reads out of bounds."""
        if wrap_negative:
            neg = self.raw(f"arith.cmpi slt, {value}, {self.const(0, elt)} : {elt}")
            up = self.raw(f"arith.addi {value}, {self.const(size, elt)} : {elt}")
            value = self.raw(f"arith.select {neg}, {up}, {value} : {elt}")
        i = self.raw(f"arith.index_cast {value} : {elt} to index")
        if not checked:
            i = self.raw(f"arith.maxsi {i}, {self.const(0, 'index')} : index")
            i = self.raw(f"arith.minsi {i}, {self.const(size - 1, 'index')} : index")
        return i

    # arithmetic helpers
    def add(self, a, b, elt="f32"):
        return self.op(f"arith.addf {a}, {b}", elt)

    def sub(self, a, b, elt="f32"):
        return self.op(f"arith.subf {a}, {b}", elt)

    def mul(self, a, b, elt="f32"):
        return self.op(f"arith.mulf {a}, {b}", elt)

    def div(self, a, b, elt="f32"):
        return self.op(f"arith.divf {a}, {b}", elt)


class FunctionWriter:
    def __init__(self):
        self.lines: List[str] = []
        self.count = 0
        self.constants: Dict[Tuple[float, str], str] = {}
        self.const_lines: List[str] = []
        self.loc = ""

    def fresh(self, hint: str = "t") -> str:
        self.count += 1
        return f"%{hint}{self.count}"

    def emit(self, line: str):
        self.lines.append("    " + line + self.loc)

    def constant(self, value, elt: str) -> str:
        key = (float(value) if elt.startswith(("f", "b")) else int(value), elt)
        if key not in self.constants:
            name = f"%cst{len(self.constants)}"
            self.constants[key] = name
            lit = float_literal(value, elt) if elt.startswith(("f", "b")) else str(int(value))
            if elt == "i1":  # a bool literal carries its type
                self.const_lines.append(
                    f"    {name} = arith.constant {'true' if value else 'false'}")
            else:
                self.const_lines.append(f"    {name} = arith.constant {lit} : {elt}")
        return self.constants[key]

    def index_constant(self, value: int) -> str:
        return self.constant(value, "index")

    # -- structured ops ------------------------------------------------------
    def empty(self, shape, elt) -> Value:
        v = Value(self.fresh("e"), shape, elt)
        self.emit(f"{v.name} = tensor.empty() : {v.type}")
        return v

    def fill(self, value, shape, elt) -> Value:
        e = self.empty(shape, elt)
        c = self.constant(value, elt)
        v = Value(self.fresh("f"), shape, elt)
        self.emit(f"{v.name} = linalg.fill ins({c} : {elt}) outs({e.name} : {e.type}) -> {v.type}")
        return v

    def generic(self, ins: Sequence[Tuple[Value, str]], init: Value, out_map: str,
                iterators: Sequence[str], payload: Callable[[Body, List[str], str], str],
                in_elts: Optional[Sequence[str]] = None) -> Value:
        v = Value(self.fresh("g"), init.shape, init.elt)
        maps = [m for _, m in ins] + [out_map]
        its = ", ".join(f'"{i}"' for i in iterators)
        head = (f"{v.name} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
                f"iterator_types = [{its}]}}")
        if ins:
            head += (f" ins({', '.join(x.name for x, _ in ins)} : "
                     f"{', '.join(x.type for x, _ in ins)})")
        head += f" outs({init.name} : {init.type}) {{"
        self.lines.append("    " + head)
        args = [f"%in{i}" for i in range(len(ins))]
        bb = ", ".join([f"{a}: {x.elt}" for a, (x, _) in zip(args, ins)] + [f"%out: {init.elt}"])
        self.lines.append(f"    ^bb0({bb}):")
        body = Body(self)
        result = payload(body, args, "%out")
        for line in body.lines:
            self.lines.append("      " + line)
        self.lines.append(f"      linalg.yield {result} : {init.elt}")
        self.lines.append(f"    }} -> {v.type}" + self.loc)
        return v

    def elementwise(self, operands: Sequence[Value], out_elt: str,
                    payload: Callable[[Body, List[str]], str]) -> Value:
        shape = broadcast_shape(*[o.shape for o in operands])
        init = self.empty(shape, out_elt)
        rank = len(shape)
        return self.generic([(o, _broadcast_map(o.shape, shape)) for o in operands], init,
                            _identity(rank), ["parallel"] * rank,
                            lambda b, a, _out: payload(b, a))

    def marked_copy(self, x: Value, attribute: str) -> Value:
        """A copy generic carrying a marker attribute (the training-step
        convention marks ops, and the value may come from a view)."""
        init = self.empty(x.shape, x.elt)
        v = self.generic([(x, _identity(x.rank))], init, _identity(x.rank),
                         ["parallel"] * x.rank, lambda b, a, o: a[0])
        for k in range(len(self.lines) - 1, -1, -1):
            if self.lines[k].lstrip().startswith(f"{v.name} = linalg.generic {{"):
                self.lines[k] = self.lines[k].replace("linalg.generic {",
                                                      f"linalg.generic {{{attribute}, ", 1)
                break
        return v

    def permute(self, x: Value, perm: Sequence[int]) -> Value:
        """out[perm-permuted index] = in[index]: a copy generic whose output
        map is permuted, as torch-mlir writes aten.permute / aten.t."""
        out_shape = [x.shape[p] for p in perm]
        init = self.empty(out_shape, x.elt)
        rank = x.rank
        # Iterate over the input's index space: output dim i reads input dim perm[i].
        out_map = _map(rank, [f"d{p}" for p in perm])
        return self.generic([(x, _identity(rank))], init, out_map, ["parallel"] * rank,
                            lambda b, a, _o: a[0])

    def reshape(self, x: Value, shape: Sequence[int]) -> Value:
        shape = tuple(int(s) for s in shape)
        if shape == x.shape:
            return x
        groups = _reassociation(x.shape, shape)
        if groups is not None:
            src_is_collapsed = len(x.shape) < len(shape)
            return self._reassociate(x, shape, groups, expand=src_is_collapsed)
        # Neither a pure collapse nor a pure expand: through one dimension.
        flat = self._reassociate(x, (int(np.prod(x.shape)),), [list(range(x.rank))], False) \
            if x.rank != 1 else x
        return self._reassociate(flat, shape, [list(range(len(shape)))], True) \
            if len(shape) != 1 else flat

    def _reassociate(self, x: Value, shape, groups, expand: bool) -> Value:
        v = Value(self.fresh("r"), shape, x.elt)
        r = "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"
        if expand:
            self.emit(f"{v.name} = tensor.expand_shape {x.name} {r} output_shape "
                      f"[{', '.join(map(str, shape))}] : {x.type} into {v.type}")
        else:
            self.emit(f"{v.name} = tensor.collapse_shape {x.name} {r} : {x.type} into {v.type}")
        return v

    def pad(self, x: Value, low, high, value: float) -> Value:
        if not any(low) and not any(high):
            return x
        shape = [s + l + h for s, l, h in zip(x.shape, low, high)]
        v = Value(self.fresh("pad"), shape, x.elt)
        c = self.constant(value, x.elt)
        self.lines.append(f"    {v.name} = tensor.pad {x.name} low[{', '.join(map(str, low))}] "
                          f"high[{', '.join(map(str, high))}] {{")
        self.lines.append(f"    ^bb0({', '.join(f'%i{i}: index' for i in range(x.rank))}):")
        self.lines.append(f"      tensor.yield {c} : {x.elt}")
        self.lines.append(f"    }} : {x.type} to {v.type}" + self.loc)
        return v

    def extract_slice(self, x: Value, offsets, sizes, strides, shape) -> Value:
        """tensor.extract_slice of x (rank-reducing when ``shape`` drops
        unit sizes)."""
        r = Value(self.fresh("sl"), shape, x.elt)
        self.emit(f"{r.name} = tensor.extract_slice {x.name}[{', '.join(map(str, offsets))}] "
                  f"[{', '.join(map(str, sizes))}] [{', '.join(map(str, strides))}] : "
                  f"{x.type} to {r.type}")
        return r

    def named(self, op: str, ins: Sequence[Value], init: Value, attrs: str = "") -> Value:
        v = Value(self.fresh("m"), init.shape, init.elt)
        self.emit(f"{v.name} = linalg.{op}{(' ' + attrs) if attrs else ''} "
                  f"ins({', '.join(x.name for x in ins)} : {', '.join(x.type for x in ins)}) "
                  f"outs({init.name} : {init.type}) -> {v.type}")
        return v

    def reduce(self, x: Value, dims: Sequence[int], keepdim: bool, init_value: float,
               combine: Callable[[Body, str, str], str],
               pre: Optional[Callable[[Body, str], str]] = None) -> Value:
        """A reduction generic over ``dims`` (a filled init, reduced dims at
        constant 0 with keepdim, dropped without)."""
        dims = sorted(d % x.rank for d in dims)
        if keepdim:
            out_shape = [1 if i in dims else s for i, s in enumerate(x.shape)]
            out_exprs = ["0" if i in dims else f"d{i}" for i in range(x.rank)]
        else:
            out_shape = [s for i, s in enumerate(x.shape) if i not in dims]
            out_exprs = [f"d{i}" for i in range(x.rank) if i not in dims]
        init = self.fill(init_value, out_shape, x.elt)
        its = ["reduction" if i in dims else "parallel" for i in range(x.rank)]

        def payload(b, a, out):
            v = pre(b, a[0]) if pre else a[0]
            return combine(b, v, out)
        return self.generic([(x, _identity(x.rank))], init, _map(x.rank, out_exprs), its, payload)


def _reassociation(src: Sequence[int], dst: Sequence[int]) -> Optional[List[List[int]]]:
    """Groups of the longer shape whose products are the shorter shape's
    dimensions (a collapse or an expand); None when there is none."""
    src, dst = list(src), list(dst)
    if len(src) == len(dst):
        return None
    long, short = (src, dst) if len(src) > len(dst) else (dst, src)
    if not short:
        return [] if all(d == 1 for d in long) else None
    groups, i = [], 0
    for j, s in enumerate(short):
        group, prod = [], 1
        while i < len(long) and (prod < s or not group or
                                 (prod == s and long[i] == 1 and j == len(short) - 1)):
            prod *= long[i]
            group.append(i)
            i += 1
            if prod == s and (j != len(short) - 1):
                break
        if prod != s:
            return None
        groups.append(group)
    if i != len(long):
        if all(long[k] == 1 for k in range(i, len(long))) and groups:
            groups[-1].extend(range(i, len(long)))
        else:
            return None
    return groups


# -- ops ---------------------------------------------------------------------

_IDENTITY_OPS = {"aten.clone", "aten.detach", "aten.alias", "aten.lift_fresh_copy",
                 "aten.contiguous", "aten.dropout", "aten.lift_fresh"}
_VIEW_OPS = {"aten.view", "aten._reshape_alias", "aten._unsafe_view", "aten.reshape",
             "aten.flatten", "aten.unsqueeze", "aten.squeeze", "aten.as_strided"}


#: Ops whose result holds the values of their first operand (views,
#: aliases, broadcasts, permutations): an index read through them is the
#: operand's.
_ORIGIN_OPS = _IDENTITY_OPS | _VIEW_OPS | {"aten.expand", "aten.permute", "aten.transpose",
                                           "aten.t"}


def _packet(target) -> str:
    return str(getattr(target, "overloadpacket", target))


class Importer:
    """Writes one traced module as ``func.func @forward``."""

    def __init__(self, traced: TracedModule, weights: str = "arguments",
                 function: str = "forward", module_name: str = "Module"):
        if weights not in ("arguments", "constants"):
            raise ValueError("weights must be 'arguments' or 'constants'")
        self.traced = traced
        self.module_name = module_name
        self.weights = weights
        self.function = function
        self.fn = FunctionWriter()
        self.values: Dict[str, object] = {}
        self.args: List[Tuple[str, Value, str]] = []  # (ssa, value, location name)
        self.resources: List[Tuple[str, np.ndarray]] = []
        self.node: Optional[torch.fx.Node] = None
        #: Values of the nodes that depend on no argument (get_attr tensors
        #: with weights="constants" and what is computed from them only).
        self.constant_nodes: Dict[str, object] = {}
        #: One private function per computing op (profiling), see split.
        self.split = False
        self.split_functions: List[str] = []
        #: Input placeholders: node name -> (argument position, input position).
        self.input_args: Dict[str, Tuple[int, int]] = {}
        #: Parameter and buffer placeholders: node name -> (name, value).
        self.state_nodes: Dict[str, Tuple[str, torch.Tensor]] = {}
        #: Integer arguments that index a tensor (see IndexBound).
        self.index_bounds: List[IndexBound] = []
        #: Values computed once and reused by later ops (_centred_moments).
        self.memo: Dict[tuple, object] = {}

    # -- errors --------------------------------------------------------------
    def unsupported(self, reason: str) -> UnsupportedOp:
        node = self.node
        op = _packet(node.target) if node is not None else "?"
        path = self.traced.paths.get(node.name, "") if node is not None else ""
        return UnsupportedOp(op, reason, path, node.name if node is not None else "")

    # -- values --------------------------------------------------------------
    def meta_shape(self, node) -> Tuple[Tuple[int, ...], str]:
        tm = node.meta.get("tensor_meta")
        if tm is None or not hasattr(tm, "shape"):
            raise self.unsupported("the op's result has no static tensor shape")
        return tuple(int(s) for s in tm.shape), mlir_type(tm.dtype)

    def get(self, arg) -> Value:
        if isinstance(arg, torch.fx.Node):
            v = self.values[arg.name]
            if not isinstance(v, Value):
                raise self.unsupported(f"operand {arg.name} is not a tensor")
            return v
        raise self.unsupported(f"expected a tensor operand, got {type(arg).__name__}")

    # -- the module ----------------------------------------------------------
    def run(self) -> str:
        t = self.traced
        graph = t.graph_module.graph
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        for i, node in enumerate(placeholders):
            self.node = node
            shape, elt = self.meta_shape(node)
            if node.name == t.seed_placeholder:
                v = self.fn.fill(1.0, shape, elt)
                self.fn.lines[-1] = self.fn.lines[-1].replace(
                    "linalg.fill ins(", "linalg.fill {lowp.loss_seed} ins(", 1)
            elif i < t.input_count:
                v = Value(f"%arg{len(self.args)}", shape, elt)
                self.input_args[node.name] = (len(self.args), i)
                self.args.append((v.name, v, f"input{i}"))
            else:
                name = t.state_names[i - t.input_count]
                self.state_nodes[node.name] = (name, t.state_values[i - t.input_count])
                if self.weights == "arguments":
                    v = Value(f"%arg{len(self.args)}", shape, elt)
                    self.args.append((v.name, v, name))
                else:
                    v = self.resource(name, t.state_values[i - t.input_count])
            self.values[node.name] = v
        results = None
        for node in graph.nodes:
            self.node = node
            if node.op == "call_function":
                path = t.paths.get(node.name, "")
                self.fn.loc = f' loc("{path}")' if path else ""
                if self.split and self.is_compute(node):
                    self.values[node.name] = self.lower_in_function(node, path)
                else:
                    self.values[node.name] = self.lower(node)
                if node.name in t.gradient_nodes:
                    self.values[node.name] = self.fn.marked_copy(
                        self.get(node), f'lowp.gradient = "{t.gradient_nodes[node.name]}"')
                self.fn.loc = ""
            elif node.op == "get_attr":
                value = getattr(t.graph_module, node.target)
                self.constant_nodes[node.name] = value
                self.values[node.name] = self.dense_constant(value)
            elif node.op == "output":
                results = node.args[0]
        outs = results if isinstance(results, (list, tuple)) else [results]
        if t.result_count is not None:
            outs = outs[:t.result_count]
        out_values = [self.get(o) for o in outs]
        return self.text(out_values)

    def is_compute(self, node) -> bool:
        """Whether the node writes ops that compute (not a view, an alias,
        a tuple item or a folded constant)."""
        name = _packet(node.target)
        return (name in _HANDLERS and not self.is_constant(node)
                and node.target is not operator.getitem)

    def lower_in_function(self, node, path: str):
        """split=True: the node's ops in a private function of their own,
        called with no_inline, so that a profiler attributes time per aten
        op (``op0012__layer1_0_conv1__aten_convolution``)."""
        inputs = [n for n in node.all_input_nodes if isinstance(self.values.get(n.name), Value)]
        main, saved, params = self.fn, {}, []
        for k, n in enumerate(inputs):
            v = self.values[n.name]
            saved[n.name] = v
            self.values[n.name] = Value(f"%a{k}", v.shape, v.elt)
            params.append(v)
        self.fn = FunctionWriter()
        memo, self.memo = self.memo, {}  # values of another function are not visible
        try:
            out = self.lower(node)
            sub = self.fn
        finally:
            self.fn = main
            self.memo = memo
            self.values.update(saved)
        results = [out] if isinstance(out, Value) else [o for o in out if isinstance(o, Value)]
        tag = "".join(c if c.isalnum() else "_" for c in f"{path}__{_packet(node.target)}")
        fname = f"op{len(self.split_functions):04d}__{tag}"
        sig = ", ".join(f"%a{k}: {v.type}" for k, v in enumerate(params))
        types = ", ".join(r.type for r in results)
        body = [f"  func.func private @{fname}({sig}) -> ({types}) {{"] + sub.const_lines + \
            sub.lines + [f"    return {', '.join(r.name for r in results)} : {types}", "  }"]
        self.split_functions.append("\n".join(body))
        call = self.fn.fresh("call")
        n = len(results)
        self.fn.emit(f"{call}{':' + str(n) if n > 1 else ''} = func.call @{fname}"
                     f"({', '.join(v.name for v in params)}) {{no_inline}} : "
                     f"({', '.join(v.type for v in params)}) -> ({types})")
        mapped = [Value(call if n == 1 else f"{call}#{i}", r.shape, r.elt)
                  for i, r in enumerate(results)]
        if isinstance(out, Value):
            return mapped[0]
        it = iter(mapped)
        return type(out)(next(it) if isinstance(o, Value) else o for o in out)

    def resource(self, name: str, tensor: torch.Tensor) -> Value:
        arr = tensor.detach().cpu().contiguous().numpy()
        elt = mlir_type(tensor.dtype)
        key = "w_" + "".join(c if c.isalnum() else "_" for c in name) + f"_{len(self.resources)}"
        self.resources.append((key, arr))
        v = Value(self.fn.fresh("w"), arr.shape, elt)
        self.fn.const_lines.append(
            f"    {v.name} = arith.constant dense_resource<{key}> : {v.type}")
        return v

    def text(self, outs: List[Value]) -> str:
        sig = ", ".join(f'{ssa}: {v.type} loc("{loc}")' for ssa, v, loc in self.args)
        res = ", ".join(o.type for o in outs)
        attrs = self.traced.result_attributes
        if attrs:
            res_text = "(" + ", ".join(f"{o.type} {{{a}}}" if a else o.type
                                       for o, a in zip(outs, attrs)) + ")"
        else:
            res_text = res if len(outs) == 1 else f"({res})"
        attributes = f'torch.debug_module_name = "{self.module_name}"'
        if self.index_bounds:
            bounds = json.dumps([b.to_dict() for b in self.index_bounds])
            attributes += f", {INDEX_BOUNDS_ATTRIBUTE} = {_mlir_string(bounds)}"
        lines = [f"module attributes {{{attributes}}} {{"]
        lines += self.split_functions
        lines.append(f"  func.func @{self.function}({sig}) -> {res_text} {{")
        lines += self.fn.const_lines + self.fn.lines
        lines.append(f"    return {', '.join(o.name for o in outs)} : {res}")
        lines.append("  }")
        lines.append("}")
        if self.resources:
            lines.append("")
            lines.append("{-#")
            lines.append("  dialect_resources: {")
            lines.append("    builtin: {")
            entries = []
            for key, arr in self.resources:
                blob = struct.pack("<I", max(arr.dtype.itemsize, 1)) + arr.tobytes()
                entries.append(f'      {key}: "0x{blob.hex().upper()}"')
            lines.append(",\n".join(entries))
            lines.append("    }")
            lines.append("  }")
            lines.append("#-}")
        return "\n".join(lines) + "\n"

    # -- index bounds ----------------------------------------------------------
    def _through(self, node):
        """The node a value-preserving op (a view, an alias, a broadcast, a
        permutation) reads, or None."""
        if not isinstance(node, torch.fx.Node) or node.op != "call_function":
            return None
        if not node.args or not isinstance(node.args[0], torch.fx.Node):
            return None
        name = _packet(node.target)
        if name in _ORIGIN_OPS:
            return node.args[0]
        if name == "aten.slice":  # x[:, None]: a slice of everything
            src, out = node.args[0].meta.get("tensor_meta"), node.meta.get("tensor_meta")
            step = node.args[4] if len(node.args) > 4 else node.kwargs.get("step", 1)
            if src is not None and out is not None and step == 1 and \
                    tuple(src.shape) == tuple(out.shape):
                return node.args[0]
        return None

    def input_origin(self, node) -> Optional[Tuple[int, int]]:
        """(argument position, input position) of the input whose values
        ``node`` holds unchanged (through views), or None."""
        while isinstance(node, torch.fx.Node):
            if node.name in self.input_args:
                return self.input_args[node.name]
            node = self._through(node)
        return None

    def known_value(self, node) -> Optional[torch.Tensor]:
        """The value of ``node`` when the export knows it: a parameter or
        buffer (bound once, read-only), a constant, or a view of one."""
        if not isinstance(node, torch.fx.Node):
            return None
        if node.name in self.constant_nodes:
            v = self.constant_nodes[node.name]
            return v if isinstance(v, torch.Tensor) else None
        if node.name in self.state_nodes:
            # Integer buffers only: parameters change in training steps.
            value = self.state_nodes[node.name][1]
            return None if value.is_floating_point() else value
        src = self._through(node)
        if src is None and node.op == "call_function" and \
                _packet(node.target) in ("aten.slice", "aten.select") and \
                isinstance(node.args[0], torch.fx.Node):
            src = node.args[0]
        if src is None:
            return None
        value = self.known_value(src)
        if value is None:
            return None
        args = [value] + list(node.args[1:])
        if any(isinstance(a, torch.fx.Node) for a in args[1:]):
            return None
        return node.target(*args, **node.kwargs)

    def describe(self, node) -> str:
        """What a tensor is, for messages: a parameter or buffer name (through
        views), else its graph node."""
        start = node
        while isinstance(node, torch.fx.Node):
            if node.name in self.state_nodes:
                return self.state_nodes[node.name][0]
            through = self._through(node)
            if through is None and node.op == "call_function" and node.args and \
                    _packet(node.target) in ("aten.slice", "aten.select"):
                through = node.args[0]  # a part of a weight: named as the weight
            node = through
        return start.name if isinstance(start, torch.fx.Node) else str(start)

    def record_index(self, index, size: int, indexed, low: int = 0,
                     allowed: Sequence[int] = ()) -> bool:
        """Notes that the values of ``index`` (an fx node) index a dimension
        of ``size`` of ``indexed``: valid in [low, size) (low = -size where
        negative indices count from the end). Returns whether the values are
        covered: an argument the callers check, or a known value in range
        (a known value out of range is an error here). The callers clamp
        what is not covered, so no value reads out of bounds."""
        node = self.node
        op = _packet(node.target)
        path = self.traced.paths.get(node.name, "") or self.module_name
        what = self.describe(indexed) if isinstance(indexed, torch.fx.Node) else str(indexed)
        origin = self.input_origin(index)
        if origin is not None:
            arg, i = origin
            names = self.traced.input_names
            name = names[i] if i < len(names) else f"input{i}"
            bound = IndexBound(arg, name, int(low), int(size), what, op, path,
                               tuple(int(a) for a in allowed))
            if bound not in self.index_bounds:
                self.index_bounds.append(bound)
            return True
        known = self.known_value(index)
        if known is not None:
            bound = IndexBound(-1, index.name, int(low), int(size), what, op, path,
                               tuple(int(a) for a in allowed))
            message = bound.violation(known.detach().cpu().numpy())
            if message is not None:
                raise self.unsupported(message.replace("argument", "constant index", 1))
            return True
        return False

    # -- dispatch ------------------------------------------------------------
    def lower(self, node: torch.fx.Node):
        target = node.target
        if target is operator.getitem:
            tup = self.values[node.args[0].name]
            item = tup[node.args[1]]
            if item is None:
                return _Unavailable(node.args[0].name, node.args[1])
            return item
        name = _packet(target)
        if self.is_constant(node):
            return self.fold(node)
        if name in _IDENTITY_OPS:
            return self.get(node.args[0])
        if name in _VIEW_OPS:
            return self.view(node)
        handler = _HANDLERS.get(name)
        if handler is None and name.endswith("_") and not name.endswith("__"):
            handler = self.in_place_handler(node, name[:-1])
        if handler is None:
            raise self.unsupported("no lowering to linalg for this aten op")
        return handler(self, node, *node.args, **node.kwargs)

    def in_place_handler(self, node, functional: str):
        """An in-place op of a graph traced without functionalization (a
        training step: ``relu_``, ``out += identity``). The trace refers to
        the mutated tensor by this node from here on, so the functional
        form is exact, unless the tensor is an argument (whose caller would
        not see the update) or a view (whose base would not)."""
        handler = _HANDLERS.get(functional)
        if handler is None:
            return None
        target = node.args[0] if node.args else None
        if isinstance(target, torch.fx.Node):
            if target.op == "placeholder":
                raise self.unsupported(f"an in-place update of argument '{target.name}'")
            if target.op == "call_function" and (
                    _packet(target.target) in _ORIGIN_OPS - _IDENTITY_OPS or
                    _packet(target.target) in ("aten.slice", "aten.select")):
                raise self.unsupported("an in-place update of a view (the tensor it views "
                                       "would not see it)")
        return handler

    def is_constant(self, node) -> bool:
        """Whether the node depends on no argument (a mask or a position
        table built in forward): then it is evaluated here, once."""
        if node.name in self.constant_nodes:
            return True
        deps = node.all_input_nodes
        if not all(d.name in self.constant_nodes for d in deps):
            return False
        if not isinstance(node.target, torch._ops.OpOverload):
            return False
        return True

    def fold(self, node):
        def concrete(a):
            if isinstance(a, torch.fx.Node):
                return self.constant_nodes[a.name]
            if isinstance(a, (list, tuple)):
                return type(a)(concrete(x) for x in a)
            return a
        value = node.target(*concrete(list(node.args)),
                            **{k: concrete(v) for k, v in node.kwargs.items()})
        self.constant_nodes[node.name] = value
        if not isinstance(value, torch.Tensor):
            raise self.unsupported("a constant subgraph that does not produce one tensor")
        return self.dense_constant(value)

    def dense_constant(self, value: torch.Tensor) -> Value:
        if value.dtype == torch.bool and value.numel() > 64:
            # mlir-translate has no conversion for an i1 dense_resource: a
            # splat, a literal, or (large) i8 bytes narrowed by a generic.
            if bool(value.all()) or not bool(value.any()):
                v = Value(self.fn.fresh("c"), value.shape, "i1")
                self.fn.const_lines.append(f"    {v.name} = arith.constant dense<"
                                           f"{'true' if bool(value.all()) else 'false'}>"
                                           f" : {v.type}")
                return v
            if value.numel() > 1 << 16:
                bytes_ = self.resource(f"const_{len(self.resources)}", value.to(torch.int8))
                return self.fn.elementwise([bytes_], "i1", lambda b, a: b.raw(
                    f"arith.trunci {a[0]} : i8 to i1"))
        elif value.numel() > 64:
            return self.resource(f"const_{len(self.resources)}", value)
        arr = value.detach().cpu().contiguous().numpy()
        elt = mlir_type(value.dtype)
        if elt == "i1":
            items = ["true" if x else "false" for x in arr.reshape(-1)]
        elif elt.startswith("i"):
            items = [str(int(x)) for x in arr.reshape(-1)]
        else:
            items = [float_literal(float(x), elt) for x in arr.reshape(-1)]
        v = Value(self.fn.fresh("c"), arr.shape, elt)
        if arr.size == 0:
            self.fn.const_lines.append(f"    {v.name} = arith.constant dense<> : {v.type}")
            return v
        body = f"[{', '.join(items)}]" if arr.ndim else items[0]
        if arr.ndim > 1:
            body = np.array2string(np.array(items, dtype=object).reshape(arr.shape),
                                   separator=", ", threshold=10**9,
                                   formatter={"all": lambda x: x}).replace("\n", "")
        self.fn.const_lines.append(f"    {v.name} = arith.constant dense<{body}> : {v.type}")
        return v

    def view(self, node):
        x = self.get(node.args[0])
        shape, _ = self.meta_shape(node)
        if _packet(node.target) == "aten.as_strided":
            size, stride = node.args[1], node.args[2]
            offset = node.args[3] if len(node.args) > 3 else 0
            contiguous = []
            acc = 1
            for s in reversed(size):
                contiguous.insert(0, acc)
                acc *= s
            if offset or int(np.prod(size)) != int(np.prod(x.shape)) or any(
                    st != c for st, c, s in zip(stride, contiguous, size) if s != 1):
                raise self.unsupported("as_strided that is not a reshape of a contiguous tensor")
        return self.fn.reshape(x, shape)


class _Unavailable:
    """A result of a tuple-returning op that eval mode does not compute
    (batch norm's saved statistics, max pool's indices)."""

    def __init__(self, producer, index):
        self.producer, self.index = producer, index


_HANDLERS: Dict[str, Callable] = {}


def handles(*names):
    def deco(fn):
        for n in names:
            _HANDLERS[n] = fn
        return fn
    return deco


def _out(imp: Importer, node) -> Tuple[Tuple[int, ...], str]:
    return imp.meta_shape(node)


def _scalar_or_tensor(imp: Importer, x):
    if isinstance(x, torch.fx.Node):
        return imp.get(x)
    if isinstance(x, (int, float, bool)):
        return float(x)
    raise imp.unsupported(f"operand of type {type(x).__name__}")


def _binary(imp: Importer, node, a, b, fop: str, alpha=1):
    """add/sub/mul/div of tensors or a tensor and a Python scalar."""
    shape, elt = _out(imp, node)
    if elt in ("i64", "i32") and fop in ("addf", "subf", "mulf"):
        return _integer_binary(imp, node, a, b, fop[:-1] + "i", alpha, elt)
    if not elt.startswith(("f", "b")):
        raise imp.unsupported(f"integer/bool arithmetic ({elt}) other than add, sub and mul "
                              "is not supported")
    x, y = _scalar_or_tensor(imp, a), _scalar_or_tensor(imp, b)
    tensors = [v for v in (x, y) if isinstance(v, Value)]
    for t in tensors:
        if t.elt != elt and not t.elt.startswith("i"):
            raise imp.unsupported(f"mixed element types {t.elt} and {elt}")

    def operand(body, v, arg):
        """torch's type promotion: a bool or integer tensor meets a float
        one in the float type."""
        if v.elt == elt:
            return arg
        op = "arith.uitofp" if v.elt == "i1" else "arith.sitofp"
        return body.raw(f"{op} {arg} : {v.elt} to {elt}")

    def payload(body, args):
        it = iter(args)
        xs = operand(body, x, next(it)) if isinstance(x, Value) else body.scalar(x, elt)
        ys = operand(body, y, next(it)) if isinstance(y, Value) else body.scalar(y, elt)
        if alpha != 1:
            ys = body.mul(ys, body.scalar(alpha, elt), elt)
        return body.op(f"arith.{fop} {xs}, {ys}", elt)
    if not tensors:
        raise imp.unsupported("arithmetic on two scalars")
    return imp.fn.elementwise(tensors, elt, payload)


def _integer_binary(imp: Importer, node, a, b, iop: str, alpha, elt: str):
    """add/sub/mul of integer tensors of one type, or one and a Python int
    (``position + 1``): wrapping, as PyTorch's."""
    x = imp.get(a) if isinstance(a, torch.fx.Node) else a
    y = imp.get(b) if isinstance(b, torch.fx.Node) else b
    tensors = [v for v in (x, y) if isinstance(v, Value)]
    if any(t.elt != elt for t in tensors) or any(
            not isinstance(v, (Value, int)) or isinstance(v, bool) for v in (x, y)):
        raise imp.unsupported(f"integer arithmetic on mixed types (result {elt})")

    def payload(body, args):
        it = iter(args)
        xs = next(it) if isinstance(x, Value) else body.const(x, elt)
        ys = next(it) if isinstance(y, Value) else body.const(y, elt)
        if alpha != 1:
            ys = body.raw(f"arith.muli {ys}, {body.const(int(alpha), elt)} : {elt}")
        return body.raw(f"arith.{iop} {xs}, {ys} : {elt}")
    return imp.fn.elementwise(tensors, elt, payload)


@handles("aten.add")
def _add(imp, node, a, b, alpha=1):
    return _binary(imp, node, a, b, "addf", alpha)


@handles("aten.sub")
def _sub(imp, node, a, b, alpha=1):
    return _binary(imp, node, a, b, "subf", alpha)


@handles("aten.rsub")
def _rsub(imp, node, a, b, alpha=1):
    return _binary(imp, node, b, a, "subf", alpha)


@handles("aten.mul")
def _mul(imp, node, a, b):
    return _binary(imp, node, a, b, "mulf")


@handles("aten.div")
def _div(imp, node, a, b, rounding_mode=None):
    if rounding_mode is not None:
        raise imp.unsupported(f"rounding_mode={rounding_mode}")
    return _binary(imp, node, a, b, "divf")


def _unary(fn):
    def handler(imp, node, x, *args, **kwargs):
        v = imp.get(x)
        return imp.fn.elementwise([v], v.elt, lambda b, a: fn(b, a[0], v.elt, *args, **kwargs))
    return handler


def _relu(b, x, elt):
    zero = b.const(0.0, elt)
    c = b.raw(f"arith.cmpf ugt, {x}, {zero} : {elt}")
    return b.raw(f"arith.select {c}, {x}, {zero} : {elt}")


def _clamp(b, x, elt, lo=None, hi=None):
    if lo is not None:
        lo_c = b.scalar(lo, elt)
        c = b.raw(f"arith.cmpf ult, {x}, {lo_c} : {elt}")
        x = b.raw(f"arith.select {c}, {lo_c}, {x} : {elt}")
    if hi is not None:
        hi_c = b.scalar(hi, elt)
        c = b.raw(f"arith.cmpf ugt, {x}, {hi_c} : {elt}")
        x = b.raw(f"arith.select {c}, {hi_c}, {x} : {elt}")
    return x


def _sigmoid(b, x, elt):
    neg = b.op(f"arith.negf {x}", elt)
    e = b.op(f"math.exp {neg}", elt)
    one = b.const(1.0, elt)
    return b.div(one, b.add(e, one, elt), elt)


def _gelu(b, x, elt, approximate="none"):
    half = b.scalar(0.5, elt)
    one = b.const(1.0, elt)
    if approximate == "tanh":
        k = b.scalar(math.sqrt(2.0 / math.pi), elt)
        c = b.scalar(0.044715, elt)
        x3 = b.mul(b.mul(x, x, elt), x, elt)
        inner = b.mul(k, b.add(x, b.mul(c, x3, elt), elt), elt)
        t = b.op(f"math.tanh {inner}", elt)
        return b.mul(b.mul(x, half, elt), b.add(one, t, elt), elt)
    if approximate != "none":
        raise ValueError(approximate)
    inv_sqrt2 = b.scalar(1.0 / math.sqrt(2.0), elt)
    erf = b.op(f"math.erf {b.mul(x, inv_sqrt2, elt)}", elt)
    return b.mul(b.mul(x, half, elt), b.add(erf, one, elt), elt)


_UNARY_MATH = {"aten.exp": "math.exp", "aten.tanh": "math.tanh", "aten.rsqrt": "math.rsqrt",
               "aten.sqrt": "math.sqrt", "aten.log": "math.log", "aten.erf": "math.erf",
               "aten.neg": "arith.negf", "aten.abs": "math.absf", "aten.sin": "math.sin",
               "aten.cos": "math.cos"}
for _name, _op in _UNARY_MATH.items():
    _HANDLERS[_name] = _unary(lambda b, x, elt, _op=_op: b.op(f"{_op} {x}", elt))

_HANDLERS["aten.relu"] = _unary(_relu)
_HANDLERS["aten.sigmoid"] = _unary(_sigmoid)
_HANDLERS["aten.gelu"] = _unary(_gelu)
_HANDLERS["aten.reciprocal"] = _unary(lambda b, x, elt: b.div(b.const(1.0, elt), x, elt))


@handles("aten.hardtanh", "aten.clamp")
def _hardtanh(imp, node, x, lo=None, hi=None):
    v = imp.get(x)
    if node.target is aten.hardtanh.default:
        lo = -1.0 if lo is None else lo
        hi = 1.0 if hi is None else hi
    return imp.fn.elementwise([v], v.elt, lambda b, a: _clamp(b, a[0], v.elt, lo, hi))


@handles("aten.clamp_min")
def _clamp_min(imp, node, x, lo):
    return _hardtanh(imp, node, x, lo, None)


@handles("aten.hardsigmoid")
def _hardsigmoid(imp, node, x):
    """torch-mlir decomposes it: relu6(x + 3) / 6, one generic each."""
    v = imp.get(x)
    e = v.elt
    t = imp.fn.elementwise([v], e, lambda b, a: b.add(a[0], b.scalar(3.0, e), e))
    t = imp.fn.elementwise([t], e, lambda b, a: _clamp(b, a[0], e, 0.0, 6.0))
    return imp.fn.elementwise([t], e, lambda b, a: b.div(a[0], b.scalar(6.0, e), e))


@handles("aten.hardswish")
def _hardswish(imp, node, x):
    """x * hardsigmoid(x), as torch-mlir decomposes it."""
    v = imp.get(x)
    hs = _hardsigmoid(imp, node, x)
    return imp.fn.elementwise([v, hs], v.elt, lambda b, a: b.mul(a[0], a[1], v.elt))


@handles("aten.silu")
def _silu(imp, node, x):
    """x * sigmoid(x), as torch-mlir decomposes it."""
    v = imp.get(x)
    s = imp.fn.elementwise([v], v.elt, lambda b, a: _sigmoid(b, a[0], v.elt))
    return imp.fn.elementwise([v, s], v.elt, lambda b, a: b.mul(a[0], a[1], v.elt))


@handles("aten.pow")
def _pow(imp, node, x, exponent):
    v = imp.get(x)
    if isinstance(exponent, torch.fx.Node):
        raise imp.unsupported("a tensor exponent")
    return imp.fn.elementwise([v], v.elt, lambda b, a: b.op(
        f"math.powf {a[0]}, {b.scalar(exponent, v.elt)}", v.elt))


@handles("fpopt.linear")
def _linear(imp, node, x, w, bias=None):
    """aten.linear as torch-mlir lowers it: the weight transposed, then
    matmul (2-D input) or a broadcast over the batch + batch_matmul."""
    xv, wv = imp.get(x), imp.get(w)
    fn = imp.fn
    wt = fn.permute(wv, [1, 0])  # K x N
    k, n = wt.shape
    if xv.rank == 2:
        acc = fn.fill(0.0, [xv.shape[0], n], xv.elt)
        y = fn.named("matmul", [xv, wt], acc)
    elif xv.rank >= 3:
        batch = xv.shape[:-2]
        m = xv.shape[-2]
        bshape = list(batch) + [k, n]
        rank = len(bshape)
        init = fn.empty(bshape, wt.elt)
        wb = fn.generic([(wt, _map(rank, [f"d{rank - 2}", f"d{rank - 1}"]))], init,
                        _identity(rank), ["parallel"] * rank, lambda b, a, o: a[0])
        nb = int(np.prod(batch))
        x3 = fn.reshape(xv, [nb, m, k]) if len(batch) != 1 else xv
        w3 = fn.reshape(wb, [nb, k, n]) if len(batch) != 1 else wb
        acc = fn.fill(0.0, [nb, m, n], xv.elt)
        y = fn.named("batch_matmul", [x3, w3], acc)
        if len(batch) != 1:
            y = fn.reshape(y, list(batch) + [m, n])
    else:
        raise imp.unsupported(f"linear on a {xv.rank}-D input")
    if bias is not None:
        bv = imp.get(bias)
        y = fn.elementwise([y, bv], y.elt, lambda b, a: b.add(a[0], a[1], y.elt))
    return y


@handles("aten.t")
def _t(imp, node, x):
    v = imp.get(x)
    return v if v.rank < 2 else imp.fn.permute(v, [1, 0])


@handles("aten.transpose")
def _transpose(imp, node, x, d0, d1):
    v = imp.get(x)
    perm = list(range(v.rank))
    perm[d0 % v.rank], perm[d1 % v.rank] = perm[d1 % v.rank], perm[d0 % v.rank]
    return imp.fn.permute(v, perm)


@handles("aten.permute")
def _permute(imp, node, x, perm):
    v = imp.get(x)
    perm = [p % v.rank for p in perm]
    if perm == list(range(v.rank)):
        return v
    return imp.fn.permute(v, perm)


@handles("aten.mm")
def _mm(imp, node, a, b):
    x, y = imp.get(a), imp.get(b)
    acc = imp.fn.fill(0.0, [x.shape[0], y.shape[1]], x.elt)
    return imp.fn.named("matmul", [x, y], acc)


@handles("aten.bmm")
def _bmm(imp, node, a, b):
    x, y = imp.get(a), imp.get(b)
    acc = imp.fn.fill(0.0, [x.shape[0], x.shape[1], y.shape[2]], x.elt)
    return imp.fn.named("batch_matmul", [x, y], acc)


def _scaled_sum(imp, product: Value, addend, beta, alpha) -> Value:
    """beta * addend + alpha * product: addmm / baddbmm after their matrix
    product (torch-mlir decomposes them into mm/bmm + add, beta and alpha
    multiplied in where they are not 1)."""
    e = product.elt

    def payload(body, args):
        m, c = args
        if alpha != 1:
            m = body.mul(m, body.scalar(alpha, e), e)
        if beta != 1:
            c = body.mul(c, body.scalar(beta, e), e)
        return body.add(c, m, e)
    return imp.fn.elementwise([product, imp.get(addend)], e, payload)


@handles("aten.addmm")
def _addmm(imp, node, bias, a, b, beta=1, alpha=1):
    return _scaled_sum(imp, _mm(imp, node, a, b), bias, beta, alpha)


@handles("aten.convolution")
def _convolution(imp, node, x, w, bias, stride, padding, dilation, transposed,
                 output_padding, groups):
    xv, wv = imp.get(x), imp.get(w)
    fn = imp.fn
    if transposed:
        raise imp.unsupported("transposed convolution")
    if xv.rank != 4:
        raise imp.unsupported(f"{xv.rank - 2}-D convolution (2-D NCHW only)")
    shape, elt = _out(imp, node)
    padded = fn.pad(xv, [0, 0] + list(padding), [0, 0] + list(padding), 0.0)
    if bias is not None:
        bv = imp.get(bias)
        init = fn.empty(shape, elt)
        out = fn.generic([(bv, _map(4, ["d1"]))], init, _identity(4), ["parallel"] * 4,
                         lambda b, a, o: a[0])
    else:
        out = fn.fill(0.0, shape, elt)
    attrs = (f"{{dilations = dense<[{dilation[0]}, {dilation[1]}]> : vector<2xi64>, "
             f"strides = dense<[{stride[0]}, {stride[1]}]> : vector<2xi64>}}")
    c_in = xv.shape[1]
    if groups == 1:
        return fn.named("conv_2d_nchw_fchw", [padded, wv], out, attrs)
    if groups == c_in and wv.shape[0] == c_in and wv.shape[1] == 1:
        w3 = fn.reshape(wv, [c_in, wv.shape[2], wv.shape[3]])
        return fn.named("depthwise_conv_2d_nchw_chw", [padded, w3], out, attrs)
    g = groups
    n, _, h, wd = padded.shape
    f = wv.shape[0]
    xg = fn.reshape(padded, [n, g, c_in // g, h, wd])
    wg = fn.reshape(wv, [g, f // g] + list(wv.shape[1:]))
    og = fn.reshape(out, [shape[0], g, f // g, shape[2], shape[3]])
    y = fn.named("conv_2d_ngchw_gfchw", [xg, wg], og, attrs)
    return fn.reshape(y, shape)


@handles("aten.native_batch_norm", "aten._native_batch_norm_legit_no_training")
def _batch_norm(imp, node, x, w, b, mean, var, training=False, momentum=0.1, eps=1e-5):
    if node.target is aten._native_batch_norm_legit_no_training.default if hasattr(
            aten, "_native_batch_norm_legit_no_training") else False:
        momentum, eps = training, momentum
        training = False
    if training:
        raise imp.unsupported("batch norm in training mode (export an eval-mode module)")
    xv = imp.get(x)
    c = xv.shape[1]
    fn = imp.fn
    e = xv.elt

    def channel(v, default):
        if v is None:
            t = fn.fill(default, [c], e)
            return t
        return imp.get(v)
    ws, bs, ms, vs = channel(w, 1.0), channel(b, 0.0), imp.get(mean), imp.get(var)
    rank = xv.rank
    cmap = _map(rank, ["d1"])
    init = fn.empty(xv.shape, e)

    def payload(body, a, _o):
        xi, wi, bi, mi, vi = a
        eps_c = body.scalar(eps, e)
        d = body.sub(xi, mi, e)
        s = body.add(vi, eps_c, e)
        r = body.op(f"math.rsqrt {s}", e)
        return body.add(body.mul(body.mul(d, r, e), wi, e), bi, e)
    y = fn.generic([(xv, _identity(rank)), (ws, cmap), (bs, cmap), (ms, cmap), (vs, cmap)],
                   init, _identity(rank), ["parallel"] * rank, payload)
    return (y, None, None)


def _centred_moments(imp, xv: Value, dims: Sequence[int]) -> Tuple[Value, Value, Value]:
    """(mean, x - mean, sum of squared deviations) of ``xv`` over ``dims``,
    keepdim form, as torch-mlir's decompositions of layer norm and variance
    write them; computed once per value and dims (a batch norm in training
    mode asks for the variance twice and the mean once more)."""
    key = ("moments", xv.name, tuple(dims))
    if key not in imp.memo:
        fn, e = imp.fn, xv.elt
        count = float(np.prod([xv.shape[d] for d in dims]))
        s = fn.reduce(xv, dims, True, 0.0, lambda b, v, o: b.add(v, o, e))
        mean = fn.elementwise([s], e, lambda b, a: b.div(a[0], b.scalar(count, e), e))
        centred = fn.elementwise([xv, mean], e, lambda b, a: b.sub(a[0], a[1], e))
        sq = fn.reduce(centred, dims, True, 0.0, lambda b, v, o: b.add(v, o, e),
                       pre=lambda b, v: b.mul(v, v, e))
        imp.memo[key] = (mean, centred, sq)
    return imp.memo[key]


def _drop_dims(imp, v: Value, dims: Sequence[int], keepdim: bool) -> Value:
    """A keepdim reduction's result without its reduced (unit) dimensions."""
    if keepdim:
        return v
    return imp.fn.reshape(v, [s for i, s in enumerate(v.shape) if i not in dims])


@handles("aten.native_layer_norm")
def _layer_norm(imp, node, x, normalized_shape, w, b, eps):
    """Mean and variance as reductions over the normalized dimensions, the
    reciprocal standard deviation, then one elementwise generic (torch-mlir's
    decomposition). Returns (out, mean, rstd) as aten does: the backward
    pass of a training step reads the last two."""
    xv = imp.get(x)
    fn = imp.fn
    e = xv.elt
    k = len(normalized_shape)
    dims = list(range(xv.rank - k, xv.rank))
    count = float(np.prod(normalized_shape))
    mean, centred, sq = _centred_moments(imp, xv, dims)
    rstd = fn.elementwise([sq], e, lambda b, a: b.op(
        f"math.rsqrt {b.add(b.div(a[0], b.scalar(count, e), e), b.scalar(eps, e), e)}", e))
    operands = [centred, rstd]
    if w is not None:
        operands.append(imp.get(w))
    if b is not None:
        operands.append(imp.get(b))

    def payload(body, a):
        y = body.mul(a[0], a[1], e)
        i = 2
        if w is not None:
            y = body.mul(y, a[i], e)
            i += 1
        if b is not None:
            y = body.add(y, a[i], e)
        return y
    y = fn.elementwise(operands, e, payload)
    return (y, mean, rstd)


@handles("aten.mean")
def _mean(imp, node, x, dims=None, keepdim=False, dtype=None):
    """sum over dims, then a division by the count (torch-mlir's
    decomposition of aten.mean.dim)."""
    v = imp.get(x)
    if dims is None:
        dims = list(range(v.rank))
    dims = sorted({d % v.rank for d in dims})
    moments = imp.memo.get(("moments", v.name, tuple(dims)))
    if moments is not None:  # a variance over the same dims computed it
        return _drop_dims(imp, moments[0], dims, keepdim)
    count = float(np.prod([v.shape[d] for d in dims]))
    s = imp.fn.reduce(v, dims, keepdim, 0.0, lambda b, a, o: b.add(a, o, v.elt))
    return imp.fn.elementwise([s], v.elt, lambda b, a: b.div(a[0], b.scalar(count, v.elt), v.elt))


@handles("aten.sum")
def _sum(imp, node, x, dims=None, keepdim=False, dtype=None):
    v = imp.get(x)
    if dims is None:
        dims = list(range(v.rank))
    return imp.fn.reduce(v, dims, keepdim, 0.0, lambda b, a, o: b.add(a, o, v.elt))


@handles("aten.amax")
def _amax(imp, node, x, dims=(), keepdim=False):
    v = imp.get(x)
    dims = list(dims) or list(range(v.rank))
    return imp.fn.reduce(v, dims, keepdim, -math.inf,
                         lambda b, a, o: b.op(f"arith.maximumf {a}, {o}", v.elt))


@handles("aten._softmax", "aten._log_softmax")
def _softmax(imp, node, x, dim, half_to_float=False):
    """amax, x - max, exp, sum, divide (or log of the sum subtracted), one
    op each, as torch-mlir's decomposition writes softmax."""
    v = imp.get(x)
    fn = imp.fn
    e = v.elt
    dim = dim % v.rank
    mx = fn.reduce(v, [dim], True, -math.inf, lambda b, a, o: b.op(f"arith.maximumf {a}, {o}", e))
    shifted = fn.elementwise([v, mx], e, lambda b, a: b.sub(a[0], a[1], e))
    ex = fn.elementwise([shifted], e, lambda b, a: b.op(f"math.exp {a[0]}", e))
    s = fn.reduce(ex, [dim], True, 0.0, lambda b, a, o: b.add(a, o, e))
    if _packet(node.target) == "aten._log_softmax":
        return fn.elementwise([shifted, s], e,
                              lambda b, a: b.sub(a[0], b.op(f"math.log {a[1]}", e), e))
    return fn.elementwise([ex, s], e, lambda b, a: b.div(a[0], a[1], e))


def _pool_padding(imp, v, kernel, stride, padding, dilation, ceil_mode, out_shape, value):
    """The input padded so that a VALID pooling gives out_shape (ceil_mode's
    extra rows on the high side)."""
    low = [0, 0] + list(padding)
    high = [0, 0]
    for i in range(2):
        needed = (out_shape[2 + i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1
        high.append(max(needed - v.shape[2 + i] - padding[i], 0))
    return imp.fn.pad(v, low, high, value)


def _pair(x):
    return [x, x] if isinstance(x, int) else (list(x) * 2 if len(x) == 1 else list(x))


@handles("aten.max_pool2d_with_indices", "aten.max_pool2d")
def _max_pool(imp, node, x, kernel, stride=(), padding=0, dilation=1, ceil_mode=False):
    v = imp.get(x)
    if v.rank != 4:
        raise imp.unsupported("max pooling of a non-NCHW tensor")
    kernel = _pair(kernel)
    stride = _pair(stride) if stride else kernel
    padding, dilation = _pair(padding), _pair(dilation)
    tm = node.meta["tensor_meta"]
    out_shape = tuple(tm[0].shape if isinstance(tm, (list, tuple)) else tm.shape)
    padded = _pool_padding(imp, v, kernel, stride, padding, dilation, ceil_mode, out_shape,
                           -math.inf)
    init = imp.fn.fill(-math.inf, out_shape, v.elt)
    window = imp.fn.empty(kernel, v.elt)
    attrs = (f"{{dilations = dense<[{dilation[0]}, {dilation[1]}]> : vector<2xi64>, "
             f"strides = dense<[{stride[0]}, {stride[1]}]> : vector<2xi64>}}")
    y = imp.fn.named("pooling_nchw_max", [padded, window], init, attrs)
    return (y, None) if _packet(node.target) == "aten.max_pool2d_with_indices" else y


@handles("aten.avg_pool2d")
def _avg_pool(imp, node, x, kernel, stride=(), padding=0, ceil_mode=False,
              count_include_pad=True, divisor_override=None):
    v = imp.get(x)
    kernel = _pair(kernel)
    stride = _pair(stride) if stride else kernel
    padding = _pair(padding)
    if (any(padding) and not count_include_pad) or ceil_mode:
        raise imp.unsupported("avg_pool2d with padding excluded from the count or ceil_mode")
    out_shape, _ = _out(imp, node)
    padded = _pool_padding(imp, v, kernel, stride, padding, [1, 1], False, out_shape, 0.0)
    init = imp.fn.fill(0.0, out_shape, v.elt)
    window = imp.fn.empty(kernel, v.elt)
    attrs = (f"{{dilations = dense<1> : vector<2xi64>, "
             f"strides = dense<[{stride[0]}, {stride[1]}]> : vector<2xi64>}}")
    s = imp.fn.named("pooling_nchw_sum", [padded, window], init, attrs)
    count = float(divisor_override or kernel[0] * kernel[1])
    return imp.fn.elementwise([s], v.elt, lambda b, a: b.div(a[0], b.scalar(count, v.elt), v.elt))


@handles("aten._adaptive_avg_pool2d", "aten.adaptive_avg_pool2d")
def _adaptive_avg_pool(imp, node, x, size):
    v = imp.get(x)
    size = _pair(size)
    if size != [1, 1]:
        if v.shape[2] % size[0] or v.shape[3] % size[1]:
            raise imp.unsupported(f"adaptive average pooling to {size} of {list(v.shape)}")
        k = [v.shape[2] // size[0], v.shape[3] // size[1]]
        return _avg_pool(imp, node, x, k, k)
    return _mean(imp, node, x, [2, 3], True)


@handles("aten.cat")
def _cat(imp, node, tensors, dim=0):
    vals = [imp.get(t) for t in tensors]
    shape, elt = _out(imp, node)
    dim = dim % len(shape)
    fn = imp.fn
    acc = fn.empty(shape, elt)
    offset = 0
    for v in vals:
        if v.shape[dim] == 0:
            continue
        offsets = [offset if i == dim else 0 for i in range(len(shape))]
        r = Value(fn.fresh("cat"), shape, elt)
        fn.emit(f"{r.name} = tensor.insert_slice {v.name} into {acc.name}"
                f"[{', '.join(map(str, offsets))}] [{', '.join(map(str, v.shape))}] "
                f"[{', '.join('1' for _ in shape)}] : {v.type} into {r.type}")
        acc = r
        offset += v.shape[dim]
    return acc


@handles("aten.slice")
def _slice(imp, node, x, dim=0, start=None, end=None, step=1):
    v = imp.get(x)
    shape, _ = _out(imp, node)
    dim = dim % v.rank
    start = 0 if start is None else start
    if start < 0:
        start += v.shape[dim]
    start = min(max(start, 0), v.shape[dim])
    if tuple(shape) == v.shape:
        return v
    offsets = [start if i == dim else 0 for i in range(v.rank)]
    strides = [step if i == dim else 1 for i in range(v.rank)]
    return imp.fn.extract_slice(v, offsets, shape, strides, shape)


@handles("aten.select")
def _select(imp, node, x, dim, index):
    v = imp.get(x)
    dim = dim % v.rank
    index = index % v.shape[dim]
    shape, _ = _out(imp, node)
    offsets = [index if i == dim else 0 for i in range(v.rank)]
    sizes = [1 if i == dim else s for i, s in enumerate(v.shape)]
    return imp.fn.extract_slice(v, offsets, sizes, [1] * v.rank, shape)


@handles("aten.expand")
def _expand(imp, node, x, size, implicit=False):
    v = imp.get(x)
    shape, _ = _out(imp, node)
    if tuple(shape) == v.shape:
        return v
    init = imp.fn.empty(shape, v.elt)
    rank = len(shape)
    return imp.fn.generic([(v, _broadcast_map(v.shape, shape))], init, _identity(rank),
                          ["parallel"] * rank, lambda b, a, o: a[0])


def import_traced(traced: TracedModule, weights: str = "arguments",
                  module_name: str = "Module", function: str = "forward",
                  split: bool = False) -> Tuple[str, List[str]]:
    """(MLIR text, the location names of the function's arguments:
    "input0"..., then the parameter and buffer names when
    weights="arguments"). ``split``: every computing aten op in a private
    function of its own (named op<N>__<module path>__<aten op>, called
    no_inline), for profiles per op; fusion across ops is then lost."""
    imp = Importer(traced, weights, function, module_name)
    imp.split = split
    text = imp.run()
    return text, [loc for _, _, loc in imp.args]


def _slices(imp, v: Value, dim: int, sizes: Sequence[int]) -> List[Value]:
    out, start = [], 0
    for s in sizes:
        shape = list(v.shape)
        shape[dim] = s
        offsets = [start if i == dim else 0 for i in range(v.rank)]
        out.append(imp.fn.extract_slice(v, offsets, shape, [1] * v.rank, shape))
        start += s
    return out


@handles("aten.split")
def _split(imp, node, x, split_size, dim=0):
    v = imp.get(x)
    dim = dim % v.rank
    if not isinstance(split_size, int):
        return _split_with_sizes(imp, node, x, split_size, dim)
    n = v.shape[dim]
    sizes = [min(split_size, n - s) for s in range(0, n, split_size)]
    return _slices(imp, v, dim, sizes)


@handles("aten.split_with_sizes")
def _split_with_sizes(imp, node, x, sizes, dim=0):
    v = imp.get(x)
    return _slices(imp, v, dim % v.rank, list(sizes))


@handles("aten.unbind")
def _unbind(imp, node, x, dim=0):
    v = imp.get(x)
    dim = dim % v.rank
    shape = [s for i, s in enumerate(v.shape) if i != dim]
    return [imp.fn.reshape(p, shape) for p in _slices(imp, v, dim, [1] * v.shape[dim])]


@handles("aten.baddbmm")
def _baddbmm(imp, node, c, a, b, beta=1, alpha=1):
    return _scaled_sum(imp, _bmm(imp, node, a, b), c, beta, alpha)


_CMP = {"aten.eq": ("oeq", "eq"), "aten.ne": ("une", "ne"), "aten.lt": ("olt", "slt"),
        "aten.le": ("ole", "sle"), "aten.gt": ("ogt", "sgt"), "aten.ge": ("oge", "sge")}


def _one_hot_index(imp, node, a, b):
    """``table == index`` (or ``!=``) where ``index`` is an integer argument
    and ``table`` a read-only tensor holding a range of consecutive integers
    (``arange(n)``, a buffer): a one-hot encoding of ``index``, which must
    lie in the range (elsewhere it matches no entry). Recorded as an index
    bound of the argument."""
    for index, table in ((a, b), (b, a)):
        if not isinstance(index, torch.fx.Node) or imp.input_origin(index) is None:
            continue
        values = imp.known_value(table)
        if values is None or values.is_floating_point() or values.dtype == torch.bool or \
                values.numel() < 2:
            continue
        flat = values.reshape(-1)
        lo = int(flat.min())
        if torch.equal(flat.sort().values, torch.arange(lo, lo + flat.numel(),
                                                         dtype=flat.dtype)):
            imp.record_index(index, lo + flat.numel(), table, low=lo)


def _compare(imp, node, a, b):
    fpred, ipred = _CMP[_packet(node.target)]
    x, y = _scalar_or_tensor(imp, a), _scalar_or_tensor(imp, b)
    tensors = [v for v in (x, y) if isinstance(v, Value)]
    elt = tensors[0].elt
    if any(t.elt != elt for t in tensors):
        raise imp.unsupported("comparison of tensors of different element types")
    if ipred in ("eq", "ne") and not elt.startswith(("f", "b")) and len(tensors) == 2:
        _one_hot_index(imp, node, a, b)

    def payload(body, args):
        it = iter(args)
        if elt.startswith(("f", "b")):
            xs = next(it) if isinstance(x, Value) else body.scalar(x, elt)
            ys = next(it) if isinstance(y, Value) else body.scalar(y, elt)
            return body.raw(f"arith.cmpf {fpred}, {xs}, {ys} : {elt}")
        xs = next(it) if isinstance(x, Value) else body.const(int(x), elt)
        ys = next(it) if isinstance(y, Value) else body.const(int(y), elt)
        return body.raw(f"arith.cmpi {ipred}, {xs}, {ys} : {elt}")
    return imp.fn.elementwise(tensors, "i1", payload)


for _name in _CMP:
    _HANDLERS[_name] = _compare


@handles("aten.masked_fill")
def _masked_fill(imp, node, x, mask, value):
    v, m = imp.get(x), imp.get(mask)
    if isinstance(value, torch.fx.Node):
        raise imp.unsupported("masked_fill with a tensor value")
    e = v.elt
    return imp.fn.elementwise([m, v], e, lambda b, a: b.raw(
        f"arith.select {a[0]}, {b.scalar(float(value), e)}, {a[1]} : {e}"))


@handles("aten.where")
def _where(imp, node, cond, a, b):
    c = imp.get(cond)
    x, y = _scalar_or_tensor(imp, a), _scalar_or_tensor(imp, b)
    shape, e = _out(imp, node)
    tensors = [c] + [v for v in (x, y) if isinstance(v, Value)]

    def payload(body, args):
        it = iter(args[1:])
        xs = next(it) if isinstance(x, Value) else body.scalar(x, e)
        ys = next(it) if isinstance(y, Value) else body.scalar(y, e)
        return body.raw(f"arith.select {args[0]}, {xs}, {ys} : {e}")
    return imp.fn.elementwise(tensors, e, payload)


# -- training-step ops (the backward pass of make_fx over autograd) -----------

@handles("aten.threshold_backward")
def _threshold_backward(imp, node, grad, x, threshold):
    g, v = imp.get(grad), imp.get(x)
    e = g.elt

    def payload(b, a):
        c = b.raw(f"arith.cmpf ule, {a[1]}, {b.scalar(threshold, e)} : {e}")
        return b.raw(f"arith.select {c}, {b.const(0.0, e)}, {a[0]} : {e}")
    return imp.fn.elementwise([g, v], e, payload)


@handles("aten.hardtanh_backward")
def _hardtanh_backward(imp, node, grad, x, min_val, max_val):
    """The gradient through a clamp (ReLU6): zero where x <= min or x >=
    max, one select per element."""
    g, v = imp.get(grad), imp.get(x)
    e = g.elt

    def payload(b, a):
        low = b.raw(f"arith.cmpf ole, {a[1]}, {b.scalar(min_val, e)} : {e}")
        high = b.raw(f"arith.cmpf oge, {a[1]}, {b.scalar(max_val, e)} : {e}")
        out = b.raw(f"arith.ori {low}, {high} : i1")
        return b.raw(f"arith.select {out}, {b.const(0.0, e)}, {a[0]} : {e}")
    return imp.fn.elementwise([g, v], e, payload)


@handles("aten._log_softmax_backward_data")
def _log_softmax_backward(imp, node, grad, out, dim, input_dtype=None):
    g, o = imp.get(grad), imp.get(out)
    e = g.elt
    s = imp.fn.reduce(g, [dim], True, 0.0, lambda b, a, acc: b.add(a, acc, e))
    return imp.fn.elementwise([g, o, s], e, lambda b, a: b.sub(
        a[0], b.mul(b.op(f"math.exp {a[1]}", e), a[2], e), e))


def _reduction_mode(imp, reduction):
    if reduction not in (1, 2):
        raise imp.unsupported("only reduction='mean' and 'sum' are supported")
    return reduction


@handles("aten.nll_loss_forward")
def _nll_loss_forward(imp, node, logp, target, weight, reduction, ignore_index):
    """-logp[n, target[n]] summed over the rows that are not ignored, divided
    by their count for 'mean' (the gather is a tensor.extract in the body,
    as torch-mlir writes it)."""
    lp, tg = imp.get(logp), imp.get(target)
    if weight is not None or lp.rank != 2:
        raise imp.unsupported("class weights or a non-2-D input")
    _reduction_mode(imp, reduction)
    e = lp.elt
    fn = imp.fn
    ign = fn.constant(ignore_index, "i64")
    checked = imp.record_index(target, lp.shape[1], logp, allowed=(ignore_index,))

    def picked(b, a, acc):
        t = a[0]
        i = b.raw("linalg.index 0 : index")
        ti = b.index(t, tg.elt, lp.shape[1], checked)
        skip = b.raw(f"arith.cmpi eq, {t}, {ign} : i64")
        safe = b.raw(f"arith.select {skip}, {fn.constant(0, 'index')}, {ti} : index")
        v = b.raw(f"tensor.extract {lp.name}[{i}, {safe}] : {lp.type}")
        v = b.raw(f"arith.select {skip}, {b.const(0.0, e)}, {v} : {e}")
        return b.sub(acc, v, e)
    total = fn.fill(0.0, [], e)
    s = fn.generic([(tg, _map(1, ["d0"]))], total, _map(1, []), ["reduction"], picked)

    def counted(b, a, acc):
        skip = b.raw(f"arith.cmpi eq, {a[0]}, {ign} : i64")
        one = b.raw(f"arith.select {skip}, {b.const(0.0, e)}, {b.const(1.0, e)} : {e}")
        return b.add(acc, one, e)
    count = fn.generic([(tg, _map(1, ["d0"]))], fn.fill(0.0, [], e), _map(1, []),
                       ["reduction"], counted)
    if reduction == 2:
        return (s, count)
    return (fn.elementwise([s, count], e, lambda b, a: b.div(a[0], a[1], e)), count)


@handles("aten.nll_loss_backward")
def _nll_loss_backward(imp, node, grad, logp, target, weight, reduction, ignore_index,
                       total_weight):
    g, lp, tg, tw = imp.get(grad), imp.get(logp), imp.get(target), imp.get(total_weight)
    if weight is not None:
        raise imp.unsupported("class weights")
    _reduction_mode(imp, reduction)
    e = lp.elt
    fn = imp.fn
    ign = fn.constant(ignore_index, "i64")

    def payload(b, a, _o):
        t, go, w = a
        j = b.raw("linalg.index 1 : index")
        tj = b.raw(f"arith.index_cast {t} : i64 to index")
        hit = b.raw(f"arith.cmpi eq, {j}, {tj} : index")
        keep = b.raw(f"arith.cmpi ne, {t}, {ign} : i64")
        hit = b.raw(f"arith.andi {hit}, {keep} : i1")
        v = b.op(f"arith.negf {go}", e)
        if reduction == 1:
            v = b.div(v, w, e)
        return b.raw(f"arith.select {hit}, {v}, {b.const(0.0, e)} : {e}")
    init = fn.empty(lp.shape, e)
    return fn.generic([(tg, _map(2, ["d0"])), (g, _map(2, [])), (tw, _map(2, []))], init,
                      _identity(2), ["parallel", "parallel"], payload)


@handles("aten.mse_loss")
def _mse_loss(imp, node, x, target, reduction=1):
    v, t = imp.get(x), imp.get(target)
    _reduction_mode(imp, reduction)
    e = v.elt
    sq = imp.fn.elementwise([v, t], e, lambda b, a: (lambda d: b.mul(d, d, e))(b.sub(a[0], a[1], e)))
    s = imp.fn.reduce(sq, list(range(sq.rank)), False, 0.0, lambda b, a, acc: b.add(a, acc, e))
    if reduction == 2:
        return s
    n = float(np.prod(sq.shape))
    return imp.fn.elementwise([s], e, lambda b, a: b.div(a[0], b.scalar(n, e), e))


@handles("aten.mse_loss_backward")
def _mse_loss_backward(imp, node, grad, x, target, reduction=1):
    g, v, t = imp.get(grad), imp.get(x), imp.get(target)
    _reduction_mode(imp, reduction)
    e = v.elt
    k = 2.0 / (float(np.prod(v.shape)) if reduction == 1 else 1.0)
    return imp.fn.elementwise([v, t, g], e, lambda b, a: b.mul(
        b.mul(b.sub(a[0], a[1], e), a[2], e), b.scalar(k, e), e))


def _flipped_filter(imp, w: Value, groups: int) -> Value:
    """The filter of the input gradient's convolution: [F, C/g, KH, KW] with
    its channel dimensions swapped within each group and its window
    reversed, as [g, C/g, F/g, KH, KW] (a copy generic whose input map
    reads ``K - 1 - k``)."""
    f, cg, kh, kw = w.shape
    wg = imp.fn.reshape(w, [groups, f // groups, cg, kh, kw])
    init = imp.fn.empty([groups, cg, f // groups, kh, kw], w.elt)
    return imp.fn.generic([(wg, _map(5, ["d0", "d2", "d1", f"{kh - 1} - d3", f"{kw - 1} - d4"]))],
                          init, _identity(5), ["parallel"] * 5, lambda b, a, o: a[0])


def _input_gradient(imp, gy: Value, w: Value, x_shape, stride, padding, dilation,
                    groups) -> Value:
    """dL/dx: the output gradient with (stride - 1) zeros between its
    elements, padded by dilation * (K - 1) - padding (plus the rows and
    columns the forward's stride left unread at the end), convolved at
    stride 1 with the flipped filter."""
    fn = imp.fn
    n, f, oh, ow = gy.shape
    c = x_shape[1]
    k = w.shape[2:]
    dilated = gy
    if any(s != 1 for s in stride):
        dshape = [n, f, (oh - 1) * stride[0] + 1, (ow - 1) * stride[1] + 1]
        zeros = fn.fill(0.0, dshape, gy.elt)
        dilated = Value(fn.fresh("dil"), dshape, gy.elt)
        fn.emit(f"{dilated.name} = tensor.insert_slice {gy.name} into {zeros.name}"
                f"[0, 0, 0, 0] [{n}, {f}, {oh}, {ow}] [1, 1, {stride[0]}, {stride[1]}] : "
                f"{gy.type} into {zeros.type}")
    low = [dilation[i] * (k[i] - 1) - padding[i] for i in range(2)]
    if min(low) < 0:
        raise imp.unsupported("the input gradient of a convolution padded by more than "
                              "dilation * (kernel - 1)")
    high = [x_shape[2 + i] + dilation[i] * (k[i] - 1) - dilated.shape[2 + i] - low[i]
            for i in range(2)]
    padded = fn.pad(dilated, [0, 0] + low, [0, 0] + high, 0.0)
    attrs = (f"{{dilations = dense<[{dilation[0]}, {dilation[1]}]> : vector<2xi64>, "
             f"strides = dense<1> : vector<2xi64>}}")
    out = fn.fill(0.0, list(x_shape), gy.elt)
    flipped = _flipped_filter(imp, w, groups)
    if groups == 1:
        return fn.named("conv_2d_nchw_fchw", [padded, fn.reshape(flipped, flipped.shape[1:])],
                        out, attrs)
    if groups == c and f == c:
        return fn.named("depthwise_conv_2d_nchw_chw",
                        [padded, fn.reshape(flipped, [c] + list(k))], out, attrs)
    g = groups
    pg = fn.reshape(padded, [n, g, f // g] + list(padded.shape[2:]))
    og = fn.reshape(out, [n, g, c // g] + list(x_shape[2:]))
    return fn.reshape(fn.named("conv_2d_ngchw_gfchw", [pg, flipped], og, attrs), x_shape)


def _weight_gradient(imp, gy: Value, padded_x: Value, w_shape, stride, dilation,
                     groups) -> Value:
    """dL/dw. Without groups, one contraction generic over batch and output
    positions, the filter gradient in [C, KH, KW, F] (its channel-major
    taps as the rows of a GEMM whose columns are the filters), permuted to
    [F, C, KH, KW]: the input read through the forward's window map, the
    output gradient in place (the x86 kernel builds the windows block by
    block, docs/lowering-x86.md). With groups, a contraction generic over
    batch and output positions, one filter per group."""
    fn = imp.fn
    n, f, oh, ow = gy.shape
    _, cg, kh, kw = w_shape
    e = gy.elt
    if groups == 1:
        # (c, kh, kw, f, n, oh, ow)
        rows = f"d5 * {stride[0]} + d1 * {dilation[0]}"
        cols = f"d6 * {stride[1]} + d2 * {dilation[1]}"
        gwt = fn.generic([(padded_x, _map(7, ["d4", "d0", rows, cols])),
                          (gy, _map(7, ["d4", "d3", "d5", "d6"]))],
                         fn.fill(0.0, [cg, kh, kw, f], e), _map(7, ["d0", "d1", "d2", "d3"]),
                         ["parallel"] * 4 + ["reduction"] * 3,
                         lambda b, a, o: b.add(o, b.mul(a[0], a[1], e), e))
        return fn.permute(gwt, [3, 0, 1, 2])
    # With groups: per group, output position column and filter tap, the
    # products summed over batch and output rows first (the column stays
    # the innermost, parallel loop, reading rows of both operands), then
    # the columns summed.
    g = groups
    xg = fn.reshape(padded_x, [n, g, cg] + list(padded_x.shape[2:]))
    gg = fn.reshape(gy, [n, g, f // g, oh, ow])
    # (g, f, c, kh, kw, n, oh, ow)
    rows = f"d6 * {stride[0]} + d3 * {dilation[0]}"
    cols = f"d7 * {stride[1]} + d4 * {dilation[1]}"
    acc = fn.fill(0.0, [g, f // g, cg, kh, kw, ow], e)
    columns = fn.generic([(xg, _map(8, ["d5", "d0", "d2", rows, cols])),
                          (gg, _map(8, ["d5", "d0", "d1", "d6", "d7"]))], acc,
                         _map(8, ["d0", "d1", "d2", "d3", "d4", "d7"]),
                         ["parallel"] * 5 + ["reduction"] * 2 + ["parallel"],
                         lambda b, a, o: b.add(o, b.mul(a[0], a[1], e), e))
    gw = fn.reduce(columns, [5], False, 0.0, lambda b, v, o: b.add(v, o, e))
    return fn.reshape(gw, list(w_shape))


@handles("aten.convolution_backward")
def _convolution_backward(imp, node, grad_out, x, w, bias_sizes, stride, padding, dilation,
                          transposed, output_padding, groups, output_mask):
    """The three gradients of a 2-D NCHW convolution (see _input_gradient
    and _weight_gradient); the bias gradient is the output gradient summed
    over batch and space. Gradients the mask does not ask for are not
    computed."""
    if transposed:
        raise imp.unsupported("the backward of a transposed convolution")
    gy, xv, wv = imp.get(grad_out), imp.get(x), imp.get(w)
    if xv.rank != 4:
        raise imp.unsupported(f"the backward of a {xv.rank - 2}-D convolution (2-D NCHW only)")
    e = gy.elt
    grad_x = grad_w = grad_b = None
    if output_mask[0]:
        grad_x = _input_gradient(imp, gy, wv, xv.shape, stride, padding, dilation, groups)
    if output_mask[1]:
        padded = imp.fn.pad(xv, [0, 0] + list(padding), [0, 0] + list(padding), 0.0)
        grad_w = _weight_gradient(imp, gy, padded, wv.shape, stride, dilation, groups)
    if output_mask[2]:
        grad_b = imp.fn.reduce(gy, [0, 2, 3], False, 0.0, lambda b, a, acc: b.add(a, acc, e))
    return (grad_x, grad_w, grad_b)


@handles("aten.var")
def _var(imp, node, x, dims=None, *args, **kwargs):
    """Variance over ``dims``: the mean, the centred squares summed, divided
    by count - correction (aten.var.correction and aten.var.dim)."""
    if node.target is aten.var.correction:
        correction = kwargs.get("correction")
        correction = 1 if correction is None else correction
        keepdim = kwargs.get("keepdim", False)
    else:
        unbiased = args[0] if args else kwargs.get("unbiased", True)
        keepdim = args[1] if len(args) > 1 else kwargs.get("keepdim", False)
        correction = 1 if unbiased else 0
    xv = imp.get(x)
    e = xv.elt
    dims = sorted(range(xv.rank) if not dims else {d % xv.rank for d in dims})
    count = float(np.prod([xv.shape[d] for d in dims]))
    _, _, sq = _centred_moments(imp, xv, dims)
    var = imp.fn.elementwise([sq], e, lambda b, a: b.div(
        a[0], b.scalar(max(count - correction, 0.0), e), e))
    return _drop_dims(imp, var, dims, keepdim)


@handles("aten.copy_")
def _copy_(imp, node, dst, src, non_blocking=False):
    """An argument's new value written in place (a batch norm's running
    statistics in a training step): the step must return it, then it is
    that result; the source broadcast to the destination's shape."""
    if dst.op == "placeholder" and node not in _returned_nodes(imp):
        raise imp.unsupported(f"an in-place update of argument '{dst.name}' that the "
                              "function does not return")
    shape, elt = _out(imp, node)
    s = imp.get(src)
    if s.elt != elt:
        raise imp.unsupported(f"a copy from {s.elt} into {elt}")
    if s.shape == shape:
        return s
    rank = len(shape)
    return imp.fn.generic([(s, _broadcast_map(s.shape, shape))], imp.fn.empty(shape, elt),
                          _identity(rank), ["parallel"] * rank, lambda b, a, o: a[0])


def _returned_nodes(imp):
    out = next(n for n in imp.traced.graph_module.graph.nodes if n.op == "output").args[0]
    return set(out if isinstance(out, (list, tuple)) else [out])


@handles("aten.ones_like", "aten.zeros_like", "aten.full_like")
def _filled_like(imp, node, x, *args, **kwargs):
    """A tensor of x's shape filled with one value (the backward seed of
    autograd when none is given): a linalg.fill."""
    name = _packet(node.target)
    value = {"aten.ones_like": 1.0, "aten.zeros_like": 0.0}.get(name)
    if value is None:
        value = args[0] if args else kwargs.get("fill_value")
    shape, elt = _out(imp, node)
    return imp.fn.fill(float(value) if elt.startswith(("f", "b")) else int(value), shape, elt)


@handles("aten.slice_backward")
def _slice_backward(imp, node, grad, input_sizes, dim, start, end, step):
    """The gradient of a slice: the slice's gradient padded with zeros back
    to the input's shape."""
    g = imp.get(grad)
    dim = dim % len(input_sizes)
    if step != 1:
        raise imp.unsupported("the backward of a strided slice")
    size = input_sizes[dim]
    start = min(max(start + size if start < 0 else start, 0), size)
    low = [start if i == dim else 0 for i in range(g.rank)]
    high = [size - start - g.shape[dim] if i == dim else 0 for i in range(g.rank)]
    return imp.fn.pad(g, low, high, 0.0)


@handles("aten.embedding")
def _embedding(imp, node, weight, indices, padding_idx=-1, scale_grad_by_freq=False,
               sparse=False):
    """Rows of the weight gathered by index: a generic over the result whose
    body extracts weight[index, column], as torch-mlir writes it."""
    w, idx = imp.get(weight), imp.get(indices)
    if w.rank != 2 or idx.elt not in ("i64", "i32"):
        raise imp.unsupported("embedding of a non-2-D weight or with non-integer indices")
    shape, e = _out(imp, node)
    rank = len(shape)
    init = imp.fn.empty(shape, e)
    checked = imp.record_index(indices, w.shape[0], weight)

    def payload(b, a, _o):
        row = b.index(a[0], idx.elt, w.shape[0], checked)
        col = b.raw(f"linalg.index {rank - 1} : index")
        return b.raw(f"tensor.extract {w.name}[{row}, {col}] : {w.type}")
    return imp.fn.generic([(idx, _map(rank, [f"d{i}" for i in range(rank - 1)]))], init,
                          _identity(rank), ["parallel"] * rank, payload)


@handles("aten.bitwise_not", "aten.logical_not")
def _logical_not(imp, node, x):
    v = imp.get(x)
    if v.elt != "i1":
        raise imp.unsupported(f"bitwise not of {v.elt} (bool tensors only)")
    return imp.fn.elementwise([v], "i1", lambda b, a: b.raw(
        f"arith.xori {a[0]}, {b.const(1, 'i1')} : i1"))


@handles("aten.bitwise_or", "aten.logical_or", "aten.bitwise_and", "aten.logical_and")
def _logical_binary(imp, node, x, y):
    """Or / and of bool tensors (masks, as torch's decompositions of
    activation gradients write them: ``x <= min | x >= max``)."""
    a, c = imp.get(x), imp.get(y)
    if a.elt != "i1" or c.elt != "i1":
        raise imp.unsupported(f"a logical op on {a.elt} and {c.elt} (bool tensors only)")
    op = "arith.ori" if _packet(node.target).endswith("_or") else "arith.andi"
    return imp.fn.elementwise([a, c], "i1", lambda b, v: b.raw(f"{op} {v[0]}, {v[1]} : i1"))


def _index_elt(imp, v: Value, what: str):
    if v.elt not in ("i64", "i32"):
        raise imp.unsupported(f"{what} of element type {v.elt} (integer indices only)")


@handles("aten.index")
def _index(imp, node, x, indices):
    """``x[i, j]`` with integer index tensors (aten.index.Tensor): a generic
    over the result whose body extracts x at the indices (broadcast
    together, negative ones counted from the end), as torch-mlir writes it.
    The index tensors must be adjacent (``x[:, i]``, not ``x[i, :, j]``)."""
    v = imp.get(x)
    shape, e = _out(imp, node)
    idx = list(indices) + [None] * (v.rank - len(indices))
    present = [d for d, t in enumerate(idx) if t is not None]
    if not present:
        return v
    if present != list(range(present[0], present[-1] + 1)):
        raise imp.unsupported("index tensors separated by a slice")
    ivals = [imp.get(idx[d]) for d in present]
    for iv in ivals:
        _index_elt(imp, iv, "index")
    bshape = broadcast_shape(*[iv.shape for iv in ivals])
    k, m, nb, rank = present[0], len(present), len(bshape), len(shape)
    if rank != k + nb + v.rank - k - m:
        raise imp.unsupported("an index form whose result shape is not x's with the "
                              "indexed dimensions replaced by the indices'")
    checked = [imp.record_index(idx[d], v.shape[d], x, low=-v.shape[d]) for d in present]
    ins = []
    for iv in ivals:
        off = nb - iv.rank
        ins.append((iv, _map(rank, ["0" if iv.shape[j] == 1 and bshape[off + j] != 1
                                    else f"d{k + off + j}" for j in range(iv.rank)])))
    init = imp.fn.empty(shape, e)

    def payload(b, a, _o):
        coords = [b.raw(f"linalg.index {i} : index") for i in range(k)]
        coords += [b.index(arg, iv.elt, v.shape[d], ok, wrap_negative=True)
                   for arg, iv, d, ok in zip(a, ivals, present, checked)]
        coords += [b.raw(f"linalg.index {k + nb + r} : index") for r in range(v.rank - k - m)]
        return b.raw(f"tensor.extract {v.name}[{', '.join(coords)}] : {v.type}")
    return imp.fn.generic(ins, init, _identity(rank), ["parallel"] * rank, payload)


@handles("aten.index_select")
def _index_select(imp, node, x, dim, index):
    """Slices of x along ``dim`` picked by a 1-D index tensor: a generic
    whose body extracts x at the index."""
    v, iv = imp.get(x), imp.get(index)
    _index_elt(imp, iv, "index_select")
    dim = dim % v.rank
    shape, e = _out(imp, node)
    rank = len(shape)
    checked = imp.record_index(index, v.shape[dim], x)
    init = imp.fn.empty(shape, e)
    ins = [(iv, _map(rank, [f"d{dim}"] if iv.rank else []))]

    def payload(b, a, _o):
        coords = [b.raw(f"linalg.index {i} : index") if i != dim else
                  b.index(a[0], iv.elt, v.shape[dim], checked) for i in range(rank)]
        return b.raw(f"tensor.extract {v.name}[{', '.join(coords)}] : {v.type}")
    return imp.fn.generic(ins, init, _identity(rank), ["parallel"] * rank, payload)


@handles("aten.gather")
def _gather(imp, node, x, dim, index, sparse_grad=False):
    """out[i][j] = x[index[i][j]][j] (dim 0): a generic over the index's
    shape whose body extracts x."""
    v, iv = imp.get(x), imp.get(index)
    _index_elt(imp, iv, "gather")
    dim = dim % v.rank
    shape, e = _out(imp, node)
    rank = len(shape)
    if rank != v.rank:
        raise imp.unsupported("gather with an index of another rank than the input")
    checked = imp.record_index(index, v.shape[dim], x)
    init = imp.fn.empty(shape, e)

    def payload(b, a, _o):
        coords = [b.raw(f"linalg.index {i} : index") if i != dim else
                  b.index(a[0], iv.elt, v.shape[dim], checked) for i in range(rank)]
        return b.raw(f"tensor.extract {v.name}[{', '.join(coords)}] : {v.type}")
    return imp.fn.generic([(iv, _identity(rank))], init, _identity(rank),
                          ["parallel"] * rank, payload)
