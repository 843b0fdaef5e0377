"""From a torch.nn.Module to an aten graph (torch.fx), with shapes and the
module path of every op.

``make_fx(functionalize(f))`` records the aten ops a forward runs (in-place
ops become their functional forms); parameters and buffers are placeholders
after the inputs. ``nn.functional.linear`` is recorded as one op
(``fpopt::linear``) instead of its decomposition, because torch-mlir sees
``aten.linear`` and lowers a Linear on a 3-D/4-D activation as a broadcast
weight + ``batch_matmul``: that is the IR real exports contain.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import torch
import torch.fx
from torch.fx.experimental.proxy_tensor import make_fx
from torch.fx.passes.shape_prop import ShapeProp
from torch.nn.utils import stateless
from torch.utils._python_dispatch import TorchDispatchMode

try:
    from functorch import functionalize
except ImportError:  # pragma: no cover - torch without functorch
    functionalize = None

_LIB = None
_ORIGINAL_LINEAR = torch.nn.functional.linear


def _linear_op():
    """torch.ops.fpopt.linear: aten.linear kept whole through make_fx."""
    global _LIB
    if _LIB is None:
        _LIB = torch.library.Library("fpopt", "DEF")
        _LIB.define("linear(Tensor input, Tensor weight, Tensor? bias) -> Tensor")

        def impl(x, w, b=None):
            return _ORIGINAL_LINEAR(x, w, b)

        _LIB.impl("linear", impl, "CPU")
        _LIB.impl("linear", impl, "Meta")
    return torch.ops.fpopt.linear.default


class UnsupportedOp(Exception):
    """An aten op (or a form of one) the importer has no lowering for."""

    def __init__(self, op: str, reason: str, path: str = "", node: str = ""):
        self.op = op
        self.reason = reason
        self.path = path
        self.node = node
        where = f" in '{path}'" if path else " at the top level"
        at = f" (graph node {node})" if node else ""
        super().__init__(f"{op}{where}{at}: {reason}")


#: Ops whose result depends on a tensor's values in a way a static graph
#: cannot express: reading a value into Python (data-dependent control
#: flow) or a shape that depends on the data.
_DATA_DEPENDENT = ("aten._local_scalar_dense", "aten.is_nonzero", "aten.item",
                   "aten.nonzero", "aten.equal", "aten.unique", "aten._unique2",
                   "aten.masked_select")


@dataclass
class TracedModule:
    """An aten graph: placeholders are the inputs, then the parameters and
    buffers (``state_names``); ``paths`` maps a node name to the module path
    of the op (``layer3.1.conv2``)."""

    graph_module: torch.fx.GraphModule
    input_count: int
    state_names: List[str]
    state_values: List[torch.Tensor]
    paths: Dict[str, str] = field(default_factory=dict)
    #: Training steps (docs/training-step.md): the placeholder written as the
    #: backward seed (a marked fill of 1.0), the nodes that are master
    #: gradients (node name -> parameter name), the attributes of the
    #: results, and how many of the graph's outputs are results (the rest
    #: only name the gradients).
    seed_placeholder: Optional[str] = None
    gradient_nodes: Dict[str, str] = field(default_factory=dict)
    result_attributes: List[str] = field(default_factory=list)
    result_count: Optional[int] = None
    #: Names of the input placeholders for messages: the forward's
    #: parameter names (``token``, ``caches[0]`` for ``*caches``).
    input_names: List[str] = field(default_factory=list)


class _ModulePaths:
    """Forward hooks that keep the path of the module running now."""

    def __init__(self, module: torch.nn.Module):
        self.stack: List[str] = []
        self.handles = []
        for name, sub in module.named_modules():
            self.handles.append(sub.register_forward_pre_hook(self._enter(name)))
            self.handles.append(sub.register_forward_hook(self._leave))

    def _enter(self, name):
        def hook(_module, _args):
            self.stack.append(name)
        return hook

    def _leave(self, _module, _args, _out):
        if self.stack:
            self.stack.pop()

    @property
    def current(self) -> str:
        return self.stack[-1] if self.stack else ""

    def remove(self):
        for h in self.handles:
            h.remove()


class _RecordPaths(TorchDispatchMode):
    """Records (op, module path) for every aten op, in call order."""

    def __init__(self, paths: _ModulePaths):
        super().__init__()
        self.paths = paths
        self.calls: List[Tuple[object, str]] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        name = str(getattr(func, "overloadpacket", func))
        if name in _DATA_DEPENDENT:
            raise UnsupportedOp(name, "the forward depends on the values of a tensor "
                                "(data-dependent control flow or shape): a static graph "
                                "would bake in this one input's path",
                                self.paths.current, "")
        self.calls.append((func, self.paths.current))
        return func(*args, **(kwargs or {}))


@contextlib.contextmanager
def _export_mode(module: torch.nn.Module, keep_linear: bool = True):
    """Linear kept whole; MultiheadAttention off its fused inference path
    (``aten._native_multi_head_attention``, which only runs in eval mode)
    without changing what it computes."""
    linear = _linear_op()
    saved = []
    for sub in module.modules():
        # Their fused inference kernels (_transformer_encoder_layer_fwd,
        # _native_multi_head_attention) only run outside training: the flag
        # on the layer object alone selects the composite path; dropout
        # modules below keep their own flags, MHA's own dropout is zeroed.
        if isinstance(sub, torch.nn.MultiheadAttention):
            saved.append((sub, sub.training, sub.dropout))
            sub.training, sub.dropout = True, 0.0 if not sub.training else sub.dropout
        elif isinstance(sub, (torch.nn.TransformerEncoderLayer,
                              torch.nn.TransformerDecoderLayer)):
            saved.append((sub, sub.training, None))
            sub.training = True
    if keep_linear:  # fpopt::linear has no autograd formula: not for training
        torch.nn.functional.linear = lambda x, w, b=None: linear(x, w, b)
    try:
        yield
    finally:
        torch.nn.functional.linear = _ORIGINAL_LINEAR
        for sub, training, dropout in saved:
            sub.training = training
            if dropout is not None:
                sub.dropout = dropout


def _as_tensors(args) -> List[torch.Tensor]:
    if isinstance(args, torch.Tensor):
        args = (args,)
    out = []
    for a in args:
        if not isinstance(a, torch.Tensor):
            raise TypeError(f"example arguments must be tensors, got {type(a).__name__}")
        out.append(a)
    return out


def input_names(module: torch.nn.Module, count: int) -> List[str]:
    """The names of the first ``count`` positional arguments of
    ``module.forward`` (``caches[i]`` for a ``*caches`` parameter, ``input{i}``
    where the signature says nothing)."""
    import inspect
    names: List[str] = []
    try:
        params = list(inspect.signature(module.forward).parameters.values())
    except (TypeError, ValueError):
        params = []
    for p in params:
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
        elif p.kind == p.VAR_POSITIONAL:
            names += [f"{p.name}[{i}]" for i in range(max(count - len(names), 0))]
            break
        else:
            break
    names = names[:count]
    return names + [f"input{i}" for i in range(len(names), count)]


def trace_forward(module: torch.nn.Module, example_args) -> TracedModule:
    """The eval-mode forward of ``module`` on ``example_args`` as an aten
    graph with shapes (node.meta['tensor_meta'])."""
    if functionalize is None:
        raise RuntimeError("fpopt.torch needs functorch (Debian's python3-torch has it)")
    inputs = _as_tensors(example_args)
    params = dict(module.named_parameters())
    buffers = dict(module.named_buffers())
    names = list(params) + list(buffers)
    values = [params[n].detach() if n in params else buffers[n] for n in names]
    n_in = len(inputs)
    hooks = _ModulePaths(module)
    recorder = _RecordPaths(hooks)

    def forward(*args):
        state = dict(zip(names, args[n_in:]))
        with recorder:
            return stateless.functional_call(module, state, tuple(args[:n_in]))

    try:
        with torch.no_grad(), _export_mode(module):
            gm = make_fx(functionalize(forward))(*inputs, *values)
    finally:
        hooks.remove()
    gm.graph.eliminate_dead_code()
    gm.recompile()
    ShapeProp(gm).propagate(*inputs, *values)
    traced = TracedModule(gm, n_in, names, values)
    traced.paths = _align_paths(gm.graph, recorder.calls)
    traced.input_names = input_names(module, n_in)
    return traced


def _functional_name(op) -> str:
    """aten.relu_.default -> aten.relu (the form functionalization records)."""
    name = str(getattr(op, "overloadpacket", op))
    return name[:-1] if name.endswith("_") and not name.endswith("__") else name


def _align_paths(graph: torch.fx.Graph, calls: Sequence[Tuple[object, str]]) -> Dict[str, str]:
    """Module paths of the graph's ops, matched in order against the calls
    seen at run time (functionalization can rename an op in place to its
    functional form, and adds copies: those keep the last path)."""
    names = [(_functional_name(op), path) for op, path in calls]
    paths, j, last = {}, 0, ""
    for node in graph.nodes:
        if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
            continue
        want = _functional_name(node.target)
        k = j
        while k < len(names) and names[k][0] != want:
            k += 1
        if k < len(names):
            last, j = names[k][1], k + 1
        paths[node.name] = last
    return paths
