#!/usr/bin/env bash
# Kernel-level layers as torch-mlir emits them, next to PyTorch, one thread:
#   mlp  - 3 x nn.Linear (1024-4096-4096-1024, ReLU), batch 64: every weight
#          [out, in] transposed by linalg.transpose, bias broadcast into the
#          accumulator (aten.addmm);
#   conv - nn.Conv2d(64, 64, 3, padding=1) + ReLU on 1x64x56x56 NCHW
#          (tensor.pad + linalg.conv_2d_nchw_fchw), the ResNet basic block's
#          convolution;
#   dwconv - nn.Conv2d(128, 128, 3, padding=1, groups=128) + ReLU on
#          1x128x56x56 NCHW (linalg.depthwise_conv_2d_nchw_chw, the filter
#          [128,1,3,3] collapsed to [128,3,3]), MobileNet's depthwise layer.
# Each is compiled f32 and mixed (lowp-auto-mixed-precision policy=bf16) by
# two fp-opt binaries (BEFORE, default /work/main/build/bin/fp-opt, and
# AFTER, this tree's; "prepacked": AFTER with prepack=true, the weights
# packed once by forward_prepack before timing), with
# lowp-pipeline-x86{target=$CPU} and llc -mcpu=$MCPU,
# and timed in one Python process with PyTorch f32, bf16 autocast and
# bf16 .to (Debian's python3-torch; installed here if missing).
# Usage: bench/x86/layers.sh [mlp] [conv] [dwconv]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LLVM=/usr/lib/llvm-22
AFTER="${AFTER:-$ROOT/build/bin/fp-opt}"
BEFORE="${BEFORE:-/work/main/build/bin/fp-opt}"
CPU="${CPU:-sapphirerapids}"
MCPU="${MCPU:-sapphirerapids}"
TARGET="${TARGET:-sapphirerapids}"
OUT="$(mktemp -d)"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$OUT"' EXIT; echo "work dir: $OUT"
if ! /usr/bin/python3 -c "import torch, numpy" 2>/dev/null; then
  apt-get install -y python3-torch python3-numpy >/dev/null
fi
export OMP_NUM_THREADS=1

python3 - "$OUT" <<'PY'
import sys
out = sys.argv[1]
dims = [1024, 4096, 4096, 1024]
b = 64
args = ["%x: tensor<64x1024xf32>"]
for i in range(3):
    args += ["%%w%d: tensor<%dx%dxf32>" % (i, dims[i + 1], dims[i]),
             "%%b%d: tensor<%dxf32>" % (i, dims[i + 1])]
body = []
h = "%x"
for i in range(3):
    n, k = dims[i + 1], dims[i]
    body.append(f"""
    %e{i} = tensor.empty() : tensor<{b}x{n}xf32>
    %bb{i} = linalg.generic {{indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel"]}}
        ins(%b{i} : tensor<{n}xf32>) outs(%e{i} : tensor<{b}x{n}xf32>) {{
    ^bb0(%in: f32, %o: f32):
      linalg.yield %in : f32
    }} -> tensor<{b}x{n}xf32>
    %et{i} = tensor.empty() : tensor<{k}x{n}xf32>
    %wt{i} = linalg.transpose ins(%w{i} : tensor<{n}x{k}xf32>) outs(%et{i} : tensor<{k}x{n}xf32>) permutation = [1, 0]
    %y{i} = linalg.matmul ins({h}, %wt{i} : tensor<{b}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%bb{i} : tensor<{b}x{n}xf32>) -> tensor<{b}x{n}xf32>""")
    h = "%%y%d" % i
    if i < 2:
        body.append(f"""
    %r{i} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
        ins(%y{i} : tensor<{b}x{n}xf32>) outs(%e{i} : tensor<{b}x{n}xf32>) {{
    ^bb0(%in: f32, %o: f32):
      %z = arith.constant 0.0 : f32
      %m = arith.maximumf %in, %z : f32
      linalg.yield %m : f32
    }} -> tensor<{b}x{n}xf32>""")
        h = "%%r%d" % i
src = """#id = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @forward(%s) -> tensor<%dx%dxf32> attributes {llvm.emit_c_interface} {%s
    return %s : tensor<%dx%dxf32>
}
""" % (", ".join(args), b, dims[-1], "".join(body), h, b, dims[-1])
open(out + "/mlp.mlir", "w").write(src)
open(out + "/conv.mlir", "w").write("""#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @forward(%x: tensor<1x64x56x56xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x64x56x56xf32> to tensor<1x64x58x58xf32>
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%o : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x64x56x56xf32>) outs(%e : tensor<1x64x56x56xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x56x56xf32>
  return %r : tensor<1x64x56x56xf32>
}
""")
open(out + "/dwconv.mlir", "w").write("""#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @forward(%x: tensor<1x128x56x56xf32>, %w: tensor<128x1x3x3xf32>) -> tensor<1x128x56x56xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x128x56x56xf32> to tensor<1x128x58x58xf32>
  %wc = tensor.collapse_shape %w [[0, 1], [2], [3]] : tensor<128x1x3x3xf32> into tensor<128x3x3xf32>
  %e = tensor.empty() : tensor<1x128x56x56xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x56x56xf32>) -> tensor<1x128x56x56xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %wc : tensor<1x128x58x58xf32>, tensor<128x3x3xf32>) outs(%o : tensor<1x128x56x56xf32>) -> tensor<1x128x56x56xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x128x56x56xf32>) outs(%e : tensor<1x128x56x56xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x128x56x56xf32>
  return %r : tensor<1x128x56x56xf32>
}
""")
PY

layers=("${@:-mlp conv}")
for layer in ${layers[@]}; do
  for which in before after prepacked; do
    fpopt=$BEFORE; [ "$which" = before ] || fpopt=$AFTER
    [ -x "$fpopt" ] || { echo "no $fpopt, skipping $which"; continue; }
    extra=""; [ "$which" = prepacked ] && extra="prepack=true"
    # Only layers with weight arguments of matmuls have anything to prepack.
    [ "$which" = prepacked ] && [ "$layer" != mlp ] && continue
    for prec in f32 mixed; do
      src="$OUT/$layer.mlir"
      if [ "$prec" = mixed ]; then
        "$fpopt" "$src" --lowp-auto-mixed-precision="target=$TARGET policy=bf16" -o "$OUT/$layer-mixed.mlir"
        src="$OUT/$layer-mixed.mlir"
      fi
      t0=$(date +%s.%N)
      "$fpopt" "$src" -lowp-pipeline-x86="target=$CPU $extra ${OPTS:-}" 2>"$OUT/$layer-$which-$prec.remarks" \
        | "$LLVM/bin/mlir-translate" --mlir-to-llvmir \
        | "$LLVM/bin/llc" -O3 -mcpu="$MCPU" -relocation-model=pic -filetype=obj -o "$OUT/$layer-$which-$prec.o"
      "$LLVM/bin/clang" -shared -o "$OUT/$layer-$which-$prec.so" "$OUT/$layer-$which-$prec.o" \
        -L"$LLVM/lib" -Wl,-rpath,"$LLVM/lib" -lmlir_c_runner_utils -lm
      t1=$(date +%s.%N)
      printf '%-5s %-13s compiled in %.1f s; %s generic-path remarks\n' "$layer" "$which-$prec" \
        "$(echo "$t1 - $t0" | bc)" "$(grep -c 'generic loop path' "$OUT/$layer-$which-$prec.remarks" || true)"
    done
  done
  /usr/bin/python3 "$ROOT/bench/x86/layers.py" "$OUT" "$layer"
done
