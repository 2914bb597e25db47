"""What `--canonicalize` does to the tt ops, by op name (the same name in TTIR and TTNN).

Upstream attaches these to each op class (`fold`, `getCanonicalizationPatterns`); here two tables say
them: FOLDS give an existing value that replaces the op's result, REWRITES give new ops that replace the
op. xDSL's canonicalize pass applies them through `TableCanonicalization` (ttmlir.ir.canonicalization), which
every tt op carries with `patterns_for`.
"""

from __future__ import annotations

import functools
from contextvars import ContextVar
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import Rewriter
from xdsl.transforms.canonicalize import CanonicalizePass as XDSLCanonicalizePass

from ttmlir.dialects.constant_fold import (BINARY, UNARY, LAYOUT_MAPS, fold_constant_operands, fold_layout, fold_sum,
                                           fold_typecast, shifted_out)
from ttmlir.ir.op_table import IN_PLACE_OPERAND
from ttmlir.ir.props import int_values
from ttmlir.dialects.tt_rewrites import (Fold, Rewrite, all_empty_concat, binary_idempotent, boolean_prod_to_min,
                                         broadcast_within_one_chip, cast_back, clamp_as_relu6, clamp_by_constants,
                                         clamp_of_clamp, collective_within_one_chip, concat_without_empty,
                                         consecutive_layout_change, consecutive_permute, consecutive_repeat,
                                         consecutive_reshape, consecutive_reverse, consecutive_slice,
                                         consecutive_typecast, constant_result, created_as_converted,
                                         embedding_of_squeezed_indices, flipped_comparison, idempotent,
                                         identity_permute, identity_pool, input_if_same_type, involution,
                                         linear_without_bias, logical_identity, lossless_cast_round_trip,
                                         matmul_of_merged_batches, matmul_rhs_repeat_implied, permute_as_reshape,
                                         permute_without_leading_units, pointwise_conv3d, sole_nonempty_input,
                                         splat_constant_to_full, topk_of_one, transpose_as_permute, ttir_only,
                                         unsplit_mesh_shard, update_cache_as_paged, where_by_constant, whole_slice)

FOLDS: dict[str, Fold] = {
    **dict.fromkeys(("reshape", "typecast", "repeat", "repeat_interleave", "broadcast", "to_layout", "to_tensor_spec",
                     "requantize"),
                    input_if_same_type),
    "concat": lambda op: sole_nonempty_input(op) or ttir_only(all_empty_concat)(op),
    "permute": identity_permute,
    "ttnn_metal_layout_cast": cast_back,
    "slice_static": whole_slice,
    "scatter": lambda op: op.operands[0] if 0 in op.operands[1].type.get_shape() else None,  # nothing to write
    "collective_broadcast": broadcast_within_one_chip,
    "mesh_shard": ttir_only(unsplit_mesh_shard),
    **dict.fromkeys(("abs", "ceil", "floor", "relu", "relu6", "sign"), ttir_only(idempotent)),
    **dict.fromkeys(("neg", "bitwise_not", "reciprocal"), ttir_only(involution)),
    **dict.fromkeys(("minimum", "bitwise_and", "bitwise_or"), ttir_only(binary_idempotent)),
    **dict.fromkeys(("logical_and", "logical_or"), ttir_only(lambda op: binary_idempotent(op) or logical_identity(op))),
    "where": ttir_only(where_by_constant),
    "reverse": ttir_only(lambda op: op.operands[0] if not int_values(op.prop("dimensions")) else None),
    **dict.fromkeys(("max_pool2d", "avg_pool2d"), identity_pool),
    **dict.fromkeys(("all_gather", "all_reduce", "all_reduce_async", "reduce_scatter"), collective_within_one_chip),
}
REWRITES: dict[str, Rewrite] = {
    "reshape": lambda op: consecutive_reshape(op) or matmul_of_merged_batches(op) or
    permute_without_leading_units(op),
    "embedding": ttir_only(embedding_of_squeezed_indices),
    "linear": linear_without_bias,
    "permute": lambda op: consecutive_permute(op) or permute_as_reshape(op),  # tried in this order
    "repeat": consecutive_repeat,
    "typecast": consecutive_typecast,
    "to_layout": consecutive_layout_change,
    "to_tensor_spec": lambda op: consecutive_layout_change(op) or lossless_cast_round_trip(op) or
    created_as_converted(op),
    "prod": boolean_prod_to_min,
    "constant": splat_constant_to_full,
    "lt": flipped_comparison,
    "le": flipped_comparison,
    "clamp_tensor": clamp_by_constants,
    "clamp_scalar": lambda op: fold_constant_operands(op) or clamp_of_clamp(op) or clamp_as_relu6(op),
    "conv3d": pointwise_conv3d,
    "update_cache": update_cache_as_paged,
    "topk": topk_of_one,
    "concat": ttir_only(concat_without_empty),
    "slice_static": consecutive_slice,
    "transpose": transpose_as_permute,
    "reverse": ttir_only(consecutive_reverse),
    "matmul": matmul_rhs_repeat_implied,
}


def _first(*rewrites: Rewrite) -> Rewrite:
    return lambda op: next((made for rewrite in rewrites if (made := rewrite(op)) is not None), None)


# Upstream's op folders that evaluate ops of constants (their `fold` methods, as opposed to the canonicalization
# patterns above): every greedy rewrite upstream applies them to the ops it visits, not only --canonicalize.
CONSTANT_FOLDS: dict[str, Rewrite] = {
    **dict.fromkeys(UNARY, fold_constant_operands),
    **dict.fromkeys(BINARY, _first(constant_result, fold_constant_operands)),
    **dict.fromkeys(("logical_left_shift", "logical_right_shift"),
                    _first(shifted_out, constant_result, fold_constant_operands)),
    **dict.fromkeys((*LAYOUT_MAPS, "broadcast"), fold_layout),
    "typecast": fold_typecast, "sum": fold_sum,
}
for _name, _fold in CONSTANT_FOLDS.items():
    REWRITES[_name] = _first(*filter(None, (REWRITES.get(_name), _fold)))


def fold_all(region) -> bool:
    """Apply the folds (FOLDS and CONSTANT_FOLDS) to every tt op of `region` until none applies, as a greedy
    rewrite driver does alongside its patterns; what a fold leaves unused stays for dead-code elimination.
    Whether anything changed."""
    writers: dict[SSAValue, list[Operation]] = {}  # told once, as to --canonicalize: not per op through its uses
    _add_writers(writers, region.walk())
    token = WRITERS.set(writers)
    changed = any_change = True
    try:
        while changed:
            changed = False
            for op in list(region.walk()):
                short = op.name.split(".", 1)[1] if "." in op.name else op.name
                if op.parent is None or not op.name.startswith("ttir.") or not any(r.uses for r in op.results) or \
                        _written_in_place(op):
                    continue
                if short in FOLDS and (value := FOLDS[short](op)) is not None:
                    op.results[0].replace_all_uses_with(value)
                elif short in CONSTANT_FOLDS and (made := CONSTANT_FOLDS[short](op)) is not None:
                    Rewriter.replace_op(op, made)
                    _add_writers(writers, made)
                else:
                    continue
                changed = any_change = True
    finally:
        WRITERS.reset(token)
    return any_change


def _writes(op: Operation) -> list[SSAValue]:
    """The operands `op` overwrites (a cache update's cache, TTNN's adamw's parameters and moments)."""
    row = getattr(op, "ROW", None)
    if row is None or row.family not in IN_PLACE_OPERAND:
        return []
    groups = op.operand_groups()
    return [value for name in IN_PLACE_OPERAND[row.family] for value in groups.get(name, ())]


# While `CanonicalizePass` runs: each overwritten value's writers. Without it a value's every use is looked at, for
# every op reading it: a weight or argument read by n ops made canonicalization quadratic. The patterns are shared
# (one per op name), so the index is the run's context, not theirs.
WRITERS: ContextVar[dict[SSAValue, list[Operation]] | None] = ContextVar("canonicalize_writers", default=None)


def _add_writers(writers: dict[SSAValue, list[Operation]], ops) -> None:
    for op in ops:
        for value in _writes(op):
            writers.setdefault(value, []).append(op)


def _written_in_place(op: Operation) -> bool:
    """An operand or result of `op` that another op without results (a cache update, TTNN's adamw) overwrites: its value
    depends on where it is read, which the rewrites above, looking through producers, cannot see."""
    if (writers := WRITERS.get()) is not None:
        return any(writer is not op and writer.parent is not None
                   for value in (*op.operands, *op.results) for writer in writers.get(value, ()))
    for value in (*op.operands, *op.results):
        for use in value.uses:
            row = getattr(use.operation, "ROW", None)
            if use.operation is not op and row is not None and row.family in IN_PLACE_OPERAND and any(
                    value in use.operation.operand_groups().get(name, ()) for name in IN_PLACE_OPERAND[row.family]):
                return True
    return False


@dataclass(frozen=True)
class _FoldPattern(RewritePattern):
    fold: Fold

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not _written_in_place(op) and (value := self.fold(op)) is not None:
            rewriter.replace(op, [], [value])


@dataclass(frozen=True)
class _RewritePattern(RewritePattern):
    rewrite: Rewrite

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not _written_in_place(op) and (made := self.rewrite(op)) is not None:
            rewriter.replace(op, *made) if isinstance(made, tuple) else rewriter.replace(op, made)
            if (writers := WRITERS.get()) is not None:  # a rewrite may make a writer (a cache update as a paged one)
                new = made[0] if isinstance(made, tuple) else made
                _add_writers(writers, [new] if isinstance(new, Operation) else new)


@functools.cache
def patterns_for(op_name: str) -> tuple[RewritePattern, ...]:
    short = op_name.split(".", 1)[1]
    folds = (_FoldPattern(FOLDS[short]),) if short in FOLDS else ()
    return folds + ((_RewritePattern(REWRITES[short]),) if short in REWRITES else ())


class CanonicalizePass(XDSLCanonicalizePass):
    """xDSL's canonicalize, told once which values are overwritten in place (the ops reading them keep still)
    instead of each op looking through its values' uses."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        writers: dict[SSAValue, list[Operation]] = {}
        _add_writers(writers, op.walk())
        token = WRITERS.set(writers)
        try:
            super().apply(ctx, op)
        finally:
            WRITERS.reset(token)
