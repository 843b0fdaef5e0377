"""Training steps from torch.nn modules: forward, backward (traced through
autograd by make_fx), SGD with momentum, as one function marked by the
training-step convention of docs/training-step.md so that loss scaling and
the FP8 hybrid recipe apply.

    @step(x, target, params..., momentum buffers..., read-only buffers...)
        -> (loss {lowp.loss}, new params {lowp.updates = i}, new buffers {lowp.updates = j})

The backward seed is a marked ``linalg.fill`` of 1.0, each parameter's
gradient a marked copy (``lowp.gradient = "fc1.weight"``) that the update
reads. The momentum buffers start at zero, which gives PyTorch's first step
(``buf = grad``) exactly.
"""

from __future__ import annotations

from typing import Callable, Optional

import torch
from torch._decomp import get_decompositions
from torch.fx.experimental.proxy_tensor import make_fx
from torch.fx.passes.shape_prop import ShapeProp
from torch.nn.utils import stateless

from .aten_to_linalg import import_traced, index_bounds
from .tracing import TracedModule, UnsupportedOp, _align_paths, _export_mode, \
    _ModulePaths, _RecordPaths, input_names

_LOSSES = {"cross_entropy": torch.nn.functional.cross_entropy,
           "mse": torch.nn.functional.mse_loss}


def _loss_function(loss_fn) -> Callable:
    if isinstance(loss_fn, str):
        try:
            return _LOSSES[loss_fn]
        except KeyError:
            raise ValueError(f"loss '{loss_fn}': one of {', '.join(_LOSSES)}, or a "
                             "callable (output, target) -> scalar") from None
    return loss_fn


def trace_training_step(module: torch.nn.Module, loss_fn, example_args, example_targets,
                        optimizer: str = "sgd", lr: float = 1e-2,
                        momentum: float = 0.0) -> TracedModule:
    if optimizer != "sgd":
        raise ValueError(f"optimizer '{optimizer}': only 'sgd' (with momentum) is supported")
    loss_fn = _loss_function(loss_fn)
    inputs = list(example_args) if isinstance(example_args, (tuple, list)) else [example_args]
    targets = list(example_targets) if isinstance(example_targets, (tuple, list)) \
        else [example_targets]
    for sub_name, sub in module.named_modules():
        if isinstance(sub, torch.nn.modules.batchnorm._BatchNorm) and sub.track_running_stats:
            raise UnsupportedOp("aten.native_batch_norm", "batch norm in training mode "
                                "(batch statistics and running-statistics updates) is not "
                                "supported in training steps yet", sub_name)
    names = [n for n, _ in module.named_parameters()]
    params = [p.detach().clone() for _, p in module.named_parameters()]
    buffers = [torch.zeros_like(p) for p in params] if momentum else []
    # Buffers the forward only reads (a causal mask): arguments after the
    # momentum buffers, never updated.
    buffer_names = [n for n, _ in module.named_buffers()]
    constants = [b.detach() for _, b in module.named_buffers()]
    n_in, n_t, n_p = len(inputs), len(targets), len(params)
    hooks = _ModulePaths(module)
    recorder = _RecordPaths(hooks)

    def step(*args):
        xs, ts = args[:n_in], args[n_in:n_in + n_t]
        seed = args[n_in + n_t]
        ps = [p.requires_grad_() for p in args[n_in + n_t + 1:n_in + n_t + 1 + n_p]]
        bufs = args[n_in + n_t + 1 + n_p:n_in + n_t + 1 + n_p + len(buffers)]
        state = dict(zip(names, ps))
        state.update(zip(buffer_names, args[n_in + n_t + 1 + n_p + len(buffers):]))
        with recorder:
            out = stateless.functional_call(module, state, tuple(xs))
            loss = loss_fn(out, *ts)
            grads = torch.autograd.grad(loss, ps, grad_outputs=seed)
            new_p, new_b = [], []
            with torch.no_grad():
                for i, (p, g) in enumerate(zip(ps, grads)):
                    if momentum:
                        b = bufs[i] * momentum + g
                        new_b.append(b)
                        g = b
                    new_p.append(p - lr * g)
        return (loss.detach(), *new_p, *new_b, *grads)

    seed = torch.ones(())
    aten = torch.ops.aten
    # Backward formulas of norms and activations as the elementwise ops and
    # reductions they are (torch._decomp's own decompositions).
    decompositions = get_decompositions([
        aten.native_layer_norm_backward, aten.gelu_backward, aten._softmax_backward_data,
        aten.tanh_backward, aten.sigmoid_backward, aten.silu_backward,
        aten.hardtanh_backward, aten.hardsigmoid_backward, aten.hardswish_backward])
    was_training = module.training
    module.train()
    try:
        with _export_mode(module, keep_linear=False):
            gm = make_fx(step, decomposition_table=decompositions)(
                *inputs, *targets, seed, *params, *buffers, *constants)
    finally:
        hooks.remove()
        module.train(was_training)
    gm.graph.eliminate_dead_code()
    gm.recompile()
    ShapeProp(gm).propagate(*inputs, *targets, seed, *params, *buffers, *constants)
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    outputs = next(n for n in gm.graph.nodes if n.op == "output").args[0]
    n_results = 1 + n_p + len(buffers)
    gradient_nodes = {}
    for g, name in zip(outputs[n_results:], names):
        if not isinstance(g, torch.fx.Node) or g.op != "call_function":
            raise UnsupportedOp("autograd", f"the gradient of '{name}' is not computed by an op")
        gradient_nodes[g.name] = name
    # Arguments: inputs, targets, params, momentum buffers, read-only
    # buffers (the seed placeholder is not an argument).
    first_param = n_in + n_t
    attrs = ["lowp.loss"] + [f"lowp.updates = {first_param + i} : i64" for i in range(n_p)] + \
        [f"lowp.updates = {first_param + n_p + i} : i64" for i in range(len(buffers))]
    traced = TracedModule(gm, n_in + n_t + 1, names + [f"{n}.momentum_buffer" for n in
                                                        (names if momentum else [])]
                          + buffer_names, params + buffers + constants)
    traced.paths = _align_paths(gm.graph, recorder.calls)
    traced.seed_placeholder = placeholders[n_in + n_t].name
    traced.gradient_nodes = gradient_nodes
    traced.result_attributes = attrs
    traced.result_count = n_results
    traced.input_names = input_names(module, n_in) + (
        ["target"] if n_t == 1 else [f"target{i}" for i in range(n_t)])
    return traced


def export_training_step(module: torch.nn.Module, loss_fn, example_args, example_targets,
                         optimizer: str = "sgd", lr: float = 1e-2, momentum: float = 0.0) -> str:
    """One SGD step of ``module`` on (``example_args``, ``example_targets``)
    as MLIR text marked by the training-step convention (see the module
    docstring for the signature). ``loss_fn``: "cross_entropy", "mse" or a
    callable (output, *targets) -> scalar."""
    traced = trace_training_step(module, loss_fn, example_args, example_targets,
                                 optimizer, lr, momentum)
    text, _ = import_traced(traced, "arguments", type(module).__name__, function="step")
    return text


class CompiledTrainingStep:
    """``loss = step(x, target)``: runs one compiled step and writes the new
    parameters (and momentum buffers) back into the module in place."""

    def __init__(self, module, function, n_in, n_t, momentum, bounds=()):
        self.module = module
        #: Inputs and targets that index a tensor (class targets of
        #: cross_entropy, embedding ids): checked before every step.
        self.index_bounds = list(bounds)
        self.function = function
        self.n_in, self.n_t = n_in, n_t
        self.params = [p for _, p in module.named_parameters()]
        self.buffers = [torch.zeros_like(p) for p in self.params] if momentum else []
        self.constants = [b for _, b in module.named_buffers()]
        expected = n_in + n_t + len(self.params) + len(self.buffers) + len(self.constants)
        if len(function.arguments) != expected:
            raise NotImplementedError(
                f"the compiled step takes {len(function.arguments)} arguments, not the "
                f"{expected} of the module's step: loss-scaling state (policy f16) is not "
                "bound by compile_training_step yet")

    def __call__(self, *xs_and_targets):
        from . import _to_numpy, check_index_bounds
        if len(xs_and_targets) != self.n_in + self.n_t:
            raise TypeError(f"the step takes {self.n_in} inputs and {self.n_t} targets")
        args = [_to_numpy(t) for t in xs_and_targets]
        check_index_bounds(self.index_bounds, args)
        state = [_to_numpy(p) for p in self.params] + [_to_numpy(b) for b in self.buffers]
        args += state + [_to_numpy(c) for c in self.constants]
        # The new parameters and momentum buffers are written straight into
        # the module's tensors (their numpy views share the memory) once
        # the step has returned.
        shares = [a if a.flags["C_CONTIGUOUS"] and a.flags["WRITEABLE"] else None
                  for a in state]
        outs = self.function.call_into([None] + shares, *args)
        loss, rest = outs[0], outs[1:]
        with torch.no_grad():
            for tensor, new, shared in zip(self.params + self.buffers, rest, shares):
                if shared is None:
                    tensor.copy_(torch.from_numpy(new))
        return torch.from_numpy(loss)


def compile_training_step(module, loss_fn, example_args, example_targets, *,
                          optimizer: str = "sgd", lr: float = 1e-2, momentum: float = 0.0,
                          target: Optional[str] = None, policy: str = "auto",
                          threads: int = 1, cache_dir: Optional[str] = None,
                          lowering: str = "x86") -> CompiledTrainingStep:
    import fpopt
    text = export_training_step(module, loss_fn, example_args, example_targets,
                                optimizer, lr, momentum)
    fn = fpopt.compile(text, target=target, policy=policy, threads=threads,
                       cache_dir=cache_dir, source_name=type(module).__name__,
                       lowering=lowering)
    n_in = len(example_args) if isinstance(example_args, (tuple, list)) else 1
    n_t = len(example_targets) if isinstance(example_targets, (tuple, list)) else 1
    return CompiledTrainingStep(module, fn, n_in, n_t, momentum, index_bounds(text))
