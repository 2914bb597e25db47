"""StableHLO custom calls of fused ops TTIR has no op for: `tt.flash_mla_prefill` and `tt.indexer_score_dsa`.

Each becomes a `ttcore.composite` naming the fused TTNN op, with a private decomposition function computing the
same result from TTIR primitives. `--ttnn-resolve-composites` later promotes the composite to the TTNN op or
inlines the decomposition (an architecture or shape the fused kernel does not take).
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import (BoolAttr, DictionaryAttr, FlatSymbolRefAttr, FloatAttr, IntegerAttr, IntegerType,
                                   ModuleOp, Signedness, StringAttr, TensorType, f32, i1, i32)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, Region, SSAValue

from ttmlir.conversion.stablehlo_to_ttir.lowering import Builder, refuse

UI32 = IntegerType(32, Signedness.UNSIGNED)


def _attrs(op: Operation) -> dict[str, str]:
    attrs = op.attributes.get("mhlo.frontend_attributes")
    return {k: v.data for k, v in attrs.data.items() if isinstance(v, StringAttr)} if attrs is not None else {}


def _flag(op: Operation, attrs: dict[str, str], name: str, default: bool) -> bool:
    text = attrs.get(name)
    if text is None:
        return default
    if text.lower() not in ("true", "false"):
        raise refuse(op, f"{name} attribute must be true or false. Received \"{text}\".")
    return text.lower() == "true"


def _count(op: Operation, attrs: dict[str, str], name: str, positive: bool = False) -> int | None:
    text = attrs.get(name)
    if text is None:
        return None
    if not text.isdigit() or (positive and int(text) == 0):
        raise refuse(op, f"{name} attribute must be a {'positive' if positive else 'non-negative'} integer. "
                         f"Received \"{text}\".")
    return int(text)


def _check_ranks(op: Operation) -> None:
    for index, value in enumerate(op.operands):
        if not isinstance(value.type, TensorType) or len(value.type.get_shape()) != 4:
            raise refuse(op, f"operand {index} must be a 4D tensor, got {value.type}")


def _tensor(like: SSAValue, shape, element=None) -> TensorType:
    return TensorType(element or like.type.element_type, list(shape))


def _causal_visible(b: Builder, queries: int, keys: int, shape, offset: int,
                    place: tuple[int, int] | None = None) -> SSAValue:
    """i32 1 where key position t <= offset + query position s (positions in i32: bf16 conflates them past 256).
    Queries split over `place` (a mesh axis and its number of chips) are each chip's part of the split positions."""
    index = TensorType(i32, list(shape))
    rank = len(shape)
    if place is not None and place[1] > 1:
        axis, chips = place
        whole = list(shape)
        whole[rank - 2] *= chips
        rows = b.ttir("arange", [], TensorType(i32, whole), start=0, end=queries * chips, step=1,
                      arange_dimension=rank - 2)
        rows = b.ttir("mesh_partition", [rows], index, dim=rank - 2, cluster_axis=axis)
    else:
        rows = b.ttir("arange", [], index, start=0, end=queries, step=1, arange_dimension=rank - 2)
    cols = b.ttir("arange", [], index, start=0, end=keys, step=1, arange_dimension=rank - 1)
    if offset:
        rows = b.ttir("add", [rows, b.constant(offset, index)], index)
    return b.ttir("ge", [rows, cols], index)


def _additive_mask(b: Builder, visible: SSAValue, like: TensorType) -> SSAValue:
    """0 where visible, -inf elsewhere, in the scores' element type."""
    t = TensorType(like.element_type, visible.type.get_shape())
    return b.ttir("where", [visible, b.constant(0.0, t), b.constant(-math.inf, t)], t)


def flash_mla_prefill_body(b: Builder, query, key, value, mask, head_dim_v: int, causal: bool,
                           scale: float | None) -> SSAValue:
    """softmax(q kᵀ · scale + mask) v, where v (absent) is k's first head_dim_v features; query heads sharing a
    key head (GQA/MLA) are folded into its rows so one batched matmul serves them."""
    batch, heads, seq, size = query.type.get_shape()
    kv_heads, keys = key.type.get_shape()[1], key.type.get_shape()[2]
    group = heads // kv_heads
    if value is None:
        value = b.ttir("slice_static", [key], _tensor(key, (batch, kv_heads, keys, head_dim_v)),
                       begins=[0, 0, 0, 0], ends=[batch, kv_heads, keys, head_dim_v], step=[1, 1, 1, 1])
    folded = b.reshape(query, (batch, kv_heads, group * seq, size))
    key_t = b.ttir("permute", [key], _tensor(key, (batch, kv_heads, size, keys)), permutation=[0, 1, 3, 2])
    scores = b.ttir("matmul", [folded, key_t], _tensor(query, (batch, kv_heads, group * seq, keys)))
    scores_t = _tensor(query, (batch, heads, seq, keys))
    scores = b.reshape(scores, (batch, heads, seq, keys))
    factor = scale if scale is not None else 1 / math.sqrt(size)
    scores = b.ttir("multiply", [scores, b.constant(factor, scores_t)], scores_t)
    if mask is not None:
        scores = b.ttir("add", [scores, mask], scores_t)
    if causal:
        visible = _causal_visible(b, seq, keys, (1, 1, seq, keys), 0)
        scores = b.ttir("add", [scores, _additive_mask(b, visible, scores_t)], scores_t)
    probs = b.ttir("softmax", [scores], scores_t, dimension=3, numericStable=True)
    probs = b.reshape(probs, (batch, kv_heads, group * seq, keys))
    out = b.ttir("matmul", [probs, value], _tensor(query, (batch, kv_heads, group * seq, head_dim_v)))
    return b.reshape(out, (batch, heads, seq, head_dim_v))


def indexer_score_dsa_body(b: Builder, query, key, weights, chunk_start: int,
                           place: tuple[int, int] | None = None) -> SSAValue:
    """score[b, 0, s, t] = Σ_h relu(q[b, h, s] · k[b, 0, t]) · w[b, h, s], -inf where t > chunk_start + s; with the
    queries split over a mesh axis (`place`), s counts from the chip's first query."""
    batch, heads, seq, size = query.type.get_shape()
    keys = key.type.get_shape()[2]
    folded = b.reshape(query, (batch, 1, heads * seq, size))
    key_t = b.ttir("permute", [key], _tensor(key, (batch, 1, size, keys)), permutation=[0, 1, 3, 2])
    qk = b.ttir("matmul", [folded, key_t], _tensor(query, (batch, 1, heads * seq, keys)))
    per_head = _tensor(query, (batch, heads, seq, keys))
    qk = b.ttir("relu", [b.reshape(qk, (batch, heads, seq, keys))], per_head)
    gates = b.ttir("broadcast", [weights], per_head, broadcast_dimensions=[1, 1, 1, keys])
    weighted = b.ttir("multiply", [qk, gates], per_head)
    score_t = _tensor(query, (batch, 1, seq, keys))
    score = b.ttir("sum", [weighted], score_t, keep_dim=True, dim_arg=[1])
    visible = _causal_visible(b, seq, keys, (batch, 1, seq, keys), chunk_start, place)
    return b.ttir("add", [score, _additive_mask(b, visible, score_t)], score_t)


def _flash_mla_prefill(b: Builder, op: Operation):
    attrs = _attrs(op)
    if "mhlo.frontend_attributes" not in op.attributes:
        raise refuse(op, "FlashMlaPrefill op must have mhlo.frontend_attributes attribute.")
    head_dim_v = _count(op, attrs, "head_dim_v", positive=True)
    if head_dim_v is None:
        raise refuse(op, "FlashMlaPrefill op requires head_dim_v attribute.")
    causal = _flag(op, attrs, "is_causal", True)
    has_value, has_mask = _flag(op, attrs, "has_value", False), _flag(op, attrs, "has_attention_mask", False)
    scale = None
    if "scale" in attrs:
        try:
            scale = float(attrs["scale"])
        except ValueError:
            raise refuse(op, f"scale attribute string must be convertible to float. Received \"{attrs['scale']}\".")
    if len(op.operands) != 2 + has_value + has_mask:
        raise refuse(op, "Mismatch between operands and has_value/has_attention_mask attributes.")
    _check_ranks(op)
    (batch, heads, _, size), key = op.operands[0].type.get_shape(), op.operands[1].type.get_shape()
    if key[0] != batch or key[3] != size or key[1] == 0 or heads % key[1]:
        raise refuse(op, "key must be [batch, kv_heads, seq, head_size] with kv_heads dividing the query's heads")
    if not has_value and head_dim_v > size:
        raise refuse(op, "head_dim_v cannot exceed key's head dim when value is not provided")
    composite = {"head_dim_v": IntegerAttr(head_dim_v, UI32), "is_causal": BoolAttr(causal, i1),
                 **({"scale": FloatAttr(scale, f32)} if scale is not None else {}),
                 "has_value": BoolAttr(has_value, i1),
                 "has_attention_mask": BoolAttr(has_mask, i1)}

    def body(fb: Builder, args):
        value = args[2] if has_value else None
        mask = args[2 + has_value] if has_mask else None
        return flash_mla_prefill_body(fb, args[0], args[1], value, mask, head_dim_v, causal, scale)
    return body, composite


def _indexer_score_dsa(b: Builder, op: Operation):
    if len(op.operands) != 3:
        raise refuse(op, "indexer_score_dsa expects exactly 3 operands (q, k, weights).")
    _check_ranks(op)
    (batch, heads, seq, size), key = op.operands[0].type.get_shape(), op.operands[1].type.get_shape()
    if tuple(key[:2]) != (batch, 1) or key[3] != size or op.operands[2].type.get_shape() != (batch, heads, seq, 1):
        raise refuse(op, "indexer_score_dsa takes q [B, H, S, D], k [B, 1, T, D] and weights [B, H, S, 1]")
    attrs = _attrs(op)
    chunk_start = _count(op, attrs, "chunk_start_idx") or 0
    axis = _count(op, attrs, "cluster_axis")
    place = None
    if axis is not None:  # the mesh axis the query sequence is split over
        from ttmlir.conversion.stablehlo_to_ttir.ccl import module_mesh
        mesh = module_mesh(op.get_toplevel_object())
        if axis >= len(mesh):
            raise refuse(op, f"cluster_axis {axis} is not an axis of the {mesh[0]}x{mesh[1]} mesh")
        place = (axis, mesh[axis])
    composite = {"chunk_start_idx": IntegerAttr(chunk_start, UI32),
                 **({"cluster_axis": IntegerAttr(axis, UI32)} if axis is not None else {})}
    return lambda fb, args: indexer_score_dsa_body(fb, *args, chunk_start, place), composite


# call target -> (the composite's name, what reads the call: its decomposition's builder and the composite's attributes)
CALLS = {"tt.flash_mla_prefill": ("flash_mla_prefill", _flash_mla_prefill),
         "tt.indexer_score_dsa": ("indexer_score_dsa", _indexer_score_dsa)}


def _fresh_symbol(module: ModuleOp, base: str) -> str:
    taken = {getattr(op, "sym_name", None) and op.sym_name.data for op in module.body.block.ops}
    name, n = base, 0
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    return name


def composite_call(b: Builder, op: Operation) -> list[SSAValue]:
    """The call as a ttcore.composite over a decomposition function appended to the enclosing module."""
    from ttmlir.dialects.ttcore import CompositeOp
    name, read = CALLS[op.attr("call_target_name").data]
    body, attrs = read(b, op)
    module = op.parent_op()
    while not isinstance(module, ModuleOp):
        module = module.parent_op()
    inputs = [v.type for v in op.operands]
    block = Block(arg_types=inputs)
    inner = Builder(op)
    result = body(inner, list(block.args))
    if result.type != op.results[0].type:
        raise refuse(op, f"{op.attr('call_target_name').data} computes {result.type}, the call declares "
                         f"{op.results[0].type}")
    block.add_ops([*inner.ops, ReturnOp(result)])
    symbol = _fresh_symbol(module, f"{name}_decomp")
    func = FuncOp(symbol, (inputs, [result.type]), Region(block), visibility="private")
    func.location = op.location
    module.body.block.add_op(func)
    composite = CompositeOp.create(operands=list(op.operands), result_types=[op.results[0].type], properties={
        "composite_name": StringAttr(name), "decomposition": FlatSymbolRefAttr(symbol),
        "composite_attributes": DictionaryAttr(attrs)})
    composite.location = op.location
    b.ops.append(composite)
    return list(composite.results)
