#!/usr/bin/env python3
"""Whole models: fp-opt (fpopt.torch.compile, f32 and mixed) against what a
PyTorch user runs on the same CPU with the same weights: eager f32,
TorchScript frozen + optimize_for_inference (oneDNN) f32, autocast bf16 and
the model converted with .to(bfloat16). One process, every variant built
first, then --reps rounds of one call of each in turn (interleaved, so a
slow spell of the machine falls on all columns alike); median ms per
variant after two warm-up calls each. Ratios are torch time / fp-opt time
(> 1: fp-opt faster). Also the output error of each fp-opt variant against
torch f32.

  /usr/bin/python3 bench/models/run.py [--models resnet50,convnext_tiny,...]
      [--batch 1] [--threads 1] [--reps 10] [--policy auto] [--target znver4]

Models: torchvision names at 224x224, and bert_base (12 post-LN layers,
seq 128) and gpt2_small (12 pre-LN blocks, seq 128) written in torch.nn
(python/tests/torch_blocks.py). Needs python3-torch, python3-torchvision
and the built package (PYTHONPATH=build/python_packages).
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np
import torch
import torchvision

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python", "tests"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "build", "python_packages"))
from torch_threads import set_torch_threads  # noqa: E402
import fpopt  # noqa: E402
import fpopt.runtime  # noqa: E402
import fpopt.torch  # noqa: E402
import torch_blocks as tb  # noqa: E402


class Stack(torch.nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = torch.nn.ModuleList(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def build(name, batch):
    torch.manual_seed(0)
    if name == "bert_base":
        return Stack([tb.bert_layer(768, 12, 3072) for _ in range(12)]), torch.randn(batch, 128, 768)
    if name == "gpt2_small":
        return Stack([tb.GPT2Block(768, 12, 128) for _ in range(12)]), torch.randn(batch, 128, 768)
    m = getattr(torchvision.models, name)()
    for p in m.parameters():  # a zero-initialized head (ViT) would make every output 0
        if p.dim() >= 2 and not p.detach().abs().sum():
            p.data.normal_(0.0, 0.02)
    for mod in m.modules():  # trained-looking batch-norm statistics
        if isinstance(mod, torch.nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.2, 0.2)
            mod.running_var.uniform_(0.5, 1.5)
    return m, torch.randn(batch, 3, 224, 224)


def bf16_copy(name, batch, m):
    """Model `name` built again in eval mode with `m`'s weights, converted
    to bf16 as a PyTorch user does (.to(torch.bfloat16))."""
    mb = build(name, batch)[0].eval().to(torch.bfloat16)
    mb.load_state_dict({k: v.to(torch.bfloat16) if v.is_floating_point() else v
                        for k, v in m.state_dict().items()})
    return mb


def median_ms(fn, reps):
    fn()
    fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def interleaved_median_ms(fns, reps):
    """{name: fn} -> {name: median ms}: two warm-up calls of each, then
    `reps` rounds calling each once in turn."""
    for fn in fns.values():
        fn()
        fn()
    times = {name: [] for name in fns}
    for _ in range(reps):
        for name, fn in fns.items():
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
    return {name: statistics.median(v) * 1e3 for name, v in times.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="resnet18,resnet50,mobilenet_v3_small,"
                    "efficientnet_v2_s,convnext_tiny,vit_b_16,bert_base,gpt2_small")
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--policy", default="auto")
    ap.add_argument("--target")
    ap.add_argument("--cache-dir")
    cli = ap.parse_args()
    set_torch_threads(cli.threads)
    # The same malloc policy for PyTorch and fp-opt in this process (the
    # runtime sets it when it loads a compiled function): large blocks stay
    # in the heap instead of being mapped and faulted in on every call.
    fpopt.runtime.retain_freed_memory()
    target = cli.target or fpopt.runtime.host_target()[0]
    print(f"target={target} threads={cli.threads} batch={cli.batch} torch {torch.__version__}; "
          f"interleaved, median of {cli.reps} rounds, ms")
    cols = ["eager", "ts+onednn", "autocast", ".to(bf16)", "fp f32", "fp mixed"]
    print(f"{'model':<20}" + "".join(f"{c:>11}" for c in cols) +
          "   f32/ts  mixed/bf16  mixed/f32   err f32   err mixed  compile s")
    for name in cli.models.split(","):
        m, x = build(name, cli.batch)
        m.eval()
        fns = {}
        with torch.no_grad():
            ref = m(x)
            fns["eager"] = lambda: m(x)
            ts = torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.trace(m, x).eval()))
            fns["ts+onednn"] = lambda: ts(x)

            def autocast():
                with torch.autocast("cpu", dtype=torch.bfloat16):
                    return m(x)
            try:
                autocast()
                fns["autocast"] = autocast
            except RuntimeError:  # torch 1.13's autocast fails on some layers
                pass
            mb, xb = bf16_copy(name, cli.batch, m), x.to(torch.bfloat16)
            try:
                mb(xb)
                fns[".to(bf16)"] = lambda: mb(xb)
            except RuntimeError:  # torch 1.13 has no bf16 kernel for some layers
                pass
            errs, compile_s, compiled = {}, {}, {}
            for col, policy in (("fp f32", "f32"), ("fp mixed", cli.policy)):
                c0 = time.perf_counter()
                compiled[col] = fpopt.torch.compile(m, x, target=target, policy=policy,
                                                    threads=cli.threads, prepack=True,
                                                    cache_dir=cli.cache_dir)
                compile_s[col] = time.perf_counter() - c0
                y = compiled[col](x)
                errs[col] = float((y - ref).abs().max() / ref.abs().max())
            fns["fp f32"] = lambda: compiled["fp f32"](x)
            fns["fp mixed"] = lambda: compiled["fp mixed"](x)
            t = interleaved_median_ms(fns, cli.reps)
            t = {c: t.get(c, float("nan")) for c in cols}
            del mb, ts, compiled, fns
        best_bf16 = min([v for v in (t["autocast"], t[".to(bf16)"]) if v == v] or [float("nan")])
        print(f"{name:<20}" + "".join(f"{t[c]:>11.2f}" for c in cols) +
              f"   {t['ts+onednn'] / t['fp f32']:>6.2f}x {best_bf16 / t['fp mixed']:>9.2f}x "
              f"{t['fp f32'] / t['fp mixed']:>9.2f}x  {errs['fp f32']:.1e}   {errs['fp mixed']:.1e}"
              f"   {compile_s['fp f32']:.0f}/{compile_s['fp mixed']:.0f}", flush=True)


if __name__ == "__main__":
    main()
