#!/usr/bin/python3
"""Whole layers, fp-opt against PyTorch, in one process (bench/e2e/README.md).

Each layer of layers.py (torch-mlir-style IR) is compiled by fp-opt two ways,
  f32:   fp-opt --lowp-pipeline-x86=target=CPU
  mixed: fp-opt --lowp-auto-mixed-precision=target=CPU --lowp-pipeline-x86=target=CPU
then mlir-translate, llc -O3 -mcpu=MCPU, clang -shared, and loaded with ctypes
next to a hand-written PyTorch module holding the same weights. Outputs are
compared first, then the five variants are timed interleaved (one call of each
per round, median over rounds), then (in a child process, without torch) the
fp-opt functions are called up to --mem-calls times to measure RSS growth.

  bench.py [--layers bert,mlp,resnet_nchw,resnet_nhwc,mbv2_nchw,mbv2_s2_nchw] [--threads N]
           [--reps N] [--mem-calls N] [--small]
  bench.py --profile LAYER [--variant f32|mixed]   where the time goes (perf)
"""
import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import fpopt_rt  # noqa: E402
import layers  # noqa: E402
from torch_threads import pin_blas_threads  # noqa: E402

VARIANTS = ["fp-opt f32", "fp-opt mixed", "torch f32", "torch autocast", "torch .to(bf16)"]
BEFORE_VARIANTS = ["before f32", "before mixed"]  # with --before
# With --prepack: compiled with prepack=true, weights packed once before timing.
PREPACKED_VARIANTS = ["fp-opt f32 prepacked", "fp-opt mixed prepacked"]


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layers", default="bert,mlp,resnet_nchw,resnet_nhwc,mbv2_nchw,mbv2_s2_nchw")
    ap.add_argument("--small", action="store_true", help="shrunk shapes (a smoke run)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--clock", choices=["cpu", "wall"],
                    help="cpu: the calling thread's CPU time (default with 1 thread: robust "
                    "on a shared machine, and every variant then runs in the calling "
                    "thread); wall: elapsed time (default with more threads)")
    ap.add_argument("--reps", type=int, default=15, help="timed rounds per layer")
    ap.add_argument("--time-budget", type=float, default=60.0,
                    help="seconds of timed rounds per layer at most (fewer rounds then)")
    ap.add_argument("--mem-calls", type=int, default=1000,
                    help="calls of each fp-opt function for the memory column (0: skip)")
    ap.add_argument("--mem-budget", type=float, default=30.0,
                    help="seconds per memory run at most (fewer calls then)")
    ap.add_argument("--mem-cap-mib", type=float, default=2048.0,
                    help="stop a memory run once RSS grew this much")
    ap.add_argument("--cpu", help="fp-opt cpu/target (default: sapphirerapids with amx=true on AMX "
                                  "hosts, znver4 with AVX512_BF16, else avx2)")
    ap.add_argument("--mcpu", help="llc -mcpu (default: znver4 / x86-64-v3)")
    ap.add_argument("--x86-options", default="",
                    help="more lowp-pipeline-x86 options for every fp-opt build, e.g. 'amx=true'")
    ap.add_argument("--target", help="lowp-auto-mixed-precision target of the mixed variant "
                    "(default: --cpu)")
    ap.add_argument("--policy", help="its policy= (default: the pass's, auto; on an AVX2 "
                    "host auto keeps f32: policy=bf16 gives bf16 storage)")
    ap.add_argument("--fp-opt", default=os.path.join(ROOT, "build", "bin", "fp-opt"))
    ap.add_argument("--before", metavar="FP_OPT",
                    help="another fp-opt build (e.g. main's): its f32 and mixed code is timed "
                         "in the same interleaved rounds, and a before/after table printed")
    ap.add_argument("--before-x86-options", metavar="OPTIONS",
                    help="lowp-pipeline-x86 options of the --before build instead of --x86-options "
                         "(with --before build/bin/fp-opt: two option sets of one build, e.g. kc=)")
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--workdir", help="keep the compiled files here")
    ap.add_argument("--prepack", action="store_true",
                    help="also time fp-opt with prepack=true: the weight arguments packed (and "
                         "rounded) once by forward_prepack before timing")
    ap.add_argument("--json", metavar="FILE", help="also write the measurements as JSON")
    ap.add_argument("--keep-freed-memory", action="store_true",
                    help="glibc keeps freed memory in the heap (mallopt), for every variant: "
                    "separates the cost of page faults on fresh buffers from the code's")
    ap.add_argument("--profile", metavar="LAYER", help="profile one layer instead")
    ap.add_argument("--variant", default="f32", choices=["f32", "mixed"],
                    help="the fp-opt variant --profile looks at")
    ap.add_argument("--profile-seconds", type=float, default=10.0)
    # Internal: the child process of the memory and profile runs.
    ap.add_argument("--child", nargs=3, metavar=("SO", "LAYER", "CALLS"), help=argparse.SUPPRESS)
    ap.add_argument("--child-wait", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--child-dealloc", default="free", help=argparse.SUPPRESS)
    ap.add_argument("--child-prepacked", default="", help=argparse.SUPPRESS)
    return ap.parse_args()


def cpu_choice(cli):
    """(target, llc -mcpu); with the host's default target, its default
    options too (amx=true on AMX hosts) unless --x86-options gives some."""
    cpu, mcpu, cli.x86_options = fpopt_rt.choose_cpu(cli.cpu, cli.mcpu, cli.x86_options)
    return cpu, mcpu


def threads_option(cli, cpu):
    """`threads=N` for lowp-pipeline-x86 where fp-opt has the option."""
    if cli.threads <= 1:
        return "", "1 thread"
    probe = subprocess.run([cli.fp_opt, "-",
                            f"--lowp-pipeline-x86=target={cpu} threads={cli.threads}"],
                           input=b"", stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if probe.returncode == 0:
        return f"threads={cli.threads}", f"{cli.threads} threads"
    return "", "1 thread (this fp-opt has no threads= option)"


# --- the child: calls a compiled layer, without torch --------------------
def child_main(cli):
    if cli.keep_freed_memory:
        fpopt_rt.keep_freed_memory()
    so, name, calls = cli.child[0], cli.child[1], int(cli.child[2])
    layer = layers.by_name(cli.small)[name]
    prepacked = [int(i) for i in cli.child_prepacked.split(",") if i]
    # The LLVM dialect compile_layer wrote next to the .so gives the ranks
    # of forward_prepack's results.
    ranks = (fpopt_rt.prepacked_ranks(so[:-len(".so")] + ".llvm.mlir")
             if prepacked else [])
    kernel = fpopt_rt.Kernel(so, layer, cli.child_dealloc, prepacked, ranks)
    kernel.bind(layer.inputs(seed=0))
    fpopt_rt.reset_peak_rss()
    base_peak = fpopt_rt.peak_rss_mib()
    kernel.call_discard()
    first_peak = fpopt_rt.peak_rss_mib()
    rss1 = fpopt_rt.rss_mib()
    if cli.child_wait:  # the profiler attaches now
        print("ready", flush=True)
        sys.stdin.readline()
    done = 1
    t0 = time.perf_counter()
    while done < calls:
        kernel.call_discard()
        done += 1
        if time.perf_counter() - t0 > cli.mem_budget:
            break
        if fpopt_rt.rss_mib() - rss1 > cli.mem_cap_mib:
            break
    io_mib = (sum(a.nbytes for a in kernel.bound[0]) + 4 * math.prod(layer.result)) / 2**20
    print(json.dumps({"calls": done, "args_result_mib": io_mib,
                      "first_call_peak_mib": first_peak - base_peak,
                      "peak_growth_mib": fpopt_rt.peak_rss_mib() - first_peak,
                      "rss_growth_mib": fpopt_rt.rss_mib() - rss1,
                      "seconds": time.perf_counter() - t0}))
    return 0


def child_args(cli):
    args = [sys.executable, os.path.abspath(__file__), "--mem-budget", str(cli.mem_budget),
            "--mem-cap-mib", str(cli.mem_cap_mib)]
    return (args + (["--small"] if cli.small else [])
            + (["--keep-freed-memory"] if cli.keep_freed_memory else []))


def memory_run(cli, so, name, dealloc, prepacked=()):
    p = subprocess.run(child_args(cli) + ["--child-dealloc", dealloc,
                                          "--child-prepacked", ",".join(map(str, prepacked)),
                                          "--child", so, name, str(cli.mem_calls)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        return {"error": p.stderr.decode(errors="replace")[-500:]}
    return json.loads(p.stdout.decode().strip().splitlines()[-1])


# --- PyTorch modules with the layers' weights -----------------------------
def torch_module(torch, layer, a):
    nn = torch.nn
    t = lambda n: torch.from_numpy(a[n].copy())  # noqa: E731

    def set_linear(lin, w, b):
        lin.weight.copy_(t(w))
        lin.bias.copy_(t(b))

    if layer.name == "bert":
        d = layer.dims
        S, H, NH, Fd = d["S"], d["H"], d["NH"], d["F"]
        D = H // NH

        class BertLayer(nn.Module):
            def __init__(self):
                super().__init__()
                self.q, self.k, self.v, self.o = (nn.Linear(H, H) for _ in range(4))
                self.ln1 = nn.LayerNorm(H, eps=1e-12)
                self.ffn1, self.ffn2 = nn.Linear(H, Fd), nn.Linear(Fd, H)
                self.ln2 = nn.LayerNorm(H, eps=1e-12)

            def forward(self, x):
                B = x.shape[0]

                def heads(y):
                    return y.view(B, S, NH, D).permute(0, 2, 1, 3)
                q, k, v = heads(self.q(x)), heads(self.k(x)), heads(self.v(x))
                p = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(D), dim=-1)
                ctx = (p @ v).permute(0, 2, 1, 3).reshape(B, S, H)
                h1 = self.ln1(self.o(ctx) + x)
                return self.ln2(self.ffn2(nn.functional.gelu(self.ffn1(h1))) + h1)

        m = BertLayer()
        for p in "qko" + "v":
            set_linear(getattr(m, p), f"w{p}", f"b{p}")
        set_linear(m.ffn1, "w1", "b1")
        set_linear(m.ffn2, "w2", "b2")
        for i in (1, 2):
            getattr(m, f"ln{i}").weight.copy_(t(f"ln{i}_g"))
            getattr(m, f"ln{i}").bias.copy_(t(f"ln{i}_b"))
        return m, t("x"), lambda y: y

    if layer.name == "mlp":
        s = layer.dims["sizes"]
        m = nn.Sequential(nn.Linear(s[0], s[1]), nn.ReLU(), nn.Linear(s[1], s[2]), nn.ReLU(),
                          nn.Linear(s[2], s[3]))
        for i, idx in enumerate((0, 2, 4)):
            set_linear(m[idx], f"w{i + 1}", f"b{i + 1}")
        return m, t("x"), lambda y: y

    if layer.name.startswith("mbv2_"):
        C, E, Cout = layer.dims["C"], layer.dims["E"], layer.dims["Cout"]
        stride = layer.dims["stride"]
        residual = stride == 1 and Cout == C

        class InvertedResidual(nn.Module):
            def __init__(self):
                super().__init__()
                self.expand = nn.Conv2d(C, E, 1, bias=False)
                self.bn1 = nn.BatchNorm2d(E)
                self.dw = nn.Conv2d(E, E, 3, stride=stride, padding=1, groups=E, bias=False)
                self.bn2 = nn.BatchNorm2d(E)
                self.project = nn.Conv2d(E, Cout, 1, bias=False)
                self.bn3 = nn.BatchNorm2d(Cout)

            def forward(self, x):
                h = nn.functional.relu6(self.bn1(self.expand(x)))
                h = nn.functional.relu6(self.bn2(self.dw(h)))
                y = self.bn3(self.project(h))
                return y + x if residual else y

        m = InvertedResidual()
        for conv, w in (("expand", "w_exp"), ("dw", "w_dw"), ("project", "w_proj")):
            getattr(m, conv).weight.copy_(t(w))
        for i in (1, 2, 3):
            bn = getattr(m, f"bn{i}")
            for attr, suffix in (("weight", "g"), ("bias", "b"), ("running_mean", "mean"),
                                 ("running_var", "var")):
                getattr(bn, attr).copy_(t(f"bn{i}_{suffix}"))
        m.eval()
        return m, t("x"), lambda y: y

    C = layer.dims["C"]
    nhwc = layer.dims["nhwc"]

    class BasicBlock(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(C, C, 3, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(C)
            self.conv2 = nn.Conv2d(C, C, 3, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(C)

        def forward(self, x):
            h = torch.relu(self.bn1(self.conv1(x)))
            return torch.relu(self.bn2(self.conv2(h)) + x)

    m = BasicBlock()
    for i in (1, 2):
        w = t(f"w{i}")
        getattr(m, f"conv{i}").weight.copy_(w.permute(3, 2, 0, 1) if nhwc else w)
        bn = getattr(m, f"bn{i}")
        bn.weight.copy_(t(f"bn{i}_g"))
        bn.bias.copy_(t(f"bn{i}_b"))
        bn.running_mean.copy_(t(f"bn{i}_mean"))
        bn.running_var.copy_(t(f"bn{i}_var"))
    m.eval()
    if not nhwc:
        return m, t("x"), lambda y: y
    # The NHWC layer against PyTorch's channels_last (NHWC in memory).
    m = m.to(memory_format=torch.channels_last)
    x = t("x").permute(0, 3, 1, 2).contiguous(memory_format=torch.channels_last)
    return m, x, lambda y: y.permute(0, 2, 3, 1)


def torch_variants(torch, layer, inputs):
    """name -> zero-argument callable returning the output (as stored)."""
    import copy
    with torch.no_grad():
        m, x, to_layout = torch_module(torch, layer, inputs)
    m.eval()
    m16 = copy.deepcopy(m).to(torch.bfloat16)
    x16 = x.to(torch.bfloat16)

    def f32():
        with torch.inference_mode():
            return m(x)

    def autocast():
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16):
            return m(x)

    def to_bf16():
        with torch.inference_mode():
            return m16(x16)
    return {"torch f32": f32, "torch autocast": autocast, "torch .to(bf16)": to_bf16}, to_layout


# --- the benchmark -------------------------------------------------------
def fmt_ms(s):
    return "n/a" if s is None else f"{s * 1e3:.2f}"


def median_or_none(xs):
    return statistics.median(xs) if xs else None


def bench_layer(cli, torch, layer, cpu, tools, workdir, extra_x86):
    row = {"layer": layer.name}
    inputs = layer.inputs(seed=0)
    kernels = {}
    for variant in ("f32", "mixed"):
        comp = fpopt_rt.compile_layer(layer.mlir(), workdir, f"{layer.name}.{variant}",
                                      variant, cpu, tools, extra_x86, cli.target,
                                      cli.policy)
        row[f"compile {variant}"] = comp.total_seconds
        row[f"so {variant}"] = comp.so_path
        row[f"dealloc {variant}"] = comp.dealloc
        k = comp.load(layer)
        k.bind(inputs)
        kernels[f"fp-opt {variant}"] = k
        if cli.prepack:
            comp = fpopt_rt.compile_layer(layer.mlir(), workdir,
                                          f"{layer.name}.{variant}.prepacked", variant, cpu,
                                          tools, (extra_x86 + " prepack=true").strip(),
                                          cli.target, cli.policy)
            row[f"so {variant} prepacked"] = comp.so_path
            row[f"dealloc {variant} prepacked"] = comp.dealloc
            row[f"prepacked arguments {variant}"] = comp.prepacked
            k = comp.load(layer)
            k.bind(inputs)  # packs the weights, once
            kernels[f"fp-opt {variant} prepacked"] = k
        if cli.before:
            comp = fpopt_rt.compile_layer(layer.mlir(), workdir, f"{layer.name}.{variant}.before",
                                          variant, cpu, tools.with_fpopt(cli.before),
                                          cli.before_extra_x86,
                                          cli.target, cli.policy)
            k = comp.load(layer)
            k.bind(inputs)
            kernels[f"before {variant}"] = k
    tv, to_layout = torch_variants(torch, layer, inputs)
    calls = {"fp-opt f32": kernels["fp-opt f32"].call_discard,
             "fp-opt mixed": kernels["fp-opt mixed"].call_discard}
    for name in PREPACKED_VARIANTS:
        if name in kernels:
            calls[name] = kernels[name].call_discard
    if cli.before:
        calls["before f32"] = kernels["before f32"].call_discard
        calls["before mixed"] = kernels["before mixed"].call_discard
    calls.update(tv)

    # Outputs first: everything against torch f32, and torch f32 against
    # the float64 numpy reference.
    outs = {name: k() for name, k in kernels.items()}
    errors = {}
    for name, fn in tv.items():
        try:
            outs[name] = to_layout(fn()).float().contiguous().numpy()
        except Exception as e:  # e.g. an op without a bf16 CPU kernel in 1.13
            errors[name] = str(e).splitlines()[0]
    ref = outs["torch f32"].astype("float64")
    scale = float(abs(ref).max())
    f64 = layer.reference(inputs)
    acc = {"torch f32 vs float64": float(abs(ref - f64).max())}
    for name in VARIANTS + BEFORE_VARIANTS + PREPACKED_VARIANTS:
        if name in outs and name != "torch f32":
            acc[name] = float(abs(outs[name].astype("float64") - ref).max())
    row["accuracy"] = (acc, scale, errors)
    for name, msg in errors.items():
        calls.pop(name)

    # Interleaved timing: one call of each variant per round.
    times = {name: [] for name in calls}
    for _ in range(2):
        for fn in calls.values():
            fn()
    clock = time.thread_time if cli.clock == "cpu" else time.perf_counter
    t_start = time.perf_counter()
    for _ in range(cli.reps):
        for name, fn in calls.items():
            t = clock()
            fn()
            times[name].append(clock() - t)
        if time.perf_counter() - t_start > cli.time_budget and len(times["fp-opt f32"]) >= 3:
            break
    row["rounds"] = len(times["fp-opt f32"])
    row["times"] = {name: median_or_none(times.get(name))
                    for name in VARIANTS + BEFORE_VARIANTS + PREPACKED_VARIANTS}
    if cli.mem_calls > 0:
        for variant in ("f32", "mixed"):
            row[f"mem {variant}"] = memory_run(cli, row[f"so {variant}"], layer.name,
                                               row[f"dealloc {variant}"])
            if cli.prepack:
                v = f"{variant} prepacked"
                row[f"mem {v}"] = memory_run(cli, row[f"so {v}"], layer.name,
                                             row[f"dealloc {v}"],
                                             row[f"prepacked arguments {variant}"])
    for k in kernels.values():
        k.release_packed()
    return row


def ratio(num, den):
    return "n/a" if num is None or den is None else f"{num / den:.2f}x"


def mem_cell(m):
    if not m:
        return "-"
    if "error" in m:
        return "error"
    return f"{m['rss_growth_mib']:+.1f}/{m['calls']}"


def print_table(rows, header):
    print()
    print(header)
    cols = ["layer", "fp f32", "fp mixed", "torch f32", "autocast", ".to(bf16)",
            "t.f32/fp.f32", "t.bf16/fp.mix", "fp.f32/fp.mix", "compile f32/mix s",
            "RSS MiB/calls f32", "RSS MiB/calls mix"]
    lines = []
    for r in rows:
        t = r["times"]
        best_bf16 = min([x for x in (t["torch autocast"], t["torch .to(bf16)"]) if x is not None],
                        default=None)
        lines.append([r["layer"], fmt_ms(t["fp-opt f32"]), fmt_ms(t["fp-opt mixed"]),
                      fmt_ms(t["torch f32"]), fmt_ms(t["torch autocast"]),
                      fmt_ms(t["torch .to(bf16)"]), ratio(t["torch f32"], t["fp-opt f32"]),
                      ratio(best_bf16, t["fp-opt mixed"]),
                      ratio(t["fp-opt f32"], t["fp-opt mixed"]),
                      f"{r['compile f32']:.1f}/{r['compile mixed']:.1f}",
                      mem_cell(r.get("mem f32")), mem_cell(r.get("mem mixed"))])
    widths = [max(len(c), *(len(line[i]) for line in lines)) for i, c in enumerate(cols)]
    fmt = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa
    print(fmt(cols))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for line in lines:
        print(fmt(line))
    print("times: median ms per call; ratios > 1: fp-opt faster (t.bf16 = the faster of "
          "autocast and .to(bf16)); fp.f32/fp.mix > 1: mixed faster than fp-opt's f32; RSS: "
          "resident-set growth (MiB) from call 1 to the last of the calls made (child process, "
          "no torch)")
    for r in rows:
        for v in ("f32", "mixed", "f32 prepacked", "mixed prepacked"):
            m = r.get(f"mem {v}")
            if m and "error" not in m:
                print(f"  {r['layer']} {v}: first call peak +{m['first_call_peak_mib']:.0f} MiB "
                      f"over the bound arguments (arguments + result: "
                      f"{m['args_result_mib']:.0f} MiB); RSS growth "
                      f"{m['rss_growth_mib'] / max(1, m['calls'] - 1):.2f} MiB per call, peak "
                      f"growth over {m['calls']} calls {m['peak_growth_mib']:+.0f} MiB "
                      f"({m['seconds']:.0f} s)")
            elif m:
                print(f"  {r['layer']} {v}: memory run failed: {m['error']}")


def print_before_after(rows):
    """With --before: the other build's times from the same rounds."""
    print()
    print("| layer | before f32 | after f32 | t.f32/before | t.f32/after | before mixed | "
          "after mixed | t.bf16/before | t.bf16/after |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        t = r["times"]
        best_bf16 = min([x for x in (t["torch autocast"], t["torch .to(bf16)"]) if x is not None],
                        default=None)
        print("| " + " | ".join([
            r["layer"], fmt_ms(t["before f32"]), fmt_ms(t["fp-opt f32"]),
            ratio(t["torch f32"], t["before f32"]), ratio(t["torch f32"], t["fp-opt f32"]),
            fmt_ms(t["before mixed"]), fmt_ms(t["fp-opt mixed"]),
            ratio(best_bf16, t["before mixed"]), ratio(best_bf16, t["fp-opt mixed"])]) + " |")


def print_prepacked(rows):
    """With --prepack: the prepacked builds' times from the same rounds."""
    print()
    def packed_args(r):
        args = [",".join(map(str, r.get(f"prepacked arguments {v}", []))) or "none"
                for v in ("f32", "mixed")]
        return args[0] if args[0] == args[1] else f"{args[0]} / {args[1]}"

    print("| layer | packed args f32 / mix | fp f32 | fp f32 prepacked | t.f32/fp.f32 | "
          "t.f32/fp.f32 prepacked | fp mixed | fp mixed prepacked | t.bf16/fp.mix | "
          "t.bf16/fp.mix prepacked | RSS MiB/calls prepacked f32/mix |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        t = r["times"]
        best_bf16 = min([x for x in (t["torch autocast"], t["torch .to(bf16)"]) if x is not None],
                        default=None)
        print("| " + " | ".join([
            r["layer"], packed_args(r),
            fmt_ms(t["fp-opt f32"]), fmt_ms(t["fp-opt f32 prepacked"]),
            ratio(t["torch f32"], t["fp-opt f32"]), ratio(t["torch f32"], t["fp-opt f32 prepacked"]),
            fmt_ms(t["fp-opt mixed"]), fmt_ms(t["fp-opt mixed prepacked"]),
            ratio(best_bf16, t["fp-opt mixed"]), ratio(best_bf16, t["fp-opt mixed prepacked"]),
            mem_cell(r.get("mem f32 prepacked")) + " " + mem_cell(r.get("mem mixed prepacked"))])
            + " |")
    print("prepacked: compiled with prepack=true, the weight arguments listed packed (and "
          "rounded) once by forward_prepack before the timed rounds (as torch's .to(bf16) "
          "converts its module once)")


def print_accuracy(row):
    acc, scale, errors = row["accuracy"]
    parts = [f"{k} {v:.2e} ({v / scale:.1e} rel)" for k, v in acc.items()]
    print(f"{row['layer']}: max|y - torch f32| (max|torch f32| = {scale:.3g}): " + "; ".join(parts))
    for name, msg in errors.items():
        print(f"  {name} failed: {msg}")


def blas_core():
    import ctypes
    try:
        lib = ctypes.CDLL("libopenblas.so.0")
        lib.openblas_get_corename.restype = ctypes.c_char_p
        return (f"OpenBLAS {lib.openblas_get_corename().decode()} "
                f"({lib.openblas_get_num_threads()} thread(s))")
    except OSError:
        return "unknown BLAS"


def cpu_model():
    try:
        out = subprocess.run(["lscpu"], stdout=subprocess.PIPE).stdout.decode()
        for line in out.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


# --- profile -------------------------------------------------------------
def profile(cli, cpu, tools, workdir, extra_x86):
    name = cli.profile
    layer = layers.by_name(cli.small)[name]
    perf = shutil.which("perf")
    if not perf:
        print("perf not found: apt-get install linux-perf")
        return 1
    results = {}
    for split in (False, True):
        tag = f"{name}.{cli.variant}.profile{'.split' if split else ''}"
        comp = fpopt_rt.compile_layer(layer.mlir(split), workdir, tag, cli.variant, cpu, tools,
                                      extra_x86, cli.target, cli.policy)
        # One timed call decides how many calls fill --profile-seconds.
        k = comp.load(layer)
        k.bind(layer.inputs(seed=0))
        per_call = math.inf
        for _ in range(3):
            t = time.thread_time()
            k.call_discard()
            per_call = min(per_call, time.thread_time() - t)
        calls = max(3, int(cli.profile_seconds / per_call))
        data = os.path.join(workdir, tag + ".perf.data")
        # perf attaches once the child has its arguments and has made one
        # call, so start-up and argument generation are not in the profile.
        child = subprocess.Popen(child_args(cli) + ["--mem-budget", "1e9", "--child-wait",
                                                    "--child-dealloc", comp.dealloc,
                                                    "--child", comp.so_path, name, str(calls)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        child.stdout.readline()
        rec = subprocess.Popen([perf, "record", "-q", "-F", "1999", "-o", data, "-p",
                                str(child.pid)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
        time.sleep(1.0)
        child.stdin.write(b"go\n")
        child.stdin.flush()
        child.wait()
        try:
            rec.wait(timeout=30)
        except subprocess.TimeoutExpired:
            rec.send_signal(2)
            rec.wait()
        if not os.path.exists(data):
            print(f"perf record failed: {rec.stderr.read().decode(errors='replace')[-800:]}")
            return 1
        rep = subprocess.run([perf, "report", "-i", data, "--stdio", "--no-children",
                              "--sort", "dso,sym", "--percent-limit", "0.3"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout.decode()
        entries = []
        for line in rep.splitlines():
            line = line.strip()
            if not line or line.startswith("#") or "%" not in line:
                continue
            parts = line.split()
            try:
                pct = float(parts[0].rstrip("%"))
            except ValueError:
                continue
            dso = parts[1]
            sym = " ".join(parts[3:]) if len(parts) > 3 else parts[-1]
            entries.append((pct, dso, sym))
        # The kernel's samples are page faults on freshly allocated buffers
        # (and zeroing them): one line.
        kernel = sum(pct for pct, dso, _ in entries if "kernel" in dso)
        entries = [e for e in entries if "kernel" not in e[1]]
        if kernel:
            entries.append((kernel, "[kernel]", "page faults, page zeroing (all symbols)"))
        entries.sort(key=lambda e: -e[0])
        results[split] = (entries, per_call, calls)

    print(f"profile of {name} ({cli.variant}, target={cpu}, llc -mcpu={tools.mcpu}); "
          f"perf, % of the samples of the calls")
    for split, title in ((False, "as compiled (one function)"),
                         (True, "split: every torch-mlir op its own function (no fusion "
                                "across ops; libm calls are listed under libm)")):
        entries, per_call, calls = results[split]
        print(f"\n== {title}: {per_call * 1e3:.2f} ms per call, {calls} calls")
        for pct, dso, sym in entries[:25]:
            print(f"  {pct:6.2f}%  {dso:28s} {sym}")
        if split:
            groups = {}
            for pct, dso, sym in entries:
                key = group_of(sym, dso)
                groups[key] = groups.get(key, 0.0) + pct
            print("  -- by kind of op:")
            for key, pct in sorted(groups.items(), key=lambda kv: -kv[1]):
                print(f"  {pct:6.2f}%  {key}")
    return 0


def group_of(sym, dso):
    if sym.startswith("s") and "_" in sym and sym[1:3].isdigit():
        op = sym.split("_", 1)[1]
        for kind in ("transpose", "reshape", "broadcast", "bmm", "matmul", "bias", "softmax",
                     "ln", "gelu", "relu", "residual", "pad", "conv", "bn", "scores_scale"):
            if kind in op:
                return {"ln": "layer norm", "bmm": "batch_matmul", "bn": "batch norm",
                        "scores_scale": "attention scale",
                        "reshape": "reshape (copies?)"}.get(kind, kind)
        return op
    if dso.startswith("libm.so") or dso.startswith("libm-"):
        return "libm (erf: GELU, exp: softmax)"
    if sym == "memrefCopy":
        return "memrefCopy (strided memref.copy, e.g. tensor.pad)"
    if sym in ("forward", "_mlir_ciface_forward"):
        return "forward (reshapes, glue)"
    if "libc" in dso:
        return "libc (malloc, memset, memcpy)"
    if "kernel" in dso:
        return "kernel (page faults on fresh buffers)"
    return "other (python, numpy, loader)"


def main():
    cli = parse_args()
    if cli.child:
        return child_main(cli)
    if cli.keep_freed_memory:
        fpopt_rt.keep_freed_memory()
    cpu, mcpu = cpu_choice(cli)
    cli.clock = cli.clock or ("cpu" if cli.threads == 1 else "wall")
    tools = fpopt_rt.Tools(cli.fp_opt, cli.llvm_bin, mcpu)
    if not os.path.exists(cli.fp_opt):
        sys.exit(f"{cli.fp_opt} not found: bash scripts/build.sh")
    workdir = cli.workdir or tempfile.mkdtemp(prefix="e2e-bench-")
    threads_x86, threads_note = threads_option(cli, cpu)
    extra_x86 = (threads_x86 + " " + cli.x86_options).strip()
    cli.before_extra_x86 = extra_x86 if cli.before_x86_options is None else \
        (threads_x86 + " " + cli.before_x86_options).strip()
    if cli.profile:
        return profile(cli, cpu, tools, workdir, extra_x86)

    # Thread counts of torch's OpenMP and OpenBLAS before they start.
    os.environ["OMP_NUM_THREADS"] = str(cli.threads)
    os.environ["OPENBLAS_NUM_THREADS"] = str(cli.threads)
    import torch
    torch.set_num_threads(cli.threads)
    pin_blas_threads(cli.threads)
    header = (f"{cpu_model()}; fp-opt target={cpu}"
              f"{'' if not cli.x86_options else ' ' + cli.x86_options}"
              f"{'' if not cli.target else ', mixed decided for ' + cli.target}"
              f"{'' if not cli.policy else ' policy=' + cli.policy}, llc -mcpu={mcpu}, "
              f"{threads_note}; torch "
              f"{torch.__version__}, {torch.get_num_threads()} thread(s), f32 matmul via "
              f"{blas_core()}, oneDNN {'on' if torch.backends.mkldnn.is_available() else 'off'}; "
              f"{'thread CPU' if cli.clock == 'cpu' else 'wall'} time"
              f"{'; glibc keeps freed memory' if cli.keep_freed_memory else ''}")
    print(header)
    rows, failed = [], []
    for name in cli.layers.split(","):
        layer = layers.by_name(cli.small)[name]
        try:
            row = bench_layer(cli, torch, layer, cpu, tools, workdir, extra_x86)
        except (fpopt_rt.CompileError, OSError) as e:  # OSError: the .so does not load
            print(f"{name}: FAILED, no figures: {str(e).strip()[:2000]}")
            failed.append(name)
            continue
        print_accuracy(row)
        rows.append(row)
        sys.stdout.flush()
    print_table(rows, header)
    if cli.before:
        print_before_after(rows)
    if cli.prepack:
        print_prepacked(rows)
    if failed:
        print(f"not measured (compile or load failed, see above): {', '.join(failed)}")
    if cli.json:
        with open(cli.json, "w") as f:
            json.dump({"header": header, "clock": cli.clock, "threads": cli.threads,
                       "rows": [{k: v for k, v in r.items() if not k.startswith("so ")}
                                for r in rows]}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
