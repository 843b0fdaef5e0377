"""Builders of the lowp attributes, through the C API, and their getters."""

import pytest

import fpopt


def test_target_attr():
    text = fpopt.target_attr("sm_90")
    assert text == '#lowp.target<"sm_90">'
    assert fpopt.describe_attr(text) == {"kind": "target", "chip": "sm_90"}
    with pytest.raises(ValueError, match="unknown target 'sm_1'"):
        fpopt.target_attr("sm_1")
    assert fpopt.target_attr(target="gfx942") == '#lowp.target<"gfx942">'


def test_target_attr_deprecated_chip_keyword():
    # chip= is the old spelling of target=, kept for one release.
    with pytest.warns(DeprecationWarning, match="use target="):
        assert fpopt.target_attr(chip="sm_80") == '#lowp.target<"sm_80">'


def test_policy_attr():
    text = fpopt.policy_attr("f16", loss_scale="dynamic")
    assert text == ("#lowp.policy<compute = f16, accumulate = f32, "
                    "storage = f32, loss_scale = dynamic>")
    assert fpopt.describe_attr(text) == {
        "kind": "policy", "compute": "f16", "accumulate": "f32",
        "storage": "f32", "loss_scale": "dynamic"}
    with pytest.raises(ValueError, match="not an MLIR float type"):
        fpopt.policy_attr("i8")
    with pytest.raises(ValueError):
        fpopt.policy_attr("bf16", loss_scale="sometimes")


def test_policy_attr_verifier_runs():
    # The accumulator must be at least as wide as the compute type.
    with pytest.raises(ValueError, match="invalid #lowp.policy"):
        fpopt.policy_attr("f32", accumulate="f16")


def test_stats_attr():
    text = fpopt.stats_attr(448.0, 2.0**-9, samples=4096)
    d = fpopt.describe_attr(text)
    assert d == {"kind": "stats", "amax": 448.0, "min": 2.0**-9,
                 "samples": 4096}
    assert fpopt.describe_attr(fpopt.stats_attr(1.0, 0.5))["samples"] is None
    with pytest.raises(ValueError, match="amax must be finite"):
        fpopt.stats_attr(float("inf"), 1.0)


def test_describe_rejects_other_attributes():
    with pytest.raises(ValueError):
        fpopt.describe_attr("42 : i32")
    with pytest.raises(ValueError):
        fpopt.describe_attr("#lowp.nothing<>")
