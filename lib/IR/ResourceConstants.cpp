//===- ResourceConstants.cpp - float dense_resource constants -------------===//

#include "lowp/IR/ResourceConstants.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace mlir;
using namespace mlir::lowp;

/// Bytes one element of `type` takes in a blob, which holds the host's
/// in-memory layout: 1, 2, 4 or 8.
static unsigned getStorageBytes(FloatType type) {
  return llvm::PowerOf2Ceil(llvm::divideCeil(type.getWidth(), 8));
}

/// The element of `bytes` bytes at `data`, in host byte order.
static uint64_t loadBits(const char *data, unsigned bytes) {
  auto load = [&](auto word) -> uint64_t {
    std::memcpy(&word, data, sizeof(word));
    return word;
  };
  switch (bytes) {
  case 1:
    return load(uint8_t());
  case 2:
    return load(uint16_t());
  case 4:
    return load(uint32_t());
  default:
    return load(uint64_t());
  }
}

/// Stores the low `bytes` bytes of `bits` at `data`, in host byte order.
static void storeBits(char *data, unsigned bytes, uint64_t bits) {
  auto store = [&](auto word) { std::memcpy(data, &word, sizeof(word)); };
  switch (bytes) {
  case 1:
    return store(static_cast<uint8_t>(bits));
  case 2:
    return store(static_cast<uint16_t>(bits));
  case 4:
    return store(static_cast<uint32_t>(bits));
  default:
    return store(bits);
  }
}

std::optional<SmallVector<llvm::APFloat>>
mlir::lowp::readResourceFloats(DenseResourceElementsAttr value) {
  auto elementType = dyn_cast<FloatType>(value.getType().getElementType());
  if (!elementType || !value.getType().hasStaticShape())
    return std::nullopt;
  ArrayRef<char> data = value.getData();
  unsigned bytes = getStorageBytes(elementType);
  int64_t count = value.getType().getNumElements();
  if (bytes > 8 || data.size() != static_cast<size_t>(count) * bytes)
    return std::nullopt;
  SmallVector<llvm::APFloat> values;
  values.reserve(count);
  const llvm::fltSemantics &semantics = elementType.getFloatSemantics();
  for (int64_t i = 0; i < count; ++i) {
    uint64_t bits = loadBits(data.data() + i * bytes, bytes);
    values.emplace_back(semantics, APInt(elementType.getWidth(), bits));
  }
  return values;
}

TypedAttr mlir::lowp::convertFloatConstant(Attribute value,
                                           FloatType elementType) {
  auto convert = [&](llvm::APFloat x) {
    bool losesInfo = false;
    x.convert(elementType.getFloatSemantics(),
              llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return x;
  };
  if (auto scalar = dyn_cast<FloatAttr>(value))
    return FloatAttr::get(elementType, convert(scalar.getValue()));
  if (auto dense = dyn_cast<DenseFPElementsAttr>(value))
    return dense.mapValues(elementType, [&](const llvm::APFloat &x) {
      return convert(x).bitcastToAPInt();
    });
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return convertResourceFloats(resource, elementType);
  return {};
}

DenseResourceElementsAttr
mlir::lowp::convertResourceFloats(DenseResourceElementsAttr value,
                                  FloatType elementType) {
  std::optional<SmallVector<llvm::APFloat>> values = readResourceFloats(value);
  if (!values)
    return {};
  unsigned bytes = getStorageBytes(elementType);
  SmallVector<char> data(values->size() * bytes);
  for (auto [i, element] : llvm::enumerate(*values)) {
    bool losesInfo = false;
    element.convert(elementType.getFloatSemantics(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    storeBits(data.data() + i * bytes, bytes,
              element.bitcastToAPInt().getZExtValue());
  }
  std::string name;
  llvm::raw_string_ostream os(name);
  os << value.getRawHandle().getKey() << "_" << elementType;
  return DenseResourceElementsAttr::get(
      value.getType().clone(elementType), name,
      HeapAsmResourceBlob::allocateAndCopyWithAlign(data, bytes,
                                                    /*dataIsMutable=*/false));
}
