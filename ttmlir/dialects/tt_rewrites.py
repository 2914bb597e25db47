"""The folds and rewrites of the tt ops (TTIR and TTNN) that `--canonicalize` applies: each a function of the op,
returning the value or the new ops that replace it, or None (upstream's op folders and canonicalization patterns)."""

from __future__ import annotations

from typing import Callable

import numpy as np
from xdsl.dialects.builtin import (AnyFloat, DenseIntOrFPElementsAttr, FloatAttr, Float32Type, IntegerAttr, IntegerType, Signedness,
                                   TensorType)
from xdsl.ir import Attribute, Operation, SSAValue

from ttmlir.dialects import ttcore, ttnn_attrs
from ttmlir.dialects.constant_fold import constant_array, materialize
from ttmlir.ir.props import KINDS, conv3d_dims, int_triple, int_values
from ttmlir.ir.syntax import enum
from ttmlir.dialects.ttcore import registered_mesh
from ttmlir.ir.canonicalization import sibling


Fold = Callable[[Operation], SSAValue | None]
INT32_RANGE = (-(1 << 31), (1 << 31) - 1)
# new ops replacing the op (its results replaced by the last ones'), or new ops and the values replacing its results
Rewrite = Callable[[Operation], list[Operation] | tuple[list[Operation], list[SSAValue]] | None]


def is_splat(value: DenseIntOrFPElementsAttr) -> bool:
    """Every element the same, compared as bytes (a model's weights are not unpacked to find out)."""
    data, size = value.data.data, value.get_element_type().compile_time_size
    return len(data) >= size and data == data[:size] * (len(data) // size)


def splat_fill_value(value: Attribute) -> Attribute | None:
    """The `fill_value` of a full op equal to a splat constant: an i32 (saturated) or an f32, as upstream
    converts it."""
    if not isinstance(value, DenseIntOrFPElementsAttr) or not is_splat(value):
        return None
    element = value.get_element_type()
    first = element.unpack(value.data.data[:element.compile_time_size], 1)[0]
    if isinstance(element, IntegerType):
        if element.signedness.data == Signedness.UNSIGNED or element.width.data == 1:
            first &= (1 << min(element.width.data, 32)) - 1
        else:  # wider signed values saturate
            first = min(max(first, INT32_RANGE[0]), INT32_RANGE[1])
        return IntegerAttr(first, 32)
    return FloatAttr(float(first), Float32Type())


def input_if_same_type(op: Operation) -> SSAValue | None:
    """An op whose result has its input's type and that changes nothing then (reshape to the same shape,
    repeat by ones, typecast to the same type, ...)."""
    if len(op.operands) == 1 and op.operands[0].type == op.results[0].type:
        return op.operands[0]
    return None


def cast_back(op: Operation) -> SSAValue | None:
    """A cast of a cast back to the type it started from (ttnn -> metal -> ttnn or metal -> ttnn -> metal)."""
    inner = op.operands[0].owner
    if getattr(inner, "name", None) == op.name and inner.operands[0].type == op.results[0].type:
        return inner.operands[0]
    return None


def sole_nonempty_input(op: Operation) -> SSAValue | None:
    """A concat of one input and empty ones is that input."""
    shape = op.results[0].type.get_shape()
    dim = int_values(op.prop("dim"))[0] % len(shape) if shape else 0
    pieces = [v for v in op.operands if not shape or v.type.get_shape()[dim] != 0]
    return pieces[0] if len(pieces) == 1 and pieces[0].type == op.results[0].type else None


def all_empty_concat(op: Operation) -> SSAValue | None:
    """A concat of empty inputs is its first input (as empty as the result)."""
    first = op.operands[0]
    return first if 0 in op.results[0].type.get_shape() and first.type == op.results[0].type else None


def identity_permute(op: Operation) -> SSAValue | None:
    perm = int_values(op.prop("permutation"))
    return op.operands[0] if perm == list(range(len(perm))) else None


def whole_slice(op: Operation) -> SSAValue | None:
    steps = int_values(op.prop("step"))
    return (input_if_same_type(op) or _concat_piece(op)) if all(s > 0 for s in steps) else None


def _concat_piece(op: Operation) -> SSAValue | None:
    """A unit-step slice of a concat that takes exactly one of its inputs is that input."""
    concat = op.operands[0].owner
    if not isinstance(concat, Operation) or concat.name != op.name.split(".")[0] + ".concat":
        return None
    shape = op.operands[0].type.get_shape()
    dim = int_values(concat.prop("dim"))[0] % len(shape)
    begins, ends, steps = (int_values(op.prop(n)) for n in ("begins", "ends", "step"))
    begins = [b % s if b < 0 else b for b, s in zip(begins, shape)]
    ends = [e % s if e < 0 else e for e, s in zip(ends, shape)]
    if any(s != 1 for s in steps) or any((b, e) != (0, n) for d, (b, e, n) in enumerate(zip(begins, ends, shape))
                                        if d != dim):
        return None
    start = 0
    for piece in concat.operands:
        size = piece.type.get_shape()[dim]
        if (begins[dim], ends[dim]) == (start, start + size) and piece.type == op.results[0].type:
            return piece
        start += size
    return None


def _producer(op: Operation, name: str, only_use: bool = False) -> Operation | None:
    """The op of this name making `op`'s input (with `only_use`, only if nothing else reads its result)."""
    owner = op.operands[0].owner
    if not isinstance(owner, Operation) or owner.name != name:
        return None
    return owner if not only_use or owner.results[0].has_one_use() else None


def _with(op: Operation, operands: list[SSAValue], **props: Attribute) -> Operation:
    new = type(op).create(operands=operands, result_types=[r.type for r in op.results],
                          properties={**op.properties, **props}, attributes=dict(op.attributes))
    new.location = op.location
    return new


def _as_ttir(op: Operation, name: str, operands: list[SSAValue], properties: dict | None = None) -> list[Operation]:
    """`op` rewritten as the TTIR op `name` of the same result type and attributes."""

    new = sibling(op, name).create(operands=operands, result_types=[op.results[0].type],
                                       properties=properties or {}, attributes=dict(op.attributes))
    new.location = op.location
    return [new]


def consecutive_reshape(op: Operation) -> list[Operation] | None:
    inner = _producer(op, op.name)
    return [_with(op, [inner.operands[0]])] if inner is not None else None


def consecutive_permute(op: Operation) -> list[Operation] | None:
    inner = _producer(op, op.name, only_use=True)  # a permute still needed elsewhere is not done twice
    if inner is None:
        return None
    outer_perm, inner_perm = int_values(op.prop("permutation")), int_values(inner.prop("permutation"))
    composed = [inner_perm[p] for p in outer_perm]
    return [_with(op, [inner.operands[0]], permutation=KINDS["i64_darray"].build(composed))]


def permute_as_reshape(op: Operation) -> list[Operation] | None:
    """A TTNN permute that moves only size-1 dimensions keeps every element in place: it is a reshape."""
    if not op.name.startswith("ttnn."):
        return None
    shape, perm = op.operands[0].type.get_shape(), int_values(op.prop("permutation"))
    moved = [d for d in perm if shape[d] != 1]
    if moved != sorted(moved) or perm == sorted(perm):
        return None
    result = op.results[0].type
    new = sibling(op, "reshape").create(operands=[op.operands[0]], result_types=[result],
                                            properties={"shape": KINDS["i32_array"].build(list(result.get_shape()))},
                                            attributes=dict(op.attributes))
    new.location = op.location
    return [new]


def consecutive_repeat(op: Operation) -> list[Operation] | None:
    inner = _producer(op, op.name, only_use=True)
    if inner is None or op.name != "ttir.repeat":
        return None
    dims = [a * b for a, b in zip(int_values(op.prop("repeat_dimensions")), int_values(inner.prop("repeat_dimensions")))]
    return [_with(op, [inner.operands[0]], repeat_dimensions=KINDS["i64_darray"].build(dims))]


FLOAT_FORMATS = {"f64": (11, 52), "f32": (8, 23), "bf16": (8, 7), "f16": (5, 10)}  # exponent, mantissa bits


def _narrowing(source: Attribute, target: Attribute) -> bool:
    """Whether a cast from `source` to `target` element type may lose information (ttcore's rule)."""
    src_float, dst_float = str(source) in FLOAT_FORMATS, str(target) in FLOAT_FORMATS
    if src_float:
        return not dst_float or any(s > d for s, d in zip(FLOAT_FORMATS[str(source)], FLOAT_FORMATS[str(target)]))
    signed = source.signedness.data != Signedness.UNSIGNED
    if dst_float:
        return source.width.data - signed > FLOAT_FORMATS[str(target)][1]
    target_signed = target.signedness.data != Signedness.UNSIGNED
    if signed == target_signed:
        return source.width.data > target.width.data
    return signed or source.width.data >= target.width.data  # signed to unsigned always narrows


def consecutive_typecast(op: Operation) -> list[Operation] | None:
    """Two casts in a row are one, unless either asks for conservative folding and the pair may lose what one
    cast keeps: a narrowing cast undone by a widening one, or float to integer to float (truncation)."""
    inner = _producer(op, op.name)
    if inner is None:
        return None
    if op.name.startswith("ttnn."):  # TTNN casts have no conservative mode; a cast still read elsewhere stays
        return [_with(op, [inner.operands[0]])] if inner.results[0].has_one_use() else None
    conservative = [bool(o.prop("conservative_folding") and o.prop("conservative_folding").value.data)
                    for o in (op, inner)]
    types = [inner.operands[0].type.element_type, op.operands[0].type.element_type, op.results[0].type.element_type]
    if any(conservative):
        is_float = [str(t) in FLOAT_FORMATS for t in types]
        if (is_float[0] and not is_float[1] and is_float[2]) or \
                (_narrowing(types[0], types[1]) and not _narrowing(types[1], types[2])):
            return None
    return [_with(op, [inner.operands[0]], conservative_folding=KINDS["bool"].build(all(conservative)))]


def consecutive_layout_change(op: Operation) -> list[Operation] | None:
    """A layout op reading another of its kind goes from that one's input at once, except where the first
    parks the tensor in DRAM, other ops run, and the second brings it to L1 (deliberate staging) with more
    than a data type changed."""
    inner = _producer(op, op.name)
    if inner is None or not op.name.startswith("ttnn."):
        return None
    first, staged, wanted = (v.type.encoding for v in (inner.operands[0], inner.results[0], op.results[0]))
    if inner.next_op is not op and staged.buffer_type == "dram" and wanted.buffer_type == "l1" and \
            (first.buffer_type, first.memory_layout, first.is_tiled) != \
            (wanted.buffer_type, wanted.memory_layout, wanted.is_tiled):
        return None
    return [_with(op, [inner.operands[0]])]


CREATIONS = frozenset({"empty", "rand", "arange", "zeros", "ones", "full", "constant"})


def created_as_converted(op: Operation) -> list[Operation] | None:
    """A TTNN layout change that is a fresh tensor's only reader: the tensor is created as it wants it (data type,
    page layout, buffer), on the device the function holds or on the host; an empty tensor made on the host is
    zeros (only the device allocates without filling), random values come from the device only."""
    source, target = op.operands[0].owner, op.results[0].type
    if not op.name.startswith("ttnn.") or not isinstance(source, Operation) or not source.name.startswith("ttnn.") \
            or source.name[5:] not in CREATIONS or not source.results[0].has_one_use() \
            or not isinstance(target.encoding, ttnn_attrs.TTNNLayoutAttr):
        return None
    layout, kind = target.encoding, source.name[5:]
    on_host = layout.buffer_type == "system_memory"
    if on_host and kind == "rand" or kind == "constant" and \
            isinstance(source.prop("value").type.element_type, AnyFloat) != isinstance(target.element_type, AnyFloat):
        return None  # (a constant's values are stored as floats or integers, as its result type says)
    if kind == "full" and len(target.get_shape()) == 1 and layout.is_tiled:
        return None  # ttnn.full makes no rank-1 tiles (--ttnn-workaround fills row-major and tilizes)
    kind = "zeros" if on_host and kind == "empty" else kind
    devices = [o for o in source.operands if isinstance(o.type, ttnn_attrs.DeviceType)] or \
        [o.results[0] for o in op.parent.ops if o.name == "ttnn.get_device"][:1]
    if not on_host and not devices:
        return None
    props = {k: v for k, v in source.properties.items() if k not in ("dtype", "layout", "memory_config")}
    if kind != "constant":  # a constant is what its result type says, as upstream's has no such attributes
        props["dtype"] = enum(ttcore.DataTypeAttr, layout.data_type)
        props["layout"] = enum(ttnn_attrs.LayoutAttr, "tile" if layout.is_tiled else "row_major")
    if not on_host and kind != "constant":
        props["memory_config"] = ttnn_attrs.MemoryConfigAttr(ttnn_attrs.MemoryConfig(
            enum(ttnn_attrs.BufferTypeAttr, layout.buffer_type), layout.memory_layout))
    new = sibling(op, kind).create(operands=[] if on_host else devices[:1], result_types=[target],
                                            properties=props, attributes=dict(source.attributes))
    new.location = source.location
    return [new]


def _element(value: SSAValue) -> Attribute:
    return value.type.element_type


def lossless_cast_round_trip(op: Operation) -> list[Operation] | None:
    """to_tensor_spec back to the data type a widening typecast started from reads the typecast's input."""
    cast = _producer(op, "ttnn.typecast")
    if cast is None or _element(cast.operands[0]) != _element(op.results[0]) or \
            _narrowing(_element(cast.operands[0]), _element(op.operands[0])):
        return None
    return [_with(op, [cast.operands[0]])]


# TTIR ops whose every value is 0 or 1.
BOOLEAN_VALUED = {"ttir.eq", "ttir.ne", "ttir.ge", "ttir.gt", "ttir.le", "ttir.lt", "ttir.logical_and", "ttir.logical_or",
                  "ttir.logical_xor", "ttir.logical_not", "ttir.isfinite"}


def _boolean_valued(value: SSAValue) -> bool:
    element = value.type.element_type
    if isinstance(element, IntegerType) and element.width.data == 1:
        return True
    owner = value.owner
    if not isinstance(owner, Operation):
        return False
    if owner.name in ("ttir.zeros", "ttir.ones"):
        return True
    fill = owner.prop("fill_value") if owner.name == "ttir.full" else None
    return owner.name in BOOLEAN_VALUED or (fill is not None and fill.value.data in (0, 1))


def boolean_prod_to_min(op: Operation) -> list[Operation] | None:
    """The product of 0/1 values is their minimum (a logical and), without prod's costly permutes."""
    if not op.name.startswith("ttir.") or not _boolean_valued(op.operands[0]):
        return None
    return _as_ttir(op, "min", [op.operands[0]], dict(op.properties))


def splat_constant_to_full(op: Operation) -> list[Operation] | None:
    """A splat constant is a full op: no element data to carry (upstream canonicalizes it the same way)."""
    fill = splat_fill_value(op.prop("value"))
    if fill is None:
        return None

    result = op.results[0].type
    if op.name == "ttir.constant":
        props = {"shape": KINDS["i32_darray"].build(list(result.get_shape())), "fill_value": fill}
        full = sibling(op, "full")
    else:
        props = {**{k: v for k, v in op.properties.items() if k != "value"},
                 "shape": ttnn_attrs.ShapeAttr(tuple(result.get_shape())), "fill_value": fill}
        full = sibling(op, "full")
    new = full.create(operands=list(op.operands), result_types=[result], properties=props,
                      attributes=dict(op.attributes))
    new.location = op.location
    return [new]


def flipped_comparison(op: Operation) -> list[Operation] | None:
    """lt(a, b) is gt(b, a) and le(a, b) is ge(b, a): TTIR keeps only the greater-than forms."""
    if not op.name.startswith("ttir."):
        return None
    return _as_ttir(op, {"lt": "gt", "le": "ge"}[op.name.split(".")[1]], [op.operands[1], op.operands[0]])


def constant_fill(value: SSAValue) -> float | int | None:
    """The one value of a TTIR full op or splat constant (also through reshapes, broadcasts and typecasts)."""
    owner = value.owner
    while isinstance(owner, Operation) and owner.name in ("ttir.reshape", "ttir.broadcast", "ttir.typecast"):
        owner = owner.operands[0].owner
    if not isinstance(owner, Operation):
        return None
    fill = owner.prop("fill_value") if owner.name == "ttir.full" else \
        splat_fill_value(owner.prop("value")) if owner.name == "ttir.constant" else None
    return None if fill is None else fill.value.data


def clamp_by_constants(op: Operation) -> list[Operation] | None:
    """clamp_tensor between two constants is clamp_scalar, its bounds f32 (float data) or i32 (integer data,
    truncated toward zero and saturated), as upstream canonicalizes it."""
    if not op.name.startswith("ttir."):
        return None

    bounds = [constant_fill(v) for v in op.operands[1:]]
    if None in bounds:
        return _clamp_bounds_broadcast(op)

    if isinstance(op.results[0].type.element_type, IntegerType):
        element = op.results[0].type.element_type
        if element.signedness.data == Signedness.UNSIGNED:
            # an unsigned bound is its bit pattern in the i32 (ui32's 4294967293 reads back as -3): read it unsigned
            # and store the pattern; saturating it to the signed range would clamp every larger value to 0
            mask = (1 << min(element.width.data, 32)) - 1
            props = {n: IntegerAttr(int(b) & mask, 32) for n, b in zip(("min", "max"), bounds)}
        else:
            props = {n: IntegerAttr(min(max(int(b), INT32_RANGE[0]), INT32_RANGE[1]), 32)
                     for n, b in zip(("min", "max"), bounds)}
    else:
        props = {n: FloatAttr(float(b), Float32Type()) for n, b in zip(("min", "max"), bounds)}
    return _as_ttir(op, "clamp_scalar", [op.operands[0]], props)


def _clamp_bounds_broadcast(op: Operation) -> list[Operation] | None:
    """Bounds of another shape than the result are broadcast to it (a lower-rank bound's dims first, then ones,
    as upstream unsqueezes it)."""

    shape = list(op.results[0].type.get_shape())
    if all(list(v.type.get_shape()) == shape for v in op.operands[1:]):
        return None
    new_ops: list[Operation] = []
    bounds = []
    for bound in op.operands[1:]:
        own = list(bound.type.get_shape())
        if own != shape:
            if len(own) != len(shape):
                own = own + [1] * (len(shape) - len(own))
                new_ops.append(sibling(op, "reshape").create(
                    operands=[bound], result_types=[TensorType(bound.type.element_type, own)],
                    properties={"shape": KINDS["i32_array"].build(own)}))
                bound = new_ops[-1].results[0]
            new_ops.append(sibling(op, "broadcast").create(
                operands=[bound], result_types=[TensorType(bound.type.element_type, shape)],
                properties={"broadcast_dimensions": KINDS["i64_darray"].build(
                    [t if o == 1 else 1 for o, t in zip(own, shape)])}))
            bound = new_ops[-1].results[0]
        bounds.append(bound)
    new_ops.append(sibling(op, "clamp_tensor").create(operands=[op.operands[0], *bounds],
                                                          result_types=[op.results[0].type],
                                                          attributes=dict(op.attributes)))
    for new in new_ops:
        new.location = op.location
    return new_ops


def broadcast_within_one_chip(op: Operation) -> SSAValue | None:
    """No replica group, or groups of one chip: nothing is sent."""
    groups, size = op.prop("replica_groups").type.get_shape()
    return op.operands[0] if groups < 1 or size <= 1 else None


def collective_within_one_chip(op: Operation) -> SSAValue | None:
    """A TTNN collective along a mesh axis of one chip exchanges nothing (when it keeps the shape)."""

    mesh = registered_mesh(op) if op.name.startswith("ttnn.") else None
    axis = op.prop("cluster_axis").value.data
    if not mesh or not 0 <= axis < len(mesh) or mesh[axis] != 1 or \
            op.operands[0].type.get_shape() != op.results[0].type.get_shape():
        return None
    return op.operands[0]


def unsplit_mesh_shard(op: Operation) -> SSAValue | None:
    """A device mesh_shard whose shard shape is all ones splits nothing: the tensor itself (upstream's fold)."""
    if op.prop("shard_type").data.value != "devices" or any(d != 1 for d in int_values(op.prop("shard_shape"))) or \
            op.operands[0].type != op.results[0].type:
        return None
    return op.operands[0]


def pointwise_conv3d(op: Operation) -> list[Operation] | None:
    """A 1x1x1 NDHWC conv3d with unit stride, no padding and one group is a matmul (a linear with its bias) of
    the (N*D*H*W, C_in) input rows by the transposed (C_out, C_in) weight, as upstream canonicalizes it."""

    if not op.name.startswith("ttir.") or conv3d_dims(op) != [0, 1, 2, 3, 4] or op.prop("groups").value.data != 1:
        return None
    weight, groups = op.operands[1].type, op.operand_groups()
    if list(weight.get_shape()[2:]) != [1, 1, 1] or int_triple(op, "stride") != [1, 1, 1] or \
            int_triple(op, "padding") != [0, 0, 0]:
        return None
    made: list[Operation] = []

    def new(name: str, operands, dims, element, **props: Attribute) -> SSAValue:
        made.append(sibling(op, name).create(operands=list(operands), result_types=[TensorType(element, dims)],
                                                 properties=props))
        made[-1].location = op.location
        return made[-1].results[0]

    def reshaped(value: SSAValue, shape) -> SSAValue:
        return new("reshape", [value], shape, value.type.element_type, shape=KINDS["i32_array"].build(list(shape)))

    shape, result = op.operands[0].type.get_shape(), op.results[0].type
    rows, c_out = shape[0] * shape[1] * shape[2] * shape[3], weight.get_shape()[0]
    operands = [reshaped(op.operands[0], [rows, shape[4]]), reshaped(op.operands[1], [c_out, shape[4]])]
    if groups.get("bias"):
        operands.append(reshaped(groups["bias"][0], [c_out]))
    transposed = {"transpose_a": KINDS["bool"].build(False), "transpose_b": KINDS["bool"].build(True)}
    product = new("linear" if len(operands) == 3 else "matmul", operands, [rows, c_out], result.element_type,
                  **transposed)
    reshaped(product, result.get_shape())
    return made


def update_cache_as_paged(op: Operation) -> list[Operation] | None:
    """A TTIR update_cache of every user of the cache at one position is a paged_update_cache without a page
    table: its [1, heads, users, dim] input permuted to [1, users, heads, dim] and the position repeated per
    user, as upstream canonicalizes it."""

    cache, update, index = op.operands
    users, shape = cache.type.get_shape()[0], update.type.get_shape()
    if not op.name.startswith("ttir.") or op.prop("batch_offset").value.data != 0 or shape[2] != users or \
            index.type.get_shape() != (1,):
        return None
    made = [sibling(op, "permute").create(
        operands=[update], properties={"permutation": KINDS["i64_darray"].build([0, 2, 1, 3])},
        result_types=[TensorType(update.type.element_type, [1, users, shape[1], shape[3]])])]
    if users != 1:
        made.append(sibling(op, "repeat").create(
            operands=[index], properties={"repeat_dimensions": KINDS["i64_darray"].build([users])},
            result_types=[TensorType(index.type.element_type, [users])]))
    made.append(sibling(op, "paged_update_cache").create(
        operands=[cache, made[0].results[0], made[-1].results[0] if users != 1 else index],
        properties={"share_cache": KINDS["bool"].build(False)}))
    for new in made:
        new.location = op.location
    return made


def ttir_only(fold):
    """`fold` applied to the TTIR op only (upstream's TTNN op of the same name does not have it)."""
    return lambda op: fold(op) if op.name.startswith("ttir.") else None


def _same_op_inner(op: Operation) -> Operation | None:
    """The op of the same kind making `op`'s input, when both keep one type throughout."""
    inner = _producer(op, op.name)
    types = {op.operands[0].type, op.results[0].type}
    return inner if inner is not None and {inner.operands[0].type, inner.results[0].type} == types \
        and len(types) == 1 else None


def idempotent(op: Operation) -> SSAValue | None:
    """f(f(x)) = f(x) for relu, abs, ceil, ..."""
    return op.operands[0] if _same_op_inner(op) is not None else None


def involution(op: Operation) -> SSAValue | None:
    """f(f(x)) = x for neg, bitwise_not, reciprocal."""
    inner = _same_op_inner(op)
    return inner.operands[0] if inner is not None else None


def binary_idempotent(op: Operation) -> SSAValue | None:
    """f(x, x) = x for min, bitwise and/or, and logical and/or of 0/1 values (of others it is 0/1, not x)."""
    lhs, rhs = op.operands
    if lhs is not rhs or lhs.type != op.results[0].type or (op.name.split(".")[1].startswith("logical") and
                                                             not _boolean_valued(lhs)):
        return None
    return lhs


def _constant_fill_of(value: SSAValue):

    array = constant_array(value)
    return array.item() if array is not None and array.ndim == 0 else None


def logical_identity(op: Operation) -> SSAValue | None:
    """and(nonzero, x) and or(zero, x) are x when x is 0/1."""
    absorbing = op.name.endswith("logical_or")
    for constant, other in (op.operands, op.operands[::-1]):
        fill = _constant_fill_of(constant)
        if fill is not None and bool(fill) != absorbing and _boolean_valued(other) and other.type == op.results[0].type:
            return other
    return None


def where_by_constant(op: Operation) -> SSAValue | None:
    """where(nonzero, x, y) is x and where(zero, x, y) is y."""
    fill = _constant_fill_of(op.operands[0])
    chosen = None if fill is None else op.operands[1 if fill else 2]
    return chosen if chosen is not None and chosen.type == op.results[0].type else None


def constant_result(op: Operation) -> list[Operation] | None:
    """Ops whose result is known without their other operand: and(0, x), or(1, x), xor(x, x), eq(x, x), ..."""

    if not op.name.startswith("ttir."):
        return None
    short, (lhs, rhs) = op.name.split(".")[1], op.operands
    element = lhs.type.element_type
    if lhs is rhs and (short == "bitwise_xor" or short in ("eq", "ne", "ge", "gt") and (
            isinstance(element, IntegerType) or _boolean_valued(lhs))):  # a float NaN is not equal to itself
        return materialize(op, np.array(int(short in ("eq", "ge"))))
    if short in ("logical_and", "logical_or"):
        fills = [_constant_fill_of(v) for v in (lhs, rhs)]
        if any(f is not None and bool(f) == (short == "logical_or") for f in fills):
            return materialize(op, np.array(int(short == "logical_or")))
    return None


def topk_of_one(op: Operation) -> tuple[list[Operation], list[SSAValue]] | None:
    """The top 1 of a dimension of size 1 is the input, at index 0."""

    shape = op.operands[0].type.get_shape()
    if not op.name.startswith("ttir.") or shape[op.prop("dim").value.data % len(shape)] != 1 or \
            op.results[0].type != op.operands[0].type:
        return None
    zeros = materialize(op, np.array(0), op.results[1].type)
    return zeros, [op.operands[0], zeros[0].results[0]]


def identity_pool(op: Operation) -> SSAValue | None:
    """A 1x1 pool with unit stride and dilation and no padding leaves every value where it is."""
    if not op.name.startswith("ttir."):
        return None
    props = [int_values(op.prop(n)) for n in ("kernel", "stride", "dilation")]
    if any(any(v != 1 for v in p) for p in props) or any(int_values(op.prop("padding"))) or \
            op.operands[0].type != op.results[0].type:
        return None
    return op.operands[0]


def clamp_of_clamp(op: Operation) -> list[Operation] | None:
    """A clamp of a clamp read nowhere else is one clamp between the tighter bounds."""
    inner = _producer(op, op.name, only_use=True)
    if inner is None or not op.name.startswith("ttir."):
        return None
    low, high = (op.prop(n) for n in ("min", "max"))
    bounds = {"min": max(low.value.data, inner.prop("min").value.data),
              "max": min(high.value.data, inner.prop("max").value.data)}
    props = {n: type(a)(type(a.value.data)(bounds[n]), a.type) for n, a in (("min", low), ("max", high))}
    return [_with(op, [inner.operands[0]], **props)]


def clamp_as_relu6(op: Operation) -> list[Operation] | None:
    """clamp(x, 0, 6) is relu6."""
    if not op.name.startswith("ttir.") or (op.prop("min").value.data, op.prop("max").value.data) != (0, 6):
        return None
    return _as_ttir(op, "relu6", [op.operands[0]])


def transpose_as_permute(op: Operation) -> list[Operation] | None:
    """A transpose is the permute swapping its two dims (TTIR keeps one form)."""
    if not op.name.startswith("ttir."):
        return None
    rank = len(op.operands[0].type.get_shape())
    perm = list(range(rank))
    a, b = (op.prop(n).value.data % rank for n in ("dim0", "dim1"))
    perm[a], perm[b] = perm[b], perm[a]
    return _as_ttir(op, "permute", [op.operands[0]], {"permutation": KINDS["i64_darray"].build(perm)})


def consecutive_reverse(op: Operation) -> list[Operation] | None:
    """Reversing twice along a dim undoes it: one reverse along the dims reversed an odd number of times."""
    inner = _producer(op, op.name)
    if inner is None:
        return None
    dims = set(int_values(op.prop("dimensions"))) ^ set(int_values(inner.prop("dimensions")))
    return [_with(op, [inner.operands[0]], dimensions=KINDS["i64_darray"].build(sorted(dims)))]


def matmul_of_merged_batches(op: Operation) -> list[Operation] | None:
    """reshape(matmul(reshape(a), reshape(b))) whose reshapes only merge (or squeeze) batch dims that a and b
    share, and split them back after, is matmul(a, b): the batch dims never needed merging."""
    matmul = _producer(op, "ttir.matmul", only_use=True)
    if matmul is None or not op.name.startswith("ttir."):
        return None
    sources = []
    for operand in matmul.operands:
        merge = operand.owner
        if not isinstance(merge, Operation) or merge.name != "ttir.reshape":
            return None
        sources.append(merge.operands[0])
    batches = {tuple(v.type.get_shape()[:-2]) for v in sources}
    result = op.results[0].type.get_shape()
    if len(batches) != 1 or tuple(result[:-2]) != next(iter(batches)) or any(
            v.type.get_shape()[-2:] != m.type.get_shape()[-2:] for v, m in zip(sources, matmul.operands)) or \
            matmul.results[0].type.get_shape()[-2:] != result[-2:]:
        return None
    new = type(matmul).create(operands=sources, result_types=[op.results[0].type],
                              properties=dict(matmul.properties), attributes=dict(matmul.attributes))
    new.location = matmul.location
    return [new]


def matmul_rhs_repeat_implied(op: Operation) -> list[Operation] | None:
    """A TTNN matmul broadcasts a rank-4 right operand of batch 1 x 1 over the left's dim 1: a repeat of it along
    dim 1 alone, to the left's dim 1, is dropped."""
    repeat = op.operands[1].owner
    if not isinstance(repeat, Operation) or repeat.name != "ttnn.repeat":
        return None
    dims, source = repeat.prop("repeat_dims").data, repeat.operands[0].type.get_shape()
    left = op.operands[0].type.get_shape()
    if len(dims) != 4 or len(left) != 4 or any(d != 1 for i, d in enumerate(dims) if i != 1) or dims[1] == 1 \
            or tuple(source[:2]) != (1, 1) or left[1] != source[1] * dims[1]:
        return None
    return [_with(op, [op.operands[0], repeat.operands[0]])]


def embedding_of_squeezed_indices(op: Operation) -> list[Operation] | None:
    """An embedding whose indices a reshape made with unit dims looks the rows up with those dims squeezed out
    (all of them unit: one index) and reshapes the rows back, as upstream's canonicalizer does to the embeddings
    its StableHLO gather lowering leaves between reshapes; the reshapes then fold into their neighbours."""
    index = op.operands[0].owner
    if not isinstance(index, Operation) or index.name != "ttir.reshape":
        return None
    indices = op.operands[0].type
    squeezed = [n for n in indices.get_shape() if n != 1] or [1]
    if len(squeezed) == len(indices.get_shape()):
        return None
    result = op.results[0].type
    reshape = sibling(op, "reshape")
    narrow = reshape.create(operands=[op.operands[0]], properties={"shape": KINDS["i32_array"].build(squeezed)},
                            result_types=[TensorType(indices.element_type, squeezed)])
    looked_up = type(op).create(operands=[narrow.results[0], op.operands[1]], properties=dict(op.properties),
                                attributes=dict(op.attributes),
                                result_types=[TensorType(result.element_type, [*squeezed, result.get_shape()[-1]])])
    back = reshape.create(operands=[looked_up.results[0]], result_types=[result],
                          properties={"shape": KINDS["i32_array"].build(list(result.get_shape()))})
    for new in (narrow, looked_up, back):
        new.location = op.location
    return [narrow, looked_up, back]


def permute_without_leading_units(op: Operation) -> list[Operation] | None:
    """reshape(permute(reshape(x))) where the outer reshape only drops leading unit dims the permute leaves in
    place: the inner reshape makes the smaller shape and the permute works without those dims."""
    permute = _producer(op, "ttir.permute", only_use=True)
    if permute is None or not isinstance(permute.operands[0].owner, Operation) or \
            permute.operands[0].owner.name != "ttir.reshape":
        return None
    perm, out, want = int_values(permute.prop("permutation")), permute.results[0].type.get_shape(), \
        op.results[0].type.get_shape()
    k = len(out) - len(want)
    if k <= 0 or tuple(out[k:]) != tuple(want) or any(d != 1 for d in out[:k]) or perm[:k] != list(range(k)):
        return None

    source = permute.operands[0]
    smaller = list(source.type.get_shape()[k:])
    reshape = sibling(op, "reshape").create(operands=[source], properties={"shape": KINDS["i32_array"].build(smaller)},
                                                result_types=[TensorType(source.type.element_type, smaller)])
    reshape.location = op.location
    moved = type(permute).create(operands=[reshape.results[0]], result_types=[op.results[0].type],
                                 properties={"permutation": KINDS["i64_darray"].build([p - k for p in perm[k:]])},
                                 attributes=dict(permute.attributes))
    moved.location = permute.location
    return [reshape, moved]


def linear_without_bias(op: Operation) -> list[Operation] | None:
    """A linear without a bias is a matmul."""
    if not op.name.startswith("ttir.") or len(op.operands) != 2:
        return None
    return _as_ttir(op, "matmul", list(op.operands),
                    {k: v for k, v in op.properties.items() if k in ("transpose_a", "transpose_b")})


def concat_without_empty(op: Operation) -> list[Operation] | None:
    """Empty inputs add nothing to a concat: drop them (all empty: the first stays)."""
    shape = op.results[0].type.get_shape()
    if not shape:
        return None
    dim = int_values(op.prop("dim"))[0] % len(shape)
    kept = [v for v in op.operands if v.type.get_shape()[dim] != 0]
    if len(kept) in (0, len(op.operands)) or len(kept) == 1:  # nothing to drop, or the fold takes the one left
        return None
    return [_with(op, kept)]


def consecutive_slice(op: Operation) -> list[Operation] | None:
    """A slice of a slice (positive steps) is one slice of the first's input: the outer picks inner positions
    b2 + j*s2 < e2, which are input positions b1 + (b2 + j*s2)*s1, below b1 + e2*s1 and the inner end."""
    inner = _producer(op, op.name, only_use=True)  # another reader of the inner slice keeps it: nothing saved
    outer_shape = op.results[0].type.get_shape()
    if inner is None or 0 in outer_shape:
        return None
    source = inner.operands[0].type.get_shape()
    b1, e1, s1 = (int_values(inner.prop(n)) for n in ("begins", "ends", "step"))
    b2, e2, s2 = (int_values(op.prop(n)) for n in ("begins", "ends", "step"))
    if any(s <= 0 for s in (*s1, *s2)):
        return None
    middle = inner.results[0].type.get_shape()
    b1, e1 = ([v % n if v < 0 else v for v, n in zip(vs, source)] for vs in (b1, e1))
    b2, e2 = ([v % n if v < 0 else v for v, n in zip(vs, middle)] for vs in (b2, e2))
    begins = [x + y * s for x, y, s in zip(b1, b2, s1)]
    steps = [x * y for x, y in zip(s1, s2)]
    ends = [min(end, x + y * s) for end, x, y, s in zip(e1, b1, e2, s1)]
    build = KINDS["i32_array"].build
    return [_with(op, [inner.operands[0]], begins=build(begins), ends=build(ends), step=build(steps))]
