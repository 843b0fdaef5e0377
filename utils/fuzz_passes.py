#!/usr/bin/env python3
"""Runs every fp-opt decision pass and pipeline over programs from
utils/fuzz_linalg.py and reports what breaks.

For each seed and each configuration it runs fp-opt with -verify-each and
flags
  crash        a signal, "LLVM ERROR", an assertion or a stack dump;
  verifier     the pass left invalid IR (fails with -verify-each, passes
               without it);
  silent       a non-zero exit without an `error:` diagnostic;
  error-exit-0 an `error:` diagnostic on a run that exits 0;
  roundtrip    the pass's output does not parse back;
  idempotence  for decision passes and the decision pipeline: running the
               pass on its own output changes it;
  hang         no answer within --timeout seconds.
A pass that rejects a valid program with a located `error:` is counted as
`diagnosed` and its message listed (not a failure, but worth reading).

Programs are checked in batches of --batch (-split-input-file, one fp-opt
run per batch and configuration, one more for the round trip or
idempotence check of the programs that succeeded, one more without
-verify-each for those that were rejected). Errors are attributed to their
program by line; a batch with anything else unusual (a crash, a hang, an
error that cannot be attributed, an error on exit 0, a silent failure, a
verifier failure, a second run that differs) is bisected down to single
programs, classified one at a time. Each failure is reduced by deleting
statements (Program.without) while it still fails the same way. Reduced
reproducers go to --out.

Large campaigns: programs are generated and checked --chunk at a time (a
progress line per chunk; a campaign cut short reports what it ran), and
--all-configs-every K runs the core configurations (every lowering
pipeline on the generated program and the decision pipeline for every
target, CORE) on every program but the other configurations only on every
K-th; the closing table gives each configuration's exact program count.

  fuzz_passes.py --seeds 200                  # seeds 0..199, every config
  fuzz_passes.py --seeds 50 --options 10      # and the option sweep
  fuzz_passes.py --seeds 20 --quick --fp-opt build/bin/fp-opt
  fuzz_passes.py --seeds 10000 --batch 50 --all-configs-every 20 --no-reduce
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_linalg  # noqa: E402

SPLIT = "// -----"

TARGETS = ("sm_90", "gfx942", "tpu-v5e", "avx2", "sm_70")
POLICIES = ("auto", "f16", "bf16", "fp8")

# (name, fp-opt arguments, idempotent?, input): input "raw" is the
# generated program, "amp:<target>" the output of the decision pipeline.
DECISIONS = [
    ("islands", ["-lowp-insert-fp32-islands"]),
    ("infer-f16", ["-lowp-infer-precision=low=f16"]),
    ("infer-bf16", ["-lowp-infer-precision=low=bf16"]),
    ("infer-f16-acc", ["-lowp-infer-precision=low=f16 accumulate=low"]),
    ("infer-bf16-demote", ["-lowp-infer-precision=low=bf16 demote-signatures=true"]),
    ("infer-f16-acc-demote", ["-lowp-infer-precision=low=f16 accumulate=low demote-signatures=true"]),
    ("loss-scaling", ["-lowp-materialize-loss-scaling"]),
    ("fp8-sm90", ["-lowp-select-fp8-formats=target=sm_90"]),
    ("fp8-gfx942", ["-lowp-select-fp8-formats=target=gfx942"]),
] + [(f"amp-{t}-{p}", [f"-lowp-auto-mixed-precision=target={t} policy={p}"])
     for t in TARGETS for p in POLICIES]

# Decision passes composed in orders other than the pipeline's, and the
# lowp folders and canonicalizers after them (output must verify and parse).
COMPOSITIONS = [
    ("infer-then-islands", ["-lowp-infer-precision=low=f16", "-lowp-insert-fp32-islands"]),
    ("fp8-then-infer", ["-lowp-select-fp8-formats=target=sm_90", "-lowp-infer-precision=low=bf16"]),
    ("infer-loss-islands", ["-lowp-infer-precision=low=f16 accumulate=low", "-lowp-materialize-loss-scaling",
                            "-lowp-insert-fp32-islands"]),
    ("amp-retarget", ["-lowp-auto-mixed-precision=target=sm_90 policy=fp8",
                      "-lowp-auto-mixed-precision=target=gfx942 policy=bf16"]),
    ("amp-canonicalize", ["-lowp-auto-mixed-precision=target=sm_90 policy=f16", "-canonicalize", "-cse"]),
    ("amp-fp8-canonicalize", ["-lowp-auto-mixed-precision=target=gfx942 policy=fp8", "-canonicalize"]),
    ("lowered-then-infer", ["-lowp-auto-mixed-precision=target=sm_90", "-convert-lowp-to-linalg",
                            "-lowp-infer-precision=low=bf16"]),
    # The picture of the decisions (reads the IR only; repeats searched in
    # every function).
    ("amp-fp8-picture", ["-lowp-auto-mixed-precision=target=sm_90 policy=fp8",
                         "-lowp-view-precision-graph=output=/dev/null collapse-threshold=0"]),
]

LOWERINGS = [
    ("to-linalg", ["-convert-lowp-to-linalg"]),
    ("x86", ["-lowp-pipeline-x86"]),
    ("x86-avx512bf16", ["-lowp-pipeline-x86=target=avx512bf16"]),
    ("nvvm", ["-lowp-pipeline-nvvm=target=sm_90"]),
    ("rocdl", ["-lowp-pipeline-rocdl=target=gfx942"]),
    ("tpu", ["-lowp-pipeline-tpu=target=tpu-v5e"]),
]
# Lowerings run on the raw program and on the decision pipeline's output
# for these (target, policy) pairs.
LOWERING_INPUTS = [("raw", None), ("amp-avx2-auto", "avx2 auto"), ("amp-sm_90-fp8", "sm_90 fp8"),
                   ("amp-sm_70-f16", "sm_70 f16")]

# Option values, valid and not: each must give a result or a located
# `error:`, never a crash. Run over the first few programs (--options).
OPTION_SWEEP = [
    "-lowp-insert-fp32-islands=low=bf16", "-lowp-insert-fp32-islands=low=f32",
    "-lowp-insert-fp32-islands=low=i8", "-lowp-insert-fp32-islands=low=f8E4M3FN",
    "-lowp-insert-fp32-islands=low=tensor<4xf16>", "-lowp-insert-fp32-islands=target=sm_999",
    "-lowp-insert-fp32-islands=long-reduction-threshold=-7", "-lowp-insert-fp32-islands=long-reduction-threshold=1",
    "-lowp-infer-precision=low=f64", "-lowp-infer-precision=low=i32", "-lowp-infer-precision=low=f8E4M3FN",
    "-lowp-infer-precision=low=f8E5M2 accumulate=low", "-lowp-infer-precision=low=tf32",
    "-lowp-infer-precision=low=f16 accumulate=f16", "-lowp-infer-precision=low=f16 accumulate=bogus",
    "-lowp-infer-precision=low=bf16 accumulate=f64", "-lowp-infer-precision=target=gfx000",
    "-lowp-infer-precision=target=tpu-v2", "-lowp-infer-precision=low=auto target=avx2",
    "-lowp-infer-precision=low=f16 keep-f32=linalg.matmul,arith.addf force-low=linalg.softmax",
    "-lowp-infer-precision=low=f16 keep-f32=nonsense force-low=",
    "-lowp-infer-precision=low=f16 report=/nonexistent/dir/r.json",
    "-lowp-materialize-loss-scaling=mode=static init-scale=0", "-lowp-materialize-loss-scaling=mode=bogus",
    "-lowp-materialize-loss-scaling=policy=fp8", "-lowp-materialize-loss-scaling=policy=f32",
    "-lowp-materialize-loss-scaling=growth-factor=0.5 backoff-factor=2", "-lowp-materialize-loss-scaling=init-scale=-1",
    "-lowp-materialize-loss-scaling=min-scale=10 max-scale=1", "-lowp-materialize-loss-scaling=growth-interval=-3",
    "-lowp-materialize-loss-scaling=check-numerics=true",
    "-lowp-select-fp8-formats", "-lowp-select-fp8-formats=target=sm_70", "-lowp-select-fp8-formats=target=avx2",
    "-lowp-select-fp8-formats=target=gfx950 recipe=range", "-lowp-select-fp8-formats=target=sm_90 recipe=e5m2 margin=200",
    "-lowp-select-fp8-formats=target=sm_90 scaling=delayed amax-history=0",
    "-lowp-select-fp8-formats=target=sm_90 scaling=delayed amax-history=1 amax-compute=most_recent",
    "-lowp-select-fp8-formats=target=sm_90 scaling=current", "-lowp-select-fp8-formats=target=sm_90 first-last-bf16=true",
    "-lowp-select-fp8-formats=target=sm_89 allow-bf16-fallback=true",
    "-lowp-auto-mixed-precision=target=bogus", "-lowp-auto-mixed-precision=policy=bogus",
    "-lowp-auto-mixed-precision=target=sm_90 policy=f32", "-lowp-auto-mixed-precision",
    "-lowp-auto-mixed-precision=target=tpu-v2 policy=fp8", "-lowp-auto-mixed-precision=target=gfx908 policy=bf16",
    "-lowp-auto-mixed-precision=target=znver4 policy=auto", "-lowp-auto-mixed-precision=target=sapphirerapids policy=fp8",
    "-lowp-auto-mixed-precision=target=sm_100 policy=fp8 fp8-scaling=delayed fp8-amax-history=0",
    "-lowp-auto-mixed-precision=target=sm_90 policy=fp8 fp8-recipe=range first-last-bf16=true",
    "-lowp-pipeline-x86=target=bogus", "-lowp-pipeline-x86=mr=0 nr=0", "-lowp-pipeline-x86=mr=1000 nr=1 kc=1 mc=1",
    "-lowp-pipeline-x86=target=sapphirerapids amx=true", "-lowp-pipeline-x86=target=znver4",
]

# What every program goes through under --all-configs-every: every lowering
# pipeline on the program as generated, and the decision pipeline (default
# policy) for every target.
CORE = [f"{n}@raw" for n, _ in LOWERINGS] + [f"amp-{t}-auto" for t in TARGETS]

QUICK_DECISIONS = ["islands", "infer-f16", "infer-bf16-demote", "infer-f16-acc", "loss-scaling",
                   "fp8-sm90", "fp8-gfx942", "amp-sm_90-auto", "amp-gfx942-fp8", "amp-tpu-v5e-bf16",
                   "amp-avx2-f16", "amp-sm_70-auto"]

CRASH_RE = re.compile(r"LLVM ERROR|Assertion .* failed|PLEASE submit a bug report|Stack dump|"
                      r"UNREACHABLE executed|Segmentation fault|"
                      r"ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|runtime error: ")


class Runner:
    def __init__(self, fp_opt, timeout):
        self.fp_opt = fp_opt
        self.timeout = timeout
        self.calls = 0
        # FUZZ_CHILD_PRELOAD: a library preloaded into fp-opt only (not into
        # this interpreter), e.g. the ASan runtime for an uninstrumented
        # fp-opt: its allocator and interceptors catch double and invalid
        # frees, heap overflows inside libc calls, and leaks (LSan).
        self.env = None
        if os.environ.get("FUZZ_CHILD_PRELOAD"):
            self.env = dict(os.environ, LD_PRELOAD=os.environ["FUZZ_CHILD_PRELOAD"])

    def run(self, text, args, split=False, verify_each=True):
        self.calls += 1
        cmd = [self.fp_opt, "-allow-unregistered-dialect", "-verify-each=" + str(verify_each).lower()]
        if split:
            cmd.append("-split-input-file")
        cmd += args + ["-"]
        try:
            p = subprocess.run(cmd, input=text, capture_output=True, text=True, timeout=self.timeout,
                               env=self.env)
        except subprocess.TimeoutExpired:
            return None, "", "timeout"
        return p.returncode, p.stdout, p.stderr


def classify(runner, text, args, idempotent, split=False):
    """(kind, detail, output): kind is None (fine), 'diagnosed' or a failure."""
    rc, out, err = runner.run(text, args, split)
    if rc is None:
        return "hang", "timeout", None
    if rc < 0 or rc >= 128 or CRASH_RE.search(err):
        sig = next((l for l in err.splitlines() if CRASH_RE.search(l)), f"exit {rc}")
        return "crash", sig.strip(), None
    if rc == 0 and "error:" in err:
        # A run that reports an error must not succeed (tools would use the
        # output of a failed compilation).
        msg = next(l for l in err.splitlines() if "error:" in l)
        return "error-exit-0", msg.strip(), None
    if rc != 0:
        if "error:" not in err:
            return "silent", f"exit {rc} without a diagnostic: {err[-300:]}", None
        rc2, out2, _ = runner.run(text, args, split, verify_each=False)
        if rc2 == 0:
            msg = next((l for l in err.splitlines() if "error:" in l), "")
            return "verifier", re.sub(r"^.*?error: ", "", msg), None
        msg = next((l for l in err.splitlines() if "error:" in l), "")
        return "diagnosed", re.sub(r"^.*?error: ", "", msg), None
    # The output must parse back, and a decision pass must be a fixed point.
    rc3, out3, err3 = runner.run(out, [] if not idempotent else args, split)
    if rc3 is None:
        return "hang", "timeout on the second run", None
    if rc3 != 0:
        if not idempotent or CRASH_RE.search(err3) or rc3 < 0:
            msg = next((l for l in err3.splitlines() if "error:" in l or CRASH_RE.search(l)), "")
            return ("roundtrip" if not idempotent else "idempotence"), "second run: " + msg.strip(), None
        msg = next((l for l in err3.splitlines() if "error:" in l), "")
        return "idempotence", "second run fails: " + re.sub(r"^.*?error: ", "", msg), None
    if idempotent and normalize(out3) != normalize(out):
        return "idempotence", first_difference(out, out3), None
    return None, "", out


ERROR_LINE_RE = re.compile(r"^(.*?):(\d+):(\d+): error: ?(.*)$", re.M)
OUTPUT_SPLIT_RE = re.compile(r"^// -----\n", re.M)


def join(texts):
    return f"\n{SPLIT}\n".join(t if t.endswith("\n") else t + "\n" for t in texts)


def chunk_ranges(texts):
    """First and last line (1-based) of each split in join(texts)."""
    ranges, line = [], 1
    for t in texts:
        n = t.count("\n") + (0 if t.endswith("\n") else 1)
        ranges.append((line, line + n))
        line += n + 2  # the separator line and the newline around it
    return ranges


def _split_run(runner, texts, args, verify_each=True):
    """One -split-input-file run over texts: (per-split output or None when
    the split failed, per-split first error message), or None when the run
    is unusual (crash, hang, an error that is not `file:line:col: error:`
    inside a split, an error on exit 0, a failure without an error, output
    splits that do not line up with the errors)."""
    rc, out, err = runner.run(join(texts), args, split=True, verify_each=verify_each)
    if rc is None or rc < 0 or rc >= 128 or CRASH_RE.search(err):
        return None
    errors = ERROR_LINE_RE.findall(err)
    if len(errors) != err.count("error:") or (rc == 0) != (not errors):
        return None
    ranges = chunk_ranges(texts)
    messages = {}
    for _, line, _, msg in errors:
        owner = next((i for i, (a, b) in enumerate(ranges) if a <= int(line) <= b), None)
        if owner is None:
            return None
        messages.setdefault(owner, msg)
    chunks = OUTPUT_SPLIT_RE.split(out)
    if len(chunks) != len(texts):
        return None
    outputs = []
    for i, c in enumerate(chunks):
        failed = not c.strip()
        if failed != (i in messages):
            return None
        outputs.append(None if failed else c)
    return outputs, messages


def classify_batch(runner, texts, args, idempotent):
    """classify() for many programs in a few fp-opt runs: a (kind, detail)
    per program, kind None (fine) or 'diagnosed'; None when anything is
    unusual (the caller then bisects)."""
    first = _split_run(runner, texts, args)
    if first is None:
        return None
    outputs, messages = first
    results = [(None, "")] * len(texts)
    rejected = sorted(messages)
    if rejected:
        # Still rejected without -verify-each: a diagnostic, not invalid IR
        # left by a pass (that is classify()'s 'verifier', found by bisecting).
        second = _split_run(runner, [texts[i] for i in rejected], args, verify_each=False)
        if second is None or any(o is not None for o in second[0]):
            return None
        for i in rejected:
            results[i] = ("diagnosed", messages[i])
    done = [i for i in range(len(texts)) if outputs[i] is not None]
    if done:
        # The outputs parse back; a decision pass is a fixed point.
        third = _split_run(runner, [outputs[i] for i in done], args if idempotent else [])
        if third is None or third[1]:
            return None
        if idempotent and any(normalize(a) != normalize(outputs[i]) for i, a in zip(done, third[0])):
            return None
    return results


def classify_many(runner, texts, args, idempotent):
    """classify() for each program: batched, bisecting a batch with anything
    unusual down to single programs."""
    if len(texts) == 1:
        kind, detail, _ = classify(runner, texts[0], args, idempotent)
        return [(kind, detail)]
    results = classify_batch(runner, texts, args, idempotent)
    if results is not None:
        return results
    mid = len(texts) // 2
    return (classify_many(runner, texts[:mid], args, idempotent) +
            classify_many(runner, texts[mid:], args, idempotent))


def normalize(text):
    return text.strip()


def first_difference(a, b):
    al, bl = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(al, bl)):
        if x != y:
            return f"line {i + 1}: '{x.strip()[:120]}' vs '{y.strip()[:120]}'"
    return f"{len(al)} vs {len(bl)} lines"


def signature(kind, detail):
    # Reduce on the failure kind and the message without its numbers/names.
    return kind, re.sub(r"%\w+|\d+|<[^>]*>", "#", detail)[:100]


def reduce_program(runner, prog, check):
    """Greedy delta reduction: drop statements, results and callees while
    `check(text)` holds."""
    changed = True
    while changed:
        changed = False
        if prog.callees:
            cand = prog.without_callees()
            if check(cand.text()):
                prog, changed = cand, True
        i = len(prog.stmts) - 1
        while i >= 0:
            cand = prog.without(i)
            if cand.stmts and cand.results and all(r in cand.types() for r in cand.results) and check(cand.text()):
                prog, changed = cand, True
            i -= 1
        for j in reversed(range(len(prog.results))):
            if len(prog.results) > 1:
                cand = prog.without_result(j)
                if check(cand.text()):
                    prog, changed = cand, True
    return prog


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fp-opt", default=os.path.join(os.path.dirname(__file__), "..", "build", "bin", "fp-opt"))
    ap.add_argument("--seeds", type=int, default=50, help="how many seeds")
    ap.add_argument("--start", type=int, default=0, help="first seed")
    ap.add_argument("--batch", type=int, default=10, help="programs per fp-opt run")
    ap.add_argument("--chunk", type=int, default=500, help="programs generated and checked at a time")
    ap.add_argument("--all-configs-every", type=int, default=1, metavar="K",
                    help="configurations other than CORE on every K-th program only")
    ap.add_argument("--core-only", action="store_true",
                    help="the CORE configurations only (every lowering, the decision pipeline per target)")
    ap.add_argument("--quick", action="store_true", help="a subset of the configurations, no x86 pipeline")
    ap.add_argument("--only", default="", help="comma-separated configuration names")
    ap.add_argument("--no-reduce", action="store_true")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--out", default="", help="directory for reduced reproducers")
    ap.add_argument("--show-diagnosed", action="store_true")
    ap.add_argument("--options", type=int, default=0,
                    help="also run the option sweep over this many programs")
    args = ap.parse_args()

    configs = [(n, a, True, None) for n, a in DECISIONS]
    configs += [(n, a, False, None) for n, a in COMPOSITIONS if not args.quick]
    for inp, amp in LOWERING_INPUTS:
        for n, a in LOWERINGS:
            if args.quick and n != "to-linalg":
                continue
            configs.append((f"{n}@{inp}", a, False, amp))
    if args.quick:
        configs = [c for c in configs if c[0] in QUICK_DECISIONS or not c[2]]
    if args.only or args.core_only:
        wanted = set(args.only.split(",") if args.only else CORE)
        configs = [c for c in configs if c[0] in wanted]
    for opt in OPTION_SWEEP if args.options else []:
        configs.append((f"option:{opt}", [opt], False, None))

    def runs(name, seed):
        if name.startswith("option:"):
            return seed < args.start + args.options
        return name in CORE or (seed - args.start) % max(args.all_configs_every, 1) == 0

    runner = Runner(args.fp_opt, args.timeout)
    failures = []
    diagnosed = collections.Counter()
    ran = collections.Counter()
    bad = []
    checked = 0
    start = time.time()
    all_seeds = list(range(args.start, args.start + args.seeds))
    try:
        for c0 in range(0, len(all_seeds), max(args.chunk, 1)):
            seeds = all_seeds[c0:c0 + max(args.chunk, 1)]
            programs = {s: fuzz_linalg.generate(s) for s in seeds}
            texts = {s: p.text() for s, p in programs.items()}

            # Every program must verify as generated (one run per batch, then
            # one per program if that fails).
            chunk_bad = []
            for b in range(0, len(seeds), args.batch):
                batch = seeds[b:b + args.batch]
                rc, _, _ = runner.run(join(texts[s] for s in batch), [], split=True)
                for s in batch if rc != 0 else []:
                    rc1, _, err = runner.run(texts[s], [])
                    if rc1 != 0:
                        chunk_bad.append(s)
                        print(f"generator: seed {s} does not verify: {err.splitlines()[0] if err else rc1}")
            bad += chunk_bad
            seeds = [s for s in seeds if s not in chunk_bad]
            amp_cache = {}

            def input_for(seed, amp, seeds=seeds, texts=texts, amp_cache=amp_cache):
                if amp is None:
                    return texts[seed]
                key = (seed, amp)
                if key not in amp_cache:
                    # The whole batch in one run when it goes through.
                    t, p = amp.split()
                    batch = [s for s in seeds[seeds.index(seed):seeds.index(seed) + args.batch]
                             if (s, amp) not in amp_cache]
                    rc, out, _ = runner.run(join(texts[s] for s in batch),
                                            [f"-lowp-auto-mixed-precision=target={t} policy={p}"], split=True)
                    chunks = OUTPUT_SPLIT_RE.split(out) if rc == 0 else []
                    if len(chunks) == len(batch):
                        amp_cache.update({(s, amp): c for s, c in zip(batch, chunks)})
                if key not in amp_cache:
                    t, p = amp.split()
                    rc, out, _ = runner.run(texts[seed], [f"-lowp-auto-mixed-precision=target={t} policy={p}"])
                    amp_cache[key] = out if rc == 0 else None
                return amp_cache[key]

            def record(seed, name, cargs, idem, amp, kind, detail, programs=programs):
                if kind == "diagnosed":
                    diagnosed[(name.split("@")[0], detail[:140])] += 1
                    return
                print(f"FAIL {kind:11} seed {seed:5} {name}: {detail}", flush=True)
                failures.append((seed, name, kind, detail))
                if args.no_reduce or amp is not None:
                    return
                want = signature(kind, detail)

                def check(text):
                    k, d, _ = classify(runner, text, cargs, idem)
                    return k is not None and signature(k, d) == want

                small = reduce_program(runner, programs[seed], check)
                text = small.text()
                print(f"  reduced to {len(small.stmts)} statements:\n" +
                      "\n".join("    " + l for l in text.splitlines()))
                if args.out:
                    os.makedirs(args.out, exist_ok=True)
                    path = os.path.join(args.out, f"{kind}-{name}-{seed}.mlir")
                    with open(path, "w") as f:
                        f.write(f"// fp-opt -allow-unregistered-dialect -verify-each '{' '.join(cargs)}'\n"
                                f"// {kind}: {detail}\n")
                        f.write(text)

            for name, cargs, idem, amp in configs:
                config_seeds = [s for s in seeds if runs(name, s)]
                for b in range(0, len(config_seeds), args.batch):
                    batch = [s for s in config_seeds[b:b + args.batch] if input_for(s, amp) is not None]
                    if not batch:
                        continue
                    results = classify_many(runner, [input_for(s, amp) for s in batch], cargs, idem)
                    ran[name] += len(batch)
                    for s, (kind, detail) in zip(batch, results):
                        if kind is not None:
                            record(s, name, cargs, idem, amp, kind, detail)
            checked += len(seeds)
            print(f"seeds {seeds[0] if seeds else c0}..{all_seeds[min(c0 + args.chunk, len(all_seeds)) - 1]}: "
                  f"{checked} programs checked, {sum(ran.values())} program x configuration runs, "
                  f"{len(failures)} failures, {runner.calls} fp-opt runs, {time.time() - start:.0f} s", flush=True)
    except KeyboardInterrupt:
        print("interrupted: the figures below cover the chunks reported above and part of the next")

    print(f"\n{checked} programs ({len(bad)} rejected by the verifier), {len(configs)} configurations, "
          f"{runner.calls} fp-opt runs, {time.time() - start:.0f} s")
    for name, _, _, _ in configs:
        print(f"  {name:28} {ran[name]:5} programs")
    if diagnosed and args.show_diagnosed:
        print("diagnosed (pass rejected a valid program with an error):")
        for (name, msg), n in diagnosed.most_common():
            print(f"  {n:4} {name}: {msg}")
    kinds = collections.Counter(k for _, _, k, _ in failures)
    print(f"failures: {sum(kinds.values())} " + " ".join(f"{k}={v}" for k, v in sorted(kinds.items())))
    return 1 if failures or bad else 0


if __name__ == "__main__":
    sys.exit(main())
