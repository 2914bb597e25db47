"""SDPA fusion of `--ttnn-fusing` (the optimizer's pipelines, or `enable-sdpa-fusion`): attention written out in TTNN
ops becomes one `ttnn.scaled_dot_product_attention` -- or, when each user has one query row, as in a decode step,
`ttnn.scaled_dot_product_attention_decode` on the query reordered to [1, B, H, D] (a mask to [B, 1, H, Sk], the
result reordered back), as upstream fuses it -- which never writes the [B, H, Sq, Sk] scores to memory.

Matched, from the product with the values:

    matmul(P, V)   P = softmax(S, last dim) (float typecasts around the softmax looked through), or P under the "safe softmax" guard torch's attention decomposition
                   writes: where(all_masked, 0, softmax(S)) with all_masked = eq(S, -inf), logical_not, ne 0, sum
                   over the keys, ne 0, logical_not (typecasts and reshapes between them), or where(any_visible,
                   softmax(S), 0), the same chain without its last logical_not
    P * V          over one key the product is elementwise: P [B, H, 1, 1] broadcast, or repeated over the head
                   features (both operands then reshaped alike), times V [B, H, 1, D]
    S = Q Kᵀ [· c] [+ mask]   a matmul without transposes of Q [B, H, Sq, D] and Kᵀ [B, Hkv, D, Sk]

Under Q, Kᵀ and V the reshapes, widening typecasts (bf16 to f32) and multiplies by one-element constants read only
there are looked through: the constants' product is the fused op's scale (1 without them), and a repeat of each of
Hkv key/value heads over its group of query heads is undone (the kernels share a key/value head within its group).
The fused op takes K: Kᵀ's permute with its last two dims swapped back (the permute that made Kᵀ becomes the one
that makes K), or a new permute (a reshape with one key). The guard zeroes a row whose every score is -inf, where
the fused kernel would divide 0 by 0: it is dropped only when no such row can occur, i.e. the mask is absent or
bounded (`bound`: what it is computed from has finite values -- constants whose fills are finite, integer inputs,
float inputs assumed of ordinary magnitude -- and no -inf fill). Every intermediate must be read only inside the
pattern.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import AnyFloat, DenseArrayBase, IntegerType, ModuleOp, TensorType, i32
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, Operation, SSAValue

from ttmlir.dialects import ttcore, ttnn
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.ir.props import KINDS, int_values, scalar
from ttmlir.transforms.ttnn.ttnn_utils import erase_unread, ttnn_op

PASS_THROUGH = ("typecast", "reshape", "to_memory_config", "to_layout")
GUARD = ("eq", "logical_not", "ne", "sum", "ne", "logical_not")  # the safe-softmax guard, from S to its condition
ORDINARY = 2.0 ** 24   # the magnitude assumed of a float input or constant argument whose values are unknown
# a mask bounded below f32's largest value is finite: scores plus it stay finite while the scores are smaller than
# the gap (above 1e36 for the float minimum masks are filled with), which products of ordinary values are
FINITE = 3.4028234e38
# ops that move or re-lay values without changing them
TO_DECODE, DECODE_MASK = [2, 0, 1, 3], [0, 2, 1, 3]  # [B, H, 1, D] queries to [1, B, H, D]; masks to [B, 1, H, Sk]
MOVES = {"typecast", "reshape", "to_memory_config", "to_layout", "to_device", "from_device", "to_tensor_spec", "repeat",
         "permute", "broadcast"}


def _producer(value: SSAValue, *names: str) -> TTNNOp | None:
    owner = value.owner
    return owner if isinstance(owner, TTNNOp) and owner.ROW.name in names else None


def _through(value: SSAValue, collected: list[Operation]) -> SSAValue:
    """`value` before the typecasts, reshapes and memory moves that produced it (collected)."""
    while (op := _producer(value, *PASS_THROUGH)) is not None:
        collected.append(op)
        value = op.operands[0]
    return value


def _callee(call: Operation) -> Operation | None:
    """The function a `load_cached` or call names, defined anywhere in the outermost module (a CPU-hoisted function
    lives in the CPU module beside the device one)."""
    top, at = None, call
    while at is not None:
        if isinstance(at, ModuleOp):
            top = at
        at = at.parent_op()
    ref = call.properties.get("callee") or call.attributes.get("callee")
    name = getattr(ref, "root_reference", None)
    if top is None or name is None:
        return None
    named = [op for op in top.walk() if isinstance(op, FuncOp) and op.sym_name.data == name.data]
    return next((f for f in named if not f.is_declaration), named[0] if named else None)


def bound(value: SSAValue, depth: int = 0) -> float | None:
    """An upper bound of |value|'s elements, or None when none can be given (an explicit -inf or NaN fill, an op not
    modelled, or a chain too deep). Through const-eval and CPU-hoisted calls; TTNN or TTIR ops alike."""
    if depth > 64:
        return None
    if isinstance(value, BlockArgument):
        element = value.type.element_type if isinstance(value.type, TensorType) else None
        return 2.0 ** 32 if isinstance(element, IntegerType) else ORDINARY
    op = value.owner
    name = op.name.split(".", 1)[-1]
    if isinstance(op, ttcore.LoadCachedOp) or name == "call":
        callee = _callee(op)
        if callee is None or callee.is_declaration:
            return None
        return bound(callee.body.block.last_op.operands[list(op.results).index(value)], depth + 1)
    if name in ("full", "constant"):
        fill = op.properties.get("fill_value")
        fill = float(scalar(fill)) if fill is not None else None
        return abs(fill) if fill is not None and math.isfinite(fill) else None
    if name in ("zeros", "ones", "eq", "ne", "lt", "gt", "le", "ge", "logical_not", "logical_and", "logical_or"):
        return 1.0
    inputs = [v for v in op.operands if isinstance(v.type, TensorType)]
    parts = [bound(v, depth + 1) for v in (inputs[1:] if name == "where" else inputs)]
    if None in parts or not parts:
        return None
    if name in MOVES or name in ("slice_static", "concat", "where", "neg", "abs", "maximum", "minimum"):
        return max(parts)
    if name in ("add", "subtract"):
        return sum(parts)
    if name == "multiply":
        return math.prod(parts)
    return None


def _constant(value: SSAValue, depth: int = 0) -> float | None:
    """The one value a constant tensor is filled with, if it is one: through data movement, const-eval (`load_cached`)
    and CPU-hoisted calls, to a TTNN or TTIR fill."""
    while depth < 64:
        depth += 1
        op = value.owner
        if not isinstance(op, Operation):
            return None
        name = op.name.split(".", 1)[-1]
        if isinstance(op, ttcore.LoadCachedOp) or name == "call":
            callee = _callee(op)
            if callee is None or callee.is_declaration:
                return None
            value = callee.body.block.last_op.operands[list(op.results).index(value)]
        elif name in MOVES and op.operands:
            value = op.operands[0]
        elif name in ("zeros", "ones"):
            return 0.0 if name == "zeros" else 1.0
        elif name == "full" and op.properties.get("fill_value") is not None:
            return float(scalar(op.properties["fill_value"]))
        else:
            return None
    return None


def _guarded_softmax(p: SSAValue, dead: list[Operation]) -> TTNNOp | None:
    """The softmax under P: P itself, or P's safe-softmax guard (its ops collected in `dead`): where(all masked, 0,
    softmax), or where(any visible, softmax, 0) -- the same guard without its last logical_not."""
    if (softmax := _producer(p, "softmax")) is not None:
        return softmax
    where = _producer(p, "where")
    if where is None:
        return None
    if _constant(where.operands[1]) == 0.0:
        softmax, guard = _producer(where.operands[2], "softmax"), GUARD
    elif _constant(where.operands[2]) == 0.0:
        softmax, guard = _producer(where.operands[1], "softmax"), GUARD[:-1]
    else:
        return None
    if softmax is None:
        return None
    scores, chain, value = softmax.operands[0], [where], where.operands[0]
    for name in reversed(guard):
        value = _through(value, chain)
        op = _producer(value, name)
        if op is None:
            return None
        chain.append(op)
        if name == "sum":
            dims = int_values(op.prop("dim_arg")) if op.prop("dim_arg") is not None else []
            if [d % len(op.operands[0].type.get_shape()) for d in dims] != [len(op.operands[0].type.get_shape()) - 1]:
                return None
            value = op.operands[0]
        elif name == "logical_not":
            value = op.operands[0]
        else:  # ne against 0, eq against -inf
            value, other = op.operands
            if _constant(other) != (0.0 if name == "ne" else -math.inf):
                return None
    if value != scores:
        return None
    dead += chain
    return softmax


def _uncast(value: SSAValue, dead: list[Operation]) -> SSAValue:
    """`value` before the float-to-float typecasts that made it, each read only by the next (collected in `dead`):
    a softmax computed in f32 between bf16 scores and a bf16 product is the fused kernel's own softmax."""
    while (op := _producer(value, "typecast")) is not None and len(list(value.uses)) == 1 and \
            isinstance(op.operands[0].type.element_type, AnyFloat) and isinstance(value.type.element_type, AnyFloat):
        dead.append(op)
        value = op.operands[0]
    return value


def _scaled(value: SSAValue, dead: list[Operation]) -> tuple[SSAValue, float]:
    """`value` before the multiplies by one-element finite constants that made it, each read only by the next
    (collected in `dead`), and the product of those constants: scores scaled before the mask is added."""
    factor = 1.0
    while (op := _producer(value, "multiply")) is not None and len(list(value.uses)) == 1:
        scaled = [(mine, _constant(other)) for mine, other in (op.operands, op.operands[::-1])
                  if math.prod(other.type.get_shape()) == 1 and mine.type.get_shape() == value.type.get_shape()]
        scaled = [(mine, c) for mine, c in scaled if c is not None and math.isfinite(c)]
        if not scaled:
            break
        dead.append(op)
        value, c = scaled[0]
        factor *= c
    return value, factor


def _peel(value: SSAValue, dead: list[Operation]) -> tuple[SSAValue, float]:
    """`value` before the reshapes, widening typecasts (bf16 to f32: every value kept) and multiplies by one-element
    constants that made it, each read only by the next (collected in `dead`): (the elements in the same order, the
    product of the factors)."""
    factor = 1.0
    while len(list(value.uses)) == 1 and isinstance(op := value.owner, TTNNOp):
        name, shape = op.ROW.name, value.type.get_shape()
        if name == "reshape":
            source = op.operands[0]
        elif name == "typecast":
            source = op.operands[0]
            before, after = source.type.element_type, value.type.element_type
            if not isinstance(before, AnyFloat) or not isinstance(after, AnyFloat) or before.bitwidth >= after.bitwidth:
                break
        elif name == "multiply":
            scaled = [(mine, _constant(other)) for mine, other in (op.operands, op.operands[::-1])
                      if math.prod(other.type.get_shape()) == 1 and mine.type.get_shape() == shape]
            scaled = [(mine, c) for mine, c in scaled if c is not None and math.isfinite(c)]
            if not scaled:
                break
            source, c = scaled[0]
            factor *= c
        else:
            break
        dead.append(op)
        value = source
    return value, factor


def _heads(value: SSAValue, shape: list[int], dead: list[Operation], made: list[Operation]) -> tuple[SSAValue, float]:
    """`value` (of `shape`, [B, H, X, Y]) as the [B, Hkv, X, Y] tensor it was made from, and the constant it was
    scaled by (`_peel`): a repeat of each of Hkv heads H / Hkv times -- along dim 2 of [B, Hkv, 1, ...] -- is undone,
    the fused kernel sharing a key/value head between its group of query heads."""
    value, factor = _peel(value, dead)
    heads = shape[1]
    found = _head_repeat(value) if len(list(value.uses)) == 1 else None
    if found is not None:
        op, source, scale = found
        before = source.type.get_shape()
        if len(before) >= 3 and before[2] == 1 and before[0] == shape[0] and before[1] * value.type.get_shape()[2] \
                == shape[1] and math.prod(before[3:]) == shape[2] * shape[3]:
            dead.append(op)
            value, inner = _peel(source, dead)
            factor, heads = factor * inner * scale, before[1]
    return _reshaped(value, [shape[0], heads, *shape[2:]], made), factor


def _head_repeat(value: SSAValue) -> tuple[Operation, SSAValue, float] | None:
    """The op repeating [B, Hkv, 1, ...] along dim 2 into `value`, its source and the constant it scales by: a
    repeat (1), or a multiply by a constant tensor of `value`'s shape (a scale whose broadcast was folded into it)."""
    op = value.owner
    if not isinstance(op, TTNNOp):
        return None
    shape = value.type.get_shape()
    if op.ROW.name == "repeat":
        dims = list(op.prop("repeat_dims").data)
        source = op.operands[0]
        if len(dims) == len(shape) and all(d == 1 for i, d in enumerate(dims) if i != 2):
            return op, source, 1.0
    elif op.ROW.name == "multiply" and len(shape) >= 3:
        for source, other in (op.operands, op.operands[::-1]):
            c, before = _constant(other), source.type.get_shape()
            if c is not None and math.isfinite(c) and len(before) == len(shape) and before[2] == 1 and \
                    all(b == s for i, (b, s) in enumerate(zip(before, shape)) if i != 2):
                return op, source, c
    return None


def _reshaped(value: SSAValue, shape: list[int], made: list[Operation]) -> SSAValue:
    """`value` reshaped to `shape` (itself when it has that shape), the reshape right after its definition (and in
    `made`, erased again if the fusion does not happen)."""
    if list(value.type.get_shape()) == list(shape):
        return value
    owner = value.owner
    reshape = ttnn_op("reshape", [value], {"shape": KINDS["i32_array"].build(list(shape))},
                      [TensorType(value.type.element_type, list(shape))],
                      owner if isinstance(owner, Operation) else owner.parent_op())
    if isinstance(owner, Operation):
        owner.parent.insert_op_after(reshape, owner)
    else:
        owner.insert_op_before(reshape, owner.first_op)
    made.append(reshape)
    return reshape.results[0]


def _key(kt: SSAValue, at: Operation, dead: list[Operation], made: list[Operation]) -> SSAValue:
    """K for Kᵀ: the permute that made Kᵀ with its last two dims swapped back, else a permute of Kᵀ (a reshape when
    there is one key: swapping a unit dim moves no element)."""
    rank = kt.type.get_num_dims()
    swap = list(range(rank - 2)) + [rank - 1, rank - 2]
    shape = [kt.type.get_shape()[i] for i in swap]
    by = _producer(kt, "permute")
    if by is not None and any(use.operation is not at for use in kt.uses):
        by = None  # Kᵀ is read elsewhere too: K is a permute of it
    source, order = (by.operands[0], int_values(by.prop("permutation"))) if by is not None else (kt, list(range(rank)))
    order = [order[i] for i in swap]
    if by is not None:
        dead.append(by)
    if order == list(range(rank)):
        return source
    if by is None and shape[-2] == 1:
        return _reshaped(kt, shape, made)
    permute = ttnn_op("permute", [source], {"permutation": KINDS["i64_darray"].build(order)},
                      [TensorType(kt.type.element_type, shape)], at)
    at.parent.insert_op_before(permute, at)
    return permute.results[0]


def _read_only_inside(ops: list[Operation], keep: set[Operation]) -> bool:
    inside = set(ops) | keep
    return all(use.operation in inside for op in ops for r in op.results for use in r.uses)


def _outer_product(product: TTNNOp, dead: list[Operation]) -> tuple[SSAValue, SSAValue, list[int]] | None:
    """P · V over one key, written as the elementwise product it is: P [B, H, 1, 1] times V [B, H, 1, D], P broadcast
    implicitly or repeated over the D head features (then both may be reshaped alike). (P, V, V's shape as
    [B, H, 1, D]), the ops in `dead`."""
    if product.ROW.name != "multiply":
        return None
    a, b = product.operands
    out = product.results[0].type.get_shape()
    for x, y in ((a, b), (b, a)):
        if y.type.get_shape() != out:
            continue
        shape = x.type.get_shape()
        if len(out) == 4 and len(shape) == 4 and tuple(shape[2:]) == (1, 1) and tuple(out[:3]) == (*shape[:2], 1):
            return x, y, list(out)  # broadcast implicitly
        if shape != out:
            continue
        moved = [x.owner] if _producer(x, "reshape") is not None and len(list(x.uses)) == 1 else []
        repeat = _producer(moved[0].operands[0] if moved else x, "repeat")
        if repeat is None or len(list(repeat.results[0].uses)) != 1:
            continue
        p, dims = repeat.operands[0], list(repeat.prop("repeat_dims").data)
        shape = p.type.get_shape()
        if len(shape) != 4 or tuple(shape[2:]) != (1, 1) or dims[:3] != [1, 1, 1] \
                or math.prod(out) != shape[0] * shape[1] * dims[3]:
            continue
        dead += [repeat, *moved]
        return p, y, [shape[0], shape[1], 1, dims[3]]
    return None


def fuse(product: TTNNOp) -> bool:
    """Fuse the attention whose last op is `product` (a ttnn.matmul, or the multiply P · V is over one key); whether
    it was fused. One query row per user ([B, H, 1, D]) and no mask or a [B, 1|H, 1, Sk] one: the decode kernel, on
    the query reordered to [1, B, H, D]; else the prefill one. Scalings of Q and Kᵀ by constants become its scale."""
    dead, made = [], []
    if not _matched(product, dead, made):
        erase_unread(made)
        return False
    erase_unread([product, *dead])
    return True


def _matched(product: TTNNOp, dead: list[Operation], made: list[Operation]) -> bool:
    """Whether `product` ends an attention; if so the fused op replaces it (`dead` what it leaves unread)."""
    if product.ROW.name == "matmul" and not any(scalar(product.prop(k)) is True for k in ("transpose_a", "transpose_b")):
        p, v = product.operands
        v_shape = v.type.get_shape()
    elif (found := _outer_product(product, dead)) is not None:
        p, v, v_shape = found
    else:
        return False
    softmax = _guarded_softmax(_uncast(p, dead), dead)
    if softmax is None or scalar(softmax.prop("dimension")) % 4 != 3:
        return False
    dead.append(softmax)
    scores, mask = _uncast(softmax.operands[0], dead), None
    if (add := _producer(scores, "add")) is not None:
        first, second = add.operands
        qk, mask = (first, second) if _producer(_scaled(first, [])[0], "matmul") is not None else (second, first)
        dead.append(add)
    else:
        qk = scores
    qk, s_scale = _scaled(qk, dead)
    qk_op = _producer(qk, "matmul")
    if qk_op is None or any(scalar(qk_op.prop(k)) is True for k in ("transpose_a", "transpose_b")):
        return False
    dead.append(qk_op)
    q, kt = qk_op.operands
    shapes = [q.type.get_shape(), kt.type.get_shape(), v_shape]
    if any(len(s) != 4 for s in shapes):
        return False
    q, q_scale = _peel(q, dead)
    q = _reshaped(q, shapes[0], made)
    swap = _producer(kt, "permute")
    if swap is not None and int_values(swap.prop("permutation")) == [0, 1, 3, 2] and len(list(kt.uses)) == 1:
        # Kᵀ swapped from K after K's heads were repeated: K's repeat is undone and K is the key
        dead.append(swap)
        k, k_scale = _heads(swap.operands[0], list(swap.operands[0].type.get_shape()), dead, made)
        bk, hk, sk, dk = k.type.get_shape()
    else:
        kt, k_scale = _heads(kt, shapes[1], dead, made)
        k, (bk, hk, dk, sk) = None, kt.type.get_shape()
    v, v_scale = _heads(v, shapes[2], dead, made)
    if v_scale != 1.0:
        return False
    (b, h, sq, d), (bv, hv, sv, dv) = (t.type.get_shape() for t in (q, v))
    if (bk, dk) != (b, d) or (bv, hv, sv) != (b, hk, sk) or hk == 0 or h % hk:
        return False
    if mask is not None:
        m = mask.type.get_shape()
        if len(m) != 4 or m[0] not in (1, b) or m[1] not in (1, h) or tuple(m[2:]) != (sq, sk):
            return False
    guarded = _producer(p, "where") is not None
    if guarded and mask is not None and ((found := bound(mask)) is None or found >= FINITE):
        return False
    if not _read_only_inside(dead, {product}):
        return False
    _emit(product, q, k if k is not None else _key(kt, qk_op, dead, made), v, mask, q_scale * k_scale * s_scale)
    return True


def _emit(product: TTNNOp, q: SSAValue, k: SSAValue, v: SSAValue, mask: SSAValue | None, scale: float) -> None:
    """The fused op in `product`'s place (its result reshaped and cast back to `product`'s type)."""
    from ttmlir.transforms.ttnn.ttnn_decomposition import Emitter, like

    emit, result = Emitter(product), product.results[0].type
    b, h, sq, d = q.type.get_shape()
    props = {"is_causal": KINDS["bool"].build(False), "scale": KINDS["f32"].build(scale)}
    masked = int(mask is not None)
    if sq == 1:  # decode: [1, B, H, D] queries, a [B, 1, H, Sk] mask
        query = emit.permute(q, TO_DECODE)
        mask = emit.permute(mask, DECODE_MASK) if mask is not None else None
        props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [1, 1, 1, masked, 0, 0])
        out = emit("scaled_dot_product_attention_decode", [query, k, v] + ([mask] if mask is not None else []),
                   props, query.type)
        out = emit.permute(out, [TO_DECODE.index(i) for i in range(4)])
    else:
        props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [1, 1, 1, masked, 0])
        out = emit("scaled_dot_product_attention", [q, k, v] + ([mask] if mask is not None else []), props,
                   TensorType(q.type.element_type, [b, h, sq, v.type.get_shape()[3]]))
    if out.type.element_type != result.element_type:
        out = emit("typecast", [out], {}, like(out.type, out.type.get_shape(), ttnn.data_type_of(result.element_type)))
    if out.type.get_shape() != result.get_shape():
        out = emit.reshape(out, result.get_shape())
    product.results[0].replace_all_uses_with(out)
