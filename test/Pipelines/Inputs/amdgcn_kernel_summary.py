"""Summarizes AMDGCN assembly (stdin, as extract_gpu_asm.py prints it): one
line per kernel with the instruction counts of its main loop, the basic
block that branches back to itself (the k loop of an MFMA kernel), and one
with the resources of its metadata:

  LOOP <kernel> <mnemonic>=<count> ...     (MFMA, global, LDS, barrier ops)
  RESOURCES <kernel> vgpr=N agpr=N sgpr=N lds=N scratch=N vgpr-spills=N

Exits non-zero when a kernel has no such loop. With `--loops REGEX`, only
the kernels whose name matches REGEX are summarized and must have one (the
naive kernels of a function, a k loop unrolled by LLVM); resources are
printed for all."""
import re
import sys

INTERESTING = re.compile(
    r"^(v_mfma\S*|global_load\S*|global_store\S*|buffer_load\S*|ds_read\S*|"
    r"ds_write\S*|s_barrier)$")

loops_only = None
if len(sys.argv) == 3 and sys.argv[1] == "--loops":
    loops_only = re.compile(sys.argv[2])
elif len(sys.argv) != 1:
    sys.exit("usage: amdgcn_kernel_summary.py [--loops REGEX] < asm")

text = sys.stdin.read()
# Functions: "<name>:" ... "s_endpgm".
kernels = re.findall(r"^(\w+):\s*(?:;.*)?\n(.*?)^\s*s_endpgm", text,
                     re.M | re.S)
failed = False
for name, body in kernels:
    if loops_only and not loops_only.search(name):
        continue
    lines = body.splitlines()
    loop = None
    for i, line in enumerate(lines):
        m = re.match(r"^(\.LBB\w+):", line)
        if not m:
            continue
        label = m.group(1)
        for j in range(i + 1, len(lines)):
            if re.match(r"^\.LBB\w+:", lines[j]):
                break
            if re.search(r"s_cbranch_\w+\s+" + re.escape(label) + r"\s*$",
                         lines[j]):
                loop = lines[i + 1:j]
                break
        if loop is not None:
            break
    if loop is None:
        print("LOOP %s none" % name)
        failed = True
        continue
    counts = {}
    for line in loop:
        words = line.split()
        if words and INTERESTING.match(words[0]):
            counts[words[0]] = counts.get(words[0], 0) + 1
    print("LOOP %s %s" % (name, " ".join(
        "%s=%d" % kv for kv in sorted(counts.items()))))

# Metadata (.amdgpu_metadata YAML): one kernel per module; its own fields
# are indented by 4 (the first by "  - "), its arguments' deeper.
for doc in text.split("amdhsa.kernels:")[1:]:
    def field(key):
        m = re.search(r"^(?:  - |    )\.%s:\s+(\S+)" % re.escape(key), doc,
                      re.M)
        return m.group(1) if m else "?"
    print("RESOURCES %s vgpr=%s agpr=%s sgpr=%s lds=%s scratch=%s "
          "vgpr-spills=%s" % (field("name"), field("vgpr_count"),
                              field("agpr_count"), field("sgpr_count"),
                              field("group_segment_fixed_size"),
                              field("private_segment_fixed_size"),
                              field("vgpr_spill_count")))
sys.exit(1 if failed else 0)
