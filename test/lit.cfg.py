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
    "fp-opt", "lowp-capi-test", "lowp-capi-threads-test", "mlir-runner", "mlir-opt", "mlir-translate", "llc", "llvm-mca", "llvm-mc", "not",
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
config.substitutions.append(
    ("%unittests", os.path.join(config.fpopt_obj_root, "unittests")))

# Optional external validators: tests needing them say REQUIRES: <feature>.
if os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", "/usr/local/cuda/bin/ptxas"))
# Hosts that can execute AVX512_BF16 code (vdpbf16ps) run those paths too.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        if " avx512_bf16" in cpuinfo.read():
            config.available_features.add("x86-avx512bf16")
except OSError:
    pass
# Test programs linked with AddressSanitizer (LeakSanitizer at exit) where
# clang's sanitizer runtime is installed (Debian's libclang-rt-22-dev).
import glob
if glob.glob(os.path.join(config.llvm_lib_dir, "clang", "*", "lib", "*",
                          "libclang_rt.asan*.a")):
    config.available_features.add("asan")
    config.substitutions.append(
        ("%clang", os.path.join(config.llvm_tools_dir, "clang")))
if os.path.exists(os.path.join(config.fpopt_obj_root, "unittests",
                               "LowpUnitTests")):
    config.available_features.add("unittests")
