"""Two fp-opt builds of one layer, fp-opt alone (no torch), in one process:
blocks of back-to-back calls of each build in turn (warm caches, as a
serving loop calls a layer), the fastest call of each and the median of the
block medians. A/B of a code-generation change on a noisy machine, where
bench.py's rounds (one call of every variant, torch's in between) move
with the neighbours:
  /usr/bin/python3 bench/e2e/ab.py --layer resnet_nchw --a build/bin/fp-opt \
      --b OLD/fp-opt [--variant f32|mixed] [--blocks 15] [--calls 10]"""
import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fpopt_rt  # noqa: E402
import layers  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--layer", required=True)
    p.add_argument("--a", required=True, help="fp-opt binary A")
    p.add_argument("--b", required=True, help="fp-opt binary B")
    p.add_argument("--variant", default="f32", choices=["f32", "mixed"])
    p.add_argument("--blocks", type=int, default=15)
    p.add_argument("--calls", type=int, default=10, help="calls per block")
    p.add_argument("--cpu")
    p.add_argument("--x86-options", default="",
                   help="lowp-pipeline-x86 options of both builds")
    p.add_argument("--b-x86-options", default=None,
                   help="B's options instead (A = B = one binary: two option sets)")
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    cli = p.parse_args()
    cpu, mcpu, extra = fpopt_rt.choose_cpu(cli.cpu, None, cli.x86_options)
    layer = layers.by_name()[cli.layer]
    inputs = layer.inputs(seed=0)
    work = tempfile.mkdtemp(prefix="ab-")
    kernels = {}
    for tag, fpopt in (("A", cli.a), ("B", cli.b)):
        tools = fpopt_rt.Tools(fpopt, cli.llvm_bin, mcpu)
        options = extra
        if tag == "B" and cli.b_x86_options is not None:
            options = cli.b_x86_options
        comp = fpopt_rt.compile_layer(layer.mlir(), work, f"{layer.name}.{tag}",
                                      cli.variant, cpu, tools, options)
        k = comp.load(layer)
        k.bind(inputs)
        kernels[tag] = k
    outs = {tag: k() for tag, k in kernels.items()}
    diff = float(abs(outs["A"].astype("float64") - outs["B"]).max())
    best = {tag: float("inf") for tag in kernels}
    medians = {tag: [] for tag in kernels}
    for block in range(cli.blocks):
        order = ("A", "B") if block % 2 == 0 else ("B", "A")
        for tag in order:
            fn = kernels[tag].call_discard
            fn()
            ts = []
            for _ in range(cli.calls):
                t = time.thread_time()
                fn()
                ts.append(time.thread_time() - t)
            best[tag] = min(best[tag], min(ts))
            medians[tag].append(statistics.median(ts))
    med = {tag: statistics.median(v) for tag, v in medians.items()}
    print(f"{layer.name} {cli.variant} (target={cpu}), max|A - B| = {diff:.2e}")
    for tag, path in (("A", cli.a), ("B", cli.b)):
        if tag == "B" and cli.b_x86_options is not None:
            path += f" ({cli.b_x86_options})"
        print(f"  {tag} {path}: best {best[tag] * 1e3:.3f} ms, median {med[tag] * 1e3:.3f} ms")
    print(f"  B/A: best {best['B'] / best['A']:.3f}x, median {med['B'] / med['A']:.3f}x (> 1: A faster)")


if __name__ == "__main__":
    main()
