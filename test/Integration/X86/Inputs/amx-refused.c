// Calls run() (Inputs/amx-run.mlir, lowp-pipeline-x86 amx=true). With
// -DREFUSE, this program's arch_prctl stands in for glibc's and refuses the
// tile registers as Linux does on a CPU without AMX: the compiled code must
// say so and abort before its first tile instruction.
#include <errno.h>
#include <stdio.h>

float run(void);

#ifdef REFUSE
int arch_prctl(int code, unsigned long addr) {
  (void)code;
  (void)addr;
  errno = EINVAL;
  return -1;
}
#endif

int main(void) {
  float r = run();
  printf("run() = %g\n", r);
  return 0;
}
