//===- CudaRuntime.cpp - mgpu* entry points on the CUDA driver API --------===//
//
// The host code lowp-pipeline-nvvm emits (upstream's gpu-to-llvm, and the
// translation of gpu.binary / gpu.launch_func) calls a small C ABI of
// mgpu* functions: load the PTX of a kernel module, look a kernel up,
// launch it on a stream, allocate and copy device memory. Debian's MLIR
// ships no CUDA implementation of it, so fp-opt builds this one (only where
// the CUDA toolkit is installed) for `mlir-runner -shared-libs=`.
//
// The signatures are MLIR 22's (checked against the declarations in the
// lowered IR by test/Runtime/cuda-runtime-symbols.test). Unlike a library
// that only prints failures, every driver error here aborts with the call
// that failed and the driver's name for the error: a test that runs on a
// GPU then fails instead of printing wrong numbers. Kernel faults are
// asynchronous and surface at the next synchronization; with
// LOWP_CUDA_SYNC_LAUNCHES=1 every launch is followed by one, so a fault is
// reported at the kernel that caused it.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define LOWP_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

[[noreturn]] void fail(const char *call, CUresult result,
                       const char *detail = nullptr) {
  const char *name = nullptr;
  const char *text = nullptr;
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &text);
  std::fprintf(stderr, "lowp_cuda_runtime: %s failed: %s (%s)%s%s\n", call,
               name ? name : "unknown error", text ? text : "",
               detail ? "\n" : "", detail ? detail : "");
  std::fflush(stderr);
  std::abort();
}

void check(CUresult result, const char *call) {
  if (result != CUDA_SUCCESS)
    fail(call, result);
}

int32_t defaultDevice = 0;

/// The primary context of the default device, created on first use.
CUcontext primaryContext() {
  static CUcontext context = [] {
    check(cuInit(0), "cuInit");
    CUdevice device;
    check(cuDeviceGet(&device, defaultDevice), "cuDeviceGet");
    CUcontext ctx;
    check(cuDevicePrimaryCtxRetain(&ctx, device), "cuDevicePrimaryCtxRetain");
    return ctx;
  }();
  return context;
}

/// Makes the primary context current for one call.
struct ContextScope {
  ContextScope() { check(cuCtxPushCurrent(primaryContext()), "cuCtxPushCurrent"); }
  ~ContextScope() { cuCtxPopCurrent(nullptr); }
};

bool syncEveryLaunch() {
  static bool sync = [] {
    const char *v = std::getenv("LOWP_CUDA_SYNC_LAUNCHES");
    return v && std::strcmp(v, "0") != 0;
  }();
  return sync;
}

} // namespace

LOWP_EXPORT void mgpuSetDefaultDevice(int32_t device) { defaultDevice = device; }

/// A cubin or fatbin (gpu.binary format=bin / fatbin).
LOWP_EXPORT CUmodule mgpuModuleLoad(void *data, size_t /*size*/) {
  ContextScope scope;
  CUmodule module = nullptr;
  check(cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

/// PTX (gpu.binary format=isa, what lowp-pipeline-nvvm emits): the driver
/// assembles it for the device at load time; its log says why it refused.
LOWP_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  ContextScope scope;
  CUmodule module = nullptr;
  char log[8192] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUresult result = cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != CUDA_SUCCESS)
    fail("cuModuleLoadDataEx (PTX JIT)", result, log);
  return module;
}

LOWP_EXPORT void mgpuModuleUnload(CUmodule module) {
  check(cuModuleUnload(module), "cuModuleUnload");
}

LOWP_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module,
                                             const char *name) {
  CUfunction function = nullptr;
  CUresult result = cuModuleGetFunction(&function, module, name);
  if (result != CUDA_SUCCESS)
    fail("cuModuleGetFunction", result, name);
  return function;
}

/// Grid and block sizes are MLIR index values (intptr_t).
LOWP_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                  intptr_t gridY, intptr_t gridZ,
                                  intptr_t blockX, intptr_t blockY,
                                  intptr_t blockZ, int32_t dynamicSmem,
                                  CUstream stream, void **params,
                                  void **extra, size_t /*paramsCount*/) {
  ContextScope scope;
  // Dynamic shared memory past 48 KB needs an explicit opt-in.
  if (dynamicSmem > 48 * 1024)
    check(cuFuncSetAttribute(function,
                             CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             dynamicSmem),
          "cuFuncSetAttribute(max dynamic shared memory)");
  check(cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                       dynamicSmem, stream, params, extra),
        "cuLaunchKernel");
  if (syncEveryLaunch())
    check(cuStreamSynchronize(stream), "kernel execution");
}

LOWP_EXPORT CUstream mgpuStreamCreate() {
  ContextScope scope;
  CUstream stream = nullptr;
  check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  return stream;
}

LOWP_EXPORT void mgpuStreamDestroy(CUstream stream) {
  check(cuStreamDestroy(stream), "cuStreamDestroy");
}

/// Where kernel faults of the stream's launches are reported.
LOWP_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  check(cuStreamSynchronize(stream), "cuStreamSynchronize");
}

LOWP_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  check(cuStreamWaitEvent(stream, event, 0), "cuStreamWaitEvent");
}

LOWP_EXPORT CUevent mgpuEventCreate() {
  ContextScope scope;
  CUevent event = nullptr;
  check(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return event;
}

LOWP_EXPORT void mgpuEventDestroy(CUevent event) {
  check(cuEventDestroy(event), "cuEventDestroy");
}

LOWP_EXPORT void mgpuEventSynchronize(CUevent event) {
  check(cuEventSynchronize(event), "cuEventSynchronize");
}

LOWP_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  check(cuEventRecord(event, stream), "cuEventRecord");
}

/// Device memory, or managed memory (visible to host and device) for
/// `gpu.alloc host_shared`.
LOWP_EXPORT void *mgpuMemAlloc(uint64_t bytes, CUstream /*stream*/,
                               bool hostShared) {
  ContextScope scope;
  if (bytes == 0)
    return nullptr;
  CUdeviceptr ptr = 0;
  if (hostShared)
    check(cuMemAllocManaged(&ptr, bytes, CU_MEM_ATTACH_GLOBAL),
          "cuMemAllocManaged");
  else
    check(cuMemAlloc(&ptr, bytes), "cuMemAlloc");
  return reinterpret_cast<void *>(ptr);
}

LOWP_EXPORT void mgpuMemFree(void *ptr, CUstream /*stream*/) {
  if (ptr)
    check(cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)), "cuMemFree");
}

/// Any direction: with unified addressing the driver knows which side each
/// pointer is on.
LOWP_EXPORT void mgpuMemcpy(void *dst, void *src, size_t bytes,
                            CUstream stream) {
  check(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                      reinterpret_cast<CUdeviceptr>(src), bytes, stream),
        "cuMemcpyAsync");
}

LOWP_EXPORT void mgpuMemset32(void *dst, unsigned value, size_t count,
                              CUstream stream) {
  check(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                         stream),
        "cuMemsetD32Async");
}

LOWP_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                              CUstream stream) {
  check(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                         stream),
        "cuMemsetD16Async");
}

/// gpu.host_register: pins host memory so kernels can address it.
LOWP_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t bytes) {
  ContextScope scope;
  check(cuMemHostRegister(ptr, bytes, 0), "cuMemHostRegister");
}

LOWP_EXPORT void mgpuMemHostUnregister(void *ptr) {
  ContextScope scope;
  check(cuMemHostUnregister(ptr), "cuMemHostUnregister");
}

namespace {
/// A ranked memref descriptor: allocated and aligned pointers, offset, then
/// rank sizes and rank strides.
struct MemRefHead {
  char *allocated;
  char *aligned;
  int64_t offset;
  /// sizes[0..rank), then strides[0..rank).
  const int64_t *sizesAndStrides() const {
    return reinterpret_cast<const int64_t *>(this + 1);
  }
};
} // namespace

LOWP_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, MemRefHead *memref,
                                           int64_t elementBytes) {
  // The extent of a strided buffer: 1 + sum of (size - 1) * stride.
  int64_t elements = 1;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t size = memref->sizesAndStrides()[i];
    if (size == 0)
      return;
    elements += (size - 1) * memref->sizesAndStrides()[rank + i];
  }
  mgpuMemHostRegister(memref->aligned + memref->offset * elementBytes,
                      elements * elementBytes);
}

LOWP_EXPORT void mgpuMemHostUnregisterMemRef(int64_t /*rank*/,
                                             MemRefHead *memref,
                                             int64_t elementBytes) {
  mgpuMemHostUnregister(memref->aligned + memref->offset * elementBytes);
}
