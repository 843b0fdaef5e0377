#!/usr/bin/env python3
"""Training steps timed: one optimizer step (forward, backward, update:
SGD with momentum 0.9, or AdamW) of fp-opt
(fpopt.torch.compile_training_step, policy f32 and bf16) next to PyTorch
eager f32 and autocast bf16 (loss.backward() + torch.optim's step()), same
initial weights and data, one process; median ms per step after warm-up.
Then the numerics: --steps steps of each variant from the same start on the
same batches, the loss curve and final weights against torch f32's.
--memory N instead runs N steps of each variant in a process of its own
and prints its resident memory along the way and its peak.

  /usr/bin/python3 bench/train/run.py [--models mlp,bert_layer,gpt2_block,
      resnet_block,mbv2_block] [--optimizer sgd|adamw] [--batch 32]
      [--threads 1] [--steps 20] [--memory 1000]

Models: an MLP 1024-4096-4096-1024 with cross-entropy over 1024 classes; a
BERT-base encoder layer (768 wide, sequence 128, dropout 0) and a GPT-2
small block (768, sequence 128; python/tests/torch_blocks.py); torchvision's
ResNet BasicBlock (64 channels, 56x56) and MobileNetV2 InvertedResidual (24
channels, expansion 6, 56x56), batch norm in training mode. All but the MLP
use MSE against random targets. --batch counts rows (MLP), 128-token
sequences x 8 (transformer blocks) or images x 4 (convolution blocks).
"""
import argparse
import copy
import math
import os
import statistics
import subprocess
import sys
import time

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))
sys.path.insert(0, os.path.join(ROOT, "build", "python_packages"))
from torch_threads import set_torch_threads  # noqa: E402
import fpopt  # noqa: E402
import fpopt.runtime  # noqa: E402
import fpopt.torch  # noqa: E402
import torch_blocks as tb  # noqa: E402


def build(name, batch):
    torch.manual_seed(0)
    if name == "mlp":
        m = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.ReLU(),
                          nn.Linear(4096, 1024))
        return m, "cross_entropy", lambda: (torch.randn(batch, 1024),
                                            torch.randint(0, 1024, (batch,)))
    if name == "bert_layer":
        m = tb.bert_layer(768, 12, 3072)
        for mod in m.modules():
            if isinstance(mod, nn.Dropout):
                mod.p = 0.0
        m.self_attn.dropout = 0.0
    elif name == "gpt2_block":
        m = tb.GPT2Block(768, 12, 128)
    elif name in ("resnet_block", "mbv2_block"):
        from torchvision.models.mobilenetv2 import InvertedResidual
        from torchvision.models.resnet import BasicBlock
        m, c = (BasicBlock(64, 64), 64) if name == "resnet_block" else \
            (InvertedResidual(24, 24, 1, 6), 24)
        images = max(1, batch // 4)
        return m, "mse", lambda: (torch.randn(images, c, 56, 56), torch.randn(images, c, 56, 56))
    else:
        raise SystemExit(f"unknown model {name}")
    seq = max(1, batch // 8)  # batch counts sequences of 128 tokens / 8
    return m, "mse", lambda: (torch.randn(seq, 128, 768), torch.randn(seq, 128, 768))


def median_ms(step, data, reps):
    for x, t in data[:2]:
        step(x, t)
    times = []
    for x, t in data[2:2 + reps]:
        t0 = time.perf_counter()
        step(x, t)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="mlp,bert_layer,gpt2_block,resnet_block,mbv2_block")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--lr", type=float, default=1e-2)
    ap.add_argument("--optimizer", choices=("sgd", "adamw"), default="sgd")
    ap.add_argument("--cache-dir")
    ap.add_argument("--memory", type=int, default=0,
                    help="instead of timing: resident memory over this many steps")
    ap.add_argument("--memory-child", help=argparse.SUPPRESS)
    cli = ap.parse_args()
    set_torch_threads(cli.threads)
    fpopt.runtime.retain_freed_memory()
    target = fpopt.runtime.host_target()[0]
    opt_text = "SGD momentum 0.9" if cli.optimizer == "sgd" else "AdamW (torch's defaults)"
    if not cli.memory_child:
        print(f"target={target} threads={cli.threads} batch={cli.batch}; {opt_text} "
              f"lr={cli.lr}; median ms per step")

    def torch_optimizer(params):
        if cli.optimizer == "adamw":
            return torch.optim.AdamW(params, lr=cli.lr)
        return torch.optim.SGD(params, lr=cli.lr, momentum=0.9)
    momentum = 0.9 if cli.optimizer == "sgd" else 0.0

    def make_step(variant, m, loss_fn, loss_name, example):
        """One training step of ``m`` as the variant runs it: x, t -> loss."""
        if variant in ("torch f32", "autocast"):
            opt = torch_optimizer(m.parameters())

            def step(x, t):
                opt.zero_grad()
                with torch.autocast("cpu", dtype=torch.bfloat16,
                                    enabled=variant == "autocast"):
                    loss = loss_fn(m(x), t)
                loss.backward()
                opt.step()
                return loss
            return step
        return fpopt.torch.compile_training_step(
            m, loss_name, (example[0],), (example[1],), lr=cli.lr, optimizer=cli.optimizer,
            momentum=momentum, target=target, policy="f32" if variant == "fp f32" else "bf16",
            threads=cli.threads, cache_dir=cli.cache_dir)

    variants = ("torch f32", "autocast", "fp f32", "fp bf16")
    if cli.memory_child:
        name, variant = cli.memory_child.split(":")
        base, loss_name, batch_fn = build(name, cli.batch)
        loss_fn = nn.functional.cross_entropy if loss_name == "cross_entropy" else \
            nn.functional.mse_loss
        torch.manual_seed(1)
        data = [batch_fn() for _ in range(4)]
        step = make_step(variant, base, loss_fn, loss_name, data[0])
        # The peak of the steps, not of compiling them: the kernel's
        # high-water mark (VmHWM) starts again from here.
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        rss = {}
        for i in range(cli.memory):
            step(*data[i % len(data)])
            if i + 1 in (10, cli.memory // 2, cli.memory):
                rss[i + 1] = resource_rss_mib()
        print("RSS " + " -> ".join(f"{v:.0f}" for _, v in sorted(rss.items())) +
              f", peak {peak_rss_mib():.0f}")
        return
    if cli.memory:
        print(f"memory over {cli.memory} steps, MiB: resident after 10 steps -> after "
              f"{cli.memory // 2} -> after {cli.memory}; peak over the steps (each variant in a "
              "process of its own)")
        for name in cli.models.split(","):
            cells = []
            for variant in variants:
                out = subprocess.run(
                    [sys.executable, __file__, "--memory-child", f"{name}:{variant}",
                     "--memory", str(cli.memory), "--batch", str(cli.batch),
                     "--threads", str(cli.threads), "--optimizer", cli.optimizer,
                     "--lr", str(cli.lr)] + (["--cache-dir", cli.cache_dir]
                                             if cli.cache_dir else []),
                    capture_output=True, text=True)
                line = [ln for ln in out.stdout.splitlines() if ln.startswith("RSS")]
                cells.append(f"{variant}: " + (line[0][4:] if line else "n/a (failed: " +
                                               (out.stderr.strip().splitlines() or ["?"])[-1][:60]
                                               + ")"))
            print(f"{name:<12} " + " | ".join(cells), flush=True)
        return

    print(f"{'model':<12}" + "".join(f"{v:>11}" for v in variants) +
          f"{'f32/torch':>11}{'bf16/autocast':>15}")
    curves = {}
    for name in cli.models.split(","):
        base, loss_name, batch_fn = build(name, cli.batch)
        loss_fn = nn.functional.cross_entropy if loss_name == "cross_entropy" else \
            nn.functional.mse_loss

        def batch_at(i):  # the same batches for every variant, made as needed
            torch.manual_seed(1000 + i)
            return batch_fn()
        timing = [batch_at(i) for i in range(10)]
        ms, losses, weights = {}, {}, {}
        for variant in variants:
            try:
                ms[variant] = median_ms(make_step(variant, copy.deepcopy(base), loss_fn,
                                                  loss_name, timing[0]), timing, 8)
            except RuntimeError as e:  # torch 1.13 has no bf16 kernel for some backward ops
                print(f"  {name} {variant}: {str(e).splitlines()[0]}", flush=True)
                ms[variant] = math.nan
                continue
            m = copy.deepcopy(base)
            step = make_step(variant, m, loss_fn, loss_name, timing[0])
            losses[variant] = [float(step(*batch_at(i))) for i in range(cli.steps)]
            weights[variant] = [p.detach().clone() for p in m.parameters()]
        print(f"{name:<12}" + "".join(f"{ms[v]:>11.1f}" for v in variants) +
              f"{ms['torch f32'] / ms['fp f32']:>10.2f}x{ms['autocast'] / ms['fp bf16']:>14.2f}x",
              flush=True)
        curves[name] = (losses, weights)
    print(f"\nnumerics over {cli.steps} steps from the same start on the same batches, "
          "against torch f32: the largest |loss - torch f32's| / torch f32's over the "
          "curve; the final weights' largest |w - torch f32's| / max |torch f32's| over "
          "the parameters")
    print(f"{'model':<12}" + "".join(f"{v + ' loss':>16}{'weights':>10}" for v in variants[1:])
          + f"{'final loss':>12}")
    for name, (losses, weights) in curves.items():
        ref, ref_w = losses["torch f32"], weights["torch f32"]
        cells = ""
        for v in variants[1:]:
            if v not in losses:
                cells += f"{'n/a':>16}{'n/a':>10}"
                continue
            dl = max(abs(a - b) / abs(b) for a, b in zip(losses[v], ref))
            dw = max(float((a - b).abs().max() / b.abs().max().clamp_min(1e-30))
                     for a, b in zip(weights[v], ref_w))
            cells += f"{dl:>16.1e}{dw:>10.1e}"
        print(f"{name:<12}{cells}{ref[-1]:>12.4f}", flush=True)


def peak_rss_mib() -> float:
    """The process's resident high-water mark (VmHWM), MiB."""
    with open("/proc/self/status") as f:
        kib = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    return kib / 1024


def resource_rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


if __name__ == "__main__":
    main()
