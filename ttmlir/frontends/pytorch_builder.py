"""The PyTorch importer's building blocks: TTIR values and functions built as text, and the lowering helpers every
ATen lowering uses."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch


MLIR_TYPES = {torch.float32: "f32", torch.bfloat16: "bf16", torch.float16: "f16", torch.float64: "f64",
              torch.int64: "i64", torch.int32: "i32", torch.int16: "i16", torch.int8: "i8", torch.uint8: "ui8",
              torch.bool: "i1"}
TORCH_TYPES = {v: k for k, v in MLIR_TYPES.items()}


class Unsupported(Exception):
    """An ATen op, or a form of one, that has no TTIR lowering."""


class ImportError_(Exception):
    """The module cannot be imported; the message is one line naming the cause."""


@dataclass(frozen=True)
class Value:
    name: str
    shape: tuple[int, ...]
    dtype: str

    @property
    def type(self) -> str:
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + self.dtype + ">"

    @property
    def rank(self) -> int:
        return len(self.shape)


def float_text(x: float) -> str:
    """A float attribute as MLIR reads it (finite values only; masks use the type's lowest value)."""
    x = float(x)
    if not math.isfinite(x):
        x = math.copysign(torch.finfo(torch.float32).max, x)
    return f"{x:.9e}"


def i32s(xs) -> str:
    return "[" + ", ".join(f"{int(x)} : i32" for x in xs) + "]"


def darray(kind: str, xs) -> str:
    return f"array<{kind}" + (": " + ", ".join(str(int(x)) for x in xs) if len(xs) else "") + ">"


class Func:
    """One TTIR function under construction: its arguments (by graph value name) and its op lines."""

    def __init__(self, name: str):
        self.name = name
        self.args: list[tuple[str, Value, str, str | None]] = []  # (graph value, argument, argument_type, weight_dtype)
        self.lines: list[str] = []
        self.count = 0
        self.loc = "unknown"

    def arg(self, key: str, shape, dtype: str, kind: str, weight_dtype: str | None = None) -> Value:
        value = Value(f"%arg{len(self.args)}", tuple(shape), dtype)
        self.args.append((key, value, kind, weight_dtype))
        return value

    def op(self, name: str, operands: list[Value], shape, dtype: str, attrs: dict | None = None,
           results: int = 1, result_types: list[tuple] | None = None):
        shapes = result_types or [(tuple(shape), dtype)] * results
        out = f"%{self.count}"
        self.count += 1
        values = [Value(out if len(shapes) == 1 else f"{out}#{i}", tuple(s), d) for i, (s, d) in enumerate(shapes)]
        props = ""
        if attrs:
            props = " <{" + ", ".join(f"{k} = {v}" for k, v in sorted(attrs.items())) + "}>"
        head = out if len(shapes) == 1 else f"{out}:{len(shapes)}"
        types = ", ".join(v.type for v in values)
        self.lines.append(f'    {head} = "ttir.{name}"({", ".join(v.name for v in operands)}){props} : '
                          f'({", ".join(v.type for v in operands)}) -> '
                          f'{types if len(values) == 1 else "(" + types + ")"} loc("{self.loc}")')
        return values[0] if len(values) == 1 else values

    def text(self, results: list[Value]) -> str:
        def attrs(kind, weight_dtype):
            found = ([f"ttcore.argument_type = #ttcore.argument_type<{kind}>"] if kind != "input" else []) + \
                ([f'ttcore.weight_dtype = "{weight_dtype}"'] if weight_dtype else [])
            return f" {{{', '.join(found)}}}" if found else ""
        args = ", ".join(f"{v.name}: {v.type}{attrs(kind, wd)}" for _, v, kind, wd in self.args)
        types = ", ".join(v.type for v in results)
        head = f"  func.func @{self.name}({args}) -> ({types}) {{"
        ret = f"    return {', '.join(v.name for v in results)} : {types}"
        return "\n".join(["module {", head, *self.lines, ret, "  }", "}", ""])


# --- the lowering helpers: every one builds ops on the current function --------------------------------


class Lower:
    """What a lowering sees: the function, the node's result metadata, and helpers for common shapes."""

    def __init__(self, func: Func, node: torch.fx.Node):
        self.f, self.node = func, node
        meta = node.meta.get("val")
        self.meta = meta

    @property
    def out(self) -> torch.Tensor:
        if not isinstance(self.meta, torch.Tensor):
            raise Unsupported(f"{self.node.target} with a non-tensor result")
        return self.meta

    def oshape(self, meta=None) -> tuple[int, ...]:
        """The result's shape; a 0-d result is a 1-element tensor on the device (reshaped back on the host)."""
        return tuple(int(d) for d in (self.out if meta is None else meta).shape) or (1,)

    def odtype(self, meta=None) -> str:
        return mlir_dtype((self.out if meta is None else meta).dtype)

    def op(self, name, operands, shape=None, dtype=None, attrs=None, **kw):
        shape = self.oshape() if shape is None else shape
        return self.f.op(name, list(operands), shape, dtype or self.odtype(), attrs, **kw)

    def full(self, value, dtype: str, rank: int) -> Value:
        number = f"{int(value)} : i32" if dtype in ("i64", "i32", "i16", "i8", "ui8", "i1") else f"{float_text(value)} : f32"
        return self.f.op("full", [], (1,) * rank, dtype, {"fill_value": number, "shape": darray("i32", [1] * rank)})

    def cast(self, v: Value, dtype: str) -> Value:
        if v.dtype == dtype:
            return v
        return self.f.op("typecast", [v], v.shape, dtype, {"conservative_folding": "false"})

    def reshape(self, v: Value, shape) -> Value:
        shape = tuple(int(d) for d in shape)
        if v.shape == shape:
            return v
        return self.f.op("reshape", [v], shape, v.dtype, {"shape": i32s(shape)})

    def permute(self, v: Value, perm) -> Value:
        perm = [p % v.rank for p in perm]
        if perm == list(range(v.rank)):
            return v
        return self.f.op("permute", [v], tuple(v.shape[p] for p in perm), v.dtype,
                         {"permutation": darray("i64", perm)})

    def rank_to(self, v: Value, rank: int) -> Value:
        return self.reshape(v, (1,) * (rank - v.rank) + v.shape) if v.rank < rank else v

    def broadcast_to(self, v: Value, shape) -> Value:
        v = self.rank_to(v, len(shape))
        if v.shape == tuple(shape):
            return v
        factors = [t if s == 1 else 1 for s, t in zip(v.shape, shape)]
        return self.f.op("broadcast", [v], tuple(shape), v.dtype, {"broadcast_dimensions": darray("i64", factors)})

    def tensor(self, x, dtype: str, rank: int) -> Value:
        """An operand: a Value as is, a Python number as a one-element `full` of the given type."""
        return x if isinstance(x, Value) else self.full(x, dtype, rank)

    def eltwise(self, name: str, args, dtype: str | None = None, compute: str | None = None) -> Value:
        """A unary/binary/ternary op with torch's type promotion and broadcasting (operands at one rank)."""
        rank = len(self.oshape())
        compute = compute or self.odtype()
        operands = [self.rank_to(self.cast(self.tensor(a, compute, rank), compute), rank) for a in args]
        return self.op(name, operands, dtype=dtype or compute)

    def slice(self, v: Value, dim: int, start: int, end: int, step: int = 1) -> Value:
        dim %= v.rank
        begins, ends, steps = [0] * v.rank, list(v.shape), [1] * v.rank
        begins[dim], ends[dim], steps[dim] = start, end, step
        shape = list(v.shape)
        shape[dim] = max(0, -(-(end - start) // step))
        return self.f.op("slice_static", [v], tuple(shape), v.dtype,
                         {"begins": i32s(begins), "ends": i32s(ends), "step": i32s(steps)})


def mlir_dtype(dtype: torch.dtype) -> str:
    if dtype not in MLIR_TYPES:
        raise Unsupported(f"tensors of {dtype}")
    return MLIR_TYPES[dtype]


def promoted(args) -> str:
    """torch's result type of two operands (Values by their element type, numbers as Python scalars)."""
    a, b = (torch.empty((), dtype=TORCH_TYPES[x.dtype]) if isinstance(x, Value) else x for x in args)
    return mlir_dtype(torch.result_type(a, b))
