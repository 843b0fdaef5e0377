#!/usr/bin/env python3
"""Every torchvision classification model of the resnet, mobilenet,
efficientnet, convnext, regnet, vit and densenet families (resnext and
wide_resnet included), at its default widths: exported by fpopt.torch,
compiled by fp-opt (f32, the host's target), called once and compared with
PyTorch. Prints one line per model (relative error, compile seconds, remarks
about slow paths) and a summary; exits 1 when a model fails to import or
is off by more than --tolerance.

  /usr/bin/python3 bench/models/coverage.py [--size 64] [--only regnet]
      [--lowering x86|reference]

--size is the input's height and width (ViTs take their fixed 224).
This takes tens of minutes: scripts/test.sh runs one model per family
(python/tests/test_torch_import.py); this is the whole list.
"""
import argparse
import os
import sys
import time

import torch
import torchvision

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "build", "python_packages"))
import fpopt  # noqa: E402
import fpopt.torch  # noqa: E402

FAMILIES = ("resnet", "resnext", "wide_resnet", "mobilenet", "efficientnet", "convnext",
            "regnet", "vit", "densenet")


def models(only):
    names = sorted(n for n in torchvision.models.list_models(module=torchvision.models)
                   if n.startswith(FAMILIES)) if hasattr(torchvision.models, "list_models") \
        else sorted(n for n in dir(torchvision.models) if n.startswith(FAMILIES)
                    and callable(getattr(torchvision.models, n)) and n.islower()
                    and not n.endswith("weights"))
    return [n for n in names if not only or n.startswith(only)]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--only")
    ap.add_argument("--tolerance", type=float, default=1e-4)
    ap.add_argument("--lowering", default="x86")
    ap.add_argument("--cache-dir")
    cli = ap.parse_args()
    failed = []
    for name in models(cli.only):
        torch.manual_seed(0)
        try:
            m = getattr(torchvision.models, name)()
        except Exception as e:  # not a model constructor
            print(f"{name:<24} skipped ({type(e).__name__})")
            continue
        for p in m.parameters():
            if p.dim() >= 2 and not p.detach().abs().sum():
                p.data.normal_(0.0, 0.02)
        m.eval()
        size = 224 if name.startswith("vit") else cli.size
        x = torch.randn(1, 3, size, size)
        t0 = time.perf_counter()
        try:
            fm = fpopt.torch.compile(m, x, policy="f32", cache_dir=cli.cache_dir,
                                     lowering=cli.lowering)
            y = fm(x)
        except Exception as e:
            failed.append(name)
            print(f"{name:<24} FAILED: {type(e).__name__}: {str(e).splitlines()[0][:200]}",
                  flush=True)
            continue
        seconds = time.perf_counter() - t0
        with torch.no_grad():
            ref = m(x)
        err = float((y - ref).abs().max() / ref.abs().max())
        slow = sum(1 for d in fm.diagnostics if "loop path" in d or "materialized" in d)
        ok = err <= cli.tolerance
        if not ok:
            failed.append(name)
        print(f"{name:<24} {'ok' if ok else 'OFF':<4} err {err:.1e}  compile+call "
              f"{seconds:.0f} s  slow-path remarks {slow}", flush=True)
        del fm, m
    print(f"{len(failed)} failed" + (f": {', '.join(failed)}" if failed else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
