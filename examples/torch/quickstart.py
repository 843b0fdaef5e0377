#!/usr/bin/env python3
"""A PyTorch user's first run of fp-opt: a torchvision ResNet-18 brought in
by fpopt.torch, compiled for this CPU in f32 and mixed precision, called
like the model, checked against PyTorch and timed next to it.

  PYTHONPATH=build/python_packages /usr/bin/python3 examples/torch/quickstart.py

With $FPOPT_REMARKS set, the compiler's remarks are appended to that file.
"""
import os
import time

import torch
import torchvision

import fpopt.runtime
import fpopt.torch


def ms_per_call(fn, x, calls=10):
    fn(x)
    t0 = time.perf_counter()
    for _ in range(calls):
        fn(x)
    return (time.perf_counter() - t0) / calls * 1e3


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = torchvision.models.resnet18().eval()
    x = torch.randn(1, 3, 224, 224)
    target = fpopt.runtime.host_target()[0]
    with torch.no_grad():
        reference = model(x)
        torch_ms = ms_per_call(model, x)
    print(f"resnet18, 1x3x224x224, target {target}, 1 thread")
    print(f"  torch eager f32: {torch_ms:.1f} ms per call")
    for policy in ("f32", "auto"):
        t0 = time.perf_counter()
        fm = fpopt.torch.compile(model, x, target=target, policy=policy, prepack=True)
        seconds = time.perf_counter() - t0
        y = fm(x)
        err = float((y - reference).abs().max() / reference.abs().max())
        narrowed = sorted({a.element for a in fm.function.arguments})
        print(f"  fp-opt {policy:<4}: {ms_per_call(fm, x):.1f} ms per call, "
              f"max |y - torch| / max |torch| = {err:.1e}, compiled in {seconds:.0f} s, "
              f"argument types {narrowed}, {len(fm.diagnostics)} remarks")
        # The compiler's remarks, where scripts/run-main.sh keeps them.
        if os.environ.get("FPOPT_REMARKS"):
            with open(os.environ["FPOPT_REMARKS"], "a") as remarks:
                for d in fm.diagnostics:
                    remarks.write(d.rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
