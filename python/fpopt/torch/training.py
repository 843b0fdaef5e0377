"""Training steps from torch.nn modules: forward, backward (traced through
autograd by make_fx) and the optimizer update (SGD with momentum, AdamW),
as one function marked by the training-step convention of
docs/training-step.md so that loss scaling and the FP8 hybrid recipe apply.

    @step(x, target, params..., optimizer state..., optimizer scalars...,
          buffers...)
        -> (loss {lowp.loss}, new params {lowp.updates = i},
            new optimizer state {lowp.updates = j},
            new running statistics {lowp.updates = k})

The backward seed is a marked ``linalg.fill`` of 1.0, each parameter's
gradient a marked copy (``lowp.gradient = "fc1.weight"``) that the update
reads. The optimizer state (momentum buffers; AdamW's exp_avg and
exp_avg_sq) starts at zero, which gives PyTorch's first step exactly.
Batch norms run in training mode: they normalize by the batch's statistics
and return their updated running mean and variance.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple

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


@dataclass
class Optimizer:
    """The update a step applies, written as torch.optim 1.13 computes it
    (single-tensor path, same order of operations):

    - ``sgd``: ``g += weight_decay * p``; with momentum ``b = momentum * b +
      g`` (the buffer starts at zero, which is PyTorch's first step
      ``b = g``) and ``g = b``; ``p -= lr * g``.
    - ``adamw``: ``p *= 1 - lr * weight_decay``; ``m = beta1 * m + (1 -
      beta1) * g``; ``v = beta2 * v + (1 - beta2) * g * g``; ``p -=
      step_size * m / (sqrt(v) / bias_correction2_sqrt + eps)``. The two
      per-step scalars depend on the step count, which PyTorch keeps on
      the host: they are arguments computed by the caller in double
      (``scalars``), so one compiled step serves every step.
    """
    name: str = "sgd"
    lr: float = 1e-2
    momentum: float = 0.0
    betas: Tuple[float, float] = (0.9, 0.999)
    eps: float = 1e-8
    weight_decay: float = 0.0

    def __post_init__(self):
        if self.name not in ("sgd", "adamw"):
            raise ValueError(f"optimizer '{self.name}': 'sgd' (with momentum) or 'adamw'")

    @property
    def state_kinds(self) -> List[str]:
        """Per-parameter state tensors, in argument order (one group of
        all parameters per kind), named as torch.optim's state_dict."""
        if self.name == "adamw":
            return ["exp_avg", "exp_avg_sq"]
        return ["momentum_buffer"] if self.momentum else []

    @property
    def scalar_names(self) -> List[str]:
        return ["adamw.step_size", "adamw.bias_correction2_sqrt"] \
            if self.name == "adamw" else []

    def scalars(self, step: int) -> List[float]:
        """The per-step scalar arguments of step ``step`` (1-based)."""
        if self.name != "adamw":
            return []
        beta1, beta2 = self.betas
        return [self.lr / (1 - beta1 ** step), math.sqrt(1 - beta2 ** step)]

    def update(self, params, grads, states, scalars):
        """(new parameters, new states flattened kind by kind)."""
        n = len(params)
        new_p, new_s = [], [None] * len(states)
        for i, (p, g) in enumerate(zip(params, grads)):
            if self.name == "sgd":
                if self.weight_decay:
                    g = g + p * self.weight_decay
                if self.momentum:
                    g = new_s[i] = states[i] * self.momentum + g
                new_p.append(p - g * self.lr)
                continue
            beta1, beta2 = self.betas
            step_size, bias_correction2_sqrt = scalars
            p = p * (1 - self.lr * self.weight_decay)
            m = new_s[i] = states[i] * beta1 + g * (1 - beta1)
            v = new_s[n + i] = states[n + i] * beta2 + g * (1 - beta2) * g
            denom = torch.sqrt(v) / bias_correction2_sqrt + self.eps
            new_p.append(p - step_size * m / denom)
        return new_p, new_s


def _optimizer(optimizer, lr, momentum, weight_decay, **kw) -> Optimizer:
    if isinstance(optimizer, Optimizer):
        return optimizer
    if weight_decay is None:  # torch.optim's defaults
        weight_decay = 1e-2 if optimizer == "adamw" else 0.0
    return Optimizer(optimizer, lr, momentum, weight_decay=weight_decay, **kw)


def _batch_norms(module: torch.nn.Module):
    return [(name, sub) for name, sub in module.named_modules()
            if isinstance(sub, torch.nn.modules.batchnorm._BatchNorm)
            and sub.track_running_stats]


def step_buffers(module: torch.nn.Module) -> List[Tuple[str, torch.Tensor]]:
    """The buffers a training step takes as arguments: every buffer but the
    batch norms' ``num_batches_tracked``, which the caller counts."""
    counts = {f"{name}.num_batches_tracked" if name else "num_batches_tracked"
              for name, _ in _batch_norms(module)}
    return [(n, b) for n, b in module.named_buffers() if n not in counts]


def running_statistics(module: torch.nn.Module) -> List[str]:
    """Buffers a training step updates: the running mean and variance of
    every batch norm (in training mode it normalizes by the batch's
    statistics and updates these)."""
    names = []
    for name, sub in _batch_norms(module):
        if sub.momentum is None:
            raise UnsupportedOp("aten.native_batch_norm", "batch norm with momentum=None "
                                "(a cumulative average over all steps) in a training step",
                                name)
        prefix = f"{name}." if name else ""
        names += [prefix + "running_mean", prefix + "running_var"]
    return names


@contextlib.contextmanager
def _batch_counts_kept_outside(module: torch.nn.Module):
    """Batch norms traced without their step counter (``num_batches_tracked``
    only serves momentum=None; CompiledTrainingStep counts the steps)."""
    saved = [(sub, sub.num_batches_tracked) for _, sub in _batch_norms(module)]
    for sub, _ in saved:
        sub.num_batches_tracked = None
    try:
        yield
    finally:
        for sub, count in saved:
            sub.num_batches_tracked = count


def trace_training_step(module: torch.nn.Module, loss_fn, example_args, example_targets,
                        optimizer="sgd", lr: float = 1e-2, momentum: float = 0.0,
                        weight_decay: Optional[float] = None, **optimizer_options
                        ) -> TracedModule:
    opt = _optimizer(optimizer, lr, momentum, weight_decay, **optimizer_options)
    loss_fn = _loss_function(loss_fn)
    inputs = list(example_args) if isinstance(example_args, (tuple, list)) else [example_args]
    targets = list(example_targets) if isinstance(example_targets, (tuple, list)) \
        else [example_targets]
    names = [n for n, _ in module.named_parameters()]
    params = [p.detach().clone() for _, p in module.named_parameters()]
    states = [torch.zeros_like(p) for _ in opt.state_kinds for p in params]
    scalars = [torch.tensor(v, dtype=torch.float32) for v in opt.scalars(1)]
    # Buffers: arguments after the optimizer's scalars. The forward reads
    # them (a causal mask) and batch norms update their running statistics.
    buffer_names = [n for n, _ in step_buffers(module)]
    constants = [b.detach().clone() for _, b in step_buffers(module)]
    running = running_statistics(module)
    n_in, n_t, n_p, n_s = len(inputs), len(targets), len(params), len(states)
    n_c = len(scalars)
    hooks = _ModulePaths(module)
    recorder = _RecordPaths(hooks)

    def step(*args):
        xs, ts = args[:n_in], args[n_in:n_in + n_t]
        seed = args[n_in + n_t]
        rest = args[n_in + n_t + 1:]
        ps = [p.requires_grad_() for p in rest[:n_p]]
        opt_states, opt_scalars = rest[n_p:n_p + n_s], rest[n_p + n_s:n_p + n_s + n_c]
        state = dict(zip(names, ps))
        state.update(zip(buffer_names, rest[n_p + n_s + n_c:]))
        with recorder:
            out = stateless.functional_call(module, state, tuple(xs))
            loss = loss_fn(out, *ts)
            grads = torch.autograd.grad(loss, ps, grad_outputs=seed)
            with torch.no_grad():
                new_p, new_s = opt.update(ps, grads, opt_states, opt_scalars)
        # A batch norm wrote its running statistics in place (aten.copy_):
        # the tensors passed in now stand for the new values.
        return (loss.detach(), *new_p, *new_s, *[state[n] for n in running], *grads)

    seed = torch.ones(())
    aten = torch.ops.aten
    # Backward formulas of norms and activations as the elementwise ops and
    # reductions they are (torch._decomp's own decompositions); batch norm
    # in training mode as its batch statistics and running-statistics
    # updates.
    decompositions = get_decompositions([
        aten.native_layer_norm_backward, aten.gelu_backward, aten._softmax_backward_data,
        aten.tanh_backward, aten.sigmoid_backward, aten.silu_backward,
        aten.hardsigmoid_backward, aten.hardswish_backward,
        aten.native_batch_norm, aten.native_batch_norm_backward])
    example = [*inputs, *targets, seed, *params, *states, *scalars, *constants]
    was_training = module.training
    module.train()
    try:
        with _export_mode(module, keep_linear=False), _batch_counts_kept_outside(module):
            gm = make_fx(step, decomposition_table=decompositions)(*example)
    finally:
        hooks.remove()
        module.train(was_training)
    gm.graph.eliminate_dead_code()
    gm.recompile()
    ShapeProp(gm).propagate(*inputs, *targets, seed, *params, *states, *scalars,
                            *[c.clone() for c in constants])
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    outputs = next(n for n in gm.graph.nodes if n.op == "output").args[0]
    n_results = 1 + n_p + n_s + len(running)
    gradient_nodes = {}
    for g, name in zip(outputs[n_results:], names):
        if not isinstance(g, torch.fx.Node) or g.op != "call_function":
            raise UnsupportedOp("autograd", f"the gradient of '{name}' is not computed by an op")
        gradient_nodes[g.name] = name
    # Arguments: inputs, targets, params, optimizer state, optimizer
    # scalars, buffers (the seed placeholder is not an argument).
    first_param = n_in + n_t
    first_buffer = first_param + n_p + n_s + n_c
    updated = list(range(first_param, first_param + n_p + n_s)) + \
        [first_buffer + buffer_names.index(n) for n in running]
    attrs = ["lowp.loss"] + [f"lowp.updates = {i} : i64" for i in updated]
    state_names = names + [f"{n}.{kind}" for kind in opt.state_kinds for n in names] + \
        opt.scalar_names + buffer_names
    traced = TracedModule(gm, n_in + n_t + 1, state_names, params + states + scalars + constants)
    traced.paths = _align_paths(gm.graph, recorder.calls)
    traced.seed_placeholder = placeholders[n_in + n_t].name
    traced.gradient_nodes = gradient_nodes
    traced.result_attributes = attrs
    traced.result_count = n_results
    traced.input_names = input_names(module, n_in) + (
        ["target"] if n_t == 1 else [f"target{i}" for i in range(n_t)])
    return traced


def export_training_step(module: torch.nn.Module, loss_fn, example_args, example_targets,
                         optimizer="sgd", lr: float = 1e-2, momentum: float = 0.0,
                         weight_decay: Optional[float] = None, **optimizer_options) -> str:
    """One optimizer step of ``module`` on (``example_args``,
    ``example_targets``) as MLIR text marked by the training-step
    convention (see the module docstring for the signature). ``loss_fn``:
    "cross_entropy", "mse" or a callable (output, *targets) -> scalar.
    ``optimizer``: "sgd" (``momentum``) or "adamw" (``betas``, ``eps``);
    ``weight_decay`` defaults to torch.optim's (0 for SGD, 1e-2 for
    AdamW)."""
    traced = trace_training_step(module, loss_fn, example_args, example_targets,
                                 optimizer, lr, momentum, weight_decay, **optimizer_options)
    text, _ = import_traced(traced, "arguments", type(module).__name__, function="step")
    return text


class CompiledTrainingStep:
    """``loss = step(x, target)``: runs one compiled step and writes the new
    parameters, optimizer state and running statistics back into the
    module (and this object) in place."""

    def __init__(self, module, function, n_in, n_t, optimizer: Optimizer, bounds=()):
        self.module = module
        #: Inputs and targets that index a tensor (class targets of
        #: cross_entropy, embedding ids): checked before every step.
        self.index_bounds = list(bounds)
        self.function = function
        self.n_in, self.n_t = n_in, n_t
        self.optimizer = optimizer
        #: Steps taken (AdamW's bias corrections are computed from it).
        self.steps = 0
        self.params = [p for _, p in module.named_parameters()]
        #: The optimizer's state, kind by kind (``state[kind][i]`` of
        #: parameter i), starting at zero as torch.optim's.
        self.state = {kind: [torch.zeros_like(p) for p in self.params]
                      for kind in optimizer.state_kinds}
        buffers = dict(step_buffers(module))
        self.constants = list(buffers.values())
        self.running = [buffers[n] for n in running_statistics(module)]
        self.batch_norms = [sub for _, sub in _batch_norms(module)]
        expected = n_in + n_t + len(self.params) * (1 + len(self.state)) + \
            len(optimizer.scalar_names) + len(self.constants)
        #: Dynamic loss scaling (policy f16): the scale and the count of
        #: good steps since it last changed, passed in and returned by each
        #: step (docs/training-step.md); None without it.
        self.loss_scale: Optional[float] = None
        self.good_steps = 0
        #: Steps skipped because a gradient was not finite.
        self.skipped_steps = 0
        attributes = function.argument_attributes
        if len(function.arguments) == expected + 2 and len(attributes) == expected + 2 and \
                "lowp.loss_scale" in attributes[-2] and "lowp.good_steps" in attributes[-1]:
            self.loss_scale = float(attributes[-2]["lowp.loss_scale"].split(":")[0])
        elif len(function.arguments) != expected:
            raise RuntimeError(
                f"the compiled step takes {len(function.arguments)} arguments, not the "
                f"{expected} of the module's step (plus a loss scale and a good-step "
                "counter with dynamic loss scaling)")

    @property
    def buffers(self) -> List[torch.Tensor]:
        """The momentum buffers (SGD)."""
        return self.state.get("momentum_buffer", [])

    def __call__(self, *xs_and_targets):
        from . import _to_numpy, check_index_bounds
        import numpy as np
        if len(xs_and_targets) != self.n_in + self.n_t:
            raise TypeError(f"the step takes {self.n_in} inputs and {self.n_t} targets")
        args = [_to_numpy(t) for t in xs_and_targets]
        check_index_bounds(self.index_bounds, args)
        self.steps += 1
        states = [t for kind in self.state.values() for t in kind]
        updated = self.params + states + self.running
        args += [_to_numpy(p) for p in self.params] + [_to_numpy(s) for s in states]
        args += [np.array(v, dtype=np.float32) for v in self.optimizer.scalars(self.steps)]
        args += [_to_numpy(c) for c in self.constants]
        if self.loss_scale is not None:
            args += [np.array(self.loss_scale, np.float32), np.array(self.good_steps, np.int64)]
        # The new values are written straight into the tensors they replace
        # (their numpy views share the memory) once the step has returned.
        views = [_to_numpy(t) for t in updated]
        shares = [a if a.flags["C_CONTIGUOUS"] and a.flags["WRITEABLE"] else None
                  for a in views]
        outs = self.function.call_into([None] + shares, *args)
        loss, rest = outs[0], outs[1:]
        if self.loss_scale is not None:
            scale, self.good_steps = float(outs[-2]), int(outs[-1])
            # A non-finite step backs the scale off and keeps every
            # argument (GradScaler skips optimizer.step()).
            if scale < self.loss_scale and self.good_steps == 0:
                self.skipped_steps += 1
                self.steps -= 1  # the optimizer did not step (AdamW's count)
            self.loss_scale = scale
            rest = rest[:-2]
        with torch.no_grad():
            for tensor, new, shared in zip(updated, rest, shares):
                if shared is None:
                    tensor.copy_(torch.from_numpy(new))
            for bn in self.batch_norms:
                if bn.num_batches_tracked is not None:
                    bn.num_batches_tracked.add_(1)
        return torch.from_numpy(loss)


def compile_training_step(module, loss_fn, example_args, example_targets, *,
                          optimizer="sgd", lr: float = 1e-2, momentum: float = 0.0,
                          weight_decay: Optional[float] = None,
                          betas: Tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                          target: Optional[str] = None, policy: str = "auto",
                          threads: int = 1, cache_dir: Optional[str] = None,
                          lowering: str = "x86") -> CompiledTrainingStep:
    import fpopt
    opt = _optimizer(optimizer, lr, momentum, weight_decay, betas=tuple(betas), eps=eps)
    text = export_training_step(module, loss_fn, example_args, example_targets, opt)
    # The step writes the new parameters and optimizer state over the
    # module's tensors it is passed (CompiledTrainingStep wants them there).
    fn = fpopt.compile(text, target=target, policy=policy, threads=threads,
                       cache_dir=cache_dir, source_name=type(module).__name__,
                       lowering=lowering,
                       x86_options="update-in-place=true" if lowering == "x86" else "")
    n_in = len(example_args) if isinstance(example_args, (tuple, list)) else 1
    n_t = len(example_targets) if isinstance(example_targets, (tuple, list)) else 1
    return CompiledTrainingStep(module, fn, n_in, n_t, opt, index_bounds(text))
