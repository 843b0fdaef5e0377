#!/usr/bin/env python3
"""Training steps timed: one optimizer step (forward, backward, update:
SGD with momentum 0.9, or AdamW) of fp-opt
(fpopt.torch.compile_training_step, policy f32 and bf16) next to PyTorch
eager f32 and autocast bf16 (loss.backward() + torch.optim's step()), same
initial weights and data, one process; median ms per step after warm-up,
and the loss after --steps steps of each variant (from the same start, on
the same batches) against torch f32's.

  /usr/bin/python3 bench/train/run.py [--models mlp,bert_layer,gpt2_block,
      resnet_block,mbv2_block] [--optimizer sgd|adamw] [--batch 32]
      [--threads 1] [--steps 20]

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
import sys
import time

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))
sys.path.insert(0, os.path.join(ROOT, "build", "python_packages"))
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
    ap.add_argument("--models", default="mlp,bert_layer,gpt2_block")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--lr", type=float, default=1e-2)
    ap.add_argument("--optimizer", choices=("sgd", "adamw"), default="sgd")
    ap.add_argument("--cache-dir")
    cli = ap.parse_args()
    torch.set_num_threads(cli.threads)
    fpopt.runtime.retain_freed_memory()
    target = fpopt.runtime.host_target()[0]
    opt_text = "SGD momentum 0.9" if cli.optimizer == "sgd" else "AdamW (torch's defaults)"
    print(f"target={target} threads={cli.threads} batch={cli.batch}; {opt_text} lr={cli.lr}; "
          f"median ms per step; loss after {cli.steps} steps")

    def torch_optimizer(params):
        if cli.optimizer == "adamw":
            return torch.optim.AdamW(params, lr=cli.lr)
        return torch.optim.SGD(params, lr=cli.lr, momentum=0.9)
    momentum = 0.9 if cli.optimizer == "sgd" else 0.0
    print(f"{'model':<12}{'torch f32':>11}{'autocast':>11}{'fp f32':>11}{'fp bf16':>11}"
          f"{'f32/torch':>11}{'bf16/autocast':>15}   final loss: torch f32 / autocast / "
          "fp f32 / fp bf16")
    for name in cli.models.split(","):
        base, loss_name, batch_fn = build(name, cli.batch)
        torch.manual_seed(1)
        data = [batch_fn() for _ in range(max(cli.steps, 12))]
        loss_fn = nn.functional.cross_entropy if loss_name == "cross_entropy" else \
            nn.functional.mse_loss
        ms, final = {}, {}
        for variant in ("torch f32", "autocast"):
            m = copy.deepcopy(base)
            opt = torch_optimizer(m.parameters())

            def step(x, t, m=m, opt=opt, variant=variant):
                opt.zero_grad()
                with torch.autocast("cpu", dtype=torch.bfloat16,
                                    enabled=variant == "autocast"):
                    loss = loss_fn(m(x), t)
                loss.backward()
                opt.step()
                return loss
            try:
                ms[variant] = median_ms(step, data, 8)
            except RuntimeError as e:  # torch 1.13 has no bf16 kernel for some backward ops
                print(f"  {name} {variant}: {str(e).splitlines()[0]}", flush=True)
                ms[variant], final[variant] = math.nan, math.nan
                continue
            m = copy.deepcopy(base)
            opt = torch_optimizer(m.parameters())
            for x, t in data[:cli.steps]:
                final[variant] = float(step(x, t, m, opt))
        x0, t0 = data[0]
        for variant, policy in (("fp f32", "f32"), ("fp bf16", "bf16")):
            m = copy.deepcopy(base)
            s = fpopt.torch.compile_training_step(m, loss_name, (x0,), (t0,), lr=cli.lr,
                                                  optimizer=cli.optimizer, momentum=momentum,
                                                  target=target, policy=policy,
                                                  threads=cli.threads,
                                                  cache_dir=cli.cache_dir)
            ms[variant] = median_ms(s, data, 8)
            m = copy.deepcopy(base)
            s = fpopt.torch.compile_training_step(m, loss_name, (x0,), (t0,), lr=cli.lr,
                                                  optimizer=cli.optimizer, momentum=momentum,
                                                  target=target, policy=policy,
                                                  threads=cli.threads,
                                                  cache_dir=cli.cache_dir)
            for x, t in data[:cli.steps]:
                final[variant] = float(s(x, t))
        print(f"{name:<12}" + "".join(f"{ms[v]:>11.1f}" for v in
                                      ("torch f32", "autocast", "fp f32", "fp bf16")) +
              f"{ms['torch f32'] / ms['fp f32']:>10.2f}x{ms['autocast'] / ms['fp bf16']:>14.2f}x"
              f"   {final['torch f32']:.4f} / {final['autocast']:.4f} / {final['fp f32']:.4f}"
              f" / {final['fp bf16']:.4f}", flush=True)


if __name__ == "__main__":
    main()
