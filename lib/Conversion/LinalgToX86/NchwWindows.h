//===- NchwWindows.h - an NCHW input's windows as im2col rows -------------===//
//
// Internal to lib/Conversion/LinalgToX86: the rows of an NCHW convolution's
// im2col matrix read from its input, a vector of output columns at a time.
// The forward convolution (ConvNchwKernel.cpp) writes them as its GEMM's B,
// the filter gradient (ConvFilterGradKernel.cpp) as its A.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_LINALGTOX86_NCHWWINDOWS_H
#define LIB_CONVERSION_LINALGTOX86_NCHWWINDOWS_H

#include "KernelBuilder.h"

namespace mlir::lowp::x86 {

/// The windows of `input` ([N][C][H][W], padded as the convolution reads
/// it) under a KH x KW filter: row kk = (c, i, j) of the C*KH*KW taps holds,
/// per output pixel (y, x), input[n][c][y*s0 + i*d0][x*s1 + j*d1].
class NchwWindows {
public:
  NchwWindows(KernelBuilder &kb, Value input, ArrayRef<int64_t> strides,
              ArrayRef<int64_t> dilations, int64_t kh, int64_t kw, int64_t ow,
              unsigned lanes);

  /// A tap's channel and its row and column offsets in the input.
  struct TapOffsets {
    Value ci, iOffset, jx;
  };
  /// A tap at one output row: channel, input row, column offset.
  struct Tap {
    Value ci, iy, jx;
  };
  /// Tap `kk` decoded (once per im2col row and block, not per output row).
  TapOffsets decode(Value kk);
  /// The tap at output row y.
  Tap at(const TapOffsets &t, Value y);

  /// `lanes` input values of tap `t` for output columns x.. of image `n`: at
  /// stride 1 a contiguous run of the input; at stride 2 two runs with the
  /// even elements shuffled out, the second one starting an element early
  /// so that it ends on the last element used (input column 2 (x + lanes -
  /// 1) + j, inside the row for every x + lanes <= OW: a convolution's
  /// shapes guarantee inW >= 2 (OW - 1) + jMax + 1).
  Value loadRun(Value n, const Tap &t, Value x);

  /// The OW output columns of tap `t` (image n, one output row): `store(x,
  /// vector)` for runs of `lanes` columns, the last OW mod lanes columns one
  /// more run ending at column OW - 1 (rewriting columns already given with
  /// the same values); `storeOne(x, scalar)` element by element when OW <
  /// lanes or at strides above 2.
  void copyRow(Value n, const Tap &t, function_ref<void(Value, Value)> store,
               function_ref<void(Value, Value)> storeOne);

private:
  KernelBuilder &kb;
  Value input;
  SmallVector<int64_t, 2> strides, dilations;
  int64_t kh, kw, ow;
  unsigned lanes;
  Type elem;
  bool vectorRuns;
  SmallVector<int64_t> evens;
};

} // namespace mlir::lowp::x86

#endif // LIB_CONVERSION_LINALGTOX86_NCHWWINDOWS_H
