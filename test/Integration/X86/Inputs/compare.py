"""Compares two printMemrefF32 dumps: max|x - ref| / max|ref| must lie in
(min_rel, max_rel]. Prints the measured error and PASS/FAIL."""
import re
import sys


def values(path):
    text = open(path).read()
    data = text[text.index("data ="):]
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|nan|inf", data)]


ref, low = values(sys.argv[1]), values(sys.argv[2])
min_rel, max_rel = float(sys.argv[3]), float(sys.argv[4])
assert len(ref) == len(low) and ref, "different or empty outputs"
err = max(abs(a - b) for a, b in zip(low, ref)) / max(abs(v) for v in ref)
ok = min_rel < err <= max_rel
print(f"relative error {err:.3e} in ({min_rel:.3e}, {max_rel:.3e}]: "
      f"{'PASS' if ok else 'FAIL'}")
sys.exit(0 if ok else 1)
