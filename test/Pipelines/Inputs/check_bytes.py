"""Reads a decision report (JSON) and checks its tensor bytes.

Usage: check_bytes.py REPORT MAX_RATIO [--matrix-format F]
Prints the ratio bytes_after.total / bytes_before.total and PASS when it is
at most MAX_RATIO (and, with --matrix-format, when some matrix op reads F
operands: the report was measured after FP8 selection); FAIL otherwise.
"""
import argparse
import json
import sys

parser = argparse.ArgumentParser()
parser.add_argument("report")
parser.add_argument("max_ratio", type=float)
parser.add_argument("--matrix-format")
args = parser.parse_args()
report = json.load(open(args.report))
before, after = report["bytes_before"], report["bytes_after"]
# The total is the sum of its parts.
for b in (before, after):
    assert b["total"] == (b["arguments"] + b["results"] + b["intermediates"] +
                          b["conversions"]), b
ratio = after["total"] / before["total"]
ok = ratio <= args.max_ratio
print(f"bytes {before['total']} -> {after['total']}: ratio {ratio:.3f} "
      f"(bound {args.max_ratio}); conversions fused "
      f"{after['conversions_fused']}, materialized "
      f"{after['conversions_materialized']}")
if args.matrix_format:
    formats = report["matrix_inputs"]
    print("matrix ops by input format: " +
          ", ".join(f"{k}={v}" for k, v in sorted(formats.items())))
    ok &= formats.get(args.matrix_format, 0) > 0
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
