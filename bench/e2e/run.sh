#!/usr/bin/env bash
# Whole layers, fp-opt vs PyTorch (bench/e2e/README.md). Installs Debian's
# python3-torch if it is missing, builds fp-opt if needed, and runs
# bench.py with the given arguments (default: the four layers, 1 thread).
#   bash bench/e2e/run.sh [--threads 2] [--layers bert,mlp] [--profile mlp] ...
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PY=/usr/bin/python3
cd "$ROOT"

if ! "$PY" -c 'import torch, numpy' 2>/dev/null; then
  echo "e2e: installing python3-torch (Debian, PyTorch 1.13)"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    python3-torch python3-numpy >/dev/null
fi
if [[ " $* " == *" --profile "* ]] && ! command -v perf >/dev/null; then
  echo "e2e: --profile needs perf: apt-get install linux-perf" >&2
  exit 1
fi
FPOPT="${FPOPT:-${FPOPT_BUILD_DIR:-$ROOT/build}/bin/fp-opt}"
if [ ! -x "$FPOPT" ]; then
  bash scripts/build.sh --target fp-opt
fi
exec "$PY" bench/e2e/bench.py --fp-opt "$FPOPT" "$@"
