"""fpopt.torch (the PyTorch importer) and fpopt.compile (the runtime):
the IR forms torch-mlir writes, whole torchvision models and transformer
blocks against PyTorch's own output, mixed precision within bounds, calls
in a loop, and located errors for what cannot be imported.

Models run at small inputs (64x64 images, widths of 64) so that the suite
fits CI; the architectures are torchvision's own, at their default widths."""
import math
import os
import resource
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
torchvision = pytest.importorskip("torchvision")

import fpopt  # noqa: E402
import fpopt.torch  # noqa: E402
from fpopt import runtime  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
import torch_blocks as tb  # noqa: E402

torch.manual_seed(0)


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return str(tmp_path_factory.mktemp("fpopt-cache"))


def rel_err(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(np.abs(a - b).max() / max(np.abs(b).max(), 1e-30))


class SmallNet(torch.nn.Module):
    """Every convolution form torch-mlir distinguishes, and a Linear on a
    4-D activation."""

    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.bn = torch.nn.BatchNorm2d(16)
        self.dw = torch.nn.Conv2d(16, 16, 3, padding=1, groups=16, bias=False)
        self.grouped = torch.nn.Conv2d(16, 32, 3, padding=1, groups=4)
        self.fc = torch.nn.Linear(32, 8)

    def forward(self, x):
        x = torch.relu(self.bn(self.stem(x)))
        x = self.grouped(self.dw(x))
        return self.fc(x.permute(0, 2, 3, 1))


def trained_bn(module):
    """Non-trivial running statistics in every batch norm."""
    for m in module.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 1.5)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.5, 0.5)
    return module.eval()


def test_export_writes_torch_mlir_forms():
    text = fpopt.torch.export(trained_bn(SmallNet()), torch.randn(1, 3, 16, 16))
    # Padded input, the bias broadcast into the init, then the named conv.
    assert "tensor.pad" in text and "linalg.conv_2d_nchw_fchw" in text
    assert "linalg.depthwise_conv_2d_nchw_chw" in text
    assert "linalg.conv_2d_ngchw_gfchw" in text
    # Linear on a 4-D activation: broadcast weight + batch_matmul.
    assert "linalg.batch_matmul" in text and "linalg.transpose" not in text
    # Unfolded batch norm with an f64 eps truncated in the body.
    assert "math.rsqrt" in text and "arith.truncf" in text and ": f64" in text
    # Module paths as locations; weights named on their arguments.
    assert 'loc("grouped")' in text and 'loc("bn.running_var")' in text
    # It is a valid module.
    assert "func.func @forward" in fpopt.run_pipeline(text, "canonicalize")


def test_small_net_f32_matches_torch_x86_and_reference(cache):
    m = trained_bn(SmallNet())
    x = torch.randn(1, 3, 16, 16)
    with torch.no_grad():
        ref = m(x).numpy()
    for lowering in ("x86", "reference"):
        fm = fpopt.torch.compile(m, x, policy="f32", cache_dir=cache, lowering=lowering)
        assert rel_err(fm(x).numpy(), ref) < 1e-4, lowering


def test_weights_as_constants(cache):
    m = trained_bn(SmallNet())
    x = torch.randn(1, 3, 16, 16)
    text = fpopt.torch.export(m, x, weights="constants")
    assert "dense_resource<" in text and "dialect_resources" in text
    fn = fpopt.compile(text, policy="f32", cache_dir=cache)
    assert len(fn.arguments) == 1
    with torch.no_grad():
        assert rel_err(fn(x.numpy()), m(x).numpy()) < 1e-4


# One model per torchvision family, at its default widths.
FAMILIES = ["resnet18", "mobilenet_v3_small", "efficientnet_b0", "convnext_tiny",
            "regnet_y_400mf", "densenet121"]


@pytest.mark.parametrize("name", FAMILIES)
def test_torchvision_family_f32(name, cache):
    m = trained_bn(getattr(torchvision.models, name)())
    x = torch.randn(1, 3, 64, 64)
    fm = fpopt.torch.compile(m, x, policy="f32", cache_dir=cache)
    with torch.no_grad():
        ref = m(x).numpy()
    assert rel_err(fm(x).numpy(), ref) < 1e-4
    # No weight is transposed or broadcast by a copy on every call (ConvNeXt's
    # Linears on NHWC activations: a broadcast + collapsed batch_matmul).
    assert not [d for d in fm.diagnostics if "materialized" in d]


def small_vit():
    from torchvision.models.vision_transformer import VisionTransformer
    return VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=4,
                             hidden_dim=64, mlp_dim=128, num_classes=10)


def block_cases():
    cos, sin = tb.rotary_tables(torch.arange(6, 10), 16)
    return {
        "vit": (small_vit(), (torch.randn(1, 3, 32, 32),)),
        "bert": (tb.bert_layer(), (torch.randn(1, 16, 64),)),
        "gpt2": (tb.GPT2Block(), (torch.randn(1, 16, 64),)),
        "llama": (tb.LlamaLayer(), (torch.randn(1, 4, 64), torch.randn(1, 2, 6, 16),
                                    torch.randn(1, 2, 6, 16), cos, sin)),
    }


@pytest.mark.parametrize("name", ["vit", "bert", "gpt2", "llama"])
def test_transformer_blocks_f32(name, cache):
    m, args = block_cases()[name]
    m.eval()
    fm = fpopt.torch.compile(m, args, policy="f32", cache_dir=cache)
    out = fm(*args)
    with torch.no_grad():
        ref = m(*args)
    outs = out if isinstance(out, tuple) else (out,)
    refs = ref if isinstance(ref, tuple) else (ref,)
    assert len(outs) == len(refs)
    for o, r in zip(outs, refs):
        assert rel_err(o.numpy(), r.numpy()) < 1e-4


F16_UNIT = 2.0 ** -11  # f16 unit roundoff (11-bit significand)
BF16_UNIT = 2.0 ** -8


@pytest.mark.parametrize("name,bound", [("resnet18", 8 * BF16_UNIT), ("gpt2", 4 * BF16_UNIT)])
def test_mixed_within_bf16_bounds(name, bound, cache):
    """policy=bf16 on the host's target: within a few bf16 units of f32
    (the decisions keep norms, softmax and reductions in f32)."""
    if name == "resnet18":
        m, args = trained_bn(torchvision.models.resnet18()), (torch.randn(1, 3, 64, 64),)
    else:
        m, args = block_cases()[name]
        m.eval()
    fm = fpopt.torch.compile(m, args, policy="bf16", cache_dir=cache)
    with torch.no_grad():
        ref = m(*args).numpy()
    err = rel_err(fm(*args).numpy(), ref)
    assert 0 < err < bound  # 0 would mean nothing was narrowed


def test_demoted_weights_are_bound_once(cache):
    m = tb.GPT2Block().eval()
    x = torch.randn(1, 16, 64)
    fm = fpopt.torch.compile(m, x, policy="bf16", demote_weights=True, cache_dir=cache)
    assert any(a.element == "bf16" for a in fm.function.arguments)
    with torch.no_grad():
        assert rel_err(fm(x).numpy(), m(x).numpy()) < 4 * BF16_UNIT


def test_compiled_objects_are_cached(cache):
    m = trained_bn(SmallNet())
    x = torch.randn(1, 3, 16, 16)
    a = fpopt.torch.compile(m, x, policy="f32", cache_dir=cache)
    b = fpopt.torch.compile(m, x, policy="f32", cache_dir=cache)
    assert a.function.so_path == b.function.so_path


def max_rss_kib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_ten_thousand_calls_keep_memory_flat(cache):
    """Results freed, descriptors reclaimed: the peak RSS does not grow
    between 1,000 and 10,000 calls."""
    m = trained_bn(SmallNet())
    x = torch.randn(1, 3, 16, 16)
    fm = fpopt.torch.compile(m, x, policy="f32", cache_dir=cache)
    for _ in range(1000):
        fm(x)
    before = max_rss_kib()
    for _ in range(9000):
        fm(x)
    assert max_rss_kib() - before < 2048


def test_numpy_runtime_multiple_results_and_integer_types(cache):
    ir = """
    func.func @f(%a: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
      %e = tensor.empty() : tensor<4xf32>
      %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                           iterator_types = ["parallel"]} ins(%a : tensor<4xf32>)
                           outs(%e : tensor<4xf32>) {
      ^bb0(%x: f32, %o: f32):
        %y = arith.mulf %x, %x : f32
        linalg.yield %y : f32
      } -> tensor<4xf32>
      return %s, %i : tensor<4xf32>, tensor<4xi64>
    }
    """
    fn = fpopt.compile(ir, policy="f32", cache_dir=cache)
    a = np.array([1, -2, 3, 0.5], np.float32)
    i = np.array([5, -7, 1 << 40, 0], np.int64)
    sq, same = fn(a, i)
    np.testing.assert_array_equal(sq, a * a)
    np.testing.assert_array_equal(same, i)
    with pytest.raises(runtime.CallError, match="expected tensor<4xf32>"):
        fn(np.zeros(5, np.float32), i)
    with pytest.raises(runtime.CallError, match="takes 2 arguments"):
        fn(a)


def test_bf16_round_trip():
    x = np.array([1.0, 1.00390625, 1.01171875, -3.0e38, np.inf], np.float32)
    bits = runtime.bf16_bits(x)
    back = runtime.bf16_to_f32(bits)
    # ties to even: 1 + 2^-8 -> 1, 1 + 3*2^-8 -> 1 + 2^-6
    np.testing.assert_array_equal(back[:3], [1.0, 1.0, 1.015625])
    assert back[4] == np.inf


class Upsampler(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 1),
                                        torch.nn.ConvTranspose2d(4, 4, 2, stride=2))

    def forward(self, x):
        return self.body(x)


def test_unsupported_op_names_op_and_module_path():
    with pytest.raises(fpopt.torch.UnsupportedOp) as info:
        fpopt.torch.export(Upsampler(), torch.randn(1, 3, 8, 8))
    e = info.value
    assert e.op == "aten.convolution" and e.path == "body.1"
    assert "transposed convolution" in str(e) and "'body.1'" in str(e)


class DataDependent(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x


def test_data_dependent_control_flow_is_an_error():
    with pytest.raises(fpopt.torch.UnsupportedOp, match="depends on the values"):
        fpopt.torch.export(DataDependent(), torch.randn(4))


def test_compile_rejects_non_x86_targets():
    with pytest.raises(ValueError, match="not an x86 row"):
        fpopt.compile("func.func @f() { return }", target="sm_90")


# -- training steps -------------------------------------------------------------

def mlp():
    torch.manual_seed(1)
    return torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))


def batch(loss):
    x = torch.randn(16, 8)
    t = torch.randint(0, 4, (16,)) if loss == "cross_entropy" else torch.randn(16, 4)
    return x, t


def test_training_step_is_marked_by_the_convention():
    x, t = batch("cross_entropy")
    text = fpopt.torch.export_training_step(mlp(), "cross_entropy", (x,), (t,), lr=0.1,
                                            momentum=0.9)
    assert "func.func @step(" in text
    assert "{lowp.loss}" in text and "linalg.fill {lowp.loss_seed}" in text
    assert text.count("lowp.gradient = ") == 4 and 'lowp.gradient = "0.weight"' in text
    # four parameters (arguments 2-5) and four momentum buffers (6-9)
    assert all(f"lowp.updates = {i} : i64" in text for i in range(2, 10))
    # The decision pipeline accepts the markers (bf16: no loss scaling needed).
    fpopt.run_pipeline(text, "lowp-auto-mixed-precision{target=znver4}")


def assert_tracks_sgd(m, loss, batch_fn, cache, lr=0.1, lowering="x86", steps=20,
                      optimizer="sgd"):
    """`steps` steps of fp-opt's compiled step and of torch.optim (SGD with
    momentum 0.9, or AdamW with its defaults) from the same weights on the
    same batches: losses, final weights and buffers (batch norms' running
    statistics and step counts) within 1e-5."""
    import copy
    ref = copy.deepcopy(m)
    opt = torch.optim.SGD(ref.parameters(), lr=lr, momentum=0.9) if optimizer == "sgd" \
        else torch.optim.AdamW(ref.parameters(), lr=lr)
    x, t = batch_fn()
    step = fpopt.torch.compile_training_step(
        m, loss, (x,), (t,), lr=lr, optimizer=optimizer,
        momentum=0.9 if optimizer == "sgd" else 0.0, policy="f32", cache_dir=cache,
        lowering=lowering)
    loss_fn = torch.nn.functional.cross_entropy if loss == "cross_entropy" else \
        torch.nn.functional.mse_loss
    for _ in range(steps):
        x, t = batch_fn()
        ours = float(step(x, t))
        opt.zero_grad()
        theirs = loss_fn(ref(x), t)
        theirs.backward()
        opt.step()
        assert abs(ours - float(theirs)) <= 1e-5 * max(1.0, abs(float(theirs)))
    for a, b in zip(m.parameters(), ref.parameters()):
        assert rel_err(a.detach().numpy(), b.detach().numpy()) < 1e-5
    for (name, a), b in zip(m.named_buffers(), ref.buffers()):
        assert rel_err(a.double().numpy(), b.double().numpy()) < 1e-5, name


@pytest.mark.parametrize("loss,lowering", [("cross_entropy", "x86"), ("mse", "x86"),
                                           ("cross_entropy", "reference")])
def test_twenty_sgd_steps_track_pytorch(loss, lowering, cache):
    assert_tracks_sgd(mlp(), loss, lambda: batch(loss), cache, lowering=lowering)


def test_bf16_training_step_tracks_f32(cache):
    import copy
    m32, m16 = mlp(), mlp()
    s32 = fpopt.torch.compile_training_step(m32, "mse", *[(v,) for v in batch("mse")],
                                            lr=0.05, policy="f32", cache_dir=cache)
    s16 = fpopt.torch.compile_training_step(m16, "mse", *[(v,) for v in batch("mse")],
                                            lr=0.05, policy="bf16", cache_dir=cache)
    del copy
    differed = False
    for _ in range(20):
        x, t = batch("mse")
        l32, l16 = float(s32(x, t)), float(s16(x, t))
        assert abs(l16 - l32) <= 16 * BF16_UNIT * abs(l32)
        differed |= l16 != l32
    assert differed  # bf16 was really used
    assert any(a.element == "f32" for a in s16.function.arguments)


def conv_block(name):
    """torchvision's ResNet and MobileNetV2 blocks and a grouped, dilated,
    strided pair of convolutions, with a batch of (input, target)."""
    from torchvision.models.mobilenetv2 import InvertedResidual
    from torchvision.models.resnet import BasicBlock
    torch.manual_seed(5)
    if name == "basic":
        return BasicBlock(8, 8), (4, 8, 6, 6), (4, 8, 6, 6)
    if name == "basic_stride2":  # a 1x1 stride-2 downsample; 7 rows: one left unread
        down = torch.nn.Sequential(torch.nn.Conv2d(8, 16, 1, stride=2, bias=False),
                                   torch.nn.BatchNorm2d(16))
        return BasicBlock(8, 16, stride=2, downsample=down), (4, 8, 7, 7), (4, 16, 4, 4)
    if name == "inverted_residual":  # depthwise 3x3, ReLU6, residual
        return InvertedResidual(8, 8, 1, 4), (4, 8, 6, 6), (4, 8, 6, 6)
    if name == "inverted_residual_stride2":
        return InvertedResidual(8, 16, 2, 4), (4, 8, 7, 7), (4, 16, 4, 4)
    return torch.nn.Sequential(
        torch.nn.Conv2d(8, 12, 3, padding=1, groups=4), torch.nn.ReLU(),
        torch.nn.Conv2d(12, 8, 3, stride=2, dilation=2, padding=2, groups=2)), \
        (2, 8, 9, 9), (2, 8, 5, 5)


@pytest.mark.parametrize("name", ["basic", "basic_stride2", "inverted_residual",
                                  "inverted_residual_stride2", "grouped"])
def test_convolution_block_training_steps_track_pytorch(name, cache):
    """Convolution backward (input gradients as convolutions of the dilated,
    padded output gradient with the flipped filter; weight gradients as
    im2col GEMMs or grouped contractions), batch norm in training mode
    (batch statistics, running statistics returned and written back),
    in-place ReLU and residual adds, ReLU6: 10 steps within 1e-5 of
    torch.optim.SGD, running statistics included."""
    m, xs, ts = conv_block(name)
    assert_tracks_sgd(m, "mse", lambda: (torch.randn(*xs), torch.randn(*ts)), cache,
                      lr=0.05, steps=10)


def test_bf16_and_reference_convolution_block_steps_track_f32(cache):
    """The ResNet block with a stride-2 downsample under policy bf16 (x86)
    and through lowp-pipeline-reference (f32): 10 steps, losses within
    bf16's bound of the f32 x86 step's, and within 1e-5 for the reference."""
    import copy
    m32, xs, ts = conv_block("basic_stride2")
    m16, mref = copy.deepcopy(m32), copy.deepcopy(m32)
    x, t = torch.randn(*xs), torch.randn(*ts)
    common = dict(lr=0.05, momentum=0.9, cache_dir=cache)
    s32 = fpopt.torch.compile_training_step(m32, "mse", (x,), (t,), policy="f32", **common)
    s16 = fpopt.torch.compile_training_step(m16, "mse", (x,), (t,), policy="bf16", **common)
    sref = fpopt.torch.compile_training_step(mref, "mse", (x,), (t,), policy="f32",
                                             lowering="reference", **common)
    differed = False
    for _ in range(10):
        x, t = torch.randn(*xs), torch.randn(*ts)
        l32, l16, lref = float(s32(x, t)), float(s16(x, t)), float(sref(x, t))
        assert abs(l16 - l32) <= 16 * BF16_UNIT * abs(l32)
        assert abs(lref - l32) <= 1e-5 * abs(l32)
        differed |= abs(l16 - l32) > 1e-5 * abs(l32)
    assert differed  # bf16 was really used


def test_batch_norm_statistics_are_updates_of_the_step():
    """The running statistics are arguments and updated results
    (lowp.updates); num_batches_tracked is not an argument."""
    m, xs, ts = conv_block("basic")
    text = fpopt.torch.export_training_step(m, "mse", (torch.randn(*xs),),
                                            (torch.randn(*ts),), lr=0.1)
    # x, target, 6 parameters (2-7; the convolutions have no bias), 4
    # running statistics (8-11)
    assert all(f"lowp.updates = {i} : i64" in text for i in range(2, 12))
    assert '%arg8: tensor<8xf32> loc("bn1.running_mean")' in text
    assert "num_batches_tracked" not in text


@pytest.mark.parametrize("policy", ["f32", "bf16"])
def test_convolution_filter_gradients_take_the_kernel(policy):
    """The ResNet block's filter gradients (contraction generics over batch
    and output pixels) reach lowp-x86-lower-contractions whole, with no
    elementwise producer fused into them (batch norm's backward would be
    recomputed per filter tap), and its kernel takes them: no generic loop
    path is remarked."""
    m, xs, ts = conv_block("basic")
    text = fpopt.torch.export_training_step(m, "mse", (torch.randn(*xs),),
                                            (torch.randn(*ts),), lr=0.1)
    windows = "(d4, d0, d5 * 1 + d1 * 1, d6 * 1 + d2 * 1)"
    assert text.count(windows) == 2
    if policy != "f32":
        text = fpopt.compile(text, "lowp-auto-mixed-precision{target=znver4 policy=bf16}").ir
    lowered = fpopt.compile(text, "lowp-pipeline-x86{target=znver4}")
    assert not [d for d in lowered.diagnostics if "generic loop path" in d]


@pytest.mark.parametrize("lowering", ["reference", "x86"])
def test_f16_training_step_with_dynamic_loss_scaling(lowering, cache):
    """Policy f16: the step takes and returns GradScaler's state (scale,
    good-step counter), which compile_training_step carries. 30 steps track
    the f32 step within f16's bounds; a batch with an inf skips its step:
    parameters and momentum buffers bit for bit as they were, the scale
    halved, the counter reset."""
    import copy
    m16 = mlp()
    m32 = copy.deepcopy(m16)
    x, t = batch("mse")
    common = dict(lr=0.05, momentum=0.9, cache_dir=cache, lowering=lowering)
    s16 = fpopt.torch.compile_training_step(m16, "mse", (x,), (t,), policy="f16", **common)
    s32 = fpopt.torch.compile_training_step(m32, "mse", (x,), (t,), policy="f32", **common)
    assert s16.loss_scale == 65536.0 and s16.good_steps == 0
    assert "f16" in s16.function.ir  # the step computes in f16
    for i in range(30):
        x, t = batch("mse")
        if i == 10:
            x[3, 2] = float("inf")
            before = [v.detach().clone() for v in list(m16.parameters()) + s16.buffers]
            assert not math.isfinite(float(s16(x, t)))
            after = list(m16.parameters()) + s16.buffers
            assert all(torch.equal(a, b) for a, b in zip(before, after))
            assert (s16.loss_scale, s16.good_steps, s16.skipped_steps) == (32768.0, 0, 1)
            continue
        l16, l32 = float(s16(x, t)), float(s32(x, t))
        assert abs(l16 - l32) <= 16 * F16_UNIT * abs(l32)
    assert s16.good_steps == 19 and s16.skipped_steps == 1
    for a, b in zip(m16.parameters(), m32.parameters()):
        assert rel_err(a.detach().numpy(), b.detach().numpy()) < 16 * F16_UNIT


def test_fp8_hybrid_training_step_converges_through_the_reference_pipeline(cache):
    """Policy fp8 decided for sm_90 (E4M3 forward, E5M2 gradients, scales
    per tensor) and run on this CPU through lowp-pipeline-reference: 60
    steps over four batches lower the loss as the f32 step does, ending
    within 5% of it."""
    import copy
    import re
    m8 = mlp()
    m32 = copy.deepcopy(m8)
    x, t = batch("mse")
    text = fpopt.torch.export_training_step(m8, "mse", (x,), (t,), lr=0.05, momentum=0.9)
    decided = fpopt.compile(text, "lowp-auto-mixed-precision{target=sm_90 policy=fp8}").ir
    assert {"f8E4M3FN", "f8E5M2"} <= set(re.findall(r"f8E\w+", decided))
    common = dict(lr=0.05, momentum=0.9, cache_dir=cache, lowering="reference")
    s8 = fpopt.torch.compile_training_step(m8, "mse", (x,), (t,), policy="fp8",
                                           target="sm_90", **common)
    s32 = fpopt.torch.compile_training_step(m32, "mse", (x,), (t,), policy="f32", **common)
    torch.manual_seed(5)
    batches = [batch("mse") for _ in range(4)]
    losses = [(float(s8(*batches[i % 4])), float(s32(*batches[i % 4]))) for i in range(60)]
    first8, first32 = sum(l8 for l8, _ in losses[:4]), sum(l32 for _, l32 in losses[:4])
    last8, last32 = sum(l8 for l8, _ in losses[-4:]), sum(l32 for _, l32 in losses[-4:])
    assert last32 < 0.8 * first32 and last8 < 0.8 * first8
    assert abs(last8 - last32) <= 0.05 * last32


def test_training_step_batch_norm_with_cumulative_average_is_refused():
    m = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.BatchNorm1d(8, momentum=None))
    with pytest.raises(fpopt.torch.UnsupportedOp, match="momentum=None") as info:
        fpopt.torch.export_training_step(m, "mse", (torch.randn(4, 8),), (torch.randn(4, 8),))
    assert info.value.path == "1"


class InPlaceOnInput(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(x.relu_())


def test_training_step_in_place_update_of_an_argument_is_refused():
    with pytest.raises(fpopt.torch.UnsupportedOp, match="in-place update of argument"):
        fpopt.torch.export_training_step(InPlaceOnInput(), "mse", (torch.randn(4, 8),),
                                         (torch.randn(4, 8),))


@pytest.mark.parametrize("optimizer", ["sgd", "adamw"])
def test_training_step_updates_its_arguments_in_place(optimizer, cache):
    """compile_training_step compiles with update-in-place: called directly,
    the step writes each new parameter and optimizer state into the
    argument it replaces and returns that memory (no fresh buffer, no copy
    back), and no update is remarked as written elsewhere."""
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    x, t = torch.randn(4, 8), torch.randn(4, 4)
    step = fpopt.torch.compile_training_step(m, "mse", (x,), (t,), lr=0.1, optimizer=optimizer,
                                             momentum=0.9 if optimizer == "sgd" else 0.0,
                                             cache_dir=cache)
    assert not [d for d in step.function.diagnostics if "not written in place" in d]
    params = [p.detach().numpy().copy() for p in step.params]
    states = [np.full(s.shape, 0.5, np.float32) for kind in step.state.values() for s in kind]
    before = [a.copy() for a in params + states]
    scalars = [np.array(v, np.float32) for v in step.optimizer.scalars(1)]
    outs = step.function(x.numpy(), t.numpy(), *params, *states, *scalars,
                         *[c.numpy() for c in step.constants])
    for argument, new, old in zip(params + states, outs[1:], before):
        np.testing.assert_array_equal(argument, new)
        assert not np.array_equal(new, old)


@pytest.mark.parametrize("name", ["mlp", "basic"])
def test_adamw_steps_track_pytorch(name, cache):
    """AdamW (decoupled weight decay 1e-2, bias corrections computed per
    step in double by the caller, as torch.optim's): 20 steps within 1e-5
    of torch.optim.AdamW."""
    if name == "mlp":
        assert_tracks_sgd(mlp(), "cross_entropy", lambda: batch("cross_entropy"), cache,
                          lr=1e-2, optimizer="adamw")
    else:
        m, xs, ts = conv_block(name)
        assert_tracks_sgd(m, "mse", lambda: (torch.randn(*xs), torch.randn(*ts)), cache,
                          lr=1e-2, steps=10, optimizer="adamw")


def test_adamw_step_signature():
    """AdamW's state (exp_avg, exp_avg_sq) is updated; its two per-step
    scalars are arguments that are not."""
    x, t = batch("cross_entropy")
    text = fpopt.torch.export_training_step(mlp(), "cross_entropy", (x,), (t,),
                                            optimizer="adamw", lr=1e-3)
    # 4 parameters (2-5), 8 state tensors (6-13), 2 scalars (14, 15)
    assert all(f"lowp.updates = {i} : i64" in text for i in range(2, 14))
    assert "lowp.updates = 14" not in text and "lowp.updates = 15" not in text
    assert '%arg14: tensor<f32> loc("adamw.step_size")' in text
    assert '%arg15: tensor<f32> loc("adamw.bias_correction2_sqrt")' in text
    with pytest.raises(ValueError, match="'sgd'.*'adamw'"):
        fpopt.torch.export_training_step(mlp(), "mse", (x,), (t,), optimizer="lamb")


class LlamaTrain(torch.nn.Module):
    """The LLaMA layer with an empty KV cache and its rotary tables as
    buffers: a training step of the whole layer."""

    def __init__(self):
        super().__init__()
        self.layer = tb.LlamaLayer(32, 4, 2, 64)
        cos, sin = tb.rotary_tables(torch.arange(8), 8)
        self.register_buffer("cos", cos)
        self.register_buffer("sin", sin)

    def forward(self, x):
        empty = torch.zeros(x.shape[0], 2, 0, 8)
        return self.layer(x, empty, empty, self.cos, self.sin)[0]


def no_dropout_bert():
    m = tb.bert_layer(32, 2, 64)
    for mod in m.modules():
        if isinstance(mod, torch.nn.Dropout):
            mod.p = 0.0
    m.self_attn.dropout = 0.0
    return m


@pytest.mark.parametrize("name", ["gpt2", "bert", "llama"])
def test_transformer_training_steps_track_pytorch(name, cache):
    """Layer norm, GELU, softmax, RMSNorm, rotary and SiLU backward (torch's
    decompositions), read-only buffers (GPT-2's causal mask, LLaMA's rotary
    tables): 20 SGD-momentum steps within 1e-5 of torch.optim.SGD."""
    torch.manual_seed(2)
    m = {"gpt2": lambda: tb.GPT2Block(32, 2, 8), "bert": no_dropout_bert,
         "llama": LlamaTrain}[name]()
    assert_tracks_sgd(m, "mse", lambda: (torch.randn(2, 8, 32), torch.randn(2, 8, 32)),
                      cache, lr=0.05)


@pytest.mark.parametrize("kv_heads", [2, 1])
def test_decode_step_with_a_fixed_capacity_cache(kv_heads, cache):
    """A LLaMA-style decoder's one-token step (embedding lookup, position as
    a tensor, the KV cache written by a select against a one-hot of the
    position, bool masks, float-by-bool products), with grouped-query (2
    key/value heads for 4 query heads) and multi-query attention (1): greedy
    tokens of 8 steps equal PyTorch's, logits within 1e-4, and the cached
    heads are read in place, not copied for each query head."""
    torch.manual_seed(3)
    m = tb.Decoder(2, 64, 4, kv_heads, 128, 256, 16).eval()
    caches = [torch.zeros(1, kv_heads, 16, 16) for _ in range(4)]
    tok = torch.tensor([[5]])
    fm = fpopt.torch.compile(m, (tok, torch.tensor([0]), *caches), policy="f32",
                             cache_dir=cache)
    assert not [d for d in fm.diagnostics if "materialized" in d]
    ours, theirs = list(caches), list(caches)
    tok_a, tok_b = tok, tok
    for pos in range(8):
        p = torch.tensor([pos])
        out_a = fm(tok_a, p, *ours)
        with torch.no_grad():
            out_b = m(tok_b, p, *theirs)
        assert rel_err(out_a[0].numpy(), out_b[0].numpy()) < 1e-4
        ours, theirs = list(out_a[1:]), list(out_b[1:])
        tok_a = out_a[0].argmax(-1).view(1, 1)
        tok_b = out_b[0].argmax(-1).view(1, 1)
        assert int(tok_a) == int(tok_b)


def test_bf16_transformer_training_step_with_long_reductions(cache):
    """bf16 steps of a BERT layer whose gradient reductions run over 256
    rows (long for bf16: the decisions put them in f32 islands, and the
    marked gradients stay outside them): 10 steps within bounds of f32."""
    torch.manual_seed(4)
    m32, m16 = no_dropout_bert(), None
    m16 = no_dropout_bert()
    m16.load_state_dict(m32.state_dict())
    x, t = torch.randn(4, 64, 32), torch.randn(4, 64, 32)
    s32 = fpopt.torch.compile_training_step(m32, "mse", (x,), (t,), lr=0.05, policy="f32",
                                            cache_dir=cache)
    s16 = fpopt.torch.compile_training_step(m16, "mse", (x,), (t,), lr=0.05, policy="bf16",
                                            cache_dir=cache)
    for _ in range(10):
        x, t = torch.randn(4, 64, 32), torch.randn(4, 64, 32)
        l32, l16 = float(s32(x, t)), float(s16(x, t))
        assert abs(l16 - l32) <= 16 * BF16_UNIT * abs(l32)


def test_more_than_a_thousand_arguments(cache):
    """ctypes calls at most 1024 arguments; a model whose weights are
    arguments can have more (densenet201: 1209). The runtime calls through a
    C trampoline taking an array of pointers."""
    n = 1100
    args = ", ".join(f"%a{i}: tensor<2xf32>" for i in range(n))
    body = "\n".join(f"  %s{i} = arith.addf %s{i - 1}, %a{i} : tensor<2xf32>" for i in range(1, n))
    ir = (f"func.func @many({args}) -> tensor<2xf32> {{\n  %s0 = arith.addf %a0, %a0 : "
          f"tensor<2xf32>\n{body}\n  return %s{n - 1} : tensor<2xf32>\n}}\n")
    fn = fpopt.compile(ir, policy="f32", cache_dir=cache)
    values = [np.full(2, i, np.float32) for i in range(n)]
    np.testing.assert_array_equal(fn(*values), np.full(2, sum(range(n)), np.float32))


def test_two_threads_give_the_same_result(cache):
    """threads=2 (OpenMP): the same outputs as one thread, within 1e-4 of
    PyTorch."""
    m = trained_bn(torchvision.models.resnet18())
    x = torch.randn(1, 3, 64, 64)
    one = fpopt.torch.compile(m, x, policy="f32", cache_dir=cache)
    two = fpopt.torch.compile(m, x, policy="f32", threads=2, cache_dir=cache)
    with torch.no_grad():
        ref = m(x).numpy()
    assert rel_err(two(x).numpy(), ref) < 1e-4
    assert rel_err(two(x).numpy(), one(x).numpy()) < 1e-5


def small_decoder(cls=tb.Decoder, seed=3):
    """2 layers, width 64, 4 heads (2 for keys and values), vocab 256, KV
    capacity 16; weights of a trained model's scale."""
    torch.manual_seed(seed)
    m = cls(2, 64, 4, 2, 128, 256, 16).eval()
    for p in m.parameters():
        p.data.normal_(0.0, 0.1)
    return m


def test_index_arguments_are_checked_at_the_call(cache):
    """A token id outside the vocabulary (the embedding would read out of
    bounds) and a position outside the KV cache (its one-hot ``slots ==
    position`` would match no slot) are IndexErrors at the call naming the
    argument, its value, the bound and what it indexes; valid calls equal
    PyTorch."""
    import re
    m = small_decoder()
    caches = [torch.randn(1, 2, 16, 16) for _ in range(4)]
    fm = fpopt.torch.compile(m, (torch.tensor([[5]]), torch.tensor([0]), *caches),
                             policy="f32", cache_dir=cache)
    assert [(b.name, b.low, b.high, b.indexes, b.op, b.path) for b in fm.index_bounds] == [
        ("token", 0, 256, "embed_tokens.weight", "aten.embedding", "embed_tokens"),
        ("position", 0, 16, "slots", "aten.eq", "Decoder")]
    cases = [((256, 0), "argument 'token' = 256 is outside [0, 256): it indexes "
                        "'embed_tokens.weight' (aten.embedding at embed_tokens)"),
             ((-1, 0), "argument 'token' = -1 is outside [0, 256): it indexes "
                       "'embed_tokens.weight' (aten.embedding at embed_tokens)"),
             ((7, 16), "argument 'position' = 16 is outside [0, 16): it indexes 'slots' "
                       "(aten.eq at Decoder)"),
             ((7, -3), "argument 'position' = -3 is outside [0, 16): it indexes 'slots' "
                       "(aten.eq at Decoder)")]
    for (token, position), message in cases:
        with pytest.raises(IndexError, match="^" + re.escape(message) + "$"):
            fm(torch.tensor([[token]]), torch.tensor([position]), *caches)
    for token, position in ((0, 0), (255, 15), (17, 9)):
        args = (torch.tensor([[token]]), torch.tensor([position]), *caches)
        with torch.no_grad():
            ref = m(*args)
        for a, b in zip(fm(*args), ref):
            assert rel_err(a.numpy(), b.numpy()) < 1e-5


class Lookups(torch.nn.Module):
    """A real LLaMA's rotary lookup ``cos[position]`` (aten.index.Tensor),
    index_select and gather, all by input indices; and an index computed
    from an input (not checked: clamped in the compiled code)."""

    def __init__(self):
        super().__init__()
        self.register_buffer("cos", torch.randn(32, 8))
        self.table = torch.nn.Parameter(torch.randn(10, 6))

    def forward(self, position, rows, picks):
        a = self.cos[position]                          # [2, 8]
        b = self.table.index_select(0, rows)            # [3, 6]
        c = torch.gather(self.table, 1, picks)          # [10, 2]
        d = torch.nn.functional.embedding(rows + 1, self.table)  # computed index
        return a, b, c, d


def test_index_gather_and_index_select_by_arguments(cache):
    """aten.index.Tensor (negative indices counted from the end, as in
    PyTorch), index_select and gather equal PyTorch; an index argument out
    of range is an IndexError at the call; an index computed in forward is
    clamped into range in the compiled code."""
    import re
    torch.manual_seed(5)
    m = Lookups().eval()
    args = (torch.tensor([3, -1]), torch.tensor([0, 8, 2]), torch.randint(0, 6, (10, 2)))
    fm = fpopt.torch.compile(m, args, policy="f32", cache_dir=cache)
    assert [(b.name, b.low, b.high, b.indexes, b.op) for b in fm.index_bounds] == [
        ("position", -32, 32, "cos", "aten.index"),
        ("rows", 0, 10, "table", "aten.index_select"),
        ("picks", 0, 6, "table", "aten.gather")]
    assert "arith.minsi" in fm.ir  # the computed index, clamped
    with torch.no_grad():
        for a, b in zip(fm(*args), m(*args)):
            np.testing.assert_array_equal(a.numpy(), b.numpy())
    bad = [((torch.tensor([3, 32]), args[1], args[2]),
            "argument 'position'[1] = 32 is outside [-32, 32): it indexes 'cos' "
            "(aten.index at Lookups)"),
           ((args[0], torch.tensor([0, 10, 2]), args[2]),
            "argument 'rows'[1] = 10 is outside [0, 10): it indexes 'table' "
            "(aten.index_select at Lookups)"),
           ((args[0], args[1], torch.full((10, 2), -1)),
            "argument 'picks'[0, 0] = -1 is outside [0, 6): it indexes 'table' "
            "(aten.gather at Lookups)")]
    for call, message in bad:
        with pytest.raises(IndexError, match="^" + re.escape(message) + "$"):
            fm(*call)


def test_class_targets_of_a_training_step_are_checked(cache):
    """cross_entropy's class targets index the logits: a target outside
    the classes is an IndexError before the step runs (the parameters are
    left as they were); ignore_index (-100) is allowed; valid steps equal
    PyTorch's loss."""
    import copy
    import re
    m = mlp()
    ref = copy.deepcopy(m)
    x, t = batch("cross_entropy")
    step = fpopt.torch.compile_training_step(m, "cross_entropy", (x,), (t,), lr=0.1,
                                             policy="f32", cache_dir=cache)
    before = [p.detach().clone() for p in m.parameters()]
    bad = t.clone()
    bad[3] = 4
    message = ("argument 'target'[3] = 4 is outside [0, 4) and is not -100: it indexes "
               "'_log_softmax' (aten.nll_loss_forward at Sequential)")
    with pytest.raises(IndexError, match="^" + re.escape(message) + "$"):
        step(x, bad)
    for a, b in zip(m.parameters(), before):
        assert torch.equal(a.detach(), b)
    t[5] = -100
    ours = float(step(x, t))
    theirs = float(torch.nn.functional.cross_entropy(ref(x), t))
    assert abs(ours - theirs) <= 1e-5 * max(1.0, abs(theirs))


def test_prefill_then_decode_matches_pytorch_greedy(cache):
    """Prefill (a prompt of 6 tokens at once, causal, its keys and values
    written to cache slots 0..5) sharing Decoder's state_dict, then 8 decode
    steps from position 6: fp-opt's greedy tokens equal PyTorch's, logits
    within 1e-4."""
    m = small_decoder(seed=7)
    pf = tb.Prefill(2, 64, 4, 2, 128, 256, 16).eval()
    pf.load_state_dict(m.state_dict())
    caches = [torch.zeros(1, 2, 16, 16) for _ in range(4)]
    prompt = torch.randint(0, 256, (1, 6))
    fp = fpopt.torch.compile(pf, (prompt, *caches), policy="f32", cache_dir=cache)
    fd = fpopt.torch.compile(m, (torch.tensor([[1]]), torch.tensor([0]), *caches),
                             policy="f32", cache_dir=cache)
    ours, theirs = fp(prompt, *caches), None
    with torch.no_grad():
        theirs = pf(prompt, *caches)
    for a, b in zip(ours, theirs):
        assert rel_err(a.numpy(), b.numpy()) < 1e-4
    # Slots after the prompt keep what was passed.
    assert all(float(c[:, :, 6:].abs().max()) == 0 for c in ours[1:])
    tok_a = ours[0].argmax(-1).view(1, 1)
    tok_b = theirs[0].argmax(-1).view(1, 1)
    assert int(tok_a) == int(tok_b)
    ours, theirs = list(ours[1:]), list(theirs[1:])
    tokens = [int(tok_b)]
    for pos in range(6, 14):
        p = torch.tensor([pos])
        out_a = fd(tok_a, p, *ours)
        with torch.no_grad():
            out_b = m(tok_b, p, *theirs)
        assert rel_err(out_a[0].numpy(), out_b[0].numpy()) < 1e-4
        ours, theirs = list(out_a[1:]), list(out_b[1:])
        tok_a, tok_b = out_a[0].argmax(-1).view(1, 1), out_b[0].argmax(-1).view(1, 1)
        assert int(tok_a) == int(tok_b)
        tokens.append(int(tok_b))
    assert len(set(tokens)) > 1  # not a degenerate repetition
    with pytest.raises(IndexError, match="argument 'tokens'\\[0, 2\\] = 300 is outside"):
        fp(torch.tensor([[1, 2, 300, 4, 5, 6]]), *caches)


def test_bf16_kv_cache_in_the_signature(cache):
    """demote_state=True: Decoder (policy bf16) takes and returns its KV
    caches as bfloat16 tensors, passed from step to step as they are.
    Attention read the cache in bf16 before, so 8 decoding steps after a
    prefill give the same logits bit for bit as with f32 caches, and the
    caches hold the same values. Prefill does not read the cache it writes:
    its caches stay f32 (demote_state changes nothing there), and the first
    step rounds them on the way in."""
    m = small_decoder(seed=11)
    pf = tb.Prefill(2, 64, 4, 2, 128, 256, 16).eval()
    pf.load_state_dict(m.state_dict())
    caches = [torch.zeros(1, 2, 16, 16) for _ in range(4)]
    prompt = torch.randint(0, 256, (1, 6))
    step_args = (torch.tensor([[1]]), torch.tensor([0]), *caches)
    prefill = fpopt.torch.compile(pf, (prompt, *caches), policy="bf16", demote_state=True,
                                  cache_dir=cache)
    assert [r.element for r in prefill.function.results] == ["f32"] * 5
    wide = fpopt.torch.compile(m, step_args, policy="bf16", cache_dir=cache)
    narrow = fpopt.torch.compile(m, step_args, policy="bf16", demote_state=True,
                                 cache_dir=cache)
    assert [r.element for r in narrow.function.results] == ["f32"] + ["bf16"] * 4
    assert [a.element for a in narrow.function.arguments[2:6]] == ["bf16"] * 4
    out = prefill(prompt, *caches)
    out_w = out_n = out
    for pos in range(6, 14):
        tok = out_w[0].argmax(-1).view(1, 1)
        p = torch.tensor([pos])
        out_w, out_n = wide(tok, p, *out_w[1:]), narrow(tok, p, *out_n[1:])
        np.testing.assert_array_equal(out_n[0].numpy(), out_w[0].numpy())
        for cw, cn in zip(out_w[1:], out_n[1:]):
            assert cn.dtype == torch.bfloat16
            np.testing.assert_array_equal(cn.float().numpy(), cw.numpy())


def test_fp8_kv_cache_in_the_signature(cache):
    """demote_state="f8E4M3FN": Decoder (policy bf16) takes and returns its
    KV caches as FP8 codes (uint8 tensors). Attention reads them widened to
    bf16 and the new key and value are rounded to E4M3 (nearest even,
    saturating) where they are written. So each step equals the bf16-cache
    step run on the widened cache bit for bit (logits), and the cache it
    returns is that step's cache rounded to E4M3 (codes). Float caches
    given for the FP8 arguments (prefill's) are rounded on the way in."""
    from fpopt.numerics import decode_all, encode, round_to
    m = small_decoder(seed=12)
    pf = tb.Prefill(2, 64, 4, 2, 128, 256, 16).eval()
    pf.load_state_dict(m.state_dict())
    caches = [torch.zeros(1, 2, 16, 16) for _ in range(4)]
    prompt = torch.randint(0, 256, (1, 6))
    step_args = (torch.tensor([[1]]), torch.tensor([0]), *caches)
    prefill = fpopt.torch.compile(pf, (prompt, *caches), policy="bf16", cache_dir=cache)
    bf16 = fpopt.torch.compile(m, step_args, policy="bf16", demote_state=True,
                               cache_dir=cache)
    fp8 = fpopt.torch.compile(m, step_args, policy="bf16", demote_state="f8E4M3FN",
                              cache_dir=cache)
    assert [a.element for a in fp8.function.arguments[2:6]] == ["f8E4M3FN"] * 4
    assert [r.element for r in fp8.function.results] == ["f32"] + ["f8E4M3FN"] * 4
    table = decode_all("f8E4M3FN").astype(np.float32)

    def codes(x):
        return encode(round_to(x.float().numpy(), "f8E4M3FN", saturate=True), "f8E4M3FN")

    out = prefill(prompt, *caches)
    state = [torch.from_numpy(codes(c)) for c in out[1:]]
    tok = out[0].argmax(-1).view(1, 1)
    # The first step takes prefill's f32 caches, rounded on the way in.
    first = fp8(tok, torch.tensor([6]), *out[1:])
    again = fp8(tok, torch.tensor([6]), *state)
    np.testing.assert_array_equal(first[0].numpy(), again[0].numpy())
    for pos in range(6, 14):
        p = torch.tensor([pos])
        got = fp8(tok, p, *state)
        ref = bf16(tok, p, *[torch.from_numpy(table[c.numpy()]) for c in state])
        np.testing.assert_array_equal(got[0].numpy(), ref[0].numpy())
        for c8, c16 in zip(got[1:], ref[1:]):
            assert c8.dtype == torch.uint8
            np.testing.assert_array_equal(c8.numpy(), codes(c16))
        # The written slot holds the new key, not zeros.
        assert np.any(table[got[1].numpy()[0, :, pos]] != 0)
        state, tok = list(got[1:]), got[0].argmax(-1).view(1, 1)
    with pytest.raises(ValueError, match="demote_state: True, False or an 8-bit float format"):
        fpopt.torch.compile(m, step_args, policy="bf16", demote_state="f16", cache_dir=cache)


class BoolMasks(torch.nn.Module):
    """Bool masks built in forward (constants): a causal one, an all-true
    one (a splat)."""

    def __init__(self, n):
        super().__init__()
        self.n = n

    def forward(self, x):
        causal = torch.ones(self.n, self.n).tril().bool()
        everything = torch.ones(self.n, self.n).bool()
        return x.masked_fill(~causal, float("-inf")).masked_fill(~everything, 0.0)


@pytest.mark.parametrize("n", [6, 32, 300])
def test_bool_constants_of_every_size(n, cache):
    """Bool constants as literals (up to 64 elements, and beyond while
    small), splats, or i8 bytes narrowed in the code (above 65536
    elements): mlir-translate converts no i1 dense_resource. Equal to
    PyTorch."""
    m = BoolMasks(n)
    x = torch.randn(n, n)
    fm = fpopt.torch.compile(m, x, policy="f32", cache_dir=cache)
    assert ("arith.trunci" in fm.ir) == (n * n > 1 << 16)
    assert torch.equal(fm(x), m(x))


class MaskedSoftmax(BoolMasks):
    def forward(self, x):
        return torch.softmax(super().forward(x), dim=-1)


def test_infinities_in_16_bit_models(cache):
    """A bf16 model whose graph holds -inf at that width (the start of
    softmax's max): the constant is written as the 16-bit pattern MLIR
    parses (0xFF80). Close to PyTorch's f32 softmax, the masked entries 0.
    The same literals at every float width (an f16 softmax cannot be traced:
    PyTorch 1.13 has none on the CPU)."""
    from fpopt.torch.aten_to_linalg import float_literal
    inf = float("inf")
    assert [float_literal(-inf, t) for t in ("bf16", "f16", "f32", "f64")] == [
        "0xFF80", "0xFC00", "0xFF800000", "0xFFF0000000000000"]
    assert float_literal(inf, "bf16") == "0x7F80"
    m = MaskedSoftmax(8)
    x = torch.randn(8, 8).to(torch.bfloat16)
    text = fpopt.torch.export(m, x)
    assert "0xFF80 : bf16" in text
    fm = fpopt.torch.compile(m, x, policy="f32", cache_dir=cache)
    got, want = fm(x), m(x.float())
    assert got.dtype == torch.bfloat16
    assert torch.allclose(got.float(), want, atol=1e-2)
    assert (got == 0).sum() == 28


class IndexForms(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.t = torch.nn.Parameter(torch.randn(5, 7, 3))

    def forward(self, i, j):
        return self.t[:, i], self.t[i[:, None], j]


def test_index_tensor_forms(cache):
    """aten.index.Tensor after a leading slice (x[:, i]) and with two index
    tensors broadcast together (x[i[:, None], j]; ``i[:, None]`` is a slice
    of everything, so i is still checked): equal to PyTorch, each index
    checked against the dimension it indexes."""
    import re
    m = IndexForms()
    i, j = torch.tensor([0, -2, 4]), torch.tensor([6, 1])
    fm = fpopt.torch.compile(m, (i, j), policy="f32", cache_dir=cache)
    assert [(b.name, b.low, b.high, b.indexes) for b in fm.index_bounds] == [
        ("i", -7, 7, "t"), ("i", -5, 5, "t"), ("j", -7, 7, "t")]
    with torch.no_grad():
        for a, b in zip(fm(i, j), m(i, j)):
            assert torch.equal(a, b)
    message = ("argument 'i'[2] = 5 is outside [-5, 5): it indexes 't' "
               "(aten.index at IndexForms)")
    with pytest.raises(IndexError, match="^" + re.escape(message) + "$"):
        fm(torch.tensor([0, 1, 5]), j)
