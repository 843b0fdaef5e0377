"""Prints the PTX of every gpu.binary in an MLIR module (stdin) and, with
--ptxas, assembles each one separately with NVIDIA's assembler: one
gpu.binary per kernel, each a complete PTX module. Exits non-zero when a
module has no PTX or ptxas rejects one."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

parser = argparse.ArgumentParser()
parser.add_argument("--ptxas", help="path of ptxas; assemble every module")
parser.add_argument("--arch", help="ptxas -arch (default: the .target)")
args = parser.parse_args()

# MLIR prints non-printable string bytes as \XX (hex), and \\ and \".
ESCAPE = re.compile(r'\\([0-9A-Fa-f]{2}|\\|")')


def unescape(text):
    return ESCAPE.sub(
        lambda m: m.group(1) if m.group(1) in ('\\', '"')
        else chr(int(m.group(1), 16)), text)


modules = [unescape(m.group(1)) for m in re.finditer(
    r'assembly = "((?:[^"\\]|\\.)*)"', sys.stdin.read())]
if not modules:
    sys.exit("no gpu.binary with PTX assembly in the input")
failed = False
for ptx in modules:
    sys.stdout.write(ptx)
    if not args.ptxas:
        continue
    arch = args.arch or re.search(r"^\.target (\S+)", ptx, re.M).group(1)
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(ptx)
    result = subprocess.run([args.ptxas, "-arch=" + arch, f.name, "-o",
                             os.devnull], capture_output=True, text=True)
    os.unlink(f.name)
    if result.returncode:
        sys.stderr.write(result.stderr)
        failed = True
sys.exit(1 if failed else 0)
