"""Prints the assembly of every gpu.binary in an MLIR module (stdin): PTX
(lowp-pipeline-nvvm) or AMDGCN (lowp-pipeline-rocdl), one module per kernel.
With --ptxas, each PTX module is assembled separately by NVIDIA's assembler
(-arch: --arch, else the module's .target); with --llvm-mc, each AMDGCN
module by LLVM's (-mcpu: --mcpu). Exits non-zero when the input has no
assembly or an assembler rejects a module. With --resources, ptxas runs with
-v and one line per kernel says its registers, shared memory and spills
("RESOURCES <kernel> <arch> registers=N smem=N spill-stores=N
spill-loads=N stack=N"; --no-asm prints only those), and --max-spills=N
fails when a kernel spills more bytes than that."""
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
parser.add_argument("--resources", action="store_true",
                    help="ptxas -v: print registers, smem, spills per kernel")
parser.add_argument("--no-asm", action="store_true",
                    help="do not echo the assembly")
parser.add_argument("--split-dir",
                    help="also write each PTX module to DIR/<entry>.ptx")
parser.add_argument("--max-spills", type=int,
                    help="fail when a kernel spills more bytes than this")
parser.add_argument("--no-warnings", action="store_true",
                    help="fail when ptxas warns about a kernel")
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
        verbose = ["-v"] if args.resources or args.max_spills is not None \
            or args.no_warnings else []
        return subprocess.Popen([args.ptxas, "-arch=" + arch] + verbose +
                                [f.name, "-o", os.devnull],
                                stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True), f.name
    if args.llvm_mc:
        process = subprocess.Popen(
            [args.llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + args.mcpu,
             "-filetype=obj", "-o", os.devnull], stdin=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        process.stdin.write(asm)
        process.stdin.close()
        process.stdin = None  # written: communicate() must not flush it
        return process, None
    return None


modules = [unescape(m.group(1)) for m in re.finditer(
    r'assembly = "((?:[^"\\]|\\.)*)"', sys.stdin.read())]
if not modules:
    sys.exit("no gpu.binary with assembly in the input")
failed = False


def report_resources(log):
    """Parses ptxas -v (stdout or stderr, by version) into one line per
    kernel; checks --max-spills."""
    global failed
    kernel = arch = None
    props = {}
    for line in log.splitlines():
        if args.no_warnings and "warning" in line:
            # e.g. wgmma serialized ("Potential Performance Loss").
            sys.stderr.write(line + "\n")
            failed = True
        m = re.search(r"Compiling entry function '(\S+)' for '(\S+)'", line)
        if m:
            kernel, arch = m.groups()
            props = {}
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, "
                      r"(\d+) bytes spill loads", line)
        if m and kernel:
            props["stack"], props["spill-stores"], props["spill-loads"] = \
                (int(x) for x in m.groups())
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and kernel:
            smem = re.search(r"(\d+) bytes smem", line)
            props["registers"] = int(m.group(1))
            props["smem"] = int(smem.group(1)) if smem else 0
            if args.resources:
                print("RESOURCES %s %s registers=%d smem=%d spill-stores=%d "
                      "spill-loads=%d stack=%d" % (
                          kernel, arch, props["registers"], props["smem"],
                          props.get("spill-stores", 0),
                          props.get("spill-loads", 0), props.get("stack", 0)))
            spills = props.get("spill-stores", 0) + props.get("spill-loads", 0)
            if args.max_spills is not None and spills > args.max_spills:
                sys.stderr.write("%s spills %d bytes\n" % (kernel, spills))
                failed = True
            kernel = None


def finish(process, path):
    global failed
    out, error = process.communicate()
    if process.returncode:
        sys.stderr.write(error or "rejected\n")
        failed = True
    elif args.resources or args.max_spills is not None or args.no_warnings:
        report_resources((out or "") + (error or ""))
    if path:
        os.unlink(path)


# The modules are independent: a few assemblers run at once.
running = []
for asm in modules:
    if not args.no_asm:
        sys.stdout.write(asm)
    if args.split_dir:
        entry = re.search(r"^\.visible \.entry (\w+)\(", asm, re.M)
        name = entry.group(1) if entry else "module%d" % len(running)
        with open(os.path.join(args.split_dir, name + ".ptx"), "w") as f:
            f.write(asm)
    started = start_assembler(asm)
    if started:
        running.append(started)
    if len(running) >= 8:
        finish(*running.pop(0))
for started in running:
    finish(*started)
sys.exit(1 if failed else 0)
