#!/usr/bin/python3
"""Untimed correctness check of the end-to-end benchmark's layers, without
PyTorch: every layer (shrunk with --small) is compiled by fp-opt through both
pipelines of bench.py (f32: lowp-pipeline-x86; mixed:
lowp-auto-mixed-precision then lowp-pipeline-x86), loaded through the C
interface and compared with a float64 numpy forward pass.

Bound (error = max|y - ref| / max|ref|, ref the float64 result), from the
contraction lengths K on the layer's longest path (Layer.contraction_ks):
  f32:   4 (sum K) 2^-24 + 2^-20   (gamma_K per contraction, summed; the
         2^-20 term covers exp / erf / rsqrt of a few ulps each);
  mixed: sqrt(sum K) 2^-8 + the f32 bound, where the decided module has
         bf16 (a random walk of bf16 operand roundings), else the f32 bound;
         a mixed run with bf16 must also differ from ref by more than 2^-8/64
         (otherwise nothing was computed in bf16).
--control checks the mixed runs against the f32 bound instead and so must
FAIL wherever bf16 was chosen (the bound can tell bf16 from f32).

Prints one line per layer and pipeline, "PASS" or "FAIL", then a summary.
"""
import argparse
import concurrent.futures
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fpopt_rt  # noqa: E402
import layers  # noqa: E402


def bounds(layer, has_bf16):
    ks = layer.contraction_ks
    f32 = 4 * sum(ks) * 2.0**-24 + 2.0**-20
    if not has_bf16:
        return f32, f32, 0.0
    return f32, math.sqrt(sum(ks)) * 2.0**-8 + f32, 2.0**-8 / 64


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser()
    ap.add_argument("--small", action="store_true", help="the shrunk shapes")
    ap.add_argument("--layers", default="bert,mlp,resnet_nchw,resnet_nhwc,mbv2_nchw,mbv2_s2_nchw")
    ap.add_argument("--cpu", help="fp-opt target / cpu (default: sapphirerapids with "
                    "amx=true on AMX hosts, znver4 with AVX512_BF16, else avx2)")
    ap.add_argument("--mcpu", help="llc -mcpu (default: from --cpu)")
    ap.add_argument("--target", help="lowp-auto-mixed-precision target of the mixed "
                    "pipeline (default: --cpu), e.g. znver4 decisions lowered for avx2")
    ap.add_argument("--policy", help="its policy= (default: the pass's, auto)")
    ap.add_argument("--fp-opt", default=os.path.join(root, "build", "bin", "fp-opt"))
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--workdir")
    ap.add_argument("--control", action="store_true",
                    help="hold the mixed runs to the f32 bound (must fail)")
    cli = ap.parse_args()
    cpu, mcpu, options = fpopt_rt.choose_cpu(cli.cpu, cli.mcpu)
    tools = fpopt_rt.Tools(cli.fp_opt, cli.llvm_bin, mcpu)
    workdir = cli.workdir or tempfile.mkdtemp(prefix="e2e-check-")
    table = layers.by_name(cli.small)
    passed = failed = 0
    names = cli.layers.split(",")
    jobs = [(n, v) for n in names for v in ("f32", "mixed")]

    def build(job):
        name, variant = job
        try:
            return fpopt_rt.compile_layer(table[name].mlir(), workdir, f"{name}.{variant}",
                                          variant, cpu, tools, options, target=cli.target,
                                          policy=cli.policy)
        except fpopt_rt.CompileError as e:
            return e
    # Compilations are subprocesses: two at a time.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        compiled = dict(zip(jobs, pool.map(build, jobs)))
    for name in names:
        layer = table[name]
        inputs = layer.inputs(seed=1)
        ref = layer.reference(inputs)
        scale = float(abs(ref).max())
        for variant in ("f32", "mixed"):
            comp = compiled[(name, variant)]
            try:
                if isinstance(comp, Exception):
                    raise comp
                y = comp.load(layer)(inputs)
            except Exception as e:  # a compile or run failure is a FAIL line
                print(f"FAIL {name} {variant}: {e}")
                failed += 1
                continue
            has_bf16 = False
            if comp.decided_path:
                with open(comp.decided_path) as f:
                    has_bf16 = "bf16" in f.read()
            f32_bound, mixed_bound, floor = bounds(layer, has_bf16)
            bound = f32_bound if (variant == "f32" or cli.control) else mixed_bound
            err = float(abs(y.astype("float64") - ref).max()) / scale
            ok = bool(err <= bound) and (variant == "f32" or err > floor)
            print(f"{'PASS' if ok else 'FAIL'} {name} {variant}{' (bf16)' if has_bf16 else ''}: "
                  f"max|y-ref|/max|ref| = {err:.3e}, bound {bound:.3e}"
                  + (f", floor {floor:.1e}" if variant == "mixed" and floor else ""))
            passed += ok
            failed += not ok
    print(f"e2e-check: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
