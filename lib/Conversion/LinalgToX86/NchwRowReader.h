//===- NchwRowReader.h - NCHW row vectors, through a pad -----*- C++ -*-===//
//
// Internal to lib/Conversion/LinalgToX86: the input vectors the direct NCHW
// kernels (depthwise and pooling windows, convolutions of a few input
// channels) read along output rows, one per column tap: contiguous at
// stride 1, every other element of a span twice as long at stride 2, masked
// at the row's end, widened to f32. Read through an explicit pad
// (ExplicitPad.h), the input is the pad's source and a vector reaching past
// either end of a row gets the pad value there.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_LINALGTOX86_NCHWROWREADER_H
#define LIB_CONVERSION_LINALGTOX86_NCHWROWREADER_H

#include "ExplicitPad.h"
#include "KernelBuilder.h"

#include <utility>

namespace mlir::lowp::x86 {

class NchwRowReader {
public:
  /// `input` is [N][C][H][W]; with `pad`, the padded buffer it is read
  /// through (its source is read instead).
  NchwRowReader(KernelBuilder &kb, Value input, unsigned lanes, int64_t strideW,
                int64_t dilationW, const ExplicitPad *pad);

  /// The buffer read: the input, or the pad's source.
  Value source() const { return input; }
  /// The source's rows and columns, and the padding before them.
  int64_t rows() const { return ih; }
  int64_t cols() const { return iw; }
  int64_t padTop() const { return top; }
  int64_t padLeft() const { return left; }

  /// Whether row `row` of the source (known at compile time, negative
  /// before it) is a row of the pad.
  bool isPadRow(int64_t row) const { return row < 0 || row >= ih; }

  /// Whether the vector of output columns from `firstCol` reads inside the
  /// source's row at every column tap below `kw`.
  bool spanFits(int64_t firstCol, int64_t kw) const;

  /// The output rows [first, last) of `oh` whose every filter row (of `kh`
  /// at stride `strideH`, dilation `dilationH`) reads a row of the source,
  /// not of the pad: the kernels' row loop; the rest are blocks at known
  /// rows.
  std::pair<int64_t, int64_t>
  insideRows(int64_t oh, int64_t kh, int64_t strideH, int64_t dilationH) const;
  /// The output columns [first, last) of blocks of `step` columns (a
  /// multiple of the lanes) that start at a multiple of `step`, end at most
  /// at `bound`, and read inside the source's row at every column tap below
  /// `kw`: the kernels' column loop (none when last <= first); the rest
  /// are blocks at known columns.
  std::pair<int64_t, int64_t> insideColumns(int64_t step, int64_t bound,
                                            int64_t kw) const;

  /// Output columns x .. x+lanes-1 of row `iy` (a row of the source) of
  /// image n, channel c at column tap j, widened to f32. `staticX`: x when
  /// known, -1 where every tap reads inside the row (spanFits); `needed`
  /// of the lanes are used.
  Value load(Value n, Value c, Value iy, Value x, int64_t staticX, int64_t j,
             int64_t needed);

  /// The pad value as a widened vector (the taps on a row of the pad).
  Value padRow() const { return padWide; }

  /// `v` (a narrow float scalar or vector) as f32.
  Value widen(Value v);

private:
  KernelBuilder &kb;
  Value input;
  unsigned lanes;
  int64_t sw, dw;
  int64_t ih, iw, top = 0, left = 0;
  Type elem;
  /// The pad value as a raw span (sw x lanes) and widened.
  Value padSpan, padWide;
};

} // namespace mlir::lowp::x86

#endif // LIB_CONVERSION_LINALGTOX86_NCHWROWREADER_H
