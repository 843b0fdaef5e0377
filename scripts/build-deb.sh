#!/usr/bin/env bash
# Builds the Debian package of fp-opt from ./build (cpack -G DEB; see the
# CPack settings at the end of CMakeLists.txt) and prints its path.
#   scripts/build-deb.sh [OUTDIR]      (default: build/deb)
# Install it with `apt-get install ./fp-opt_<version>_<arch>.deb`, which
# pulls in Debian's libmlir-22 packages.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${FPOPT_BUILD_DIR:-$ROOT/build}"
OUTDIR="${1:-$BUILD/deb}"

command -v dpkg-shlibdeps >/dev/null || {
  echo "build-deb: dpkg-shlibdeps is missing (apt-get install dpkg-dev)" >&2
  exit 1
}
bash "$ROOT/scripts/build.sh" >/dev/null
mkdir -p "$OUTDIR"
rm -f "$OUTDIR"/fp-opt_*.deb
(cd "$BUILD" && cpack -G DEB -B "$OUTDIR" >"$OUTDIR/cpack.log" 2>&1) || {
  tail -n 30 "$OUTDIR/cpack.log" >&2
  exit 1
}
ls "$OUTDIR"/fp-opt_*.deb
