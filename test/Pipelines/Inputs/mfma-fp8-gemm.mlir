// An FP8 matmul as lowp-select-fp8-formats leaves it for gfx942 (FNUZ
// operands, E4M3 activations x E5M2 weights here to exercise the mixed form,
// f32 accumulator) with its dequantization (times 1 / (sa * sb)) and the
// narrowing to bf16 after it; the tests run it as is on gfx942 and with OCP
// types (sed) on gfx950.
#id = affine_map<(i, j) -> (i, j)>
#scalar = affine_map<(i, j) -> ()>
func.func @gemm_fp8(%a: tensor<256x512xf8E4M3FNUZ>, %b: tensor<512x384xf8E5M2FNUZ>,
                    %sa: tensor<f32>, %sb: tensor<f32>) -> tensor<256x384xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x384xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x384xf32>) -> tensor<256x384xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x512xf8E4M3FNUZ>, tensor<512x384xf8E5M2FNUZ>)
                     outs(%acc : tensor<256x384xf32>) -> tensor<256x384xf32>
  %o = tensor.empty() : tensor<256x384xbf16>
  %r = linalg.generic {indexing_maps = [#id, #scalar, #scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %sa, %sb : tensor<256x384xf32>, tensor<f32>, tensor<f32>) outs(%o : tensor<256x384xbf16>) {
  ^bb0(%x: f32, %p: f32, %q: f32, %out: bf16):
    %s = arith.mulf %p, %q : f32
    %d = arith.divf %x, %s : f32
    %n = arith.truncf %d : f32 to bf16
    linalg.yield %n : bf16
  } -> tensor<256x384xbf16>
  return %r : tensor<256x384xbf16>
}
