"""`--ttnn-split-runtime-weight-concat`: a product of one activation with weights concatenated along N (TTIR's
shared-LHS fusion: Q, K and V, or gate and up, joined into one matmul and sliced apart) is split back into one product
per weight when the concatenation runs on every call, and the op model finds the split cheaper.

The joint product pays off when its weights are parameters: const-eval concatenates them once and the call reads one
wide weight. When a weight is a runtime input (or computed in the call), the concat copies every weight through DRAM
on each call before the product reads them again: on a decode-shaped product (few rows) that copy costs as much as
the product. The split needs no copy: each slice of the joint result becomes the product of the activation and its
own weight (and bias), with the slice's type, where the slice was. A concat const-eval computed (`load_cached`) is
left alone, as is any joint product read other than by slices that are exactly its weights' columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.ir.props import int_values, scalar
from ttmlir.runtime import op_model
from ttmlir.transforms.ttnn.optimizer.ttnn_greedy_memory_layout_propagation import arch_of, spec_of
from ttmlir.transforms.ttnn.ttnn_utils import device_functions, ttnn_op


def _is(op: Operation | None, name: str) -> bool:
    return isinstance(op, TTNNOp) and op.ROW.name == name


def _pieces(concat: Operation, dim: int) -> list[tuple[SSAValue, int, int]] | None:
    """(piece, first, end) along `dim` of each operand of a concat along `dim`, or None if it joins along another."""
    rank = concat.results[0].type.get_num_dims()
    if scalar(concat.prop("dim")) % rank != dim % rank:
        return None
    out, at = [], 0
    for value in concat.operands:
        width = value.type.get_shape()[dim]
        out.append((value, at, at + width))
        at += width
    return out


def _column_range(slice_op: Operation) -> tuple[int, int] | None:
    """The [first, end) columns (last dim) a unit-step slice keeps when it keeps every other dim whole."""
    shape = slice_op.operands[0].type.get_shape()
    begins, ends = int_values(slice_op.prop("begins")), int_values(slice_op.prop("ends"))
    steps = int_values(slice_op.prop("step"))
    if any(s != 1 for s in steps) or len(begins) != len(shape):
        return None
    if any((b, e) != (0, d) for b, e, d in zip(begins[:-1], ends[:-1], shape[:-1])):
        return None
    return begins[-1] % shape[-1] if begins[-1] < 0 else begins[-1], ends[-1]


def _ns(op: Operation, arch: str, operands: list[SSAValue], results: list) -> float | None:
    specs = [spec_of(v.type) for v in operands if isinstance(v.type, TensorType)]
    outs = [spec_of(t) for t in results]
    if None in specs or None in outs:
        return None
    return op_model.runtime_ns(op.ROW.name, op.ROW.family, specs, outs, arch)


def split(product: Operation, arch: str) -> bool:
    """Split `product` (a matmul or linear whose weight is a runtime concat) if that is legal and cheaper."""
    if len(product.operands) < 2 or scalar(product.prop("transpose_a")) is True:
        return False
    transpose_b = scalar(product.prop("transpose_b")) is True
    weight = product.operands[1]
    concat = weight.owner
    if not _is(concat, "concat") or len(list(weight.uses)) != 1:
        return False
    rank = weight.type.get_num_dims()
    pieces = _pieces(concat, rank - 2 if transpose_b else rank - 1)
    groups = product.operand_groups() if hasattr(product, "operand_groups") else {}
    bias = (groups.get("bias") or [None])[0]
    bias_pieces = None
    if bias is not None:
        if not _is(bias.owner, "concat") or len(list(bias.uses)) != 1:
            return False
        bias_pieces = _pieces(bias.owner, -1)
    if pieces is None or (bias is not None and (bias_pieces is None or len(bias_pieces) != len(pieces)
                                                or any(b[1:] != p[1:] for b, p in zip(bias_pieces, pieces)))):
        return False
    slices = [use.operation for use in product.results[0].uses]
    ranges = [_is(s, "slice_static") and _column_range(s) for s in slices]
    by_range = {(first, end): i for i, (_, first, end) in enumerate(pieces)}
    if not slices or not all(ranges) or any(r not in by_range for r in ranges):
        return False
    # the op model: the concat(s) and the joint product against one product per slice
    joint = [_ns(concat, arch, list(concat.operands), [weight.type]),
             _ns(product, arch, list(product.operands), [product.results[0].type])]
    if bias is not None:
        joint.append(_ns(bias.owner, arch, list(bias.owner.operands), [bias.type]))
    parts = []
    for s, r in zip(slices, ranges):
        i = by_range[r]
        operands = [product.operands[0], pieces[i][0]] + ([bias_pieces[i][0]] if bias is not None else [])
        parts.append(_ns(product, arch, operands, [s.results[0].type]))
    if None in joint or None in parts or sum(parts) >= sum(joint):
        return False
    for s, r in zip(slices, ranges):
        i = by_range[r]
        operands = [product.operands[0], pieces[i][0]] + ([bias_pieces[i][0]] if bias is not None else [])
        props = {k: v for k, v in product.properties.items() if k != "matmul_program_config"}
        made = ttnn_op(product.ROW.name, operands, props, [s.results[0].type], product)
        made.location = s.location
        Rewriter.replace_op(s, made)
    for op in (product, concat, *((bias.owner,) if bias is not None else ())):
        if not any(r.uses for r in op.results):
            Rewriter.erase_op(op)
    return True


@dataclass(frozen=True)
class TTNNSplitRuntimeWeightConcatPass(ModulePass):
    """Split products of runtime-concatenated weights back into one product per weight, where the op model says so."""

    name: ClassVar[str] = "ttnn-split-runtime-weight-concat"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        arch = arch_of(module)
        for func in device_functions(module):
            if not isinstance(func, FuncOp) or func.is_declaration or _const_eval(func):
                continue
            for op in list(func.body.block.ops):
                if op.parent is not None and (_is(op, "matmul") or _is(op, "linear")):
                    split(op, arch)


def _const_eval(func: FuncOp) -> bool:
    kind = func.attributes.get("tt.function_type")
    return kind is not None and "const_eval" in str(kind)
