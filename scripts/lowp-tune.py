#!/usr/bin/env python3
"""Precision search driven by measured error (fpopt.tune) from the command
line: runs the f32 model and candidate decisions on calibration inputs
through fp-opt's CPU lowering and writes the decision with the most
low-precision bytes whose error is within the tolerance.

  lowp-tune.py model.mlir --target sm_90 --inputs calib.npz --tolerance 1e-2 \\
      -o model.tuned.mlir [--report tune.json] [--expected ref.npz]

--inputs: a numpy .npz whose arrays are the entry function's arguments in
order (arr_0, arr_1, ... as numpy.savez writes them, or any names, taken in
the file's order); a second batch can follow as further arrays when
--batches N says so. Prints every candidate (policy, ops pinned to f32,
ops kept 16-bit by the FP8 policy, error, bytes saved) and a summary;
exits 1 with the cause on bad input. --lowering x86 runs candidates
through lowp-pipeline-x86 instead of the loop lowering; --jobs sets how
many run at once (default: every core).
"""
import argparse
import json
import os
import sys


def import_fpopt():
    try:
        import fpopt  # noqa: F401
    except ImportError:
        here = os.path.dirname(os.path.abspath(__file__))
        sys.path.insert(0, os.path.join(here, "..", "build", "python_packages"))
    import fpopt
    return fpopt


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--target", required=True)
    parser.add_argument("--inputs", required=True, help=".npz of arguments")
    parser.add_argument("--batches", type=int, default=1)
    parser.add_argument("--tolerance", type=float, required=True,
                        help="max |y - y_ref| / max |y_ref|")
    parser.add_argument("--expected", help=".npz of reference outputs "
                        "(default: the f32 model's)")
    parser.add_argument("--entry", help="function to tune (default: the "
                        "first public one)")
    parser.add_argument("--policies", help="comma-separated, e.g. auto,fp8")
    parser.add_argument("--group", type=int,
                        help="consecutive matrix ops searched as one unit "
                             "(default: a sixteenth of them)")
    parser.add_argument("--max-candidates", type=int, default=64)
    parser.add_argument("--lowering", choices=["loops", "x86"],
                        default="loops",
                        help="how candidates execute (default: loops)")
    parser.add_argument("--jobs", type=int,
                        help="candidates run at once (default: every core)")
    parser.add_argument("-o", "--output", default="-")
    parser.add_argument("--report", help="write every candidate as JSON")
    args = parser.parse_args(argv)

    import numpy as np
    fpopt = import_fpopt()

    def load(path, batches):
        with np.load(path) as data:
            arrays = [data[k] for k in data.files]
        if batches < 1 or len(arrays) % batches:
            sys.exit(f"lowp-tune: {path} holds {len(arrays)} arrays, not "
                     f"{batches} equal batches")
        n = len(arrays) // batches
        return [arrays[i * n:(i + 1) * n] for i in range(batches)]

    with open(args.model) as f:
        ir = f.read()
    try:
        result = fpopt.tune(
            ir, args.target, load(args.inputs, args.batches),
            tolerance=args.tolerance,
            expected=load(args.expected, args.batches) if args.expected
            else None,
            entry=args.entry,
            policies=args.policies.split(",") if args.policies else None,
            group=args.group, max_candidates=args.max_candidates,
            lowering=args.lowering, jobs=args.jobs,
            log=lambda line: print(line, file=sys.stderr))
    except fpopt.TuneError as e:
        print(f"lowp-tune: {e}", file=sys.stderr)
        return 1
    print(result.table(), file=sys.stderr)
    print(result.summary, file=sys.stderr)
    if args.report:
        with open(args.report, "w") as f:
            json.dump({"summary": result.summary, "all_f32": result.all_f32,
                       "pipeline": result.pipeline,
                       "matrix_ops": result.matrix_ops,
                       "chosen": vars(result.chosen),
                       "candidates": [vars(c) for c in result.candidates]},
                      f, indent=2, default=str)
            f.write("\n")
    if args.output == "-":
        sys.stdout.write(result.ir)
    else:
        with open(args.output, "w") as f:
            f.write(result.ir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
