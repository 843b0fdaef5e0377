# -*- Python -*-
import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "FP-OPT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fpopt_obj_root, "test")
config.excludes = ["Inputs", "lib", "CMakeLists.txt", "README.txt", "lit.cfg.py",
                   "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", ".so"))
config.substitutions.append(("%fpopt_src_root", config.fpopt_src_root))
config.substitutions.append(("%fpopt_obj_root", config.fpopt_obj_root))
config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%llvm_tools_dir", config.llvm_tools_dir))
# The JIT runtime for executing lowered IR with mlir-runner.
config.substitutions.append((
    "%mlir_runner_utils",
    ",".join(os.path.join(config.mlir_lib_dir or config.llvm_lib_dir, lib)
             for lib in
             ["libmlir_c_runner_utils.so", "libmlir_runner_utils.so"])))

# Memory figures for tests that call compiled code many times.
config.substitutions.append((
    "%lowp_memory_probe",
    os.path.join(config.fpopt_obj_root, "lib", "libLowpTestMemoryProbe.so")))
config.substitutions.append((
    "%memory_probe_source",
    os.path.join(config.fpopt_src_root, "test", "lib", "MemoryProbe.c")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.fpopt_tools_dir, config.llvm_tools_dir]
tools = [
    "fp-opt", "fp-opt-lsp-server", "fp-opt-reduce", "lowp-capi-test", "lowp-capi-threads-test", "mlir-runner", "mlir-opt", "mlir-translate", "llc", "llvm-mca", "llvm-mc", "llvm-nm", "llvm-dis", "not",
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
config.substitutions.append(
    ("%unittests", os.path.join(config.fpopt_obj_root, "unittests")))

# The ASan runtime, preloaded into an uninstrumented (release) fp-opt by the
# fuzzers' FUZZ_CHILD_PRELOAD: test/Fuzz/asan-preload-smoke.test. Not in a
# -DFPOPT_ENABLE_SANITIZERS=ON build, whose fp-opt has the runtime linked in
# (and whose every test runs sanitized anyway).
def asan_runtime():
    import subprocess
    clang = os.path.join(config.llvm_tools_dir, "clang")
    try:
        path = subprocess.run([clang, "-print-file-name=libclang_rt.asan-x86_64.so"],
                              capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return path if os.path.isabs(path) and os.path.exists(path) else None


if getattr(config, "fpopt_sanitizers", "OFF").upper() not in ("ON", "TRUE", "1", "YES"):
    runtime = asan_runtime()
    if runtime:
        config.available_features.add("asan-preload")
        config.substitutions.append(("%asan_runtime", runtime))

# Optional external validators: tests needing them say REQUIRES: <feature>.
if os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", "/usr/local/cuda/bin/ptxas"))
# fp-opt's CUDA runtime (mgpu* on the driver API), built where the CUDA
# toolkit is; executing what it loads also needs a GPU and its driver.
cuda_runtime = os.path.join(config.fpopt_obj_root, "lib",
                            "liblowp_cuda_runtime.so")
if os.path.exists(cuda_runtime):
    config.available_features.add("cuda-runtime")
    config.substitutions.append(("%lowp_cuda_runtime", cuda_runtime))
    # The C compiler test/Runtime builds its stand-in driver with.
    config.substitutions.append(
        ("%cuda_mock_cc", os.path.join(config.llvm_tools_dir, "clang")))


def cuda_device_capability():
    """(major, minor) of device 0 where a CUDA driver initializes and sees a
    device; None elsewhere."""
    import ctypes
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None
    count, major, minor = ctypes.c_int(0), ctypes.c_int(0), ctypes.c_int(0)
    if (driver.cuInit(0) != 0 or
            driver.cuDeviceGetCount(ctypes.byref(count)) != 0 or
            count.value == 0):
        return None
    # CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR
    driver.cuDeviceGetAttribute(ctypes.byref(major), 75, 0)
    driver.cuDeviceGetAttribute(ctypes.byref(minor), 76, 0)
    return major.value, minor.value


# Gated GPU execution tests (REQUIRES: cuda-device) compile for the
# capability-table chip the device can run (%cuda_chip); cuda-fp8 marks
# chips with FP8 tensor cores.
capability = cuda_device_capability()
if capability:
    major, minor = capability
    table = [((12, 0), "sm_120"), ((10, 0), "sm_100"), ((9, 0), "sm_90"), ((8, 9), "sm_89"),
             ((8, 6), "sm_86"), ((8, 0), "sm_80"), ((7, 5), "sm_75"),
             ((7, 0), "sm_70")]
    chip = next((name for cc, name in table if (major, minor) >= cc), None)
    if chip:
        config.available_features.add("cuda-device")
        config.substitutions.append(("%cuda_chip", chip))
        if (major, minor) >= (8, 9):
            config.available_features.add("cuda-fp8")
        # sm_90a PTX (wgmma kernels) runs on compute capability 9.0 only.
        if (major, minor) == (9, 0):
            config.available_features.add("cuda-wgmma")
# Hosts that can execute AVX512_BF16 code (vdpbf16ps) run those paths too.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        flags = cpuinfo.read()
        if " avx512_bf16" in flags:
            config.available_features.add("x86-avx512bf16")
        # Code for -mcpu=sapphirerapids (AVX512_FP16 too, which Zen 4 lacks).
        if " avx512_bf16" in flags and " avx512_fp16" in flags:
            config.available_features.add("x86-sapphirerapids")
        # AMX-BF16 tiles (Sapphire Rapids and later; the generated code asks
        # Linux for the tile registers itself).
        if " amx_bf16" in flags:
            config.available_features.add("x86-amx")
except OSError:
    pass
# clang links test programs and shared objects (the build's compiler).
config.substitutions.append(
    ("%clang", os.path.join(config.llvm_tools_dir, "clang")))
# Test programs linked with AddressSanitizer (LeakSanitizer at exit) where
# clang's sanitizer runtime is installed (Debian's libclang-rt-22-dev).
import glob
if glob.glob(os.path.join(config.llvm_lib_dir, "clang", "*", "lib", "*",
                          "libclang_rt.asan*.a")):
    config.available_features.add("asan")
if os.path.exists(os.path.join(config.fpopt_obj_root, "unittests",
                               "LowpUnitTests")):
    config.available_features.add("unittests")
# Graphviz renders the precision picture to SVG (lowp-view-precision-graph
# with output=*.svg); DOT output needs nothing.
if shutil.which("dot"):
    config.available_features.add("graphviz")
# OpenMP runtime for lowp-pipeline-x86{threads=N} code (libomp-22-dev).
libomp = os.path.join(config.mlir_lib_dir or config.llvm_lib_dir, "libomp.so")
if os.path.exists(libomp):
    config.available_features.add("libomp")
    config.substitutions.append(("%libomp", libomp))
