"""Prints an f32 MLP as torch-mlir emits two nn.Linear layers: transposed
weights, matmul, bias add (+ ReLU after the first).

Usage: gen_mlp.py BATCH WIDTH HIDDEN
"""
import sys
B, D, H = (int(v) for v in sys.argv[1:4])
def linear(x, xin, w, b, din, dout, relu):
    return f"""
  %{w}_te = tensor.empty() : tensor<{din}x{dout}xf32>
  %{w}_t = linalg.transpose ins(%{w} : tensor<{dout}x{din}xf32>) outs(%{w}_te : tensor<{din}x{dout}xf32>) permutation = [1, 0]
  %{x}_e = tensor.empty() : tensor<{B}x{dout}xf32>
  %{x}_f = linalg.fill ins(%zero : f32) outs(%{x}_e : tensor<{B}x{dout}xf32>) -> tensor<{B}x{dout}xf32>
  %{x}_m = linalg.matmul ins(%{xin}, %{w}_t : tensor<{B}x{din}xf32>, tensor<{din}x{dout}xf32>) outs(%{x}_f : tensor<{B}x{dout}xf32>) -> tensor<{B}x{dout}xf32>
  %{x} = linalg.generic {{indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}} ins(%{x}_m, %{b} : tensor<{B}x{dout}xf32>, tensor<{dout}xf32>) outs(%{x}_e : tensor<{B}x{dout}xf32>) {{
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    {"%r = arith.maximumf %s, %zero : f32" if relu else ""}
    linalg.yield {"%r" if relu else "%s"} : f32
  }} -> tensor<{B}x{dout}xf32>"""
text = f"""#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @mlp(%x: tensor<{B}x{D}xf32>, %w1: tensor<{H}x{D}xf32>, %b1: tensor<{H}xf32>, %w2: tensor<{D}x{H}xf32>, %b2: tensor<{D}xf32>) -> tensor<{B}x{D}xf32> {{
  %zero = arith.constant 0.0 : f32{linear("h", "x", "w1", "b1", D, H, True)}{linear("y", "h", "w2", "b2", H, D, False)}
  return %y : tensor<{B}x{D}xf32>
}}
"""
sys.stdout.write(text)
