#!/usr/bin/env python3
"""Appends a `main` to an MLIR model so mlir-runner can execute it: the
model's first public function gets deterministic inputs (values in [-1, 1],
one pattern per argument) for its statically shaped f32 tensor arguments
and its f32 tensor results are printed with printMemrefF32.

Usage: x86-harness.py MODEL.mlir [--weight-scale S] > MODEL.run.mlir
  --weight-scale S  multiplies every argument but the first (the weights of a
                    layer-style model) by S, e.g. 0.25 to keep a 64-wide
                    attention's logits moderate (default 1)."""
import argparse
import re

parser = argparse.ArgumentParser()
parser.add_argument("model")
parser.add_argument("--weight-scale", type=float, default=1.0)
cli = parser.parse_args()
text = open(cli.model).read()
match = re.search(r"func\.func\s+@([\w$.]+)\s*\((.*?)\)\s*->\s*\(?(.*?)\)?\s*\{",
                  text, re.S)
if not match:
    sys.exit("x86-harness: no public func.func with results found")
name, args, results = match.group(1), match.group(2), match.group(3)
arg_types = re.findall(r"%[\w$.]+\s*:\s*(tensor<[^>]*>)", args)
result_types = re.findall(r"tensor<[^>]*>", results)
for t in arg_types + result_types:
    if not re.fullmatch(r"tensor<(\d+x)+f32>", t):
        sys.exit(f"x86-harness: {t} is not a static f32 tensor")

lines = ["  func.func private @printMemrefF32(tensor<*xf32>)",
         "  func.func @main() {"]
names = []
for i, t in enumerate(arg_types):
    dims = [int(d) for d in t[len("tensor<"):-len("xf32>")].split("x")]
    rank = len(dims)
    parallel = ", ".join(['"parallel"'] * rank)
    idx = ", ".join(f"d{k}" for k in range(rank))
    lines += [
        f"    %e{i} = tensor.empty() : {t}",
        f"    %a{i} = linalg.generic {{indexing_maps = [affine_map<({idx}) -> ({idx})>], "
        f"iterator_types = [{parallel}]}} outs(%e{i} : {t}) {{",
        f"    ^bb0(%o: f32):",
        f"      %lin0 = arith.constant {i * 7 + 1} : index",
    ]
    for k in range(rank):
        lines += [f"      %i{k} = linalg.index {k} : index",
                  f"      %m{k} = arith.constant {31 + 6 * k} : index",
                  f"      %p{k} = arith.muli %i{k}, %m{k} : index",
                  f"      %lin{k + 1} = arith.addi %lin{k}, %p{k} : index"]
    lines += [f"      %c61 = arith.constant 61 : index",
              f"      %r = arith.remui %lin{rank}, %c61 : index",
              f"      %ri = arith.index_cast %r : index to i32",
              f"      %f = arith.sitofp %ri : i32 to f32",
              f"      %c30 = arith.constant 30.0 : f32",
              f"      %s = arith.subf %f, %c30 : f32",
              f"      %v = arith.divf %s, %c30 : f32"]
    if i > 0 and cli.weight_scale != 1.0:
        lines += [f"      %ws = arith.constant {cli.weight_scale!r} : f32",
                  f"      %vw = arith.mulf %v, %ws : f32",
                  f"      linalg.yield %vw : f32"]
    else:
        lines += [f"      linalg.yield %v : f32"]
    lines += [f"    }} -> {t}"]
    names.append(f"%a{i}")
res = ", ".join(f"%y{k}" for k in range(len(result_types)))
lines.append(f"    {res} = call @{name}({', '.join(names)}) : "
             f"({', '.join(arg_types)}) -> ({', '.join(result_types)})")
for k, t in enumerate(result_types):
    lines += [f"    %u{k} = tensor.cast %y{k} : {t} to tensor<*xf32>",
              f"    call @printMemrefF32(%u{k}) : (tensor<*xf32>) -> ()"]
lines += ["    return", "  }"]

# Insert before the closing brace of the outermost module, or wrap.
stripped = text.rstrip()
if re.search(r"^module\b", text, re.M) and stripped.endswith("}"):
    print(stripped[:-1] + "\n".join(lines) + "\n}")
else:
    # Top-level functions live in an implicit module: append.
    print(text + "\n" + "\n".join(lines))
