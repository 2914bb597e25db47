"""Verifiers of tt-train's (ttml) fused training ops, adamw, sdpa_fw and sdpa_bw (TTIR and TTNN), in upstream's words.

TTIR takes attention operands of any rank >= 2, read as (B, H, S, D) with every leading dim folded into H
(--ttir-to-ttir-decomposition reshapes them so); TTNN's kernels take rank 4 only.
"""

from __future__ import annotations

import math

from ttmlir.ir.op_table import TTML_LSE_WIDTH as LSE_WIDTH
from ttmlir.ir.props import scalar
from ttmlir.ir.tt_op import TTOp


def as_4d(shape) -> tuple[int, ...]:
    """(B, H, S, D) of an attention operand: rank 4 as it is, otherwise (1, product of the leading dims, S, D)."""
    shape = tuple(shape)
    if len(shape) == 4:
        return shape
    return (1, math.prod(shape[:-2]), *((1,) * (2 - len(shape))), *shape[-2:])


def _operand(op: TTOp, name: str):
    values = op.operand_groups().get(name)
    return values[0].type if values else None


def adamw(op: TTOp, ttnn: bool) -> None:
    shape = _operand(op, "param").get_shape()
    for name in ("grad", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"):
        t = _operand(op, name)
        if t is not None and t.get_shape() != shape:
            raise op.error(f"{name} must have the same shape as param")
    if ttnn:
        return
    # each result is the updated operand of the same name; TTIR -> TTNN forwards the operand in its place
    for name, result in zip(("param", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"), op.results):
        if result.type != _operand(op, name):
            raise op.error(f"{name}_out type must match {name}")
    if (_operand(op, "max_exp_avg_sq") is not None) != (len(op.results) == 4):
        raise op.error("max_exp_avg_sq and max_exp_avg_sq_out must both be present or both be absent")


def _mask_type(op: TTOp) -> None:
    arbitrary, mask = op.prop("mask_type").data.value == "arbitrary", _operand(op, "attention_mask")
    if arbitrary and mask is None:
        raise op.error("attention_mask is required when mask_type is 'arbitrary'")
    if not arbitrary and mask is not None:
        raise op.error("attention_mask is only allowed when mask_type is 'arbitrary'")


def _qkv(op: TTOp, ttnn: bool) -> tuple[tuple[int, ...], ...]:
    types = [_operand(op, n) for n in ("query", "key", "value")]
    if ttnn:
        if any(len(t.get_shape()) != 4 for t in types):
            raise op.error("query, key and value must be rank 4 (B, H, S, D)")
        _mask_type(op)
        return tuple(tuple(t.get_shape()) for t in types)
    if any(len(t.get_shape()) < 2 for t in types):
        raise op.error("query, key and value must have rank >= 2 (..., S, D)")
    q, k, v = (as_4d(t.get_shape()) for t in types)
    for message, sizes in (("query, key and value must share the same batch size", {q[0], k[0], v[0]}),
                           ("query, key and value must share the same sequence length", {q[2], k[2], v[2]}),
                           ("query and key must have the same head dimension", {q[3], k[3]}),
                           ("key and value must have the same number of heads", {k[1], v[1]})):
        if len(sizes) != 1:
            raise op.error(message)
    if k[1] == 0 or q[1] % k[1]:
        raise op.error("number of query heads must be a positive multiple of the number of key/value heads")
    _mask_type(op)
    mask = _operand(op, "attention_mask")
    if mask is not None and as_4d(mask.get_shape()) != (1, 1, q[2], q[2]):
        raise op.error("attention_mask must have shape (1, 1, S, S)")
    return q, k, v


def sdpa_fw(op: TTOp, ttnn: bool) -> None:
    q, k, v = _qkv(op, ttnn)
    if scalar(op.prop("return_intermediates")) != (len(op.results) == 2):
        raise op.error("intermediates result must be present iff return_intermediates is true")
    if ttnn:
        return
    if as_4d(op.results[0].type.get_shape()) != (*q[:3], v[3]):
        raise op.error("output must have shape (B, Hq, S, Dv)")
    if len(op.results) == 2 and as_4d(op.results[1].type.get_shape()) != (*q[:3], LSE_WIDTH):
        raise op.error(f"intermediates must have shape (B, Hq, S, {LSE_WIDTH})")


def sdpa_bw(op: TTOp, ttnn: bool) -> None:
    q, k, v = _qkv(op, ttnn)
    if ttnn:
        return
    for name in ("grad_output", "attn_output"):
        if as_4d(_operand(op, name).get_shape()) != (*q[:3], v[3]):
            raise op.error(f"{name} must have shape (B, Hq, S, Dv)")
    for name, want, result in zip(("query", "key", "value"), (q, k, v), op.results):
        if as_4d(result.type.get_shape()) != want:
            raise op.error(f"grad_{name} must have the same shape as {name}")


TTIR_RULES = {"adamw": lambda op: adamw(op, False), "sdpa_fw": lambda op: sdpa_fw(op, False),
              "sdpa_bw": lambda op: sdpa_bw(op, False)}
TTNN_RULES = {"adamw": lambda op: adamw(op, True), "sdpa_fw": lambda op: sdpa_fw(op, True),
              "sdpa_bw": lambda op: sdpa_bw(op, True)}
