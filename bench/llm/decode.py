#!/usr/bin/env python3
"""LLaMA-style decoding at batch 1 on the CPU: one token per call, every
weight read once per token. Prints ms per token of fp-opt (f32 weights;
bf16 weights: policy bf16 with the weights demoted once) next to PyTorch
eager (f32, and the model converted to bf16) with the same weights, the
weight bytes read per token over the time as GB/s, and that as a share of
the machine's read bandwidth (bench/x86/read_bandwidth.sh, measured here
first), and the greedy tokens of each variant from a fixed prompt.

  /usr/bin/python3 bench/llm/decode.py [--layers 4] [--dim 1024] [--ffn 2816]
      [--vocab 8192] [--cache 256] [--tokens 16] [--threads 1]

The decode step is a torch.nn module exported by fpopt.torch: the token id
and its position are tensor arguments; the KV cache has a fixed capacity
and is passed in and returned with the new token's key and value written at
the position (a select against a one-hot of the position: static shapes,
one compiled function for every position); attention masks the positions
after it.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))
sys.path.insert(0, os.path.join(ROOT, "build", "python_packages"))
import fpopt  # noqa: E402
import fpopt.runtime  # noqa: E402
import fpopt.torch  # noqa: E402
import torch_blocks as tb  # noqa: E402


def read_bandwidth_gbs():
    """One thread's sequential read bandwidth over 512 MiB
    (bench/x86/read_bandwidth.sh)."""
    script = os.path.join(ROOT, "bench", "x86", "read_bandwidth.sh")
    try:
        out = subprocess.run(["bash", script, "512"], capture_output=True, text=True,
                             timeout=300).stdout
    except (OSError, subprocess.TimeoutExpired):
        return float("nan")
    m = re.search(r"([\d.]+) GB/s", out)
    return float(m.group(1)) if m else float("nan")


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
    ap.add_argument("--tokens", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--cache-dir")
    cli = ap.parse_args()
    torch.set_num_threads(cli.threads)
    fpopt.runtime.retain_freed_memory()
    torch.manual_seed(0)
    model = tb.Decoder(cli.layers, cli.dim, cli.heads, cli.kv_heads, cli.ffn, cli.vocab,
                    cli.cache).eval()
    for p in model.parameters():  # weights of a trained model's scale
        p.data.normal_(0.0, 0.02)
    hd = cli.dim // cli.heads
    caches = [torch.zeros(1, cli.kv_heads, cli.cache, hd) for _ in range(2 * cli.layers)]
    token, position = torch.tensor([[1]]), torch.tensor([0])
    example = (token, position, *caches)
    n_weights = sum(p.numel() for p in model.parameters())
    bw = read_bandwidth_gbs()
    print(f"decoder: {cli.layers} layers, dim {cli.dim}, ffn {cli.ffn}, vocab {cli.vocab}, "
          f"{n_weights / 1e6:.0f}M weights; KV capacity {cli.cache}; {cli.threads} thread(s); "
          f"read bandwidth (1 thread) {bw:.1f} GB/s")

    def generate(step, n, to_tensor=lambda t: t):
        caches_now = [c.clone() for c in caches]
        tok = torch.tensor([[1]])
        out, times = [], []
        for pos in range(n):
            t0 = time.perf_counter()
            res = step(tok, torch.tensor([pos]), *caches_now)
            times.append(time.perf_counter() - t0)
            logits, caches_now = to_tensor(res[0]), [to_tensor(c) for c in res[1:]]
            tok = logits.float().argmax(-1).view(1, 1)
            out.append(int(tok))
        return out, statistics.median(times[2:]) * 1e3

    rows = []
    with torch.no_grad():
        rows.append(("torch f32", 4, *generate(model, cli.tokens)))
        mb = tb.Decoder(cli.layers, cli.dim, cli.heads, cli.kv_heads, cli.ffn, cli.vocab,
                     cli.cache).eval()
        mb.load_state_dict(model.state_dict())
        mb = mb.to(torch.bfloat16)
        rows.append(("torch bf16", 2, *generate(
            lambda t, p, *c: mb(t, p, *[x.to(torch.bfloat16) for x in c]), cli.tokens,
            lambda t: t.float())))
        del mb
    for name, policy, demote, nbytes in (("fp-opt f32", "f32", False, 4),
                                         ("fp-opt bf16", "bf16", True, 2)):
        t0 = time.perf_counter()
        fm = fpopt.torch.compile(model, example, policy=policy, demote_weights=demote,
                                 prepack=True, threads=cli.threads, cache_dir=cli.cache_dir)
        compile_s = time.perf_counter() - t0
        slow = [d.split("remark:")[-1].strip()[:120] for d in fm.diagnostics
                if "loop path" in d or "materialized" in d]
        rows.append((name + f" (compile {compile_s:.0f} s)", nbytes,
                     *generate(lambda *a: fm(*a), cli.tokens,
                               lambda t: t.float() if t.is_floating_point() else t)))
        for s in slow[:3]:
            print(f"  {name}: slow path: {s}")
        del fm
    ref_tokens = rows[0][2]
    print(f"{'variant':<32}{'ms/token':>10}{'GB/s':>8}{'of bw':>8}  tokens == torch f32")
    for name, nbytes, tokens, ms in rows:
        gbs = n_weights * nbytes / (ms * 1e-3) / 1e9
        same = sum(1 for a, b in zip(tokens, ref_tokens) if a == b)
        print(f"{name:<32}{ms:>10.2f}{gbs:>8.1f}{gbs / bw if bw == bw else float('nan'):>8.0%}"
              f"  {same}/{len(ref_tokens)}")


if __name__ == "__main__":
    main()
