#!/usr/bin/env python3
"""Thread scaling of the whole layers of bench/e2e: each layer and variant
compiled with threads=1 and threads=N, both loaded in this process (no
torch: its thread pools would compete), called interleaved round by round
on the same inputs; outputs compared bit for bit first (no reduction order
depends on N). Prints the median wall-clock milliseconds per call and the
speed-up. OpenMP's default wait policy (workers spin between parallel
regions for a while, as a serving process runs them); OMP_WAIT_POLICY=passive
makes every region wake its workers from sleep.

  /usr/bin/python3 bench/e2e/threads.py [--threads 2] [--layers bert,mlp]
      [--variants f32,mixed] [--cpu sapphirerapids --x86-options amx=true]
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import fpopt_rt  # noqa: E402
import layers  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--layers", default="bert,mlp")
    ap.add_argument("--variants", default="f32,mixed")
    ap.add_argument("--cpu", help="fp-opt target (default: sapphirerapids amx=true on AMX hosts, "
                                  "znver4 with AVX512_BF16, else avx2)")
    ap.add_argument("--mcpu", help="llc -mcpu (default: the target's)")
    ap.add_argument("--x86-options", default="", help="more lowp-pipeline-x86 options")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seconds-per-round", type=float, default=0.3,
                    help="calls per round: about this long on one thread")
    ap.add_argument("--fp-opt", default=os.path.join(ROOT, "build", "bin", "fp-opt"))
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--workdir")
    cli = ap.parse_args()

    cpu, mcpu, cli.x86_options = fpopt_rt.choose_cpu(cli.cpu, cli.mcpu, cli.x86_options)
    tools = fpopt_rt.Tools(cli.fp_opt, cli.llvm_bin, mcpu)
    workdir = cli.workdir or tempfile.mkdtemp(prefix="e2e-threads-")
    by_name = layers.by_name(False)
    n = cli.threads
    print(f"fp-opt target={cpu} {cli.x86_options}, llc -mcpu={mcpu}; threads=1 vs threads={n}; "
          f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'default')}; "
          f"median of {cli.rounds} interleaved rounds, wall ms per call")
    print(f"| layer | variant | 1 thread | {n} threads | speed-up | outputs |")
    print("|---|---|---|---|---|---|")
    for name in cli.layers.split(","):
        layer = by_name[name]
        inputs = layer.inputs(seed=0)
        for variant in cli.variants.split(","):
            kernels = []
            for t in (1, n):
                extra = f"threads={t} {cli.x86_options}".strip() if t > 1 else cli.x86_options
                comp = fpopt_rt.compile_layer(layer.mlir(), workdir, f"{name}.{variant}.t{t}",
                                              variant, cpu, tools, extra)
                k = fpopt_rt.Kernel(comp.so_path, layer, comp.dealloc)
                k.bind(inputs)
                kernels.append(k)
            outs = [np.array(k(), copy=True) for k in kernels]
            same = outs[0].tobytes() == outs[1].tobytes()
            # Calls per round from a first timing on one thread.
            t0 = time.perf_counter()
            kernels[0].call_discard()
            one = time.perf_counter() - t0
            calls = max(1, int(cli.seconds_per_round / max(one, 1e-6)))
            times = [[], []]
            for _ in range(cli.rounds):
                for i, k in enumerate(kernels):
                    k.call_discard()  # warm: caches, the thread pool
                    t0 = time.perf_counter()
                    for _ in range(calls):
                        k.call_discard()
                    times[i].append((time.perf_counter() - t0) / calls)
            m1, mn = statistics.median(times[0]), statistics.median(times[1])
            diff = "bit-identical" if same else \
                f"differ by {np.max(np.abs(outs[0] - outs[1])):.1e}"
            print(f"| {name} | {variant} | {m1 * 1e3:.2f} | {mn * 1e3:.2f} | "
                  f"{m1 / mn:.2f}x | {diff} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
