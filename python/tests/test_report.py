"""fpopt.auto_mixed_precision: the decision report of lowp-infer-precision as
Python objects, checked against the IR it describes and the target table."""

import json
import pathlib
import re

import pytest

import fpopt

MLP = (pathlib.Path(__file__).resolve().parents[2] / "examples" / "models" /
       "mlp.mlir").read_text()


def test_report_agrees_with_ir_and_target():
    result = fpopt.auto_mixed_precision(MLP, target="sm_90")
    report = result.report
    assert report.target == "sm_90"
    # policy=auto takes the target's preferred 16-bit format.
    assert report.low == fpopt.target("sm_90").preferred16 == "bf16"
    assert report.accumulate == "f32"
    # Every matmul of the input is accounted for, and demoted.
    matmuls = MLP.count("linalg.matmul")
    assert matmuls > 0
    assert report.counts["linalg.matmul"] == {"bf16": matmuls}
    assert report.ops_in("bf16") >= matmuls
    # The casts the report counts are the casts in the output.
    assert report.casts_inserted == len(re.findall(r"lowp\.cast", result.ir))
    assert report.bytes_before.total == (report.bytes_before.arguments +
                                         report.bytes_before.results +
                                         report.bytes_before.intermediates)
    for kept in report.kept_wide:
        assert kept.precision == "f32" and kept.reason and kept.op
    assert '#lowp.target<"sm_90">' in result.ir


def test_policy_option_reaches_the_pass():
    report = fpopt.auto_mixed_precision(MLP, target="sm_90",
                                        policy="f16").report
    assert report.low == "f16"
    assert report.counts["linalg.matmul"] == {"f16": MLP.count("linalg.matmul")}


def test_target_from_module_attribute():
    attr = "attributes {lowp.target = %s}" % fpopt.target_attr("gfx90a")
    if "module {" in MLP:
        ir = MLP.replace("module {", "module %s {" % attr, 1)
    else:
        # Attribute aliases stay at the top level, outside the module.
        lines = MLP.splitlines()
        aliases = [l for l in lines if l.startswith("#")]
        body = [l for l in lines if not l.startswith("#")]
        ir = "\n".join(aliases + ["module %s {" % attr] + body + ["}"])
    report = fpopt.auto_mixed_precision(ir).report
    assert report.target == "gfx90a"
    assert report.low == fpopt.target("gfx90a").preferred16


def test_unknown_target_raises_compile_error():
    with pytest.raises(fpopt.CompileError) as info:
        fpopt.auto_mixed_precision(MLP, target="sm_1")
    assert "sm_1" in "".join(info.value.diagnostics)


def test_from_json_round_trip():
    raw = {"low": "bf16", "accumulate": "f32", "target": "sm_80", "note": "",
           "counts": {"linalg.matmul": {"bf16": 3}}, "casts_inserted": 4,
           "constants_rounded": 1,
           "bytes_before": {"arguments": 8, "results": 4, "intermediates": 0},
           "bytes_after": {"arguments": 4, "results": 2, "intermediates": 0},
           "kept_wide": [{"op": "math.exp", "loc": "loc(x)", "class":
                          "sensitive", "precision": "f32", "reason": "exp"}]}
    report = fpopt.DecisionReport.from_json(json.dumps(raw))
    assert report.bytes_saved == 6
    assert report.kept_wide[0] == fpopt.KeptWide("math.exp", "loc(x)", "f32",
                                                 "sensitive", "exp")
    assert report.ops_in("bf16") == 3


def test_autocast_policy_keeps_everything_but_matrix_inputs_wide():
    auto = fpopt.auto_mixed_precision(MLP, target="sm_90").report
    autocast = fpopt.auto_mixed_precision(MLP, target="sm_90",
                                          policy="autocast").report
    matmuls = MLP.count("linalg.matmul")
    # The matrix ops are demoted either way...
    assert autocast.low == "bf16"
    assert autocast.counts["linalg.matmul"] == {"bf16": matmuls}
    # ...but nothing else is: fewer ops in bf16 than the default decision.
    assert autocast.ops_in("bf16") < auto.ops_in("bf16")
    for op, precisions in autocast.counts.items():
        if op not in ("linalg.matmul", "linalg.transpose", "linalg.fill",
                      "tensor.empty", "arith.constant"):
            assert "bf16" not in precisions, op


def test_report_is_written_after_fp8_selection():
    # The pipeline's report is measured on the module FP8 selection left:
    # its matrix ops read FP8, and (weights as arguments) its bytes are
    # below the 16-bit decision's.
    fp8 = fpopt.auto_mixed_precision(MLP, target="sm_90", policy="fp8",
                                     demote_weights="arguments").report
    bf16 = fpopt.auto_mixed_precision(MLP, target="sm_90", policy="bf16",
                                      demote_weights="arguments").report
    assert fp8.matrix_inputs == {"f8E4M3FN": MLP.count("linalg.matmul")}
    assert bf16.matrix_inputs == {"bf16": MLP.count("linalg.matmul")}
    assert fp8.bytes_after.total < bf16.bytes_after.total
    assert fp8.bytes_before == bf16.bytes_before
    for b in (fp8.bytes_after, bf16.bytes_after):
        assert b.total == (b.arguments + b.results + b.intermediates +
                           b.conversions)
        assert b.conversions_fused + b.conversions_materialized > 0


def test_demote_weights_changes_the_signature_it_reports():
    # x, w1 and w2 are read only by the matmuls: they arrive in bf16; the
    # biases (added to f32 accumulators) stay f32.
    result = fpopt.auto_mixed_precision(MLP, target="sm_90", policy="bf16",
                                        demote_weights="arguments")
    signature = result.signature()
    assert signature.function == "mlp"
    assert [a.element_type for a in signature.arguments] == [
        "bf16", "bf16", "f32", "bf16", "f32"]
    assert signature.results == ["tensor<8x10xf32>"]
    demoted = {d.index: d.type for d in result.report.demoted_arguments}
    assert demoted == {i: signature.arguments[i].type for i in (0, 1, 3)}
    plain = fpopt.auto_mixed_precision(MLP, target="sm_90", policy="bf16")
    assert [a.element_type for a in plain.signature().arguments] == ["f32"] * 5
    assert result.report.bytes_after.arguments < plain.report.bytes_after.arguments

    # FP8: each weight in E4M3 with the index of its f32 scale argument,
    # which points back at it.
    fp8 = fpopt.auto_mixed_precision(MLP, target="sm_90", policy="fp8",
                                     demote_weights="arguments").signature()
    scaled = {i: a for i, a in enumerate(fp8.arguments)
              if "lowp.fp8_scale" in a.attributes}
    assert sorted(scaled) == [0, 1, 3]
    for i, a in scaled.items():
        assert a.element_type == "f8E4M3FN"
        j = int(a.attributes["lowp.fp8_scale"].split(":")[0])
        assert fp8.arguments[j].type == "f32"
        assert fp8.arguments[j].attributes["lowp.fp8_scale_of"] == f"{i} : i64"


def test_function_signature_errors_name_the_cause():
    with pytest.raises(ValueError, match="no func.func @nope"):
        fpopt.function_signature(MLP, "nope")
    two = MLP + "\nfunc.func @other() { return }\n"
    with pytest.raises(ValueError, match="more than one entry function"):
        fpopt.function_signature(two)
    assert fpopt.function_signature(two, "other").arguments == []
