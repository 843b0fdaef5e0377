#!/usr/bin/env python3
"""Where a whole model's time goes, per aten op: the model exported with
every computing op in a private function of its own
(``fpopt.torch.export(..., split=True)``: op<N>__<module path>__<aten op>,
called no_inline), compiled by fp-opt, called --calls times under
``perf record``; prints the top ops by share of the samples in the compiled
code, and the shares per aten op kind. Fusion across ops is lost in this
form, so the split model is slower than the real one (printed as well);
the shares say where to look.

With --lines the model is compiled whole, as fpopt.torch.compile does
(fused, repeated loops outlined, weights prepacked), with line tables into
its decided module (``line_tables=True``): the samples are summed per line
of that module, each printed with its op (a kernel's loops, or a fused
elementwise chain, carry the line of the op they come from).

With --bf16-model (and --lines) the model converted with
``.to(torch.bfloat16)`` is exported on bf16 tensors and profiled instead,
as bench/models/bf16_models.py compiles it. With --threads N (and
--lines) the model is compiled with threads=N and each line's share says
how much of it ran on the worker threads: a line at 0% ran on the calling
thread alone, which a second thread does not speed up.

  /usr/bin/python3 bench/models/profile.py MODEL [--policy auto] [--calls 20]
      [--batch 1] [--target znver4] [--top 10]
      [--lines [--bf16-model] [--threads N]]

MODEL: a torchvision name, bert_base or gpt2_small (run.py's models).
Needs perf (Debian's linux-perf).
"""
import collections
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
import run  # noqa: E402  (build(), the package on sys.path)
from perf_report import (SPLIT_X86_OPTIONS, print_lines, print_shares,  # noqa: E402
                         profile_arguments, profile_lines, profile_ops)
import fpopt  # noqa: E402
import fpopt.runtime  # noqa: E402
import fpopt.torch  # noqa: E402
from fpopt.torch import _export, _to_numpy  # noqa: E402


def main():
    ap = profile_arguments(__doc__, policy="auto", calls=20, batch=1)
    ap.add_argument("--lines", action="store_true")
    ap.add_argument("--bf16-model", action="store_true")
    ap.add_argument("--threads", type=int, default=1)
    cli = ap.parse_args()
    if (cli.bf16_model or cli.threads > 1) and not cli.lines:
        ap.error("--bf16-model and --threads profile the whole model: they need --lines")
    target = cli.target or fpopt.runtime.host_target()[0]
    m, x = run.build(cli.model, cli.batch)
    m.eval()
    if cli.bf16_model:
        m, x = run.bf16_copy(cli.model, cli.batch, m), x.bfloat16()
    if cli.lines:
        compiled = fpopt.torch.compile(m, x, target=target, policy=cli.policy, prepack=True,
                                       threads=cli.threads, cache_dir=cli.cache_dir,
                                       line_tables=True)
        with torch.no_grad():
            compiled(x)
            t0 = time.perf_counter()
            compiled(x)
            ms = (time.perf_counter() - t0) * 1e3
            source = compiled.function.line_table_source
            workers = collections.Counter() if cli.threads > 1 else None
            per_line, other = profile_lines(lambda: compiled(x), cli.calls, source, workers)
        print(f"{cli.model}: policy={cli.policy} target={target} batch={cli.batch} "
              f"threads={cli.threads}; {ms:.1f} ms per call")
        print_lines(per_line, other, source, cli.top, workers)
        return
    text, names = _export(m, (x,), "arguments", split=True)
    fn = fpopt.compile(text, target=target, policy=cli.policy, cache_dir=cli.cache_dir,
                       x86_options=SPLIT_X86_OPTIONS)
    state = dict(m.named_parameters())
    state.update(dict(m.named_buffers()))
    weights = {}
    for i, name in enumerate(names[1:], start=1):
        value = state[name].detach()
        if fn.arguments[i].element == "bf16":
            value = value.to(torch.bfloat16)
        weights[i] = _to_numpy(value)
    call = fn.bind(weights)
    xa = _to_numpy(x)
    call(xa)
    t0 = time.perf_counter()
    call(xa)
    split_ms = (time.perf_counter() - t0) * 1e3
    per_op, other = profile_ops(lambda: call(xa), cli.calls, fn.so_path)
    print(f"{cli.model}: policy={cli.policy} target={target} batch={cli.batch}; split model "
          f"{split_ms:.1f} ms per call; {len(per_op)} ops sampled")
    print_shares(per_op, other, cli.top)


if __name__ == "__main__":
    main()
