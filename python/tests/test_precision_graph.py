"""fpopt.precision_graph: the picture of lowp-view-precision-graph from
Python, checked against the decided IR and against the fp-opt tool."""

import pathlib
import re
import shutil
import subprocess

import pytest

import fpopt

MLP_PATH = (pathlib.Path(__file__).resolve().parents[2] / "examples" /
            "models" / "mlp.mlir")
MLP = MLP_PATH.read_text()
PIPELINE = "lowp-auto-mixed-precision{target=sm_90}"


def test_graph_shows_what_the_pipeline_decided():
    decided = fpopt.run_pipeline(MLP, PIPELINE)
    graph = fpopt.precision_graph(MLP, PIPELINE)
    assert graph.svg is None
    assert graph.dot.startswith('digraph "fp-opt precision"')
    # One small node per cast of the decided IR.
    casts = len(re.findall(r"= lowp\.cast", decided))
    assert casts > 0
    assert len(re.findall(r'label="cast ', graph.dot)) == casts
    # Every matmul reads bf16 and accumulates in f32, drawn in bf16's colour.
    matmuls = re.findall(r'label="linalg\.matmul\\nbf16 -> f32", '
                         r'fillcolor="([^"]+)"', graph.dot)
    assert len(matmuls) == MLP.count("linalg.matmul") and \
        set(matmuls) == {"#a1d99b"}
    # The softmax island is a cluster; its ops stay f32 and say why.
    assert 'label="FP32 island: softmax"' in graph.dot
    assert "in an FP32 island (softmax)" in graph.dot


def test_graph_matches_the_tool(fp_opt, tmp_path):
    out = tmp_path / "mlp.dot"
    subprocess.run([fp_opt, str(MLP_PATH),
                    f"--lowp-auto-mixed-precision=target=sm_90",
                    f"--lowp-view-precision-graph=output={out}",
                    "-o", "/dev/null"], check=True)
    # The same DOT, but for the locations (the file name differs).
    strip = lambda dot: re.sub(r'tooltip="[^"]*"', "", dot)
    assert strip(out.read_text()) == strip(
        fpopt.precision_graph(MLP, PIPELINE,
                              source_name=str(MLP_PATH)).dot)


def test_graph_of_undecided_module_and_empty_module():
    graph = fpopt.precision_graph(MLP)
    assert "bf16" not in graph.dot.split("cluster_legend")[0]
    empty = fpopt.precision_graph("module {}")
    assert "the module has no functions" in empty.dot


def test_svg():
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed (apt-get install "
                    "graphviz)")
    graph = fpopt.precision_graph(MLP, PIPELINE, svg=True)
    assert graph.svg.lstrip().startswith("<?xml") or "<svg" in graph.svg
    assert "FP32 island: softmax" in graph.svg


def test_svg_without_graphviz_says_so(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(RuntimeError, match="apt-get install graphviz"):
        fpopt.render_svg("digraph {}")


def test_bad_pipeline_is_a_compile_error():
    with pytest.raises(fpopt.CompileError):
        fpopt.precision_graph(MLP, "lowp-no-such-pass")
