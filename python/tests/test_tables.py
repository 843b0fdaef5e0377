"""The format and target tables as Python data, cross-checked against the
fp-opt command line (--print-*-table --json) and the IEEE/OCP specs."""

import json
import subprocess

import pytest

import fpopt


def _cli_json(fp_opt, flag):
    out = subprocess.run([fp_opt, flag, "--json"], check=True,
                         capture_output=True, text=True).stdout
    return {row["name"]: row for row in json.loads(out)}


def test_format_table_matches_cli(fp_opt):
    cli = _cli_json(fp_opt, "--print-format-table")
    table = fpopt.float_formats()
    assert list(table) == list(cli)
    for name, row in cli.items():
        f = table[name]
        assert (f.bits, f.exponent_bits, f.mantissa_bits) == (
            row["bits"], row["exponent_bits"], row["mantissa_bits"])
        assert f.max_finite == row["max"]
        assert f.min_normal == row["min_normal"]
        assert f.min_subnormal == row["min_subnormal"]
        assert f.epsilon == row["epsilon"]
        assert (f.has_inf, f.has_nan, f.has_negative_zero) == (
            row["has_inf"], row["has_nan"], row["has_neg_zero"])


@pytest.mark.parametrize("name,max_finite,min_normal,min_subnormal,has_inf", [
    # IEEE 754 binary16, bfloat16, and the OCP 8-bit formats / AMD FNUZ.
    ("f16", 65504.0, 2.0**-14, 2.0**-24, True),
    ("bf16", (2 - 2.0**-7) * 2.0**127, 2.0**-126, 2.0**-133, True),
    ("f8E4M3FN", 448.0, 2.0**-6, 2.0**-9, False),
    ("f8E5M2", 57344.0, 2.0**-14, 2.0**-16, True),
    ("f8E4M3FNUZ", 240.0, 2.0**-7, 2.0**-10, False),
    ("f8E5M2FNUZ", 57344.0, 2.0**-15, 2.0**-17, False),
])
def test_format_facts_match_specs(name, max_finite, min_normal, min_subnormal,
                                  has_inf):
    f = fpopt.float_format(name)
    assert (f.max_finite, f.min_normal, f.min_subnormal, f.has_inf) == (
        max_finite, min_normal, min_subnormal, has_inf)


def test_target_table_matches_cli(fp_opt):
    cli = _cli_json(fp_opt, "--print-target-table")
    table = fpopt.targets()
    assert list(table) == list(cli)
    for name, row in cli.items():
        t = table[name]
        assert t.vendor == row["vendor"]
        assert t.matrix_formats == frozenset(row["matrix"])
        assert t.elementwise_formats == frozenset(row["elementwise"])
        assert t.native_conversions == frozenset(row["conversions"])
        assert t.preferred16 == row["preferred16"]
        assert t.fp8_flavor == row["fp8"]
        tile = "x".join(map(str, t.tile16)) if all(t.tile16) else "-"
        assert tile == row["tile16"]


def test_target_rows_follow_vendor_facts():
    sm90, gfx942, v5e = (fpopt.target(c) for c in ("sm_90", "gfx942",
                                                   "tpu-v5e"))
    assert sm90.has_matrix_unit("f8E4M3FN") and sm90.fp8_flavor == "FN"
    assert gfx942.has_matrix_unit("f8E4M3FNUZ") and gfx942.fp8_flavor == "FNUZ"
    assert not gfx942.has_matrix_unit("f8E4M3FN")
    assert v5e.preferred16 == "bf16" and not v5e.has_native_arithmetic("bf16")
    assert v5e.vector_tile == (8, 128)
    assert not fpopt.target("sm_80").has_matrix_unit("f8E4M3FN")


def test_x86_rows_say_where_the_bf16_dot_pays():
    spr, zen4, avx2 = (fpopt.target(c) for c in ("sapphirerapids", "znver4",
                                                 "avx2"))
    # Golden Cove: vdpbf16ps at half the f32 FMAs' products per cycle.
    assert spr.bf16_dot_macs_per_cycle < spr.f32_fma_macs_per_cycle
    assert zen4.bf16_dot_macs_per_cycle > zen4.f32_fma_macs_per_cycle
    # Zen 5: twice Zen 4's rates (512-bit units), the dot still ahead.
    zen5 = fpopt.target("znver5")
    assert zen5.f32_fma_macs_per_cycle == 2 * zen4.f32_fma_macs_per_cycle
    assert zen5.bf16_dot_macs_per_cycle > zen5.f32_fma_macs_per_cycle
    assert zen5.llvm_cpu == "znver5" and zen5.cpu_features > zen4.cpu_features
    assert avx2.bf16_dot_macs_per_cycle == 0
    assert spr.l2_bytes == 2 << 20 and spr.f32_k_block == 256
    assert fpopt.target("sm_90").f32_fma_macs_per_cycle == 0


def test_unknown_names_list_known_ones():
    with pytest.raises(KeyError, match="sm_90"):
        fpopt.target("sm_1")
    with pytest.raises(KeyError, match="bf16"):
        fpopt.float_format("f7")


def test_host_cpu_is_the_tables_match():
    select = fpopt._fpopt.select_host_cpu
    zen4 = ["avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl",
            "avx512_bf16"]
    assert select(zen4, "AuthenticAMD") == ("znver4", False)
    assert select(zen4, "GenuineIntel") == ("avx512bf16", False)
    zen5 = zen4 + ["avx_vnni", "avx512_vp2intersect"]
    assert select(zen5, "AuthenticAMD") == ("znver5", False)
    spr = zen4 + ["avx512_fp16", "amx_tile", "amx_bf16"]
    assert select(spr, "GenuineIntel") == ("sapphirerapids", True)
    assert select(["sse2"], "GenuineIntel") is None
    # This host: a CPU row whose features its flags all show.
    import fpopt.runtime as runtime
    name, options = runtime.host_target()
    assert fpopt.target(name).cpu_features <= runtime.host_flags()
    assert (options == "amx=true") == (
        bool(fpopt.target(name).amx_features)
        and fpopt.target(name).amx_features <= runtime.host_flags())
