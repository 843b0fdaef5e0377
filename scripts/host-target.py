#!/usr/bin/python3
"""This machine's x86 row of the capability table, as fpopt.compile picks
it (fpopt.runtime.host_target(), from the flags of /proc/cpuinfo), for the
shell scripts: one line "TARGET|OPTIONS|CPU: flags", OPTIONS being the
extra lowp-pipeline-x86 options (amx=true or nothing) and flags the ones
the choice reads, each present or "no ...".

Usage: scripts/host-target.py   (fpopt from $FPOPT_BUILD_DIR/python_packages,
                                 default build/python_packages)"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("FPOPT_BUILD_DIR") or os.path.join(ROOT, "build")
sys.path.insert(0, os.path.join(BUILD, "python_packages"))

import fpopt  # noqa: E402
import fpopt.runtime as runtime  # noqa: E402

target, options = runtime.host_target()
flags = runtime.host_flags()
model = "unknown CPU"
try:
    with open("/proc/cpuinfo") as cpuinfo:
        model = next((line.split(":", 1)[1].strip() for line in cpuinfo
                      if line.startswith("model name")), model)
except OSError:
    pass
row = fpopt.target(target)
shown = sorted(row.cpu_features) + sorted(row.amx_features)
print(f"{target}|{options}|{model}: "
      + ", ".join(f if f in flags else "no " + f for f in shown))
