"""Tensor manipulations that cannot keep whole tiles, on tensors above two dims, as upstream's TTIRToD2M lowers
them (its D2MTensorManipulationOpRewriter): kept at their rank and in row-major elements (no tilize: a slice
cutting the last two dims would split tiles), each dim padded only as a matrix's last two are, to whole tiles'
worth of rows and columns. The input is moved onto the device in that form, a `d2m.view_layout` names for each
output element the input element it holds, and a generic copies the view into the output, which is moved back.

The view's remapping is upstream's: the op's logical map (output index -> input index) on the tensors' unit-grid
device forms, `(g..., s...) -> (0..., f(s...))`; grid selection puts the tensors on virtual grids of their rank
(`d2m_grid_selection`), and the copy's data-movement kernel reads each output row from wherever its source row
is (`d2m_to_ttkernel/row_major_gather.py`). Slices that keep whole matrices or take a rectangle of whole tiles, and
tensors of two dims or fewer, take the tiled path (`slice.py`), as do copies whose shards would take over half a
core's free L1 (the tiled path's tensors may live in DRAM)."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import AffineMapAttr, DenseIntOrFPElementsAttr, TensorType, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from ttmlir import hardware
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import DTYPES
from ttmlir.conversion.ttir_to_d2m.row_gather import copy_block
from ttmlir.conversion.ttir_to_d2m.slice import CutsTiles, _bounds, tile_offsets
from ttmlir.conversion.ttir_to_d2m.tiles import TILE, _map
from ttmlir.dialects import d2m, ttcore
from ttmlir.ir.tt_op import TTOp
from ttmlir.transforms.d2m.virtual_grid import nd_virtual_grid


def row_major_type(shape: tuple[int, ...], element: Attribute, memory: str) -> TensorType:
    """A tensor kept at its rank in row-major elements on a unit grid: its last two dims padded to multiples of 32
    (upstream's default dim alignments), no dims collapsed (no collapsed intervals, as upstream writes it)."""
    n = len(shape)
    intervals = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [0, 2]), [])
    alignments = (1,) * (n - 2) + (TILE, TILE)
    layout = ttcore.MetalLayoutAttr(ttcore.MetalLayout(tuple(shape), alignments, intervals, memory, "sharded"))
    physical = [-(-d // a) * a for d, a in zip(shape, alignments)]
    return TensorType(element, [*(1,) * n, *physical], layout)


def unit_device_map(logical: AffineMap) -> AffineMap:
    """A logical map (output index -> input index) on the unit-grid device forms (upstream's
    projectLogicalMapToUnitDeviceSpace for tensors above two dims): grid indices all 0, shard indices mapped."""
    n, m = logical.num_dims, len(logical.results)
    shard = [r.replace_dims_and_symbols([AffineExpr.dimension(n + k) for k in range(n)], []) for r in logical.results]
    return AffineMap(2 * n, 0, (*[AffineExpr.constant(0)] * m, *shard))


def _chip(op: Operation) -> dict | None:
    """The chip of the system descriptor of the module holding `op`."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent.attributes.get("ttcore.system_desc"), ttcore.SystemDescAttr):
        parent = parent.parent_op()
    return None if parent is None else parent.attributes["ttcore.system_desc"].data.chip(0)


def fits_l1(types: list[TensorType], chip: dict) -> bool:
    """Whether the shards of row-major tensors of `types`, each on the virtual grid grid selection gives it, take at
    most half a core's free L1 together (a larger copy takes the tiled path, whose tensors may live in DRAM)."""
    grid = tuple(chip["grid"])
    total = 0
    for t in types:
        physical = t.get_shape()[len(t.get_shape()) // 2:]
        units = (*physical[:-2], *(-(-n // TILE) for n in physical[-2:]))
        total += math.prod(physical) // math.prod(nd_virtual_grid(units, grid)) * \
            int(hardware.DTYPE_BYTES[DTYPES[str(t.element_type)]])
    return total <= (int(chip["l1_size"]) - int(chip["l1_unreserved_base"])) // 2


def _tilizable(begins: list[int], ends: list[int], steps: list[int], shape: tuple[int, ...]) -> bool:
    """Whether a slice keeps the last two dims whole (upstream's canBeTilized): its tiles are then the input's."""
    return all((begins[d], ends[d], steps[d]) == (0, shape[d], 1) for d in (-2, -1))


def row_major_slice(convert, op: TTOp, device: tuple[int, int]) -> tuple[list[Operation], SSAValue] | None:
    """A `ttir.slice_static` above two dims cutting its last two, as a row-major copy (see the module doc); None
    for the others (and in ttnn-mode, where TTNN's tensors are tiled)."""
    source, result = op.operands[0], op.results[0]
    shape = tuple(source.type.get_shape())
    if convert.ttnn_mode or len(shape) <= 2 or str(source.type.element_type) not in DTYPES:
        return None
    begins, ends, steps = _bounds(op, shape)
    if _tilizable(begins, ends, steps, shape) or "l1" != convert.memory_of(source, False) or \
            "l1" != convert.memory_of(result, True):
        return None
    try:  # a rectangle of whole tiles stays a copy of the input's tiles
        tile_offsets(op, shape)
        return None
    except CutsTiles:
        pass
    out_shape = tuple(result.type.get_shape())
    element = source.type.element_type
    types = [row_major_type(shape, element, "l1"), row_major_type(out_shape, element, "l1")]
    chip = _chip(op)
    if chip is None or not fits_l1(types, chip):
        return None
    logical = AffineMap(len(shape), 0, tuple(
        AffineExpr.dimension(d) * step + begin if step != 1 else AffineExpr.dimension(d) + begin if begin else
        AffineExpr.dimension(d) for d, (begin, step) in enumerate(zip(begins, steps))))
    return view_copy(convert, source, result, types, logical)


def view_copy(convert, source: SSAValue, result: SSAValue, types: list[TensorType],
              logical: AffineMap) -> tuple[list[Operation], SSAValue]:
    """`source` moved into device type `types[0]` (kept at its rank), a view of it remapped by `logical` (output
    index -> input index, on the unit-grid forms) copied into `types[1]`, and that moved back into `result`'s type."""
    target = d2m.EmptyOp.create(result_types=[types[0]])
    moved = d2m.ToLayoutOp.create(operands=[source, target.result], result_types=[target.result.type])
    view = d2m.ViewLayoutOp.create(operands=[moved.results[0]],
                                   properties={"remapping": AffineMapAttr(unit_device_map(logical))},
                                   result_types=[types[1]])
    out = d2m.EmptyOp.create(result_types=[types[1]])
    rank = len(types[1].get_shape()) // 2
    identity = _map(rank, *range(rank))
    generic = convert.build_generic([view.result], out.result, [identity, identity], ["parallel"] * rank, copy_block,
                                    (1,) * rank)
    host = d2m.EmptyOp.create(result_types=[result.type])
    back = d2m.ToLayoutOp.create(operands=[generic.results[0], host.result], result_types=[result.type])
    return [target, moved, view, out, generic, host, back], back.results[0]

