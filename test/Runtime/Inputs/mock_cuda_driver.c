/* A stand-in for the CUDA driver (libcuda.so.1) with the entry points
 * lowp_cuda_runtime uses, for checking the host side of lowp-pipeline-nvvm
 * on a machine without a GPU (test/Runtime/mock-driver.test). Kernels do
 * not run; everything the host does with memory is checked:
 *  - device allocations are host memory the mock tracks; a free of an
 *    unknown pointer, a copy that runs past an allocation, a registration
 *    undone twice abort with a message;
 *  - a module must be PTX text, and every kernel looked up in it must be
 *    one of its .entry functions;
 *  - at exit: launches, allocations, frees, what is still allocated or
 *    registered (both must be 0 for a leak-free program). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;
typedef uint64_t CUdeviceptr;

enum { kMax = 4096 };
static struct { char *p; size_t n; } allocs[kMax];
static void *registered[kMax];
static int launches, nalloc, nfree, nregister;

static void fail(const char *what) {
  fprintf(stderr, "mock-cuda: %s\n", what);
  exit(3);
}

static int find(const char *p) {
  for (int i = 0; i < kMax; ++i)
    if (allocs[i].p && p >= allocs[i].p && p < allocs[i].p + allocs[i].n)
      return i;
  return -1;
}

static void report(void) {
  int live = 0, reg = 0;
  for (int i = 0; i < kMax; ++i) {
    live += allocs[i].p != 0;
    reg += registered[i] != 0;
  }
  fprintf(stderr,
          "mock-cuda: launches=%d allocs=%d frees=%d live=%d registered=%d "
          "(of %d)\n",
          launches, nalloc, nfree, live, reg, nregister);
}

CUresult cuInit(unsigned flags) {
  (void)flags;
  static int once;
  if (!once++)
    atexit(report);
  return 0;
}
CUresult cuGetErrorName(CUresult r, const char **s) { (void)r; *s = "mock"; return 0; }
CUresult cuGetErrorString(CUresult r, const char **s) { (void)r; *s = "mock"; return 0; }
CUresult cuDeviceGet(CUdevice *d, int ordinal) { *d = ordinal; return 0; }
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { (void)d; *c = (CUcontext)1; return 0; }
CUresult cuCtxPushCurrent_v2(CUcontext c) { (void)c; return 0; }
CUresult cuCtxPopCurrent_v2(CUcontext *c) { (void)c; return 0; }

static CUresult loadModule(CUmodule *m, const void *image) {
  const char *text = image;
  if (!strstr(text, ".version") || !strstr(text, ".entry"))
    fail("module image is not PTX with an entry");
  *m = (CUmodule)text;
  return 0;
}
CUresult cuModuleLoadData(CUmodule *m, const void *image) { return loadModule(m, image); }
CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n,
                            void *options, void **values) {
  (void)n; (void)options; (void)values;
  return loadModule(m, image);
}
CUresult cuModuleUnload(CUmodule m) { (void)m; return 0; }
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  char entry[512];
  snprintf(entry, sizeof entry, ".entry %s(", name);
  if (!strstr((const char *)m, entry))
    fail("kernel looked up in a module that does not define it");
  *f = (CUfunction)m;
  return 0;
}
CUresult cuFuncSetAttribute(CUfunction f, int a, int v) { (void)f; (void)a; (void)v; return 0; }
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        CUstream s, void **params, void **extra) {
  (void)f; (void)s; (void)params; (void)extra; (void)smem;
  if (!gx || !gy || !gz || !bx || !by || !bz || bx * by * bz > 1024)
    fail("launch with an empty grid or more than 1024 threads per block");
  ++launches;
  return 0;
}
CUresult cuStreamCreate(CUstream *s, unsigned flags) { (void)flags; *s = (CUstream)1; return 0; }
CUresult cuStreamDestroy_v2(CUstream s) { (void)s; return 0; }
CUresult cuStreamSynchronize(CUstream s) { (void)s; return 0; }
CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned f) { (void)s; (void)e; (void)f; return 0; }
CUresult cuEventCreate(CUevent *e, unsigned f) { (void)f; *e = (CUevent)1; return 0; }
CUresult cuEventDestroy_v2(CUevent e) { (void)e; return 0; }
CUresult cuEventRecord(CUevent e, CUstream s) { (void)e; (void)s; return 0; }
CUresult cuEventSynchronize(CUevent e) { (void)e; return 0; }

static CUresult alloc(CUdeviceptr *p, size_t n) {
  for (int i = 0; i < kMax; ++i)
    if (!allocs[i].p) {
      allocs[i].p = calloc(1, n ? n : 1);
      allocs[i].n = n;
      *p = (CUdeviceptr)allocs[i].p;
      ++nalloc;
      return 0;
    }
  fail("too many allocations");
  return 1;
}
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) { return alloc(p, n); }
CUresult cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned f) { (void)f; return alloc(p, n); }
CUresult cuMemFree_v2(CUdeviceptr p) {
  int i = find((char *)p);
  if (i < 0 || allocs[i].p != (char *)p)
    fail("free of a pointer that is not a live device allocation");
  free(allocs[i].p);
  allocs[i].p = 0;
  ++nfree;
  return 0;
}
static void checkRange(CUdeviceptr p, size_t n) {
  int i = find((char *)p);
  if (i >= 0 && (char *)p + n > allocs[i].p + allocs[i].n)
    fail("copy runs past the end of a device allocation");
}
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
  (void)s;
  checkRange(dst, n);
  checkRange(src, n);
  memmove((void *)dst, (void *)src, n);
  return 0;
}
CUresult cuMemsetD32Async(CUdeviceptr p, unsigned v, size_t n, CUstream s) {
  (void)s;
  checkRange(p, 4 * n);
  for (size_t i = 0; i < n; ++i)
    ((uint32_t *)p)[i] = v;
  return 0;
}
CUresult cuMemsetD16Async(CUdeviceptr p, unsigned short v, size_t n, CUstream s) {
  (void)s;
  checkRange(p, 2 * n);
  for (size_t i = 0; i < n; ++i)
    ((uint16_t *)p)[i] = v;
  return 0;
}
CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned f) {
  (void)n; (void)f;
  for (int i = 0; i < kMax; ++i)
    if (!registered[i]) {
      registered[i] = p;
      ++nregister;
      return 0;
    }
  fail("too many registrations");
  return 1;
}
CUresult cuMemHostUnregister(void *p) {
  for (int i = 0; i < kMax; ++i)
    if (registered[i] == p) {
      registered[i] = 0;
      return 0;
    }
  fail("unregistering memory that is not registered");
  return 1;
}
