#!/usr/bin/env python3
"""ResNet-50's convolution shapes in the two layouts the x86 kernels take,
fp-opt f32, one shape at a time, called alternately in one process: NCHW
(`linalg.conv_2d_nchw_fchw`, `nhwc-convolutions=false`), NHWC
(`linalg.conv_2d_nhwc_hwcf` on NHWC data, no transposes) and NCHW through
NHWC (the input, filter and output transposed around an NHWC convolution in
the function: what lowp-convert-conv-nchw-to-nhwc makes of a lone
convolution, at price 0). "MACs/elem" is the convolution's multiply-adds
per element of the two activation transposes, the quantity the pass's
`macs-per-transposed-element` bounds. Median ms per call; results checked
against each other.

  /usr/bin/python3 bench/models/conv_layouts.py [--batch 32] [--reps 7]
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "build", "python_packages"))
import fpopt  # noqa: E402
import fpopt.runtime  # noqa: E402

# (in channels, out channels, input size, kernel) of ResNet-50, stride 1.
SHAPES = [(512, 2048, 7, 1), (2048, 512, 7, 1), (512, 512, 7, 3),
          (256, 1024, 14, 1), (1024, 256, 14, 1), (256, 256, 14, 3),
          (128, 512, 28, 1), (512, 128, 28, 1), (128, 128, 28, 3),
          (64, 256, 56, 1), (256, 64, 56, 1), (64, 64, 56, 3)]

PAD = """%cst = arith.constant 0.0 : f32
  %xp = tensor.pad {src} low[{low}] high[{low}] {{
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  }} : tensor<{st}xf32> to tensor<{pt}xf32>"""
CONV = """%z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{ot}xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<{ot}xf32>) -> tensor<{ot}xf32>
  %y = linalg.{op} {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}}
      ins(%xp, {w} : tensor<{pt}xf32>, tensor<{wt}xf32>) outs(%i : tensor<{ot}xf32>) -> tensor<{ot}xf32>"""


def shape(*dims):
    return "x".join(str(d) for d in dims)


def module(layout, n, c, f, s, k):
    p = k // 2
    sp = s + 2 * p
    if layout == "nhwc":
        st, pt, ot, wt = shape(n, s, s, c), shape(n, sp, sp, c), shape(n, s, s, f), shape(k, k, c, f)
        pad = PAD.format(src="%x", low=f"0, {p}, {p}, 0", st=st, pt=pt)
        conv = CONV.format(op="conv_2d_nhwc_hwcf", w="%w", pt=pt, wt=wt, ot=ot)
        return (f"func.func @f(%x: tensor<{st}xf32>, %w: tensor<{wt}xf32>) -> tensor<{ot}xf32> {{\n"
                f"  {pad}\n  {conv}\n  return %y : tensor<{ot}xf32>\n}}")
    st, ot, wt = shape(n, c, s, s), shape(n, f, s, s), shape(f, c, k, k)
    if layout == "nchw":
        pt = shape(n, c, sp, sp)
        pad = PAD.format(src="%x", low=f"0, 0, {p}, {p}", st=st, pt=pt)
        conv = CONV.format(op="conv_2d_nchw_fchw", w="%w", pt=pt, wt=wt, ot=ot)
        return (f"func.func @f(%x: tensor<{st}xf32>, %w: tensor<{wt}xf32>) -> tensor<{ot}xf32> {{\n"
                f"  {pad}\n  {conv}\n  return %y : tensor<{ot}xf32>\n}}")
    # NCHW through NHWC: transposes in the function.
    ht, hwt, hot = shape(n, s, s, c), shape(f, k, k, c), shape(n, s, s, f)
    pt = shape(n, sp, sp, c)
    pad = PAD.format(src="%xt", low=f"0, {p}, {p}, 0", st=ht, pt=pt)
    conv = CONV.format(op="conv_2d_nhwc_fhwc", w="%wt", pt=pt, wt=hwt, ot=hot)
    return f"""func.func @f(%x: tensor<{st}xf32>, %w: tensor<{wt}xf32>) -> tensor<{ot}xf32> {{
  %e0 = tensor.empty() : tensor<{ht}xf32>
  %xt = linalg.transpose ins(%x : tensor<{st}xf32>) outs(%e0 : tensor<{ht}xf32>) permutation = [0, 2, 3, 1]
  %e1 = tensor.empty() : tensor<{hwt}xf32>
  %wt = linalg.transpose ins(%w : tensor<{wt}xf32>) outs(%e1 : tensor<{hwt}xf32>) permutation = [0, 2, 3, 1]
  {pad}
  {conv}
  %e2 = tensor.empty() : tensor<{ot}xf32>
  %yt = linalg.transpose ins(%y : tensor<{hot}xf32>) outs(%e2 : tensor<{ot}xf32>) permutation = [0, 3, 1, 2]
  return %yt : tensor<{ot}xf32>
}}"""


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--reps", type=int, default=7)
    cli = ap.parse_args()
    fpopt.runtime.retain_freed_memory()
    n = cli.batch
    print(f"batch {n}, 1 thread, f32, median of {cli.reps} alternated calls, ms")
    for c, f, s, k in SHAPES:
        fns = {lay: fpopt.compile(module(lay, n, c, f, s, k), policy="f32",
                                  x86_options="nhwc-convolutions=false")
               for lay in ("nchw", "nhwc", "via")}
        rng = np.random.default_rng(0)
        x = rng.standard_normal((n, c, s, s), dtype=np.float32)
        w = (rng.standard_normal((f, c, k, k), dtype=np.float32) * 0.05)
        xh = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
        wh = np.ascontiguousarray(w.transpose(2, 3, 1, 0))
        args = {"nchw": (x, w), "nhwc": (xh, wh), "via": (x, w)}
        ref = fns["nchw"](x, w)
        err = max(np.abs(fns["nhwc"](xh, wh).transpose(0, 3, 1, 2) - ref).max(),
                  np.abs(fns["via"](x, w) - ref).max()) / np.abs(ref).max()
        times = {lay: [] for lay in fns}
        for _ in range(cli.reps):
            for lay, fn in fns.items():
                t0 = time.perf_counter()
                fn(*args[lay])
                times[lay].append(time.perf_counter() - t0)
        ms = {lay: statistics.median(v) * 1e3 for lay, v in times.items()}
        macs = n * s * s * f * c * k * k
        elems = n * c * (s + 2 * (k // 2)) ** 2 + n * f * s * s
        print(f"{c:5d} -> {f:5d} {s:2d}x{s:<2d} k{k}: nchw {ms['nchw']:7.2f} "
              f"nhwc {ms['nhwc']:7.2f} via {ms['via']:7.2f}  nchw/nhwc "
              f"{ms['nchw'] / ms['nhwc']:.2f}x  nchw/via {ms['nchw'] / ms['via']:.2f}x  "
              f"MACs/elem {macs / elems:6.0f}  err {err:.1e}", flush=True)


if __name__ == "__main__":
    main()
