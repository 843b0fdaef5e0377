// Appended to nothing: the driver of ../prepack-no-leaks.test. Two
// shared objects are loaded, compiled from the same two nn.Linear layers
// (../../X86/Inputs/prepack-linear.mlir): @forward with prepack=true (its
// weights packed by @forward_prepack) and @forward_unpacked without (the
// per-call packing path). The driver packs the weights once, then
//  - asks the library which arguments of @forward take packed buffers
//    (@forward_prepacked_arguments);
//  - compares forward(x, packed) with forward_unpacked(x, w) on two inputs:
//    the same k order and rounding, so the results must be bit-identical;
//  - calls forward 1,000 times more on the same packed weights and prints
//    the growth of the heap in use and of the resident set, and whether
//    the last result equals the first.
// PACKED1 / PACKED2 are filled in per target by the RUN lines.

func.func private @lowpHeapInUseBytes() -> i64
func.func private @lowpResidentBytes() -> i64
func.func private @forward_prepack(tensor<40x38xf32>, tensor<20x40xf32>) -> (tensor<PACKED1>, tensor<PACKED2>)
func.func private @forward(tensor<13x38xf32>, tensor<PACKED1>, tensor<40xf32>, tensor<PACKED2>, tensor<20xf32>) -> tensor<13x20xf32>
func.func private @forward_prepacked_arguments() -> tensor<2xi64>
func.func private @forward_unpacked(tensor<13x38xf32>, tensor<40x38xf32>, tensor<40xf32>, tensor<20x40xf32>, tensor<20xf32>) -> tensor<13x20xf32>

// Deterministic values in [-scale, scale] (not exact in bf16: the rounding
// of the weights is part of what must agree).
func.func @gen(%n: index, %seed: i32, %scale: f32) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]} outs(%e : tensor<?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %c7919 = arith.constant 7919 : i32
    %c104729 = arith.constant 104729 : i32
    %c10007 = arith.constant 10007 : i32
    %a = arith.muli %ii, %c7919 : i32
    %b = arith.muli %seed, %c104729 : i32
    %s = arith.addi %a, %b : i32
    %m = arith.remui %s, %c10007 : i32
    %f = arith.uitofp %m : i32 to f32
    %half = arith.constant 5003.0 : f32
    %c = arith.subf %f, %half : f32
    %u = arith.divf %c, %half : f32
    %v = arith.mulf %u, %scale : f32
    linalg.yield %v : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @gen2(%rows: index, %cols: index, %seed: i32, %scale: f32) -> tensor<?x?xf32> {
  %n = arith.muli %rows, %cols : index
  %flat = call @gen(%n, %seed, %scale) : (index, i32, f32) -> tensor<?xf32>
  %r = tensor.expand_shape %flat [[0, 1]] output_shape [%rows, %cols]
      : tensor<?xf32> into tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// max |p - q| over a 13x20 result.
func.func @maxdiff(%p: tensor<13x20xf32>, %q: tensor<13x20xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %acc0 = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<f32>) -> tensor<f32>
  %diff = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                           affine_map<(i, j) -> (i, j)>,
                                           affine_map<(i, j) -> ()>],
                          iterator_types = ["reduction", "reduction"]}
      ins(%p, %q : tensor<13x20xf32>, tensor<13x20xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %m: f32):
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %mx = arith.maximumf %ad, %m : f32
    linalg.yield %mx : f32
  } -> tensor<f32>
  %r = tensor.extract %diff[] : tensor<f32>
  return %r : f32
}

// sum of squares (a finite, non-trivial output).
func.func @sumsq(%p: tensor<13x20xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %acc0 = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> ()>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%p : tensor<13x20xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%a: f32, %m: f32):
    %q = arith.mulf %a, %a : f32
    %t = arith.addf %q, %m : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  %r = tensor.extract %s[] : tensor<f32>
  return %r : f32
}

func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c13 = arith.constant 13 : index
  %c20 = arith.constant 20 : index
  %c38 = arith.constant 38 : index
  %c40 = arith.constant 40 : index
  %c1000 = arith.constant 1000 : index
  %one = arith.constant 1.0 : f32
  %w = arith.constant 0.3 : f32
  %s0 = arith.constant 0 : i32
  %s1 = arith.constant 1 : i32
  %s2 = arith.constant 2 : i32
  %s3 = arith.constant 3 : i32
  %s4 = arith.constant 4 : i32
  %s5 = arith.constant 5 : i32
  %x0d = call @gen2(%c13, %c38, %s0, %one) : (index, index, i32, f32) -> tensor<?x?xf32>
  %x0 = tensor.cast %x0d : tensor<?x?xf32> to tensor<13x38xf32>
  %x1d = call @gen2(%c13, %c38, %s5, %one) : (index, index, i32, f32) -> tensor<?x?xf32>
  %x1 = tensor.cast %x1d : tensor<?x?xf32> to tensor<13x38xf32>
  %w1d = call @gen2(%c40, %c38, %s1, %w) : (index, index, i32, f32) -> tensor<?x?xf32>
  %w1 = tensor.cast %w1d : tensor<?x?xf32> to tensor<40x38xf32>
  %w2d = call @gen2(%c20, %c40, %s2, %w) : (index, index, i32, f32) -> tensor<?x?xf32>
  %w2 = tensor.cast %w2d : tensor<?x?xf32> to tensor<20x40xf32>
  %b1d = call @gen(%c40, %s3, %w) : (index, i32, f32) -> tensor<?xf32>
  %b1 = tensor.cast %b1d : tensor<?xf32> to tensor<40xf32>
  %b2d = call @gen(%c20, %s4, %w) : (index, i32, f32) -> tensor<?xf32>
  %b2 = tensor.cast %b2d : tensor<?xf32> to tensor<20xf32>

  %args = call @forward_prepacked_arguments() : () -> tensor<2xi64>
  %arg0 = tensor.extract %args[%c0] : tensor<2xi64>
  %arg1 = tensor.extract %args[%c1] : tensor<2xi64>
  vector.print str "packed arguments: "
  vector.print %arg0 : i64
  vector.print %arg1 : i64

  %p1, %p2 = call @forward_prepack(%w1, %w2)
      : (tensor<40x38xf32>, tensor<20x40xf32>) -> (tensor<PACKED1>, tensor<PACKED2>)
  %y0 = call @forward(%x0, %p1, %b1, %p2, %b2)
      : (tensor<13x38xf32>, tensor<PACKED1>, tensor<40xf32>, tensor<PACKED2>, tensor<20xf32>) -> tensor<13x20xf32>
  %r0 = call @forward_unpacked(%x0, %w1, %b1, %w2, %b2)
      : (tensor<13x38xf32>, tensor<40x38xf32>, tensor<40xf32>, tensor<20x40xf32>, tensor<20xf32>) -> tensor<13x20xf32>
  %y1 = call @forward(%x1, %p1, %b1, %p2, %b2)
      : (tensor<13x38xf32>, tensor<PACKED1>, tensor<40xf32>, tensor<PACKED2>, tensor<20xf32>) -> tensor<13x20xf32>
  %r1 = call @forward_unpacked(%x1, %w1, %b1, %w2, %b2)
      : (tensor<13x38xf32>, tensor<40x38xf32>, tensor<40xf32>, tensor<20x40xf32>, tensor<20xf32>) -> tensor<13x20xf32>
  %d0 = call @maxdiff(%y0, %r0) : (tensor<13x20xf32>, tensor<13x20xf32>) -> f32
  %d1 = call @maxdiff(%y1, %r1) : (tensor<13x20xf32>, tensor<13x20xf32>) -> f32
  // Negative control: the two inputs give different results.
  %dx = call @maxdiff(%y0, %r1) : (tensor<13x20xf32>, tensor<13x20xf32>) -> f32
  %zero = arith.constant 0.0 : f32
  %eq0 = arith.cmpf oeq, %d0, %zero : f32
  %eq1 = arith.cmpf oeq, %d1, %zero : f32
  %ne = arith.cmpf ogt, %dx, %zero : f32
  vector.print str "prepacked equals unpacked (x0): "
  vector.print %eq0 : i1
  vector.print str "prepacked equals unpacked (x1): "
  vector.print %eq1 : i1
  vector.print str "control differs: "
  vector.print %ne : i1

  %warm = scf.for %i = %c0 to %c1 step %c1 iter_args(%y = %y0) -> tensor<13x20xf32> {
    %r = func.call @forward(%x0, %p1, %b1, %p2, %b2)
        : (tensor<13x38xf32>, tensor<PACKED1>, tensor<40xf32>, tensor<PACKED2>, tensor<20xf32>) -> tensor<13x20xf32>
    scf.yield %r : tensor<13x20xf32>
  }
  // The probes' own first calls (lazy binding, stdio) allocate once.
  %rssprime = call @lowpResidentBytes() : () -> i64
  %heapprime = call @lowpHeapInUseBytes() : () -> i64
  %rss0 = call @lowpResidentBytes() : () -> i64
  %heap0 = call @lowpHeapInUseBytes() : () -> i64
  %last = scf.for %i = %c0 to %c1000 step %c1 iter_args(%y = %warm) -> tensor<13x20xf32> {
    %r = func.call @forward(%x0, %p1, %b1, %p2, %b2)
        : (tensor<13x38xf32>, tensor<PACKED1>, tensor<40xf32>, tensor<PACKED2>, tensor<20xf32>) -> tensor<13x20xf32>
    scf.yield %r : tensor<13x20xf32>
  }
  %heap1 = call @lowpHeapInUseBytes() : () -> i64
  %rss1 = call @lowpResidentBytes() : () -> i64
  %dheap = arith.subi %heap1, %heap0 : i64
  %drss = arith.subi %rss1, %rss0 : i64
  vector.print str "heap growth over 1000 calls (bytes): "
  vector.print %dheap : i64
  // Flat: under 4 KiB more heap in use (one 13x20 result is 1 KiB; a
  // leaked packed copy of w2 alone would be 1000 x 3 KiB), the resident
  // set within 1 MiB.
  %c4kib = arith.constant 4096 : i64
  %c1mib = arith.constant 1048576 : i64
  %heapflat = arith.cmpi sle, %dheap, %c4kib : i64
  %rssflat = arith.cmpi sle, %drss, %c1mib : i64
  %flat = arith.andi %heapflat, %rssflat : i1
  vector.print str "memory flat: "
  vector.print %flat : i1
  %dl = call @maxdiff(%y0, %last) : (tensor<13x20xf32>, tensor<13x20xf32>) -> f32
  %same = arith.cmpf oeq, %dl, %zero : f32
  vector.print str "last result equals first: "
  vector.print %same : i1
  %ss = call @sumsq(%last) : (tensor<13x20xf32>) -> f32
  %lo = arith.constant 1.0e-2 : f32
  %hi = arith.constant 1.0e6 : f32
  %above = arith.cmpf ogt, %ss, %lo : f32
  %below = arith.cmpf olt, %ss, %hi : f32
  %sane = arith.andi %above, %below : i1
  vector.print str "output finite and non-zero: "
  vector.print %sane : i1
  %ret = arith.constant 0 : i32
  return %ret : i32
}
