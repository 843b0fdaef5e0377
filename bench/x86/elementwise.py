#!/usr/bin/env python3
"""Elementwise, row-reduction and thread benchmark of lowp-pipeline-x86.

Compiles each kernel with fp-opt (`lowp-pipeline-x86{target=...}`, then
mlir-translate, llc -O3, clang -shared), loads it with ctypes and times it in
this process, interleaved with the other variants (best of --rounds rounds
of --calls calls, wall clock):

  rows      softmax, layer norm, erf-GELU over 128x768 and 128x3072 rows:
            this fp-opt against --before (an fp-opt built from an older
            commit, if given) and PyTorch (torch.softmax, F.layer_norm,
            F.gelu; one thread) when `import torch` works;
  buffers   malloc / free call sites in the lowered bundled MLP, the BERT
            layer and a pre-LN transformer layer (bench/gen_transformer.py),
            this fp-opt vs --before;
  threads   a BERT-base layer as torch-mlir exports it (test/Integration/
            Inputs/gen_bert_layer.py: seq 128, 768, 12 heads, ffn 3072) and
            an MLP 1024-4096-4096-1024 at batch 64: threads=1 vs threads=N
            of this fp-opt, outputs compared bit for bit first.

Outputs of every variant are compared with the first one before timing.
With OMP_WAIT_POLICY=passive, `threads` also splits the CPU time of a call
between the calling thread and the OpenMP workers (per-thread CPU from
/proc): what a call would take on idle cores, whatever the machine's load.
Usage: bench/x86/elementwise.sh [--before OLD_FPOPT] [--threads 2] ...
"""
import argparse
import array
import ctypes
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LLVM = "/usr/lib/llvm-22/bin"
LIBOMP = "/usr/lib/llvm-22/lib/libomp.so"


def memref_type(rank):
    fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
              ("offset", ctypes.c_int64)]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank),
                   ("strides", ctypes.c_int64 * rank)]
    return type(f"MemRef{rank}", (ctypes.Structure,), {"_fields_": fields})


class Tensor:
    """A row-major f32 buffer and its memref descriptor."""

    def __init__(self, shape, data=None):
        self.shape = list(shape)
        n = 1
        for s in shape:
            n *= s
        self.buf = (ctypes.c_float * n)()
        if data is not None:
            ctypes.memmove(self.buf, data, n * 4)
        self.desc = memref_type(len(shape))()
        self.desc.allocated = self.desc.aligned = ctypes.addressof(self.buf)
        self.desc.offset = 0
        stride = 1
        for i in reversed(range(len(shape))):
            self.desc.sizes[i] = shape[i]
            self.desc.strides[i] = stride
            stride *= shape[i]


def random_tensor(shape, scale, seed):
    rng = random.Random(seed)
    n = 1
    for s in shape:
        n *= s
    vals = array.array("f", (rng.uniform(-scale, scale) for _ in range(n)))
    return Tensor(shape, vals.tobytes())


class Compiled:
    """One function of one module compiled by one fp-opt with one option set."""

    def __init__(self, fpopt, mlir_text, func, pipeline, mcpu, workdir, tag):
        src = os.path.join(workdir, f"{tag}.mlir")
        with open(src, "w") as f:
            f.write(mlir_text)
        so = os.path.join(workdir, f"{tag}.so")
        t0 = time.perf_counter()
        lowered = subprocess.run(
            [fpopt, src, f"-lowp-pipeline-x86={pipeline}"],
            check=True, capture_output=True, text=True).stdout
        self.compile_s = time.perf_counter() - t0
        self.llvm_dialect = lowered
        ll = subprocess.run([f"{LLVM}/mlir-translate", "--mlir-to-llvmir"],
                            input=lowered, check=True, capture_output=True,
                            text=True).stdout
        obj = os.path.join(workdir, f"{tag}.o")
        subprocess.run([f"{LLVM}/llc", "-O3", f"-mcpu={mcpu}", "-filetype=obj",
                        "-relocation-model=pic", "-o", obj], input=ll,
                       check=True, text=True)
        libs = [LIBOMP, f"-Wl,-rpath,{os.path.dirname(LIBOMP)}"] \
            if "omp" in lowered else []
        subprocess.run([f"{LLVM}/clang", "-shared", "-o", so, obj, "-lm"] + libs,
                       check=True)
        self.lib = ctypes.CDLL(so)
        self.fn = getattr(self.lib, f"_mlir_ciface_{func}")
        self.libc = ctypes.CDLL(None)

    def __call__(self, out_shape, *args):
        res = memref_type(len(out_shape))()
        self.fn(ctypes.byref(res), *[ctypes.byref(a.desc) for a in args])
        return res

    def run(self, out_shape, *args):
        """Calls once and copies the result out (freeing the returned buffer)."""
        res = self(out_shape, *args)
        n = 1
        for s in out_shape:
            n *= s
        data = ctypes.string_at(res.aligned + 4 * res.offset, 4 * n)
        self.libc.free(ctypes.c_void_p(res.allocated))
        return array.array("f", data)

    def timed(self, out_shape, args, calls):
        free = self.libc.free
        t0 = time.perf_counter()
        for _ in range(calls):
            res = self(out_shape, *args)
            free(ctypes.c_void_p(res.allocated))
        return (time.perf_counter() - t0) / calls


def max_diff(a, b):
    return max(abs(x - y) for x, y in zip(a, b))


# ---- kernels -------------------------------------------------------------

def rows_module(kind, n, d):
    t = f"tensor<{n}x{d}xf32>"
    r = f"tensor<{n}xf32>"
    head = f"""#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @{kind}(%x: {t}) -> {t} attributes {{llvm.emit_c_interface}} {{
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %len = arith.constant {float(d)} : f32
  %eps = arith.constant 1.0e-05 : f32
  %e0 = tensor.empty() : {r}
  %e1 = tensor.empty() : {t}
"""
    def reduce(name, src, init, body):
        return f"""  %{name}_i = linalg.fill ins({init} : f32) outs(%e0 : {r}) -> {r}
  %{name} = linalg.generic {{indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}}
      ins({src} : {t}) outs(%{name}_i : {r}) {{
  ^bb0(%a: f32, %b: f32):
{body}
  }} -> {r}
"""
    def ew(name, ins, body):
        maps = ", ".join(m for _, m in ins) + ", #id"
        args = ", ".join(v for v, _ in ins)
        types = ", ".join(t if m == "#id" else r for _, m in ins)
        bb = ", ".join(f"%a{i}: f32" for i in range(len(ins)))
        return f"""  %{name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel", "parallel"]}}
      ins({args} : {types}) outs(%e1 : {t}) {{
  ^bb0({bb}, %o: f32):
{body}
  }} -> {t}
"""
    if kind == "softmax":
        body = (reduce("m", "%x", "%ninf", "    %v = arith.maximumf %a, %b : f32\n    linalg.yield %v : f32")
                + ew("ex", [("%x", "#id"), ("%m", "#row")],
                     "    %s = arith.subf %a0, %a1 : f32\n    %e = math.exp %s : f32\n    linalg.yield %e : f32")
                + reduce("s", "%ex", "%zero", "    %v = arith.addf %a, %b : f32\n    linalg.yield %v : f32")
                + ew("y", [("%ex", "#id"), ("%s", "#row")],
                     "    %q = arith.divf %a0, %a1 : f32\n    linalg.yield %q : f32"))
    elif kind == "layernorm":
        body = (reduce("s", "%x", "%zero", "    %v = arith.addf %a, %b : f32\n    linalg.yield %v : f32")
                + ew("xc", [("%x", "#id"), ("%s", "#row")],
                     "    %mu = arith.divf %a1, %len : f32\n    %c = arith.subf %a0, %mu : f32\n    linalg.yield %c : f32")
                + reduce("v", "%xc", "%zero", "    %q = arith.mulf %a, %a : f32\n    %v = arith.addf %q, %b : f32\n    linalg.yield %v : f32")
                + ew("y", [("%xc", "#id"), ("%v", "#row")],
                     "    %var = arith.divf %a1, %len : f32\n    %ve = arith.addf %var, %eps : f32\n"
                     "    %rs = math.rsqrt %ve : f32\n    %q = arith.mulf %a0, %rs : f32\n    linalg.yield %q : f32"))
    else:  # erf-GELU, as torch-mlir decomposes F.gelu
        body = ew("y", [("%x", "#id")],
                  "    %h = arith.constant 0.5 : f32\n    %one = arith.constant 1.0 : f32\n"
                  "    %r2 = arith.constant 0.707106769 : f32\n    %s = arith.mulf %a0, %r2 : f32\n"
                  "    %e = math.erf %s : f32\n    %p = arith.addf %e, %one : f32\n"
                  "    %hx = arith.mulf %a0, %h : f32\n    %g = arith.mulf %hx, %p : f32\n    linalg.yield %g : f32")
    return head + body + f"  return %y : {t}\n}}\n"


def mlp_module(batch, dims):
    """torch-mlir-style MLP: matmul + bias broadcast + erf-GELU per layer."""
    lines = ["#id = affine_map<(d0, d1) -> (d0, d1)>",
             "#col = affine_map<(d0, d1) -> (d1)>"]
    params = [f"%x: tensor<{batch}x{dims[0]}xf32>"]
    for i in range(len(dims) - 1):
        params += [f"%w{i}: tensor<{dims[i]}x{dims[i+1]}xf32>",
                   f"%b{i}: tensor<{dims[i+1]}xf32>"]
    lines.append(f"func.func @mlp({', '.join(params)}) -> tensor<{batch}x{dims[-1]}xf32> "
                 "attributes {llvm.emit_c_interface} {")
    lines.append("  %zero = arith.constant 0.0 : f32")
    cur = "%x"
    for i in range(len(dims) - 1):
        k, n = dims[i], dims[i + 1]
        t = f"tensor<{batch}x{n}xf32>"
        last = i == len(dims) - 2
        lines.append(f"""  %e{i} = tensor.empty() : {t}
  %c{i} = linalg.fill ins(%zero : f32) outs(%e{i} : {t}) -> {t}
  %mm{i} = linalg.matmul ins({cur}, %w{i} : tensor<{batch}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%c{i} : {t}) -> {t}
  %h{i} = linalg.generic {{indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%mm{i}, %b{i} : {t}, tensor<{n}xf32>) outs(%e{i} : {t}) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32""")
        if last:
            lines.append("    linalg.yield %s : f32")
        else:
            lines.append("""    %h = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %r2 = arith.constant 0.707106769 : f32
    %u = arith.mulf %s, %r2 : f32
    %er = math.erf %u : f32
    %p = arith.addf %er, %one : f32
    %hx = arith.mulf %s, %h : f32
    %g = arith.mulf %hx, %p : f32
    linalg.yield %g : f32""")
        lines.append(f"  }} -> {t}")
        cur = f"%h{i}"
    lines.append(f"  return {cur} : tensor<{batch}x{dims[-1]}xf32>\n}}")
    return "\n".join(lines) + "\n"


def transformer_module(seq, dim, ffn):
    text = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_transformer.py"),
                           "--blocks", "1", "--seq", str(seq), "--dim", str(dim),
                           "--ffn", str(ffn)], check=True, capture_output=True,
                          text=True).stdout
    return text.replace("func.func @transformer(", "func.func @transformer(", 1) \
               .replace(") -> tensor<", ") -> tensor<", 1)


def bert_module(seq, hidden, heads, ffn):
    """A BERT encoder layer as torch-mlir exports it (@forward)."""
    return subprocess.run([sys.executable, os.path.join(
        ROOT, "test", "Integration", "Inputs", "gen_bert_layer.py"),
        "--seq", str(seq), "--hidden", str(hidden), "--heads", str(heads),
        "--ffn", str(ffn)], check=True, capture_output=True, text=True).stdout


def signature_shapes(text, func):
    """Argument and result shapes of @func, from its signature."""
    sig = text[text.index(f"func.func @{func}("):]
    sig = sig[:sig.index("{")]
    shapes = []
    for part in sig.split("tensor<")[1:]:
        shapes.append([int(s) for s in part.split("xf32>")[0].split("x")])
    return shapes[:-1], shapes[-1]


def add_c_interface(text, func):
    head = f"func.func @{func}("
    i = text.index(head)
    j = text.index("{", text.index(") ->", i))
    return text[:j] + "attributes {llvm.emit_c_interface} " + text[j:]


# ---- sections ------------------------------------------------------------

def time_variants(variants, out_shape, args, calls, rounds):
    best = [float("inf")] * len(variants)
    for _ in range(rounds):
        for i, (_, f) in enumerate(variants):
            best[i] = min(best[i], f(out_shape, args, calls))
    return best


def section_rows(opts, work, torch):
    print(f"== rows: fp-opt lowp-pipeline-x86{{target={opts.cpu}}} (llc -mcpu={opts.mcpu}),"
          f" 1 thread, best of {opts.rounds} x {opts.calls} calls, microseconds per call")
    for kind in ("softmax", "layernorm", "gelu"):
        for n, d in ((128, 768), (128, 3072)):
            text = rows_module(kind, n, d)
            x = random_tensor([n, d], 4.0, 1)
            variants = []
            new = Compiled(opts.fpopt, text, kind, f"target={opts.cpu}", opts.mcpu, work, f"{kind}{d}")
            variants.append(("fp-opt", lambda s, a, c, f=new: f.timed(s, a, c)))
            ref = new.run([n, d], x)
            if opts.before:
                old = Compiled(opts.before, text, kind, f"target={opts.cpu}", opts.mcpu, work,
                               f"{kind}{d}old")
                diff = max_diff(ref, old.run([n, d], x))
                variants.append(("before", lambda s, a, c, f=old: f.timed(s, a, c)))
            if torch:
                tx = torch.frombuffer(bytearray(x.buf), dtype=torch.float32).reshape(n, d)
                tf = {"softmax": lambda: torch.softmax(tx, dim=1),
                      "layernorm": lambda: torch.nn.functional.layer_norm(tx, (d,), eps=1e-5),
                      "gelu": lambda: torch.nn.functional.gelu(tx)}[kind]
                tdiff = max_diff(ref, array.array("f", tf().numpy().tobytes())
                                 if hasattr(tf(), "numpy") else ref)

                def torch_timed(s, a, c, tf=tf):
                    t0 = time.perf_counter()
                    for _ in range(c):
                        tf()
                    return (time.perf_counter() - t0) / c
                variants.append(("torch", torch_timed))
            best = time_variants(variants, [n, d], [x], opts.calls, opts.rounds)
            cells = [f"{name} {t * 1e6:8.1f}" for (name, _), t in zip(variants, best)]
            ratios = []
            if opts.before:
                ratios.append(f"before/fp-opt {best[1] / best[0]:5.2f}x")
            if torch:
                ratios.append(f"torch/fp-opt {best[-1] / best[0]:5.2f}x")
            notes = []
            if opts.before:
                notes.append(f"max|fp-opt - before| {diff:.1e}")
            if torch:
                notes.append(f"max|fp-opt - torch| {tdiff:.1e}")
            print(f"{kind:9s} {n}x{d:<5d} " + " | ".join(cells + ratios) +
                  "  (" + ", ".join(notes) + ")")


def count_mallocs(fpopt, text, pipeline, work, tag):
    src = os.path.join(work, f"{tag}.mlir")
    with open(src, "w") as f:
        f.write(text)
    out = subprocess.run([fpopt, src, f"-lowp-pipeline-x86={pipeline}"], check=True,
                         capture_output=True, text=True).stdout
    return out.count("llvm.call @malloc") + out.count("llvm.call @aligned_alloc"), \
        out.count("llvm.call @free")


def section_buffers(opts, work):
    print(f"== buffers: malloc / free call sites in the lowered module "
          f"(lowp-pipeline-x86{{target={opts.cpu}}})")
    models = [("examples/models/mlp.mlir", open(os.path.join(ROOT, "examples/models/mlp.mlir")).read()),
              ("BERT-base layer, torch-mlir form (gen_bert_layer)", bert_module(128, 768, 12, 3072)),
              ("pre-LN transformer layer (gen_transformer 128/768/3072)", transformer_module(128, 768, 3072)),
              ("MLP 1024-4096-4096-1024 (erf-GELU)", mlp_module(64, [1024, 4096, 4096, 1024]))]
    for name, text in models:
        new = count_mallocs(opts.fpopt, text, f"target={opts.cpu}", work, "bufnew")
        line = f"{name:52s} fp-opt: {new[0]:3d} malloc {new[1]:3d} free"
        if opts.before:
            old = count_mallocs(opts.before, text, f"target={opts.cpu}", work, "bufold")
            line += f" | before: {old[0]:3d} malloc {old[1]:3d} free"
        print(line)


def thread_cpu_seconds():
    """user + system CPU time of every thread of this process, by thread id."""
    tick = os.sysconf("SC_CLK_TCK")
    times = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            times[tid] = (int(fields[11]) + int(fields[12])) / tick
        except OSError:
            pass
    return times


def cpu_split(compiled, out_shape, args, calls):
    """CPU time per call of the calling thread and of all the others.

    On a loaded machine wall time says little about scaling; the work each
    thread does does not depend on the load. With static scheduling and no
    spinning (OMP_WAIT_POLICY=passive), main = serial + its share of the
    parallel loops, others = their shares: on as many idle cores as
    threads, a call would take about max(main, others / (threads - 1)).
    """
    compiled.timed(out_shape, args, 1)  # thread pool up
    before = thread_cpu_seconds()
    compiled.timed(out_shape, args, calls)
    after = thread_cpu_seconds()
    me = str(ctypes.CDLL(None).syscall(186))  # gettid
    main = (after.get(me, 0) - before.get(me, 0)) / calls
    others = sum(after[t] - before.get(t, 0) for t in after if t != me) / calls
    return main, others


def section_threads(opts, work):
    print(f"== threads: threads=1 vs threads={opts.threads} (OpenMP), target={opts.cpu}, "
          f"best of {opts.rounds} x {opts.calls_threads} calls, milliseconds per call")
    bert = add_c_interface(bert_module(128, 768, 12, 3072), "forward")
    params, out = signature_shapes(bert, "forward")
    cases = [("BERT-base layer (seq 128, 12 heads)", bert, "forward", params, out),
             ("MLP 1024-4096-4096-1024, batch 64", mlp_module(64, [1024, 4096, 4096, 1024]),
              "mlp", [[64, 1024], [1024, 4096], [4096], [4096, 4096], [4096],
                      [4096, 1024], [1024]], [64, 1024])]
    for name, text, func, shapes, out_shape in cases:
        args = [random_tensor(s, 0.5 if len(s) == 2 and s[0] == s[-1] else 0.05, i)
                for i, s in enumerate(shapes)]
        args[0] = random_tensor(shapes[0], 1.0, 99)
        one = Compiled(opts.fpopt, text, func, f"target={opts.cpu}", opts.mcpu, work, f"{func}1")
        many = Compiled(opts.fpopt, text, func, f"target={opts.cpu} threads={opts.threads}",
                        opts.mcpu, work, f"{func}{opts.threads}")
        a, b = one.run(out_shape, *args), many.run(out_shape, *args)
        same = a.tobytes() == b.tobytes()
        best = time_variants([("1", lambda s, x, c: one.timed(s, x, c)),
                              ("n", lambda s, x, c: many.timed(s, x, c))],
                             out_shape, args, opts.calls_threads, opts.rounds)
        print(f"{name:36s} 1 thread {best[0] * 1e3:8.2f} | {opts.threads} threads "
              f"{best[1] * 1e3:8.2f} | speed-up {best[0] / best[1]:4.2f}x | outputs "
              f"{'bit-identical' if same else f'differ by {max_diff(a, b):.1e}'}")
        if os.environ.get("OMP_WAIT_POLICY", "").lower() == "passive":
            one_main, _ = cpu_split(one, out_shape, args, opts.calls_threads)
            main, others = cpu_split(many, out_shape, args, opts.calls_threads)
            idle = max(main, others / max(1, opts.threads - 1))
            print(f"{'':36s} CPU per call: 1 thread {one_main * 1e3:8.2f}; {opts.threads} threads: "
                  f"calling thread {main * 1e3:8.2f}, others {others * 1e3:8.2f} "
                  f"-> on {opts.threads} idle cores about {one_main / idle:4.2f}x")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--fpopt", default=os.path.join(ROOT, "build", "bin", "fp-opt"))
    p.add_argument("--before", help="an older fp-opt to compare with")
    p.add_argument("--cpu", default="avx2")
    p.add_argument("--mcpu", default="x86-64-v3")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--calls", type=int, default=50)
    p.add_argument("--calls-threads", type=int, default=3)
    p.add_argument("--sections", default="rows,buffers,threads")
    opts = p.parse_args()
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
        print("(no PyTorch: `apt-get install -y python3-torch` adds its column)")
    with tempfile.TemporaryDirectory() as work:
        sections = opts.sections.split(",")
        if "rows" in sections:
            section_rows(opts, work, torch)
        if "buffers" in sections:
            section_buffers(opts, work)
        if "threads" in sections:
            section_threads(opts, work)


main()
