"""Where a D2M program's device tensors are, read off the IR alone: the grid of shards of tiles a tensor's type gives
(`tensor<GY x GX x SY x SX x !ttcore.tile<...>, #ttcore.metal_layout<...>>`), in L1 from the core its virtual grid
mapping names or interleaved in DRAM, or a tensor kept at its rank; and, the other way round, the `d2m.empty` of
an L1 buffer of a given layout (the pages a circular buffer works in). Kernels are built from these layouts; the
addresses are the host program's."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType, i64
from xdsl.ir import Attribute, Operation, SSAValue

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.ttir import TTNNMetalLayoutCastOp
from ttmlir.errors import PassFailure
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import DTYPES, ELEMENTS, TILE, ShardLayout, fold_grid, grid_maps

MAKERS = ("d2m.empty", "ttir.empty")  # ops making a device tensor whose attributes may place it


def device_facts(module: ModuleOp, op: Operation, override: tuple[int, ...] = ()) -> tuple[dict, tuple[int, int]]:
    """The chip of the module's system descriptor and the worker grid the programs run on (`override`, a grid
    YxX, when given)."""
    system = module.attributes.get("ttcore.system_desc")
    if not isinstance(system, ttcore.SystemDescAttr):
        raise PassFailure(op, "module has no ttcore.system_desc attribute (run --ttcore-register-device first)")
    chip = system.data.chip(0)
    if not override:
        return chip, tuple(chip["grid"])
    if len(override) != 2 or any(d < 1 for d in override):
        raise PassFailure(op, "override-device-shape is a grid YxX, e.g. override-device-shape=1,1")
    return chip, tuple(override)


def device_layout(value: SSAValue, op: Operation, device_grid: tuple[int, int]) -> ShardLayout:
    """The layout (address 0) of device tensor `value` used by `op`: a grid of shards of tiles in L1 from the core
    its maker's virtual grid mapping names (a `d2m.empty`, or the cast of a TTNN tensor), else folded onto the
    device's cores when larger than they are, or interleaved in DRAM (computed on that grid)."""
    t, maker = value.type, maker_of(value).owner
    layout_attr = getattr(t, "encoding", None)
    shape = t.get_shape() if isinstance(t, TensorType) else ()
    tiled = isinstance(getattr(t, "element_type", None), ttcore.TileType)
    if not isinstance(layout_attr, ttcore.MetalLayoutAttr) or len(shape) < 4 or len(shape) % 2 or \
            not (tiled or str(t.element_type) in DTYPES):
        raise PassFailure(op, f"only tensors of tiles or of row-major elements on a grid are lowered to TTMetal yet, "
                              f"not {t}")
    if len(shape) > 4 and isinstance(maker, Operation) and maker.name in MAKERS and \
            "virtualGridForwardMapping" in maker.attributes:  # on a virtual grid of its rank
        return row_major_layout(t, maker.attributes["virtualGridForwardMapping"], op, device_grid)
    if len(shape) > 4:
        return _ranked_layout(t, op, device_grid)
    memory = layout_attr.data.memory_space
    if (memory, layout_attr.data.memory_layout) not in (("l1", "sharded"), ("dram", "interleaved")):
        raise PassFailure(op, "only L1-sharded and DRAM-interleaved D2M tensors are lowered to TTMetal yet")
    if not tiled and (memory != "l1" or shape[2] % TILE or shape[3] % TILE):
        raise PassFailure(op, f"row-major shards live in L1 in whole tiles' worth of rows and columns, not {t}")
    dtype = DTYPES.get(t.element_type.data_type.data.value if tiled else str(t.element_type))
    if dtype is None:
        raise PassFailure(op, f"tiles of {t.element_type.data_type.data.value} are not lowered to TTMetal yet")
    grid = tuple(shape[:2])
    shard = tuple(shape[2:]) if tiled else (shape[2] // TILE, shape[3] // TILE)  # a row-major shard in tiles
    mapping = None
    if isinstance(maker, Operation) and maker.name in MAKERS:
        mapping = maker.attributes.get("virtualGridForwardMapping")
    elif isinstance(maker, TTNNMetalLayoutCastOp):
        mapping = maker.virtual_grid_forward_mapping
    if mapping is not None:
        placement = ttcore.grid_placement(mapping, grid)
        if placement is None:
            raise PassFailure(maker, "only virtual grids laid onto a rectangle of cores row by row are lowered "
                                     "to TTMetal yet")
        origin, cores = placement
    else:
        origin, cores = (0, 0), fold_grid(grid, device_grid)
    if any(o < 0 or o + g > d for o, g, d in zip(origin, cores, device_grid)):
        raise PassFailure(op, f"a {shape[0]}x{shape[1]} grid from core {origin} does not fit the "
                              f"{device_grid[0]}x{device_grid[1]} worker grid")
    return ShardLayout(grid, shard, dtype, 0, memory, origin, None if cores == grid else cores, tiled=tiled)


def maker_of(value: SSAValue) -> SSAValue:
    """The tensor `value` is in place of: a to_layout's or a generic's result is its output operand, an identity
    view its input (the op making that one places it)."""
    while isinstance(value.owner, Operation):
        op = value.owner
        if op.name in ("d2m.to_layout", "ttir.to_layout", "d2m.to_device", "d2m.to_host"):
            value = op.operands[1]
        elif isinstance(op, d2m.ViewLayoutOp) and op.input.type == op.result.type:
            value = op.input
        elif isinstance(op, (d2m.GenericOp, d2m.SpatialOp)) and len(op.outputs) == len(op.results):
            value = op.outputs[list(op.results).index(value)]
        else:
            break
    return value


def _ranked_layout(t: TensorType, op: Operation, device_grid: tuple[int, int]) -> ShardLayout:
    """A device tensor kept at its rank (a grid dim per dim, shards of one matrix along the batch dims): the
    batch's matrices on their own rows of cores, laid onto a rectangle of cores when the grid is larger."""
    shape, n = t.get_shape(), len(t.get_shape()) // 2
    grid, shard = tuple(shape[:n]), tuple(shape[n:])
    tiled = isinstance(t.element_type, ttcore.TileType)
    if not tiled:  # row-major elements (a staging tensor): its shards' matrices in tiles
        shard = (*shard[:-2], shard[-2] // TILE, shard[-1] // TILE)
    memory = t.encoding.data.memory_space
    if memory != "l1" or set(shard[:-2]) != {1}:
        raise PassFailure(op, "tensors kept above two dims live in L1, a matrix per shard along the batch, in this "
                              "build; set default-input-memspace/default-output-memspace to l1")
    flat = (math.prod(grid[:-1]), grid[-1])
    cores = fold_grid(flat, device_grid)
    if cores[0] > device_grid[0] or cores[1] > device_grid[1]:
        raise PassFailure(op, f"a batch of {math.prod(grid[:-2])} matrices needs more than the "
                              f"{device_grid[0]}x{device_grid[1]} worker grid's cores")
    dtype = DTYPES[t.element_type.data_type.data.value if tiled else str(t.element_type)]
    return ShardLayout(flat, shard[-2:], dtype, 0, memory, (0, 0), None if cores == flat else cores, (grid, shard),
                       tiled)


def row_major_layout(t: TensorType, mapping: Attribute, op: Operation, device_grid: tuple[int, int]) -> ShardLayout:
    """A tensor kept at its rank on a virtual grid of its rank, in row-major elements (a shard may hold several
    matrices) or in tiles (a slice's or permute's, one matrix per shard): its grid's shards laid row by row onto
    the rectangle of cores its virtual grid mapping names; as a 2-d layout, its leading grid dims folded into rows
    and each shard its rows of tiles (of elements in tile-sized pages)."""
    shape, n = t.get_shape(), len(t.get_shape()) // 2
    grid, shard = tuple(shape[:n]), tuple(shape[n:])
    if t.encoding.data.memory_space != "l1":
        raise PassFailure(op, "tensors kept above two dims on virtual grids live in L1 in this build")
    placement = ttcore.grid_placement(mapping, grid)
    if placement is None or any(o + c > d for o, c, d in zip(placement[0], placement[1], device_grid)):
        raise PassFailure(op, f"a {'x'.join(map(str, grid))} grid of shards kept at their rank does not fit the "
                              f"{device_grid[0]}x{device_grid[1]} worker grid")
    flat = (math.prod(grid[:-1]), grid[-1])
    origin, cores = placement
    tiled = isinstance(t.element_type, ttcore.TileType)
    tiles = shard if tiled else (*shard[:-2], shard[-2] // TILE, shard[-1] // TILE)
    dtype = DTYPES[t.element_type.data_type.data.value if tiled else str(t.element_type)]
    return ShardLayout(flat, (math.prod(tiles[:-1]), tiles[-1]), dtype, 0, "l1", origin,
                       None if cores == flat else cores, (grid, tiles), tiled)


def staging_type(t: TensorType) -> TensorType:
    """The row-major form of device tilized tensor type `t` (where host data is written before a tilize
    program, or read back from after an untilize): each shard's matrix in elements."""
    shape, n = t.get_shape(), len(t.get_shape()) // 2
    shard = (*shape[n:-2], shape[-2] * TILE, shape[-1] * TILE)
    return TensorType(ELEMENTS[DTYPES[t.element_type.data_type.data.value]], [*shape[:n], *shard], t.encoding)


def staging_empty(value: SSAValue) -> d2m.EmptyOp:
    """A `d2m.empty` of device tensor `value`'s row-major form kept at its rank (`staging_type`), on the cores
    `value`'s shards are: with the virtual grid maps of the op making it, if any."""
    empty = d2m.EmptyOp.create(result_types=[staging_type(value.type)])
    maker = maker_of(value).owner
    if isinstance(maker, Operation) and maker.name in MAKERS:
        empty.attributes.update({k: v for k, v in maker.attributes.items() if k.startswith("virtualGrid")})
    return empty


def buffer_empty(layout: ShardLayout, device_grid: tuple[int, int]) -> d2m.EmptyOp:
    """A `d2m.empty` of an L1 buffer of `layout` (a 2-d grid of shards of tiles): on the grid's own cores, or with
    the virtual grid mappings placing it from its origin core onto its rectangle of cores."""
    rows, cols = layout.tensor_tiles
    intervals = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2, 2]), [0, 1, 1, 2])
    attr = ttcore.MetalLayoutAttr(ttcore.MetalLayout((rows * TILE, cols * TILE), (TILE, TILE), intervals, "l1",
                                                     "sharded"))
    empty = d2m.EmptyOp.create(result_types=[TensorType(layout.tile, [*layout.grid, *layout.shard], attr)])
    if layout.origin != (0, 0) or (layout.fold or layout.grid) != fold_grid(layout.grid, device_grid):
        forward, inverse = grid_maps(layout)
        empty.attributes["virtualGridForwardMapping"] = forward
        empty.attributes["virtualGridInverseMapping"] = inverse
    return empty
