#!/usr/bin/env python3
"""Kernel-level layers next to PyTorch, one thread, one process.

Loads the shared objects layers.sh built (one per fp-opt binary and
precision), calls each compiled `forward` through its C interface on the same
numpy inputs as a PyTorch module, checks the outputs against PyTorch f32
first, then times everything interleaved (each round runs every variant
once; the best round counts) and prints a table.

Usage: layers.py OUTDIR LAYER [LAYER...] (run by layers.sh)
"""
import ctypes
import os
import sys
import time

import numpy as np
import torch

torch.set_num_threads(1)
# torch's f32 GEMM is OpenBLAS, which numpy loaded (and sized to every core)
# before anything here could set OPENBLAS_NUM_THREADS: one thread, as the
# thread CPU clock below counts the calling thread only.
openblas = ctypes.CDLL("libopenblas.so.0")
openblas.openblas_set_num_threads(1)
assert openblas.openblas_get_num_threads() == 1
libc = ctypes.CDLL("libc.so.6")
libc.free.argtypes = [ctypes.c_void_p]
# The compiled code allocates its packing buffers per call, as PyTorch does
# its outputs: keep freed memory in the heap for both (no trimming, no mmap
# per allocation), or every call page-faults its buffers back in.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
libc.mallopt(M_MMAP_THRESHOLD, 1 << 30)
libc.mallopt(M_TRIM_THRESHOLD, 1 << 30)


# The memref descriptors of MLIR's C interface, from the built fpopt package.
sys.path.insert(0, os.path.join(os.environ.get("FPOPT_BUILD_DIR") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "build"), "python_packages"))
from fpopt.runtime import descriptor, descriptor_type as memref_type  # noqa: E402


class Compiled:
    """`forward` of one shared object: f32 arrays in, one f32 array out.
    Built with prepack=true, `weights` (argument positions) are packed once
    by forward_prepack when the arguments are first seen, and forward takes
    the packed buffers in their places."""

    def __init__(self, path, out_shape, weights=()):
        self.lib = ctypes.CDLL(path)
        self.fn = self.lib._mlir_ciface_forward
        self.out_shape = out_shape
        self.weights = weights
        self.packed = None

    def prepack(self, args):
        ws = [args[i] for i in self.weights]
        res_type = type("Packed", (ctypes.Structure,), {"_fields_": [
            ("p%d" % i, memref_type(3)) for i in range(len(ws))]})
        res = res_type()
        descs = [descriptor(w) for w in ws]
        self.lib._mlir_ciface_forward_prepack(
            ctypes.byref(res), *[ctypes.byref(d) for d in descs])
        self.packed = [getattr(res, "p%d" % i) for i in range(len(ws))]

    def __call__(self, *args):
        res = memref_type(len(self.out_shape))()
        descs = [descriptor(a) for a in args]
        if self.weights:
            if self.packed is None:
                self.prepack(args)
            for i, p in zip(self.weights, self.packed):
                descs[i] = p
        self.fn(ctypes.byref(res), *[ctypes.byref(d) for d in descs])
        n = int(np.prod(self.out_shape))
        buf = (ctypes.c_float * n).from_address(
            res.aligned + 4 * res.offset)
        out = np.ctypeslib.as_array(buf).reshape(self.out_shape).copy()
        libc.free(res.allocated)
        return out


def layer_mlp():
    torch.manual_seed(0)
    dims = [1024, 4096, 4096, 1024]
    batch = 64
    lins = [torch.nn.Linear(dims[i], dims[i + 1]) for i in range(3)]
    x = torch.randn(batch, dims[0])

    def module(x):
        h = x
        for i, l in enumerate(lins):
            h = l(h)
            if i < 2:
                h = torch.relu(h)
        return h
    args = [x] + [t for l in lins for t in (l.weight, l.bias)]
    return module, args, (batch, dims[-1]), 2 * batch * sum(
        dims[i] * dims[i + 1] for i in range(3)), (1, 3, 5)


def layer_conv():
    torch.manual_seed(0)
    conv = torch.nn.Conv2d(64, 64, 3, padding=1, bias=False)
    x = torch.randn(1, 64, 56, 56)

    def module(x):
        return torch.relu(conv(x))
    return module, [x, conv.weight], (1, 64, 56, 56), \
        2 * 64 * 64 * 9 * 56 * 56, ()


def layer_dwconv():
    torch.manual_seed(0)
    conv = torch.nn.Conv2d(128, 128, 3, padding=1, groups=128, bias=False)
    x = torch.randn(1, 128, 56, 56)

    def module(x):
        return torch.relu(conv(x))
    return module, [x, conv.weight], (1, 128, 56, 56), \
        2 * 128 * 9 * 56 * 56, ()


LAYERS = {"mlp": layer_mlp, "conv": layer_conv, "dwconv": layer_dwconv}


def best_of(fns, rounds):
    best = [1e30] * len(fns)
    for _ in range(rounds):
        for i, f in enumerate(fns):
            t0 = time.thread_time()
            f()
            best[i] = min(best[i], time.thread_time() - t0)
    return best


def main():
    outdir, layers = sys.argv[1], sys.argv[2:]
    rounds = int(__import__("os").environ.get("ROUNDS", "7"))
    for name in layers:
        module, targs, out_shape, flop, weights = LAYERS[name]()
        with torch.no_grad():
            ref = module(targs[0]).numpy()
            nargs = [t.detach().numpy().copy() for t in targs]
            variants = {}
            for tag in ["before-f32", "after-f32", "prepacked-f32",
                        "before-mixed", "after-mixed", "prepacked-mixed"]:
                try:
                    variants[tag] = Compiled(
                        "%s/%s-%s.so" % (outdir, name, tag), out_shape,
                        weights if tag.startswith("prepacked") else ())
                except OSError:
                    pass
            scale = np.abs(ref).max()
            for tag, f in variants.items():
                err = np.abs(f(*nargs) - ref).max() / scale
                print("%-5s %-13s max|y - torch f32| / max|y| = %.1e"
                      % (name, tag, err))
            fns = {"torch f32": lambda: module(targs[0])}

            def autocast():
                with torch.autocast("cpu", dtype=torch.bfloat16):
                    module(targs[0])
            fns["torch bf16 autocast"] = autocast
            # .to(bfloat16): the same module with bf16 parameters and input.
            params = [p for p in _params(module)]
            saved = [p.data for p in params]

            def to_bf16():
                for p, s in zip(params, saved):
                    p.data = s.to(torch.bfloat16)
                try:
                    module(targs[0].to(torch.bfloat16))
                finally:
                    for p, s in zip(params, saved):
                        p.data = s
            fns["torch bf16 .to"] = to_bf16
            for tag, f in variants.items():
                fns["fp-opt " + tag] = (lambda f=f: f(*nargs))
            times = best_of(list(fns.values()), rounds)
            t = dict(zip(fns.keys(), times))
            print("%-5s %-26s %9s %9s %s" % (name, "variant", "ms",
                                            "GFLOP/s", "vs"))
            for k, v in t.items():
                vs = ""
                if k.startswith("fp-opt") and "f32" in k:
                    vs = "%.2fx torch f32" % (t["torch f32"] / v)
                elif k.startswith("fp-opt"):
                    tb = min(t["torch bf16 autocast"], t["torch bf16 .to"])
                    vs = "%.2fx torch bf16 (faster of autocast, .to)" % (tb / v)
                print("%-5s %-26s %9.2f %9.1f %s" % (name, k, v * 1e3,
                                                    flop / v * 1e-9, vs))


def _params(module):
    # The closures' nn.Modules (the layer builders keep them in cells).
    seen = []
    for cell in module.__closure__ or ():
        obj = cell.cell_contents
        mods = obj if isinstance(obj, list) else [obj]
        for m in mods:
            if isinstance(m, torch.nn.Module):
                seen += list(m.parameters())
    return seen


if __name__ == "__main__":
    main()
