// Calibration end to end on the CPU: instrument the FP8 candidates of @mlp,
// run, reduce the log to statistics, write them back as #lowp.stats, select
// formats with the range recipe and static scales, and run the FP8 program.
//
// RUN: fp-opt %s -lowp-instrument-calibration --lowp-pipeline-reference \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%fp8_runner_libs > %t.log
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// RUN: %python %fpopt_src_root/scripts/lowp-calibrate.py %t.log -o %t.json \
// RUN:   --apply %s --fp-opt fp-opt --output %t.stats.mlir
// RUN: FileCheck %s --check-prefix=STATS < %t.stats.mlir
// Without the histogram, `range` decides by dynamic range (amax / min):
// RUN: %python %fpopt_src_root/scripts/lowp-calibrate.py %t.log -o %t.nohist.json \
// RUN:   --no-histogram --apply %s --fp-opt fp-opt --output %t.nohist.mlir
// RUN: fp-opt %t.nohist.mlir -lowp-select-fp8-formats="recipe=range scaling=static target=sm_90" \
// RUN:   | FileCheck %s --check-prefix=SELECT-RANGE
// RUN: fp-opt %t.stats.mlir -lowp-select-fp8-formats="recipe=range scaling=static target=sm_90" \
// RUN:   | FileCheck %s --check-prefix=SELECT
// convert-lowp-to-linalg drops the target attribute the option records, so
// mlir-runner reads the lowered module as is.
// RUN: fp-opt %t.stats.mlir -lowp-select-fp8-formats="recipe=range scaling=static target=sm_90" \
// RUN:     --lowp-pipeline-reference \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%fp8_runner_libs | FileCheck %s --check-prefix=EXEC

// One record per candidate (x, w1, h, w2) per call: amax, then the counts
// of non-zero |x| per f32 binade.
// LOG-DAG: lowp-calibration @mlp 0 amax 6
// LOG-DAG: lowp-calibration @mlp 1 amax 0.5
// LOG-DAG: lowp-calibration @mlp 2 amax
// LOG-DAG: lowp-calibration @mlp 3 amax 0.01
// LOG-NOT: @mlp_f32

// Statistics: amax, and min = the 4th percentile of the non-zero |x|
// (lowp-calibrate.py's default), placed log-uniformly inside its binade.
// x: 4% of 32 is 1.28 elements; 0.001 is the first, the second (0.0559)
// lies in [2^-5, 2^-4): min = 2^-5 * 2^0.28 = 0.0379. w2: two of 32 elements
// (5e-8, 5.5e-8) lie in [2^-25, 2^-24): min = 2^-25 * 2^(1.28 / 2).
// The histogram runs from the lowest non-empty binade: x's 0.001 is in
// [2^-10, 2^-9), 6 in [2^2, 2^3); w2's two tiny values in [2^-25, 2^-24).
// STATS: func.func @mlp(%arg0: tensor<4x8xf32> {lowp.stats = #lowp.stats<amax = 6.000000e+00, min = 0.037943590137345218, samples = 32, histogram = [1, 0, 0, 0, 0, 1, 0, 1, 2, 2, 10, 14, 1], lowest_binade = -10>}, %arg1: tensor<8x8xf32> {lowp.stats = #lowp.stats<amax = 5.000000e-01, min = {{.*}}, samples = 64, histogram = [{{.*}}], lowest_binade = -6>}, %arg2: tensor<8x4xf32> {lowp.stats = #lowp.stats<amax = 1.000000e-02, min = 4.6441827992230648E-8, samples = 32, histogram = [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 9, 10, 8], lowest_binade = -25>})
// h = relu(x w1): 19 of 32 entries are non-zero.
// STATS: linalg.generic {{.*}} attrs = {lowp.stats = #lowp.stats<amax = 3.317770e+00, min = {{.*}}, samples = 19, histogram = [{{.*}}], lowest_binade = {{.*}}>}

// With the histogram, the predicted relative RMS error decides: w2's two
// values 2^17 below amax carry ~1e-11 of its energy, so E4M3 (error 0.024)
// beats E5M2 (0.048) on every tensor.
// SELECT: lowp.quantize %arg0, %{{.*}} : tensor<4x8xf32>, f32 to tensor<4x8xf8E4M3FN>
// SELECT: lowp.quantize %arg1, %{{.*}} : tensor<8x8xf32>, f32 to tensor<8x8xf8E4M3FN>
// SELECT: lowp.quantize %arg2, %{{.*}} : tensor<8x4xf32>, f32 to tensor<8x4xf8E4M3FN>
// SELECT: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf8E4M3FN>, tensor<8x8xf8E4M3FN>)
// SELECT: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf8E4M3FN>, tensor<8x4xf8E4M3FN>)

// By dynamic range: x needs 7.3 binades (E4M3), w2 17.7 (> E4M3's 16.8: E5M2).
// SELECT-RANGE: lowp.quantize %arg0, %{{.*}} : tensor<4x8xf32>, f32 to tensor<4x8xf8E4M3FN>
// SELECT-RANGE: lowp.quantize %arg1, %{{.*}} : tensor<8x8xf32>, f32 to tensor<8x8xf8E4M3FN>
// SELECT-RANGE: lowp.quantize %arg2, %{{.*}} : tensor<8x4xf32>, f32 to tensor<8x4xf8E5M2>
// SELECT-RANGE: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf8E4M3FN>, tensor<8x8xf8E4M3FN>)
// SELECT-RANGE: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf8E4M3FN>, tensor<8x4xf8E5M2>)

// The FP8 forward against the f32 one: max |y8 - y32| <= 0.1 * max |y32|.
// EXEC: ok 1

module {
func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m1 : tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m2 = linalg.matmul ins(%h, %w2 : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m2 : tensor<4x4xf32>
}

// The same network as the f32 reference: its matmuls are pinned to f32, so
// neither calibration nor selection touches them.
func.func @mlp_f32(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m1 = linalg.matmul {lowp.precision = f32} ins(%x, %w1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m1 : tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m2 = linalg.matmul {lowp.precision = f32} ins(%h, %w2 : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m2 : tensor<4x4xf32>
}

func.func @main() {
  %x = arith.constant dense<[[6.0, 0.985402, 3.21503, 2.34954, 0.421808, -1.76085, 1.94225, 0.680969], [-2.95158, -0.499004, -1.59535, 2.09112, -1.75098, 2.36785, 2.96446, -3.82726], [-1.17259, 2.61176, 2.80005, 1.20625, -0.0558858, 3.89517, -1.22868, 1.29024], [3.57226, -2.36139, 1.91167, 3.10444, -0.169867, 2.84251, -1.52826, 0.001]]> : tensor<4x8xf32>
  %w1 = arith.constant dense<[[0.5, -0.203024, 0.245045, -0.0817039, -0.352229, -0.15307, -0.436858, -0.144933], [-0.285287, 0.205832, -0.310326, 0.106353, 0.0983409, 0.375962, 0.378589, 0.287819], [-0.461329, 0.11083, -0.426942, 0.0928038, 0.482535, 0.315609, -0.307373, 0.485574], [0.395646, 0.39706, 0.0365059, -0.19095, 0.0515984, -0.104829, 0.114795, -0.430735], [-0.0721099, -0.155411, -0.251495, 0.426236, -0.482963, -0.356991, 0.114707, 0.277042], [-0.35592, 0.0354224, 0.343143, -0.190458, 0.298953, -0.338071, 0.337872, -0.266294], [-0.281821, 0.107093, 0.252642, -0.0714506, -0.245566, -0.27276, -0.389311, 0.202896], [0.0196042, -0.268597, 0.110564, 0.373216, -0.200462, -0.196432, -0.455633, -0.202556]]> : tensor<8x8xf32>
  %w2 = arith.constant dense<[[0.01, -0.00319507, -0.00232358, 0.00351905], [-0.00405752, -0.00302604, -0.00582685, 0.0094324], [-0.00213417, 0.00473648, 0.00701342, -0.00896243], [-0.00999823, -0.00229273, -0.00583568, 0.0089308], [-0.00147727, 0.00629464, -0.0025652, 0.00791047], [-0.00943868, -0.00584459, -0.0010807, -0.00157825], [-0.00474132, 0.00862574, 0.0031309, 0.00702224], [-0.00464777, 0.0033864, 5.5e-08, 5.0e-08]]> : tensor<8x4xf32>
  %y = call @mlp(%x, %w1, %w2) : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %ref = call @mlp_f32(%x, %w1, %w2) : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  // max |y - ref| and max |ref| in one reduction.
  %zero = arith.constant 0.0 : f32
  %init = tensor.from_elements %zero, %zero : tensor<2xf32>
  %red = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (i, j)>, affine_map<(i, j, k) -> (k)>], iterator_types = ["reduction", "reduction", "parallel"]}
      ins(%y, %ref : tensor<4x4xf32>, tensor<4x4xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %k = linalg.index 2 : index
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %k, %c0 : index
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %ab = math.absf %b : f32
    %v = arith.select %first, %ad, %ab : f32
    %m = arith.maximumf %acc, %v : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %err = tensor.extract %red[%c0] : tensor<2xf32>
  %top = tensor.extract %red[%c1] : tensor<2xf32>
  %tenth = arith.constant 0.1 : f32
  %bound = arith.mulf %top, %tenth : f32
  %ok = arith.cmpf ole, %err, %bound : f32
  vector.print str "ok "
  vector.print %ok : i1
  vector.print str "max abs err "
  vector.print %err : f32
  vector.print str "max abs ref "
  vector.print %top : f32
  return
}
}
