#!/usr/bin/env python3
"""Where a training step's time goes, per aten op: the step of bench/train's
model exported with every computing op in a private function of its own
(op<N>__<module path>__<aten op>, called no_inline), compiled by fp-opt,
called --calls times under ``perf record``; prints the top ops by share of
the samples in the compiled code, and the shares per aten op kind
(bench/perf_report.py). Fusion across ops is lost in this
form, so the split step is slower than the real one (printed as well):
the shares say where to look.

With --lines the step is compiled whole, as fpopt.torch.compile_training_step
does (fused, transposes folded into the contractions, parameters written
in place), with line tables into its decided module (``line_tables=True``):
the samples are summed per line of that module, each printed with its op.

  /usr/bin/python3 bench/train/profile.py MODEL [--policy f32] [--calls 5]
      [--batch 32] [--optimizer sgd|adamw] [--target znver4] [--top 10]
      [--lines]

MODEL: one of bench/train/run.py's models. Needs perf (Debian's linux-perf).
"""
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402  (bench/train/run.py: build(); the package on sys.path)
sys.path.insert(0, os.path.join(HERE, ".."))
from perf_report import (SPLIT_X86_OPTIONS, print_lines, print_shares,  # noqa: E402
                         profile_arguments, profile_lines, profile_ops)
import fpopt  # noqa: E402
import fpopt.runtime  # noqa: E402
from fpopt.torch import _to_numpy  # noqa: E402
from fpopt.torch.aten_to_linalg import import_traced  # noqa: E402
from fpopt.torch.training import Optimizer, trace_training_step  # noqa: E402


def main():
    ap = profile_arguments(__doc__, policy="f32", calls=5, batch=32)
    ap.add_argument("--optimizer", choices=("sgd", "adamw"), default="sgd")
    ap.add_argument("--lines", action="store_true")
    cli = ap.parse_args()
    fpopt.runtime.retain_freed_memory()
    target = cli.target or fpopt.runtime.host_target()[0]
    module, loss, batch = run.build(cli.model, cli.batch)
    x, t = batch()
    opt = Optimizer(cli.optimizer, lr=1e-2, momentum=0.9 if cli.optimizer == "sgd" else 0.0,
                    weight_decay=1e-2 if cli.optimizer == "adamw" else 0.0)
    traced = trace_training_step(module, loss, (x,), (t,), opt)
    text, _ = import_traced(traced, "arguments", type(module).__name__, function="step",
                            split=not cli.lines)
    if cli.lines:
        # compile_training_step's options, with line tables.
        fn = fpopt.compile(text, target=target, policy=cli.policy, cache_dir=cli.cache_dir,
                           x86_options="update-in-place=true", line_tables=True)
    else:
        fn = fpopt.compile(text, target=target, policy=cli.policy, cache_dir=cli.cache_dir,
                           x86_options=SPLIT_X86_OPTIONS)
    args = [_to_numpy(x), _to_numpy(t)] + [_to_numpy(v.detach()) for v in traced.state_values]
    args = [a.astype(np.float32) if fn.arguments[i].element == "f32" and a.dtype == np.float64
            else a for i, a in enumerate(args)]
    fn(*args)
    t0 = time.perf_counter()
    fn(*args)
    split_ms = (time.perf_counter() - t0) * 1e3
    if cli.lines:
        source = fn.line_table_source
        per_line, other = profile_lines(lambda: fn(*args), cli.calls, source)
        print(f"{cli.model} training step ({cli.optimizer}): policy={cli.policy} "
              f"target={target} batch={cli.batch}; {split_ms:.1f} ms per call")
        print_lines(per_line, other, source, cli.top)
        return
    per_op, other = profile_ops(lambda: fn(*args), cli.calls, fn.so_path)
    print(f"{cli.model} training step ({cli.optimizer}): policy={cli.policy} target={target} "
          f"batch={cli.batch}; split step {split_ms:.1f} ms per call; {len(per_op)} ops "
          "sampled")
    print_shares(per_op, other, cli.top)


if __name__ == "__main__":
    main()
