#!/usr/bin/env python3
"""Compile time of whole models, as a user meets it: seconds of
``fpopt.torch.compile(model, x, prepack=True)`` on an empty build cache
(export, decisions, lowp-pipeline-x86, mlir-translate, llc, link, weights
bound and packed), policy f32 and auto, with lowp-outline-repeated-loops
(the default) and without it (``outline-repeated-loops=false``), the two
interleaved per model. Each compiled model is called once and its output
compared with the other variant's (max |difference| / max |output|): the
outlined code must compute what the inlined code does.

  /usr/bin/python3 bench/compile-time/models.py [--models efficientnet_v2_s,...]
      [--target znver4]

Models: bench/models/run.py's (torchvision names, bert_base, gpt2_small).
"""
import argparse
import os
import sys
import tempfile
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "models"))
import run  # noqa: E402  (build(), the package on sys.path)
import fpopt.runtime  # noqa: E402
import fpopt.torch  # noqa: E402

VARIANTS = (("outlined", ""), ("inlined", "outline-repeated-loops=false"))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="resnet18,resnet50,mobilenet_v3_small,"
                    "efficientnet_v2_s,convnext_tiny,vit_b_16,bert_base,gpt2_small")
    ap.add_argument("--target")
    cli = ap.parse_args()
    torch.set_num_threads(1)
    target = cli.target or fpopt.runtime.host_target()[0]
    print(f"target={target}; seconds of fpopt.torch.compile on an empty cache")
    print(f"{'model':<20}{'policy':>7}{'outlined':>10}{'inlined':>10}{'ratio':>8}"
          f"{'outputs differ by':>19}")
    for name in cli.models.split(","):
        m, x = run.build(name, 1)
        m.eval()
        for policy in ("f32", "auto"):
            seconds, outputs = {}, {}
            for label, options in VARIANTS:
                with tempfile.TemporaryDirectory() as cache:
                    t0 = time.perf_counter()
                    compiled = fpopt.torch.compile(m, x, target=target, policy=policy,
                                                   prepack=True, x86_options=options,
                                                   cache_dir=cache)
                    seconds[label] = time.perf_counter() - t0
                    with torch.no_grad():
                        outputs[label] = compiled(x)
                    del compiled
            a, b = outputs["outlined"], outputs["inlined"]
            diff = float((a - b).abs().max() / b.abs().max())
            print(f"{name:<20}{policy:>7}{seconds['outlined']:>10.1f}"
                  f"{seconds['inlined']:>10.1f}"
                  f"{seconds['inlined'] / seconds['outlined']:>7.2f}x{diff:>19.1e}", flush=True)


if __name__ == "__main__":
    main()
