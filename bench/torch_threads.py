"""PyTorch on a given number of threads, all of it.

torch.set_num_threads sizes ATen's OpenMP pool, but Debian's PyTorch runs
its f32 GEMMs in OpenBLAS, whose own pool is sized to every core whatever
torch was told (and OPENBLAS_NUM_THREADS is read once, when numpy loads
it): on a 2-core machine a "one-thread" 256x4096x4096 matmul takes 48 ms
on both cores (CPU time twice the wall time) and 91 ms on one. The
benchmarks compare fp-opt with PyTorch at the same thread count, so they
set both pools here.
"""
import ctypes


def pin_blas_threads(threads: int) -> None:
    """OpenBLAS's pool (the library PyTorch and numpy already loaded: the
    same handle) on ``threads`` threads."""
    try:
        openblas = ctypes.CDLL("libopenblas.so.0")
    except OSError:
        return
    openblas.openblas_set_num_threads(threads)
    if openblas.openblas_get_num_threads() != threads:
        raise RuntimeError(f"OpenBLAS runs {openblas.openblas_get_num_threads()} threads, "
                           f"not {threads}")


def set_torch_threads(threads: int) -> None:
    import torch
    torch.set_num_threads(threads)
    pin_blas_threads(threads)
