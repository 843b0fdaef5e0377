#!/usr/bin/env bash
# Regenerates docs/generated/ from the ODS definitions (ops, attributes,
# interfaces, passes). Never edit those files by hand.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${FPOPT_BUILD_DIR:-$ROOT/build}"
bash "$ROOT/scripts/build.sh" --target mlir-doc >/dev/null
OUT="$ROOT/docs/generated"
rm -rf "$OUT"
mkdir -p "$OUT"
for f in "$BUILD"/docs/*/*.md; do
  name="$(basename "$f")"
  {
    echo "<!-- Generated from ODS by scripts/gen-docs.sh; do not edit. -->"
    echo
    cat "$f"
  } > "$OUT/$name"
done
echo "gen-docs: wrote $(ls "$OUT" | wc -l) files to docs/generated/"
