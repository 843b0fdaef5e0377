#!/usr/bin/env python3
"""No error on success: every pipeline over the whole lit input corpus and
the fuzz corpus; a run that prints `error:` must exit non-zero.

Inputs: every split (`// -----`) of every test/**/*.mlir, Inputs/ included,
whatever its size (RUN/CHECK comment lines dropped), and --generated
programs of utils/fuzz_linalg.py (the generator's corpus). Configurations:
every pipeline fp-opt registers, each with its targets --
lowp-auto-mixed-precision (bf16, f16, FP8 and no-16-bit targets),
lowp-pipeline-x86 (avx2, avx512bf16), lowp-pipeline-nvvm, lowp-pipeline-rocdl
and lowp-pipeline-tpu -- and the decision pipeline followed by each lowering.

Each input x configuration runs with -verify-each and must end in one of
  ok        exit 0, no `error:`, output that parses back;
  rejected  a located `file:line:col: error:` and a non-zero exit.
Everything else is a failure, listed with its input: error-exit-0 (the
defect this harness exists for: tools would use a failed compilation's
output), crash (signal, assertion, stack dump, sanitizer report), hang
(--timeout), silent (non-zero exit without an error), unlocated (an error
without a location), verifier (a pass left invalid IR), roundtrip (output
that does not parse back). The classification and batching are
utils/fuzz_mutate.py's (a batch with anything unusual is bisected down to
single inputs).

  check_no_error_on_success.py                        # lit corpus + 200 generated
  check_no_error_on_success.py --generated 0 --only x86,nvvm
  check_no_error_on_success.py --sample 16 --generated 10    # test/Fuzz's slice
  check_no_error_on_success.py --fp-opt build-asan/bin/fp-opt   # sanitized
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_mutate  # noqa: E402
import fuzz_passes  # noqa: E402

AMP = "-lowp-auto-mixed-precision"
PIPELINES = [
    ("amp-sm_90", [f"{AMP}=target=sm_90"]),
    ("amp-sm_70-f16", [f"{AMP}=target=sm_70 policy=f16"]),
    ("amp-sm_90-fp8", [f"{AMP}=target=sm_90 policy=fp8"]),
    ("amp-gfx942-fp8", [f"{AMP}=target=gfx942 policy=fp8"]),
    ("amp-tpu-v5e", [f"{AMP}=target=tpu-v5e"]),
    ("amp-avx2", [f"{AMP}=target=avx2"]),
    ("amp-sapphirerapids", [f"{AMP}=target=sapphirerapids"]),
    ("x86", ["-lowp-pipeline-x86=target=avx2"]),
    ("x86-avx512bf16", ["-lowp-pipeline-x86=target=avx512bf16"]),
    ("nvvm", ["-lowp-pipeline-nvvm=target=sm_90"]),
    ("rocdl", ["-lowp-pipeline-rocdl=target=gfx942"]),
    ("tpu", ["-lowp-pipeline-tpu=target=tpu-v5e"]),
    # Decided, then lowered (what users run).
    ("amp+x86", [f"{AMP}=target=sapphirerapids", "-lowp-pipeline-x86=target=sapphirerapids"]),
    ("amp+nvvm", [f"{AMP}=target=sm_90 policy=fp8", "-lowp-pipeline-nvvm=target=sm_90"]),
    ("amp+rocdl", [f"{AMP}=target=gfx942 policy=fp8", "-lowp-pipeline-rocdl=target=gfx942"]),
    ("amp+tpu", [f"{AMP}=target=tpu-v5e", "-lowp-pipeline-tpu=target=tpu-v5e"]),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fp-opt", default=os.path.join(fuzz_mutate.ROOT, "build", "bin", "fp-opt"))
    ap.add_argument("--generated", type=int, default=200, help="fuzz_linalg programs (seeds 0..N-1)")
    ap.add_argument("--no-corpus", action="store_true", help="generated programs only")
    ap.add_argument("--sample", type=int, default=1,
                    help="every K-th lit split only (CI's slice; 1: the whole corpus)")
    ap.add_argument("--only", default="", help="comma-separated configuration names")
    ap.add_argument("--batch", type=int, default=20, help="inputs per fp-opt run")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per fp-opt run")
    ap.add_argument("--out", default="", help="directory for failing inputs")
    args = ap.parse_args()

    configs = PIPELINES
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {n for n, _ in PIPELINES}
        if unknown:
            ap.error(f"unknown configurations: {', '.join(sorted(unknown))}")
        configs = [c for c in PIPELINES if c[0] in wanted]

    seeds = [] if args.no_corpus else fuzz_mutate.corpus_seeds(max_chars=1 << 30)[::max(args.sample, 1)]
    corpus = len(seeds)
    seeds += fuzz_mutate.generated_seeds(args.generated, 0)
    inputs = [(origin, [], text) for origin, text in seeds]

    runner = fuzz_passes.Runner(args.fp_opt, args.timeout)
    campaign = fuzz_mutate.Campaign(runner, configs, args.out, args.timeout)
    valid, wall = campaign.run_interruptible(inputs, args.batch)
    print(f"\n{len(inputs)} inputs ({corpus} lit splits, {len(inputs) - corpus} generated): "
          f"{campaign.rejected_by_parser()} rejected by the parser or verifier "
          f"(the invalid-input tests), {len(valid)} valid; {len(configs)} configurations, "
          f"{runner.calls} fp-opt runs, {wall:.0f} s")
    return campaign.report("inputs")


if __name__ == "__main__":
    sys.exit(main())
