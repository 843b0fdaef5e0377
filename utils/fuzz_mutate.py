#!/usr/bin/env python3
"""Mutation fuzzer: damaged IR text through every fp-opt decision pass and
pipeline.

Seeds are the lit corpus (test/**/*.mlir split on `// -----`) and programs
of utils/fuzz_linalg.py. Each mutant applies 1-3 random edits to a seed:
token deletion or duplication, element-type swaps (f32<->bf16, f16, f64,
i32, i1...), shape swaps (4<->5, static<->`?`, a dim dropped or added),
attribute corruption (numbers, affine-map dims, iterator kinds, entries
dropped), truncation, swapped operands, SSA-name substitution, bracket
damage and line deletion or duplication.

The only acceptable outcomes, for each mutant and configuration, are
  ok        success, output that verifies (-verify-each) and parses back;
  rejected  a located `file:line:col: error:` and a non-zero exit.
Anything else is a failure (fuzz_passes.classify's kinds): crash (a signal,
an assertion, "PLEASE submit a bug report"), hang (over --timeout seconds),
error-exit-0 (an `error:` on a run that exits 0), unlocated (an error
without a location), silent (a non-zero exit without an error), verifier
(a pass left invalid IR) and roundtrip (output that does not parse back).

A mutant that the parser or verifier rejects is rejected the same way under
every configuration (parsing comes before any pass), so it is checked once
with no pass; mutants that still verify go through every configuration.
Mutants are checked in batches (-split-input-file, errors are attributed to
their split by line); a batch with anything unusual is bisected down to
single mutants, and failing mutants are written to --out.

  fuzz_mutate.py --mutants 2000                     # lit corpus + generated seeds
  fuzz_mutate.py --mutants 200 --quick --fp-opt build/bin/fp-opt
  fuzz_mutate.py --unmutated                        # the corpus itself, unchanged
"""

import argparse
import collections
import glob
import os
import random
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_linalg  # noqa: E402
import fuzz_passes  # noqa: E402
from fuzz_passes import SPLIT  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

TOKEN_RE = re.compile(r'"(?:[^"\\]|\\.)*"|[%@^#!]?[\w.$-]+|->|::|\S')
TYPE_SWAPS = {"f32": ["bf16", "f16", "f64", "i32"], "bf16": ["f32", "f16"], "f16": ["f32", "bf16", "f8E4M3FN"],
              "f64": ["f32", "i64"], "i32": ["i64", "f32", "i1"], "i1": ["i8", "i32"], "index": ["i64", "f32"],
              "i64": ["index", "i32"], "f8E4M3FN": ["f8E5M2", "f16"], "f8E5M2": ["f8E4M3FN"]}
TYPE_RE = re.compile(r"\b(f32|bf16|f16|f64|i32|i1|index|i64|f8E4M3FN|f8E5M2)\b")
DIM_RE = re.compile(r"(?<=[<x])(\d+|\?)(?=x)")
NUMBER_RE = re.compile(r"(?<![\w%@#])-?\d+(\.\d+)?(e[+-]?\d+)?\b")
AFFINE_DIM_RE = re.compile(r"\bd(\d)\b")
ATTR_WORDS = {"parallel": "reduction", "reduction": "parallel", "true": "false", "false": "true",
              "f32": "bf16", "private": "public", "sm_90": "sm_70", "gfx942": "gfx000"}
SSA_RE = re.compile(r"%[\w.$-]+(?:#\d+)?")
BRACKETS = "()[]{}<>"


def corpus_seeds(max_chars):
    """Splits of every lit test, without RUN/CHECK comment lines."""
    seeds = []
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"), recursive=True)):
        with open(path) as f:
            text = f.read()
        for chunk in re.split(r"^// -----\s*$", text, flags=re.M):
            body = "\n".join(l for l in chunk.splitlines() if not l.lstrip().startswith("//"))
            if body.strip() and len(body) <= max_chars:
                seeds.append((os.path.relpath(path, ROOT), body.strip() + "\n"))
    return seeds


def generated_seeds(count, start):
    out = []
    for s in range(start, start + count):
        try:
            out.append((f"fuzz_linalg:{s}", fuzz_linalg.generate(s).text()))
        except fuzz_linalg.Unsupported:
            pass
    return out


def _tokens(text):
    return [(m.start(), m.end()) for m in TOKEN_RE.finditer(text)]


def _pick(rng, matches):
    return rng.choice(matches) if matches else None


def mutate_once(rng, text):
    """One random edit; returns (name, new text) or None when it does not apply."""
    kind = rng.choice(["delete-token", "duplicate-token", "type-swap", "type-swap-all", "shape-swap",
                       "retype", "retype", "retype", "attribute", "attribute", "truncate", "swap-operands",
                       "swap-operands", "ssa-substitute", "bracket", "delete-line", "duplicate-line", "number"])
    if kind == "retype":
        # One tensor/memref/vector type changed everywhere it is written
        # (a dim or the element type): often still valid IR.
        ms = list(re.finditer(r"\b(tensor|memref|vector)<[^<>]*>", text))
        m = _pick(rng, ms)
        if not m:
            return None
        old = m.group()
        if rng.random() < 0.5 and DIM_RE.search(old):
            d = _pick(rng, list(DIM_RE.finditer(old)))
            v = d.group(1)
            nv = rng.choice(["?", "1"]) if v != "?" else str(rng.choice([1, 4, 5]))
            if v == "4" or v == "5":
                nv = rng.choice([nv, "5" if v == "4" else "4"])
            new = old[:d.start()] + nv + old[d.end():]
        else:
            t = _pick(rng, list(TYPE_RE.finditer(old)))
            if not t:
                return None
            new = old[:t.start()] + rng.choice(TYPE_SWAPS[t.group(1)]) + old[t.end():]
        return kind, text.replace(old, new)
    if kind in ("delete-token", "duplicate-token"):
        t = _pick(rng, _tokens(text))
        if not t:
            return None
        s, e = t
        return kind, text[:s] + (text[s:e] + " " + text[s:e] if kind == "duplicate-token" else "") + text[e:]
    if kind in ("type-swap", "type-swap-all"):
        ms = list(TYPE_RE.finditer(text))
        m = _pick(rng, ms)
        if not m:
            return None
        new = rng.choice(TYPE_SWAPS[m.group(1)])
        if kind == "type-swap-all":
            return kind, re.sub(r"\b%s\b" % m.group(1), new, text)
        return kind, text[:m.start()] + new + text[m.end():]
    if kind == "shape-swap":
        m = _pick(rng, list(DIM_RE.finditer(text)))
        if not m:
            return None
        d = m.group(1)
        choice = rng.random()
        if choice < 0.15:  # drop the dim
            return kind, text[:m.start()] + text[m.end() + 1:]
        if choice < 0.3:  # add a dim
            return kind, text[:m.start()] + d + "x" + text[m.start():]
        if d == "?":
            new = str(rng.choice([1, 4, 5]))
        elif rng.random() < 0.25:
            new = "?"
        else:
            new = str(rng.choice([int(d) + 1, max(int(d) - 1, 0), 0, 1, int(d) * 2, 5 if d == "4" else 4]))
        return kind, text[:m.start()] + new + text[m.end():]
    if kind == "attribute":
        choice = rng.random()
        if choice < 0.35:
            m = _pick(rng, list(AFFINE_DIM_RE.finditer(text)))
            if not m:
                return None
            return kind, text[:m.start()] + "d" + str(rng.choice([0, 1, 2, 3, 7])) + text[m.end():]
        if choice < 0.7:
            words = [m for m in re.finditer(r"\b(%s)\b" % "|".join(ATTR_WORDS), text)]
            m = _pick(rng, words)
            if not m:
                return None
            return kind, text[:m.start()] + ATTR_WORDS[m.group(1)] + text[m.end():]
        # Drop one `name = value` entry of an attribute dictionary.
        ms = list(re.finditer(r"[\w.]+\s*=\s*(\"[^\"]*\"|\[[^\]]*\]|[^,{}\n]+)\s*,?\s*", text))
        m = _pick(rng, ms)
        if not m:
            return None
        return kind, text[:m.start()] + text[m.end():]
    if kind == "number":
        m = _pick(rng, list(NUMBER_RE.finditer(text)))
        if not m:
            return None
        new = rng.choice(["0", "-1", "1", "2147483648", "1.0e+39", "nan", "3", "-0.0", "65536"])
        return kind, text[:m.start()] + new + text[m.end():]
    if kind == "truncate":
        if len(text) < 2:
            return None
        return kind, text[:rng.randrange(1, len(text))]
    if kind == "swap-operands":
        lines = text.splitlines(keepends=True)
        cands = [i for i, l in enumerate(lines) if len(SSA_RE.findall(l.split("=", 1)[-1])) >= 2]
        if not cands:
            return None
        i = rng.choice(cands)
        head, sep, tail = lines[i].partition("=") if "=" in lines[i] else ("", "", lines[i])
        uses = list(SSA_RE.finditer(tail))
        a, b = rng.sample(range(len(uses)), 2)
        a, b = min(a, b), max(a, b)
        ua, ub = uses[a], uses[b]
        tail = tail[:ua.start()] + ub.group() + tail[ua.end():ub.start()] + ua.group() + tail[ub.end():]
        lines[i] = head + sep + tail
        return kind, "".join(lines)
    if kind == "ssa-substitute":
        ms = list(SSA_RE.finditer(text))
        if len(ms) < 2:
            return None
        m = rng.choice(ms)
        other = rng.choice(ms).group()
        return kind, text[:m.start()] + other + text[m.end():]
    if kind == "bracket":
        ms = [i for i, c in enumerate(text) if c in BRACKETS]
        if not ms:
            return None
        i = rng.choice(ms)
        r = rng.random()
        if r < 0.5:
            return kind, text[:i] + text[i + 1:]
        if r < 0.75:
            return kind, text[:i] + rng.choice(BRACKETS) + text[i + 1:]
        return kind, text[:i] + text[i] + text[i:]
    if kind in ("delete-line", "duplicate-line"):
        lines = text.splitlines(keepends=True)
        if not lines:
            return None
        i = rng.randrange(len(lines))
        if kind == "delete-line":
            del lines[i]
        else:
            lines.insert(i, lines[i])
        return kind, "".join(lines)
    return None


def mutate(rng, text):
    edits = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        r = None
        for _attempt in range(5):
            r = mutate_once(rng, text)
            if r and r[1] != text:
                break
        if r:
            edits.append(r[0])
            text = r[1]
    # A split marker inside a mutant would split it in two.
    return edits, text.replace(SPLIT, "//")


# Crashes inside upstream MLIR that no fp-opt code can meet first, matched on
# the stack trace: counted as `known-upstream` (and listed), not as failures.
KNOWN_UPSTREAM = [
    # linalg.transpose/reduce/broadcast's custom parser sets the attribute
    # parsed by DenseI64ArrayAttr::parse without checking it: a malformed
    # `permutation = [0, nan]` reports a located error, then dereferences null.
    ("linalg-dense-array-parse", re.compile(r"NamedAttrList::set.*\n(.*\n){0,3}.*linalg::\w+Op::parse")),
    # linalg.broadcast's verifier indexes the input shape with `dimensions`
    # before checking they are distinct: `dimensions = [0, 1, 2, 0]` reads
    # out of bounds.
    ("linalg-broadcast-verify", re.compile(r"linalg::BroadcastOp::verify\(\)")),
]

ERROR_LINE_RE = re.compile(r"^(.*?):(\d+):(\d+): error:", re.M)
chunk_ranges = fuzz_passes.chunk_ranges
join = fuzz_passes.join


class Campaign:
    def __init__(self, runner, configs, out_dir, timeout):
        self.runner = runner
        self.configs = configs
        self.out_dir = out_dir
        self.timeout = timeout
        self.outcomes = collections.Counter()  # (config or "parse", outcome) -> count
        self.failures = []
        self.known = collections.Counter()

    def fail(self, mutant, config, cargs, kind, detail):
        origin, edits, text = mutant
        if kind == "crash":
            _, _, err = self.runner.run(text, cargs)
            err = re.sub(r"0x[0-9a-f]+ ", "", err)
            known = next((n for n, r in KNOWN_UPSTREAM if r.search(err)), None)
            if known:
                self.outcomes[(config, "known-upstream")] += 1
                self.known[known] += 1
                return
        print(f"FAIL {kind:12} {config}: {detail[:200]}  [{origin}; {','.join(edits)}]", flush=True)
        self.failures.append((kind, config, detail))
        if self.out_dir:
            os.makedirs(self.out_dir, exist_ok=True)
            path = os.path.join(self.out_dir, f"{kind}-{config}-{len(self.failures)}.mlir")
            with open(path, "w") as f:
                f.write(f"// fp-opt -allow-unregistered-dialect -verify-each {' '.join(cargs)}\n")
                f.write(f"// {kind}: {detail[:300]}\n// from {origin}, edits {','.join(edits)}\n")
                f.write(text)

    def classify_one(self, text, cargs):
        """fuzz_passes.classify plus the located-error rule; (kind, detail)."""
        kind, detail, _ = fuzz_passes.classify(self.runner, text, cargs, False)
        if kind == "diagnosed":
            rc, _, err = self.runner.run(text, cargs)
            if rc is not None and not ERROR_LINE_RE.search(err):
                return "unlocated", next((l for l in err.splitlines() if "error:" in l), err[-200:])
            return "rejected", detail
        return kind or "ok", detail

    def batch(self, mutants, config, cargs):
        """Runs mutants under one configuration; returns the indices that
        succeeded (and counts every outcome)."""
        texts = [m[2] for m in mutants]
        rc, out, err = self.runner.run(join(texts), cargs, split=True)
        crashed = rc is None or rc < 0 or rc >= 128 or fuzz_passes.CRASH_RE.search(err)
        errors = ERROR_LINE_RE.findall(err)
        all_located = len(errors) == err.count("error:")
        clean = not crashed and all_located and (rc == 0) == (not errors)
        if clean:
            ranges = chunk_ranges(texts)
            owners = [[i for i, (a, b) in enumerate(ranges) if a <= int(line) <= b] for _, line, _ in errors]
            bad = {i for o in owners for i in o}
            good = [i for i in range(len(texts)) if i not in bad]
            # Every error belongs to a split, and every other split printed
            # its module (a split that failed without an error prints none).
            if all(owners) and len(re.findall(r"^module\b", out, re.M)) == len(good):
                ok = True
                if cargs and good:
                    # Successful splits must parse back (checked in one run).
                    ok = self.runner.run(out, [], split=True)[0] == 0
                if ok:
                    for i in range(len(texts)):
                        self.outcomes[(config, "rejected" if i in bad else "ok")] += 1
                    return good
        if len(mutants) > 1:
            # Something unusual: bisect (a rare crash costs a few runs, not
            # one run per mutant of the batch).
            mid = len(mutants) // 2
            return self.batch(mutants[:mid], config, cargs) + \
                [mid + i for i in self.batch(mutants[mid:], config, cargs)]
        kind, detail = self.classify_one(mutants[0][2], cargs)
        self.outcomes[(config, kind)] += 1
        if kind not in ("ok", "rejected"):
            self.fail(mutants[0], config, cargs, kind, detail)
        return [0] if kind == "ok" else []

    def progress(self, config, start):
        counts = " ".join(f"{k}={v}" for (c, k), v in sorted(self.outcomes.items()) if c == config)
        print(f"  {config:24} {counts}  ({time.time() - start:.0f} s)", flush=True)

    def run(self, mutants, batch_size, valid):
        """Fills `valid` as it goes (a campaign cut short still reports)."""
        start = time.time()
        for b in range(0, len(mutants), batch_size):
            chunk = mutants[b:b + batch_size]
            valid += [chunk[i] for i in self.batch(chunk, "parse", [])]
        self.progress("parse", start)
        for name, cargs in self.configs:
            for b in range(0, len(valid), batch_size):
                self.batch(valid[b:b + batch_size], name, cargs)
            self.progress(name, start)

    def run_interruptible(self, mutants, batch_size):
        """run(), cut short by Ctrl-C; (inputs that parsed, seconds taken)."""
        start = time.time()
        valid = []
        try:
            self.run(mutants, batch_size, valid)
        except KeyboardInterrupt:
            print("interrupted: the figures below cover the configurations listed above")
        return valid, time.time() - start

    def rejected_by_parser(self):
        return self.outcomes.get(("parse", "rejected"), 0)

    def report(self, noun):
        """Prints the outcomes over every configuration (`noun`: what the
        inputs are called); the exit status, 1 when anything failed."""
        totals = collections.Counter()
        for (c, k), v in self.outcomes.items():
            if c != "parse":
                totals[k] += v
        print(f"outcomes over valid {noun} x configurations: " +
              " ".join(f"{k}={v}" for k, v in sorted(totals.items())))
        for name, n in self.known.items():
            print(f"known upstream crash {name}: {n} {noun}")
        kinds = collections.Counter(k for k, _, _ in self.failures)
        print(f"failures: {sum(kinds.values())} " + " ".join(f"{k}={v}" for k, v in sorted(kinds.items())))
        return 1 if self.failures else 0


QUICK = ["islands", "infer-bf16-demote", "infer-f16-acc", "loss-scaling", "fp8-sm90", "amp-sm_90-auto",
         "amp-gfx942-fp8", "amp-avx2-auto", "to-linalg"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fp-opt", default=os.path.join(ROOT, "build", "bin", "fp-opt"))
    ap.add_argument("--mutants", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0, help="random seed of the mutator")
    ap.add_argument("--generated", type=int, default=200, help="fuzz_linalg programs among the seeds")
    ap.add_argument("--no-corpus", action="store_true", help="generated seeds only")
    ap.add_argument("--max-seed-chars", type=int, default=6000)
    ap.add_argument("--batch", type=int, default=25, help="mutants per fp-opt run")
    ap.add_argument("--timeout", type=float, default=30, help="seconds per fp-opt run")
    ap.add_argument("--quick", action="store_true", help="a few decision passes and convert-lowp-to-linalg")
    ap.add_argument("--only", default="", help="comma-separated configuration names")
    ap.add_argument("--out", default="", help="directory for failing mutants")
    ap.add_argument("--unmutated", action="store_true",
                    help="every seed as it is, once (the corpus check: no error on success)")
    args = ap.parse_args()

    configs = [(n, a) for n, a in fuzz_passes.DECISIONS] + [(n, a) for n, a in fuzz_passes.LOWERINGS]
    if args.quick:
        configs = [c for c in configs if c[0] in QUICK]
    if args.only:
        configs = [c for c in configs if c[0] in set(args.only.split(","))]

    seeds = ([] if args.no_corpus else corpus_seeds(args.max_seed_chars)) + \
        generated_seeds(args.generated, 0)
    rng = random.Random(args.seed)
    mutants = [(origin, [], text) for origin, text in seeds] if args.unmutated else []
    for _ in range(0 if args.unmutated else args.mutants):
        origin, text = rng.choice(seeds)
        edits, new = mutate(rng, text)
        mutants.append((origin, edits, new))

    runner = fuzz_passes.Runner(args.fp_opt, args.timeout)
    campaign = Campaign(runner, configs, args.out, args.timeout)
    valid, wall = campaign.run_interruptible(mutants, args.batch)
    print(f"\n{len(mutants)} mutants of {len(seeds)} seeds: {campaign.rejected_by_parser()} rejected by the parser or "
          f"verifier, {len(valid)} still valid; {len(configs)} configurations, {runner.calls} fp-opt runs, "
          f"{wall:.0f} s")
    return campaign.report("mutants")


if __name__ == "__main__":
    sys.exit(main())
