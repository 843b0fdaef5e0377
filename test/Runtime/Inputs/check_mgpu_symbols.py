"""Checks that a runtime library defines every mgpu* function an LLVM IR
module (stdin) declares. Usage: check_mgpu_symbols.py LLVM-NM LIBRARY.
Prints the declarations it found (sorted) and OK, or the missing ones and
exits 1."""
import re
import subprocess
import sys

nm, library = sys.argv[1], sys.argv[2]
declared = sorted(set(re.findall(r"^declare .*@(mgpu\w+)\(", sys.stdin.read(),
                                 re.M)))
defined = set()
for line in subprocess.run([nm, "-D", "--defined-only", library],
                           capture_output=True, text=True,
                           check=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[1] == "T":
        defined.add(parts[2])
missing = [name for name in declared if name not in defined]
for name in declared:
    print("declared", name)
if not declared:
    sys.exit("no mgpu* declaration in the input")
if missing:
    sys.exit("missing in %s: %s" % (library, ", ".join(missing)))
print("OK")
