"""Split-QKV fusion of `--ttnn-fusing enable-op-constraints`: three projections of one input (matmuls or linears
alike), each split into heads by a reshape to [B, S, heads, D] and a permute to [B, heads, S, D], become one
projection onto the three weights joined (and their biases) and `ttnn.split_query_key_value_and_split_heads`.

The query is the projection with the most heads (the first of equals); the key is the other one a RoPE reads (else
the first in program order), then the value; key and value have as many heads as each other. The joined weight lists the query's columns first, as the kernel reads them.
"""

from __future__ import annotations

from collections import defaultdict

from xdsl.ir import Block, Operation, SSAValue

from ttmlir.ir.props import KINDS, scalar
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.transforms.ttnn.ttnn_fusing_rope import emit_before
from ttmlir.transforms.ttnn.ttnn_utils import erase_unread, ttnn_op

HEADS_ORDER = (0, 2, 1, 3)  # [B, S, heads, D] -> [B, heads, S, D]


def _only_user(value: SSAValue) -> TTNNOp | None:
    uses = list(value.uses)
    owner = uses[0].operation if len(uses) == 1 else None
    return owner if isinstance(owner, TTNNOp) else None


def _heads(projection: TTNNOp) -> tuple[TTNNOp, TTNNOp] | None:
    """The reshape to [B, S, heads, D] (last of a chain) and the permute to [B, heads, S, D] splitting the
    projection's result."""
    reshape, permute = None, _only_user(projection.results[0])
    while permute is not None and permute.ROW.name == "reshape":  # a reshape chain ends in the [B, S, heads, D] one
        reshape, permute = permute, _only_user(permute.results[0])
    if reshape is None or permute is None or permute.ROW.name != "permute" \
            or tuple(permute.prop("permutation").get_values()) != HEADS_ORDER:
        return None
    rows, split = projection.results[0].type.get_shape(), reshape.results[0].type.get_shape()
    if len(split) != 4 or split[0] * split[1] != _volume(rows[:-1]) or split[2] * split[3] != rows[-1]:
        return None
    return reshape, permute


def _rotated(permute: TTNNOp) -> bool:
    return any(isinstance(u.operation, TTNNOp) and u.operation.ROW.name == "rotary_embedding"
               for u in permute.results[0].uses)


def _chains(projections: list[TTNNOp]) -> list[Operation]:
    """The reshapes between each projection and its last reshape, readers first."""
    found = []
    for projection in projections:
        user = _only_user(projection.results[0])
        while user is not None and user.ROW.name == "reshape" and user.results[0].uses:
            found.append(user)
            user = _only_user(user.results[0])
    return found[::-1]


def _volume(shape) -> int:
    out = 1
    for d in shape:
        out *= d
    return out


def _signature(op: TTNNOp):
    """What the three projections must share to be one: input, flags, weight rank and result type's element."""
    flags = tuple(scalar(op.prop(n)) if op.prop(n) is not None else False for n in ("transpose_a", "transpose_b"))
    return (op.operands[0], op.name, flags, op.prop("activation"), op.operands[1].type.get_num_dims(),
            op.results[0].type.element_type)


def _defined_before(value: SSAValue, op: Operation, position: dict[Operation, int]) -> bool:
    """Whether `value` is defined before `op` in its block. `position`: the block's ops' positions before any
    fusion (what fusions insert leaves the order of the others as it was), so a group costs no walk of the block;
    an op made since has none and its position is looked up."""
    owner = value.owner
    if isinstance(owner, Block):
        return owner is op.parent
    if owner.parent is not op.parent:
        return False
    if owner in position and op in position:
        return position[owner] < position[op]
    return op.parent.get_operation_index(owner) < op.parent.get_operation_index(op)


def split_qkv(block: Block) -> None:
    groups: dict = defaultdict(list)
    position = {}
    for op in block.ops:
        position[op] = len(position)
        if isinstance(op, TTNNOp) and op.ROW.name in ("matmul", "linear") and _heads(op) is not None:
            groups[_signature(op)].append(op)
    for projections in groups.values():
        if len(projections) == 3:
            _fuse(projections, position)


def _fuse(projections: list[TTNNOp], position: dict[Operation, int]) -> None:
    from ttmlir.transforms.ttnn.ttnn_decomposition import like

    splits = [_heads(p) for p in projections]
    heads = [reshape.results[0].type.get_shape() for reshape, _ in splits]
    query = max(range(3), key=lambda i: (heads[i][2], -i))
    # the key is the one of the other two that a RoPE reads (the value is never rotated)
    order = [query, *sorted((i for i in range(3) if i != query), key=lambda i: not _rotated(splits[i][1]))]
    (batch, seq, q_heads, size), (_, _, kv_heads, kv_size), (*_, v_heads, v_size) = (heads[i] for i in order)
    if kv_heads != v_heads or not size == kv_size == v_size:
        return
    first = projections[0]
    operands = [v for p in projections for v in p.operands[1:]]
    if not all(_defined_before(v, first, position) for v in operands):
        return
    transpose_b = bool(first.prop("transpose_b") is not None and scalar(first.prop("transpose_b")))
    width = (q_heads + 2 * kv_heads) * size

    def joined(values: list[SSAValue], dim: int) -> SSAValue:
        shape = list(values[0].type.get_shape())
        shape[dim] = sum(v.type.get_shape()[dim] for v in values)
        return emit_before("concat", values, {"dim": KINDS["si32"].build(dim)}, like(values[0].type, shape), first,
                     inherit=False)

    weights = [projections[i].operands[1] for i in order]
    rank = weights[0].type.get_num_dims()
    parts = [joined(weights, rank - 2 if transpose_b else rank - 1)]
    if first.ROW.name == "linear" and len(first.operands) > 2:
        biases = [projections[i].operands[2] for i in order]
        if len({b.type.get_num_dims() for b in biases}) != 1:
            erase_unread([parts[0].owner])
            return
        parts.append(joined(biases, biases[0].type.get_num_dims() - 1))
    rows = first.results[0].type.get_shape()
    fused = emit_before(first.ROW.name, [first.operands[0], *parts], dict(first.properties),
                  like(first.results[0].type, [*rows[:-1], width]), first)
    flat = emit_before("reshape", [fused], {"shape": KINDS["i32_array"].build([batch, seq, width])},
                 like(fused.type, [batch, seq, width]), first, inherit=False)
    permutes = [splits[i][1] for i in order]
    props = {"num_heads": KINDS["ui32"].build(q_heads), "num_kv_heads": KINDS["ui32"].build(kv_heads),
             "transpose_key": KINDS["bool"].build(False)}
    split = ttnn_op("split_query_key_value_and_split_heads", [flat], props, [p.results[0].type for p in permutes],
                    first)
    first.parent.insert_op_before(split, first)
    for permute, result in zip(permutes, split.results):
        permute.results[0].replace_all_uses_with(result)
    erase_unread([*permutes, *(reshape for reshape, _ in splits), *_chains(projections), *projections])
