//===- ResourceConstants.cpp - float dense_resource constants -------------===//

#include "lowp/IR/ResourceConstants.h"

#include "mlir/IR/AsmState.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
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

/// For each element of `shape` transposed by `perm`, in order, the position
/// of that element in `shape`.
static SmallVector<int64_t> transposedOrder(ArrayRef<int64_t> shape,
                                            ArrayRef<int64_t> perm) {
  SmallVector<int64_t> strides = computeStrides(shape);
  SmallVector<int64_t> newShape = applyPermutation(shape, perm);
  SmallVector<int64_t> newStrides = applyPermutation(strides, perm);
  SmallVector<int64_t> sources;
  sources.reserve(computeProduct(shape));
  SmallVector<int64_t> index(newShape.size(), 0);
  int64_t count = computeProduct(newShape);
  for (int64_t n = 0; n < count; ++n) {
    int64_t source = 0;
    for (auto [i, stride] : llvm::zip(index, newStrides))
      source += i * stride;
    sources.push_back(source);
    for (int64_t d = static_cast<int64_t>(index.size()) - 1; d >= 0; --d) {
      if (++index[d] < newShape[d])
        break;
      index[d] = 0;
    }
  }
  return sources;
}

TypedAttr mlir::lowp::transposeConstant(Attribute value,
                                        ArrayRef<int64_t> perm) {
  auto typed = dyn_cast<TypedAttr>(value);
  auto type = typed ? dyn_cast<RankedTensorType>(typed.getType())
                    : RankedTensorType();
  if (!type || !type.hasStaticShape() ||
      static_cast<int64_t>(perm.size()) != type.getRank())
    return {};
  auto newType = RankedTensorType::get(
      applyPermutation(type.getShape(), perm), type.getElementType());
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.isSplat())
      return dense.reshape(newType);
    SmallVector<Attribute> elements(dense.getValues<Attribute>());
    SmallVector<Attribute> permuted;
    permuted.reserve(elements.size());
    for (int64_t source : transposedOrder(type.getShape(), perm))
      permuted.push_back(elements[source]);
    return DenseElementsAttr::get(newType, permuted);
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(value);
  auto elementType = dyn_cast<FloatType>(type.getElementType());
  if (!resource || !elementType)
    return {};
  ArrayRef<char> data = resource.getData();
  unsigned bytes = getStorageBytes(elementType);
  if (data.size() != static_cast<size_t>(type.getNumElements()) * bytes)
    return {};
  SmallVector<char> permuted(data.size());
  for (auto [i, source] :
       llvm::enumerate(transposedOrder(type.getShape(), perm)))
    std::memcpy(permuted.data() + i * bytes, data.data() + source * bytes,
                bytes);
  std::string name;
  llvm::raw_string_ostream os(name);
  os << resource.getRawHandle().getKey() << "_transposed";
  return DenseResourceElementsAttr::get(
      newType, name,
      HeapAsmResourceBlob::allocateAndCopyWithAlign(permuted, bytes,
                                                    /*dataIsMutable=*/false));
}
