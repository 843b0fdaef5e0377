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
