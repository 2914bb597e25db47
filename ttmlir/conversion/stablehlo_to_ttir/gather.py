"""StableHLO -> TTIR patterns of gather: rows of a table picked by index (ttir.embedding, or ttir.gather along one
dim for integer data, whose values bf16 would round); a batched index-select (torch.gather's form); windows of rows;
any other form as TTIR's general gather."""

from __future__ import annotations

import itertools
import math

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, Float32Type, IntegerAttr, IntegerType, Signedness, TensorType

from ttmlir.ir.props import dense_values
from ttmlir.dialects.stablehlo import ints_of
from ttmlir.conversion.stablehlo_to_ttir.lowering import Builder, inverse, permute, shape, slice_from


def gather(b: Builder, op):
    dims = op.attr("dimension_numbers")
    operand, indices = op.operands
    sizes = list(ints_of(op.attr("slice_sizes")))
    index_map = list(dims.start_index_map)
    if dims.operand_batching_dims:
        taken = _batched_index_select(b, op, dims, sizes)
    elif (window := _one_window(b, op, dims, sizes)) is not None:
        taken = window
    elif (padded := _edge_padded(b, op, dims, sizes)) is not None:
        taken = padded
    elif (windows := _windows_of_rows(b, op, dims, sizes)) is not None:
        taken = windows
    elif not _as_table_lookup(shape(operand), shape(indices), sizes, index_map):
        taken = None
    else:
        taken = _table_lookup(b, op, dims, sizes)
    if taken is not None:
        return [taken]
    return [b.ttir("gather", [operand, indices], op.results[0].type,
                   offset_dims=dims.offset_dims, collapsed_slice_dims=dims.collapsed_slice_dims,
                   operand_batching_dims=dims.operand_batching_dims,
                   start_indices_batching_dims=dims.start_indices_batching_dims, start_index_map=index_map,
                   index_vector_dim=IntegerAttr(dims.index_vector_dim, IntegerType(64, Signedness.SIGNED)),
                   slice_sizes=sizes, indices_are_sorted=bool(op.attr("indices_are_sorted") and
                                                              op.attr("indices_are_sorted").value.data))]


def _one_window(b: Builder, op, dims, sizes):
    """One start index vector and every result dim a slice dim: a dynamic slice (a static one when the starts are
    constants), the starts clamped so the window stays inside, as StableHLO's gather does."""
    operand, indices = op.operands
    src, index_map = shape(operand), list(dims.start_index_map)
    if dims.collapsed_slice_dims or len(dims.offset_dims) != len(shape(op.results[0])) or \
            shape(indices) != (len(index_map),) or any(sizes[d] != src[d] for d in range(len(src))
                                                        if d not in index_map):
        return None
    known = indices.owner.prop("value") if getattr(indices.owner, "name", None) == "ttir.constant" else None
    if known is not None:
        values = [int(v) for v in dense_values(known)]
        begins = [0] * len(src)
        for d, v in zip(index_map, values):
            begins[d] = min(max(v, 0), src[d] - sizes[d])
        return b.ttir("slice_static", [operand], op.results[0].type, begins=begins,
                      ends=[g + n for g, n in zip(begins, sizes)], step=[1] * len(src))
    part = TensorType(indices.type.element_type, [1])
    zero = b.ttir("constant", [], part, value=DenseIntOrFPElementsAttr.from_list(part, [0]))
    starts = [b.ttir("slice_static", [indices], part, begins=[index_map.index(d)], ends=[index_map.index(d) + 1],
                     step=[1]) if d in index_map else zero for d in range(len(src))]
    return slice_from(b, operand, starts, sizes, op.results[0].type)


def _edge_padded(b: Builder, op, dims, sizes):
    """Constant indices 0, .., 0, 1, .., n-1, .., n-1 along one dim, kept in place: the tensor with its first and
    last rows repeated before and after it (an edge padding)."""
    operand, indices = op.operands
    src, out = shape(operand), shape(op.results[0])
    index_map = list(dims.start_index_map)
    if len(index_map) != 1 or getattr(indices.owner, "name", None) != "ttir.constant" or \
            dims.index_vector_dim != len(shape(indices)) - 1 or shape(indices)[-1] != 1 or len(shape(indices)) != 2:
        return None
    dim = index_map[0]
    if list(dims.collapsed_slice_dims) != [dim] or list(dims.offset_dims) != [d for d in range(len(out)) if d != dim] \
            or any(sizes[d] != (1 if d == dim else src[d]) for d in range(len(src))):
        return None
    known = indices.owner.prop("value")
    values = [int(v) for v in dense_values(known)]
    last = src[dim] - 1
    front = next((i for i, v in enumerate(values) if v != 0), len(values)) - 1  # the leading zeros but one
    if front < 0 or values[front:front + last + 1] != list(range(last + 1)) or \
            any(v != last for v in values[front + last + 1:]):
        return None
    back = len(values) - front - last - 1
    pieces = [_repeated_row(b, operand, dim, 0, front)] if front else []
    pieces.append(operand)
    if back:
        pieces.append(_repeated_row(b, operand, dim, last, back))
    return b.ttir("concat", pieces, op.results[0].type, dim=dim) if len(pieces) > 1 else operand


def _repeated_row(b: Builder, x, dim: int, row: int, times: int):
    src = list(shape(x))
    one = src[:dim] + [1] + src[dim + 1:]
    begins = [row if d == dim else 0 for d in range(len(src))]
    sliced = b.ttir("slice_static", [x], TensorType(x.type.element_type, one), begins=begins,
                    ends=[g + n for g, n in zip(begins, one)], step=[1] * len(src))
    repeats = [times if d == dim else 1 for d in range(len(src))]
    return b.ttir("repeat", [sliced], TensorType(x.type.element_type, [n * r for n, r in zip(one, repeats)]),
                  repeat_dimensions=repeats)


def _windows_of_rows(b: Builder, op, dims, sizes):
    """Windows over two or more adjacent dims (a patch per index vector, as unfold writes it), each start clamped
    inside: those dims flattened into table rows, each window's rows listed as start row + window offset, one
    embedding, the result put back as [window dims in place, index dims last]."""
    operand, indices = op.operands
    src, out = shape(operand), shape(op.results[0])
    index_map = list(dims.start_index_map)
    index_dim = dims.index_vector_dim
    if len(index_map) < 2 or any(not 1 < sizes[d] < src[d] for d in index_map) or dims.collapsed_slice_dims or \
            index_map != list(range(index_map[0], index_map[0] + len(index_map))) or \
            any(sizes[d] != src[d] for d in range(len(src)) if d not in index_map) or \
            list(dims.offset_dims) != list(range(len(src))) or index_dim >= len(shape(indices)) or \
            isinstance(operand.type.element_type, IntegerType):
        return None
    rank, first = len(src), index_map[0]
    order = index_map + [d for d in range(rank) if d not in index_map]
    table = b.reshape(permute(b, operand, order), [math.prod(src[d] for d in index_map),
                                                   math.prod(src[d] for d in order[len(index_map):])])
    moved = permute(b, indices, [d for d in range(len(shape(indices))) if d != index_dim] + [index_dim])
    vectors = b.ttir("typecast", [moved], TensorType(Float32Type(), shape(moved)))
    bound = TensorType(Float32Type(), shape(moved))
    count = math.prod(shape(moved)[:-1])
    limits = [float(src[d] - sizes[d]) for d in index_map]
    low = b.ttir("constant", [], bound, value=DenseIntOrFPElementsAttr.from_list(bound, [0.0] * (count * len(limits))))
    high = b.ttir("constant", [], bound, value=DenseIntOrFPElementsAttr.from_list(bound, limits * count))
    vectors = b.ttir("clamp_tensor", [vectors, low, high], bound)
    strides = [float(math.prod(src[e] for e in index_map[i + 1:])) for i in range(len(index_map))]
    stride_type = TensorType(Float32Type(), [len(index_map), 1])
    starts = b.ttir("matmul", [vectors, b.ttir("constant", [], stride_type, value=DenseIntOrFPElementsAttr.from_list(
        stride_type, strides))], TensorType(Float32Type(), list(shape(moved)[:-1]) + [1]))
    starts = b.reshape(starts, [1, count])
    window = [sizes[d] for d in index_map]
    offsets = [sum(c * int(st) for c, st in zip(pos, strides)) for pos in itertools.product(*map(range, window))]
    wide = TensorType(Float32Type(), [len(offsets), count])
    shifts = b.ttir("constant", [], wide, value=DenseIntOrFPElementsAttr.from_list(
        wide, [float(o) for o in offsets for _ in range(count)]))
    rows = b.ttir("add", [b.ttir("broadcast", [starts], wide, broadcast_dimensions=[len(offsets), 1]), shifts], wide)
    looked_up = b.ttir("embedding", [rows, table], TensorType(operand.type.element_type,
                                                               [len(offsets), count, shape(table)[1]]))
    batch = [n for i, n in enumerate(shape(indices)) if i != index_dim]
    rest = [src[d] for d in range(rank) if d not in index_map]
    unflat = b.reshape(looked_up, window + batch + rest)
    # result dim -> unflattened dim: window dims in place, index dims after the operand's, the others in order
    others = iter(range(len(window) + len(batch), len(window) + len(batch) + len(rest)))
    perm = [d - first if d in index_map else next(others) for d in range(rank)] + \
        [len(window) + i for i in range(len(batch))]
    if len(perm) != len(out):
        return None
    return permute(b, unflat, perm)


def _as_table_lookup(src, index_shape, sizes, index_map) -> bool:
    """Whether the gather is a lookup in a 2-d table: the indexed dims flattened into rows, the others (taken
    whole) into columns. Indexed dims are single rows, taken whole, or one of them a run of rows."""
    if len(index_map) > 1 and len(index_shape) == 1:
        return False
    unit = whole = run = 0
    for d in range(len(src)):
        if d in index_map:
            unit += src[d] == 1
            whole += src[d] != 1 and sizes[d] == src[d]
            run += sizes[d] not in (1, src[d])
        elif sizes[d] != src[d]:
            return False
    rest = len(index_map) - whole - unit
    return not (run and rest != 1) and not (whole and (rest > 1 or rest + unit == 0))


def _row_dims(src, sizes, index_map) -> tuple[list[int], int, bool]:
    """The indexed dims that pick rows (dims taken whole drop out; a unit dim counts only when all are whole),
    the position in `index_map` of the last of them, and whether one takes a run of rows."""
    whole = sum(sizes[d] == src[d] for d in index_map)
    partial = any(sizes[d] not in (1, src[d]) for d in index_map)
    rows, last, run = [], -1, False
    for i, d in enumerate(index_map):
        if src[d] == 1:
            if whole == len(index_map):
                return [d], i, False
            if partial or whole:
                continue
        elif sizes[d] == src[d]:
            continue
        rows.append(d)
        last, run = i, run or sizes[d] != 1
    return rows, last, run


def _table_lookup(b: Builder, op, dims, sizes):
    operand, indices = op.operands
    src = shape(operand)
    index_map = list(dims.start_index_map)
    rows, last, run = _row_dims(src, sizes, index_map)
    element = operand.type.element_type
    if isinstance(element, IntegerType) and len(rows) > 1:
        return None  # rows found by a float matmul: integer data keeps TTIR's general gather
    order = rows + [d for d in range(len(src)) if d not in rows]
    permuted = permute(b, operand, order)
    lead = [src[d] for d in order]
    table = b.reshape(permuted, [math.prod(lead[:len(rows)]), math.prod(lead[len(rows):])])
    index_dim = dims.index_vector_dim
    if len(rows) > 1:
        idx = _flat_rows(b, indices, index_dim, index_map, rows, src)
    elif len(index_map) != len(rows):  # the index vector's other entries index dims taken whole
        begins = [0] * len(shape(indices))
        ends = list(shape(indices))
        begins[index_dim], ends[index_dim] = last, last + 1
        idx = b.ttir("slice_static", [indices], TensorType(indices.type.element_type,
                                                           [e - g for g, e in zip(begins, ends)]),
                     begins=begins, ends=ends, step=[1] * len(begins))
    else:
        idx = indices
    if len(shape(idx)) != 2 or (run and index_dim != 0):
        idx = b.reshape(idx, [1, math.prod(shape(idx))])
    if run:  # a run of rows: each start index followed by the next ones
        count, width = sizes[index_map[last]], shape(idx)[1]
        wide = TensorType(idx.type.element_type, [count, width])
        offsets = b.ttir("constant", [], wide, value=DenseIntOrFPElementsAttr.from_list(
            wide, [r for r in range(count) for _ in range(width)]))
        idx = b.ttir("add", [b.ttir("broadcast", [idx], wide, broadcast_dimensions=[count, 1]), offsets], wide)
    looked_up = list(shape(idx)) + [shape(table)[1]]
    if isinstance(element, IntegerType):  # torch.gather of whole rows, exact for integers
        flat = b.reshape(idx, [math.prod(shape(idx)), 1])
        width = shape(table)[1]
        if width != 1:
            flat = b.ttir("broadcast", [flat], TensorType(flat.type.element_type, [shape(flat)[0], width]),
                          broadcast_dimensions=[1, width])
        taken = b.ttir("gather", [table, flat], TensorType(element, shape(flat)), dim=0)
        result = b.reshape(taken, looked_up)
    else:
        result = b.ttir("embedding", [idx, table], TensorType(element, looked_up))
    return _arranged(b, result, rows[0], dims, sizes, op.results[0].type)


def _flat_rows(b: Builder, indices, index_dim: int, index_map, rows, src):
    """The index vectors as one row number of the flattened row dims: vector · strides, as a float matmul (the
    entries of dims taken whole are their start, 0, and count nothing)."""
    rank = len(shape(indices))
    moved = permute(b, indices, [d for d in range(rank) if d != index_dim] + [index_dim])
    as_float = b.ttir("typecast", [moved], TensorType(Float32Type(), shape(moved)))
    extent = {d: src[d] for d in rows}
    strides = [math.prod(extent[r] for r in rows[rows.index(d) + 1:]) if d in rows else 0 for d in index_map]
    stride_type = TensorType(Float32Type(), [len(index_map), 1])
    weights = b.ttir("constant", [], stride_type, value=DenseIntOrFPElementsAttr.from_list(
        stride_type, [float(v) for v in strides]))
    return b.ttir("matmul", [as_float, weights], TensorType(Float32Type(), list(shape(moved)[:-1]) + [1]))


def _arranged(b: Builder, looked_up, row_dim: int, dims, sizes, result_type):
    """The lookup's [index dims..., row run?, columns] unflattened and permuted to the gather's result layout:
    index dims where offset_dims leave room, slice dims at offset_dims (a run of rows first in the lookup)."""
    out = list(result_type.get_shape())
    offset, collapsed = list(dims.offset_dims), list(dims.collapsed_slice_dims)
    front = []
    if sizes[row_dim] != 1:
        front = [offset[row_dim - sum(c < row_dim for c in collapsed)]]
    order = front + [i for i in range(len(out)) if i not in offset] + [o for o in offset if o not in front]
    unflat = b.reshape(looked_up, [out[i] for i in order])
    return permute(b, unflat, inverse(order))


def _batched_index_select(b: Builder, op, dims, sizes):
    """A gather along one dim with the batch dims shared by data and indices (torch.gather's form, as
    take_along_axis writes it): the indices shaped as the result, ttir.gather along the dim."""
    operand, indices = op.operands
    src, out = shape(operand), list(shape(op.results[0]))
    batch, index_map = list(dims.operand_batching_dims), list(dims.start_index_map)
    index_batch = list(dims.start_indices_batching_dims)
    if len(index_map) != 1 or index_map[0] in batch or sizes[index_map[0]] != 1 or len(out) != len(src):
        return None
    dim = index_map[0]
    if any(sizes[d] != src[d] for d in range(len(src)) if d != dim and d not in batch):
        return None
    # every result dim must be the operand's dim at its position: slice dims at offset_dims, the index's
    # batch dims at the operand's batch dims and its one other dim (if any) at the gathered dim
    if list(dims.offset_dims) != [d for d in range(len(src)) if d not in batch and d not in dims.collapsed_slice_dims]:
        return None
    free = [p for p in range(len(out)) if p not in dims.offset_dims]
    index_dims = [i for i in range(len(shape(indices))) if i != dims.index_vector_dim]
    if len(free) != len(index_dims) or any(p != (batch[index_batch.index(i)] if i in index_batch else dim)
                                           for p, i in zip(free, index_dims)):
        return None
    index_dim = dims.index_vector_dim
    kept = [n for i, n in enumerate(shape(indices)) if i != index_dim]
    idx = b.reshape(indices, kept)
    if len(kept) < len(out):
        for d in dims.offset_dims:
            kept.insert(d, 1)
        idx = b.reshape(idx, kept)
        if kept != out:
            idx = b.ttir("broadcast", [idx], TensorType(idx.type.element_type, out),
                         broadcast_dimensions=[o if k == 1 else 1 for k, o in zip(kept, out)])
    if list(shape(idx)) != out:
        return None
    return b.ttir("gather", [operand, idx], op.results[0].type, dim=dim)


PATTERNS = {"stablehlo.gather": gather}
