"""PyTorch models into fp-opt.

    import fpopt.torch
    text = fpopt.torch.export(module, example_args)           # MLIR text
    fm = fpopt.torch.compile(module, example_args, target="znver4", policy="auto")
    y = fm(x)                                                 # torch tensors in and out

``export`` traces the eval-mode forward to aten ops (``make_fx`` over
``functionalize``, in Debian's torch 1.13) and writes each op as linalg on
tensors the way torch-mlir's TorchToLinalg writes it (aten_to_linalg.py).
Shapes are the example arguments' (static). ``weights="arguments"`` makes
every parameter and buffer an argument of ``@forward`` after the inputs
(each argument's location is its name: ``loc("layer1.0.conv1.weight")``);
``weights="constants"`` writes them as ``dense_resource`` blobs.

``compile`` exports with weights as arguments, compiles with
``fpopt.compile`` and binds the module's current weights once (packed once
with ``prepack=True``; with ``demote_weights=True`` they are converted once
to the format the decisions chose for them). With ``demote_state=True``,
state the module returns updated (a decoder's KV cache) comes back in the
format it is read in (a bfloat16 tensor), to be passed to the next call
as it is; with ``demote_state="f8E4M3FN"`` it is stored in FP8 (a uint8
tensor of codes; float tensors given for it are rounded).
"""

from __future__ import annotations

from typing import List, Optional, Union

import numpy as np
import torch

from .aten_to_linalg import IndexBound, UnsupportedOp, import_traced, index_bounds
from .tracing import trace_forward
from .training import CompiledTrainingStep, compile_training_step, export_training_step

__all__ = ["UnsupportedOp", "IndexBound", "index_bounds", "export", "compile", "CompiledModule", "export_training_step",
           "compile_training_step", "CompiledTrainingStep"]


def _module_name(module: torch.nn.Module) -> str:
    return type(module).__name__


def export(module: torch.nn.Module, example_args, weights: str = "arguments",
           split: bool = False) -> str:
    """The eval-mode forward of ``module`` on ``example_args`` (a tensor or
    a tuple of tensors) as MLIR text: ``func.func @forward`` over linalg on
    tensors. Raises UnsupportedOp for an op without a lowering, naming the
    op and its module path. ``split=True`` puts every computing aten op in
    a private function of its own, for profiles per op (bench/models)."""
    return _export(module, example_args, weights, split)[0]


def _export(module, example_args, weights, split=False):
    was_training = module.training
    module.eval()
    try:
        traced = trace_forward(module, example_args)
    finally:
        module.train(was_training)
    return import_traced(traced, weights, _module_name(module), split=split)


class CompiledModule:
    """A module compiled by fp-opt with its weights bound: called with torch
    tensors (the example arguments' shapes), returns torch tensors."""

    def __init__(self, function, bound, argument_names: List[str], input_count: int,
                 ir: str):
        #: The fpopt.CompiledFunction (signature, remarks, shared object).
        self.function = function
        self._bound = bound
        #: Names of @forward's arguments: input0.., then weights.
        self.argument_names = argument_names
        self.input_count = input_count
        #: The exported MLIR text.
        self.ir = ir
        #: The integer inputs that index a tensor and their valid ranges
        #: (IndexBound, from the export): checked before every call, an
        #: IndexError for a value outside. ``check_indices = False`` skips
        #: the check (the compiled code then clamps nothing it was told is
        #: checked: an out-of-range value reads out of bounds).
        self.index_bounds: List[IndexBound] = index_bounds(ir)
        self.check_indices = True

    @property
    def diagnostics(self) -> List[str]:
        return self.function.diagnostics

    def __call__(self, *inputs):
        if len(inputs) != self.input_count:
            raise TypeError(f"the compiled module takes {self.input_count} inputs, "
                            f"got {len(inputs)}")
        arrays = []
        for i, t in enumerate(inputs):
            if not isinstance(t, torch.Tensor):
                raise TypeError(f"input {i} is a {type(t).__name__}, expected a tensor")
            arrays.append(_to_numpy(t))
        if self.check_indices:
            check_index_bounds(self.index_bounds, arrays)
        out = self._bound(*arrays)
        if isinstance(out, tuple):
            return tuple(_to_torch(o, r) for o, r in zip(out, self.function.results))
        return _to_torch(out, self.function.results[0])


def check_index_bounds(bounds: List[IndexBound], arrays) -> None:
    """Raises IndexError for the first argument (numpy arrays, in the
    function's argument order) outside its IndexBound."""
    for b in bounds:
        if 0 <= b.argument < len(arrays):
            b.check(arrays[b.argument])


def _to_numpy(t: torch.Tensor) -> np.ndarray:
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    return t.numpy()


def _to_torch(a: np.ndarray, ttype) -> torch.Tensor:
    if ttype.element == "bf16":
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


def compile(module: torch.nn.Module, example_args, *, target: Optional[str] = None,
            policy: str = "auto", threads: int = 1, demote_weights: bool = False,
            demote_state: Union[bool, str] = False,
            prepack: bool = False, x86_options: str = "",
            cache_dir: Optional[str] = None, lowering: str = "x86",
            line_tables: bool = False) -> CompiledModule:
    """Exports ``module`` (weights as arguments), compiles it for this CPU
    (``target`` None: the host's row of the capability table) with
    ``policy`` ("f32": no decision pass; else a lowp-auto-mixed-precision
    policy), binds the current weights and returns a callable on tensors.
    ``line_tables``: as fpopt.compile's."""
    import fpopt

    args = example_args if isinstance(example_args, (tuple, list)) else (example_args,)
    text, names = _export(module, args, "arguments")
    fn = fpopt.compile(text, target=target, policy=policy, threads=threads,
                       demote_weights=demote_weights, demote_state=demote_state,
                       prepack=prepack,
                       x86_options=x86_options, cache_dir=cache_dir,
                       source_name=_module_name(module), lowering=lowering,
                       line_tables=line_tables)
    state = dict(module.named_parameters())
    state.update(dict(module.named_buffers()))
    n_in = len(args)
    weights = {}
    for i, name in enumerate(names[n_in:], start=n_in):
        value = state[name].detach()
        if fn.arguments[i].element == "bf16":
            value = value.to(torch.bfloat16)
        elif fn.arguments[i].element == "f16":
            value = value.to(torch.float16)
        elif i in fn.fp8_channel_scales:
            value = value.float()  # quantized by bind(), with its scales
        elif fn.arguments[i].element not in ("f32", "f64", "i64", "i32", "i1"):
            raise NotImplementedError(
                f"weight '{name}' is decided {fn.arguments[i]}: binding FP8 weights "
                "(with their scales) is not supported by fpopt.torch.compile")
        weights[i] = _to_numpy(value)
    bound = fn.bind(weights)
    return CompiledModule(fn, bound, names, n_in, text)
