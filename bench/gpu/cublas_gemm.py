"""cuBLAS on the same GEMM shapes as gemm_bench.cpp, through PyTorch
(torch.matmul for bf16/f16 with f32 accumulation, torch._scaled_mm for
FP8 E4M3 on sm_89+). Usage: cublas_gemm.py FORMAT:MxNxK ... Prints
  cublas <format> <M>x<N>x<K> <TFLOP/s> TFLOP/s
or a line saying why it cannot. Timing: CUDA events around n GEMMs after a
warm-up, as gemm_bench.cpp times n of its own."""
import sys

try:
    import torch
except ImportError:
    print("cublas: no PyTorch on this machine")
    sys.exit(0)
if not torch.cuda.is_available():
    print("cublas: PyTorch sees no GPU")
    sys.exit(0)

torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False

for spec in sys.argv[1:]:
    fmt, shape = spec.split(":")
    m, n, k = (int(x) for x in shape.split("x"))
    flops = 2.0 * m * n * k
    iters = max(10, min(200, int(4e12 / flops)))
    if fmt in ("bf16", "f16"):
        dtype = torch.bfloat16 if fmt == "bf16" else torch.float16
        a = torch.rand(m, k, device="cuda", dtype=dtype) * 2 - 1
        b = torch.rand(k, n, device="cuda", dtype=dtype) * 2 - 1
        run = lambda: torch.matmul(a, b)
    elif fmt == "f8E4M3FN":
        if torch.cuda.get_device_capability() < (8, 9) or \
                not hasattr(torch, "_scaled_mm"):
            print(f"cublas {fmt} {shape} n/a (needs sm_89+ and torch._scaled_mm)")
            continue
        a = (torch.rand(m, k, device="cuda") * 2 - 1).to(torch.float8_e4m3fn)
        b = (torch.rand(n, k, device="cuda") * 2 - 1).to(torch.float8_e4m3fn).t()
        one = torch.tensor(1.0, device="cuda")
        run = lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one,
                                       out_dtype=torch.bfloat16)
    else:
        print(f"cublas {fmt} {shape} n/a (unknown format)")
        continue
    for _ in range(3):
        run()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        run()
    end.record()
    torch.cuda.synchronize()
    seconds = start.elapsed_time(end) / 1000 / iters
    print(f"cublas {fmt} {shape} {flops / seconds * 1e-12:.1f} TFLOP/s")
    sys.stdout.flush()
