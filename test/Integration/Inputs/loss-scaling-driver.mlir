// Driver for ../loss-scaling-mlp.mlir. It is appended to the materialized
// @step, whose signature -lowp-materialize-loss-scaling extended with the
// scaler state:
//   @step(w1, w2, x, y, lw, scale, good_steps)
//     -> (loss, w1', w2', grad_w1, grad_w2, scale', good_steps')
// Prints `key value` lines that check_loss_scaling.py checks.

func.func private @printMemrefF32(tensor<*xf32>)

// 1 when %a and %b hold the same bit patterns.
func.func @same_bits(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> i1 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %all = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %true) -> (i1) {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%racc = %acc) -> (i1) {
      %x = tensor.extract %a[%i, %j] : tensor<?x?xf32>
      %y = tensor.extract %b[%i, %j] : tensor<?x?xf32>
      %xi = arith.bitcast %x : f32 to i32
      %yi = arith.bitcast %y : f32 to i32
      %eq = arith.cmpi eq, %xi, %yi : i32
      %r = arith.andi %racc, %eq : i1
      scf.yield %r : i1
    }
    scf.yield %row : i1
  }
  return %all : i1
}

// The number of elements of %a equal to zero.
func.func @count_zeros(%a: tensor<?x?xf32>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %fz = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %all = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %z) -> (i64) {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%racc = %acc) -> (i64) {
      %x = tensor.extract %a[%i, %j] : tensor<?x?xf32>
      %isz = arith.cmpf oeq, %x, %fz : f32
      %inc = arith.select %isz, %one, %z : i64
      %r = arith.addi %racc, %inc : i64
      scf.yield %r : i64
    }
    scf.yield %row : i64
  }
  return %all : i64
}

func.func @print_f32(%v: f32) {
  vector.print %v : f32
  return
}

func.func @main() {
  %x = arith.constant dense<[[-0.75, 0.0, 0.75, -0.25], [0.5, -0.5, 0.25, -0.75], [0.0, 0.75, -0.25, 0.5], [-0.5, 0.25, -0.75, 0.0], [0.75, -0.25, 0.5, -0.5], [0.25, -0.75, 0.0, 0.75], [-0.25, 0.5, -0.5, 0.25], [-0.75, 0.0, 0.75, -0.25], [0.5, -0.5, 0.25, -0.75], [0.0, 0.75, -0.25, 0.5], [-0.5, 0.25, -0.75, 0.0], [0.75, -0.25, 0.5, -0.5], [0.25, -0.75, 0.0, 0.75], [-0.25, 0.5, -0.5, 0.25], [-0.75, 0.0, 0.75, -0.25], [0.5, -0.5, 0.25, -0.75]]> : tensor<16x4xf32>
  %y = arith.constant dense<[[-1.0], [0.5], [-0.5], [1.0], [0.0], [-1.0], [0.5], [-0.5], [1.0], [0.0], [-1.0], [0.5], [-0.5], [1.0], [0.0], [-1.0]]> : tensor<16x1xf32>
  %w1 = arith.constant dense<[[-0.625, -0.25, 0.125, 0.5, -0.5, -0.125, 0.25, 0.625], [0.25, 0.625, -0.375, 0.0, 0.375, -0.625, -0.25, 0.125], [-0.25, 0.125, 0.5, -0.5, -0.125, 0.25, 0.625, -0.375], [0.625, -0.375, 0.0, 0.375, -0.625, -0.25, 0.125, 0.5]]> : tensor<4x8xf32>
  %w2 = arith.constant dense<[[-0.5], [0.125], [-0.375], [0.25], [-0.25], [0.375], [-0.125], [0.5]]> : tensor<8x1xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c13 = arith.constant 13 : index
  %c15 = arith.constant 15 : index
  %n0 = arith.constant 0 : i64
  %s256 = arith.constant 256.0 : f32
  %one = arith.constant 1.0 : f32
  %big = arith.constant 1.0e5 : f32
  %e_y = tensor.empty() : tensor<16x1xf32>

  // Schedule: 15 steps; at steps 9..13 the targets are scaled by 1e5 so the
  // scaled gradients overflow f16 (the f32 loss stays finite).
  vector.print str "section schedule\n"
  %sched:4 = scf.for %k = %c0 to %c15 step %c1
      iter_args(%a = %w1, %b = %w2, %s = %s256, %n = %n0)
      -> (tensor<4x8xf32>, tensor<8x1xf32>, f32, i64) {
    %ge = arith.cmpi uge, %k, %c9 : index
    %le = arith.cmpi ule, %k, %c13 : index
    %inj = arith.andi %ge, %le : i1
    %mul = arith.select %inj, %big, %one : f32
    %mulb = linalg.fill ins(%mul : f32) outs(%e_y : tensor<16x1xf32>) -> tensor<16x1xf32>
    %yk = arith.mulf %y, %mulb : tensor<16x1xf32>
    %loss, %a1, %b1, %g1, %g2, %s1, %n1 = func.call @step(%a, %b, %x, %yk, %one, %s, %n)
        : (tensor<4x8xf32>, tensor<8x1xf32>, tensor<16x4xf32>, tensor<16x1xf32>, f32, f32, i64)
        -> (tensor<f32>, tensor<4x8xf32>, tensor<8x1xf32>, tensor<4x8xf32>, tensor<8x1xf32>, f32, i64)
    %ad = tensor.cast %a : tensor<4x8xf32> to tensor<?x?xf32>
    %a1d = tensor.cast %a1 : tensor<4x8xf32> to tensor<?x?xf32>
    %bd = tensor.cast %b : tensor<8x1xf32> to tensor<?x?xf32>
    %b1d = tensor.cast %b1 : tensor<8x1xf32> to tensor<?x?xf32>
    %same1 = func.call @same_bits(%ad, %a1d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
    %same2 = func.call @same_bits(%bd, %b1d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i1
    %same = arith.andi %same1, %same2 : i1
    %ki = arith.index_cast %k : index to i64
    %inji = arith.extui %inj : i1 to i64
    %samei = arith.extui %same : i1 to i64
    %lossv = tensor.extract %loss[] : tensor<f32>
    vector.print str "step "
    vector.print %ki : i64
    vector.print str "injected "
    vector.print %inji : i64
    vector.print str "scale_in "
    vector.print %s : f32
    vector.print str "count_in "
    vector.print %n : i64
    vector.print str "scale_out "
    vector.print %s1 : f32
    vector.print str "count_out "
    vector.print %n1 : i64
    vector.print str "unchanged "
    vector.print %samei : i64
    vector.print str "loss "
    vector.print %lossv : f32
    scf.yield %a1, %b1, %s1, %n1 : tensor<4x8xf32>, tensor<8x1xf32>, f32, i64
  }

  // Track: 10 ordinary steps from the initial weights.
  vector.print str "section track\n"
  %track:4 = scf.for %k = %c0 to %c10 step %c1
      iter_args(%a = %w1, %b = %w2, %s = %s256, %n = %n0)
      -> (tensor<4x8xf32>, tensor<8x1xf32>, f32, i64) {
    %loss, %a1, %b1, %g1, %g2, %s1, %n1 = func.call @step(%a, %b, %x, %y, %one, %s, %n)
        : (tensor<4x8xf32>, tensor<8x1xf32>, tensor<16x4xf32>, tensor<16x1xf32>, f32, f32, i64)
        -> (tensor<f32>, tensor<4x8xf32>, tensor<8x1xf32>, tensor<4x8xf32>, tensor<8x1xf32>, f32, i64)
    %ki = arith.index_cast %k : index to i64
    %lossv = tensor.extract %loss[] : tensor<f32>
    vector.print str "step "
    vector.print %ki : i64
    vector.print str "scale_out "
    vector.print %s1 : f32
    vector.print str "loss "
    vector.print %lossv : f32
    scf.yield %a1, %b1, %s1, %n1 : tensor<4x8xf32>, tensor<8x1xf32>, f32, i64
  }

  // Underflow: one step with loss weight 2^-20, at scale 1 (the arithmetic
  // of the step without loss scaling) and at scale 2^16.
  vector.print str "section underflow\n"
  %tiny = arith.constant 9.5367431640625e-07 : f32
  %s64k = arith.constant 65536.0 : f32
  %l0, %p0, %q0, %u1, %u2, %t0, %m0 = func.call @step(%w1, %w2, %x, %y, %tiny, %one, %n0)
      : (tensor<4x8xf32>, tensor<8x1xf32>, tensor<16x4xf32>, tensor<16x1xf32>, f32, f32, i64)
      -> (tensor<f32>, tensor<4x8xf32>, tensor<8x1xf32>, tensor<4x8xf32>, tensor<8x1xf32>, f32, i64)
  %l1, %p1, %q1, %v1, %v2, %t1, %m1 = func.call @step(%w1, %w2, %x, %y, %tiny, %s64k, %n0)
      : (tensor<4x8xf32>, tensor<8x1xf32>, tensor<16x4xf32>, tensor<16x1xf32>, f32, f32, i64)
      -> (tensor<f32>, tensor<4x8xf32>, tensor<8x1xf32>, tensor<4x8xf32>, tensor<8x1xf32>, f32, i64)
  %u1d = tensor.cast %u1 : tensor<4x8xf32> to tensor<?x?xf32>
  %u2d = tensor.cast %u2 : tensor<8x1xf32> to tensor<?x?xf32>
  %v1d = tensor.cast %v1 : tensor<4x8xf32> to tensor<?x?xf32>
  %v2d = tensor.cast %v2 : tensor<8x1xf32> to tensor<?x?xf32>
  %zu1 = func.call @count_zeros(%u1d) : (tensor<?x?xf32>) -> i64
  %zu2 = func.call @count_zeros(%u2d) : (tensor<?x?xf32>) -> i64
  %zv1 = func.call @count_zeros(%v1d) : (tensor<?x?xf32>) -> i64
  %zv2 = func.call @count_zeros(%v2d) : (tensor<?x?xf32>) -> i64
  %zu = arith.addi %zu1, %zu2 : i64
  %zv = arith.addi %zv1, %zv2 : i64
  vector.print str "zeros_unscaled "
  vector.print %zu : i64
  vector.print str "zeros_scaled "
  vector.print %zv : i64
  vector.print str "grad_w1_scaled\n"
  %v1u = tensor.cast %v1 : tensor<4x8xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v1u) : (tensor<*xf32>) -> ()
  vector.print str "grad_w2_scaled\n"
  %v2u = tensor.cast %v2 : tensor<8x1xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v2u) : (tensor<*xf32>) -> ()
  return
}
