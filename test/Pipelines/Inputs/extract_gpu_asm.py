"""Prints the assembly of every gpu.binary in an MLIR module (stdin): PTX
(lowp-pipeline-nvvm) or AMDGCN (lowp-pipeline-rocdl), one module per kernel.
With --ptxas, each PTX module is assembled separately by NVIDIA's assembler
(-arch: --arch, else the module's .target); with --llvm-mc, each AMDGCN
module by LLVM's (-mcpu: --mcpu). Exits non-zero when the input has no
assembly or an assembler rejects a module."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

parser = argparse.ArgumentParser()
parser.add_argument("--ptxas", help="path of ptxas; assemble every module")
parser.add_argument("--arch", help="ptxas -arch (default: the .target)")
parser.add_argument("--llvm-mc", help="path of llvm-mc; assemble AMDGCN")
parser.add_argument("--mcpu", help="llvm-mc -mcpu (gfx942, ...)")
args = parser.parse_args()

# MLIR prints non-printable string bytes as \XX (hex), and \\ and \".
ESCAPE = re.compile(r'\\([0-9A-Fa-f]{2}|\\|")')


def unescape(text):
    return ESCAPE.sub(
        lambda m: m.group(1) if m.group(1) in ('\\', '"')
        else chr(int(m.group(1), 16)), text)


def start_assembler(asm):
    """Starts the requested assembler on one module (None: none asked)."""
    if args.ptxas:
        arch = args.arch or re.search(r"^\.target (\S+)", asm, re.M).group(1)
        with tempfile.NamedTemporaryFile("w", suffix=".ptx",
                                         delete=False) as f:
            f.write(asm)
        return subprocess.Popen([args.ptxas, "-arch=" + arch, f.name, "-o",
                                 os.devnull], stderr=subprocess.PIPE,
                                text=True), f.name
    if args.llvm_mc:
        process = subprocess.Popen(
            [args.llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + args.mcpu,
             "-filetype=obj", "-o", os.devnull], stdin=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        process.stdin.write(asm)
        process.stdin.close()
        return process, None
    return None


modules = [unescape(m.group(1)) for m in re.finditer(
    r'assembly = "((?:[^"\\]|\\.)*)"', sys.stdin.read())]
if not modules:
    sys.exit("no gpu.binary with assembly in the input")
failed = False


def finish(process, path):
    global failed
    error = process.stderr.read()
    if process.wait():
        sys.stderr.write(error or "rejected\n")
        failed = True
    if path:
        os.unlink(path)


# The modules are independent: a few assemblers run at once.
running = []
for asm in modules:
    sys.stdout.write(asm)
    started = start_assembler(asm)
    if started:
        running.append(started)
    if len(running) >= 8:
        finish(*running.pop(0))
for started in running:
    finish(*started)
sys.exit(1 if failed else 0)
