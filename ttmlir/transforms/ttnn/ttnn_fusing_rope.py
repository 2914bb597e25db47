"""RoPE fusions of `--ttnn-fusing enable-op-constraints` (the optimizer's pipelines): rotary position embedding
written out in TTNN ops becomes `ttnn.rotary_embedding`, and a RoPE on decode rows that is then reordered to
[1, B, H, D] becomes the decode-mode kernel (`token_index`).

Two written-out forms are recognised, both on a [B, H, S, D] tensor x with cos/sin tables [1, 1, S, D]:
- rotate-half: `x * cos + concat(-x[..., D/2:], x[..., :D/2]) * sin` (either operand order of the adds and
  multiplies);
- expanded: `concat(x1 * c - x2 * s, x2 * c + x1 * s)` with half tables c, s (they become [c, c] and [s, s]).
The kernel rotates whole tiles and reads one table row per position: D is a multiple of two tiles and the
tables hold every position of x (a table of fewer rows is broadcast by the unfused ops, not by the kernel).
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from ttmlir.ir.props import KINDS, int_values
from ttmlir.dialects.ttnn import TILE, TTNNOp
from ttmlir.transforms.ttnn.ttnn_utils import erase_unread, ttnn_op

DECODE_ORDER = (2, 0, 1, 3)  # [B, H, 1, D] -> [1, B, H, D]


def _producer(value: SSAValue, name: str) -> TTNNOp | None:
    owner = value.owner
    return owner if isinstance(owner, TTNNOp) and owner.ROW.name == name else None


def _source(value: SSAValue) -> SSAValue:
    """The value before typecasts that keep its element type (identities the canonicalizer may have left)."""
    while (cast := _producer(value, "typecast")) is not None \
            and cast.operands[0].type.element_type == value.type.element_type:
        value = cast.operands[0]
    return value


def _half(slice_op: TTNNOp | None) -> tuple[SSAValue, int] | None:
    """(x, 0) for x[..., :D/2] and (x, 1) for x[..., D/2:]: unit steps, only the last dim cut."""
    if slice_op is None or slice_op.ROW.name != "slice_static":
        return None
    x = slice_op.operands[0]
    shape = x.type.get_shape()
    begins, ends, steps = (int_values(slice_op.prop(n)) for n in ("begins", "ends", "step"))
    size = shape[-1]
    if size % 2 or any(s != 1 for s in steps) or any(b != 0 or e != d for b, e, d in
                                                     zip(begins[:-1], ends[:-1], shape[:-1])):
        return None
    half = size // 2
    cut = (begins[-1], ends[-1])
    return (_source(x), 0) if cut == (0, half) else (_source(x), 1) if cut == (half, size) else None


def _last_dim_concat(value: SSAValue) -> TTNNOp | None:
    concat = _producer(value, "concat")
    if concat is None or len(concat.operands) != 2:
        return None
    dim = int_values(concat.prop("dim"))[0]
    return concat if dim in (-1, len(value.type.get_shape()) - 1) else None


def _reordered(value: SSAValue) -> SSAValue | None:
    """u for the decode reorder of u ([B, H, 1, D] -> [1, B, H, D])."""
    owner = value.owner
    return owner.operands[0] if isinstance(owner, TTNNOp) and _decode_reorder(owner) else None


def _rotated_half_of(value: SSAValue, reordered: bool = False) -> tuple[SSAValue, list[Operation]] | None:
    """(x, the ops computing it) for concat(-x[..., D/2:], x[..., :D/2]); with `reordered`, for that concat or its two
    halves decode-reordered (where erase-inverse-ops moved the reorder of a decode RoPE's result)."""
    if reordered and (inner := _reordered(value)) is not None:
        found = _rotated_half_of(inner)
        return None if found is None else (found[0], [value.owner, *found[1]])
    concat = _last_dim_concat(value)
    if concat is None:
        return None
    halves = [_reordered(v) for v in concat.operands] if reordered else list(concat.operands)
    if None in halves:
        return None
    neg = _producer(halves[0], "neg")
    high_slice, low_slice = _producer(neg.operands[0], "slice_static") if neg is not None else None, \
        _producer(halves[1], "slice_static")
    high, low = _half(high_slice), _half(low_slice)
    if high is None or low is None or high[1] != 1 or low[1] != 0 or high[0] != low[0]:
        return None
    reorders = [v.owner for v in concat.operands] if reordered else []
    return high[0], [concat, *reorders, neg, high_slice, low_slice]


def _fits(x: SSAValue, cos: SSAValue, sin: SSAValue, out: SSAValue) -> bool:
    """What the kernel runs: rank-4 x with D a multiple of two tiles, [1, 1, S, D] tables of x's type."""
    shape, table = x.type.get_shape(), cos.type.get_shape()
    return (len(shape) == 4 and shape[-1] % (2 * TILE) == 0 and cos.type == sin.type
            and tuple(table) == (1, 1, shape[2], shape[3]) and tuple(out.type.get_shape()) == tuple(shape)
            and cos.type.element_type == x.type.element_type == out.type.element_type)


def _other(multiply: TTNNOp, value: SSAValue, seen=_source) -> SSAValue | None:
    """The operand of `multiply` beside `value` (compared as `seen` sees them: through typecasts)."""
    a, b = multiply.operands
    if seen(a) == value and seen(b) != value:
        return b
    if seen(b) == value and seen(a) != value:
        return a
    return None


def emit_before(name: str, operands, props: dict, result_type, at: Operation, inherit: bool = True) -> SSAValue:
    """A TTNN op before `at`, with `at`'s location (and its discardable attributes when it stands in for `at`)."""
    new = ttnn_op(name, operands, props, [result_type], at)
    if not inherit:
        new.attributes.clear()
    at.parent.insert_op_before(new, at)
    return new.results[0]


def _rotary(at: Operation, x: SSAValue, cos: SSAValue, sin: SSAValue, dead: list[Operation]) -> None:
    result = emit_before("rotary_embedding", [x, cos, sin], {}, at.results[0].type, at)
    at.results[0].replace_all_uses_with(result)
    erase_unread([at, *dead])


def rotate_half(add: TTNNOp) -> None:
    """x * cos + rotate_half(x) * sin -> rotary_embedding(x, cos, sin); on decode rows whose reorder to [1, B, H, D]
    comes before the products (as erase-inverse-ops leaves it) -> the decode kernel on the reordered rows."""
    for sin_side, cos_side in ((add.operands[1], add.operands[0]), (add.operands[0], add.operands[1])):
        sin_mul, cos_mul = _producer(sin_side, "multiply"), _producer(cos_side, "multiply")
        if sin_mul is None or cos_mul is None:
            continue
        for rotated, sin in ((sin_mul.operands[0], sin_mul.operands[1]), (sin_mul.operands[1], sin_mul.operands[0])):
            for reordered, seen, fits, fuse in ((False, _source, _fits, _rotary),
                                                (True, _reordered, _fits_decode, _decode_rotary),
                                                (False, _source, _fits_reordered_decode, _reordered_decode_rotary)):
                found = _rotated_half_of(rotated, reordered)
                cos = _other(cos_mul, found[0], seen) if found is not None else None
                if cos is None or not fits(found[0], cos, sin, add.results[0]):
                    continue
                pattern = [sin_mul, cos_mul, *found[1]]
                if fuse is not _rotary and _norm_read_elsewhere(found[0], pattern):
                    continue  # upstream's guard: a decode RoPE only on a per-head norm the RoPE alone reads
                fuse(add, found[0], cos, sin, pattern)
                return


def _norm_read_elsewhere(x: SSAValue, pattern: list[Operation]) -> bool:
    """Whether x is an rms_norm's result that an op outside the RoPE `pattern` reads (directly or through a move
    into the pattern)."""
    if _producer(x, "rms_norm") is None:
        return False
    inside = set(pattern)

    def reads_inside(op: Operation) -> bool:
        return op in inside or (isinstance(op, TTNNOp) and op.ROW.name in ("reshape", "permute", "typecast")
                                and all(u.operation in inside for u in op.results[0].uses))
    return not all(reads_inside(u.operation) for u in x.uses)


def _fits_decode(x: SSAValue, cos: SSAValue, sin: SSAValue, out: SSAValue) -> bool:
    """What the decode kernel runs: [B, H, 1, D] rows reordered to `out` ([1, B, H, D]) with [1, 1, 1, D] tables."""
    shape = x.type.get_shape()
    return (len(shape) == 4 and shape[2] == 1 and shape[-1] % (2 * TILE) == 0 and cos.type == sin.type
            and tuple(cos.type.get_shape()) == (1, 1, 1, shape[3])
            and tuple(out.type.get_shape()) == tuple(shape[p] for p in DECODE_ORDER)
            and cos.type.element_type == x.type.element_type == out.type.element_type)


def _fits_reordered_decode(x: SSAValue, cos: SSAValue, sin: SSAValue, out: SSAValue) -> bool:
    """What the decode kernel runs when the reorder to [1, B, H, D] already came before the RoPE (erase-inverse-ops
    moves it up, also above a per-head rms_norm): x is those decode rows (the kernel reads them as they are, nothing
    before it moves), the tables [1, 1, 1, D]."""
    norm = _producer(x, "rms_norm")
    owner, shape = (norm.operands[0] if norm is not None else x).owner, x.type.get_shape()
    return (isinstance(owner, TTNNOp) and _decode_reorder(owner) and len(shape) == 4 and shape[0] == 1
            and shape[-1] % (2 * TILE) == 0 and cos.type == sin.type
            and tuple(cos.type.get_shape()) == (1, 1, 1, shape[3]) and tuple(out.type.get_shape()) == tuple(shape)
            and cos.type.element_type == x.type.element_type == out.type.element_type)


def _reordered_decode_rotary(at: Operation, x: SSAValue, cos: SSAValue, sin: SSAValue, dead: list[Operation]) -> None:
    result = emit_before("rotary_embedding", [x, cos, sin], {"token_index": KINDS["ui32"].build(0)},
                         at.results[0].type, at)
    at.results[0].replace_all_uses_with(result)
    erase_unread([at, *dead])


def _reorder_before(value: SSAValue, at: Operation) -> SSAValue:
    """`value` permuted from [B, H, 1, D] to [1, B, H, D], before `at`."""
    from ttmlir.transforms.ttnn.ttnn_decomposition import like

    shape = value.type.get_shape()
    return emit_before("permute", [value], {"permutation": KINDS["i64_darray"].build(list(DECODE_ORDER))},
                       like(value.type, [shape[p] for p in DECODE_ORDER]), at, inherit=False)


def _decode_rotary(at: Operation, x: SSAValue, cos: SSAValue, sin: SSAValue, dead: list[Operation]) -> None:
    moved = _reorder_before(x, at)
    result = emit_before("rotary_embedding", [moved, cos, sin], {"token_index": KINDS["ui32"].build(0)},
                         at.results[0].type, at)
    at.results[0].replace_all_uses_with(result)
    erase_unread([at, *dead])


def _half_product(value: SSAValue) -> tuple[SSAValue, int, SSAValue, TTNNOp] | None:
    """(x, which half, table, multiply) for x[half] * table in either order."""
    multiply = _producer(value, "multiply")
    if multiply is None:
        return None
    for piece, table in ((multiply.operands[0], multiply.operands[1]), (multiply.operands[1], multiply.operands[0])):
        half = _half(_producer(piece, "slice_static"))
        if half is not None and _producer(table, "slice_static") is None:
            return half[0], half[1], table, multiply
    return None


def expanded(concat: TTNNOp) -> None:
    """concat(x1 * c - x2 * s, x2 * c + x1 * s) -> rotary_embedding(x, [c, c], [s, s])."""
    if _last_dim_concat(concat.results[0]) is not concat:
        return
    sub, add = _producer(concat.operands[0], "subtract"), _producer(concat.operands[1], "add")
    if sub is None or add is None:
        return
    terms = [_half_product(v) for v in (*sub.operands, *add.operands)]
    if any(t is None for t in terms) or len({t[0] for t in terms}) != 1:
        return
    (x, h0, cos, _), (_, h1, sin, _), *rest = terms
    if (h0, h1) != (0, 1) or cos == sin:
        return
    if {(h, t) for _, h, t, _ in rest} != {(1, cos), (0, sin)}:
        return
    emits = []
    shape = cos.type.get_shape()
    full = [*shape[:-1], 2 * shape[-1]]
    from ttmlir.transforms.ttnn.ttnn_decomposition import like

    tables = []
    for table in (cos, sin):
        props = {"dim": KINDS["si32"].build(len(shape) - 1)}
        tables.append(emit_before("concat", [table, table], props, like(table.type, full), concat, inherit=False))
        emits.append(tables[-1].owner)
    if not _fits(x, *tables, concat.results[0]):
        erase_unread(emits[::-1])
        return
    _rotary(concat, x, *tables, [sub, add, *(t[3] for t in terms), *(t[3].operands[0].owner for t in terms),
                                 *(t[3].operands[1].owner for t in terms)])


def _decode_reorder(op: TTNNOp) -> bool:
    """Whether `op` takes [B, H, 1, D] to [1, B, H, D]: the permute, or the reshape it folds to."""
    if op.ROW.name == "permute":
        return tuple(op.prop("permutation").get_values()) == DECODE_ORDER
    before, after = op.operands[0].type.get_shape(), op.results[0].type.get_shape()
    return (op.ROW.name == "reshape" and len(before) == 4 and before[2] == 1
            and tuple(after) == tuple(before[p] for p in DECODE_ORDER))


def decode(reorder: TTNNOp) -> None:
    """rotary_embedding on [B, H, 1, D] rows, then reordered to [1, B, H, D] -> the decode kernel on the reordered
    rows (token_index 0 of one-row tables). A per-head rms_norm that only the RoPE reads is reordered through:
    it normalizes the last dim, which the reorder keeps."""
    rope = _producer(reorder.operands[0], "rotary_embedding")
    if rope is None or rope.prop("token_index") is not None or len(list(rope.results[0].uses)) != 1 \
            or not _decode_reorder(reorder):
        return
    x, cos, sin = rope.operands[:3]
    if len(x.type.get_shape()) != 4 or x.type.get_shape()[2] != 1 or cos.type.get_shape()[-2] != 1:
        return
    norm = _producer(x, "rms_norm")
    folds = norm is not None and len(list(x.uses)) == 1
    if not folds and _normalized_upstream(x):
        return  # a norm behind other ops: reordering its input is not known to keep its values
    moved = _reorder_before(norm.operands[0] if folds else x, rope)
    if folds:
        new_norm = ttnn_op("rms_norm", [moved, *norm.operands[1:]], dict(norm.properties), [moved.type], norm)
        rope.parent.insert_op_before(new_norm, rope)
        moved = new_norm.results[0]
    props = {"token_index": KINDS["ui32"].build(0), **{k: v for k, v in rope.properties.items() if k != "token_index"}}
    result = emit_before("rotary_embedding", [moved, cos, sin], props, reorder.results[0].type, rope)
    reorder.results[0].replace_all_uses_with(result)
    erase_unread([reorder, rope, *([norm] if folds else [])])


def _normalized_upstream(value: SSAValue) -> bool:
    while isinstance(value.owner, TTNNOp) and value.owner.ROW.name in ("typecast", "permute", "reshape", "repeat"):
        value = value.owner.operands[0]
    return isinstance(value.owner, TTNNOp) and value.owner.ROW.name in ("rms_norm", "distributed_rms_norm")
