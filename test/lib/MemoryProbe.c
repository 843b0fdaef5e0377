//===- MemoryProbe.c - memory figures for executed lit tests --------------===//
//
// Functions JIT-executed tests call (mlir-runner -shared-libs=...) to check
// that compiled code keeps memory flat when it is called many times.
//
//===----------------------------------------------------------------------===//

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

/// Bytes of heap the process has allocated and not freed (glibc's
/// bookkeeping: small blocks in arenas plus mmap'ed large blocks). Exact,
/// so a test can require that it is unchanged after N calls.
int64_t lowpHeapInUseBytes(void) {
  struct mallinfo2 info = mallinfo2();
  return (int64_t)(info.uordblks + info.hblkhd);
}

/// Resident set size in bytes (/proc/self/statm), -1 if unreadable.
int64_t lowpResidentBytes(void) {
  FILE *statm = fopen("/proc/self/statm", "r");
  if (!statm)
    return -1;
  long pages = 0, resident = 0;
  int fields = fscanf(statm, "%ld %ld", &pages, &resident);
  fclose(statm);
  return fields == 2 ? (int64_t)resident * sysconf(_SC_PAGESIZE) : -1;
}
