#!/usr/bin/env python3
"""Turns the output of a program instrumented by `lowp-instrument-calibration`
into FP8 calibration statistics, and writes them back into the IR as
#lowp.stats (through `fp-opt --lowp-apply-calibration`).

  lowp-calibrate.py run.log -o stats.json [--percentile 1.0]
  lowp-calibrate.py run.log -o stats.json --apply model.mlir \
      --fp-opt build/bin/fp-opt --output model.stats.mlir

For every tensor (function, index) the log holds one record per time the
tensor was computed: its amax and a count of non-zero |x| per f32 binade.
Records of the same tensor are merged (amax: max; counts: sum). The
statistics are

  amax     the largest amax seen;
  min      the `percentile`-th percentile of the non-zero |x|: found in the
           binade where the cumulative count (smallest first) reaches it,
           placed inside that binade assuming log-uniform values;
  samples  the number of non-zero elements seen;
  histogram, lowest_binade
           the counts per binade, from the lowest non-empty one
           (binade = f32 exponent field - 127; field 0, the subnormals,
           is binade -127), for `range`'s predicted-error rule.

Only the standard library is used.
"""
import argparse
import json
import re
import subprocess
import sys

RECORD = re.compile(r"^lowp-calibration @(\S+) (\d+) amax (\S+)$")
F32_BIAS = 127
F32_MANTISSA_BITS = 23


def parse_counts(line):
    body = line.strip()
    if not (body.startswith("[") and body.endswith("]")):
        raise ValueError("expected a printed memref, got %r" % line[:60])
    return [int(v) for v in body[1:-1].split(",") if v.strip()]


def read_log(lines):
    """{(function, index): (amax, counts)} merged over all records."""
    tensors = {}
    i = 0
    while i < len(lines):
        m = RECORD.match(lines[i].strip())
        if not m:
            i += 1
            continue
        # printMemrefI64 prints a header line, then the data.
        counts = parse_counts(lines[i + 2])
        key = (m.group(1), int(m.group(2)))
        amax = float(m.group(3))
        if key in tensors:
            old_amax, old_counts = tensors[key]
            amax = max(amax, old_amax)
            counts = [a + b for a, b in zip(old_counts, counts)]
        tensors[key] = (amax, counts)
        i += 3
    return tensors


def binade_floor(exponent_field):
    """Smallest |x| with this f32 exponent field (subnormals: the smallest
    f32 subnormal)."""
    if exponent_field == 0:
        return 2.0 ** (1 - F32_BIAS - F32_MANTISSA_BITS)
    return 2.0 ** (exponent_field - F32_BIAS)


def histogram(counts):
    """The counts from the lowest to the highest non-empty binade."""
    used = [field for field, count in enumerate(counts) if count]
    if not used:
        return {}
    return {"histogram": counts[used[0]:used[-1] + 1],
            "lowest_binade": used[0] - F32_BIAS}


def statistics(amax, counts, percentile, with_histogram=True):
    total = sum(counts)
    if total == 0:
        return {"amax": amax, "min": 0.0, "samples": 0}
    stats = statistics_without_histogram(amax, counts, percentile)
    if with_histogram:
        stats.update(histogram(counts))
    return stats


def statistics_without_histogram(amax, counts, percentile):
    total = sum(counts)
    threshold = total * percentile / 100.0
    seen = 0
    for field, count in enumerate(counts):
        if count and seen + count >= threshold:
            fraction = max(threshold - seen, 0.0) / count
            value = binade_floor(field) * 2.0 ** fraction
            return {"amax": amax, "min": min(value, amax), "samples": total}
        seen += count
    raise AssertionError("unreachable")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", help="output of the instrumented program")
    parser.add_argument("-o", "--stats", required=True,
                        help="JSON statistics to write")
    # 4%: where losing the tail below E4M3's range costs about as much as
    # E5M2's coarser rounding of everything (docs/passes/select-fp8-formats.md).
    parser.add_argument("--percentile", type=float, default=4.0,
                        help="percent of non-zero |x| allowed below min "
                             "(default 4)")
    parser.add_argument("--no-histogram", action="store_true",
                        help="write amax and min only (`range` then decides "
                             "by dynamic range, not by predicted error)")
    parser.add_argument("--apply", metavar="MODEL",
                        help="write the statistics into this MLIR file")
    parser.add_argument("--fp-opt", default="fp-opt",
                        help="fp-opt executable for --apply")
    parser.add_argument("--output", default="-",
                        help="where --apply writes the annotated IR")
    args = parser.parse_args(argv)

    with open(args.log) as f:
        tensors = read_log(f.read().splitlines())
    if not tensors:
        print("error: no lowp-calibration records in %s" % args.log,
              file=sys.stderr)
        return 1
    entries = []
    for (function, index), (amax, counts) in sorted(tensors.items()):
        entry = {"function": function, "index": index}
        entry.update(statistics(amax, counts, args.percentile,
                                 not args.no_histogram))
        entries.append(entry)
    with open(args.stats, "w") as f:
        json.dump({"percentile": args.percentile, "tensors": entries}, f,
                  indent=2)
        f.write("\n")

    if args.apply:
        return subprocess.call([
            args.fp_opt, args.apply,
            "--lowp-apply-calibration=stats=%s" % args.stats,
            "-o", args.output])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
