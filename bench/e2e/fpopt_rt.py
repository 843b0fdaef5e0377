"""Compiling a layer with fp-opt into a shared library and calling it from
Python through MLIR's C interface (`llvm.emit_c_interface`), with numpy and
the descriptor, host-target and allocation helpers of the built fpopt
package (fpopt.runtime); fp-opt itself runs as the command-line tool, so
two builds can be compared (bench.py --before).

  compile_layer(mlir_text, workdir, tag, pipeline, tools) -> Compiled
  Compiled.load() -> Kernel;  Kernel(args) -> numpy result

The generated `_mlir_ciface_forward(Result*, Arg0*, Arg1*, ...)` takes
memref descriptors {allocated, aligned, offset, sizes[r], strides[r]} by
pointer and writes the result's descriptor into *Result. The result buffer
is allocated by the generated code; `Kernel` frees it with the deallocation
function the module itself uses (libc `free` for `malloc` / `aligned_alloc`),
after copying it out, unless it points into an argument (then it is not the
caller's to free).
"""
import ctypes
import os
import re
import subprocess
import sys
import time

import numpy as np

# The package's runtime (descriptors, host target, allocation functions):
# build/python_packages of this checkout (FPOPT_BUILD_DIR for another).
sys.path.insert(0, os.path.join(os.environ.get("FPOPT_BUILD_DIR") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "build"), "python_packages"))
from fpopt import runtime  # noqa: E402


def default_cpu():
    """(fp-opt target, llc -mcpu, more lowp-pipeline-x86 options): what a
    user compiles for this host (fpopt.runtime.host_target)."""
    target, options = runtime.host_target()
    return target, runtime.llc_cpu(target), options


def choose_cpu(cpu=None, mcpu=None, x86_options=""):
    """(target, llc -mcpu, lowp-pipeline-x86 options) from the command line:
    the host's default (default_cpu) unless `cpu` names one; the default's
    options only with the default target and when `x86_options` is empty."""
    default, default_mcpu, options = default_cpu()
    if cpu:
        default_mcpu = runtime.llc_cpu(cpu)
        options = ""
    return cpu or default, mcpu or default_mcpu, x86_options or options


class Tools:
    def __init__(self, fpopt, llvm_bin, mcpu):
        self.fpopt = fpopt
        self.llvm_bin = llvm_bin
        self.mcpu = mcpu

    def tool(self, name):
        return os.path.join(self.llvm_bin, name)

    def with_fpopt(self, fpopt):
        """The same tools with another fp-opt (bench.py --before)."""
        return Tools(fpopt, self.llvm_bin, self.mcpu)


def pipeline_flags(variant, cpu, extra_x86="", target=None, policy=None):
    """fp-opt flags of the two compilations the benchmark compares; the
    mixed one decides for `target` (default: the cpu lowered for)."""
    x86 = f"--lowp-pipeline-x86=target={cpu}" + (f" {extra_x86}" if extra_x86 else "")
    if variant == "f32":
        return [x86]
    if variant == "mixed":
        amp = f"--lowp-auto-mixed-precision=target={target or cpu}"
        return [amp + (f" policy={policy}" if policy else ""), x86]
    raise ValueError(variant)


class CompileError(RuntimeError):
    pass


def _run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if p.returncode != 0:
        raise CompileError(f"{' '.join(cmd)} failed ({p.returncode}):\n"
                           f"{p.stderr.decode(errors='replace')[-4000:]}")
    return p


def prepacked_arguments(diagnostics):
    """The argument numbers of `forward` that take packed weights, read off
    lowp-x86-lower-contractions' remark with prepack=true ("weights of
    'forward' (arguments 1, 3) are packed once, by 'forward_prepack'");
    empty when nothing was split."""
    m = re.search(r"weights of 'forward' \(arguments? ([0-9, ]+)\) are packed once", diagnostics)
    return [int(i) for i in m.group(1).split(",")] if m else []


def prepacked_ranks(llvm_mlir_path):
    """The ranks of forward_prepack's results (3 for a matmul's packed
    panels, the filter's own rank for a convolution's rounded filter), read
    off its signature in the LLVM dialect: one memref descriptor
    `struct<(ptr, ptr, i64, array<R x i64>, array<R x i64>)>` per result."""
    with open(llvm_mlir_path) as f:
        for line in f:
            if line.lstrip().startswith("llvm.func @forward_prepack("):
                results = line.split("->", 1)[1]
                return [int(r) for r in re.findall(r"array<(\d+) x i64>, array<\d+ x i64>", results)]
    return []


class Compiled:
    def __init__(self, so_path, llvm_mlir_path, decided_path, seconds, dealloc,
                 prepacked=()):
        self.so_path = so_path
        self.prepacked = list(prepacked)
        self.prepacked_ranks = prepacked_ranks(llvm_mlir_path) if prepacked else []
        if len(self.prepacked_ranks) != len(self.prepacked):
            raise RuntimeError(f"forward_prepack returns {len(self.prepacked_ranks)} "
                               f"buffers for the {len(self.prepacked)} packed arguments")
        self.llvm_mlir_path = llvm_mlir_path
        self.decided_path = decided_path
        self.seconds = seconds  # {"fp-opt": s, "translate": s, "llc": s, "link": s}
        self.dealloc = dealloc

    @property
    def total_seconds(self):
        return sum(self.seconds.values())

    def load(self, layer):
        return Kernel(self.so_path, layer, self.dealloc, self.prepacked,
                      self.prepacked_ranks)


def compile_layer(mlir_text, workdir, tag, variant, cpu, tools, extra_x86="", target=None,
                  policy=None):
    """Writes WORKDIR/TAG.{mlir,llvm.mlir,ll,o,so}; returns a Compiled."""
    os.makedirs(workdir, exist_ok=True)
    src = os.path.join(workdir, f"{tag}.mlir")
    with open(src, "w") as f:
        f.write(mlir_text)
    base = os.path.join(workdir, tag)
    seconds = {}
    decided = None
    t = time.perf_counter()
    flags = pipeline_flags(variant, cpu, extra_x86, target, policy)
    p = _run([tools.fpopt, src] + flags + ["-o", base + ".llvm.mlir"])
    seconds["fp-opt"] = time.perf_counter() - t
    prepacked = prepacked_arguments(p.stderr.decode(errors="replace"))
    if variant == "mixed":
        # Not timed: the decided IR, to tell whether anything was narrowed.
        decided = base + ".decided.mlir"
        _run([tools.fpopt, src, flags[0], "-o", decided])
    t = time.perf_counter()
    _run([tools.tool("mlir-translate"), "--mlir-to-llvmir", base + ".llvm.mlir",
          "-o", base + ".ll"])
    seconds["translate"] = time.perf_counter() - t
    t = time.perf_counter()
    _run([tools.tool("llc"), "-O3", f"-mcpu={tools.mcpu}", "-filetype=obj",
          "-relocation-model=pic", base + ".ll", "-o", base + ".o"])
    seconds["llc"] = time.perf_counter() - t
    t = time.perf_counter()
    dealloc = dealloc_function(base + ".ll")
    objects = [base + ".o"]
    if dealloc == "_mlir_memref_to_llvm_free":
        # MLIR's generic allocation functions (use-generic-functions) are the
        # embedder's to define: here, over libc.
        shim = os.path.join(workdir, "generic_alloc.c")
        with open(shim, "w") as f:
            f.write(runtime.GENERIC_ALLOC_C)
        _run([tools.tool("clang"), "-O2", "-fPIC", "-c", shim, "-o", base + ".alloc.o"])
        objects.append(base + ".alloc.o")
    # memref.copy of a strided view (e.g. tensor.pad's interior) calls
    # memrefCopy from MLIR's C runner utilities.
    libdir = os.path.join(os.path.dirname(tools.llvm_bin.rstrip("/")), "lib")
    _run([tools.tool("clang"), "-shared"] + objects + ["-o", base + ".so",
          "-Wl,--as-needed", "-lm", f"-L{libdir}", f"-Wl,-rpath,{libdir}",
          "-lmlir_c_runner_utils", "-lomp"])  # -lomp: threads= builds (as needed)
    seconds["link"] = time.perf_counter() - t
    return Compiled(base + ".so", base + ".llvm.mlir", decided, seconds, dealloc, prepacked)


def dealloc_function(ll_path):
    """The function that frees what the module allocates
    (fpopt.runtime.dealloc_function on the LLVM IR file)."""
    with open(ll_path) as f:
        return runtime.dealloc_function(f.read())


descriptor_type = runtime.descriptor_type
descriptor = runtime.descriptor


_LIBC = ctypes.CDLL(None)
_LIBC.free.argtypes = [ctypes.c_void_p]
_LIBC.free.restype = None


class Kernel:
    """The compiled @forward of a layer, called with numpy f32 arrays.
    Compiled with prepack=true, `prepacked` lists the arguments forward
    takes packed: bind() packs them once through forward_prepack, and the
    calls pass the packed buffers in their places."""

    def __init__(self, so_path, layer, dealloc, prepacked=(), prepacked_ranks=()):
        self.prepacked = list(prepacked)
        self.prepacked_ranks = list(prepacked_ranks) or [3] * len(self.prepacked)
        self.packed = None
        self.lib = ctypes.CDLL(so_path)
        self.fn = self.lib._mlir_ciface_forward
        self.fn.restype = None
        self.result_shape = list(layer.result)
        self.arg_names = [n for n, _ in layer.args]
        self.arg_shapes = {n: list(s) for n, s in layer.args}
        if dealloc == "free":
            self.free = _LIBC.free
        else:
            self.free = getattr(self.lib, dealloc)
            self.free.argtypes = [ctypes.c_void_p]
            self.free.restype = None
        self.bound = None

    def bind(self, inputs):
        """Builds the argument descriptors once (the arrays must outlive
        the calls)."""
        arrays = []
        for n in self.arg_names:
            a = inputs[n]
            if list(a.shape) != self.arg_shapes[n] or a.dtype != np.float32:
                raise ValueError(f"argument {n}: expected f32 {self.arg_shapes[n]}, "
                                 f"got {a.dtype} {list(a.shape)}")
            arrays.append(np.ascontiguousarray(a))
        descs = [descriptor(a) for a in arrays]
        self.ranges = [(a.ctypes.data, a.ctypes.data + a.nbytes) for a in arrays]
        if self.prepacked:
            self.release_packed()
            self.packed = self._prepack([descs[i] for i in self.prepacked])
            for i, d in zip(self.prepacked, self.packed):
                descs[i] = d
        self.bound = (arrays, descs, [ctypes.byref(d) for d in descs])

    def _prepack(self, weights):
        """forward_prepack(weights...) -> packed buffers (of the ranks its
        signature gives), returned through its first argument as a struct of
        descriptors."""
        packed_type = type("Packed", (ctypes.Structure,),
                           {"_fields_": [(f"p{i}", descriptor_type(r))
                                         for i, r in enumerate(self.prepacked_ranks)]})
        packed = packed_type()
        fn = self.lib._mlir_ciface_forward_prepack
        fn.restype = None
        fn(ctypes.byref(packed), *[ctypes.byref(w) for w in weights])
        return [getattr(packed, f"p{i}") for i in range(len(weights))]

    def release_packed(self):
        """Frees the packed weights (the caller owns forward_prepack's results)."""
        for d in self.packed or []:
            if d.allocated and self.free:
                self.free(d.allocated)
        self.packed = None


    def _release(self, res):
        ptr = res.allocated
        if ptr and self.free and not any(lo <= ptr < hi for lo, hi in self.ranges):
            self.free(ptr)

    def call_discard(self):
        """One call on the bound arguments; the result is freed unread."""
        res = descriptor_type(len(self.result_shape))()
        self.fn(ctypes.byref(res), *self.bound[2])
        self._release(res)

    def __call__(self, inputs=None):
        if inputs is not None:
            self.bind(inputs)
        res = descriptor_type(len(self.result_shape))()
        self.fn(ctypes.byref(res), *self.bound[2])
        sizes = list(res.sizes)
        if sizes != self.result_shape:
            self._release(res)
            raise RuntimeError(f"result shape {sizes}, expected {self.result_shape}")
        strides = [s * 4 for s in res.strides]
        span = 1 + sum((n - 1) * s for n, s in zip(sizes, res.strides))
        buf = (ctypes.c_float * span).from_address(res.aligned + 4 * res.offset)
        view = np.lib.stride_tricks.as_strided(np.frombuffer(buf, dtype=np.float32),
                                               shape=sizes, strides=strides)
        out = np.array(view, copy=True)
        self._release(res)
        return out


def keep_freed_memory():
    """glibc: serve every allocation from the heap and never give freed
    memory back (M_MMAP_MAX 0, M_TRIM_THRESHOLD max), so a buffer freed at
    the end of one call is not page-faulted in again by the next. Affects
    everything in the process (PyTorch too)."""
    M_TRIM_THRESHOLD, M_MMAP_MAX = -1, -4
    _LIBC.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    ok = _LIBC.mallopt(M_MMAP_MAX, 0) and _LIBC.mallopt(M_TRIM_THRESHOLD, 2**31 - 1)
    if not ok:
        raise RuntimeError("mallopt failed")


def rss_mib():
    """Current resident set size (MiB), from /proc/self/statm."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_rss_mib():
    """Peak resident set size (MiB) since the last reset_peak_rss()
    (VmHWM of /proc/self/status)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    raise RuntimeError("no VmHWM in /proc/self/status")


def reset_peak_rss():
    """Sets the peak to the current RSS (Linux >= 4.0: clear_refs 5), so
    that temporaries of argument generation do not mask a call's peak."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
