#!/usr/bin/python3
"""Builds one static, self-contained HTML page from fp-opt's JSON report.

    fp-opt model.mlir --lowp-auto-mixed-precision="target=sm_90 report=r.json"
    scripts/lowp-report-html.py r.json -o r.html

The page holds the picture of the decisions (the graph section's DOT,
rendered inline as SVG by Graphviz's `dot` when it is installed), the
per-op table (op, location, precision, reason), the casts, the tensor bytes
before and after, the FP32 islands, the hazardous constants and the FP8
choices with their scales. Nothing is loaded from elsewhere: the file can be
mailed or attached to a bug.

A report this page cannot read (not JSON, written by an fp-opt with another
report schema) is an error with a message and no page. A report without a
picture (written by lowp-infer-precision alone), a machine without
Graphviz, or a module without functions give a page that says so where the
missing part would be.
"""

import argparse
import html
import json
import os
import shutil
import subprocess
import sys

# The report layout this page reads (kPrecisionReportSchemaVersion in
# include/lowp/Analysis/PrecisionReport.h).
SCHEMA_VERSION = 2

COLOURS = {
    "f32": "#9ecae1", "tf32": "#c6dbef", "f64": "#bdbdbd", "bf16": "#a1d99b",
    "f16": "#fdd49e", "f8E4M3FN": "#fbb4c9", "f8E4M3FNUZ": "#f768a1",
    "f8E4M3": "#fcc5c0", "f8E4M3B11FNUZ": "#dd3497", "f8E5M2": "#cbc9e2",
    "f8E5M2FNUZ": "#9e9ac8",
}

STYLE = """
body { font-family: Helvetica, Arial, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; }
h2 { font-size: 1.1em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.4em 0; }
th, td { border: 1px solid #ddd; padding: 2px 6px; text-align: left;
         vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.prec { padding: 0 4px; border-radius: 3px; white-space: nowrap; }
.notice { background: #fff6d5; border: 1px solid #e6c200; padding: 0.5em;
          max-width: 60em; }
.picture { border: 1px solid #ddd; overflow: auto; max-height: 80vh; }
.picture svg { max-width: none; }
.summary td:first-child { font-weight: bold; }
pre { font-size: 0.75em; background: #f7f7f7; padding: 0.5em;
      overflow: auto; max-height: 30em; }
"""

# Fills #render-check once the browser has laid the page out: the size of
# the picture and the number of table rows with a height, so that a
# headless browser's --dump-dom shows what rendered (scripts/test.d).
RENDER_CHECK = """
window.addEventListener("load", function () {
  var svg = document.querySelector(".picture svg");
  var box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
  var rows = Array.prototype.filter.call(
      document.querySelectorAll("#ops tbody tr"),
      function (r) { return r.getBoundingClientRect().height > 0; });
  var check = document.getElementById("render-check");
  check.setAttribute("data-svg-width", Math.round(box.width));
  check.setAttribute("data-svg-height", Math.round(box.height));
  check.setAttribute("data-op-rows", rows.length);
});
"""


class ReportError(Exception):
    """The report cannot be turned into a page."""


def load_report(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ReportError(f"cannot read the report '{path}': {e.strerror}")
    try:
        report = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReportError(f"'{path}' is not a JSON report: {e}")
    if not isinstance(report, dict):
        raise ReportError(f"'{path}' is not an fp-opt report (a JSON object "
                          "with schema_version)")
    version = report.get("schema_version")
    if version is None:
        raise ReportError(
            f"'{path}' has no schema_version: it was written by an fp-opt "
            f"older than this page (which reads version {SCHEMA_VERSION}); "
            "write the report again with this fp-opt")
    if not isinstance(version, int) or version != SCHEMA_VERSION:
        age = ("a newer" if isinstance(version, int) and
               version > SCHEMA_VERSION else "an older")
        raise ReportError(
            f"'{path}' has report schema version {version}: it was written "
            f"by {age} fp-opt than this page, which reads version "
            f"{SCHEMA_VERSION}; use the lowp-report-html.py of the fp-opt "
            "that wrote it, or write the report again")
    return report


def render_svg(dot):
    """The SVG of `dot`, or (None, why not)."""
    program = shutil.which("dot")
    if program is None:
        return None, ("The picture needs Graphviz, which is not installed "
                      "here (Debian: apt-get install graphviz). The DOT "
                      "source is below; `dot -Tsvg` draws it.")
    try:
        result = subprocess.run([program, "-Tsvg"], input=dot.encode(),
                                capture_output=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, f"Graphviz failed to draw the picture: {e}"
    if result.returncode != 0:
        return None, ("Graphviz failed to draw the picture: " +
                      result.stderr.decode(errors="replace").strip())
    svg = result.stdout.decode("utf-8", errors="replace")
    # Inline: drop the XML prolog and doctype, keep the <svg> element.
    start = svg.find("<svg")
    return (svg[start:] if start >= 0 else svg), None


def esc(value):
    return html.escape("" if value is None else str(value))


def precision_badge(precision):
    """Coloured element type names; several read types are "a x b"."""
    badges = []
    for name in str(precision or "").split(" x "):
        colour = COLOURS.get(name, "#ffffff")
        badges.append(f'<span class="prec" style="background:{colour}">'
                      f"{esc(name)}</span>")
    return " x ".join(badges)


def table(table_id, headers, rows, empty):
    """An HTML table, or the sentence `empty` when there are no rows."""
    if not rows:
        return f'<p id="{table_id}" class="empty">{esc(empty)}</p>'
    out = [f'<table id="{table_id}"><thead><tr>']
    out += [f"<th>{esc(h)}</th>" for h in headers]
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(row) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def cell(value, numeric=False):
    return f'<td class="num">{esc(value)}</td>' if numeric else \
        f"<td>{esc(value)}</td>"


def build_page(report, title):
    graph = report.get("graph")
    parts = []
    notices = []

    # Summary.
    summary = [("target", report.get("target") or "(none)"),
               ("low-precision format", report.get("low") or "(not decided)"),
               ("accumulator", report.get("accumulate") or "-"),
               ("casts inserted", report.get("casts_inserted", "-")),
               ("constants rounded", report.get("constants_rounded", "-"))]
    if report.get("note"):
        summary.append(("note", report["note"]))
    parts.append("<h2>Summary</h2>")
    parts.append('<table class="summary">' + "".join(
        f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in summary) +
        "</table>")

    functions = graph.get("functions", []) if graph else None
    if graph is None:
        notices.append(
            "This report has no graph section (it was written by "
            "lowp-infer-precision alone): there is no picture, and the op "
            "table lists inference's decisions. "
            "lowp-auto-mixed-precision{report=...json} or "
            "lowp-view-precision-graph{report=...} write the full report.")
    elif not functions:
        notices.append("The module has no functions: there is nothing to "
                       "draw or to decide.")

    # The picture.
    parts.append("<h2>Picture</h2>")
    if graph is not None and functions:
        parts.append(
            "<p>Nodes are coloured by the precision each op computes in "
            "(hover for the reason), FP32 islands are blue clusters, casts "
            "small nodes, repeated blocks are drawn once in a dashed "
            "cluster.</p>")
        seen = {name for op in graph.get("ops", [])
                for key in ("precision", "result_precision")
                for name in str(op.get(key, "")).split(" x ")}
        legend = [name for name in COLOURS if name in seen]
        parts.append("<p>" + " ".join(precision_badge(p) for p in legend) +
                     "</p>")
        blocks = [(f["name"], b) for f in functions
                  for b in f.get("repeated_blocks", [])]
        if blocks:
            parts.append("<ul>" + "".join(
                f"<li>@{esc(name)}: {b['copies']} identical blocks of "
                f"{b['ops_per_copy']} ops from {esc(b['first_op'])}, drawn "
                "once</li>" for name, b in blocks) + "</ul>")
        svg, why_not = render_svg(graph.get("dot", ""))
        if svg is not None:
            parts.append(f'<div class="picture" id="picture">{svg}</div>')
        else:
            parts.append(f'<p class="notice" id="picture-missing">'
                         f"{esc(why_not)}</p>")
            parts.append("<details><summary>DOT source</summary><pre>" +
                         esc(graph.get("dot", "")) + "</pre></details>")
            print(f"lowp-report-html: warning: {why_not}", file=sys.stderr)
    else:
        parts.append('<p class="notice" id="picture-missing">No picture: ' +
                     esc(notices[0] if notices else "") + "</p>")

    # Per-op table: the final precision of every op when the graph section
    # is there, inference's decisions otherwise.
    parts.append("<h2>Ops</h2>")
    rows = []
    if graph is not None:
        for op in graph.get("ops", []):
            precision = op.get("precision", "")
            result = op.get("result_precision", precision)
            rows.append([
                cell("@" + op.get("function", "")), cell(op.get("op")),
                cell(op.get("loc")),
                "<td>" + precision_badge(precision) +
                ("" if result == precision else " &rarr; " +
                 precision_badge(result)) + "</td>",
                cell(op.get("island") or ""), cell(op.get("reason"))])
        headers = ["function", "op", "location", "precision", "island",
                   "reason"]
    else:
        for d in report.get("decisions", []):
            rows.append([cell(d.get("op")), cell(d.get("loc")),
                         "<td>" + precision_badge(d.get("precision", "")) +
                         "</td>", cell(d.get("class")), cell(d.get("rule"))])
        headers = ["op", "location", "precision", "class", "reason"]
    parts.append(table("ops", headers, rows, "No ops were decided."))

    # Casts.
    parts.append("<h2>Casts</h2>")
    casts = graph.get("casts", []) if graph else []
    parts.append(table(
        "casts", ["function", "op", "location", "from", "to", "why"],
        [[cell("@" + c.get("function", "")), cell(c.get("op")),
          cell(c.get("loc")),
          "<td>" + precision_badge(c.get("from", "")) + "</td>",
          "<td>" + precision_badge(c.get("to", "")) + "</td>",
          cell(c.get("reason"))] for c in casts],
        "No casts." if graph else "The casts are listed in the full report."))

    # Tensor bytes.
    parts.append("<h2>Tensor bytes</h2>")
    columns = [("before", report.get("bytes_before")),
               ("after inference", report.get("bytes_after")),
               ("final", graph.get("bytes_final") if graph else None)]
    columns = [(name, b) for name, b in columns if isinstance(b, dict)]
    if columns:
        rows = []
        for role in ["arguments", "results", "intermediates", "conversions",
                     "total"]:
            rows.append([cell(role)] + [cell(b.get(role, 0), numeric=True)
                                        for _, b in columns])
        parts.append(table("bytes", ["role"] + [n for n, _ in columns], rows,
                           ""))
    else:
        parts.append('<p id="bytes">No tensor sizes in this report.</p>')

    # Islands, hazards, FP8.
    parts.append("<h2>FP32 islands</h2>")
    islands = graph.get("islands", []) if graph else []
    parts.append(table(
        "islands", ["function", "location", "protects", "ops"],
        [[cell("@" + i.get("function", "")), cell(i.get("loc")),
          cell(i.get("reasons")), cell(i.get("ops"), numeric=True)]
         for i in islands], "No FP32 islands."))

    parts.append("<h2>Hazards</h2>")
    hazards = graph.get("hazards", []) if graph else []
    fmt = graph.get("hazard_format") if graph else None
    parts.append(table(
        "hazards", ["location", "constant", "in", "becomes", "where"],
        [[cell(h.get("loc")), cell(h.get("value"), numeric=True),
          cell(h.get("format")), cell(h.get("becomes")),
          cell("inside an FP32 island (kept f32)" if h.get("in_island")
               else "outside any island")] for h in hazards],
        f"No constant becomes inf or 0 in {fmt}." if fmt else
        "No low-precision format to judge constants against."))

    parts.append("<h2>FP8 choices</h2>")
    fp8 = graph.get("fp8", []) if graph else []
    parts.append(table(
        "fp8", ["function", "location", "format", "scale", "scaling",
                "read by"],
        [[cell("@" + q.get("function", "")), cell(q.get("loc")),
          "<td>" + precision_badge(q.get("format", "")) + "</td>",
          cell("-" if q.get("scale") is None else f"{q['scale']:.6g}",
               numeric=True),
          cell(q.get("scaling")), cell(q.get("consumers"))] for q in fp8],
        "No FP8 operands (policy=fp8 chooses them)."))

    notice_html = "".join(f'<p class="notice">{esc(n)}</p>' for n in notices)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{esc(title)}</title>
<style>{STYLE}</style>
</head>
<body>
<h1>{esc(title)}</h1>
<p>fp-opt precision report (schema version {SCHEMA_VERSION}).</p>
{notice_html}
{chr(10).join(parts)}
<p id="render-check" hidden></p>
<script>{RENDER_CHECK}</script>
</body>
</html>
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("report", help="JSON report written by fp-opt")
    parser.add_argument("-o", "--output", required=True,
                        help="the HTML page to write")
    parser.add_argument("--title", help="page title (default: the report's "
                        "file name)")
    args = parser.parse_args()
    try:
        report = load_report(args.report)
    except ReportError as e:
        print(f"lowp-report-html: error: {e}", file=sys.stderr)
        return 1
    title = args.title or "Precision report: " + os.path.basename(args.report)
    page = build_page(report, title)
    # Written whole or not at all: a reader never sees half a page.
    tmp = args.output + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(page)
        os.replace(tmp, args.output)
    except OSError as e:
        print(f"lowp-report-html: error: cannot write '{args.output}': "
              f"{e.strerror}", file=sys.stderr)
        return 1
    print(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
