//===- DeviceBuffers.cpp - lowp-gpu-device-buffers ------------------------===//
//
// Host functions that launch kernels get device memory: allocations become
// gpu.alloc, arguments and results are copied (host calling convention) or
// taken as device pointers (device calling convention). Operations stay
// synchronous here; gpu-async-region chains them on a stream afterwards.
//
//===----------------------------------------------------------------------===//

#include "lowp/Conversion/Passes.h"
#include "lowp/Support/Buffers.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::lowp {
#define GEN_PASS_DEF_LOWPGPUDEVICEBUFFERS
#include "lowp/Conversion/Passes.h.inc"
} // namespace mlir::lowp

using namespace mlir;
using namespace mlir::lowp;

namespace {

bool isContiguous(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && type.getLayout().isIdentity();
}

/// The dynamic sizes of `v` (memref.dim of each dynamic dimension).
SmallVector<Value> getDynamicSizes(OpBuilder &b, Location loc, Value v) {
  SmallVector<Value> sizes;
  auto type = cast<MemRefType>(v.getType());
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      sizes.push_back(memref::DimOp::create(b, loc, v, i));
  return sizes;
}

/// A device buffer shaped like `v`, holding a copy of it; every other use
/// of `v` is redirected to it.
Value copyToDevice(OpBuilder &b, Location loc, Value v) {
  auto type = cast<MemRefType>(v.getType());
  SmallVector<Value> sizes = getDynamicSizes(b, loc, v);
  auto alloc = gpu::AllocOp::create(
      b, loc, MemRefType::get(type.getShape(), type.getElementType()),
      /*asyncToken=*/Type(), ValueRange{}, sizes, ValueRange{},
      /*hostShared=*/false);
  auto copy = gpu::MemcpyOp::create(b, loc, Type(), ValueRange{},
                                    alloc.getMemref(), v);
  Value device = alloc.getMemref();
  v.replaceUsesWithIf(device, [&](OpOperand &use) {
    Operation *user = use.getOwner();
    return user != copy && !llvm::any_of(sizes, [&](Value size) {
      return size.getDefiningOp() == user;
    });
  });
  return device;
}

/// Ops that may use a device buffer on the host: GPU operations, views,
/// shape queries, returns, calls to functions defined here (which convert
/// their own arguments).
bool usesBufferOnlyByReference(Operation *op) {
  if (isa<gpu::GPUDialect>(op->getDialect()) ||
      isa<ViewLikeOpInterface, memref::CastOp, memref::DimOp,
          memref::ExtractStridedMetadataOp,
          memref::ExtractAlignedPointerAsIndexOp, memref::DeallocOp,
          func::ReturnOp>(op))
    return true;
  // Whole contiguous copies become gpu.memcpy.
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return isContiguous(copy.getSource()) && isContiguous(copy.getTarget());
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    return callee && !callee.isExternal();
  }
  return false;
}

/// Whether a kernel may write through its memref argument `arg`: some use
/// of it (through views and casts) has a write effect on it, or effects
/// nobody declared (unknown ops; a pointer taken from it): conservative.
bool kernelMayWrite(Value arg) {
  SmallVector<Value> worklist{arg};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<ViewLikeOpInterface, memref::CastOp>(user)) {
        for (Value result : user->getResults())
          if (isa<BaseMemRefType>(result.getType()))
            worklist.push_back(result);
        continue;
      }
      if (isa<memref::DimOp>(user))
        continue;
      if (isa<memref::ExtractAlignedPointerAsIndexOp,
              memref::ExtractStridedMetadataOp>(user))
        return true;
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (!effects)
        return true;
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffects(instances);
      for (const MemoryEffects::EffectInstance &e : instances)
        if (!isa<MemoryEffects::Read>(e.getEffect()) &&
            (!e.getValue() || e.getValue() == v))
          return true;
    }
  }
  return false;
}

/// Whether anything may write the device buffer `device` (through views
/// and casts) other than the copy `init` that filled it: a launched kernel
/// that may write its argument (kernelMayWrite), a copy or memset into it,
/// a call, or any op this does not know (conservative).
bool deviceBufferMayBeWritten(Value device, Operation *init) {
  SmallVector<Value> worklist{device};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user == init || isa<memref::DimOp, gpu::DeallocOp,
                               func::ReturnOp>(user))
        continue;
      if (isa<ViewLikeOpInterface, memref::CastOp>(user)) {
        for (Value result : user->getResults())
          if (isa<BaseMemRefType>(result.getType()))
            worklist.push_back(result);
        continue;
      }
      if (auto copy = dyn_cast<gpu::MemcpyOp>(user)) {
        if (copy.getDst() == v)
          return true;
        continue;
      }
      auto launch = dyn_cast<gpu::LaunchFuncOp>(user);
      if (!launch)
        return true;
      auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      unsigned first = launch.getKernelOperands().getBeginOperandIndex();
      unsigned index = use.getOperandNumber();
      if (!kernel || index < first ||
          index - first >= kernel.getNumArguments() ||
          kernelMayWrite(kernel.getArgument(index - first)))
        return true;
    }
  }
  return false;
}

/// gpu.host_register / host_unregister take unranked memrefs.
Value toUnranked(OpBuilder &b, Location loc, Value v) {
  auto type = cast<MemRefType>(v.getType());
  return memref::CastOp::create(
      b, loc, UnrankedMemRefType::get(type.getElementType(),
                                      type.getMemorySpace()),
      v);
}

class FunctionRewriter {
public:
  FunctionRewriter(func::FuncOp func, bool hostConvention)
      : func(func), hostConvention(hostConvention) {}

  LogicalResult run();

private:
  func::FuncOp func;
  bool hostConvention;
  /// Device buffers to free at every return (unless returned).
  SmallVector<Value> freeAtExit;
  /// Host arguments and their device copies (host convention).
  SmallVector<std::pair<Value, Value>> argumentCopies;
  /// Buffers host code reads or writes itself (the naive mapping leaves
  /// reductions to a scalar as host loops): they stay host memory,
  /// registered with the driver so kernels can address them too.
  llvm::SmallPtrSet<Value, 8> hostAccessed;
  SmallVector<Value> registered;

  void registerHostBuffer(OpBuilder &b, Location loc, Value v) {
    gpu::HostRegisterOp::create(b, loc, toUnranked(b, loc, v));
    registered.push_back(v);
  }
};

LogicalResult FunctionRewriter::run() {
  Block &entry = func.getBody().front();
  OpBuilder b(func.getContext());
  b.setInsertionPointToStart(&entry);

  // Buffers kernels use: a buffer only the host touches stays as it is.
  llvm::SmallPtrSet<Value, 8> kernelUsed;
  func.walk([&](gpu::LaunchFuncOp launch) {
    for (Value operand : launch.getKernelOperands())
      if (isa<BaseMemRefType>(operand.getType()))
        kernelUsed.insert(getRootBuffer(operand));
  });
  WalkResult scanned = func.walk([&](Operation *op) {
    if (usesBufferOnlyByReference(op))
      return WalkResult::advance();
    for (Value operand : op->getOperands()) {
      // Ranked or not: printMemrefF32 takes memref<*xf32>.
      if (!isa<BaseMemRefType>(operand.getType()))
        continue;
      Value root = getRootBuffer(operand);
      if (!hostConvention && isa<BlockArgument>(root) &&
          root.getParentBlock() == &entry) {
        op->emitError() << "'" << op->getName()
                        << "' on the host reads or writes argument #"
                        << cast<BlockArgument>(root).getArgNumber()
                        << ", which the device calling convention passes "
                           "as a device pointer";
        return WalkResult::interrupt();
      }
      hostAccessed.insert(root);
    }
    return WalkResult::advance();
  });
  auto hostOnly = [&](Value buffer) {
    return hostAccessed.contains(buffer) && !kernelUsed.contains(buffer);
  };
  if (scanned.wasInterrupted())
    return failure();

  if (hostConvention) {
    for (BlockArgument arg : entry.getArguments()) {
      if (!isa<MemRefType>(arg.getType()) || hostOnly(arg))
        continue;
      if (hostAccessed.contains(arg)) {
        registerHostBuffer(b, func.getLoc(), arg);
        continue;
      }
      if (!isContiguous(arg))
        return func.emitError() << "argument #" << arg.getArgNumber()
                                << " is not a contiguous row-major buffer: "
                                   "the host calling convention copies it "
                                   "to the device whole";
      Value device = copyToDevice(b, func.getLoc(), arg);
      argumentCopies.emplace_back(arg, device);
      freeAtExit.push_back(device);
    }
  }

  // Allocations, constants, copies and call results inside the function.
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops) {
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      if (hostOnly(alloc.getMemref()))
        continue;
      if (hostAccessed.contains(alloc.getMemref())) {
        b.setInsertionPointAfter(alloc);
        registerHostBuffer(b, loc, alloc.getMemref());
        continue;
      }
      if (!isContiguous(alloc.getMemref()))
        continue;
      auto device = gpu::AllocOp::create(
          b, loc, alloc.getType(), Type(), ValueRange{},
          alloc.getDynamicSizes(), alloc.getSymbolOperands(), false);
      alloc.getMemref().replaceAllUsesWith(device.getMemref());
      // Buffers of the top level die at the returns (bufferization leaves
      // most without a dealloc); nested ones keep their deallocs or leak
      // as the host version did.
      if (alloc->getBlock() == &entry)
        freeAtExit.push_back(device.getMemref());
      alloc.erase();
      continue;
    }
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      Value root = getRootBuffer(dealloc.getMemref());
      if (llvm::is_contained(registered, root)) {
        gpu::HostUnregisterOp::create(b, loc, toUnranked(b, loc, root));
        llvm::erase(registered, root);
        continue;
      }
      if (root.getDefiningOp<gpu::AllocOp>()) {
        gpu::DeallocOp::create(b, loc, Type(), ValueRange{},
                               dealloc.getMemref());
        llvm::erase(freeAtExit, root);
        dealloc.erase();
      }
      continue;
    }
    if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
      if (hostOnly(global.getResult()))
        continue;
      if (hostAccessed.contains(global.getResult())) {
        // A constant the host reads: the host gets its own copy to register
        // (globals may live in read-only pages).
        b.setInsertionPointAfter(global);
        auto type = global.getType();
        Value copy = memref::AllocOp::create(b, loc, type);
        memref::CopyOp::create(b, loc, global.getResult(), copy);
        global.getResult().replaceAllUsesExcept(copy,
                                                copy.getDefiningOp()->getNextNode());
        registerHostBuffer(b, loc, copy);
        continue;
      }
      b.setInsertionPointAfter(global);
      Value device = copyToDevice(b, loc, global.getResult());
      if (global->getBlock() == &entry)
        freeAtExit.push_back(device);
      continue;
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      if (!isContiguous(copy.getSource()) || !isContiguous(copy.getTarget()))
        continue; // the final check reports it if a device buffer is involved
      gpu::MemcpyOp::create(b, loc, Type(), ValueRange{}, copy.getTarget(),
                            copy.getSource());
      copy.erase();
      continue;
    }
    if (auto call = dyn_cast<func::CallOp>(op)) {
      // A callee under the host convention returns host memory.
      if (!hostConvention)
        continue;
      b.setInsertionPointAfter(call);
      for (Value result : call.getResults()) {
        if (!isa<MemRefType>(result.getType()) || !isContiguous(result) ||
            hostOnly(result))
          continue;
        if (hostAccessed.contains(result)) {
          registerHostBuffer(b, loc, result);
          continue;
        }
        Value device = copyToDevice(b, loc, result);
        if (call->getBlock() == &entry)
          freeAtExit.push_back(device);
      }
    }
  }

  // Arguments go back to the caller's buffers only where something on the
  // device may have written them: a kernel that only reads its argument
  // (memory effects of the kernel's uses of it) needs no copy back.
  SmallVector<std::pair<Value, Value>> writtenArguments;
  for (auto [host, device] : argumentCopies) {
    Operation *init = nullptr;
    for (Operation *user : device.getUsers())
      if (auto copy = dyn_cast<gpu::MemcpyOp>(user))
        if (copy.getDst() == device && copy.getSrc() == host)
          init = copy;
    if (deviceBufferMayBeWritten(device, init))
      writtenArguments.emplace_back(host, device);
  }

  // Returns: results to host copies (host convention), written arguments
  // back to the caller's buffers, temporaries freed.
  for (auto ret : llvm::to_vector(func.getOps<func::ReturnOp>())) {
    b.setInsertionPoint(ret);
    Location loc = ret.getLoc();
    SmallVector<Value> returnedRoots;
    for (OpOperand &operand : ret->getOpOperands()) {
      Value v = operand.get();
      if (!isa<MemRefType>(v.getType()))
        continue;
      if (hostConvention) {
        if (!isContiguous(v))
          return ret.emitError("returns a strided view: the host calling "
                               "convention copies results whole");
        auto type = cast<MemRefType>(v.getType());
        Value host = memref::AllocOp::create(b, loc, type,
                                             getDynamicSizes(b, loc, v));
        gpu::MemcpyOp::create(b, loc, Type(), ValueRange{}, host, v);
        operand.set(host);
      } else {
        returnedRoots.push_back(getRootBuffer(v));
      }
    }
    for (auto [host, device] : writtenArguments)
      gpu::MemcpyOp::create(b, loc, Type(), ValueRange{}, host, device);
    for (Value buffer : freeAtExit)
      if (!llvm::is_contained(returnedRoots, buffer))
        gpu::DeallocOp::create(b, loc, Type(), ValueRange{}, buffer);
    for (Value buffer : registered)
      if (buffer.getParentBlock() == &entry ||
          buffer.getParentRegion()->isAncestor(ret->getParentRegion()))
        gpu::HostUnregisterOp::create(b, loc, toUnranked(b, loc, buffer));
  }

  return success();
}

struct LowpGPUDeviceBuffersPass
    : lowp::impl::LowpGPUDeviceBuffersBase<LowpGPUDeviceBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto func :
         llvm::to_vector(getOperation().getOps<func::FuncOp>())) {
      if (func.isExternal())
        continue;
      bool launches = false;
      func.walk([&](gpu::LaunchFuncOp) { launches = true; });
      if (!launches)
        continue;
      if (failed(FunctionRewriter(func, callingConvention == CallingConvention::Host).run()))
        return signalPassFailure();
    }
  }
};
} // namespace
