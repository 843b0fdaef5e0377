// RUN: fp-opt %s -split-input-file -lowp-materialize-loss-scaling | FileCheck %s --check-prefix=DYN
// RUN: fp-opt %s -split-input-file -lowp-materialize-loss-scaling="mode=static init-scale=1024" | FileCheck %s --check-prefix=STATIC
// RUN: fp-opt %s -split-input-file -lowp-materialize-loss-scaling="growth-interval=100 min-scale=1 max-scale=1000000 backoff-factor=0.25 growth-factor=4" | FileCheck %s --check-prefix=OPTS
// Idempotent: a second run recognizes the materialized step (and says so).
// RUN: fp-opt %s -split-input-file -lowp-materialize-loss-scaling 2>/dev/null | fp-opt -lowp-materialize-loss-scaling 2>/dev/null | FileCheck %s --check-prefix=DYN
// RUN: fp-opt %s -split-input-file -lowp-materialize-loss-scaling="check-numerics=true" | FileCheck %s --check-prefix=NUM
// RUN: fp-opt %s -split-input-file -lowp-materialize-loss-scaling="mode=none" 2>/dev/null | FileCheck %s --check-prefix=NONE
// RUN: fp-opt %s -split-input-file -lowp-materialize-loss-scaling="policy=bf16" 2>/dev/null | FileCheck %s --check-prefix=NONE

// A minimal f16 training step: f16 backward from the seed, f32 master
// gradient, SGD update of the f32 parameter.

// DYN-LABEL: func.func @step(
// DYN-SAME:      %[[W:.*]]: tensor<4xf32>, %[[X:.*]]: tensor<4xf16>,
// DYN-SAME:      %[[S:.*]]: f32 {lowp.loss_scale = 6.553600e+04 : f32},
// DYN-SAME:      %[[N:.*]]: i64 {lowp.good_steps})
// DYN-SAME:      -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64},
// DYN-SAME:          f32 {lowp.loss_scale}, i64 {lowp.good_steps})
// DYN-SAME:      attributes {lowp.loss_scaling = "dynamic"}
// DYN:         %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f16>
// DYN-NEXT:    %[[SEED:.*]] = lowp.scale %[[S]], %[[ONE]] {lowp.loss_seed} : f32, tensor<f16>
// DYN-NEXT:    tensor.extract %[[SEED]][]
// DYN:         %[[G:.*]] = arith.extf %{{.*}} : tensor<4xf16> to tensor<4xf32>
// DYN-NEXT:    %[[U:.*]] = lowp.unscale %[[S]], %[[G]] {lowp.gradient = "w"} : f32, tensor<4xf32>
// DYN-NEXT:    %[[OK:.*]] = lowp.all_finite %[[U]] : tensor<4xf32>
// DYN:         %[[D:.*]] = arith.mulf %{{.*}}, %[[U]] : tensor<4xf32>
// DYN-NEXT:    %[[NEW:.*]] = arith.subf %[[W]], %[[D]] : tensor<4xf32>
// DYN-NEXT:    %[[SEL:.*]] = arith.select %[[OK]], %[[NEW]], %[[W]] : tensor<4xf32>
// DYN-NEXT:    %[[S1:.*]], %[[N1:.*]] = lowp.update_scale %[[S]], %[[N]], %[[OK]] : f32, i64
// DYN-NEXT:    return %{{.*}}, %[[SEL]], %[[S1]], %[[N1]] : tensor<f32>, tensor<4xf32>, f32, i64

// STATIC-LABEL: func.func @step(
// STATIC-SAME:      %[[W:.*]]: tensor<4xf32>, %{{.*}}: tensor<4xf16>)
// STATIC-SAME:      -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64})
// STATIC-SAME:      attributes {lowp.loss_scaling = "static"}
// STATIC-NEXT:   %[[S:.*]] = arith.constant 1.024000e+03 : f32
// STATIC:        lowp.scale %[[S]], %{{.*}} {lowp.loss_seed} : f32, tensor<f16>
// STATIC:        %[[U:.*]] = lowp.unscale %[[S]], %{{.*}} {lowp.gradient = "w"} : f32, tensor<4xf32>
// STATIC-NEXT:   %[[OK:.*]] = lowp.all_finite %[[U]] : tensor<4xf32>
// STATIC:        %[[SEL:.*]] = arith.select %[[OK]], %{{.*}}, %[[W]] : tensor<4xf32>
// STATIC-NOT:    lowp.update_scale
// STATIC-NEXT:   return %{{.*}}, %[[SEL]] : tensor<f32>, tensor<4xf32>

// OPTS-LABEL: func.func @step(
// OPTS:         lowp.update_scale %{{.*}}, %{{.*}}, %{{.*}} {backoff_factor = 2.500000e-01 : f64, growth_factor = 4.000000e+00 : f64, growth_interval = 100 : i64, max_scale = 1.000000e+06 : f64, min_scale = 1.000000e+00 : f64} : f32, i64

// NUM-LABEL: func.func @step(
// NUM-SAME:      attributes {lowp.loss_scaling = "dynamic", lowp.numerics_checked}
// NUM:         %[[U:.*]] = lowp.unscale
// NUM:         %[[LOSS_OK:.*]] = lowp.all_finite %[[LOSS:.*]] : tensor<f32>
// NUM-NEXT:    %[[G_OK:.*]] = lowp.all_finite %[[U]] : tensor<4xf32>
// NUM:         %[[BAD:.*]] = arith.xori %[[LOSS_OK]], %{{.*}} : i1
// NUM-NEXT:    scf.if %[[BAD]] {
// NUM-NEXT:      vector.print str "lowp.check_numerics: non-finite loss (result #0 of @step) at {{.*}}lowp-materialize-loss-scaling.mlir:[[LOSS_LINE:[0-9]+]]:{{[0-9]+}}\0A"
// NUM-NEXT:    } else {
// NUM:           scf.if
// NUM-NEXT:        vector.print str "lowp.check_numerics: non-finite 'w' at {{.*}}lowp-materialize-loss-scaling.mlir:{{[0-9]+}}:{{[0-9]+}}\0A"
// NUM:         return %[[LOSS]],

// NONE-LABEL: func.func @step(
// NONE-SAME:      %{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf16>)
// NONE-SAME:      -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
// NONE-NOT:     lowp.
// NONE:         arith.constant {lowp.loss_seed}
// NONE-NOT:     lowp.scale
// NONE:         arith.extf %{{.*}} {lowp.gradient = "w"}
// NONE-NOT:     lowp.
// NONE:         return

func.func @step(%w: tensor<4xf32>, %x: tensor<4xf16>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %w16 = arith.truncf %w : tensor<4xf32> to tensor<4xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %loss = linalg.dot ins(%w16, %x : tensor<4xf16>, tensor<4xf16>)
                     outs(%acc : tensor<f32>) -> tensor<f32>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  %s = tensor.extract %seed[] : tensor<f16>
  %e16 = tensor.empty() : tensor<4xf16>
  %sb = linalg.fill ins(%s : f16) outs(%e16 : tensor<4xf16>) -> tensor<4xf16>
  %g16 = arith.mulf %sb, %x : tensor<4xf16>
  %g = arith.extf %g16 {lowp.gradient = "w"} : tensor<4xf16> to tensor<4xf32>
  %lr = arith.constant dense<0.125> : tensor<4xf32>
  %d = arith.mulf %lr, %g : tensor<4xf32>
  %w1 = arith.subf %w, %d : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// The mode comes from the module's policy when the option does not set it.

// DYN-LABEL: func.func @policy_static(
// DYN-SAME:      %{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf16>)
// DYN-SAME:      attributes {lowp.loss_scaling = "static"}
// DYN-NEXT:    arith.constant 6.553600e+04 : f32
// DYN-NOT:     lowp.update_scale
// DYN:         return
module attributes {lowp.policy = #lowp.policy<compute = f16, accumulate = f32, storage = f32, loss_scale = static>} {
  func.func @policy_static(%w: tensor<4xf32>, %x: tensor<4xf16>)
      -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
    %loss = arith.constant dense<0.5> : tensor<f32>
    %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
    %s = tensor.extract %seed[] : tensor<f16>
    %e16 = tensor.empty() : tensor<4xf16>
    %sb = linalg.fill ins(%s : f16) outs(%e16 : tensor<4xf16>) -> tensor<4xf16>
    %g16 = arith.mulf %sb, %x : tensor<4xf16>
    %g = arith.extf %g16 {lowp.gradient} : tensor<4xf16> to tensor<4xf32>
    %w1 = arith.subf %w, %g : tensor<4xf32>
    return %loss, %w1 : tensor<f32>, tensor<4xf32>
  }
}

// -----

// A bf16 policy needs no loss scaling: the step is left as it is.

// DYN-LABEL: func.func @bf16_step(
// DYN-SAME:      %{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xbf16>)
// DYN-SAME:      -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
// DYN-NOT:     lowp.scale
// DYN-NOT:     lowp.unscale
// DYN-NOT:     arith.select
// DYN:         return
module attributes {lowp.policy = #lowp.policy<compute = bf16, accumulate = f32, storage = f32, loss_scale = none>} {
  func.func @bf16_step(%w: tensor<4xf32>, %x: tensor<4xbf16>)
      -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
    %loss = arith.constant dense<0.5> : tensor<f32>
    %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<bf16>
    %s = tensor.extract %seed[] : tensor<bf16>
    %e16 = tensor.empty() : tensor<4xbf16>
    %sb = linalg.fill ins(%s : bf16) outs(%e16 : tensor<4xbf16>) -> tensor<4xbf16>
    %g16 = arith.mulf %sb, %x : tensor<4xbf16>
    %g = arith.extf %g16 {lowp.gradient} : tensor<4xbf16> to tensor<4xf32>
    %w1 = arith.subf %w, %g : tensor<4xf32>
    return %loss, %w1 : tensor<f32>, tensor<4xf32>
  }
}

// -----

// Two gradients from one op, two parameters and a momentum buffer: one
// all_finite over every unscaled gradient guards all three updates.

// DYN-LABEL: func.func @momentum(
// DYN-SAME:      %[[A:[^:]*]]: tensor<4xf32>, %[[B:[^:]*]]: tensor<4xf32>, %[[M:[^:]*]]: tensor<4xf32>,
// DYN:         %[[GA:.*]]:2 = linalg.generic
// DYN:         %[[U:.*]]:2 = lowp.unscale %{{.*}}, %[[GA]]#0, %[[GA]]#1 {lowp.gradient} : f32, tensor<4xf32>, tensor<4xf32>
// DYN-NEXT:    %[[OK:.*]] = lowp.all_finite %[[U]]#0, %[[U]]#1 : tensor<4xf32>, tensor<4xf32>
// DYN-NEXT:    %[[M1:.*]] = arith.addf %[[M]], %[[U]]#0
// DYN-DAG:     arith.select %[[OK]], %{{.*}}, %[[A]] : tensor<4xf32>
// DYN-DAG:     arith.select %[[OK]], %{{.*}}, %[[B]] : tensor<4xf32>
// DYN-DAG:     arith.select %[[OK]], %[[M1]], %[[M]] : tensor<4xf32>
// DYN:         lowp.update_scale
#id = affine_map<(d0) -> (d0)>
func.func @momentum(%a: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %x: tensor<4xf16>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64},
        tensor<4xf32> {lowp.updates = 1 : i64}, tensor<4xf32> {lowp.updates = 2 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  %s = tensor.extract %seed[] : tensor<f16>
  %e = tensor.empty() : tensor<4xf32>
  %g:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf16>) outs(%e, %e : tensor<4xf32>, tensor<4xf32>) attrs = {lowp.gradient} {
  ^bb0(%in: f16, %o0: f32, %o1: f32):
    %p = arith.mulf %in, %s : f16
    %q = arith.extf %p : f16 to f32
    linalg.yield %q, %q : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  %m1 = arith.addf %m, %g#0 : tensor<4xf32>
  %a1 = arith.subf %a, %m1 : tensor<4xf32>
  %b1 = arith.subf %b, %g#1 : tensor<4xf32>
  return %loss, %a1, %b1, %m1 : tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Functions without markings are never touched.

// DYN-LABEL: func.func @unmarked(
// DYN-SAME:      %{{.*}}: tensor<4xf16>) -> tensor<4xf16> {
// DYN-NEXT:    arith.constant dense<1.000000e+00> : tensor<4xf16>
// DYN-NEXT:    arith.mulf
// DYN-NEXT:    return
func.func @unmarked(%x: tensor<4xf16>) -> tensor<4xf16> {
  %one = arith.constant dense<1.0> : tensor<4xf16>
  %y = arith.mulf %x, %one : tensor<4xf16>
  return %y : tensor<4xf16>
}

// -----

// A marked gradient that precision inference left in f16, read only through
// exact widening casts: each cast result is a master gradient and is
// unscaled (the marker moves to the unscale).

// DYN-LABEL: func.func @demoted_gradient(
// DYN:         %[[G16:.*]] = arith.mulf %{{.*}}, %{{.*}} : tensor<4xf16>
// DYN-NOT:     lowp.gradient
// DYN-NEXT:    %[[G:.*]] = lowp.cast %[[G16]] : tensor<4xf16> to tensor<4xf32>
// DYN-NEXT:    %[[U:.*]] = lowp.unscale %{{.*}}, %[[G]] {lowp.gradient = "w"} : f32, tensor<4xf32>
// DYN-NEXT:    %[[OK:.*]] = lowp.all_finite %[[U]] : tensor<4xf32>
// DYN-NEXT:    arith.subf %{{.*}}, %[[U]] : tensor<4xf32>
func.func @demoted_gradient(%w: tensor<4xf32>, %x: tensor<4xf16>)
    -> (tensor<f32> {lowp.loss}, tensor<4xf32> {lowp.updates = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %seed = arith.constant {lowp.loss_seed} dense<1.0> : tensor<f16>
  %s = tensor.extract %seed[] : tensor<f16>
  %e16 = tensor.empty() : tensor<4xf16>
  %sb = linalg.fill ins(%s : f16) outs(%e16 : tensor<4xf16>) -> tensor<4xf16>
  %g16 = arith.mulf %sb, %x {lowp.gradient = "w"} : tensor<4xf16>
  %g = lowp.cast %g16 : tensor<4xf16> to tensor<4xf32>
  %w1 = arith.subf %w, %g : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}
