#!/usr/bin/env bash
# Elementwise / row-reduction / thread benchmark of lowp-pipeline-x86
# (bench/x86/elementwise.py: every figure measured side by side in one
# process). PyTorch 1.13 (Debian's python3-torch) gives the reference
# column; it is installed here, not by the tests. Usage:
#   bench/x86/elementwise.sh [--before OLD_FPOPT] [--threads N] [--sections rows,buffers,threads]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if ! /usr/bin/python3 -c "import torch" 2>/dev/null && [ "${NO_TORCH:-0}" != 1 ]; then
  SUDO=""; if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-torch >/dev/null || true
fi
# Debian's python3-torch is for the system interpreter.
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
exec "$PY" "$ROOT/bench/x86/elementwise.py" "$@"
