"""fpopt.select_fp8_format (the C API's mlirLowpSelectFP8Format), checked
against the target table, the format table and Transformer Engine's scale
formula."""

import math

import pytest

import fpopt


@pytest.mark.parametrize("chip,e4m3,e5m2", [
    ("sm_90", "f8E4M3FN", "f8E5M2"),
    ("gfx942", "f8E4M3FNUZ", "f8E5M2FNUZ"),
    ("gfx950", "f8E4M3FN", "f8E5M2"),
])
def test_hybrid_recipe_follows_role_and_flavour(chip, e4m3, e5m2):
    assert fpopt.target(chip).fp8_flavor in ("FN", "FNUZ")
    assert fpopt.select_fp8_format(chip, "activation").format == e4m3
    assert fpopt.select_fp8_format(chip, "weight").format == e4m3
    assert fpopt.select_fp8_format(chip, "gradient").format == e5m2
    assert fpopt.select_fp8_format(chip, "gradient", recipe="e4m3").format \
        == e4m3


@pytest.mark.parametrize("margin", [0, 2])
def test_scale_is_transformer_engine_formula(margin):
    d = fpopt.select_fp8_format("sm_90", "activation", amax=3.5, min=0.01,
                                margin=margin)
    fmax = fpopt.float_format(d.format).max_finite
    assert d.scale == pytest.approx(fmax / 3.5 / 2**margin, rel=1e-12)
    assert d.binades_needed == pytest.approx(math.log2(3.5 / 0.01))
    assert fpopt.select_fp8_format("sm_90").scale is None  # no statistics


def _usable_binades(fmt, margin=0):
    f = fpopt.float_format(fmt)
    return math.log2(f.max_finite) - math.log2(2 * f.min_subnormal) - margin


def test_range_recipe_picks_by_dynamic_range():
    e4m3, e5m2 = _usable_binades("f8E4M3FN"), _usable_binades("f8E5M2")
    assert e4m3 < e5m2
    narrow = fpopt.select_fp8_format("sm_90", amax=1.0, min=2.0**-(e4m3 - 1),
                                     recipe="range")
    medium = fpopt.select_fp8_format("sm_90", amax=1.0, min=2.0**-(e4m3 + 1),
                                     recipe="range")
    wide = fpopt.select_fp8_format("sm_90", amax=1.0, min=2.0**-(e5m2 + 1),
                                   recipe="range")
    assert (narrow.format, medium.format, wide.format) == (
        "f8E4M3FN", "f8E5M2", "bf16")
    assert narrow.binades_e4m3 == pytest.approx(e4m3)
    assert medium.binades_e5m2 == pytest.approx(e5m2)
    assert narrow.reason and wide.reason


def test_targets_without_fp8():
    assert fpopt.target("sm_80").fp8_flavor == "none"
    with pytest.raises(ValueError, match="no FP8"):
        fpopt.select_fp8_format("sm_80")
    d = fpopt.select_fp8_format("sm_80", allow_bf16_fallback=True)
    assert d.format == "bf16"


def test_invalid_arguments():
    with pytest.raises(ValueError, match="unknown target 'sm_1'"):
        fpopt.select_fp8_format("sm_1")
    with pytest.raises(ValueError, match="role"):
        fpopt.select_fp8_format("sm_90", "bias")
    with pytest.raises(ValueError, match="both"):
        fpopt.select_fp8_format("sm_90", amax=1.0)
    with pytest.raises(ValueError, match="statistics"):
        fpopt.select_fp8_format("sm_90", amax=-1.0, min=0.5)
