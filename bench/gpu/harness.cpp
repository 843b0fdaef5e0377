//===- harness.cpp - entry point and printing for prebuilt GPU programs ---===//
//
// bench/gpu/build-device-check.sh links each lowered model (its @main
// renamed @lowp_main) with this file and liblowp_cuda_runtime.so only: the
// GPU machine has neither LLVM nor MLIR's runner libraries. printMemrefF32
// prints what MLIR's does (the header check_model.py splits on, then the
// values), at full f32 precision.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>

namespace {
/// A ranked memref descriptor: pointers, offset, sizes, strides.
template <typename T> struct Descriptor {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1]; // rank sizes, then rank strides
};

void printValue(float v) { std::printf("%.9g", v); }
void printValue(int32_t v) { std::printf("%d", v); }

template <typename T>
void printRecursive(const T *base, const int64_t *sizes,
                    const int64_t *strides, int64_t rank, int64_t dim,
                    int64_t offset) {
  std::printf("[");
  for (int64_t i = 0; i < sizes[dim]; ++i) {
    if (i)
      std::printf(", ");
    if (dim + 1 == rank)
      printValue(base[offset + i * strides[dim]]);
    else
      printRecursive(base, sizes, strides, rank, dim + 1,
                     offset + i * strides[dim]);
  }
  std::printf("]");
}

template <typename T> void printMemref(int64_t rank, Descriptor<T> *d) {
  std::printf("Unranked Memref rank = %lld data = \n",
              static_cast<long long>(rank));
  if (rank == 0)
    printValue(d->aligned[d->offset]);
  else
    printRecursive(d->aligned, d->sizesAndStrides, d->sizesAndStrides + rank,
                   rank, 0, d->offset);
  std::printf("\n");
}
} // namespace

/// func.func private @printMemrefF32(memref<*xf32>) (and I32): the rank and
/// the ranked descriptor of the unranked memref.
extern "C" void printMemrefF32(int64_t rank, Descriptor<float> *d) {
  printMemref(rank, d);
}
extern "C" void printMemrefI32(int64_t rank, Descriptor<int32_t> *d) {
  printMemref(rank, d);
}

extern "C" void lowp_main();

int main() {
  lowp_main();
  return 0;
}
