#!/usr/bin/env python3
"""Seeded generator of random, valid linalg-on-tensors programs for fp-opt.

Programs look like what front ends (torch-mlir, IREE, TOSA/StableHLO to
linalg, hand-written) produce: random DAGs of 5-40 ops over ranked tensors
(static and dynamic dims, ranks 0-4, mostly f32 with some f16, bf16, f64,
i32, i1 and complex) drawn from linalg.generic (elementwise, broadcasts,
reductions, gathers, index arithmetic), linalg named ops, tensor ops,
arith/math on tensors, scf.for/scf.if carrying tensors, calls, constants
(splat, dense, dense_resource), lowp ops and discardable lowp attributes,
and the odd unregistered op.

The same seed always gives the same program. `generate(seed)` returns a
`Program`; `Program.text()` prints it. A program is a list of top-level
statements, each defining at most one value, so `Program.without(i)` (drop a
statement; its result becomes a function argument of the same name and
type) gives a smaller program that is still valid: the delta reducer of
utils/fuzz_passes.py uses it.

Usage: fuzz_linalg.py SEED [--count N] prints N programs separated by
`// -----` (for -split-input-file).
"""

import argparse
import random
import re
import struct

FLOATS = ("f32", "f16", "bf16", "f64")
WIDTH = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
COMPLEX = "complex<f32>"


def is_float(e):
    return e in FLOATS


class T:
    """A ranked tensor type (shape=None: a scalar of type `elt`). Dims are
    ints (static) or index-argument names (dynamic, printed `?`)."""

    def __init__(self, shape, elt):
        self.shape = None if shape is None else tuple(shape)
        self.elt = elt

    @property
    def rank(self):
        return len(self.shape)

    def static(self):
        return self.shape is not None and all(isinstance(d, int) for d in self.shape)

    def __str__(self):
        if self.shape is None:
            return self.elt
        dims = "".join(("?" if isinstance(d, str) else str(d)) + "x" for d in self.shape)
        return f"tensor<{dims}{self.elt}>"

    def with_elt(self, elt):
        return T(self.shape, elt)

    def with_shape(self, shape):
        return T(shape, self.elt)

    def __eq__(self, o):
        return isinstance(o, T) and self.shape == o.shape and self.elt == o.elt

    def __hash__(self):
        return hash((self.shape, self.elt))


def amap(nd, results):
    dims = ", ".join(f"d{i}" for i in range(nd))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


def fmt_float(x):
    return f"{float(x):.6e}"


def scalar_literal(elt, v):
    if elt == "i1":
        return "true" if v else "false"
    if elt == "i32":
        return str(int(v))
    return fmt_float(v)


class Stmt:
    def __init__(self, lines, name=None, ty=None):
        self.lines = lines
        self.name = name
        self.ty = ty


class Program:
    """args: [(name, T or 'index')]; stmts: [Stmt]; results: [name]."""

    def __init__(self, seed):
        self.seed = seed
        self.args = []
        self.stmts = []
        self.results = []
        self.func_attrs = []
        self.result_attrs = {}
        self.callees = []
        self.resources = {}
        self.module_attrs = []
        self.unregistered = False

    def types(self):
        types = {n: t for n, t in self.args}
        for s in self.stmts:
            if s.name:
                types[s.name] = s.ty
        return types

    def text(self):
        types = self.types()
        body = []
        for s in self.stmts:
            body.extend(s.lines)
        tokens = set(re.findall(r"%[A-Za-z_][\w]*", "\n".join(body)))
        tokens |= set(self.results)
        args = [(n, t) for n, t in self.args if n in tokens]
        arg_txt = ", ".join(f"{n}: {t}" for n, t in args)
        res_types = []
        arg_index = {n: i for i, (n, _) in enumerate(args)}
        for i, r in enumerate(self.results):
            attr = self.result_attrs.get(i)
            if attr and "ARG(" in attr:
                # `lowp.updates = ARG(%a)`: the index of %a among the printed
                # arguments (reduction adds and drops arguments).
                m = re.search(r"ARG\((%\w+)\)", attr)
                if m.group(1) not in arg_index:
                    attr = None
                else:
                    attr = attr.replace(m.group(0), f"{arg_index[m.group(1)]} : i64")
            res_types.append(f"{types[r]}" + (f" {{{attr}}}" if attr else ""))
        out = []
        mattrs = f" attributes {{{', '.join(self.module_attrs)}}}" if self.module_attrs else ""
        out.append(f"module{mattrs} {{")
        fattrs = f" attributes {{{', '.join(self.func_attrs)}}}" if self.func_attrs else ""
        out.append(f"  func.func @main({arg_txt}) -> ({', '.join(res_types)}){fattrs} {{")
        for line in body:
            out.append("    " + line)
        if self.results:
            out.append(f"    return {', '.join(self.results)} : "
                       f"{', '.join(str(types[r]) for r in self.results)}")
        else:
            out.append("    return")
        out.append("  }")
        for c in self.callees:
            out.extend("  " + line for line in c)
        out.append("}")
        blobs = {k: v for k, v in self.resources.items() if f"dense_resource<{k}>" in "\n".join(out)}
        if blobs:
            out.append("{-#")
            out.append("  dialect_resources: {")
            out.append("    builtin: {")
            out.append(",\n".join(f'      {k}: "0x{v}"' for k, v in blobs.items()))
            out.append("    }")
            out.append("  }")
            out.append("#-}")
        return "\n".join(out) + "\n"

    def copy(self):
        p = Program(self.seed)
        p.__dict__.update({k: (list(v) if isinstance(v, list) else v)
                           for k, v in self.__dict__.items()})
        p.result_attrs = dict(self.result_attrs)
        return p

    def without(self, index):
        """This program with statement `index` dropped: its result, if used,
        becomes a function argument with the same name and type."""
        p = self.copy()
        s = p.stmts.pop(index)
        if s.name:
            p.args.append((s.name, s.ty))
        return p

    def without_result(self, index):
        p = self.copy()
        p.results.pop(index)
        p.result_attrs = {(i if i < index else i - 1): a
                          for i, a in self.result_attrs.items() if i != index}
        return p

    def without_callees(self):
        p = self.copy()
        p.callees = []
        return p


class Region:
    """Where ops are emitted: the function body (top) or a nested region.
    `pool` holds the values visible there; `isolated` regions (lowp.island)
    see only their own values."""

    def __init__(self, gen, parent=None, isolated=False):
        self.gen = gen
        self.parent = parent
        self.isolated = isolated
        self.pool = []
        self.lines = []

    def visible(self):
        vals = list(self.pool)
        if self.parent is not None and not self.isolated:
            vals = self.parent.visible() + vals
        return vals

    def index_values(self):
        if self.isolated:
            return {}
        if self.parent is None:
            return {n: n for n in self.gen.dyn_dims}
        return self.parent.index_values()


class Gen:
    def __init__(self, seed):
        self.seed = seed
        self.r = random.Random(seed)
        self.p = Program(seed)
        self.counter = 0
        self.dyn_dims = []
        self.top = Region(self)
        self.cur = self.top
        self.has_call = False

    # ---- names and helpers -------------------------------------------------
    def fresh(self, prefix="v"):
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def chance(self, p):
        return self.r.random() < p

    def emit(self, line):
        self.cur.lines.append(line)

    def emit_short_payload(self, args, elt, body, res):
        """The region of linalg.map / linalg.reduce: arguments of type `elt`,
        `body`'s lines, and a yield of `res`."""
        self.emit(f"  ({', '.join(f'{a}: {elt}' for a in args)}) {{")
        for line in body:
            self.emit("    " + line)
        self.emit(f"    linalg.yield {res} : {elt}")
        self.emit("  }")

    def define(self, name, ty):
        self.cur.pool.append((name, ty))

    def rand_elt(self, floats_only=False):
        x = self.r.random()
        if floats_only:
            return "f32" if x < 0.6 else self.r.choice(["f16", "bf16", "f64"])
        if x < 0.6:
            return "f32"
        return self.r.choice(["f16", "bf16", "f16", "bf16", "f64", "i32", "i32", "i1"])

    def rand_dim(self, allow_dyn=True):
        if allow_dyn and self.chance(0.12) and self.cur.index_values() is not None:
            if not self.dyn_dims or (len(self.dyn_dims) < 2 and self.chance(0.3)):
                name = f"%n{len(self.dyn_dims)}"
                self.dyn_dims.append(name)
                self.p.args.append((name, "index"))
            return self.r.choice(self.dyn_dims)
        return self.r.choice([1, 2, 3, 4, 4, 5, 8, 8, 16, 32])

    def rand_shape(self, rank=None, allow_dyn=True):
        if rank is None:
            rank = self.r.choice([0] + [1, 2, 2, 2, 3, 3, 4] * 3)
        return tuple(self.rand_dim(allow_dyn and not self.cur.isolated) for _ in range(rank))

    def new_arg(self, ty):
        """A fresh value of type `ty`: a function argument at the top, else a
        constant or a filled empty tensor made in the current region."""
        if self.cur is self.top and not self.cur.isolated:
            name = self.fresh("a")
            self.p.args.append((name, ty))
            return name
        return self.materialize(ty)

    def materialize(self, ty):
        if ty.shape is None:
            return self.scalar_const(ty.elt, self.r.choice([0.5, 1.0, 2.0]))
        if ty.static():
            name = self.fresh("v")
            value = "(1.0, 0.5)" if ty.elt == COMPLEX else scalar_literal(ty.elt, 1)
            self.emit(f"{name} = arith.constant dense<{value}> : {ty}")
            return name
        e = self.empty(ty)
        c = self.scalar_const(ty.elt, 1)
        name = self.fresh("v")
        self.emit(f"{name} = linalg.fill ins({c} : {ty.elt}) outs({e} : {ty}) -> {ty}")
        return name

    def scalar_const(self, elt, v):
        name = self.fresh("c")
        if elt == COMPLEX:
            self.emit(f"{name} = complex.constant [1.0 : f32, 0.0 : f32] : {elt}")
        elif elt == "i1":
            self.emit(f"{name} = arith.constant {scalar_literal(elt, v)}")
        else:
            self.emit(f"{name} = arith.constant {scalar_literal(elt, v)} : {elt}")
        return name

    def index_const(self, v):
        name = self.fresh("c")
        self.emit(f"{name} = arith.constant {v} : index")
        return name

    def empty(self, ty):
        idx = self.cur.index_values()
        dyn = []
        for d in ty.shape:
            if isinstance(d, str):
                if d in idx:
                    dyn.append(idx[d])
                else:
                    raise Unsupported()
        name = self.fresh("e")
        self.emit(f"{name} = tensor.empty({', '.join(dyn)}) : {ty}")
        return name

    def pick(self, pred, make, p_fresh=0.25):
        cands = [(n, t) for n, t in self.cur.visible() if isinstance(t, T) and pred(t)]
        if cands and not self.chance(p_fresh):
            # Prefer recent values so the DAG is deep rather than wide.
            k = min(len(cands), 6)
            return self.r.choice(cands[-k:])
        ty = make()
        return self.new_arg(ty), ty

    def pick_tensor(self, float_only=True, static=False, min_rank=0, max_rank=4, elt=None):
        def pred(t):
            if t.shape is None or not (min_rank <= t.rank <= max_rank):
                return False
            if static and not t.static():
                return False
            if elt is not None:
                return t.elt == elt
            return is_float(t.elt) if float_only else t.elt != COMPLEX

        def make():
            rank = self.r.randint(min_rank, max_rank)
            e = elt or (self.rand_elt(True) if float_only else self.rand_elt())
            return T(self.rand_shape(rank, allow_dyn=not static), e)

        return self.pick(pred, make)

    def prec_attr(self):
        if self.chance(0.08):
            return f"lowp.precision = {self.r.choice(['f32', 'f16', 'bf16', 'f8E4M3FN', 'f64'])}"
        return None

    # ---- scalar bodies -----------------------------------------------------
    def convert(self, body, v, src, dst):
        if src == dst:
            return v
        n = self.fresh("s")
        if is_float(src) and is_float(dst):
            if WIDTH[src] == WIDTH[dst]:
                mid = self.convert(body, v, src, "f32")
                return self.convert(body, mid, "f32", dst)
            op = "arith.extf" if WIDTH[dst] > WIDTH[src] else "arith.truncf"
            body.append(f"{n} = {op} {v} : {src} to {dst}")
        elif is_float(src) and dst == "i32":
            body.append(f"{n} = arith.fptosi {v} : {src} to i32")
        elif is_float(src) and dst == "i1":
            z = self.fresh("s")
            body.append(f"{z} = arith.constant 0.0 : {src}")
            body.append(f"{n} = arith.cmpf ogt, {v}, {z} : {src}")
        elif src == "i32" and is_float(dst):
            body.append(f"{n} = arith.sitofp {v} : i32 to {dst}")
        elif src == "i1" and is_float(dst):
            body.append(f"{n} = arith.uitofp {v} : i1 to {dst}")
        elif src == "i1" and dst == "i32":
            body.append(f"{n} = arith.extui {v} : i1 to i32")
        elif src == "i32" and dst == "i1":
            body.append(f"{n} = arith.trunci {v} : i32 to i1")
        elif src == COMPLEX:
            body.append(f"{n} = complex.abs {v} : {COMPLEX}")
            return self.convert(body, n, "f32", dst)
        elif dst == COMPLEX:
            f = self.convert(body, v, src, "f32")
            z = self.fresh("s")
            body.append(f"{z} = arith.constant 0.0 : f32")
            body.append(f"{n} = complex.create {f}, {z} : {COMPLEX}")
        elif src == "index":
            body.append(f"{n} = arith.index_cast {v} : index to i32")
            return self.convert(body, n, "i32", dst)
        else:
            raise AssertionError((src, dst))
        return n

    def scalar_expr(self, body, vals, out_elt, nops, gathers=()):
        """Appends a random expression over `vals` [(name, elt)] to `body`;
        returns a value of type `out_elt`."""
        vals = list(vals)
        for _ in range(nops):
            x = self.r.random()
            if gathers and x < 0.08:
                tname, tty, idx = self.r.choice(gathers)
                n = self.fresh("s")
                body.append(f"{n} = tensor.extract {tname}[{', '.join(idx)}] : {tty}")
                vals.append((n, tty.elt))
                continue
            v, e = self.r.choice(vals)
            if e == COMPLEX:
                if self.chance(0.5):
                    w, we = self.r.choice(vals)
                    w = self.convert(body, w, we, COMPLEX)
                    n = self.fresh("s")
                    body.append(f"{n} = complex.{self.r.choice(['add', 'mul'])} {v}, {w} : {COMPLEX}")
                    vals.append((n, COMPLEX))
                else:
                    vals.append((self.convert(body, v, COMPLEX, "f32"), "f32"))
                continue
            if e == "index":
                vals.append((self.convert(body, v, "index", "i32"), "i32"))
                continue
            n = self.fresh("s")
            if is_float(e):
                kind = self.r.random()
                if kind < 0.4:
                    w, we = self.r.choice(vals)
                    w = self.convert(body, w, we, e)
                    op = self.r.choice(["addf", "subf", "mulf", "divf", "maximumf", "minimumf", "maxnumf"])
                    body.append(f"{n} = arith.{op} {v}, {w} : {e}")
                elif kind < 0.7:
                    op = self.r.choice(["math.exp", "math.log", "math.rsqrt", "math.sqrt", "math.tanh",
                                        "math.absf", "arith.negf", "math.exp2", "math.log1p", "math.erf"])
                    body.append(f"{n} = {op} {v} : {e}")
                elif kind < 0.8:
                    w, we = self.r.choice(vals)
                    w = self.convert(body, w, we, e)
                    c = self.fresh("s")
                    pred = self.r.choice(["ogt", "olt", "oge", "une", "oeq"])
                    body.append(f"{c} = arith.cmpf {pred}, {v}, {w} : {e}")
                    body.append(f"{n} = arith.select {c}, {v}, {w} : {e}")
                elif kind < 0.87:
                    c = self.fresh("s")
                    body.append(f"{c} = arith.constant {fmt_float(self.r.choice([0.5, 2.0, -1.0, 1e-5, 65504.0]))} : {e}")
                    body.append(f"{n} = arith.mulf {v}, {c} : {e}")
                elif kind < 0.94:
                    dst = self.r.choice([x for x in FLOATS if x != e] + ["i32"])
                    vals.append((self.convert(body, v, e, dst), dst))
                    continue
                else:
                    body.append(f"{n} = math.fma {v}, {v}, {v} : {e}")
            elif e == "i32":
                if self.chance(0.6):
                    w, we = self.r.choice(vals)
                    w = self.convert(body, w, we, "i32")
                    op = self.r.choice(["addi", "muli", "subi", "maxsi", "minsi"])
                    body.append(f"{n} = arith.{op} {v}, {w} : i32")
                else:
                    dst = self.r.choice(["f32", "f16", "bf16"])
                    vals.append((self.convert(body, v, "i32", dst), dst))
                    continue
            elif e == "i1":
                if self.chance(0.5):
                    w, we = self.r.choice(vals)
                    w = self.convert(body, w, we, "i1")
                    body.append(f"{n} = arith.{self.r.choice(['andi', 'ori', 'xori'])} {v}, {w} : i1")
                else:
                    vals.append((self.convert(body, v, "i1", "f32"), "f32"))
                    continue
            vals.append((n, e))
        # The result: prefer a value of the right type, else convert the last.
        typed = [v for v, e in vals if e == out_elt]
        if typed and self.chance(0.7):
            return typed[-1]
        v, e = vals[-1]
        return self.convert(body, v, e, out_elt)

    # ---- op generators -----------------------------------------------------
    def emit_generic(self, ins, out, maps, iters, body, attrs=None):
        """ins: [(name, T)], out: (name, T); body: lines ending in a yield."""
        name = self.fresh("v")
        head = (f"{name} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
                f"iterator_types = [{', '.join(chr(34) + i + chr(34) for i in iters)}]}}")
        ins_txt = (f" ins({', '.join(n for n, _ in ins)} : {', '.join(str(t) for _, t in ins)})"
                   if ins else "")
        attr_txt = f" attrs = {{{attrs}}}" if attrs else ""
        self.emit(f"{head}{ins_txt} outs({out[0]} : {out[1]}){attr_txt} {{")
        for line in body:
            self.emit("  " + line)
        self.emit(f"}} -> {out[1]}")
        return name

    def block_header(self, elts):
        names = [self.fresh("b") for _ in elts]
        return names, f"^bb0({', '.join(f'{n}: {e}' for n, e in zip(names, elts))}):"

    def gen_elementwise(self):
        x, xt = self.pick_tensor(float_only=self.chance(0.85))
        shape = xt.shape
        nd = len(shape)
        ident = amap(nd, [f"d{i}" for i in range(nd)])
        ins, maps = [(x, xt)], [ident]
        for _ in range(self.r.randint(0, 2)):
            if nd and self.chance(0.4):
                # A broadcast operand: a subset of the dims, sometimes a
                # size-1 dim read through a constant 0 result.
                keep = sorted(self.r.sample(range(nd), self.r.randint(0, nd)))
                bshape, res = [], []
                for i in keep:
                    if self.chance(0.15):
                        bshape.append(1)
                        res.append("0")
                    else:
                        bshape.append(shape[i])
                        res.append(f"d{i}")
                bt = T(bshape, self.rand_elt(True) if self.chance(0.3) else xt.elt)
                if any(isinstance(d, str) for d in bshape) and self.cur.isolated:
                    continue
                n, bt = self.pick(lambda t, bt=bt: t == bt, lambda bt=bt: bt)
                ins.append((n, bt))
                maps.append(amap(nd, res))
            elif nd >= 2 and self.chance(0.2):
                perm = list(range(nd))
                self.r.shuffle(perm)
                pt = T([shape[i] for i in perm], xt.elt)
                n, pt = self.pick(lambda t, pt=pt: t == pt, lambda pt=pt: pt)
                ins.append((n, pt))
                maps.append(amap(nd, [f"d{i}" for i in perm]))
            else:
                e = self.rand_elt() if self.chance(0.25) else xt.elt
                st = T(shape, e)
                n, st = self.pick(lambda t, st=st: t == st, lambda st=st: st)
                ins.append((n, st))
                maps.append(ident)
        out_elt = xt.elt if self.chance(0.75) or xt.elt == COMPLEX else self.rand_elt()
        if xt.elt == COMPLEX:
            out_elt = "f32"
        ot = T(shape, out_elt)
        if self.chance(0.3):
            on, ot = self.pick(lambda t: t == ot, lambda: ot)
        else:
            on = self.empty(ot)
        args, header = self.block_header([t.elt for _, t in ins] + [ot.elt])
        body = [header]
        vals = list(zip(args[:-1], [t.elt for _, t in ins]))
        if self.chance(0.2):
            vals.append((args[-1], ot.elt))
        if nd and self.chance(0.15):
            i = self.fresh("s")
            body.append(f"{i} = linalg.index {self.r.randrange(nd)} : index")
            vals.append((i, "index"))
        gathers = []
        if self.chance(0.15):
            g, gt = self.pick_tensor(float_only=True, min_rank=1, max_rank=2)
            idx = []
            for _ in range(gt.rank):
                c = self.fresh("s")
                if nd and self.chance(0.5):
                    body.append(f"{c} = linalg.index {self.r.randrange(nd)} : index")
                else:
                    body.append(f"{c} = arith.constant 0 : index")
                idx.append(c)
            gathers.append((g, gt, idx))
        res = self.scalar_expr(body, vals, ot.elt, self.r.randint(1, 6), gathers)
        body.append(f"linalg.yield {res} : {ot.elt}")
        name = self.emit_generic(ins, (on, ot), maps + [ident], ["parallel"] * nd, body, self.prec_attr())
        return name, ot

    def reduction_init(self, ty, combiner):
        e = self.empty(ty)
        init = {"add": 0.0, "mul": 1.0, "max": -3.0e38 if ty.elt != "f16" else -65504.0}[combiner]
        if ty.elt == "bf16" and combiner == "max":
            init = -3.0e38
        if ty.elt == "i32":
            init = {"add": 0, "mul": 1, "max": -2147483648}[combiner]
        c = self.scalar_const(ty.elt, init)
        name = self.fresh("v")
        self.emit(f"{name} = linalg.fill ins({c} : {ty.elt}) outs({e} : {ty}) -> {ty}")
        return name

    def combine(self, body, a, b, elt, combiner):
        n = self.fresh("s")
        if elt == "i32":
            op = {"add": "addi", "mul": "muli", "max": "maxsi"}[combiner]
        else:
            op = {"add": "addf", "mul": "mulf", "max": "maximumf"}[combiner]
        body.append(f"{n} = arith.{op} {a}, {b} : {elt}")
        return n

    def gen_reduction(self):
        x, xt = self.pick_tensor(float_only=self.chance(0.9), min_rank=1)
        if xt.elt == "i1":
            return None
        nd = xt.rank
        red = sorted(self.r.sample(range(nd), self.r.randint(1, nd)))
        keep = [i for i in range(nd) if i not in red]
        acc = xt.elt
        if xt.elt in ("f16", "bf16") and self.chance(0.5):
            acc = "f32"
        ot = T([xt.shape[i] for i in keep], acc)
        combiner = self.r.choice(["add", "add", "max", "mul"])
        init = self.reduction_init(ot, combiner)
        args, header = self.block_header([xt.elt, acc])
        body = [header]
        v = args[0]
        if self.chance(0.4) and is_float(xt.elt):
            v = self.scalar_expr(body, [(v, xt.elt)], xt.elt, self.r.randint(1, 2))
        v = self.convert(body, v, xt.elt, acc)
        res = self.combine(body, v, args[1], acc, combiner)
        body.append(f"linalg.yield {res} : {acc}")
        maps = [amap(nd, [f"d{i}" for i in range(nd)]), amap(nd, [f"d{i}" for i in keep])]
        iters = ["reduction" if i in red else "parallel" for i in range(nd)]
        return self.emit_generic([(x, xt)], (init, ot), maps, iters, body, self.prec_attr()), ot

    def dim(self, allow_dyn=True):
        return self.rand_dim(allow_dyn and not self.cur.isolated)

    def contraction_elts(self):
        x = self.r.random()
        if x < 0.6:
            return "f32", "f32"
        if x < 0.75:
            e = self.r.choice(["f16", "bf16"])
            return e, "f32"
        if x < 0.85:
            e = self.r.choice(["f16", "bf16"])
            return e, e
        if x < 0.93:
            return "f64", "f64"
        return "i32", "i32"

    def operand(self, ty):
        return self.pick(lambda t: t == ty, lambda: ty)[0]

    def init(self, ty):
        if self.chance(0.2):
            return self.operand(ty)
        return self.reduction_init(ty, "add")

    def gen_matmul(self):
        ein, eacc = self.contraction_elts()
        m, k, n = self.dim(), self.dim(), self.dim()
        kind = self.r.random()
        attrs = self.prec_attr()
        attr_txt = f" {{{attrs}}}" if attrs else ""
        if kind < 0.5:
            at, bt, ct = T([m, k], ein), T([k, n], ein), T([m, n], eacc)
            a, b, c = self.operand(at), self.operand(bt), self.init(ct)
            name = self.fresh("v")
            self.emit(f"{name} = linalg.matmul{attr_txt} ins({a}, {b} : {at}, {bt}) outs({c} : {ct}) -> {ct}")
        elif kind < 0.7:
            bb = self.dim()
            at, bt, ct = T([bb, m, k], ein), T([bb, k, n], ein), T([bb, m, n], eacc)
            a, b, c = self.operand(at), self.operand(bt), self.init(ct)
            name = self.fresh("v")
            self.emit(f"{name} = linalg.batch_matmul{attr_txt} ins({a}, {b} : {at}, {bt}) outs({c} : {ct}) -> {ct}")
        elif kind < 0.85:
            ta, tb = self.chance(0.5), self.chance(0.5) or True
            at = T([k, m] if ta else [m, k], ein)
            bt = T([n, k] if tb else [k, n], ein)
            ct = T([m, n], eacc)
            a, b, c = self.operand(at), self.operand(bt), self.init(ct)
            ma = "affine_map<(d0, d1, d2) -> (d2, d0)>" if ta else "affine_map<(d0, d1, d2) -> (d0, d2)>"
            mb = "affine_map<(d0, d1, d2) -> (d1, d2)>" if tb else "affine_map<(d0, d1, d2) -> (d2, d1)>"
            mc = "affine_map<(d0, d1, d2) -> (d0, d1)>"
            name = self.fresh("v")
            self.emit(f"{name} = linalg.matmul indexing_maps = [{ma}, {mb}, {mc}]{attr_txt} "
                      f"ins({a}, {b} : {at}, {bt}) outs({c} : {ct}) -> {ct}")
        else:
            # A contraction written as a generic (torch-mlir's einsum form).
            at, bt, ct = T([m, k], ein), T([k, n], ein), T([m, n], eacc)
            a, b, c = self.operand(at), self.operand(bt), self.init(ct)
            args, header = self.block_header([ein, ein, eacc])
            body = [header]
            p = self.fresh("s")
            mul = "muli" if ein == "i32" else "mulf"
            body.append(f"{p} = arith.{mul} {args[0]}, {args[1]} : {ein}")
            p = self.convert(body, p, ein, eacc)
            s = self.combine(body, p, args[2], eacc, "add")
            body.append(f"linalg.yield {s} : {eacc}")
            maps = ["affine_map<(d0, d1, d2) -> (d0, d2)>", "affine_map<(d0, d1, d2) -> (d2, d1)>",
                    "affine_map<(d0, d1, d2) -> (d0, d1)>"]
            name = self.emit_generic([(a, at), (b, bt)], (c, ct), maps, ["parallel", "parallel", "reduction"],
                                     body, attrs)
        return name, ct

    def gen_conv(self):
        ein, eacc = self.contraction_elts()
        if ein == "i32":
            ein, eacc = "f32", "f32"
        nb, c, f = self.r.choice([1, 2]), self.r.choice([1, 3, 4, 8]), self.r.choice([2, 4, 8])
        h, w = self.r.choice([4, 6, 8]), self.r.choice([4, 5, 8])
        kh, kw = self.r.choice([1, 2, 3]), self.r.choice([1, 3])
        s = self.r.choice([1, 1, 2])
        dl = self.r.choice([1, 1, 2])
        oh, ow = (h - (kh - 1) * dl - 1) // s + 1, (w - (kw - 1) * dl - 1) // s + 1
        if oh < 1 or ow < 1:
            return None
        attrs = (f"dilations = dense<{dl}> : tensor<2xi64>, strides = dense<{s}> : tensor<2xi64>"
                 + (", lowp.precision = f32" if self.chance(0.1) else ""))
        kind = self.r.choice(["nhwc", "nchw", "dw", "poolmax", "poolsum"])
        name = self.fresh("v")
        if kind == "nhwc":
            it, ft, ot = T([nb, h, w, c], ein), T([kh, kw, c, f], ein), T([nb, oh, ow, f], eacc)
            op = "linalg.conv_2d_nhwc_hwcf"
        elif kind == "nchw":
            it, ft, ot = T([nb, c, h, w], ein), T([f, c, kh, kw], ein), T([nb, f, oh, ow], eacc)
            op = "linalg.conv_2d_nchw_fchw"
        elif kind == "dw":
            it, ft, ot = T([nb, h, w, c], ein), T([kh, kw, c], ein), T([nb, oh, ow, c], eacc)
            op = "linalg.depthwise_conv_2d_nhwc_hwc"
        else:
            it, ot = T([nb, h, w, c], ein), T([nb, oh, ow, c], ein)
            ft = T([kh, kw], ein)
            op = "linalg.pooling_nhwc_max" if kind == "poolmax" else "linalg.pooling_nhwc_sum"
        i = self.operand(it)
        fl = self.empty(ft) if kind.startswith("pool") else self.operand(ft)
        if kind == "poolmax":
            o = self.reduction_init(ot, "max")
        else:
            o = self.init(ot)
        self.emit(f"{name} = {op} {{{attrs}}} ins({i}, {fl} : {it}, {ft}) outs({o} : {ot}) -> {ot}")
        return name, ot

    def gen_named(self):
        kind = self.r.choice(["fill", "transpose", "broadcast", "reduce", "map", "softmax"])
        if kind == "fill":
            t = T(self.rand_shape(), self.rand_elt(True))
            e = self.empty(t)
            c = self.scalar_const(t.elt, self.r.choice([0.0, 1.0, -2.5]))
            name = self.fresh("v")
            self.emit(f"{name} = linalg.fill ins({c} : {t.elt}) outs({e} : {t}) -> {t}")
            return name, t
        if kind == "transpose":
            x, xt = self.pick_tensor(float_only=self.chance(0.9), min_rank=1)
            perm = list(range(xt.rank))
            self.r.shuffle(perm)
            ot = T([xt.shape[i] for i in perm], xt.elt)
            o = self.empty(ot)
            name = self.fresh("v")
            self.emit(f"{name} = linalg.transpose ins({x} : {xt}) outs({o} : {ot}) "
                      f"permutation = [{', '.join(map(str, perm))}]")
            return name, ot
        if kind == "broadcast":
            x, xt = self.pick_tensor(max_rank=3)
            nadd = self.r.randint(1, 4 - xt.rank)
            rank = xt.rank + nadd
            added = sorted(self.r.sample(range(rank), nadd))
            it = iter(xt.shape)
            shape = [self.dim() if i in added else next(it) for i in range(rank)]
            ot = T(shape, xt.elt)
            o = self.empty(ot)
            name = self.fresh("v")
            self.emit(f"{name} = linalg.broadcast ins({x} : {xt}) outs({o} : {ot}) "
                      f"dimensions = [{', '.join(map(str, added))}]")
            return name, ot
        if kind == "reduce":
            x, xt = self.pick_tensor(min_rank=1)
            red = sorted(self.r.sample(range(xt.rank), self.r.randint(1, xt.rank)))
            ot = T([d for i, d in enumerate(xt.shape) if i not in red], xt.elt)
            comb = self.r.choice(["add", "max"])
            o = self.reduction_init(ot, comb)
            args, header = self.block_header([xt.elt, xt.elt])
            body = []
            res = self.combine(body, args[0], args[1], xt.elt, comb)
            name = self.fresh("v")
            self.emit(f"{name} = linalg.reduce ins({x} : {xt}) outs({o} : {ot}) "
                      f"dimensions = [{', '.join(map(str, red))}]")
            self.emit_short_payload(args, xt.elt, body, res)
            return name, ot
        if kind == "map":
            x, xt = self.pick_tensor()
            ins = [(x, xt)]
            if self.chance(0.5):
                ins.append((self.operand(xt), xt))
            o = self.empty(xt)
            args, _ = self.block_header([xt.elt] * (len(ins) + 1))
            body = []
            res = self.scalar_expr(body, [(a, xt.elt) for a in args[:-1]], xt.elt, self.r.randint(1, 3))
            name = self.fresh("v")
            self.emit(f"{name} = linalg.map ins({', '.join(n for n, _ in ins)} : "
                      f"{', '.join(str(t) for _, t in ins)}) outs({o} : {xt})")
            self.emit_short_payload(args, xt.elt, body, res)
            return name, xt
        x, xt = self.pick_tensor(min_rank=1)
        o = self.empty(xt)
        name = self.fresh("v")
        self.emit(f"{name} = linalg.softmax dimension({self.r.randrange(xt.rank)}) "
                  f"ins({x} : {xt}) outs({o} : {xt}) -> {xt}")
        return name, xt

    def gen_tensor_op(self):
        kind = self.r.choice(["expand", "collapse", "extract_slice", "insert_slice", "pad", "concat", "cast",
                              "extract"])
        name = self.fresh("v")
        if kind == "expand":
            x, xt = self.pick_tensor(float_only=self.chance(0.9), static=True, max_rank=3)
            groups, shape, j = [], [], 0
            for d in xt.shape:
                if d > 1 and d % 2 == 0 and self.chance(0.5):
                    groups.append([j, j + 1])
                    shape += [2, d // 2]
                    j += 2
                else:
                    groups.append([j])
                    shape.append(d)
                    j += 1
            if xt.rank == 0:
                shape, groups = [1], []
            ot = T(shape, xt.elt)
            self.emit(f"{name} = tensor.expand_shape {x} {groups} output_shape {shape} : {xt} into {ot}")
            return name, ot
        if kind == "collapse":
            x, xt = self.pick_tensor(float_only=self.chance(0.9), min_rank=2)
            cut = self.r.randrange(1, xt.rank)
            groups = [list(range(cut)), list(range(cut, xt.rank))]
            shape = []
            for g in groups:
                ds = [xt.shape[i] for i in g]
                if all(isinstance(d, int) for d in ds):
                    p = 1
                    for d in ds:
                        p *= d
                    shape.append(p)
                elif len(ds) == 1:
                    shape.append(ds[0])
                else:
                    shape.append("%dyn")
            ot = T(shape, xt.elt)
            self.emit(f"{name} = tensor.collapse_shape {x} {groups} : {xt} into {ot}")
            return name, ot
        if kind == "extract_slice":
            x, xt = self.pick_tensor(static=True, min_rank=1)
            offs, sizes = [], []
            for d in xt.shape:
                sz = self.r.randint(1, d)
                sizes.append(sz)
                offs.append(self.r.randint(0, d - sz))
            ot = T(sizes, xt.elt)
            if self.chance(0.3) and 1 in sizes:
                ot = T([s for s in sizes if s != 1], xt.elt)  # rank-reducing
            self.emit(f"{name} = tensor.extract_slice {x}[{', '.join(map(str, offs))}] "
                      f"[{', '.join(map(str, sizes))}] [{', '.join('1' for _ in sizes)}] : {xt} to {ot}")
            return name, ot
        if kind == "insert_slice":
            d, dt = self.pick_tensor(static=True, min_rank=1)
            offs, sizes = [], []
            for x in dt.shape:
                sz = self.r.randint(1, x)
                sizes.append(sz)
                offs.append(self.r.randint(0, x - sz))
            st = T(sizes, dt.elt if self.chance(0.9) else dt.elt)
            s = self.operand(st)
            self.emit(f"{name} = tensor.insert_slice {s} into {d}[{', '.join(map(str, offs))}] "
                      f"[{', '.join(map(str, sizes))}] [{', '.join('1' for _ in sizes)}] : {st} into {dt}")
            return name, dt
        if kind == "pad":
            x, xt = self.pick_tensor(static=True, min_rank=1)
            lo = [self.r.choice([0, 0, 1, 2]) for _ in xt.shape]
            hi = [self.r.choice([0, 0, 1]) for _ in xt.shape]
            ot = T([d + a + b for d, a, b in zip(xt.shape, lo, hi)], xt.elt)
            c = self.scalar_const(xt.elt, self.r.choice([0.0, -1.0]))
            idx = ", ".join(f"{self.fresh('b')}: index" for _ in xt.shape)
            self.emit(f"{name} = tensor.pad {x} low[{', '.join(map(str, lo))}] high[{', '.join(map(str, hi))}] {{")
            self.emit(f"^bb0({idx}):")
            self.emit(f"  tensor.yield {c} : {xt.elt}")
            self.emit(f"}} : {xt} to {ot}")
            return name, ot
        if kind == "concat":
            x, xt = self.pick_tensor(static=True, min_rank=1)
            dim = self.r.randrange(xt.rank)
            other = list(xt.shape)
            other[dim] = self.r.choice([1, 2, 4])
            yt = T(other, xt.elt)
            y = self.operand(yt)
            out = list(xt.shape)
            out[dim] += other[dim]
            ot = T(out, xt.elt)
            self.emit(f"{name} = tensor.concat dim({dim}) {x}, {y} : ({xt}, {yt}) -> {ot}")
            return name, ot
        if kind == "cast":
            x, xt = self.pick_tensor(min_rank=1)
            if xt.static():
                i = self.r.randrange(xt.rank)
                shape = list(xt.shape)
                shape[i] = "%cast"
            else:
                shape = list(xt.shape)
                for i, d in enumerate(shape):
                    if isinstance(d, str):
                        shape[i] = 4 if self.chance(0.5) else d
            ot = T(shape, xt.elt)
            self.emit(f"{name} = tensor.cast {x} : {xt} to {ot}")
            return name, ot
        # A scalar read back into a rank-0 tensor via from_elements.
        x, xt = self.pick_tensor(min_rank=1)
        idx = [self.index_const(0) for _ in xt.shape]
        s = self.fresh("v")
        self.emit(f"{s} = tensor.extract {x}[{', '.join(idx)}] : {xt}")
        ot = T([], xt.elt)
        self.emit(f"{name} = tensor.from_elements {s} : {ot}")
        return name, ot

    def gen_tensor_arith(self):
        x, xt = self.pick_tensor()
        name = self.fresh("v")
        kind = self.r.random()
        if kind < 0.4:
            y = self.operand(xt)
            op = self.r.choice(["addf", "subf", "mulf", "divf", "maximumf"])
            self.emit(f"{name} = arith.{op} {x}, {y} : {xt}")
            return name, xt
        if kind < 0.7:
            op = self.r.choice(["math.exp", "math.tanh", "math.sqrt", "arith.negf", "math.absf", "math.rsqrt"])
            self.emit(f"{name} = {op} {x} : {xt}")
            return name, xt
        if kind < 0.85:
            dst = self.r.choice([e for e in FLOATS if WIDTH[e] != WIDTH[xt.elt]])
            op = "arith.extf" if WIDTH[dst] > WIDTH[xt.elt] else "arith.truncf"
            ot = xt.with_elt(dst)
            self.emit(f"{name} = {op} {x} : {xt} to {ot}")
            return name, ot
        y = self.operand(xt)
        c = self.fresh("v")
        ct = xt.with_elt("i1")
        self.emit(f"{c} = arith.cmpf olt, {x}, {y} : {xt}")
        self.emit(f"{name} = arith.select {c}, {x}, {y} : {ct}, {xt}")
        return name, xt

    def nested(self, isolated=False):
        region = Region(self, parent=self.cur, isolated=isolated)
        return region

    def run_region(self, region, nops, gens):
        saved = self.cur
        self.cur = region
        try:
            for _ in range(nops):
                g = self.r.choice(gens)
                try:
                    res = g()
                except Unsupported:
                    res = None
                if res:
                    self.define(*res)
        finally:
            self.cur = saved

    def body_gens(self):
        return [self.gen_elementwise, self.gen_elementwise, self.gen_tensor_arith, self.gen_reduction,
                self.gen_named]

    def last_of(self, region, ty):
        for n, t in reversed(region.pool):
            if t == ty:
                return n
        return None

    def gen_scf(self):
        x, xt = self.pick_tensor()
        name = self.fresh("v")
        if self.chance(0.5):
            c0, c1 = self.index_const(0), self.index_const(1)
            ub = self.index_const(self.r.choice([1, 3, 4]))
            iv, acc = self.fresh("i"), self.fresh("t")
            region = self.nested()
            region.pool.append((acc, xt))
            self.run_region(region, self.r.randint(1, 3), self.body_gens())
            res = self.last_of(region, xt) or acc
            self.emit(f"{name} = scf.for {iv} = {c0} to {ub} step {c1} iter_args({acc} = {x}) -> ({xt}) {{")
            for line in region.lines:
                self.emit("  " + line)
            self.emit(f"  scf.yield {res} : {xt}")
            self.emit("}")
            return name, xt
        if self.chance(0.5):
            cond = self.new_arg(T(None, "i1"))
        else:
            z = self.scalar_const("f32", 0.0)
            s = self.fresh("v")
            idx = [self.index_const(0) for _ in range(xt.rank)]
            self.emit(f"{s} = tensor.extract {x}[{', '.join(idx)}] : {xt}")
            cond = self.fresh("v")
            s32 = s
            if xt.elt != "f32":
                s32 = self.fresh("v")
                op = "arith.extf" if WIDTH[xt.elt] < 32 else "arith.truncf"
                self.emit(f"{s32} = {op} {s} : {xt.elt} to f32")
            self.emit(f"{cond} = arith.cmpf ogt, {s32}, {z} : f32")
        self.emit(f"{name} = scf.if {cond} -> ({xt}) {{")
        for branch in range(2):
            region = self.nested()
            self.run_region(region, self.r.randint(0, 2), self.body_gens())
            res = self.last_of(region, xt) or x
            for line in region.lines:
                self.emit("  " + line)
            self.emit(f"  scf.yield {res} : {xt}")
            if branch == 0:
                self.emit("} else {")
        self.emit("}")
        return name, xt

    def gen_call(self):
        x, xt = self.pick_tensor()
        callee = f"@callee{len(self.p.callees)}"
        # The callee: a small region of its own (a fresh, isolated scope).
        region = Region(self, parent=None, isolated=True)
        arg = self.fresh("p")
        region.pool.append((arg, xt))
        saved_dyn = self.dyn_dims
        self.dyn_dims = []
        self.run_region(region, self.r.randint(1, 3), [self.gen_elementwise, self.gen_tensor_arith])
        self.dyn_dims = saved_dyn
        res = self.last_of(region, xt) or arg
        private = self.chance(0.2)
        lines = [f"func.func {'private ' if private else ''}{callee}({arg}: {xt}) -> {xt} {{"]
        lines += ["  " + line for line in region.lines]
        if self.chance(0.25):
            # Unstructured control flow: the result through a block argument.
            c, r = self.fresh("p"), self.fresh("p")
            lines += [f"  {c} = arith.constant true",
                      f"  cf.cond_br {c}, ^bb1({res} : {xt}), ^bb1({arg} : {xt})",
                      f"^bb1({r}: {xt}):", f"  return {r} : {xt}", "}"]
        else:
            lines += [f"  return {res} : {xt}", "}"]
        if self.chance(0.15):
            # The same function in a nested module with a target of its own.
            tgt = self.r.choice(["sm_90", "gfx942", "avx2", "tpu-v5e"])
            inner = [l.replace(callee, callee + "_nested").replace("func.func private", "func.func")
                     for l in lines]
            self.p.callees.append([f"module @inner{len(self.p.callees)} attributes "
                                   f"{{lowp.target = #lowp.target<\"{tgt}\">}} {{"]
                                  + ["  " + l for l in inner] + ["}"])
        if private and self.chance(0.5):
            lines = [f"func.func private {callee}({xt}) -> {xt}"]  # an external declaration
        self.p.callees.append(lines)
        name = self.fresh("v")
        self.emit(f"{name} = func.call {callee}({x}) : ({xt}) -> {xt}")
        return name, xt

    def gen_constant(self):
        shape = self.rand_shape(self.r.choice([0, 1, 1, 2]), allow_dyn=False)
        elt = self.rand_elt()
        if elt == "i1":
            elt = "f32"
        t = T(shape, elt)
        name = self.fresh("v")
        n = 1
        for d in shape:
            n *= d
        kind = self.r.random()
        if kind < 0.5 or n > 64:
            v = self.r.choice([0.0, 1.0, -0.5, 3.0e4, 1.0e-6, 100000.0])
            self.emit(f"{name} = arith.constant dense<{scalar_literal(elt, v)}> : {t}")
        elif kind < 0.8 or elt not in ("f32", "f16", "i32"):
            vals = [self.r.uniform(-4, 4) for _ in range(n)]

            def nest(level, off):
                if level == len(shape):
                    return scalar_literal(elt, vals[off] if elt != "i32" else int(vals[off]))
                stride = 1
                for d in shape[level + 1:]:
                    stride *= d
                return "[" + ", ".join(nest(level + 1, off + i * stride) for i in range(shape[level])) + "]"

            self.emit(f"{name} = arith.constant dense<{nest(0, 0)}> : {t}")
        else:
            key = f"blob{self.counter}"
            fmt = {"f32": "<f", "f16": "<e", "i32": "<i"}[elt]
            data = struct.pack("<I", 4 if elt != "f16" else 2)
            for _ in range(n):
                v = self.r.uniform(-2, 2)
                data += struct.pack(fmt, int(v) if elt == "i32" else v)
            self.p.resources[key] = data.hex().upper()
            self.emit(f"{name} = arith.constant dense_resource<{key}> : {t}")
        return name, t

    def gen_lowp(self):
        x, xt = self.pick_tensor(static=self.chance(0.5))
        if self.chance(0.5):
            dst = self.r.choice([e for e in ("f32", "f16", "bf16", "f64", "f8E4M3FN", "f8E5M2") if e != xt.elt])
            ot = xt.with_elt(dst)
            mode = self.r.choice(["", "", " toward_zero", " saturate"]) if WIDTH.get(dst, 8) < WIDTH[xt.elt] else ""
            if mode == " saturate":
                mode = " saturate"
            name = self.fresh("v")
            self.emit(f"{name} = lowp.cast {x}{mode if mode != ' saturate' else ''}"
                      f"{' saturate' if mode == ' saturate' else ''} : {xt} to {ot}")
            if dst.startswith("f8"):
                # Back to a computable type.
                back = self.fresh("v")
                self.emit(f"{back} = lowp.cast {name} : {ot} to {xt}")
                return back, xt
            return name, ot
        # An island over one or two inputs, at f32 (or f64), body isolated.
        if not xt.static():
            return None
        prec = "f32" if self.chance(0.85) else "f64"
        ins = [(x, xt)]
        if self.chance(0.4):
            y, yt = self.pick_tensor(static=True)
            ins.append((y, yt))
        region = Region(self, parent=None, isolated=True)
        bargs = []
        for _, t in ins:
            a = self.fresh("q")
            it = t.with_elt(prec) if is_float(t.elt) else t
            region.pool.append((a, it))
            bargs.append((a, it))
        self.run_region(region, self.r.randint(1, 3), [self.gen_elementwise, self.gen_tensor_arith,
                                                       self.gen_reduction])
        rt_in = bargs[0][1]
        res = self.last_of(region, rt_in) or bargs[0][0]
        name = self.fresh("v")
        self.emit(f"{name} = lowp.island {prec} ({', '.join(n for n, _ in ins)}) : "
                  f"({', '.join(str(t) for _, t in ins)}) -> {xt} {{")
        self.emit(f"^bb0({', '.join(f'{a}: {t}' for a, t in bargs)}):")
        for line in region.lines:
            self.emit("  " + line)
        self.emit(f"  lowp.yield {res} : {rt_in}")
        self.emit("}")
        return name, xt

    def gen_unregistered(self):
        self.p.unregistered = True
        x, xt = self.pick_tensor(float_only=False)
        name = self.fresh("v")
        if self.chance(0.5):
            self.emit(f'{name} = "test.opaque"({x}) {{lowp.precision = f32}} : ({xt}) -> {xt}'
                      if self.chance(0.3) else f'{name} = "test.opaque"({x}) : ({xt}) -> {xt}')
            return name, xt
        # An unregistered op with a region that reads a value from above.
        self.emit(f'{name} = "test.region"({x}) ({{')
        self.emit(f"  ^bb0({self.fresh('b')}: {xt}):")
        self.emit(f'    "test.terminator"({x}) : ({xt}) -> ()')
        self.emit(f"}}) : ({xt}) -> {xt}")
        return name, xt

    def gen_complex(self):
        """|x * y + x| over a complex tensor: complex payloads, an f32 result."""
        shape = self.rand_shape(self.r.choice([1, 2]))
        ct, ot = T(shape, COMPLEX), T(shape, "f32")
        x = self.new_arg(ct) if self.cur is self.top else None
        if x is None:
            return None
        o = self.empty(ot)
        args, header = self.block_header([COMPLEX, "f32"])
        body = [header]
        res = self.scalar_expr(body, [(args[0], COMPLEX)], "f32", self.r.randint(1, 3))
        body.append(f"linalg.yield {res} : f32")
        nd = len(shape)
        ident = amap(nd, [f"d{i}" for i in range(nd)])
        return self.emit_generic([(x, ct)], (o, ot), [ident, ident], ["parallel"] * nd, body), ot

    # ---- the program ------------------------------------------------------
    def top_gens(self):
        return ([self.gen_elementwise] * 8 + [self.gen_reduction] * 3 + [self.gen_matmul] * 4
                + [self.gen_conv] * 2 + [self.gen_named] * 4 + [self.gen_tensor_op] * 4
                + [self.gen_tensor_arith] * 3 + [self.gen_scf] + [self.gen_call] + [self.gen_constant] * 2
                + [self.gen_lowp] * 2 + [self.gen_complex]
                + [self.gen_unregistered] * (1 if self.chance(0.3) else 0))

    def generate(self):
        nops = self.r.randint(5, 40)
        gens = self.top_gens()
        tries = 0
        while len(self.p.stmts) < nops and tries < nops * 4:
            tries += 1
            g = self.r.choice(gens)
            self.cur = self.top
            self.top.lines = []
            try:
                res = g()
            except Unsupported:
                res = None
            if not res or "%dyn" in str(res[1].shape) or "%cast" in str(res[1].shape):
                # A result with a dim the program has no index for: drop it.
                if res and self.top.lines:
                    fix = self.fix_dims(res)
                    if fix is None:
                        continue
                    res = fix
                else:
                    continue
            name, ty = res
            self.p.stmts.append(Stmt(self.top.lines, name, ty))
            self.top.pool.append((name, ty))
        # Results: the last value plus a few others not used later.
        used = "\n".join(l for s in self.p.stmts for l in s.lines)
        unused = [s.name for s in self.p.stmts
                  if not re.search(re.escape(s.name) + r"\b", used.split(s.lines[0], 1)[1] if s.lines else "")]
        results = unused[-3:] if unused else [self.p.stmts[-1].name]
        self.p.results = results
        self.add_markers()
        return self.p

    def fix_dims(self, res):
        """collapse_shape/cast results with a new dynamic dim: name it after a
        fresh index argument (the program does not compute with it)."""
        name, ty = res
        shape = []
        for d in ty.shape:
            if d in ("%dyn", "%cast"):
                n = f"%n{len(self.dyn_dims)}"
                self.dyn_dims.append(n)
                self.p.args.append((n, "index"))
                d = n
            shape.append(d)
        return name, T(shape, ty.elt)

    def add_markers(self):
        if self.chance(0.15):
            tgt = self.r.choice(["sm_90", "sm_80", "gfx942", "tpu-v5e", "avx2", "sm_70"])
            self.p.module_attrs.append(f"lowp.target = #lowp.target<\"{tgt}\">")
        # Sometimes a training step (docs/training-step.md): a loss result, a
        # backward seed, a master gradient and a parameter update.
        if self.chance(0.12):
            self.add_training_step()

    def add_training_step(self):
        def stmt(fn):
            self.cur = self.top
            self.top.lines = []
            name, ty = fn()
            self.p.stmts.append(Stmt(self.top.lines, name, ty))
            self.top.pool.append((name, ty))
            return name, ty

        low = self.r.choice(["f16", "f16", "bf16"])
        shape = self.rand_shape(self.r.choice([1, 2]), allow_dyn=False)
        gt = T(shape, low)

        def seed():
            n = self.fresh("v")
            self.emit(f"{n} = arith.constant {{lowp.loss_seed}} dense<1.0> : tensor<{low}>")
            return n, T([], low)

        seed_name, seed_ty = stmt(seed)

        def backward():
            g = self.operand(gt)
            o = self.empty(gt)
            nd = len(shape)
            args, header = self.block_header([low, low, low])
            m = self.fresh("s")
            body = [header, f"{m} = arith.mulf {args[0]}, {args[1]} : {low}", f"linalg.yield {m} : {low}"]
            ident = amap(nd, [f"d{i}" for i in range(nd)])
            return self.emit_generic([(g, gt), (seed_name, seed_ty)], (o, gt), [ident, amap(nd, []), ident],
                                     ["parallel"] * nd, body), gt

        gs, _ = stmt(backward)
        wt = T(shape, "f32")

        def gradient():
            n = self.fresh("v")
            mark = self.r.choice(["{lowp.gradient}", '{lowp.gradient = "w"}'])
            self.emit(f"{n} = arith.extf {gs} {mark} : {gt} to {wt}")
            return n, wt

        gw, _ = stmt(gradient)
        w = self.fresh("a")
        self.p.args.append((w, wt))

        def update():
            n = self.fresh("v")
            self.emit(f"{n} = arith.subf {w}, {gw} : {wt}")
            return n, wt

        w1, _ = stmt(update)

        def loss():
            init = self.reduction_init(T([], "f32"), "add")
            nd = len(shape)
            args, header = self.block_header(["f32", "f32"])
            a = self.fresh("s")
            body = [header, f"{a} = arith.addf {args[0]}, {args[1]} : f32", f"linalg.yield {a} : f32"]
            return self.emit_generic([(w1, wt)], (init, T([], "f32")),
                                     [amap(nd, [f"d{i}" for i in range(nd)]), amap(nd, [])],
                                     ["reduction"] * nd, body), T([], "f32")

        l, _ = stmt(loss)
        self.p.results = [l, w1] + [r for r in self.p.results][:2]
        self.p.result_attrs = {0: "lowp.loss", 1: f"lowp.updates = ARG({w})"}


class Unsupported(Exception):
    pass


def generate(seed):
    return Gen(seed).generate()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("--count", type=int, default=1)
    args = ap.parse_args()
    texts = [generate(args.seed + i).text() for i in range(args.count)]
    print("\n// -----\n".join(texts), end="")


if __name__ == "__main__":
    main()
