"""Checks the accuracy lines of approximate-math.mlir against stated bounds.

Input lines: `NAME ( max_ulp, max_abs, max_rel )`. Arguments: the output file,
then NAME=ULP:ABS:REL bounds (0: that measure is not bounded). Prints
`PASS NAME ...` or `FAIL NAME ...` per bound and `PASS` at the end when
all hold; exits 1 otherwise (a missing NAME or a NaN measure fails).
"""
import math
import re
import sys


def main():
    measured = {}
    with open(sys.argv[1]) as f:
        for line in f:
            m = re.match(r"^(\w+) \( ([^,]+), ([^,]+), ([^,)]+) \)$", line.strip())
            if m:
                measured[m.group(1)] = [float(m.group(i)) for i in (2, 3, 4)]
    ok = True
    for arg in sys.argv[2:]:
        name, bounds = arg.split("=")
        bounds = [float(b) for b in bounds.split(":")]
        got = measured.get(name)
        good = got is not None and all(
            not math.isnan(g) and (b == 0 or g <= b) for g, b in zip(got, bounds))
        ok &= good
        print(f"{'PASS' if good else 'FAIL'} {name} measured (ulp, abs, rel) = "
              f"{got} bounds {bounds}")
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


main()
