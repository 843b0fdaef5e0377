//===- Passes.td - lowp conversion passes ------------------*- tablegen -*-===//

#ifndef LOWP_CONVERSION_PASSES_TD
#define LOWP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

// The old spelling of a pass's `target` option (a row of the capability
// table), accepted for one release with a warning on stderr.
class DeprecatedTargetSpelling<string varName, string arg>
  : Option<varName, arg, "std::string", /*default=*/"\"\"",
           "Deprecated spelling of `target` (removed in the next release)">;

def ConvertLowpToLinalg : Pass<"convert-lowp-to-linalg"> {
  let summary = "Lower every lowp op to arith, math, linalg, tensor and scf";
  let description = [{
    Makes the decisions of fp-opt's passes executable by upstream pipelines:

    - `lowp.cast` becomes `arith.extf` / `arith.truncf` (elementwise
      `linalg.generic` on tensors), with saturation as an explicit NaN-
      preserving clamp to the destination's largest finite value, toward-zero
      rounding as a correction step on the nearest-even result, and
      stochastic rounding as integer arithmetic on the f32 bit pattern with a
      per-element hash of the seed and the element's index;
    - `lowp.island` is inlined, with explicit casts of its operands to the
      island precision on entry and of its results back on exit;
    - `lowp.scale` / `lowp.unscale` become elementwise products (the
      reciprocal computed once), `lowp.all_finite` a `linalg.reduce` of
      `|x| < inf`, and `lowp.update_scale` GradScaler's rule in scalar arith;
    - `linalg.softmax` on tensors (any op with `AggregatedOpInterface`),
      which no upstream loop lowering takes, is decomposed into the
      generics it stands for (max, exp(x - max), sum, divide), so the result
      runs through `convert-linalg-to-loops` as well as `lowp-pipeline-x86`.

    ```mlir
    %0 = lowp.cast %x saturate : tensor<4xf32> to tensor<4xf8E4M3FN>
    // becomes
    %0 = linalg.generic ... {
      %c = arith.minimumf (arith.maximumf %in, -448), 448
      %t = arith.truncf %c : f32 to f8E4M3FN
      linalg.yield %t
    } -> tensor<4xf8E4M3FN>
    ```

    Runs on any op; lowp ops it cannot lower are reported with their
    location and the pass fails. Discardable `lowp.*` attributes (the
    target, policy, statistics, training-step markers) are removed
    afterwards, so the result parses in tools that do not load the lowp
    dialect, such as `mlir-runner` and `mlir-translate`; those tools keep a
    function result's `lowp.updates = i` as an unknown attribute, and it
    stays for `lowp-write-updates-in-place` (`lowp-strip-attributes` drops
    it at the end of the lowering pipelines).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def LowpExpandFloatConversions : Pass<"lowp-expand-float-conversions"> {
  let summary = "Expand f32 <-> bf16/FP8 conversions into exact integer ops";
  let description = [{
    Rewrites `arith.truncf` from f32 (round to nearest-even) and `arith.extf`
    to f32 into shifts, masks, adds and selects on i32 lanes, for every
    narrow format the target has no conversion instruction for. The result
    is bit-exact with APFloat (subnormals, ties, overflow to inf or NaN,
    NaN payloads), vectorizes like any integer code and calls no library:
    upstream lowers a vector f32->bf16 truncation on AVX2 to one
    `__truncsfbf2` call per element and an FP8 one not at all.

    `arith.truncf` from f64 to such a format, and on CPU targets (no CPU
    converts f64 to 16 bits; LLVM calls the runtime) to any format
    narrower than f32, is rounded to f32 to odd (the hardware rounding,
    moved one step toward zero where it went away from it, its last bit set
    where it was inexact), then to the narrow format: one correct rounding.
    A constant operand is rounded with APFloat instead. Conversions of
    tensors are left to the bufferized code.

    The target is the `target` option, else the module's `lowp.target`
    attribute; with neither, bf16 and every FP8 format are expanded.
    Conversions left to the hardware lose their fast-math flags (MLIR 22's
    arith-to-LLVM lowering would carry them onto `llvm.fpext` as an
    attribute mlir-translate rejects). The body of a named linalg op (the
    `arith.extf` that widens the f8 operands of a `linalg.matmul`) is implied
    by the op's name and left alone: run the pass after generalization or
    `convert-linalg-to-loops` to reach it.

    ```mlir
    %b = arith.truncf %x : vector<8xf32> to vector<8xbf16>
    // becomes (abridged)
    %u = arith.bitcast %x : vector<8xf32> to vector<8xi32>
    %l = arith.andi (arith.shrui %u, 16), 1
    %r = arith.shrui (arith.addi (arith.addi %u, 0x7fff), %l), 16
    %q = arith.ori (arith.shrui %u, 16), 0x40          // quiet NaN
    %m = arith.select %isnan, %q, %r
    %b = arith.bitcast (arith.trunci %m to vector<8xi16>) to vector<8xbf16>
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Chip of the capability table (fp-opt --print-target-table; "
           "overrides lowp.target)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def LowpEmulateNarrowArithmetic : Pass<"lowp-emulate-narrow-arithmetic"> {
  let summary = "Narrow-float arithmetic in f32, rounded after every op";
  let description = [{
    Arithmetic on formats a chip cannot compute in (FP8 everywhere, bf16 on
    AVX2) runs in f32 between an `arith.extf` and an `arith.truncf`, as
    upstream's `arith-emulate-unsupported-floats` does (its patterns do the
    rewrite). Upstream marks the casts it inserts `fastmath<contract>`, and
    `arith.extf`'s folder removes an `extf(truncf(x))` pair whose casts are
    both `contract`: after canonicalization a chain of bf16 ops is computed
    in f32 and rounded once at its end. That is excess precision: the result
    differs from what the IR states and from a chip with the arithmetic (or
    with conversions only, where LLVM rounds after every op), so the same
    decided module gives different numbers on AVX2 and on AVX512_BF16, and
    an error measured on one does not hold on the other.

    Math functions (`math.tanh`, `math.exp`, ...) on any float narrower than
    f32 are computed in f32 the same way (`math-extend-to-supported-types`:
    libm and `lowp-approximate-math` are f32 code), with the same flags.

    This pass keeps the rounding the IR states: the casts it inserts carry
    no `contract` (casts that were in the input are left as they were).
    `excess-precision=true` keeps upstream's flags (one rounding per chain:
    faster, more accurate than the IR says, target-dependent).

    ```mlir
    %a = arith.mulf %x, %x : bf16
    %b = arith.mulf %a, %x : bf16
    // becomes (after canonicalization; with excess-precision=true the
    // truncf/extf pair in the middle folds away)
    %0 = arith.extf %x : bf16 to f32
    %1 = arith.mulf %0, %0 : f32
    %2 = arith.truncf %1 : f32 to bf16
    %3 = arith.extf %2 : bf16 to f32
    %4 = arith.mulf %3, %0 : f32
    %b = arith.truncf %4 : f32 to bf16
    ```
  }];
  let options = [
    ListOption<"formats", "formats", "std::string",
               "Float types computed in f32 (e.g. bf16,f8E4M3FN)">,
    Option<"excessPrecision", "excess-precision", "bool", /*default=*/"false",
           "Let canonicalization drop the rounding between chained ops">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def LowpNarrowFloatMovesAsIntegers
    : Pass<"lowp-narrow-float-moves-as-integers"> {
  let summary = "Moves of narrow float vector lanes move integers instead";
  let description = [{
    On the LLVM dialect: `llvm.intr.masked.load` / `llvm.intr.masked.store`,
    `llvm.insertelement` and `llvm.extractelement` on vectors of 16- or
    8-bit floats become the same ops on integers of that width, with
    bitcasts around them. The bits moved are the same; but on a target
    without that float type (bf16 on AVX2) LLVM legalizes every scalar bf16
    lane it touches by promoting it to f32 and truncating it back: one
    `__truncsfbf2` call per lane (code that does not link without
    compiler-rt, and slow). Integer lanes are just moved. Masked accesses
    come from transfers that run past a row (a 3-wide filter row, 8 lanes);
    element inserts and extracts from transfers unrolled lane by lane (a
    strided read).

    ```mlir
    llvm.intr.masked.store %v, %p, %m {alignment = 2 : i32}
      : vector<8xbf16>, vector<8xi1> into !llvm.ptr
    // becomes
    %i = llvm.bitcast %v : vector<8xbf16> to vector<8xi16>
    llvm.intr.masked.store %i, %p, %m {alignment = 2 : i32}
      : vector<8xi16>, vector<8xi1> into !llvm.ptr
    ```

    A masked store of 8- or 16-bit lanes (float or integer) whose mask is
    a constant keeping one lane becomes that lane's `llvm.extractelement`
    and a scalar `llvm.store`. LLVM 22's x86 backend reduces such a store
    to a scalar one itself, and on AVX-512 hosts was seen to emit it 32
    bits wide when the lanes came from a truncation of 32-bit lanes (the
    integer bf16 rounding of AVX2 code): `vmovd %xmm16, 576(...)` for
    element 288 wrote element 289 too, the first pixel of the next channel
    in an NCHW convolution's epilogue with 289 pixels
    (`test/Integration/Models/torch-export-mobilenet.mlir`, avx2 code run
    on an AVX-512 host).

    ```mlir
    %m = llvm.mlir.constant(dense<[true, false, false, false, false, false, false, false]> : vector<8xi1>) : vector<8xi1>
    llvm.intr.masked.store %i, %p, %m {alignment = 2 : i32}
      : vector<8xi16>, vector<8xi1> into !llvm.ptr
    // becomes
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %e = llvm.extractelement %i[%c0 : i64] : vector<8xi16>
    %q = llvm.getelementptr %p[0] : (!llvm.ptr) -> !llvm.ptr, i16
    llvm.store %e, %q {alignment = 2 : i64} : i16, !llvm.ptr
    ```

    Other ops (and 32-bit or wider floats) are left alone.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def LowpX86LowerContractions : Pass<"lowp-x86-lower-contractions"> {
  let summary = "Bufferized matmuls to packed, register-blocked x86 kernels";
  let description = [{
    Rewrites `linalg.matmul` and `linalg.batch_matmul` on static,
    identity-layout memrefs (two inputs of one float type of at most 32 bits,
    f32 x f32, bf16 x bf16, f8E4M3FN x f8E4M3FN, ..., into f32; a last
    block of fewer than `mr` rows takes the M remainder) into a
    micro-kernel whose `mr` x `nr` block of C stays in vector registers
    (`scf.for` iter_args) across the k loop.

    B is packed once into panels of `nr` columns. With AVX512_BF16 (the
    target's bf16 matrix unit) a bf16 B is packed into VNNI pairs
    (k/2 x nr x 2) and the kernel issues `x86vector.avx512.dot`
    (`vdpbf16ps`) on one broadcast pair of A; otherwise narrow operands
    (bf16 on AVX2, FP8 everywhere) are widened to f32 while packing (O(n^2)
    work, exact) and the kernel is f32 FMA.
    Operands read transposed or broadcast over the batch (the indexing maps
    `lowp-fold-layout-into-contractions` leaves) are read through the map
    while packing: a transposed B through `lanes` x `lanes` register
    transposes (for the dot kernel a bf16 pair along k is one i32 of a B^T
    row, so VNNI packing is a 32-bit transpose), a transposed A through a
    row-major copy (dot kernel) or in place (f32 kernel); a broadcast B is
    packed once for all batches. N not divisible by `nr` gets a zero-padded
    last panel and masked stores of C.
    A matmul whose M is dynamic (a front end's dynamic batch; K and N
    static, A row-major) is taken as static blocks of rows and a rest in
    power-of-two kernels; convolutions may have a dynamic batch.
    `linalg.conv_2d_nhwc_hwcf` and `linalg.conv_2d_nhwc_fhwc` (TOSA's filter
    layout: the filter is the same B transposed; any strides and dilations)
    become GEMMs
    on blocks of output pixels, pixels x F = A (pixels x KH*KW*C) times the
    filter packed once, into the output viewed as a matrix: the vector
    kernel reads A in place from the input, one filter tap's C channels at a
    time (no im2col copy); AMX tiles (evenly spaced rows) and the f32 kernel
    on a bf16 input (no widening per broadcast) read an im2col copy of each
    L2-sized block.
    `linalg.conv_2d_nchw_fchw` becomes GEMMs per image and block of output
    rows, filter (F x C*KH*KW) times col (C*KH*KW x pixels of the block)
    into the output viewed as F x OH*OW; col is sized to stay in L2 and
    written directly in the layout the kernel reads (no packing pass).
    A 3x3 stride-1 one with at least 16 channels and filters and 25 output
    tiles (2x2) per call, and f32 operands (or bf16 ones where the direct
    GEMM would run on f32 FMAs too: no vdpbf16ps or AMX), runs as Winograd
    F(2x2, 3x3) instead
    (`winograd=false`: im2col): the filter transformed once per call into
    16 matrices U (F x C), then per block of tile rows the input tiles
    transformed into 16 matrices V (C x tiles), 16 GEMMs M = U V, and the
    output transform through the fill and the fused consumer; 16 multiplies
    per 2x2 output tile and channel instead of 36. So do such NHWC ones
    (`linalg.conv_2d_nhwc_hwcf` / `_fhwc`), with tiles as the GEMMs' rows
    and everything vectorized along channels. One with at most 32 taps
    per output (C x KH x KW: a stem on 3 colours; not 1x1) runs as a direct
    kernel instead: blocks of output channels x vectors of an output row in
    registers across all taps, no im2col.
    `linalg.depthwise_conv_2d_nhwc_hwc` (and `_hwcm` with a channel
    multiplier of 1, on views) and `linalg.depthwise_conv_2d_nchw_chw`
    (stride 1 or 2 along W) become a direct kernel vectorized along
    channels (NHWC) or output columns (NCHW, channel by channel, a block of
    output rows sharing each input row's loads) with a block of
    accumulators kept across the filter taps. The NCHW direct kernels
    (depthwise, pooling, stems) read a bufferized `tensor.pad` (a buffer, a
    fill, a copy of the source into its interior) through: they read the
    source, the pad value given in registers at the windows' edges, and the
    buffer, the fill and the copy are erased, where nothing in between may
    write the source.
    Attention with at most 16 query rows per head group (decoding: one
    token times the query heads sharing a key/value head) runs as one
    kernel per head group (with `fuse-attention=false` its two
    contractions run on the GEMM kernels and softmax on loops): a
    contraction of queries and keys (the keys stored
    [key][d], as the fold of their transpose leaves them), elementwise ops
    on the scores (scale, mask, bias), softmax along the keys (max
    reduction, `exp(x - max)`, sum, division) and a contraction of the
    probabilities with the values become one loop over blocks of 64 keys:
    the block's scores for every query row of the group (one vector of
    the block's keys per row, summed from partial sums by a tree of
    shuffles), the elementwise ops on that vector, online softmax in f32
    and the values accumulated in f32 (keys or values an elementwise op
    writes for the contraction alone, such as an FP8 cache widened with the
    new token selected in, computed from its inputs as they are read);
    scores and probabilities never reach memory. When the ops after such a
    contraction include the max of its scores but the rest does not fit,
    a remark says why.
    Remaining `linalg.transpose` ops that move the innermost dimension
    become register-blocked transposes (either side may be a strided view
    whose innermost dimension is contiguous: a head of a fused QKV
    projection), and `memref.copy` into or out of a
    strided view (what `tensor.pad` bufferizes to) vectorized loops.
    Every other contraction or convolution is left to the generic loops
    with a remark that names the op and the reason.

    ```mlir
    linalg.matmul ins(%a, %b : memref<64x64xbf16>, memref<64x64xbf16>)
                  outs(%c : memref<64x64xf32>)
    // avx512bf16 becomes (abridged)
    %p = memref.alloc() : memref<2x32x64xbf16>     // VNNI panels of B
    scf.for %jb ... scf.for %i ... {
      %acc = scf.for %k2 ... iter_args(%c00 = ..., ..., %c71 = ...) {
        %bv = vector.load %p[%jb, %k2, %c0] : vector<32xbf16>
        %a0 = vector.bitcast (vector.broadcast (pair of A row 0))
        %d = x86vector.avx512.dot %c00, %a0, %bv
               : vector<32xbf16> -> vector<16xf32>
        ...
      }
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "x86 row of the capability table (fp-opt --print-target-table); "
           "default: the module's lowp.target, else avx2">,
    Option<"mr", "mr", "unsigned", /*default=*/"0",
           "Rows of the register block (0: the cpu's default)">,
    Option<"nr", "nr", "unsigned", /*default=*/"0",
           "Columns of the register block, a multiple of the f32 lanes "
           "(0: the cpu's default)">,
    Option<"kc", "kc", "unsigned", /*default=*/"0",
           "Depth of a k block in k steps (a k of the f32 FMA kernel, a "
           "pair of k of the vdpbf16ps and AMX kernels): a kc x nr slice of "
           "packed B stays close while C passes by (0: the kernel's own, "
           "512 pairs for bf16, the target's CPUInfo::f32KBlock for f32)">,
    Option<"mc", "mc", "unsigned", /*default=*/"0",
           "Rows of an m block, rounded down to a multiple of mr: an mc x kc "
           "block of A stays in L2 (0: as many rows as fill half the "
           "target's L2, CPUInfo::l2Bytes; no m blocking without it)">,
    Option<"prefetch", "prefetch", "bool", /*default=*/"true",
           "With B packed ahead of the kernel (a prepacked or constant "
           "weight, a B shared by the batches), every k step of a register "
           "block also prefetches the same k step of the next column panel, "
           "a cache line (CPUInfo::cacheLineBytes) at a time: the next "
           "panel's first block then reads L2, not memory">,
    Option<"amx", "amx", "bool", /*default=*/"false",
           "The full 32 x 32 blocks of bf16 GEMM kernels run on 2 x 2 "
           "AMX-BF16 tiles (tdpbf16ps; rows with amx_bf16); each function with "
           "tiles asks Linux for them once (arch_prctl)">,
    Option<"prepack", "prepack", "bool", /*default=*/"false",
           "Split the packing (and rounding) of weight arguments out of "
           "each function F (matmul B operands packed, convolution filters "
           "rounded) into F_prepack, run once by the caller; F then "
           "takes the packed buffers in the weights' places, and "
           "F_prepacked_arguments returns their argument numbers "
           "(docs/lowering-x86.md)">,
    Option<"winograd", "winograd", "bool", /*default=*/"true",
           "3x3 stride-1 convolutions on the f32 FMA kernel as Winograd "
           "F(2x2, 3x3): 16 GEMMs on transformed tiles, 2.25x fewer "
           "multiplies than im2col (false: im2col + GEMM)">,
    Option<"fuseAttention", "fuse-attention", "bool", /*default=*/"true",
           "Attention with at most 16 query rows per head group as one "
           "kernel per head group: keys and values streamed once, online "
           "softmax in f32 (false: two GEMMs and softmax loops)">,
    DeprecatedTargetSpelling<"deprecatedCpu", "cpu">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
    "::mlir::x86vector::X86VectorDialect", "::mlir::amx::AMXDialect",
    "::mlir::func::FuncDialect", "::mlir::math::MathDialect",
  ];
}

def LowpFoldLayoutIntoContractions
    : Pass<"lowp-fold-layout-into-contractions"> {
  let summary = "Name generic matmuls; fold transposes and broadcasts of "
                "matmul operands into their indexing maps";
  let description = [{
    On tensors: a `linalg.matmul` or `linalg.batch_matmul` operand produced
    by an op that only moves elements (`linalg.transpose`,
    `linalg.broadcast`, or a `linalg.generic` that yields its input read
    through a projected permutation) reads the copy's source through the
    composed indexing map instead, when that map is still a matrix, maybe
    transposed, maybe broadcast over the batch (the forms linalg's
    verifiers and `lowp-x86-lower-contractions` accept). torch-mlir
    transposes every `nn.Linear` weight this way and broadcasts weights of
    a batched matmul; bufferized, each copy would run on every call, while
    the x86 kernels read B through the transposed map while packing, which
    they do anyway.

    A `linalg.generic` that only copies its input through permuted maps
    (any rank; torch-mlir's TorchToLinalg writes `aten.t` /
    `aten.transpose` with an identity input map and a permuted output map,
    other front ends permute the input map) becomes the `linalg.transpose`
    it is, wherever it is: the folds take it as one, and one left over is
    the x86 register-blocked transpose. So an `nn.Linear` on an NHWC
    activation in torch-mlir's form (ConvNeXt's and ViT's MLP: the
    transposed weight broadcast over the rows by another generic, a
    `linalg.batch_matmul`) becomes one matmul over all rows reading the
    weight as (n, k); it was scalar loops reading the weight with a stride.

    A unary elementwise op between the copy and the contractions (the
    narrowing cast the precision decisions insert) is moved before the copy
    first, so it runs on the contiguous source.

    A `linalg.batch_matmul` whose B is a broadcast collapsed into the batch,
    the broadcast dimensions inside the ones its source indexes (batch
    b = g * R + r, B[b] = S[g]), reads S once per group: A and C (default
    layout) are viewed as [G][R*M][.], the R matrices sharing a B becoming
    rows of one. This is grouped-query attention as torch exports it
    (`repeat_kv`: expand, reshape, then `k.transpose(2, 3)`; with one
    key/value head, multi-query attention, G = 1): the keys and
    values of each cache head are no longer copied R times per call, and
    the scores read the cached keys as (n, k). A collapse of a transpose
    that keeps each collapsed group together becomes a transpose of the
    collapse first, so that the transpose folds.

    A matmul or batch_matmul on tensors still reading such a copy afterwards
    (directly or through that elementwise op) gets a remark naming the
    operand and why it stayed (a composed map that is no matrix per batch,
    a B broadcast over the batch and transposed while A or C is not in its
    default layout, an elementwise op with other users): bufferized, the
    copy runs on every call.

    First, a matmul or batch_matmul written as a `linalg.generic` or a
    `linalg.contract` (StableHLO's `dot_general`, generalized IR) - its body
    `out + a * b` with each input maybe widened by `arith.extf`, one m, n
    and k loop and at most one batch loop, in any loop order, operand maps
    the named op accepts (A or B transposed, B broadcast over the batch as
    (k, n)) and an (m, n) output - becomes `linalg.matmul` /
    `linalg.batch_matmul` with those maps (buffers too): the backends'
    kernels take the named ops, where the generic was the loop path. Any
    other body (a scaled product, `math.fma`) or map stays as it is.

    ```mlir
    %wt = linalg.transpose ins(%w : tensor<64x32xf32>)
            outs(%e : tensor<32x64xf32>) permutation = [1, 0]
    %y = linalg.matmul ins(%x, %wt : tensor<4x32xf32>, tensor<32x64xf32>)
           outs(%acc : tensor<4x64xf32>) -> tensor<4x64xf32>
    // becomes
    %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                        affine_map<(m, n, k) -> (n, k)>,
                                        affine_map<(m, n, k) -> (m, n)>]
           ins(%x, %w : tensor<4x32xf32>, tensor<64x32xf32>)
           outs(%acc : tensor<4x64xf32>) -> tensor<4x64xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
  ];
}

def LowpConvertConvNchwToNhwc : Pass<"lowp-convert-conv-nchw-to-nhwc"> {
  let summary = "NCHW convolutions and poolings to NHWC, the transposes "
                "between them cancelled";
  let description = [{
    On tensors, per function: every `linalg.conv_2d_nchw_fchw`,
    `linalg.depthwise_conv_2d_nchw_chw` and `linalg.pooling_nchw_max` /
    `_sum` becomes its NHWC form (`linalg.conv_2d_nhwc_fhwc`,
    `linalg.depthwise_conv_2d_nhwc_hwc`, `linalg.pooling_nhwc_max` / `_sum`)
    between a `linalg.transpose` of its input and init to NHWC and one of its
    result back to NCHW. The transposes then move:

    - through a `linalg.generic` whose operands read in the loops' order
      are all transposes by one permutation (a batch norm, an activation,
      a residual add, a cast, a global average pool's sum): the generic
      runs on the NHWC values with its loops permuted to match, per-channel
      operands read through the permuted loops, and its result is
      transposed after it;
    - through a `tensor.pad` by a constant (the pad moves to the permuted
      dimensions);
    - into a generic that only broadcasts (a convolution bias as init) and
      into a `linalg.fill` or `tensor.empty`, which are then built
      transposed;
    - two transposes in a row compose, and cancel when inverse.

    So a network of convolutions runs NHWC from its first convolution to
    where it is reshaped or returned, with one transpose at each end.

    A filter gets its new layout without a transpose per call: a constant
    is transposed at compile time, a filter whose moved dimensions all have
    size 1 (a 1x1 convolution) is reshaped, and with `prepacked-filters` a
    filter computed from function arguments alone (a weight argument, maybe
    rounded) is transposed by the x86 `prepack` split, once per set of
    weights. A function whose NCHW ops are not all convertible (a grouped
    or quantized convolution, a filter computed per call, a dynamic shape)
    is left as it is: a convolution kept NCHW among NHWC ones would sit
    between two full transposes. So is one whose convolutions do less
    than `macs-per-transposed-element` multiply-adds per element of the
    activation transposes the conversion leaves (the function is converted
    on a copy to count them). Measured on ResNet-50's convolutions one at
    a time at batch 32 (`bench/models/conv_layouts.py`), NHWC with both
    transposes loses on the 1x1 ones at 51 to 205 multiply-adds per
    transposed element (0.38x to 0.66x) and gains on the 3x3 ones on 14x14
    and 7x7 (999 and 1737: 1.45x and 1.17x); a network
    transposed only where its image enters is far above (ResNet-50 at
    batch 1: 26000; MobileNetV3-Small: 366, 1.12x faster NHWC). The price
    does not see the batch: at batch 1 a lone 3x3 convolution on a small
    map passes it and runs slower NHWC. Filter transposes are not counted (compile time or
    `F_prepack`).

    Why (`lowp-pipeline-x86`): the NHWC kernels take all pixels of a batch
    as the rows of one GEMM and vectorize over channels; the NCHW kernels
    vectorize over the pixels of one image, so a 7x7 map pads 49 pixels to
    64 lanes, and the NHWC Winograd and im2col kernels are faster on
    ResNet's shapes (docs/performance.md).

    ```mlir
    %y = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x64x56x56xf32>, ...)
    %r = linalg.generic {...} ins(%y, %scale : tensor<1x64x56x56xf32>,
                                  tensor<64xf32>) { mulf; maximumf }
    // becomes
    %xt = linalg.transpose ins(%x : tensor<1x64x56x56xf32>) ...
            permutation = [0, 2, 3, 1]
    %y = linalg.conv_2d_nhwc_fhwc ins(%xt, %wt : tensor<1x56x56x64xf32>, ...)
    %r = linalg.generic {... (d0, d1, d2, d3) -> (d3) for %scale ...}
           ins(%y, %scale) { mulf; maximumf }
    %rt = linalg.transpose ins(%r : tensor<1x56x56x64xf32>) ...
            permutation = [0, 3, 1, 2]
    ```
  }];
  let options = [
    Option<"prepackedFilters", "prepacked-filters", "bool", /*default=*/"false",
           "Convert convolutions whose filters are computed from function "
           "arguments alone (the x86 prepack option transposes them once)">,
    Option<"macsPerTransposedElement", "macs-per-transposed-element",
           "double", /*default=*/"256",
           "Convert a function only when its convolutions do more "
           "multiply-adds than this per element of the activation transposes "
           "left (0: whenever it can)">,
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect",
  ];
}

def LowpLowerStridedLinalgToLoops
    : Pass<"lowp-lower-strided-linalg-to-loops"> {
  let summary = "Bufferized linalg ops with strided accesses to scf loops";
  let description = [{
    MLIR 22's `affine-super-vectorize` takes any access that varies with a
    loop in one index as contiguous, whatever the loop's coefficient there
    (`isContiguousAccess` ignores it; llvm/llvm-project#196973): a stride-2
    pooling window or convolution along the vectorized dimension becomes a
    unit-stride vector read, and the result is silently wrong. Ahead of
    `convert-linalg-to-affine-loops`, this pass lowers every bufferized
    linalg op whose indexing maps give some loop dimension a coefficient
    other than 1 (strides, dilations, `mod`/`floordiv`) to `scf.for` loops,
    which the affine vectorizer does not touch; unit-stride ops are left to
    it. Ops with a dynamic size that is no affine symbol (a buffer defined
    in a loop body, such as an `scf.for` iter_arg) become `scf.for` loops
    too: `convert-linalg-to-affine-loops` would bound an `affine.for` by it
    and fail to verify. So do ops on strided views (a memref operand with a
    non-identity layout, e.g. a fused QKV projection split by
    `tensor.extract_slice` and transposed per head): the affine vectorizer
    reports "NYI: non-trivial layout map" as an error on them and leaves
    the loops scalar anyway. Such an op gets a remark naming the operand,
    and a strided one a remark saying so: each is a slow path (scalar
    loops; a convolution or pooling the x86 kernels refused also has their
    remark with the reason).

    ```mlir
    linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>, ...}
        ins(%x, %w : memref<1x8x8x8xf32>, memref<2x2xf32>) outs(%y : memref<1x8x4x4xf32>)
    // becomes scf.for loops with scalar memref.load/store of
    // %x[%n, %c, 2 * %oh + %kh, 2 * %ow + %kw]
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
  ];
}

def LowpCollapseContiguousLoops : Pass<"lowp-collapse-contiguous-loops"> {
  let summary = "Adjacent loops of a generic that every operand indexes contiguously, as one";
  let description = [{
    A `linalg.generic` on static identity-layout buffers whose adjacent
    loops of one iterator type appear contiguous and in order in every
    indexing map (or in none) runs them as one loop, its operands viewed
    through `memref.collapse_shape` (upstream's `collapseOpIterationDims`).
    The affine vectorizer vectorizes the innermost loop: over an NCHW
    tensor's 56 x 56 plane that is one run of 3136 elements instead of 56
    rows of 56, each with a masked tail, and a per-channel reduction (a
    batch norm's mean and variance over batch, rows and columns) ends in one
    horizontal reduction per plane instead of one per row. Loops of
    different kinds (a reduction next to a parallel loop) and operands on
    strided views are left as they are.

    ```mlir
    linalg.generic {iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
        ins(%x : memref<8x144x56x56xf32>) outs(%s : memref<144xf32>)
    // becomes, on %x viewed as memref<8x144x3136xf32>:
    linalg.generic {iterator_types = ["reduction", "parallel", "reduction"]}
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def LowpApproximateMath : Pass<"lowp-approximate-math"> {
  let summary = "Transcendental math to vectorizable polynomial approximations";
  let description = [{
    LLVM lowers `math.exp`, `math.erf`, `math.tanh`, `math.log` on vectors
    to one libm call per element, so softmax, GELU and normalization loops
    that `affine-super-vectorize` made vector become scalar again. This
    pass rewrites the selected math ops on f32 (scalars and vectors of any
    shape) into upstream MLIR's polynomial approximations: range reduction,
    a minimax polynomial or rational function evaluated with `math.fma`, and
    the exponent set by integer arithmetic - arith and math.fma only, so
    the vectorized loop stays vector. f16 and bf16 ops are computed in f32
    between an `arith.extf` and an `arith.truncf`. The ops not selected,
    and f64, are left for `convert-math-to-llvm` / `convert-math-to-libm`.

    Accuracy over the f32 ranges fp-opt's islands feed them, measured
    against f64 libm on 2^20 points per range by
    `test/Integration/X86/approximate-math.mlir` (docs/lowering-x86.md has
    the table): at most 1 ulp for exp on [-87.3, 0] (softmax) and for log,
    2.4 for expm1, 2.1 for log1p, 1.5 for log2, 4.1 for erf, 4.5 for tanh,
    5.1 for exp on [0, 88.7]; results below 2^-126 flush to 0.

    Powers by a constant (`math.powf` by 2, 3, 0.5, -0.5, ... and
    `math.fpowi`; torch-mlir's `x.pow(2)` in a variance or an RMSNorm)
    become multiplies, `sqrt` or `rsqrt` (upstream's algebraic
    simplification; `x^0.5` as `sqrt` differs from `pow` only at -0 and
    -inf). A math op left on vectors that LLVM has no vector instruction
    for (sin, cos, atan, a power by a variable, ...) is one libm call per
    element: it gets a remark, as a slow path.

    ```mlir
    %e = math.exp %x : vector<8xf32>
    // becomes ~25 arith ops on vector<8xf32> (fma, select, bitcast,
    // shli): no call
    ```
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "math ops to approximate, by mnemonic (default: exp, expm1, "
               "log, log1p, log2, tanh, erf)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def LowpPromoteReductionAccumulators
    : Pass<"lowp-promote-reduction-accumulators"> {
  let summary = "Affine reduction accumulators from memory to loop-carried values";
  let description = [{
    `convert-linalg-to-affine-loops` writes a reduction as a load, combine
    and store of the output element in every iteration of the reduction
    loop. `affine-super-vectorize` cannot vectorize a loop that stores to an
    address invariant in it, so a reduction along the innermost dimension
    (softmax's row max and sum, layer norm's mean and variance, RMS norm)
    stays scalar, one load and store per element. This pass moves such an
    accumulator into an `iter_args` value of the loop: loaded once before
    it, stored once after. `affine-super-vectorize{vectorize-reductions}`
    then vectorizes the loop with a vector accumulator and one horizontal
    reduction at the end.

    A pair of `affine.load` / `affine.store` is promoted when both are in
    the loop's body (not nested), access the same memref at the same
    loop-invariant indices, the load comes first, nothing else in the loop
    (nested ops included) writes memory or reads a buffer that may alias
    the accumulator's, and the element type is f32, f64 or an integer
    (formats narrower than f32 keep their sequential rounding order).

    ```mlir
    affine.for %j = 0 to 768 {
      %a = affine.load %x[%i, %j] : memref<128x768xf32>
      %acc = affine.load %y[%i] : memref<128xf32>
      %s = arith.addf %a, %acc : f32
      affine.store %s, %y[%i] : memref<128xf32>
    }
    // becomes
    %init = affine.load %y[%i] : memref<128xf32>
    %r = affine.for %j = 0 to 768 iter_args(%acc = %init) -> (f32) {
      %a = affine.load %x[%i, %j] : memref<128x768xf32>
      %s = arith.addf %a, %acc : f32
      affine.yield %s : f32
    }
    affine.store %r, %y[%i] : memref<128xf32>
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def LowpFuseElementwise : Pass<"lowp-fuse-elementwise"> {
  let summary = "Fuse chains of elementwise linalg ops on tensors";
  let description = [{
    Front ends write every bias add, activation, cast, broadcast and
    residual as its own op; lowered one by one, each is a loop nest that
    writes a buffer the next one reads back. On tensors, before
    bufferization, this pass fuses an all-parallel producer into the
    `linalg.generic` consuming it (upstream's elementwise fusion: the
    consumer's body computes the producer's payload in registers), so the
    intermediate buffer disappears; a reduction may consume a fused
    producer too (exp(x - max) into softmax's sum).

    - Named all-parallel ops (`linalg.add`, `linalg.map`,
      `linalg.broadcast`, `linalg.transpose`, `linalg.elementwise`, ...)
      are generalized first, except `linalg.fill` and any op consumed by a
      named op with reduction loops: a matmul or convolution keeps its
      named form for `lowp-x86-lower-contractions` and so do its operands'
      producers (a transpose feeding a matmul belongs to its packing).
    - A producer is fused into a consumer when it has one use, or when its
      body is at most two additions, multiplications or comparisons besides
      casts (a broadcast, transpose, conversion, scale, residual add or
      centring is then recomputed per use instead of stored once and read
      back) and every user is a `linalg.generic` that can take it in (one
      that a convolution, a matmul or a reshape reads is stored for that
      user anyway, and recomputing it elsewhere would only read its own
      operands again); divisions and math functions are computed once.
      Single-use producers are fused first; a producer with several uses
      is recomputed only when none of its inputs is itself such a shared
      elementwise result, so recomputation never chains: a residual stream
      (each add read by the next add and by a layer norm) is stored once
      per add instead of being recomputed from its start in every norm.
    - Contractions, convolutions, pooling and reductions are never fused
      into a consumer (they are not all-parallel).
    - With `kernel-epilogues` (lowp-pipeline-x86), the graph is arranged
      for the kernels that take a fill and a consumer into their
      epilogues: a named op with reduction loops whose result only an
      all-parallel op reads moves down to just before that op (what a
      front end computes in between without reading it - a batch norm's
      per-channel `1/sqrt(var + eps)`, which torch.export places after the
      convolution - would stand between them), and a `linalg.fill` read by
      several ops (torch-mlir fills one zero tensor as the init of every
      convolution of that shape) is cloned, with its `tensor.empty`, for
      each (bufferized, one filled buffer would be copied whole into each
      user's own), and an elementwise op reading through a constant 0 a
      dimension whose loop runs over one value (torch-mlir's
      `(0, d1, d2, d3)` for a batch of 1) reads it through that loop (the
      identity map the kernels follow). A matmul or convolution whose init
      is a `linalg.generic` broadcasting a smaller tensor (torch-mlir's
      convolution bias) starts from a zero fill, and the broadcast operand
      is added by an elementwise op after it, which fuses into the
      consumer: the kernel adds it in its epilogue instead of reading back
      an init as large as its output (f32 and wider results: a 16-bit one
      would be rounded twice). Pooling keeps its init. Two fusions are
      left out for the epilogues: a producer that is not cheap to recompute
      (a batch norm's per-channel `1/sqrt(var + eps)`) is not fused into a
      consumer that reads it through a broadcast, which would recompute it
      for every element; and the consumer of a contraction is not fused
      into an op that reads it permuted (the transpose of an NHWC
      convolution's result back to NCHW), so that the kernel still runs it
      and writes in its own order.

    ```mlir
    %b = linalg.generic {...} ins(%mm, %bias : ...) { addf }
    %g = linalg.generic {...} ins(%b : ...) { erf-GELU }
    // becomes one linalg.generic { addf; erf-GELU } with no %b buffer
    ```
  }];
  let options = [
    Option<"kernelEpilogues", "kernel-epilogues", "bool", /*default=*/"false",
           "Arrange contractions, their fills and consumers for kernels "
           "that take them as epilogues (lowp-pipeline-x86)">,
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def LowpFoldPadIntoProducer : Pass<"lowp-fold-pad-into-producer"> {
  let summary = "Write padded tensors once: border by fills, interior by "
                "the source's producer";
  let description = [{
    Front ends pad every convolution input (torch-mlir: `tensor.pad` with a
    zero yield). Bufferized, a `tensor.pad` is an allocation, a pass
    writing the pad value over all of it and a copy of the source into its
    interior; the source itself is usually a buffer computed just for that
    copy (the narrowing cast of the input, a batch norm + ReLU).

    On tensors, a `tensor.pad` with a constant (or loop-invariant) pad
    value, static shapes and static padding, whose source is the result of
    a `linalg` op on tensors that writes a `tensor.empty` and has no other
    use (in the same block), is rewritten in destination-passing style:

    - the padded tensor is a `tensor.empty` built before that op, its
      border written by `linalg.fill` on slices: for each padded dimension
      the slab before and the slab after the source along it (within the
      source's extent in the dimensions before it, whole in those after
      it), so every element is written once;
    - the op writes the interior slice of the padded tensor instead of its
      own: bufferized in place, a subview, and the copy is gone.

    Pads of anything else (a function argument, a shared result) stay as
    they are (a fill and a copy once bufferized): their copy would remain.

    With `keep-contraction-epilogues` (the default), a producer that reads
    the only use of a contraction's or convolution's result (its batch
    norm, activation, cast) keeps its own identity-layout result: the x86
    kernels fuse such a consumer into their epilogue, which saves more than
    the copy (the contraction's f32 result is never stored) and needs a
    contiguous output. Pads marked `nofold`, with dynamic shapes or a pad
    value computed per element are left as they are.

    ```mlir
    %c = linalg.generic {...} ins(%x : tensor<1x8x21x21xf32>)
           outs(%e : tensor<1x8x21x21xbf16>) { truncf }
    %p = tensor.pad %c low[0, 0, 1, 1] high[0, 0, 1, 1] { yield %zero }
    // becomes
    %d = tensor.empty() : tensor<1x8x23x23xbf16>
    // linalg.fill %zero of [0, 0, 0, 0][1, 8, 1, 23], [0, 0, 22, 0][1, 8, 1, 23],
    // [0, 0, 1, 0][1, 8, 21, 1] and [0, 0, 1, 22][1, 8, 21, 1] of %d -> %b
    %i = tensor.extract_slice %b[0, 0, 1, 1] [1, 8, 21, 21] [1, 1, 1, 1]
    %c = linalg.generic {...} ins(%x : tensor<1x8x21x21xf32>) outs(%i) { truncf }
    %p = tensor.insert_slice %c into %b[0, 0, 1, 1] [1, 8, 21, 21] [1, 1, 1, 1]
    ```
  }];
  let options = [
    Option<"keepContractionEpilogues", "keep-contraction-epilogues", "bool",
           /*default=*/"true",
           "Leave pads whose source's producer reads a contraction's or "
           "convolution's only use (a kernel epilogue candidate) copying">,
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
  ];
}

def LowpParallelizeLoops : Pass<"lowp-parallelize-loops"> {
  let summary = "Outer loops of kernels and large linalg ops to parallel loops";
  let description = [{
    The thread-level parallelism of `lowp-pipeline-x86{threads=N}`, on
    bufferized IR, ahead of the affine loop lowering; after `lower-affine`,
    `convert-scf-to-openmp` turns each outermost `scf.parallel` into an
    OpenMP parallel loop.

    - An `scf.for` without `iter_args` that carries the `lowp.parallel`
      unit attribute becomes an `scf.parallel` with the same bounds, unless
      it has fewer than `threads` iterations (then marked loops inside it
      are candidates). A lowering marks a loop so when its iterations write
      disjoint memory and read nothing another iteration writes (the
      column-panel loops of `lowp-x86-lower-contractions`' kernels, their B
      packing, a batch_matmul's batches).
    - A linalg op on buffers with static sizes, at least `min-iterations`
      points, a parallel outermost dimension of at least `threads`
      iterations (leading unit dimensions, a front end's batch of 1, are
      passed over) and at least one more loop becomes its affine loop nest
      (`convert-linalg-to-affine-loops`' own lowering) with that loop an
      `affine.parallel`; the inner loops stay `affine.for` for the
      vectorizer. Splitting a parallel dimension leaves every reduction's
      order as it was: results do not depend on the thread count.

    Loops already inside a parallel loop stay sequential (one level of
    threads); so do smaller, dynamically shaped or one-dimensional ops, and
    ops whose outermost non-unit dimension is a reduction.

    ```mlir
    linalg.generic {iterator_types = ["parallel", "reduction"]}
        ins(%x : memref<128x768xf32>) outs(%y : memref<128xf32>) {...}
    // becomes
    affine.parallel (%i) = (0) to (128) {
      affine.for %j = 0 to 768 {
        ... affine.load %x[%i, %j], %y[%i]; affine.store ... %y[%i]
      }
    }
    ```
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"2",
           "Number of threads the parallel loops are meant for (1: no-op)">,
    Option<"minIterations", "min-iterations", "int64_t", /*default=*/"16384",
           "Smallest iteration space of a linalg op worth a parallel loop">,
  ];
  let dependentDialects = [
    "::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
  ];
}

def LowpInlineScalarResources : Pass<"lowp-inline-scalar-resources"> {
  let summary = "Read rank-0 dense_resource global initializers into dense ones";
  let description = [{
    MLIR 22's `finalize-memref-to-llvm` reads the one value of a rank-0
    `memref.global` with `ElementsAttr::getSplatValue`, which aborts on a
    `dense_resource` initializer. Front ends emit `dense_resource` for every
    parameter, scalars included, so this pass replaces those initializers
    by dense attributes read from the blob (a missing or short blob is an
    error):

    ```mlir
    memref.global "private" constant @scale : memref<f32> = dense_resource<blob>
    // becomes
    memref.global "private" constant @scale : memref<f32> = dense<2.000000e+00>
    ```
  }];
}

def LowpOrderConstantGlobals : Pass<"lowp-order-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Name and order bufferization's constant globals by first use";
  let description = [{
    One-Shot Bufferize makes each constant tensor a private `memref.global`
    named `__constant_<type>` (with `_N` on a clash) at the top of the
    module, in an order that varies from run to run on multi-function
    modules. The lowering pipelines run this pass right after
    bufferization: those globals are renamed and placed at the top of the
    module in the order of their first `memref.get_global` in the module
    (unused ones last, by name), so a pipeline's output depends on its
    input alone. Other globals are left alone.

    ```mlir
    memref.global "private" constant @__constant_2xf32_0 : memref<2xf32> = dense<[3.0, 4.0]>
    memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[1.0, 2.0]>
    func.func @f() { %0 = memref.get_global @__constant_2xf32_0 ... }
    func.func @g() { %0 = memref.get_global @__constant_2xf32 ... }
    // becomes: @__constant_2xf32 = [3.0, 4.0] (read by @f) first, then
    // @__constant_2xf32_0 = [1.0, 2.0] (read by @g).
    ```
  }];
}

def LowpWriteUpdatesInPlace
    : Pass<"lowp-write-updates-in-place", "func::FuncOp"> {
  let summary = "Write each updated argument's new value into its buffer";
  let description = [{
    A training step (docs/training-step.md) returns the new value of each
    parameter and optimizer state it updates: a result marked
    `lowp.updates = i` is the new value of argument i. Bufferized as it
    is, the step writes each new value into a fresh buffer, which its
    caller copies back into the parameter: one more pass over every
    parameter per step, and one more buffer of each alive at the peak.

    For each such result computed by a linalg op on tensors from a
    `tensor.empty` init it does not read (an SGD or AdamW update, a
    momentum), this pass makes argument i the init and marks the argument
    `bufferization.writable`: one-shot bufferization then writes the new
    value into the argument's buffer, unless something reads the argument
    after that write (it then writes a copy). The caller sees its
    arguments change: lowp-pipeline-x86 runs this pass only with
    `update-in-place=true`, which `fpopt.torch.compile_training_step`
    sets (its caller passes the module's tensors and wants them updated).

    ```mlir
    %e = tensor.empty() : tensor<64xf32>
    %w1 = linalg.generic ... ins(%w, %g : ...) outs(%e : tensor<64xf32>)
    return %w1 : tensor<64xf32>   // {lowp.updates = 0}
    // becomes: outs(%w : tensor<64xf32>), %w {bufferization.writable = true}
    ```
  }];
  let dependentDialects = ["bufferization::BufferizationDialect"];
}

def LowpReadOnlyArguments : Pass<"lowp-read-only-arguments", "func::FuncOp"> {
  let summary = "Keep a public function's tensor arguments unchanged by its bufferized code";
  let description = [{
    A tensor argument is a value: a caller that passes an array expects it
    unchanged after the call. One-shot bufferization with function
    boundaries takes every argument as writable, so an op that writes into
    an argument's tensor (`linalg.matmul ... outs(%bias)`, as IREE-style
    inputs accumulate onto a bias) writes into the caller's buffer: a
    second call with the same arrays computes from clobbered inputs.

    This pass marks each tensor argument of a public function with a body
    `bufferization.writable = false` unless it carries that attribute
    already (lowp-write-updates-in-place marks the parameters a training
    step updates in place `true`). One-shot bufferization then writes such
    an op's result into a copy of the argument. Private functions, whose
    callers are in the module, are left to bufferization.

    ```mlir
    func.func @forward(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
      %y = linalg.matmul ins(%x, %w : ...) outs(%b : tensor<4x16xf32>) -> tensor<4x16xf32>
      return %y : tensor<4x16xf32>
    }
    // becomes: %b: tensor<4x16xf32> {bufferization.writable = false} (and
    // %x, %w likewise); bufferized, the matmul accumulates into a copy of %b.
    ```
  }];
  let dependentDialects = ["bufferization::BufferizationDialect"];
}

def LowpReturnUpdatedArguments
    : Pass<"lowp-return-updated-arguments", "func::FuncOp"> {
  let summary = "Return an argument updated in place itself, not a clone";
  let description = [{
    Ownership-based deallocation gives a public function's caller
    ownership of every buffer it returns, so a returned argument becomes a
    `bufferization.clone` of it: a copy of every parameter
    lowp-write-updates-in-place updated in place. This pass returns the
    argument itself for a result marked `lowp.updates = i` that is a clone
    of argument i. The caller owns that buffer already: it must not free a
    result whose allocated pointer is one of its arguments' (the fpopt
    runtime checks; docs/embedding.md).
  }];
}

def LowpFreeBuffersEarly : Pass<"lowp-free-buffers-early"> {
  let summary = "Move each memref.dealloc up to the last use of its buffer";
  let description = [{
    Ownership-based buffer deallocation frees a block's buffers at the end
    of the block, so every intermediate of a function body stays allocated
    until it returns: the peak is the sum of all of them, and a function
    called in a loop touches that much fresh memory on every call (glibc
    returns the freed top of its heap to the system, so the pages are
    faulted in and zeroed again on the next call). This pass moves a
    `memref.dealloc` of a buffer allocated by `memref.alloc` in the same
    block to right after the last op of the block that uses the buffer or
    a view of it (a use inside a nested region counts as a use by the op
    holding the region), so later allocations reuse the memory:

    ```mlir
    %a = memref.alloc() : memref<1024xf32>
    linalg.fill ins(%zero : f32) outs(%a : memref<1024xf32>)
    linalg.copy ins(%a : memref<1024xf32>) outs(%out : memref<1024xf32>)
    %b = memref.alloc() : memref<1024xf32>
    ...
    memref.dealloc %a : memref<1024xf32>
    // becomes: memref.dealloc %a right after the linalg.copy, before %b.
    ```

    A buffer whose aliases may escape the pass's view is left alone: one
    used by an op that returns a memref without being a view of it, by a
    call, a return or a terminator (yielded out of a region).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def LowpPlanWorkspace : Pass<"lowp-plan-workspace", "::mlir::ModuleOp"> {
  let summary = "Place a function's fixed-size buffers in one workspace, reused across calls";
  let description = [{
    A compiled layer called in a serving loop allocates the same
    intermediates on every call. Large ones come from `mmap` and go back to
    the system when freed, so every call faults in and zeroes fresh pages;
    buffers allocated inside loops (the kernels' packing panels) cost a
    `malloc`/`free` pair per iteration. This pass gives each function one
    workspace instead:

    1. **Planning.** Every `memref.alloc` of a static, identity-layout
       buffer of integers or floats that is freed by a `memref.dealloc` in
       its own block becomes a `memref.view` of the workspace at a fixed
       byte offset (aligned to 64 bytes or the alloc's `alignment`, if
       larger); the dealloc goes away. A buffer's lifetime is the span, in
       the function body, between the ops that hold its alloc and its
       dealloc (a buffer allocated inside a loop lives as long as the
       loop), and buffers whose lifetimes overlap get disjoint bytes
       (greedy by size, first fit), so the workspace is about the peak of
       the live intermediates, not their sum. A buffer that is only freed is
       removed.
    2. **Storage.** With `static-storage` (the default), the workspace is a
       private `memref.global` of the module (zero pages until first
       touched, then resident: no allocation or page fault on later calls).
       A busy flag next to it (`memref.atomic_rmw assign`) keeps calls that
       overlap in time apart: a call that finds the workspace taken (another
       thread, recursion) allocates its own for that call and frees it on
       return. With `static-storage=false`, every call allocates the
       workspace once and frees it on return.

    ```mlir
    func.func @f(%x: memref<256xf32>) {
      %a = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
      ... uses of %a ...
      memref.dealloc %a : memref<256xf32>
      %b = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
      ... uses of %b ...
      memref.dealloc %b : memref<256xf32>
      return
    }
    // becomes (%a and %b share bytes 0..1023 of a 1024-byte workspace):
    memref.global "private" @__lowp_workspace_f : memref<1024xi8> = uninitialized {alignment = 64 : i64}
    memref.global "private" @__lowp_workspace_f_busy : memref<1xi32> = dense<0>
    func.func @f(%x: memref<256xf32>) {
      %was = memref.atomic_rmw assign %c1_i32, %busy[%c0] : (i32, memref<1xi32>) -> i32
      %free = arith.cmpi eq, %was, %c0_i32 : i32
      %ws = scf.if %free -> (memref<1024xi8>) { <the global> } else { <memref.alloc> }
      %a = memref.view %ws[%c0][] : memref<1024xi8> to memref<256xf32>
      ...
      %b = memref.view %ws[%c0][] : memref<1024xi8> to memref<256xf32>
      ...
      scf.if %free { <busy = 0> } else { memref.dealloc %ws }
      return
    }
    ```

    3. **Parallel loops** (`threads=`). The buffers of one iteration of an
       `scf.parallel` (packing panels, AMX scratch tiles, a convolution
       block's col), planned the same way over the loop body, become views
       of one stack arena, a `memref.alloca` at the start of the body (up
       to 256 KiB; larger ones stay allocations): `convert-scf-to-openmp`
       scopes the body's allocas per iteration, so each thread reuses its
       own stack instead of a `malloc`/`free` per buffer and iteration.
       `lowp-lower-alloca-scopes` keeps that scope valid through `scf-to-cf`.

    Left alone: buffers of dynamic size, with a layout or a memory space,
    of `index` or non-scalar elements, returned or freed in another block
    (no dealloc next to the alloc), and buffers allocated inside an op whose
    regions may run concurrently or that the pass does not know
    (`scf.forall`, `affine.parallel`, `omp` ops, an `scf.parallel` inside
    another, ...): only `scf.for`/`if`/`while`/`index_switch`/
    `execute_region`, `affine.for`/`if` and `memref.alloca_scope` may stand
    between such an alloc and the function body or the outermost
    `scf.parallel` body. Functions whose body is more than one block are
    left alone. Run it after the last pass that turns loops parallel.
  }];
  let options = [
    Option<"staticStorage", "static-storage", "bool", /*default=*/"true",
           "Keep each function's workspace in a module global reused across "
           "calls (false: allocate it once per call)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def LowpOutlineRepeatedLoops : Pass<"lowp-outline-repeated-loops", "::mlir::ModuleOp"> {
  let summary = "Compile each loop nest that a module repeats once: one function, a call per copy";
  let description = [{
    A model repeats its layers: BERT-base is 12 identical encoder layers,
    EfficientNetV2-S 40 blocks of 12 kinds. Lowered, every copy of a layer
    is the same loop nests over other buffers, and every copy is converted,
    translated and compiled by LLVM again. This pass finds the outermost
    loops (`scf.for`, `scf.parallel`, `affine.for`, `affine.parallel`, ...)
    of the module's functions that are the same but for the buffers and
    values they read from outside (same ops, attributes and types; the same
    constants), and moves each class of two or more into one private
    function that every copy calls:

    ```mlir
    func.func @f(%a: memref<64xf32>, %b: memref<64xf32>) {
      affine.for %i = 0 to 64 { ... %a ... }
      affine.for %i = 0 to 64 { ... %b ... }
      return
    }
    // becomes
    func.func @f(%a: memref<64xf32>, %b: memref<64xf32>) {
      call @f_loops0(%a) : (memref<64xf32>) -> ()
      call @f_loops0(%b) : (memref<64xf32>) -> ()
      return
    }
    func.func private @f_loops0(%arg0: memref<64xf32>) {
      affine.for %i = 0 to 64 { ... %arg0 ... }
      return
    }
    ```

    A value the loops read from outside becomes an argument of the
    function, in the order of first use; two copies match only where their
    outside values correspond one to one. Constants defined outside are
    cloned into the function, so loop bounds and vector masks stay
    constant. The function is private, with internal linkage
    (`llvm.linkage`). Loops that return results, loops inside other loops, and
    nests of fewer than `min-ops` ops stay where they are. A function marked
    `lowp.runs_once` (`F_prepack`) keeps no nest of its own: each of its
    outermost loops without results is outlined, repeated or not, whatever
    its size, so that `lowp-unoptimized-run-once-wrappers` can compile the
    rest (allocations, calls, the returned descriptors) without
    optimization. The function is
    named after the function holding the first copy, `<function>_loops<N>`
    with N the first number no symbol has (a second run goes on from the
    first's). A call costs a few
    nanoseconds; the nests it takes run for microseconds or more.
  }];
  let options = [
    Option<"minOps", "min-ops", "unsigned", /*default=*/"16",
           "Fewest ops (the loop itself and every op inside) a nest needs to be outlined">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def LowpLowerAllocaScopes : Pass<"lowp-lower-alloca-scopes"> {
  let summary = "memref.alloca_scope as a saved and restored stack pointer, before scf-to-cf";
  let description = [{
    `convert-scf-to-openmp` wraps each parallel loop body in a
    `memref.alloca_scope`, so that the allocas of an iteration are freed at
    its end. A scope holding an alloca (`lowp-plan-workspace` gives each
    iteration of a parallel loop one stack arena for its buffers) is kept by
    canonicalization, and `scf-to-cf` would then split the loops inside it
    into blocks, which an `alloca_scope` (one block) may not hold. This pass
    lowers every scope while it has one block: `llvm.intr.stacksave` before
    its body, the body inlined, `llvm.intr.stackrestore` after it (what
    `finalize-memref-to-llvm` emits for a scope). Run it before
    `scf-to-cf`.

    ```mlir
    memref.alloca_scope {
      %a = memref.alloca() : memref<64xf32>
      "use"(%a) : (memref<64xf32>) -> ()
    }
    // becomes
    %sp = llvm.intr.stacksave : !llvm.ptr
    %a = memref.alloca() : memref<64xf32>
    "use"(%a) : (memref<64xf32>) -> ()
    llvm.intr.stackrestore %sp : !llvm.ptr
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def LowpExpandShapeToReshape : Pass<"lowp-expand-shape-to-reshape"> {
  let summary = "Dynamic tensor.expand_shape with two unknown sizes in one group to tensor.reshape";
  let description = [{
    A `tensor.expand_shape` whose reassociation group has more than one
    dynamic output size bufferizes to a `memref.expand_shape` that MLIR 22's
    `expand-strided-metadata` (run by every lowering pipeline) dereferences a
    null attribute on: the strides of such a group are not constants. This
    pass, run by the lowering pipelines before bufferization, rewrites those
    expands as a `tensor.reshape` to a shape built from the op's
    `output_shape`, which bufferizes to `memref.reshape` (a copy first when
    the source is a strided view) and lowers without strided metadata:

    ```mlir
    %e = tensor.expand_shape %t [[0, 1]] output_shape [%a, %b]
        : tensor<?xf32> into tensor<?x?xf32>
    // becomes
    %shape = tensor.from_elements %a, %b : tensor<2xindex>
    %e = tensor.reshape %t(%shape) : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
    ```

    Expands with at most one dynamic size per group are left as they are.
    An expand whose constant `output_shape` entry contradicts its static
    result type (which `tensor.expand_shape`'s verifier accepts and
    `memref.expand_shape`'s rejects) is reported here, with its location,
    instead of leaving invalid IR after bufferization.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::tensor::TensorDialect"];
}

def LowpPrepareLoweringInput : Pass<"lowp-prepare-lowering-input"> {
  let summary = "Front-end IR the lowering pipelines reject or rewrite first";
  let description = [{
    Every lowering pipeline (`lowp-pipeline-x86`, `-nvvm`, `-rocdl`, `-tpu`)
    runs this pass first, on IR as front ends export it:

    - An op of an unregistered dialect (`torch.aten.*` left by a partial
      export, a custom call) has no lowering; the decision passes leave such
      ops in place, but a lowering cannot. The first one is reported with
      its location and what to do, and a note counts the others: one error,
      instead of whatever later step first trips over it ("op was not
      bufferized", "ops with unknown memory side effects").
    - `ml_program.global_load_const` (IREE and StableHLO constants held as
      globals) has no bufferization model in MLIR 22 while
      `ml_program.global_load` has one: on an immutable global the two are
      the same read, so it becomes `ml_program.global_load`, and the global
      becomes a `memref.global` during bufferization.
    - A nested `builtin.module` is reported: no lowering step looks inside
      one, so its functions would come out unlowered on a run that
      succeeds.
    - `memref.dealloc` of a buffer the same function allocated with
      `memref.alloc` (a runtime's scratch or cache buffers) is erased: the
      ownership-based deallocation the pipelines run rejects IR that frees
      buffers already, and frees every allocation itself, at its last use
      (no later than the front end did). A free of anything else (an
      argument, a callee's result) is reported with its location.
    - A `tensor.cast` / `memref.cast` whose source, through a chain of
      casts, has a static dimension the result contradicts
      (`tensor<1xf32>` -> `tensor<?xf32>` -> `tensor<4xf32>`) fails on
      every execution; upstream's cast folding would turn it into a direct
      cast that does not verify. It is reported with its location.

    ```mlir
    %b = ml_program.global_load_const @bias : tensor<16xf32>
    // becomes
    %b = ml_program.global_load @bias : tensor<16xf32>
    ```
  }];
}

def LowpInferTransferInBounds : Pass<"lowp-infer-transfer-in-bounds"> {
  let summary = "Make 1-D vector transfers in affine loops contiguous and in bounds";
  let description = [{
    `affine-super-vectorize` leaves its transfers without `in_bounds`, so
    they become masked loads/stores; AVX2 has no masked move for 16-bit
    elements and LLVM scalarizes them (for bf16 through one `__truncsfbf2`
    call per element). A 1-D minor-identity transfer of a static memref
    whose innermost index is an `affine.for` induction variable with
    constant bounds is in bounds when the loop's last value still leaves
    room for the whole vector:

    ```mlir
    affine.for %j = 0 to 128 step 16 {
      %v = vector.transfer_read %m[%i, %j], %p : memref<64x128xbf16>, vector<16xbf16>
    // gains {in_bounds = [true]}
    ```

    A transfer along a dimension followed only by unit dimensions (a
    keep-dim reduction result read along its rows) is contiguous but not a
    minor identity, so it would be unrolled lane by lane, again through
    `__truncsfbf2` per lane for bf16 on AVX2. It reads a collapsed view
    instead (then the rule above applies):

    ```mlir
    %v = vector.transfer_read %m[%c0, %i, %c0], %p
           {permutation_map = affine_map<(d0, d1, d2) -> (d1)>}
           : memref<1x128x1xbf16>, vector<8xbf16>
    // becomes
    %c = memref.collapse_shape %m [[0], [1, 2]] : memref<1x128x1xbf16> into memref<1x128xbf16>
    %v = vector.transfer_read %c[%c0, %i], %p : memref<1x128xbf16>, vector<8xbf16>
    ```

    Transfers of i1 (or of any element narrower than a byte) get neither:
    LLVM bit-packs a vector of i1 in memory (`store <16 x i1>` writes 2
    bytes) while a memref of i1 holds one byte per element, so as a whole
    vector load or store (in bounds, or masked with a mask LLVM folds to
    all-true) they would read and write the wrong bytes: a mask computed
    by a vectorized compare, then read one element at a time by a
    `torch.where`. They become one scalar load or store per lane, guarded
    by an `scf.if` where the lane may be masked or out of bounds:

    ```mlir
    vector.transfer_write %m, %b[%j] : vector<8xi1>, memref<16xi1>
    // becomes, for each lane k (in bounds: j + k < 16 for every j)
    %e = vector.extract %m[k] : i1 from vector<8xi1>
    memref.store %e, %b[%j + k] : memref<16xi1>
    ```
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def LowpUnoptimizedRunOnceWrappers : Pass<"lowp-unoptimized-run-once-wrappers", "::mlir::ModuleOp"> {
  let summary = "Compile the C interface wrapper of a function that runs once without optimization";
  let description = [{
    `F_prepack` (`lowp-x86-lower-contractions{prepack}`) runs once per set of
    weights and returns every packed weight: a model with 150 packed
    weights returns a struct of 150 memref descriptors, which its C
    interface wrapper `_mlir_ciface_F_prepack` copies to the caller in one
    basic block of some 3,300 loads and stores, and llc -O3 spends seconds
    scheduling that block for code that runs once and computes nothing.
    This pass gives the
    C interface wrapper of every `llvm.func` marked `lowp.runs_once` the LLVM
    attributes `noinline` and `optnone` (the `passthrough` list), so llc
    compiles it at -O0, and the marked function too where it holds no loop
    (no branch back to a block that dominates it: `lowp-outline-repeated-loops`
    moves the loops of such a function into functions of their own, which
    keep full optimization). The mark is removed from both.

    ```mlir
    llvm.func @f_prepack(...) attributes {lowp.runs_once} { ... }
    llvm.func @_mlir_ciface_f_prepack(...) attributes {lowp.runs_once} { ... }
    // becomes (@f_prepack holding no loop)
    llvm.func @f_prepack(...) attributes {passthrough = ["noinline", "optnone"]} { ... }
    llvm.func @_mlir_ciface_f_prepack(...) attributes {passthrough = ["noinline", "optnone"]} { ... }
    ```

    Run it after the conversion to the LLVM dialect (the wrapper is
    `convert-func-to-llvm`'s, named `_mlir_ciface_` + the function's name),
    before `lowp-strip-attributes`.
  }];
}

def LowpStripAttributes : Pass<"lowp-strip-attributes"> {
  let summary = "Remove lowp.* discardable attributes at the end of lowering";
  let description = [{
    mlir-translate and mlir-runner do not load the lowp dialect, so the
    attributes fp-opt's passes leave on ops (`lowp.target` on the module,
    decision records) must go once the module is in the LLVM dialect:

    ```mlir
    module attributes {lowp.target = #lowp.target<"avx2">} { llvm.func ... }
    // becomes
    module { llvm.func ... }
    ```
  }];
}

def LowpConvertFP8ToNVVM : Pass<"lowp-convert-fp8-to-nvvm"> {
  let summary = "FP8 conversions in GPU kernels to NVVM conversion ops";
  let description = [{
    MLIR 22 has no lowering of an FP8 `arith.truncf` / `arith.extf` to NVVM:
    inside a `gpu.module` they fail translation to LLVM IR. This pass
    rewrites scalar f32/f16 <-> `f8E4M3FN`/`f8E5M2` conversions into the
    hardware conversions of chips whose capability-table row has FP8
    conversions (sm_89, sm_90, sm_100):

    - f32 -> FP8: `nvvm.convert.f32x2.to.f8x2` (`cvt.rn.satfinite.e4m3x2.f32`,
      `...e5m2x2.f32`). The instruction saturates; when the operand is not
      already clamped into the format's finite range (as
      `lowp.cast ... saturate` lowers), values that round past the largest
      finite value get the format's overflow result (inf for E5M2, NaN for
      E4M3FN), exactly as `arith.truncf` means;
    - FP8 -> f16/f32: `nvvm.convert.f8x2.to.f16x2` (`cvt.rn.f16x2.e4m3x2`),
      then `cvt.f32.f16`.

    FP8 conversions on a chip without FP8 (sm_70 ... sm_86), FNUZ formats
    (AMD's encodings; NVIDIA has none) and vector or non-f32/f16 FP8
    conversions are reported with their location and the pass fails. Other
    conversions are left alone (`lowp-expand-float-conversions` takes bf16
    on chips without bf16 converts).

    ```mlir
    %y = arith.truncf %c : f32 to f8E4M3FN     // %c clamped to [-448, 448]
    // becomes
    %p = nvvm.convert.f32x2.to.f8x2 %zero, %c {rnd = #nvvm.fp_rnd_mode<rn>,
           sat = #nvvm.sat_mode<satfinite>} : i16 (f8E4M3FN)
    %y = arith.bitcast (arith.trunci %p : i16 to i8) : i8 to f8E4M3FN
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "NVIDIA row of the capability table (fp-opt --print-target-table; "
           "overrides lowp.target)">,
    DeprecatedTargetSpelling<"deprecatedChip", "chip">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
  ];
}

def LowpNVVMLowerContractions : Pass<"lowp-nvvm-lower-contractions", "ModuleOp"> {
  let summary = "16-bit and FP8 matrix ops to tensor-core kernels (mma.sync) "
                "for an NVIDIA chip";
  let description = [{
    Rewrites bufferized contractions whose operands the decision made f16,
    bf16 or FP8 (`linalg.matmul`, `linalg.batch_matmul`, batched matmuls with
    broadcast weights, and `linalg.generic` contractions of the same form:
    A[b?][m][k] x B[b?][k][n] or B[b?][n][k] -> f32 C[b][m][n], body
    `extf, extf, mulf, addf`) into a `gpu.launch_func` of a tiled
    tensor-core kernel (`gpu.module @<function>_mma_sync`, its staging
    buffers aligned to 16 bytes), with the tiling of the chip's
    capability-table row (its `mma.sync` GEMM kernels, `GPUInfo::gemmKernels`):

    - a thread block computes one blockM x blockN tile of C (grid z: the
      batch); blockK-deep slices of A and B are staged through shared
      memory, padded by 16 bytes per row so `ldmatrix` is free of bank
      conflicts, by `cp.async` with two buffers (the next slice is in flight
      while the current one is multiplied) or, on chips without `cp.async`
      (sm_75), by synchronous 16-byte loads;
    - each warp owns a (blockM / warpsM) x (blockN / warpsN) tile of f32
      accumulators in registers, fed by `ldmatrix` (`.trans` for a
      row-major 16-bit B; an FP8 B stored [k][n] is read by columns, since
      `ldmatrix` transposes 16-bit elements only) and multiplied by
      `mma.sync.aligned.m16n8k16` (sm_80+, f16 and bf16), `m16n8k8` (sm_75,
      f16) or `m16n8k32` with `.e4m3`/`.e5m2` operands in any pair (sm_89+,
      the FP8 formats `lowp-select-fp8-formats` chose; PTX ISA 8.4);
    - the epilogue starts the accumulators at zero when a `linalg.fill` of
      0 writes C right before (else at C's values), computes the
      elementwise `linalg.generic` ops that follow and consume the result
      (FP8 dequantization by 1 / (sa * sb), bias, residual, activation, the
      narrowing cast) on them in registers, and stores only the last value;
      rows and columns past M and N are guarded (loads zero-filled), so M
      is free and only N and K must be whole 16-byte rows (multiples of 8
      for 16-bit operands, 16 for FP8).

    Contractions with 16-bit or FP8 operands the kernel cannot take fall
    back to the naive mapping with a remark naming the op and the reason:
    dynamic shapes, strided layouts, N or K not whole 16-byte rows, a
    transposed A, mixed 16-bit formats or 16-bit x FP8, a format the chip
    has no tensor cores for (bf16 before sm_80), a chip without an
    `mma.sync` tiling (sm_70). FP8 operands the chip has no tensor cores
    for (any FP8 before sm_89, AMD's FNUZ encodings, FP8 formats outside
    the table) are a located error: the FP8 decision was made for another
    chip. f32 contractions are left alone without a remark.

    On chips whose table row has warpgroup kernels (`wgmma` in
    `GPUInfo::gemmKernels`: `sm_90a`, the architecture-specific PTX target of
    H100/H200), the contractions first go to **wgmma kernels**
    (`gpu.module @<function>_wgmma`): two warpgroups of 128 threads per
    128 x 128 block, each issuing `wgmma.mma_async.m64n128k16` (f16, bf16)
    or `m64n128k32` (E4M3/E5M2 in any pair) on operands in shared memory,
    read through matrix descriptors; the slices are staged by `cp.async`
    in three stages, in the swizzled layouts the descriptors describe
    (K-major rows of 64 bytes with the 64-byte swizzle; a 16-bit B stored
    [k][n] N-major in 128-byte swizzle atoms, read with imm-trans-b), with
    `fence.proxy.async` before the barrier that publishes a slice and
    `wgmma.fence` / `commit_group` / `wait_group` around its instructions.
    One slice's wgmma group stays in flight while the next slice's are
    issued (`wgmma.wait_group 1` in the loop, 0 after it; the table's
    `mmaGroupsInFlight`), and `cp.async` runs stages - 2 slices ahead, so
    no stage is refilled while a pending wgmma reads it.
    wgmma reads 8-bit operands K-major only: an FP8 B stored [k][n] is
    staged [n][k], each 16-byte chunk gathered from a column of B.
    An FP8 NCHW convolution's input is gathered into K-major chunks. The
    epilogue is the same. Contractions the wgmma kernel does not take get a
    remark and go to the mma.sync kernel; `wgmma=false` skips the wgmma
    kernels.

    With `emulate`, the same kernel (same tiles, staging buffers, copy
    assignment, `ldmatrix` addresses, epilogue coordinates and guards) is
    emitted as loops over blocks, threads, warps and lanes in which
    `cp.async`, `ldmatrix` and `mma.sync` are computed per lane as the PTX
    ISA defines their fragments, so the host can execute it (mlir-runner)
    and check the tiling against an f32 reference. For wgmma, each operand
    element is read through its matrix descriptor as the PTX ISA decodes
    it (fields, canonical layout, swizzle) and each element of D goes to
    the thread and register of the ISA's accumulator layout.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "NVIDIA row of the capability table (fp-opt --print-target-table; "
           "overrides lowp.target)">,
    Option<"emulate", "emulate", "bool", /*default=*/"false",
           "Emit the kernel as host loops with warp instructions emulated "
           "per lane (executable on the CPU, for testing)">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"true",
           "On chips with a warpgroup tiling (sm_90a), use wgmma kernels "
           "first (false: mma.sync kernels only)">,
    Option<"wgmmaStages", "wgmma-stages", "unsigned", /*default=*/"0",
           "Shared-memory stages of the wgmma kernels (2 to 4; 0: the "
           "capability table's). Fewer than the table's in-flight wgmma "
           "groups + 2 make each slice wait for its wgmma (remark); stages "
           "past the chip's static shared memory leave the op to mma.sync "
           "(remark)">,
    DeprecatedTargetSpelling<"deprecatedChip", "chip">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
  ];
}

def LowpROCDLLowerContractions : Pass<"lowp-rocdl-lower-contractions", "ModuleOp"> {
  let summary = "16-bit and FP8 matrix ops to MFMA kernels for an AMD chip";
  let description = [{
    The AMD back end of the GPU GEMM tiling that `lowp-nvvm-lower-contractions`
    uses (lib/Conversion/LinalgToGPU): the same contractions (`linalg.matmul`,
    `linalg.batch_matmul`, broadcast weights, `linalg.generic` of the form
    A[b?][m][k] x B[b?][k][n] or B[b?][n][k] -> f32 C[b][m][n] with an
    `extf, extf, mulf, addf` body), the same workgroup tiles staged through
    LDS (16-byte chunks, rows padded by 16 bytes; the next slice loaded
    into registers while the current one is multiplied, then stored to the
    other stage), the same fused epilogue (zero fill, the elementwise ops
    that follow, the FP8 dequantization and the narrowing cast, computed on
    the accumulators before the store) become a `gpu.launch_func` of a
    kernel in `gpu.module @<function>_mfma` whose waves of 64 lanes
    multiply with `amdgpu.mfma` (lowered to the chip's `v_mfma_*`), with the
    tiling of the chip's capability-table row (its `mfma` GEMM kernels,
    `GPUInfo::gemmKernels`):

    - gfx908: `v_mfma_f32_32x32x8f16`, `v_mfma_f32_32x32x4bf16`;
    - gfx90a: `v_mfma_f32_32x32x8f16`, `v_mfma_f32_32x32x8bf16_1k`;
    - gfx942: `v_mfma_f32_16x16x16f16` / `bf16_1k`, and
      `v_mfma_f32_16x16x32_{fp8,bf8}_{fp8,bf8}` on FNUZ operands in any
      E4M3/E5M2 mix;
    - gfx950: `v_mfma_f32_16x16x32_{f16,bf16}` and the FP8 forms on OCP
      operands (f8E4M3FN, f8E5M2).

    Contractions the kernel cannot take keep their linalg op (the naive
    mapping computes them) with a remark naming the op and the reason
    (dynamic shapes, strided layouts, N or K not a multiple of the 16-byte
    chunk, a transposed A, mixed 16-bit formats, a non-f32 accumulator).
    FP8 operands of a flavour the chip's MFMA does not take (any FP8 on
    gfx908/gfx90a, OCP on gfx942, FNUZ on gfx950) are a located error that
    names what the chip has: the FP8 decision was made for another chip.

    With `emulate`, the kernel is emitted as host loops over workgroups,
    threads, waves and lanes, with each lane's fragments loaded as on the
    GPU and the MFMA computed from the CDNA ISA's operand and accumulator
    layouts, so the tiling executes on the CPU.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "AMD chip from the capability table (overrides lowp.target)">,
    Option<"emulate", "emulate", "bool", /*default=*/"false",
           "Emit the kernel as host loops with wave instructions emulated "
           "per lane (executable on the CPU, for testing)">,
  ];
  let dependentDialects = [
    "::mlir::amdgpu::AMDGPUDialect", "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def LowpROCDLExpandMath : Pass<"lowp-rocdl-expand-math"> {
  let summary = "Math ops in AMDGPU kernels without the ROCm device library";
  let description = [{
    LLVM's AMDGPU backend expands `llvm.exp`, `llvm.log`, `llvm.sqrt`,
    `llvm.ceil` and friends itself (`v_exp_f32`, `v_log_f32`, ...), but
    upstream's `convert-gpu-to-rocdl` lowers `sin`, `cos`, `log2`, `log10`,
    `floor` and the functions LLVM has no intrinsic for (`erf`, `erfc`,
    `atan`, `atan2`, `asin`, `acos`, `cbrt`) to `__ocml_*` calls, which link
    only with the ROCm device library. `lowp-pipeline-rocdl` without
    `rocm-path` runs this pass in every kernel first: those ops on f32 (f16
    and bf16 through f32) become upstream MLIR's polynomial approximations
    (arith and `math.fma` only, as `lowp-approximate-math` on x86; `tan`
    reaches them through `math-expand-ops`' sin / cos), `floor(x)` becomes
    `-ceil(-x)` (exact, f64 included) and `log10(x)` `log(x) * (1 / ln 10)`.
    Other ops are left alone.

    f64 transcendentals (exp, log, sin, tanh, erf, pow, ...) and
    `arith.remf` (fmod, any width) have no device-library-free lowering: the
    f32 polynomials would silently lose f64 precision, `x - trunc(x/y)*y`
    is not exact, and AMDGCN has no instruction for them. Inside a
    `gpu.module` the pass rejects them with one located error naming the
    first such op (notes for the others) rather than leaving them to fail
    later as an `llvm.intr.*` legalization failure or a missing-bitcode
    error. f64 sqrt, rsqrt, ceil, floor, rounding, fma, sign and
    classification ops and `fpowi` by a constant compile without the
    library and pass. Outside `gpu.module`s f64 math is left alone.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def LowpROCDLLowerAsserts
    : Pass<"lowp-rocdl-lower-asserts", "::mlir::gpu::GPUModuleOp"> {
  let summary = "cf.assert in AMDGPU kernels as a trap";
  let description = [{
    Front ends write run-time checks into the computation: torch-mlir, for
    one, puts `cf.assert %nonzero, "unimplemented: tensor with zero
    element"` inside the batch-norm generics of an exported model, and they
    reach the GPU kernels. Upstream's cf-to-LLVM lowering, which
    `convert-gpu-to-rocdl` applies, prints the message through a string
    global it puts into the enclosing `builtin.module`, outside the
    `gpu.module` (the kernel then references a symbol it cannot see, and
    the globals' names depend on the order the kernels are converted in).
    NVVM has `__assertfail`; AMDGPU kernels have no host printing without
    the device library.

    This pass runs on each `gpu.module` of `lowp-pipeline-rocdl` before the
    lowering: `cf.assert %c, "msg"` becomes `scf.if (not %c) {
    llvm.intr.trap }`, which ends the kernel with a trap (`s_trap`) exactly
    when the check fails; the message is dropped (the failed launch is
    reported on the host). Asserts outside `gpu.module`s are not touched.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def LowpGPUDeviceBuffers : Pass<"lowp-gpu-device-buffers", "ModuleOp"> {
  let summary = "Host functions that launch kernels use device memory";
  let description = [{
    After the mapping to kernels, host functions still allocate with
    `memref.alloc` (host memory) and pass their arguments' host pointers to
    `gpu.launch_func`: nothing would run on a GPU. In every function that
    launches a kernel this pass

    - turns `memref.alloc` / `memref.dealloc` into `gpu.alloc` /
      `gpu.dealloc`, `memref.copy` between buffers into `gpu.memcpy`, and
      copies `memref.get_global` constants to the device where they are
      read;
    - with `calling-convention=host` (the default): copies every memref
      argument to a device buffer at entry, and back at each return where
      something may have written it (a launched kernel whose uses of the
      parameter have a write or undeclared memory effect, a copy into it,
      a call: kernels that only read an argument cost no copy back),
      returns host copies of returned buffers, and frees what it allocated
      at the function's top level;
    - with `calling-convention=device`: takes arguments as device pointers
      and returns device buffers (the caller owns them), for an embedding
      compiler that passes its own buffers.

    Host code that would read or write a device buffer itself (a
    `memref.load`, a call to an external function) is a located error.
    Upstream's `gpu-async-region` then chains the operations on a stream.
    Functions without launches are left alone.
  }];
  let options = [
    Option<"callingConvention", "calling-convention",
           "::mlir::lowp::CallingConvention",
           /*default=*/"::mlir::lowp::CallingConvention::Host",
           "Where memref arguments and results live",
           [{::llvm::cl::values(
             clEnumValN(::mlir::lowp::CallingConvention::Host, "host",
                        "host memory (copied to and from the device)"),
             clEnumValN(::mlir::lowp::CallingConvention::Device, "device",
                        "device memory"))}]>,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
  ];
}

def LowpTileForMXU : Pass<"lowp-tile-for-mxu"> {
  let summary = "Matrix ops on tensors to TPU MXU form: bf16 in, f32 "
                "accumulator, padded and tiled to the MXU tile";
  let description = [{
    Rewrites every matrix op on statically shaped tensors (`linalg.matmul`,
    with or without `indexing_maps`, `linalg.batch_matmul`, and any other
    linalg op that is a contraction with one M, one N and one K dimension
    and any number of batch dimensions) into the form a TPU MXU executes:

    - operands in bf16: an f32 operand is rounded (`arith.truncf` in an
      elementwise `linalg.generic`), since the MXU takes nothing else; a
      bf16 result is accumulated in f32 and rounded once at the end;
    - M, N and K padded with zeros (`tensor.pad`) up to multiples of the
      generation's 16-bit matrix tile (`TargetInfo::tile16`: 128 on tpu-v2
      to tpu-v5p, 256 on tpu-v6e) and the result cut back with
      `tensor.extract_slice` (zero rows and columns of K add exact zeros);
    - tiled (`scf.for` through `TilingInterface`) so that every inner
      contraction is exactly one tile, batch dimensions by 1.

    Named matmuls stay named; other contractions become a `linalg.generic`
    whose body is the MXU's (`extf`, `mulf`, `addf` in f32). Convolutions,
    elementwise ops, f64 and integer matmuls and contractions already in
    MXU form (one tile, bf16 x bf16 -> f32) are left alone. Dynamic shapes
    and other low-precision operand formats (f16, FP8: no MXU form) are
    reported with their location.

    ```mlir
    %r = linalg.matmul ins(%a, %b : tensor<200x300xbf16>, tensor<300x70xbf16>)
                       outs(%c : tensor<200x70xf32>) -> tensor<200x70xf32>
    // tpu-v5e becomes
    %pa = tensor.pad %a low[0, 0] high[56, 84] ... to tensor<256x384xbf16>
    %pb = tensor.pad %b low[0, 0] high[84, 58] ... to tensor<384x128xbf16>
    %pc = tensor.pad %c low[0, 0] high[56, 58] ... to tensor<256x128xf32>
    %t = scf.for %i = 0 to 256 step 128 iter_args(...) {
      scf.for %k = 0 to 384 step 128 iter_args(...) {
        linalg.matmul ins(... : tensor<128x128xbf16>, tensor<128x128xbf16>)
                      outs(... : tensor<128x128xf32>)
    ...
    %r = tensor.extract_slice %t[0, 0] [200, 70] [1, 1]
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "TPU row of the capability table (fp-opt --print-target-table); "
           "default: the module's lowp.target">,
    DeprecatedTargetSpelling<"deprecatedGeneration", "generation">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
  ];
}

def LowpGPUMapRowReductions : Pass<"lowp-gpu-map-row-reductions"> {
  let summary = "Row reductions and their elementwise neighbours to one GPU "
                "kernel each: a thread block per row, subgroup + shared-memory "
                "reductions";
  let description = [{
    Softmax, layer/RMS norm and the other row reductions of FP32 islands
    reach the GPU as a handful of bufferized linalg ops per row: fills of
    the accumulators, one `linalg.generic` reduction per statistic (max,
    sum, sum of squares; producers fused in by `lowp-fuse-elementwise`),
    elementwise ops on the row and on the per-row statistics. The naive
    mapping launches one kernel per op and gives each row to one thread,
    which loops over the whole row.

    This pass finds, in each block, the ops that share the same leading
    parallel ("row") dimensions P, with at least one reduction over the
    trailing dimensions R, and that depend on each other only within a row;
    it replaces them by one `gpu.launch` with one thread block per row
    (grid prod(P)) and T threads (a multiple of the capability table's
    subgroup size, `GPUInfo::subgroupSize`: 32 on NVIDIA, 64 on AMD;
    at most `threads`, at least covering R where it can):

    - elementwise ops over the row: thread t handles r = t, t + T, ...
      (coalesced);
    - reductions: each thread folds its elements into a partial (from the
      combiner's identity), `gpu.subgroup_reduce` combines the lanes of a
      subgroup, the subgroups' results meet in shared memory (a
      workgroup buffer of T / subgroupSize values) and a second
      `gpu.subgroup_reduce` gives every thread the row's value, which is
      folded into the accumulator's initial value;
    - ops over P alone (the statistics: mean, rsqrt(var + eps)) are
      computed by every thread from the reductions' values, which are
      forwarded in registers; a per-row buffer that nothing outside the
      kernel reads is never stored;
    - `gpu.barrier` separates ops where one reads what another wrote
      (or overwrites what it read).

    The combiners are those `gpu.subgroup_reduce` has (addf, mulf,
    maximumf, minimumf, maxnumf, minnumf, addi, muli, andi, ori, xori,
    signed/unsigned min/max) on scalars of at most 32 bits.
    `lowp-gpu-lower-subgroup-reduce` then lowers the subgroup reductions
    for the chip (shuffles on NVIDIA, DPP on AMD).

    A reduction this pass cannot take stays on the naive mapping with a
    remark naming the op and the reason: dynamic shapes, reduction loops
    that are not the innermost ones, an output not indexed by the leading
    parallel loops, a body that is not an associative combine of the
    accumulator, an element type wider than 32 bits. Contractions and
    convolutions are not its business (no remark).

    With `emulate`, the same kernel (same thread count, thread-to-element
    assignment, identities, forwarding and stores) is emitted as host loops
    over rows and threads; each subgroup reduction is computed over the
    threads' partials in the order of the shuffle butterfly (offsets 1, 2,
    ..., subgroup size / 2), lane 0's values exchanged as through shared
    memory, and the butterfly again, so the reduction logic runs on the CPU
    (mlir-runner) and is checked against a reference.

    ```mlir
    linalg.fill ins(%zero : f32) outs(%sum : memref<64xf32>)
    linalg.generic {iterator_types = ["parallel", "reduction"]}
        ins(%x : memref<64x768xf32>) outs(%sum : memref<64xf32>) { addf }
    linalg.generic {iterator_types = ["parallel", "parallel"]}
        ins(%x, %sum : ...) outs(%y : memref<64x768xf32>) { x - sum / 768 }
    // becomes
    gpu.launch blocks(%row, ...) in (64, 1, 1) threads(%t, ...) in (256, 1, 1)
        workgroup(%partials : memref<8xf32, #gpu.address_space<workgroup>>) {
      scf.for %r = %t to 768 step 256 iter_args(%p = 0.0) { addf }
      gpu.subgroup_reduce add ... ; shared memory ; gpu.subgroup_reduce add
      scf.for %r = %t to 768 step 256 { y[row][r] = x - sum / 768 }
    }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "GPU row of the capability table (fp-opt --print-target-table; "
           "overrides lowp.target); its "
           "subgroup size shapes the reductions">,
    Option<"threads", "threads", "unsigned", /*default=*/"256",
           "Most threads per block (rounded down to a multiple of the "
           "subgroup size)">,
    Option<"emulate", "emulate", "bool", /*default=*/"false",
           "Emit the kernel as host loops over rows and threads, with the "
           "subgroup reductions computed as the shuffle butterfly does "
           "(executable on the CPU, for testing)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
  ];
}

def LowpGPUFuseParallelLoops : Pass<"lowp-gpu-fuse-parallel-loops"> {
  let summary = "Adjacent parallel loops over the same space to one loop "
                "(one kernel)";
  let description = [{
    On the naive GPU mapping each `scf.parallel` becomes a kernel. This pass
    moves operand-free `memref.alloc` ops to the top of their block (the
    allocation bufferization puts before every op otherwise separates any
    two loops) and then fuses adjacent `scf.parallel` loops with the same
    bounds and steps where no dependence forbids it (upstream's
    `naivelyFuseParallelOps` with alias analysis: the second loop may read
    what the first wrote only at the same iteration). A fill and the
    reduction it initializes, a reduction and the elementwise op that
    consumes its result, and independent same-shaped ops (the conversions
    of several weights) become one kernel.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def LowpGPUTileParallelLoops : Pass<"lowp-gpu-tile-parallel-loops"> {
  let summary = "Parallel loops to blocks of threads along their innermost "
                "dimension";
  let description = [{
    The naive GPU mapping: every outermost `scf.parallel` without a
    mapping or reductions is tiled by `threads` along its innermost
    dimension and 1 along the others (upstream's `tileParallelLoop`, the
    last tile guarded by an `scf.if`), and mapped: the tile loop's
    dimensions to blocks x, y, z as upstream's greedy mapping would (later
    ones sequential), the innermost dimension of the loop inside to thread
    x, so consecutive threads of a warp touch consecutive elements. Parallel
    loops nested in it run sequentially in each thread. Loops it leaves
    (reductions, loops already mapped) are left to `gpu-map-parallel-loops`.

    Upstream's `parallel-loop-tiling{parallel-loop-tile-sizes=1,T}` tiles
    the leading dimensions: a 1-D loop gets one thread per block, and the
    threads of a 3-D or 4-D loop land on its second dimension, a row apart
    in memory.

    ```mlir
    scf.parallel (%c, %h, %w) = (0, 0, 0) to (64, 56, 56) step (1, 1, 1)
    // becomes (threads=128)
    scf.parallel (%c, %h, %w0) = (0, 0, 0) to (64, 56, 56) step (1, 1, 128) {
      scf.parallel (%i, %j, %k) = (0, 0, 0) to (1, 1, 128) step (1, 1, 1) {
        scf.if (%w0 + %k < 56) { ... }
      } {mapping = [sequential, sequential, thread_x]}
    } {mapping = [block_x, block_y, block_z]}
    ```
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"128",
           "Threads per block (the tile of the innermost dimension)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def LowpGPULowerSubgroupReduce
    : Pass<"lowp-gpu-lower-subgroup-reduce", "::mlir::gpu::GPUModuleOp"> {
  let summary = "gpu.subgroup_reduce to the chip's cross-lane instructions";
  let description = [{
    Lowers every `gpu.subgroup_reduce` in a kernel module for the chip's
    subgroup size (capability table): on NVIDIA chips to a butterfly of
    `gpu.shuffle xor` (`shfl.sync.bfly.b32`), on AMD chips to DPP row
    operations (`amdgpu.dpp`, `row_bcast` / `permlanex16` by generation)
    with the shuffle butterfly (`ds_bpermute`) for what DPP does not
    cover. Values wider than 32 bits are split first. A subgroup
    reduction left over is a located error.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "GPU row of the capability table (fp-opt --print-target-table; "
           "overrides lowp.target)">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::amdgpu::AMDGPUDialect",
    "::mlir::ROCDL::ROCDLDialect", "::mlir::arith::ArithDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def LowpGPUReportKernels : Pass<"lowp-gpu-report-kernels", "::mlir::ModuleOp"> {
  let summary = "A remark per host function: how many kernels it launches";
  let description = [{
    After the mapping to kernels, counts the `gpu.launch_func` ops of every
    host function (a launch inside a loop counts once) and reports them as a
    remark on the function, by kind: matrix-unit kernels (modules named
    `*_mma_sync`, `*_mfma`), row-reduction kernels (`lowp-gpu-map-row-reductions`),
    and the rest (the naive mapping), e.g.
    `remark: @forward launches 14 kernels: 7 matrix-unit, 3 row-reduction, 4 naive`.
    Fusion is measured by this count.
  }];
}

#endif // LOWP_CONVERSION_PASSES_TD
