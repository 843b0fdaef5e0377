"""Weight-only FP8 (policy="fp8-weights"): the per-channel quantizer, the
signature the decision leaves (E4M3 weights, a scale argument per weight),
bind() quantizing float weights, and the compiled kernels (FP8 panels
widened in registers) executed against an independent float64 reference
built from the decoded codes, on the host's kernels and on AVX2's f32
ones (which run on every x86-64 machine here)."""
import os
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import fpopt  # noqa: E402
import fpopt.torch  # noqa: E402
from fpopt import numerics, runtime  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
import torch_blocks as tb  # noqa: E402

E4M3 = "f8E4M3FN"
VALUES = numerics.decode_all(E4M3)


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return str(tmp_path_factory.mktemp("fpopt-cache"))


def dequantized(weight, axis=0):
    """The weight the compiled function computes with, from the codes."""
    codes, scales = numerics.quantize_per_channel(weight, E4M3, axis)
    shape = [1] * np.ndim(weight)
    shape[axis] = -1
    return VALUES[codes] / scales.astype(np.float64).reshape(shape)


def rel_err(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(np.abs(a - b).max() / max(np.abs(b).max(), 1e-30))


def test_quantize_per_channel():
    rng = np.random.default_rng(0)
    w = rng.standard_normal((6, 40)) * np.array([1e-3, 1, 30, 0, 1e4, 2])[:, None]
    w[0, 0] = 1e-9  # far below the channel's smallest normal: flushed to 0
    codes, scales = numerics.quantize_per_channel(w, E4M3, 0)
    assert codes.dtype == np.uint8 and scales.dtype == np.float32
    q = VALUES[codes]
    amax = np.abs(w).max(axis=1)
    # Each channel's largest magnitude maps onto E4M3's largest value
    # (448); an all-zero channel keeps scale 1 and codes 0.
    np.testing.assert_allclose(scales[amax > 0], 448.0 / amax[amax > 0], rtol=1e-6)
    assert scales[3] == 1.0 and not codes[3].any()
    assert np.abs(q[amax > 0]).max(axis=1).tolist() == [448.0] * 5
    # Round to nearest: within half a quantum (2^-4 relative) of w * s for
    # normals; nothing below the smallest normal (2^-6) but zero.
    scaled = (w.astype(np.float32) * scales[:, None]).astype(np.float64)  # in f32
    normal = np.abs(scaled) >= 2.0 ** -6
    assert np.all(np.abs(q - scaled)[normal] <= np.abs(scaled)[normal] * 2.0 ** -4)
    assert np.all((np.abs(q) >= 2.0 ** -6) | (q == 0))
    assert q[0, 0] == 0
    # Along another axis.
    codes1, scales1 = numerics.quantize_per_channel(w.T, E4M3, 1)
    assert np.array_equal(codes1, codes.T) and np.array_equal(scales1, scales)
    with pytest.raises(ValueError, match="inf or NaN"):
        numerics.quantize_per_channel(np.array([[np.inf, 1.0]]), E4M3, 0)
    # The bit-pattern fast path (E4M3FN) equals round_to + encode, with and
    # without subnormals, on magnitudes across E4M3's whole range.
    wide = rng.standard_normal((64, 256)) * np.exp2(rng.uniform(-20, 10, (64, 1)))
    wide[0, :64] = np.ldexp(1.0, -np.arange(64)) * 448
    for flush in (True, False):
        codes, scales = numerics.quantize_per_channel(wide, E4M3, 0, flush_subnormals=flush)
        scaled = (wide.astype(np.float32) * scales[:, None]).astype(np.float64)
        expected = numerics.round_to(scaled, E4M3, saturate=True)
        if flush:
            tiny = np.abs(expected) < 2.0 ** -6
            expected = np.where(tiny, np.where(np.abs(scaled) >= 2.0 ** -7,
                                               np.copysign(2.0 ** -6, scaled), 0.0), expected)
        assert np.array_equal(VALUES[codes], expected), flush


def test_encode_round_trips_every_code():
    for fmt in (E4M3, "f8E5M2", "f8E4M3FNUZ", "bf16"):
        values = numerics.decode_all(fmt)
        finite = ~np.isnan(values)
        assert np.array_equal(numerics.encode(values[finite], fmt),
                              np.flatnonzero(finite))
    with pytest.raises(ValueError, match="not a value of f8E4M3FN"):
        numerics.encode(np.array([0.3]), E4M3)


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(96, 80)
        self.fc2 = torch.nn.Linear(80, 48, bias=False)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def mlp_reference(m, x):
    """float64 with the dequantized weights: an independent reference."""
    h = x @ dequantized(m.fc1.weight.detach().numpy()).T + m.fc1.bias.detach().double().numpy()
    return np.maximum(h, 0) @ dequantized(m.fc2.weight.detach().numpy()).T


def test_signature_and_binding(cache):
    torch.manual_seed(1)
    m = MLP().eval()
    x = torch.randn(2, 96)
    text = fpopt.torch.export(m, (x,))
    fn = fpopt.compile(text, target="avx2", policy="fp8-weights", cache_dir=cache)
    # fc1.weight (1) and fc2.weight (3) are E4M3 with their scales in the
    # new last arguments 4 and 5; the bias and the input keep f32.
    assert [a.element for a in fn.arguments] == ["f32", E4M3, "f32", E4M3, "f32", "f32"]
    assert fn.fp8_channel_scales == {1: (4, 0), 3: (5, 0)}
    w1, b1, w2 = (p.detach().numpy() for p in (m.fc1.weight, m.fc1.bias, m.fc2.weight))
    ref = mlp_reference(m, x.double().numpy())
    # Floats are quantized by bind(), their scales bound with them...
    y = fn.bind({1: w1, 2: b1, 3: w2})(x.numpy())
    assert rel_err(y, ref) < 1e-6
    # ...or the caller passes codes and scales itself.
    c1, s1 = numerics.quantize_per_channel(w1, E4M3, 0)
    c2, s2 = numerics.quantize_per_channel(w2, E4M3, 0)
    assert np.array_equal(fn(x.numpy(), c1, b1, c2, s1, s2), y)
    with pytest.raises(runtime.CallError, match="argument 4, its scale, is computed with it"):
        fn.bind({1: w1, 4: s1})
    with pytest.raises(runtime.CallError, match="argument 1 of @forward"):
        fn(x.numpy(), w1, b1, c2, s1, s2)  # floats for an FP8 argument in a plain call


@pytest.mark.parametrize("rows", [1, 5, 37])
def test_kernels_against_float64(rows, cache):
    """AVX2's f32 kernel (FP8 panels widened to f32) within f32 rounding of
    the float64 reference; the host's kernel (vdpbf16ps on bf16-rounded
    activations where the host has AVX512_BF16) equal to lowp-pipeline-
    reference's loops on the same decided module."""
    torch.manual_seed(rows)
    m = MLP().eval()
    x = torch.randn(rows, 96)
    ref = mlp_reference(m, x.double().numpy())
    for prepack in (True, False):
        y = fpopt.torch.compile(m, (x,), target="avx2", policy="fp8-weights",
                                prepack=prepack, cache_dir=cache)(x).numpy()
        assert rel_err(y, ref) < 2e-6, prepack
    host = fpopt.torch.compile(m, (x,), policy="fp8-weights", prepack=True,
                               cache_dir=cache)(x).numpy()
    loops = fpopt.torch.compile(m, (x,), policy="fp8-weights", lowering="reference",
                                cache_dir=cache)(x).numpy()
    assert rel_err(host, loops) < 1e-6
    # bf16 activations (the host's decision) cost at most bf16's rounding.
    assert rel_err(host, ref) < 2e-2


def test_decoder_tokens_and_log_probs(cache):
    """A small LLaMA-style decoder: fp8-weights logits against f32's on a
    fixed token stream (the mean difference of the log-probabilities of
    the tokens, a perplexity-style error), next to bf16's."""
    torch.manual_seed(0)
    layers, dim, heads, kv, ffn, vocab, cap = 2, 64, 4, 2, 160, 96, 16
    model = tb.Decoder(layers, dim, heads, kv, ffn, vocab, cap).eval()
    for p in model.parameters():
        p.data.normal_(0.0, 0.05)
    caches = [torch.zeros(1, kv, cap, dim // heads) for _ in range(2 * layers)]
    example = (torch.tensor([[1]]), torch.tensor([0]), *caches)
    stream = [int(t) for t in torch.randint(0, vocab, (cap,))]

    def mean_log_prob(step):
        state = [c.clone() for c in caches]
        total = 0.0
        for pos in range(cap - 1):
            out = step(torch.tensor([[stream[pos]]]), torch.tensor([pos]), *state)
            logits, state = out[0].float(), [c.float() for c in out[1:]]
            total += float(torch.log_softmax(logits.double(), -1)[0, stream[pos + 1]])
        return total / (cap - 1)

    with torch.no_grad():
        f32 = mean_log_prob(model)
    errors = {}
    for policy, demote in (("bf16", True), ("fp8-weights", False)):
        fm = fpopt.torch.compile(model, example, policy=policy, demote_weights=demote,
                                 prepack=True, cache_dir=cache)
        errors[policy] = abs(mean_log_prob(fm) - f32)
    print("mean log-prob difference vs torch f32:", errors)
    assert errors["bf16"] < 0.01
    # E4M3 rounds weights 8x more coarsely than bf16 (2^-4 against 2^-8
    # relative): a larger error, still a small fraction of a nat.
    assert errors["fp8-weights"] < 0.05


def test_k_blocks_and_row_blocks(cache):
    """K beyond one k block of the kernels (1408 = 2 blocks of vdpbf16ps
    pairs) and M beyond one register block: the partial sums stored
    between k blocks stay in the kernel's scaled units; equal to the
    reference loops on the host, within f32 rounding of float64 on AVX2."""
    torch.manual_seed(3)
    m = torch.nn.Linear(1408, 200, bias=False).eval()
    x = torch.randn(37, 1408)
    ref = x.double().numpy() @ dequantized(m.weight.detach().numpy()).T
    avx2 = fpopt.torch.compile(m, (x,), target="avx2", policy="fp8-weights", prepack=True,
                               cache_dir=cache)(x).numpy()
    assert rel_err(avx2, ref) < 2e-6
    host = fpopt.torch.compile(m, (x,), policy="fp8-weights", prepack=True,
                               cache_dir=cache)(x).numpy()
    loops = fpopt.torch.compile(m, (x,), policy="fp8-weights", lowering="reference",
                                cache_dir=cache)(x).numpy()
    assert rel_err(host, loops) < 1e-6
