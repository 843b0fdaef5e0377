#!/usr/bin/env bash
# Installs every Debian package fp-opt needs; a no-op when all are present.
set -euo pipefail

PACKAGES=(
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22
  ninja-build cmake python3-dev pybind11-dev python3-numpy python3-pytest
  libgtest-dev ccache
  graphviz  # `dot`: SVG of lowp-view-precision-graph and the report page
  dpkg-dev file  # dpkg-shlibdeps and file: cpack -G DEB (scripts/build-deb.sh)
  libomp-22-dev  # OpenMP runtime of lowp-pipeline-x86{threads=N} code
  libclang-rt-22-dev  # AddressSanitizer/LeakSanitizer for the leak tests
  libopenblas-dev  # bench/x86 only (the sgemm baseline); no test needs it
  python3-torch python3-torchvision  # fpopt.torch (the PyTorch importer) and its tests
  chromium  # the report page's browser tests (scripts/test.d/report-page.sh: headless, no WebDriver)
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
