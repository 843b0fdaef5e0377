"""Compiling a module to x86 machine code and calling it on numpy arrays.

``fpopt.compile(text, target=..., policy=..., threads=...)`` runs the
decisions (``lowp-auto-mixed-precision``, skipped for ``policy="f32"``) and
``lowp-pipeline-x86`` in this process through the C API, translates the
result to LLVM IR, compiles it with ``llc`` and links a shared object, which
is then called through MLIR's C interface (``llvm.emit_c_interface``):
``_mlir_ciface_F(results*, arg0*, arg1*, ...)`` takes one memref descriptor
``{allocated, aligned, offset, sizes[r], strides[r]}`` per tensor argument,
by pointer, and writes the results' descriptors (a struct of them when
there are several) into ``*results``.

Results are allocated by the generated code: each is copied into a numpy
array and freed with the deallocation function the module itself calls,
unless it points into an argument (then it is not the caller's to free).
Shared objects are cached on disk by the hash of everything that went into
them (``$FPOPT_CACHE_DIR``, default ``~/.cache/fpopt``).

Element types: f32, f64, f16, i64, i32, i8 and i1 map to the numpy dtypes
of the same name (bool for i1); bf16 tensors are passed as float32 arrays
rounded to bf16 (nearest, ties to even) on the way in and widened on the way
out, or as uint16 arrays of raw bf16 bits, which pass unchanged; FP8
tensors as uint8 arrays of raw codes (float arrays given for an FP8
argument without a scale are rounded to nearest even, saturating; an FP8
weight with a scale takes codes, or floats through ``bind()``).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import weakref
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

LLVM_BIN = os.environ.get("FPOPT_LLVM_BIN", "/usr/lib/llvm-22/bin")

_NUMPY_DTYPE = {
    "f32": np.float32, "f64": np.float64, "f16": np.float16,
    "bf16": np.uint16, "i64": np.int64, "i32": np.int32, "i8": np.int8,
    "i1": np.bool_,
}
_FP8_TYPES = ("f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E4M3",
              "f8E4M3B11FNUZ", "f8E3M4")


class RuntimeError_(RuntimeError):
    """Base class of the runtime's errors (a tool failed, a bad call)."""


class BuildError(RuntimeError_):
    """mlir-translate, llc or the link step failed on a compiled module."""


class CallError(ValueError):
    """A call's arguments do not match the compiled function's signature."""


def _cpuinfo_field(name: str) -> str:
    """The first value of field `name` in /proc/cpuinfo ("" where it cannot
    be read)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.split(":", 1)[0].strip() == name:
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def host_flags() -> set:
    """The CPU flags /proc/cpuinfo lists (empty where it cannot be read)."""
    return set(_cpuinfo_field("flags").split())


def _llvm_function_result(function_type: str) -> str:
    """The result type in an LLVM function type as MLIR prints it
    (``!llvm.func<RESULT (PARAMS)>``); empty when there is none."""
    body = function_type.removeprefix("!llvm.func<").removesuffix(">")
    depth = 0
    for i, ch in enumerate(body):
        if ch in "<(":
            if ch == "(" and depth == 0 and body[:i].endswith(" "):
                return body[:i - 1]
            depth += 1
        elif ch in ">)":
            depth -= 1
    return ""


def llc_cpu(target: str) -> str:
    """The llc -mcpu an x86 row of the capability table is built for (its
    llvm_cpu; a name outside the table is taken as an llc CPU itself)."""
    from .tables import targets
    row = targets().get(target)
    return row.llvm_cpu if row is not None and row.cpu_features else target


def host_target() -> Tuple[str, str]:
    """(target, extra lowp-pipeline-x86 options) a user compiles for this
    host: the capability table's CPU row whose features /proc/cpuinfo's
    flags all show (fp-opt's choice, lowp::selectHostCPU: the most
    features, then the row of the host's vendor), with amx=true where the
    flags also show the row's AMX extensions; avx2 where none matches."""
    from . import _fpopt
    chosen = _fpopt.select_host_cpu(sorted(host_flags()),
                                    _cpuinfo_field("vendor_id"))
    if chosen is None:
        return "avx2", ""
    name, amx = chosen
    return name, "amx=true" if amx else ""


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> raw bf16 bits (uint16), nearest, ties to even; NaN stays
    a quiet NaN."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1)))
    out = (rounded >> np.uint32(16)).astype(np.uint16)
    nan = np.isnan(x)
    if nan.any():
        out = np.where(nan, np.uint16(0x7FC0), out)
    return out


def bf16_to_f32(bits: np.ndarray) -> np.ndarray:
    """Raw bf16 bits (uint16) -> float32 (exact)."""
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)


#: Scalars a compiled function may take or return by value (a training
#: step's loss scale and good-step counter): their ctypes and C types.
_SCALAR_TYPES = {"f32": (ctypes.c_float, "float"), "f64": (ctypes.c_double, "double"),
                 "i64": (ctypes.c_int64, "long long"), "i32": (ctypes.c_int32, "int")}


@dataclass(frozen=True)
class TensorType:
    """A ranked tensor type of a signature: static shape and element type;
    or, with ``scalar``, a scalar (f32, f64, i64, i32) passed by value,
    handled as a 0-d array."""

    shape: Tuple[int, ...]
    element: str
    scalar: bool = False

    @staticmethod
    def parse(text: str) -> "TensorType":
        if text.strip() in _SCALAR_TYPES:
            return TensorType((), text.strip(), scalar=True)
        m = re.fullmatch(r"tensor<(.*)>", text.strip())
        if not m:
            raise CallError(f"'{text}' is not a tensor type: fpopt.compile calls "
                            "functions whose arguments and results are tensors or "
                            f"{', '.join(_SCALAR_TYPES)} scalars")
        parts = m.group(1).split("x")
        element = parts[-1]
        dims = parts[:-1]
        if any(d == "?" for d in dims):
            raise CallError(f"'{text}' has a dynamic dimension: compiled functions "
                            "take static shapes")
        if element not in _NUMPY_DTYPE and element not in _FP8_TYPES:
            raise CallError(f"'{text}': element type {element} is not supported "
                            "(f32, f64, f16, bf16, FP8, i64, i32, i8, i1)")
        return TensorType(tuple(int(d) for d in dims), element)

    @property
    def dtype(self):
        return _NUMPY_DTYPE.get(self.element, np.uint8)

    @property
    def rank(self) -> int:
        return len(self.shape)

    def __str__(self):
        if self.scalar:
            return self.element
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + self.element + ">"

    @property
    def c_type(self) -> str:
        """How the C interface passes it: a memref descriptor's address, or
        the scalar's own C type."""
        return _SCALAR_TYPES[self.element][1] if self.scalar else "void *"


_DESC_TYPES: Dict[int, type] = {}


def descriptor_type(rank: int):
    """The ctypes struct of a rank-`rank` memref descriptor {allocated,
    aligned, offset, sizes[rank], strides[rank]} (MLIR's C interface)."""
    if rank not in _DESC_TYPES:
        fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                  ("offset", ctypes.c_int64)]
        if rank:
            fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
        _DESC_TYPES[rank] = type(f"MemRef{rank}D", (ctypes.Structure,), {"_fields_": fields})
    return _DESC_TYPES[rank]


def argument_value(array: np.ndarray, ttype: "TensorType"):
    """What the C interface takes for an argument: the memref descriptor of
    the array, or the ctypes value of a scalar."""
    if ttype.scalar:
        return _SCALAR_TYPES[ttype.element][0](array.item())
    return descriptor(array)


def descriptor(array: np.ndarray):
    """The memref descriptor of a numpy array (pointing at its memory)."""
    d = descriptor_type(array.ndim)()
    d.allocated = d.aligned = array.ctypes.data
    d.offset = 0
    for i, (s, st) in enumerate(zip(array.shape, array.strides)):
        d.sizes[i] = s
        d.strides[i] = st // array.itemsize
    return d


# Results of at least this many bytes in a buffer of their own are handed
# to the caller without a copy (_read_descriptor's `adopt`): copying a
# decoding step's returned KV cache costs more than a finalizer.
_ADOPT_BYTES = 64 * 1024


def _read_descriptor(d, ttype: TensorType, into: Optional[np.ndarray] = None,
                     adopt=None) -> np.ndarray:
    """A copy of the tensor a result descriptor points to (written into
    ``into`` when given: an array of the result's shape and dtype). With
    ``adopt`` (the deallocator of the buffer the descriptor owns alone), a
    large result is returned as a view of that buffer instead, which
    ``adopt(d.allocated)`` frees once no array refers to it; returns
    (array, adopted)."""
    sizes = list(d.sizes) if ttype.rank else []
    if tuple(sizes) != ttype.shape:
        raise RuntimeError_(f"a result of shape {sizes}, the signature says {ttype}")
    itemsize = np.dtype(ttype.dtype).itemsize
    strides = [s * itemsize for s in d.strides] if ttype.rank else []
    span = 1 + sum((n - 1) * s for n, s in zip(sizes, list(d.strides) if ttype.rank else []))
    if any(n == 0 for n in sizes):
        return np.zeros(ttype.shape, ttype.dtype), False
    address = d.aligned + itemsize * d.offset
    # A result written in place (update-in-place: a training step's new
    # parameters in the arguments' memory) is there already.
    if into is not None and into.ctypes.data == address and \
            list(into.strides) == strides:
        return into, False
    buf = (ctypes.c_char * (span * itemsize)).from_address(address)
    flat = np.frombuffer(buf, dtype=ttype.dtype)
    view = np.lib.stride_tricks.as_strided(flat, shape=sizes, strides=strides)
    if into is not None:
        np.copyto(into, view)
        return into, False
    if adopt is not None and span * itemsize >= _ADOPT_BYTES and \
            view.flags.c_contiguous:
        # The array's base chain keeps `buf` alive; the buffer is freed
        # with it.
        weakref.finalize(buf, adopt, d.allocated)
        return np.ndarray(sizes, ttype.dtype, buffer=buf), True
    return np.array(view, copy=True), False


_LIBC = ctypes.CDLL(None)
_LIBC.free.argtypes = [ctypes.c_void_p]
_LIBC.free.restype = None

_MALLOC_TUNED = False


def retain_freed_memory():
    """Tunes glibc's malloc once for this process: every block comes from
    the heap (no mmap: glibc caps the mmap threshold at 32 MiB, below a
    4096x4096 f32 weight) and up to 512 MiB of freed heap top is kept
    instead of returned to the system. Without it, the results and large
    intermediates a compiled function allocates on every call are mapped,
    page-faulted and zeroed again on every call (a 2.4 MB convolution
    output: 1.6 -> 15.7 ms per call on a VM with costly page faults).
    CompiledFunction calls it when it loads unless FPOPT_MALLOC=system."""
    global _MALLOC_TUNED
    if _MALLOC_TUNED or os.environ.get("FPOPT_MALLOC") == "system":
        return
    M_TRIM_THRESHOLD, M_MMAP_MAX = -1, -4
    _LIBC.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    if not (_LIBC.mallopt(M_MMAP_MAX, 0) and _LIBC.mallopt(M_TRIM_THRESHOLD, 512 << 20)):
        return
    _MALLOC_TUNED = True


def release_freed_memory():
    """Returns the heap's free memory to the system (glibc's malloc_trim).
    compile_module calls it once its pipelines, which run in this process,
    are done: the heap that retain_freed_memory keeps is then the compiled
    code's buffers, not the compiler's garbage (an MLP training step's
    compilation left about 640 MiB resident)."""
    _LIBC.malloc_trim.argtypes = [ctypes.c_size_t]
    _LIBC.malloc_trim(0)


GENERIC_ALLOC_C = """
#include <stdlib.h>
void *_mlir_memref_to_llvm_alloc(size_t size) { return malloc(size); }
void *_mlir_memref_to_llvm_aligned_alloc(size_t align, size_t size) {
  return aligned_alloc(align, (size + align - 1) / align * align);
}
void _mlir_memref_to_llvm_free(void *p) { free(p); }
"""


def dealloc_function(llvm_ir: str) -> str:
    """The function that frees what an LLVM IR module allocates: libc
    `free` for malloc / aligned_alloc, `_mlir_memref_to_llvm_free` (defined
    by GENERIC_ALLOC_C, linked in) for MLIR's generic allocation functions."""
    return _dealloc_for(re.findall(r"^declare [^@]*@([\w.]+)\(", llvm_ir, re.M))


def _dealloc_for(functions: Iterable[str]) -> str:
    """dealloc_function for a module that has (declares or defines)
    ``functions``."""
    generic = {"_mlir_memref_to_llvm_alloc", "_mlir_memref_to_llvm_aligned_alloc",
               "_mlir_memref_to_llvm_free"}
    return "_mlir_memref_to_llvm_free" if generic & set(functions) else "free"


def _run(cmd: List[str], what: str):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise BuildError(f"{what} failed ({' '.join(cmd)}):\n"
                         f"{p.stderr.decode(errors='replace')[-4000:]}")


def _cache_dir(cache_dir: Optional[str]) -> str:
    d = cache_dir or os.environ.get("FPOPT_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "fpopt")
    os.makedirs(d, exist_ok=True)
    return d


def _toolchain_stamp() -> str:
    """What else decides the object code: fp-opt's own library (a rebuilt
    fp-opt must not reuse objects of the old one) and the LLVM tools."""
    from . import _fpopt
    parts = []
    lib_dir = os.path.dirname(_fpopt.__file__)
    for candidate in (_fpopt.__file__,
                      os.path.join(lib_dir, "..", "..", "lib", "libFpOptCAPI.so"),
                      os.path.join(lib_dir, "..", "..", "..", "libFpOptCAPI.so"),
                      os.path.join(LLVM_BIN, "llc")):
        try:
            st = os.stat(candidate)
            parts.append(f"{os.path.realpath(candidate)}:{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            pass
    return "|".join(parts)


#: Changes with the way objects are built (flags, link), so that cached
#: objects of an older recipe are not reused.
_BUILD_RECIPE = "llc-O3-pic;clang-shared-Bsymbolic;v2"


def _trampoline_c(function: str, params) -> str:
    """`fpopt_call_F(void **p)` calling `_mlir_ciface_F(p[0], ..., p[n-1])`:
    ctypes calls at most 1024 arguments, and a model whose weights are
    arguments has more (densenet201: 1209). ``params``: how many pointers
    the C interface takes, or the C type of each parameter (a scalar is
    passed by value, read from where its pointer points)."""
    types = ["void *"] * params if isinstance(params, int) else list(params)
    declared = ", ".join(types) or "void"
    passed = ", ".join(f"p[{i}]" if t == "void *" else f"*({t} *)p[{i}]"
                       for i, t in enumerate(types))
    return (f"void _mlir_ciface_{function}({declared});\n"
            f"void fpopt_call_{function}(void **p) {{ _mlir_ciface_{function}({passed}); }}\n")


def build_shared_object(llvm_dialect_ir: str, mcpu: str, *,
                        cache_dir: Optional[str] = None,
                        key_extra: str = "",
                        trampolines: Optional[Dict[str, object]] = None) -> Tuple[str, str]:
    """LLVM-dialect module text -> (path of a shared object, the name of the
    function that frees what it allocates). Cached by content.
    ``trampolines`` maps a function name to the number of pointers its C
    interface takes (or the C types of its parameters, see _trampoline_c):
    each gets an `fpopt_call_F(void **)` entry."""
    def make_object(tmp: str, tool) -> Tuple[str, str]:
        src = os.path.join(tmp, "module.llvm.mlir")
        with open(src, "w") as f:
            f.write(llvm_dialect_ir)
        ll = os.path.join(tmp, "module.ll")
        _run([tool("mlir-translate"), "--mlir-to-llvmir", src, "-o", ll], "mlir-translate")
        with open(ll) as f:
            dealloc = dealloc_function(f.read())
        return _llc(tool, mcpu, ll, tmp), dealloc
    return _build(llvm_dialect_ir.encode(), mcpu, make_object, cache_dir=cache_dir,
                  key_extra=key_extra, trampolines=trampolines)


def build_shared_object_from_bitcode(bitcode: bytes, functions: Iterable[str], mcpu: str, *,
                                     cache_dir: Optional[str] = None, key_extra: str = "",
                                     trampolines: Optional[Dict[str, object]] = None
                                     ) -> Tuple[str, str]:
    """build_shared_object for a module already translated to LLVM bitcode
    in this process (lower_to_bitcode); ``functions``: the names of its LLVM
    functions, declarations included (they say which allocator it calls)."""
    dealloc = _dealloc_for(functions)

    def make_object(tmp: str, tool) -> Tuple[str, str]:
        bc = os.path.join(tmp, "module.bc")
        with open(bc, "wb") as f:
            f.write(bitcode)
        return _llc(tool, mcpu, bc, tmp), dealloc
    return _build(bitcode, mcpu, make_object, cache_dir=cache_dir,
                  key_extra=key_extra, trampolines=trampolines)


def _llc(tool, mcpu: str, source: str, tmp: str) -> str:
    obj = os.path.join(tmp, "module.o")
    _run([tool("llc"), "-O3", f"-mcpu={mcpu}", "-filetype=obj",
          "-relocation-model=pic", source, "-o", obj], "llc")
    return obj


def _build(module: bytes, mcpu: str, make_object, *, cache_dir: Optional[str],
           key_extra: str, trampolines: Optional[Dict[str, object]]) -> Tuple[str, str]:
    """The shared object of ``module`` (its bytes key the cache):
    ``make_object(tmp, tool)`` writes its object file under ``tmp`` and
    returns (its path, the dealloc function's name); the trampolines and the
    allocator shim are compiled and linked with it."""
    trampolines = dict(trampolines or {})
    key_extra += "".join(f";{k}/{v}" for k, v in sorted(trampolines.items()))
    digest = hashlib.sha256()
    for part in (_BUILD_RECIPE.encode(), module, mcpu.encode(), key_extra.encode(),
                 _toolchain_stamp().encode()):
        digest.update(part + b"\0")
    key = digest.hexdigest()[:32]
    root = _cache_dir(cache_dir)
    so_path = os.path.join(root, f"{key}.so")
    dealloc_path = so_path + ".dealloc"
    if os.path.exists(so_path) and os.path.exists(dealloc_path):
        with open(dealloc_path) as f:
            return so_path, f.read().strip()
    tool = lambda name: os.path.join(LLVM_BIN, name)  # noqa: E731
    with tempfile.TemporaryDirectory(prefix="fpopt-build-") as tmp:
        obj, dealloc = make_object(tmp, tool)
        objects = [obj]
        if trampolines:
            entry = os.path.join(tmp, "entry.c")
            with open(entry, "w") as f:
                f.write("".join(_trampoline_c(k, v) for k, v in sorted(trampolines.items())))
            _run([tool("clang"), "-O2", "-fPIC", "-c", entry, "-o", entry + ".o"], "clang")
            objects.append(entry + ".o")
        if dealloc != "free":
            # MLIR's generic allocation functions are the embedder's to define.
            shim = os.path.join(tmp, "alloc.c")
            with open(shim, "w") as f:
                f.write(GENERIC_ALLOC_C)
            _run([tool("clang"), "-O2", "-fPIC", "-c", shim, "-o", shim + ".o"], "clang")
            objects.append(shim + ".o")
        libdir = os.path.join(os.path.dirname(LLVM_BIN.rstrip("/")), "lib")
        out = os.path.join(tmp, "module.so")
        # memref.copy of strided views calls memrefCopy (MLIR's C runner
        # utilities); threads= code calls libomp. -Bsymbolic: the module's
        # calls to its own functions stay inside it (a function named `step`
        # would otherwise bind to glibc's regexp `step`).
        _run([tool("clang"), "-shared"] + objects + [
            "-o", out, "-Wl,-Bsymbolic", "-Wl,--as-needed", "-lm", f"-L{libdir}", f"-Wl,-rpath,{libdir}",
            "-lmlir_c_runner_utils", "-lomp"], "link")
        # Atomic publication: concurrent compilers of the same module agree.
        staged = so_path + f".{os.getpid()}.tmp"
        shutil.copyfile(out, staged)
        os.replace(staged, so_path)
        with open(staged + ".d", "w") as f:
            f.write(dealloc)
        os.replace(staged + ".d", dealloc_path)
    return so_path, dealloc


class CompiledFunction:
    """One compiled public function, called with numpy arrays.

    ``fn(*arrays)`` returns one numpy array, or a tuple for several results.
    ``fn.bind({index: array, ...})`` fixes some arguments (weights) once and
    returns a callable over the others; arguments compiled with
    ``prepack=True`` are packed there, once. An FP8 weight with a scale per
    channel (``policy="fp8-weights"``) may be bound as floats: it is
    quantized there (``numerics.quantize_per_channel``) and its scale
    argument bound with it.
    """

    def __init__(self, so_path: str, dealloc: str, function: str,
                 arguments: Sequence[TensorType], results: Sequence[TensorType],
                 prepacked: Sequence[int] = (), prepacked_ranks: Sequence[int] = (),
                 ir: Union[str, Callable[[], str]] = "", diagnostics: Sequence[str] = (),
                 fp8_channel_scales: Optional[Mapping[int, Tuple[int, int]]] = None,
                 argument_attributes: Sequence[Mapping[str, str]] = ()):
        self.so_path = so_path
        #: FP8 weight argument -> (its scale argument, the weight's channel
        #: dimension), from lowp.fp8_scale / lowp.fp8_axis.
        self.fp8_channel_scales = dict(fp8_channel_scales or {})
        self.function = function
        self.arguments = list(arguments)
        self.results = list(results)
        self.prepacked = list(prepacked)
        self.prepacked_ranks = list(prepacked_ranks)
        #: The arguments' attributes in the compiled module (lowp.loss_scale
        #: on a training step's scale...).
        self.argument_attributes: List[Dict[str, str]] = (
            [dict(a) for a in argument_attributes] or [{} for _ in self.arguments])
        self._ir = ir
        #: With line_tables=True: the decided module the object's line
        #: tables refer to (a file in the build cache); None otherwise.
        self.line_table_source: Optional[str] = None
        #: Remarks and warnings of the compilation ("slow path" remarks...).
        self.diagnostics = list(diagnostics)
        retain_freed_memory()
        self._lib = ctypes.CDLL(so_path)
        # Through the trampoline (any number of arguments) when the object
        # has one, else the C interface directly.
        self._entry = getattr(self._lib, f"fpopt_call_{function}", None)
        self._fn = getattr(self._lib, f"_mlir_ciface_{function}")
        self._fn.restype = None
        if self._entry is not None:
            self._entry.restype = None
            self._entry.argtypes = [ctypes.c_void_p]
        self._free = _LIBC.free if dealloc == "free" else getattr(self._lib, dealloc)
        self._free.argtypes = [ctypes.c_void_p]
        self._free.restype = None
        if len(self.results) == 1 and self.results[0].scalar:
            raise CallError(f"@{function} returns one scalar ({self.results[0]}): compiled "
                            "functions return tensors, or scalars among several results")
        fields = [(f"r{i}", _SCALAR_TYPES[t.element][0] if t.scalar else descriptor_type(t.rank))
                  for i, t in enumerate(self.results)]
        self._results_type = (type("Results", (ctypes.Structure,), {"_fields_": fields})
                              if len(self.results) > 1 else
                              descriptor_type(self.results[0].rank) if self.results else None)

    @property
    def ir(self) -> str:
        """The LLVM-dialect module (empty when loaded from the cache only).
        fpopt.compile translates the lowered module to LLVM IR without
        printing it; its text is made on first use, by lowering again."""
        if callable(self._ir):
            self._ir = self._ir()
        return self._ir

    def _convert(self, index: int, value) -> np.ndarray:
        t = self.arguments[index]
        a = np.asarray(value)
        if tuple(a.shape) != t.shape:
            raise CallError(f"argument {index} of @{self.function}: expected {t}, "
                            f"got shape {list(a.shape)}")
        if t.element == "bf16" and a.dtype != np.uint16:
            if a.dtype.kind != "f":
                raise CallError(f"argument {index} of @{self.function} is {t}: pass "
                                f"floats or raw bf16 bits (uint16), not {a.dtype}")
            a = bf16_bits(a.astype(np.float32, copy=False))
        elif (t.element in _FP8_TYPES and a.dtype.kind == "f"
              and index not in self.fp8_channel_scales):
            # Floats for an unscaled FP8 argument (an FP8 KV cache's first
            # value): rounded to nearest even, saturating, as the function
            # rounds what it returns in it. A weight with a scale needs
            # quantizing with its scale (bind()).
            from .numerics import encode, round_to
            a = encode(round_to(a, t.element, saturate=True), t.element)
        elif a.dtype != np.dtype(t.dtype):
            if t.element in _FP8_TYPES or (a.dtype.kind != np.dtype(t.dtype).kind
                                           and not (a.dtype.kind in "iub" and
                                                    np.dtype(t.dtype).kind in "iub")):
                raise CallError(f"argument {index} of @{self.function}: expected {t} "
                                f"({np.dtype(t.dtype).name}), got {a.dtype}")
            a = a.astype(t.dtype)
        return np.ascontiguousarray(a)

    def _call(self, arrays: List[np.ndarray], descs: list,
              into: Optional[Sequence[Optional[np.ndarray]]] = None) -> tuple:
        """Calls the function on the descriptors `descs` of the arguments
        (`arrays` holds their memory alive for the call) and reads its
        results, into the arrays of `into` where given."""
        results = self._results_type() if self._results_type else None
        if self._entry is not None:
            addresses = ([ctypes.addressof(results)] if results is not None else []) + \
                [ctypes.addressof(d) for d in descs]
            self._entry((ctypes.c_void_p * len(addresses))(*addresses))
        else:  # scalars by value, descriptors by address
            self._fn(*([ctypes.byref(results)] if results is not None else []),
                     *[d if isinstance(d, ctypes._SimpleCData) else ctypes.byref(d)
                       for d in descs])
        if results is None:
            return ()
        descriptors = ([getattr(results, f"r{i}") for i in range(len(self.results))]
                       if len(self.results) > 1 else [results])
        # A result that is an argument (or a view of one) carries the
        # argument's allocated pointer: not the caller's to free. (A set of
        # pointers, not address ranges: a call with a hundred bound weights
        # spent 0.1-0.2 ms building and scanning ranges.)
        argument_bases = {d.allocated for d in descs if not isinstance(d, ctypes._SimpleCData)}
        # A buffer that holds one result only may be handed over (no copy).
        owners: Dict[int, int] = {}
        for d, t in zip(descriptors, self.results):
            if not t.scalar and d.allocated:
                owners[d.allocated] = owners.get(d.allocated, 0) + 1
        outs, freed, error = [], set(), None
        for d, t in zip(descriptors, self.results):
            if t.scalar:
                outs.append(np.array(d, dtype=t.dtype))
                continue
            ptr = d.allocated
            own = bool(ptr) and ptr not in argument_bases and owners.get(ptr) == 1
            adopted = False
            try:
                dest = into[len(outs)] if into is not None else None
                if dest is not None and (tuple(dest.shape) != t.shape or
                                         dest.dtype != np.dtype(t.dtype)):
                    raise CallError(f"result {len(outs)} of @{self.function} is {t}: "
                                    f"cannot write it into a {dest.dtype} {list(dest.shape)}")
                out, adopted = _read_descriptor(d, t, dest,
                                                self._free if own and error is None else None)
                outs.append(out)
            except RuntimeError_ as e:
                error = e
            if ptr and not adopted and ptr not in freed and ptr not in argument_bases:
                freed.add(ptr)
                self._free(ptr)
        if error:
            raise error
        return tuple(outs)

    def __call__(self, *values):
        if len(values) != len(self.arguments):
            raise CallError(f"@{self.function} takes {len(self.arguments)} arguments, "
                            f"got {len(values)}")
        if self.prepacked:
            return self.bind({i: values[i] for i in self.prepacked})(
                *[v for i, v in enumerate(values) if i not in self.prepacked])
        arrays = [self._convert(i, v) for i, v in enumerate(values)]
        outs = self._call(arrays, self._argument_values(arrays))
        return outs[0] if len(outs) == 1 else outs

    def call_into(self, into: Sequence[Optional[np.ndarray]], *values):
        """Like a call, but result i is written into ``into[i]`` when that is
        an array (of the result's shape and dtype: e.g. the memory of a
        torch parameter), saving the copy of a fresh result."""
        if len(values) != len(self.arguments) or self.prepacked:
            raise CallError(f"call_into takes all {len(self.arguments)} arguments of "
                            f"@{self.function} (and no prepacked ones)")
        arrays = [self._convert(i, v) for i, v in enumerate(values)]
        outs = self._call(arrays, self._argument_values(arrays), into)
        return outs[0] if len(outs) == 1 else outs

    def _argument_values(self, arrays: List[np.ndarray]) -> list:
        return [argument_value(a, t) for a, t in zip(arrays, self.arguments)]

    def bind(self, fixed: Mapping[int, object]) -> "BoundFunction":
        return BoundFunction(self, dict(fixed))

    def _prepack(self, weights: List[np.ndarray]) -> list:
        """F_prepack(weights...) -> the packed buffers (the caller owns them)."""
        fields = [(f"p{i}", descriptor_type(r)) for i, r in enumerate(self.prepacked_ranks)]
        packed = type("Packed", (ctypes.Structure,), {"_fields_": fields})()
        fn = getattr(self._lib, f"_mlir_ciface_{self.function}_prepack")
        fn.restype = None
        descs = [descriptor(w) for w in weights]
        if len(fields) == 1:
            single = descriptor_type(self.prepacked_ranks[0])()
            fn(ctypes.byref(single), *[ctypes.byref(d) for d in descs])
            return [single]
        fn(ctypes.byref(packed), *[ctypes.byref(d) for d in descs])
        return [getattr(packed, f"p{i}") for i in range(len(fields))]


class BoundFunction:
    """A CompiledFunction with some arguments fixed (and packed, where the
    function was compiled with prepack=True); called with the others in
    order. The packed buffers are freed with the object."""

    def __init__(self, compiled: CompiledFunction, fixed: Dict[int, object]):
        self.compiled = compiled
        fixed = dict(fixed)
        for i, (scale_index, axis) in compiled.fp8_channel_scales.items():
            value = fixed.get(i)
            if value is None or np.asarray(value).dtype.kind != "f":
                continue
            if scale_index in fixed:
                raise CallError(f"argument {i} of @{compiled.function} is bound as "
                                f"floats and quantized here: argument {scale_index}, "
                                "its scale, is computed with it (bind raw FP8 codes "
                                "to pass your own scale)")
            from .numerics import quantize_per_channel
            codes, scales = quantize_per_channel(value, compiled.arguments[i].element,
                                                 axis)
            fixed[i], fixed[scale_index] = codes, scales
        missing = [i for i in compiled.prepacked if i not in fixed]
        if missing:
            raise CallError(f"arguments {missing} of @{compiled.function} are packed "
                            "once (prepack=True): bind them")
        for i in fixed:
            if not 0 <= i < len(compiled.arguments):
                raise CallError(f"@{compiled.function} has no argument {i}")
        self.free_indices = [i for i in range(len(compiled.arguments)) if i not in fixed]
        self._arrays = {i: compiled._convert(i, v) for i, v in fixed.items()}
        self._descs = {i: argument_value(a, compiled.arguments[i])
                       for i, a in self._arrays.items()}
        self._packed = []
        if compiled.prepacked:
            self._packed = compiled._prepack([self._arrays[i] for i in compiled.prepacked])
            for i, d in zip(compiled.prepacked, self._packed):
                self._descs[i] = d

    @property
    def arguments(self) -> List[TensorType]:
        return [self.compiled.arguments[i] for i in self.free_indices]

    def __call__(self, *values):
        c = self.compiled
        if len(values) != len(self.free_indices):
            raise CallError(f"@{c.function} with {len(self._arrays)} bound arguments "
                            f"takes {len(self.free_indices)} more, got {len(values)}")
        arrays = dict(self._arrays)
        descs = dict(self._descs)
        for i, v in zip(self.free_indices, values):
            arrays[i] = c._convert(i, v)
            descs[i] = argument_value(arrays[i], c.arguments[i])
        outs = c._call(list(arrays.values()),
                       [descs[i] for i in range(len(c.arguments))])
        return outs[0] if len(outs) == 1 else outs

    def __del__(self):
        for d in getattr(self, "_packed", []):
            if d.allocated:
                self.compiled._free(d.allocated)
        self._packed = []


def _with_line_locations(decided: str, cache_dir: Optional[str]) -> Tuple[str, str]:
    """``decided`` printed without its locations (front ends name ops
    without a file) into a file of the build cache, and that file's path:
    parsed under it, every op's location is its line there, which the line
    tables of a ``line_tables=True`` build refer to."""
    from . import compile as run_passes
    text = run_passes(decided, "builtin.module()").ir
    path = os.path.join(_cache_dir(cache_dir),
                        hashlib.sha256(text.encode()).hexdigest()[:32] + ".decided.mlir")
    staged = path + f".{os.getpid()}.tmp"
    with open(staged, "w") as f:
        f.write(text)
    os.replace(staged, path)
    return text, path


def compile_module(ir: str, *, target: Optional[str] = None, policy: str = "auto",
                   threads: int = 1, function: Optional[str] = None,
                   prepack: bool = False, demote_weights: bool = False,
                   demote_state: Union[bool, str] = False,
                   x86_options: str = "", cache_dir: Optional[str] = None,
                   source_name: str = "<input>", lowering: str = "x86",
                   line_tables: bool = False) -> CompiledFunction:
    """The body of ``fpopt.compile(ir, target=..., ...)``; see there.
    ``lowering="reference"`` lowers the decided module with
    lowp-pipeline-reference (plain loops, every op rounded to its stated
    format) instead of lowp-pipeline-x86: the check the kernels are held to."""
    if lowering not in ("x86", "reference"):
        raise ValueError("lowering must be 'x86' or 'reference'")
    from . import compile as run_passes, function_signature, lower_to_bitcode

    host, host_options = host_target()
    if target is None:
        target, options = host, host_options
    else:
        options = host_options if target == host else ""
    from .tables import targets
    rows = targets()
    cpu_rows = [name for name, row in rows.items() if row.cpu_features]
    # The reference lowering emulates any chip's decisions (FP8 on sm_90)
    # on this CPU; x86 code is built for an x86 row.
    if target not in (rows if lowering == "reference" else cpu_rows):
        raise ValueError(f"target '{target}' is not an x86 row of the capability table "
                         f"({', '.join(cpu_rows)}): fpopt.compile builds for this CPU "
                         "(lowering='reference' takes any row's decisions)")
    if threads < 1:
        raise ValueError("threads must be >= 1")
    decided = ir
    diagnostics: List[str] = []
    state_formats = ("f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ")  # state-format's
    if isinstance(demote_state, str) and demote_state not in state_formats:
        raise ValueError(f"demote_state: True, False or an 8-bit float format "
                         f"({', '.join(state_formats)}), not '{demote_state}'")
    if policy != "f32":
        amp = (f"lowp-auto-mixed-precision{{target={target} policy={policy}"
               + (" demote-weights=arguments" if demote_weights else "")
               + (" demote-state=true" if demote_state else "")
               + (f" state-format={demote_state}" if isinstance(demote_state, str) else "")
               + "}")
        result = run_passes(ir, amp, source_name=source_name)
        decided, diagnostics = result.ir, list(result.diagnostics)
    elif demote_weights or demote_state:
        raise ValueError("demote_weights and demote_state need a decision policy (not 'f32')")
    signature = function_signature(decided, function)
    x86 = " ".join(o for o in [f"target={target}", options, x86_options,
                                f"threads={threads}" if threads > 1 else "",
                                "prepack=true" if prepack else ""] if o)
    # Every public function gets its C interface (_mlir_ciface_F), which is
    # what the shared object is called through.
    lowering_pipeline = (f"lowp-pipeline-x86{{{x86}}}" if lowering == "x86"
                         else "lowp-pipeline-reference")
    pipeline = f"builtin.module(func.func(llvm-request-c-wrappers),{lowering_pipeline})"
    if line_tables:
        decided, source_name = _with_line_locations(decided, cache_dir)
        pipeline = (pipeline[:-1] +
                    ",ensure-debug-info-scope-on-llvm-func{emission-kind=LineTablesOnly})")
    # Lowered and translated to LLVM bitcode in this process: the module's
    # text (tens of MB for a whole model) is neither printed nor parsed.
    lowered = lower_to_bitcode(decided, pipeline, source_name=source_name)
    diagnostics += lowered.diagnostics
    prepacked = lowered.prepacked_arguments(signature.function)
    ranks = []
    if prepacked:
        prepack_type = lowered.functions.get(signature.function + "_prepack", "")
        results = _llvm_function_result(prepack_type)
        ranks = [int(r) for r in re.findall(r"array<(\d+) x i64>, array<\d+ x i64>", results)]
        if len(ranks) != len(prepacked):
            raise RuntimeError_(f"{signature.function}_prepack returns {len(ranks)} buffers "
                                f"for the {len(prepacked)} packed arguments")
    if "_mlir_ciface_" + signature.function not in lowered.functions:
        raise RuntimeError_(f"@{signature.function} has no C interface after lowering "
                            "(llvm.emit_c_interface is added to public functions by "
                            "lowp-pipeline-x86)")
    mcpu = llc_cpu(target if lowering == "x86" else host)
    arguments = [TensorType.parse(a.type) for a in signature.arguments]
    results = [TensorType.parse(r) for r in signature.results]
    params = ([] if not results else ["void *"]) + [a.c_type for a in arguments]
    # All pointers (the common case): the trampoline is keyed by their count.
    trampoline = len(params) if all(p == "void *" for p in params) else tuple(params)
    so_path, dealloc = build_shared_object_from_bitcode(
        lowered.bitcode, lowered.functions, mcpu, cache_dir=cache_dir,
        trampolines={signature.function: trampoline})
    release_freed_memory()
    channel_scales = {}
    for i, a in enumerate(signature.arguments):
        if "lowp.fp8_axis" in a.attributes and "lowp.fp8_scale" in a.attributes:
            channel_scales[i] = (int(a.attributes["lowp.fp8_scale"].split(":")[0]),
                                 int(a.attributes["lowp.fp8_axis"].split(":")[0]))
    compiled = CompiledFunction(so_path, dealloc, signature.function, arguments, results,
                            prepacked, ranks,
                            lambda: run_passes(decided, pipeline, source_name=source_name).ir,
                            diagnostics, channel_scales,
                            [a.attributes for a in signature.arguments])
    if line_tables:
        compiled.line_table_source = source_name
    return compiled
