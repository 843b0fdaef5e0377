#!/usr/bin/env python3
"""LLaMA-style generation at batch 1 on the CPU: a prompt of P tokens in
one call (prefill), then one token per call (decode), every weight read
once per token. Prints, for fp-opt (f32 weights; bf16 weights: policy bf16
with the weights demoted once; FP8 weight-only: policy fp8-weights, E4M3
weights with a scale per output channel; both with the KV cache taken and
returned in bf16, demote_state=True; and FP8 weight-only with the KV cache
stored in E4M3, demote_state="f8E4M3FN") next to PyTorch eager (f32, and
the model converted to bf16) with the same weights: prefill tokens per
second, decode ms per token, the bytes a decoding step reads over the time
as GB/s, and that as a share of the machine's read bandwidth at the same
number of threads (bench/x86/read_bandwidth.c's pass over 512 MiB, run
once per round with the decoding steps: the share of the pass in the same
round, the median over the rounds), how
many greedy tokens of each variant equal PyTorch f32's from a fixed random
prompt, and how far the mean log-probability each variant gives PyTorch
f32's tokens (teacher forced) is from PyTorch f32's own.

  /usr/bin/python3 bench/llm/decode.py [--layers 4] [--dim 1024] [--ffn 2816]
      [--vocab 8192] [--cache 256] [--prompt 128] [--tokens 16] [--threads 1]
      [--x86-options fuse-attention=false]

``--threads N`` runs PyTorch on N threads (its ATen and OpenBLAS pools,
bench/torch_threads.py), compiles fp-opt
with threads=N and measures the read bandwidth with N threads (the best of
7 back-to-back passes with 1 thread is printed too).

The steps are torch.nn modules exported by fpopt.torch
(python/tests/torch_blocks.py): Prefill takes the prompt's token ids and
writes the keys and values of positions 0..P-1 into the KV cache; Decoder
takes a token id and its position as tensor arguments. The KV cache has a
fixed capacity and is passed in and returned with the new keys and values
written (decode: a select against a one-hot of the position: static
shapes, one compiled function for every position); attention masks the
positions after the token. Both are compiled with prepack=True.

All variants are built first; then each runs its prefill, and each of its
decoding steps, in turn with the others and with a pass of the bandwidth
measurement (round by round), so that the machine's bandwidth, which moves
from minute to minute on a VM, reaches every variant and its reference
alike.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))
sys.path.insert(0, os.path.join(ROOT, "build", "python_packages"))
from torch_threads import set_torch_threads  # noqa: E402
import fpopt  # noqa: E402
import fpopt.runtime  # noqa: E402
import fpopt.torch  # noqa: E402
import torch_blocks as tb  # noqa: E402


class ReadBandwidth:
    """bench/x86/read_bandwidth.c's pass as a library, over a buffer of
    `mib` MiB: gbs() times one pass (recorded in `passes`), so that the
    bandwidth can be measured round by round next to the variants it is
    compared with (it moves from minute to minute on a VM); best() is the
    best of back-to-back passes, as read_bandwidth.sh reports it."""

    def __init__(self, threads, mib=512):
        import ctypes
        import tempfile
        import numpy as np
        self._dir = tempfile.TemporaryDirectory()
        lib = os.path.join(self._dir.name, "read_bandwidth.so")
        subprocess.run(["/usr/lib/llvm-22/bin/clang", "-O3", "-march=native", "-ffast-math",
                        "-fopenmp", "-shared", "-fPIC", "-DREAD_BANDWIDTH_LIBRARY", "-o", lib,
                        os.path.join(ROOT, "bench", "x86", "read_bandwidth.c")], check=True)
        self._lib = ctypes.CDLL(lib)
        self._lib.read_bandwidth_pass.restype = ctypes.c_double
        self._lib.read_bandwidth_pass.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                                  ctypes.c_void_p]
        self.threads = threads
        self._lib.omp_set_num_threads(threads)
        # 64-byte aligned, as the packed weights are (a buffer 16 bytes off
        # splits every vector load over two lines: 24 instead of 37 GB/s).
        n = mib << 18
        raw = np.empty(n + 16, np.float32)
        start = (-raw.ctypes.data % 64) // 4
        self._buf = raw[start:start + n]
        self._buf[:] = (np.arange(n, dtype=np.float32) % 1024) * 1e-3
        self._sum = np.zeros(1, np.float32)
        self.passes = []

    def _pass_gbs(self):
        seconds = self._lib.read_bandwidth_pass(self._buf.ctypes.data, self._buf.size,
                                                self._sum.ctypes.data)
        return self._buf.nbytes / seconds / 1e9

    def gbs(self):
        self.passes.append(self._pass_gbs())
        return self.passes[-1]

    def best(self, threads=None, passes=7):
        """The best of `passes` back-to-back passes with `threads` threads
        (default: this object's)."""
        self._lib.omp_set_num_threads(threads or self.threads)
        try:
            return max(self._pass_gbs() for _ in range(passes))
        finally:
            self._lib.omp_set_num_threads(self.threads)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--dim", type=int, default=1024)
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--kv-heads", type=int, default=4)
    ap.add_argument("--ffn", type=int, default=2816)
    ap.add_argument("--vocab", type=int, default=8192)
    ap.add_argument("--cache", type=int, default=256)
    ap.add_argument("--prompt", type=int, default=128)
    ap.add_argument("--tokens", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--cache-dir")
    ap.add_argument("--x86-options", default="",
                    help="added to lowp-pipeline-x86's options (e.g. fuse-attention=false)")
    cli = ap.parse_args()
    if cli.prompt < 1 or cli.prompt + cli.tokens > cli.cache:
        ap.error(f"--prompt {cli.prompt} + --tokens {cli.tokens} must fit --cache {cli.cache}")
    set_torch_threads(cli.threads)
    if torch.get_num_threads() != cli.threads:
        ap.error(f"torch runs {torch.get_num_threads()} threads, not {cli.threads}")
    fpopt.runtime.retain_freed_memory()
    torch.manual_seed(0)
    shape = (cli.layers, cli.dim, cli.heads, cli.kv_heads, cli.ffn, cli.vocab, cli.cache)
    model = tb.Decoder(*shape).eval()
    for p in model.parameters():  # weights of a trained model's scale
        p.data.normal_(0.0, 0.02)
    prefill = tb.Prefill(*shape).eval()
    prefill.load_state_dict(model.state_dict())
    hd = cli.dim // cli.heads
    caches = [torch.zeros(1, cli.kv_heads, cli.cache, hd) for _ in range(2 * cli.layers)]
    prompt = torch.randint(0, cli.vocab, (1, cli.prompt))
    decode_example = (torch.tensor([[1]]), torch.tensor([0]), *caches)
    prefill_example = (prompt, *caches)
    n_weights = sum(p.numel() for p in model.parameters())
    # What a decoding step reads: every weight once, but only one row of
    # the embedding table. Linear weights in the variant's format, the few
    # others (norms) in f32.
    linear = sum(m.weight.numel() for m in model.modules()
                 if isinstance(m, torch.nn.Linear))
    other = n_weights - linear - model.embed_tokens.weight.numel() + cli.dim

    def step_bytes(linear_bytes):
        return linear * linear_bytes + other * 4
    bandwidth = ReadBandwidth(cli.threads)
    bw1 = bandwidth.best(threads=1)
    bw = bandwidth.best() if cli.threads > 1 else bw1
    print(f"decoder: {cli.layers} layers, dim {cli.dim}, ffn {cli.ffn}, vocab {cli.vocab}, "
          f"{n_weights / 1e6:.0f}M weights; KV capacity {cli.cache}; prompt {cli.prompt} "
          f"tokens; {cli.threads} thread(s) (PyTorch's ATen and OpenBLAS pools, fp-opt threads=)")
    print(f"read bandwidth (best of 7 back-to-back passes): {bw1:.1f} GB/s with "
          "1 thread" + (f", {bw:.1f} GB/s with {cli.threads} threads" if cli.threads > 1
                        else ""))

    class Variant:
        """One way to run the model: its prefill and decode functions, the
        bytes per Linear weight, and how its outputs become f32 tensors."""

        def __init__(self, name, nbytes, prefill_fn, step, to_tensor, fp_opt):
            self.name, self.nbytes, self.fp_opt = name, nbytes, fp_opt
            self.prefill_fn, self.step, self.to_tensor = prefill_fn, step, to_tensor
            self.prefill_times, self.step_times, self.tokens = [], [], []

        def prefill(self):
            t0 = time.perf_counter()
            res = self.prefill_fn(prompt, *[c.clone() for c in caches])
            self.prefill_times.append(time.perf_counter() - t0)
            self.take(res)

        def take(self, res):
            logits = self.to_tensor(res[0])
            self.caches = list(res[1:])  # passed back as returned
            self.tok = logits.float().argmax(-1).view(1, 1)
            self.tokens.append(int(self.tok))

        def decode(self, pos):
            t0 = time.perf_counter()
            res = self.step(self.tok, torch.tensor([pos]), *self.caches)
            self.step_times.append(time.perf_counter() - t0)
            self.take(res)

        def mean_log_prob(self, tokens):
            """The mean log-probability this variant gives `tokens` (teacher
            forcing from the prompt): a perplexity-style measure."""
            res = self.prefill_fn(prompt, *[c.clone() for c in caches])
            total = 0.0
            for i, tok in enumerate(tokens):
                logits = self.to_tensor(res[0])
                total += float(torch.log_softmax(logits.double(), -1)[0, tok])
                if i + 1 < len(tokens):
                    res = self.step(torch.tensor([[tok]]), torch.tensor([cli.prompt + i]),
                                    *res[1:])
            return total / len(tokens)

    variants = [Variant("torch f32", 4, prefill, model, lambda t: t, False)]
    mb, pb = tb.Decoder(*shape).eval(), tb.Prefill(*shape).eval()
    mb.load_state_dict(model.state_dict())
    pb.load_state_dict(model.state_dict())
    mb, pb = mb.to(torch.bfloat16), pb.to(torch.bfloat16)
    variants.append(Variant(
        "torch bf16", 2, lambda t, *c: pb(t, *[x.to(torch.bfloat16) for x in c]),
        lambda t, p, *c: mb(t, p, *[x.to(torch.bfloat16) for x in c]),
        lambda t: t.float(), False))
    as_float = lambda t: t.float() if t.is_floating_point() else t  # noqa: E731
    for name, policy, demote, state, nbytes in (
            ("fp-opt f32", "f32", False, False, 4),
            ("fp-opt bf16", "bf16", True, True, 2),
            ("fp-opt fp8-weights", "fp8-weights", True, True, 1),
            ("fp-opt fp8-weights, FP8 KV", "fp8-weights", True, "f8E4M3FN", 1)):
        t0 = time.perf_counter()
        fms = [fpopt.torch.compile(m, ex, policy=policy, demote_weights=demote,
                                   demote_state=state, prepack=True,
                                   threads=cli.threads, cache_dir=cli.cache_dir,
                                   x86_options=cli.x86_options)
               for m, ex in ((prefill, prefill_example), (model, decode_example))]
        compile_s = time.perf_counter() - t0
        for d in [d for fm in fms for d in fm.diagnostics
                  if "loop path" in d or "materialized" in d][:3]:
            print(f"  {name}: slow path: {d.split('remark:')[-1].strip()[:120]}")
        variants.append(Variant(name + f" (compile {compile_s:.0f} s)", nbytes, *fms,
                                as_float, True))

    # Every variant runs each prefill and each decoding step in turn, so a
    # change in the machine's bandwidth during the run reaches all alike.
    # With several threads, a pause between variants lets the other
    # runtime's OpenMP threads stop spinning (libomp's wait 200 ms, libgomp's
    # less) before the next is timed.
    def pause():
        if cli.threads > 1:
            time.sleep(0.25)
    with torch.no_grad():
        for _ in range(3):
            for v in variants:
                pause()
                v.tokens = []
                v.prefill()
        for i in range(cli.tokens - 1):
            pause()
            bandwidth.gbs()
            for v in variants:
                pause()
                v.decode(cli.prompt + i)
        ref_tokens = variants[0].tokens
        ref_log_prob = variants[0].mean_log_prob(ref_tokens)
        log_prob_error = {v.name: abs(v.mean_log_prob(ref_tokens) - ref_log_prob)
                          if v is not variants[0] else 0.0 for v in variants}
    passes = bandwidth.passes[2:] if len(bandwidth.passes) > 2 else bandwidth.passes
    bw_run = statistics.median(passes)
    print(f"read bandwidth ({cli.threads} thread(s)) in the decoding rounds: median "
          f"{bw_run:.1f} GB/s (from {min(passes):.1f} to {max(passes):.1f}); 'of bw' is "
          "of the pass in the same round, the median over the rounds")
    print(f"{'variant':<44}{'prefill tok/s':>14}{'ms/token':>10}{'vs f32':>8}{'GB/s':>8}"
          f"{'of bw':>8}{'of best':>8}{'tokens':>8}{'|dlogp|':>10}")

    def ms_per_token(v):
        times = v.step_times[2:] if len(v.step_times) > 2 else v.step_times
        return statistics.median(times) * 1e3
    f32_ms = next(ms_per_token(v) for v in variants if v.name.startswith("fp-opt f32"))
    for v in variants:
        ms = ms_per_token(v)
        gbs = step_bytes(v.nbytes) / (ms * 1e-3) / 1e9
        # Of the bandwidth pass of the same round, median over the rounds
        # (the first two steps left out, as in ms_per_token).
        pairs = (list(zip(v.step_times[2:], bandwidth.passes[2:]))
                 or list(zip(v.step_times, bandwidth.passes)))
        share = statistics.median(step_bytes(v.nbytes) / t / 1e9 / b for t, b in pairs)
        same = sum(1 for a, b in zip(v.tokens, ref_tokens) if a == b)
        print(f"{v.name:<44}{cli.prompt / statistics.median(v.prefill_times):>14.1f}"
              f"{ms:>10.2f}{ms / f32_ms:>8.2f}{gbs:>8.1f}"
              f"{share:>8.0%}"
              f"{gbs / bw if bw == bw else float('nan'):>8.0%}"
              f"{f'{same}/{len(ref_tokens)}':>8}{log_prob_error[v.name]:>10.2e}")
    print("GB/s: the bytes a step reads (every weight in the variant's format, one "
          "embedding row) over ms/token (the median step after the first two); vs f32: "
          "time over fp-opt f32's; of bw: of the read bandwidth pass of the same round (median over the rounds); "
          "of best: of the best of 7 back-to-back passes; tokens: greedy tokens equal to torch f32's; |dlogp|: "
          "difference of the mean log-probability of torch f32's tokens (teacher "
          "forced) from torch f32's")


if __name__ == "__main__":
    main()
