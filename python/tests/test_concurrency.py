"""Many compilations at once, as inside a host compiler: run_pipeline on 8
threads (each call has its own MLIRContext) gives byte-for-byte the output
of sequential runs, and it releases the GIL while compiling, so other
Python threads keep running."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import fpopt

PIPELINES = [
    "lowp-auto-mixed-precision{target=sm_90 policy=bf16}",
    "lowp-auto-mixed-precision{target=gfx942 policy=fp8},canonicalize,cse",
    "lowp-infer-precision{low=f16},lowp-insert-fp32-islands",
    "lowp-pipeline-x86{target=avx2}",
]


def module(i: int, functions: int = 1) -> str:
    """A small MLP-like function per copy, shapes depending on `i`."""
    m, k, n = 4 + i, 8 * (1 + i % 3), 16
    funcs = []
    for f in range(functions):
        funcs.append(f"""
func.func @layer{f}(%x: tensor<{m}x{k}xf32>, %w: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %y = linalg.matmul ins(%x, %w : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%acc : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%y : tensor<{m}x{n}xf32>) outs(%e : tensor<{m}x{n}xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  }} -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}""")
    return "\n".join(funcs) + "\n"


def jobs():
    return [(module(i), PIPELINES[i % len(PIPELINES)]) for i in range(16)]


def test_eight_threads_match_sequential_runs():
    work = jobs()
    sequential = [fpopt.run_pipeline(ir, p) for ir, p in work]
    assert len(set(sequential)) == len(work)  # different modules
    with ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(2):
            parallel = list(pool.map(lambda job: fpopt.run_pipeline(*job), work))
            assert parallel == sequential


def test_errors_on_threads_stay_with_their_call():
    # Half the calls fail; each failure carries its own located diagnostic.
    bad = "func.func @f() {\n  lowp.bogus\n}\n"
    work = [(bad if i % 2 else module(i), PIPELINES[0]) for i in range(16)]

    def run(job):
        try:
            return fpopt.compile(*job, source_name="in.mlir").diagnostics
        except fpopt.CompileError as e:
            return e.diagnostics

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(run, work))
    for i, diags in enumerate(results):
        if i % 2:
            assert len(diags) == 1 and "in.mlir:2:3" in diags[0], diags
        else:
            assert not any("error" in d for d in diags), diags


def test_run_pipeline_releases_the_gil():
    # One thread compiles a large module; meanwhile this thread runs Python.
    # Holding the GIL would stall this loop for the whole compilation.
    big = module(3, functions=60)
    start = time.perf_counter()
    fpopt.run_pipeline(big, PIPELINES[3])
    alone = time.perf_counter() - start

    done = threading.Event()
    compiled = []

    def compile_big():
        compiled.append(fpopt.run_pipeline(big, PIPELINES[3]))
        done.set()

    worker = threading.Thread(target=compile_big)
    iterations, longest_gap = 0, 0.0
    last = time.perf_counter()
    began = last
    worker.start()
    while not done.is_set():
        now = time.perf_counter()
        longest_gap = max(longest_gap, now - last)
        last = now
        iterations += 1
    worker.join()
    during = time.perf_counter() - began
    assert compiled and "llvm.func @layer59" in compiled[0]
    # The compile takes a while (else the test measures nothing) and Python
    # ran all along: no stall of even half of it (a GIL-holding call would
    # stall this loop for all of it).
    assert alone > 0.05, alone
    assert longest_gap < 0.5 * min(alone, during), (longest_gap, alone, during)
    assert iterations > 1000, iterations
