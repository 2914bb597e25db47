"""The `d2m.generic` verifier, in upstream's order and wording: the op's forms (pure tensor semantics, explicit
data movement with no maps, external kernel symbols with no regions), its threads and regions, and how its operands'
grids and shards fit the iteration space the indexing maps and block factors describe.

Grid and shard shapes are the two halves of a device operand's shape (`tensor<2x1x1x1x!ttcore.tile<...>, #layout>`:
grid 2x1, shard 1x1 tiles). A map sends iteration dims to operand dims; its inverse (dims an operand does not index
read 0, a wildcard) compares operands dim by dim."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, MemRefType, NoneAttr, SymbolRefAttr, TensorType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser

from ttmlir.dialects import ttcore
from ttmlir.dialects.d2m_cb import LocalSemaphoreType, ThreadAttr

DEVICE_MEMREF_LAYOUTS = (ttcore.ShardLayoutAttr, ttcore.InterleavedLayoutAttr, ttcore.ViewLayoutAttr)


def _ints(attr) -> list[int]:
    return [a.value.data for a in attr.data] if isinstance(attr, ArrayAttr) else []


def _maps(op: IRDLOperation) -> list[AffineMap]:
    maps = op.attributes.get("indexing_maps")
    return [m.data for m in maps.data if isinstance(m, AffineMapAttr)] if isinstance(maps, ArrayAttr) else []


def _shape_text(shape) -> str:
    return ", ".join(map(str, shape))


def _inverse_on(amap: AffineMap, shape: list[int]) -> list[int]:
    """The iteration-space sizes `shape` implies through `amap` (a projected permutation): a dim the map does not
    index, or indexes only through a constant, reads 0."""
    sizes = [0] * amap.num_dims
    for result, size in zip(amap.results, shape):
        if isinstance(result, AffineDimExpr):
            sizes[result.position] = size
    return sizes


def _apply(amap: AffineMap, values: list[int]) -> list[int]:
    return list(amap.eval(values, []))


def _mismatch(a: list[int], b: list[int]) -> int | None:
    """The first dim where two shapes disagree and neither is a wildcard (0)."""
    for dim, (x, y) in enumerate(zip(a, b)):
        if x != y and x != 0 and y != 0:
            return dim
    return None


def _split(value) -> tuple[list[int], list[int]]:
    shape = list(value.type.get_shape())
    return shape[:len(shape) // 2], shape[len(shape) // 2:]


def _scalar_shard(value) -> list[int]:
    shard = _split(value)[1]
    element = value.type.get_element_type()
    if isinstance(element, ttcore.TileType) and len(shard) >= 2:
        shard[-2:] = [shard[-2] * element.dims[0], shard[-1] * element.dims[1]]
    return shard


def _has_layout(value) -> bool:
    t = value.type
    if isinstance(t, MemRefType):
        return isinstance(t.layout, DEVICE_MEMREF_LAYOUTS)
    return isinstance(t, TensorType) and isinstance(t.encoding, ttcore.MetalLayoutAttr)


def _permutation(op: IRDLOperation, kind: str, maps: list[AffineMap], shapes: list[list[int]]) -> None:
    for a in range(len(maps)):
        for b in range(len(maps)):
            if a == b:
                continue
            dim = _mismatch(_inverse_on(maps[a], shapes[a]), _inverse_on(maps[b], shapes[b]))
            if dim is not None:
                raise op.error(f"{kind} shape mismatch between operand[{a}] {kind}_shape=[{_shape_text(shapes[a])}] "
                               f"and operand[{b}] {kind}_shape=[{_shape_text(shapes[b])}] at affine dim d{dim}")


def _blocking(op: IRDLOperation, maps: list[AffineMap], shapes: list[list[int]], factors: list[int],
              output_map: AffineMap, grid: tuple[int, ...]) -> None:
    """Each operand's grid is the op's grid times the block factors, seen through the operand's map."""
    if not factors:  # outer loops already generated
        return
    expected_dims = [max(size, 1) * factor for size, factor in zip(_inverse_on(output_map, list(grid)), factors)]
    for i, (amap, shape) in enumerate(zip(maps, shapes)):
        expected = _apply(amap, expected_dims)
        if len(shape) != len(expected):
            raise op.error(f"grid rank mismatch for operand[{i}] grid_shape=[{_shape_text(shape)}] expected "
                           f"grid_shape=[{_shape_text(expected)}]")
        if (dim := _mismatch(shape, expected)) is not None:
            raise op.error(f"grid dim unexpected for operand[{i}] grid_shape=[{_shape_text(shape)}] expected "
                           f"grid_shape=[{_shape_text(expected)}] at affine dim d{dim}")


def _broadcasts(maps: list[AffineMap]) -> bool:
    return any(not any(isinstance(r, AffineDimExpr) and r.position == d for r in m.results)
               for m in maps for d in range(m.num_dims))


def grid_inverse_map(grid) -> AffineMap | None:
    """A grid's physical-to-virtual map, if it declares one (the grid keeps its maps as written)."""
    if not isinstance(grid, ttcore.GridAttr) or len(grid.data.maps) != 2:
        return None
    return Parser(Context(), grid.data.maps[1]).parse_affine_map()


def _vgm(value, direction: str) -> AffineMap | None:
    """The virtual grid mapping (`direction` "Inverse" or "Forward") a value's tensor was made with
    (`d2m.empty {virtualGridInverseMapping}`, seen through the `d2m.to_layout` that fills it, a generic that writes
    it and the views over it; a buffer's `memref.alloc {d2m.virtualGridInverseMapping}`; a TTNN tensor's cast)."""
    owner = value.owner
    if not isinstance(owner, Operation):  # a block argument: made elsewhere
        return None
    if owner.name in ("d2m.to_layout", "d2m.to_device"):
        return _vgm(owner.operands[1], direction)
    if owner.name == "d2m.view_layout":
        return _vgm(owner.operands[0], direction)
    if owner.name == "d2m.generic" and value in owner.results:
        return _vgm(owner.outputs[list(owner.results).index(value)], direction)
    if owner.name == "ttir.ttnn_metal_layout_cast":  # a TTNN tensor's cores, as the cast names them
        mapping = owner.properties.get(f"virtual_grid_{direction.lower()}_mapping")
        return mapping.data if isinstance(mapping, AffineMapAttr) else None
    key = {"d2m.empty": f"virtualGrid{direction}Mapping",
           "memref.alloc": f"d2m.virtualGrid{direction}Mapping"}.get(owner.name)
    mapping = owner.attributes.get(key) if key else None
    return mapping.data if isinstance(mapping, AffineMapAttr) else None


def _vgm_inverse(value) -> AffineMap | None:
    return _vgm(value, "Inverse")


def eval_shape(amap: AffineMap, shape) -> list[int]:
    """The extent of `amap`'s image of the box `shape` (upstream's evalShape): last corner minus first, plus 1."""
    first, last = amap.eval([0] * len(shape), []), amap.eval([d - 1 for d in shape], [])
    return [b - a + 1 for a, b in zip(first, last)]


def _physical_grid(value) -> list[int] | None:
    """The cores a value occupies, from the forward virtual grid mapping it was made with; an L1 view occupies
    its buffer's cores. None when nothing maps it."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "d2m.view_layout" and not _in_dram(owner.operands[0]):
        return _physical_grid(owner.operands[0])
    forward = _vgm(value, "Forward")
    shape = value.type.get_shape()
    if forward is None or forward.num_dims != len(shape):
        return None
    return eval_shape(forward, shape)[:2]


def _apparent_grid(value) -> list[int]:
    """An output's grid as the generic writes it: a memref view's, through the views down to its buffer's grid."""
    grid = _split(value)[0]
    if not isinstance(value.type, MemRefType):
        return grid
    remap, base = None, value
    while isinstance(base.owner, Operation) and base.owner.name == "d2m.view_layout":
        step = base.owner.attributes.get("remapping") or base.owner.properties.get("remapping")
        if not isinstance(step, AffineMapAttr):
            return grid
        remap = step.data if remap is None else step.data.compose(remap)
        base = base.owner.operands[0]
    if remap is None:
        return grid
    rank = len(base.type.get_shape()) // 2
    return eval_shape(AffineMap(remap.num_dims, 0, remap.results[:rank]), value.type.get_shape())


def _in_dram(value) -> bool:
    t = value.type
    if isinstance(t, MemRefType):
        return isinstance(t.memory_space, ttcore.MemorySpaceAttr) and t.memory_space.data.value == "dram"
    return isinstance(t, TensorType) and isinstance(t.encoding, ttcore.MetalLayoutAttr) and \
        t.encoding.data.memory_space == "dram"


def _verify_virtual_grid(op: IRDLOperation, grid) -> None:
    """A generic on a virtual grid writes outputs made for that grid (DRAM outputs excepted: the grid does not
    place them)."""
    inverse = grid_inverse_map(grid)
    if inverse is None:
        return
    if inverse.num_dims != 2:
        raise op.error("GenericOp virtual grid affine map must have 2 inputs, or be empty.")
    for output in op.outputs:
        if _in_dram(output):
            continue
        declared = _vgm_inverse(output)
        if declared is not None and declared != inverse:
            raise op.error("grid inverse map does not match output operand's inverse VGM")
        if declared is None:
            raise op.error("grid has an inverse map but output operand does not have a VGM")
        physical = _physical_grid(output)
        if physical is None or ttcore.registered_device(op) is None:
            continue
        implied = eval_shape(AffineMap(inverse.num_dims, 0, inverse.results[1:]), physical)
        if _apparent_grid(output) != implied:
            raise op.error("output grid shape does not match implied virtual grid shape from physical grid and "
                           "inverse mapping")


def verify_spatial(op: IRDLOperation) -> None:
    """A spatial op's regions each hold one 2-d generic whose (virtual) grid fits the region's core range."""
    ranges = op.attributes.get("grid_ranges")
    ranges = list(ranges.data) if isinstance(ranges, ArrayAttr) else []
    if not ranges:
        raise op.error("grid_ranges must contain at least one CoreRange")
    if len(ranges) != len(op.regions):
        raise op.error(f"number of CoreRanges ({len(ranges)}) must match the number of Regions ({len(op.regions)})")
    for region, core_range in zip(op.regions, ranges):
        if not isinstance(core_range, ttcore.CoreRangeAttr):
            raise op.error("grid_ranges must hold #ttcore.core_range attributes")
        (y0, x0), (y1, x1) = core_range.data
        if region.blocks.first is None:
            raise op.error("each spatial region must not be empty")
        generics = [o for o in region.blocks.first.ops if o.name == "d2m.generic"]
        if len(generics) != 1:
            raise op.error(f"each region must contain exactly one d2m.generic op, got {len(generics)}")
        grid = generics[0].attributes.get("grid")
        shape = tuple(grid.data.shape) if isinstance(grid, ttcore.GridAttr) else ()
        if len(shape) != 2:
            raise op.error(f"d2m.generic inside d2m.spatial: only 2D grid is considered for now, got {len(shape)}D")
        inverse = grid_inverse_map(grid)
        if inverse is None:
            if shape[0] > y1 - y0 + 1 or shape[1] > x1 - x0 + 1:
                raise op.error(f"generic op grid shape [{shape[0]}, {shape[1]}] exceeds region CoreRange shape "
                               f"[{y1 - y0 + 1}, {x1 - x0 + 1}]")
            continue
        if len(inverse.results) == 3:  # its first result is the device
            inverse = AffineMap(inverse.num_dims, inverse.num_symbols, inverse.results[1:])
        start, end = inverse.eval([y0, x0], []), inverse.eval([y1, x1], [])
        low = [min(a, b) for a, b in zip(start, end)]
        high = [max(a, b) for a, b in zip(start, end)]
        if low[0] > 0 or high[0] < shape[0] - 1 or low[1] > 0 or high[1] < shape[1] - 1:
            raise op.error(f"generic op grid not contained in region grid_ranges [{y0}, {x0}] to [{y1}, {x1}]")


def verify_generic(op: IRDLOperation) -> None:
    maps, factors = _maps(op), _ints(op.attributes.get("block_factors"))
    iterators = op.attributes.get("iterator_types")
    num_iterators = len(iterators.data) if isinstance(iterators, ArrayAttr) else 0
    explicit = not maps and not factors and not num_iterators
    threads = op.attributes.get("threads")
    threads = list(threads.data) if isinstance(threads, ArrayAttr) else []
    operands = [*op.inputs, *op.outputs]
    if all(isinstance(v.type, TensorType) for v in op.operands) and all(isinstance(t, TensorType)
                                                                        for t in op.result_types):
        if len(op.regions) != 1 and not explicit:
            raise op.error("generic op with pure tensor semantics must have exactly 1 region when not in explicit "
                           "data movement form")
        if not explicit and op.regions[0].blocks.first is not None:
            last = op.regions[0].blocks.first.last_op
            if last is None or last.name != "d2m.yield":
                raise op.error("generic op with pure tensor semantics must have yield terminator")
            if len(last.operands) != len(op.results):
                raise op.error("yield terminator must have the same number of arguments as generic results")
    if not op.outputs:
        raise op.error("must have at least one output operand")
    if not threads:
        raise op.error("must have at least one thread")
    if op.regions and len(op.regions) != len(threads):
        raise op.error("number of regions must match the number of threads")
    grid = op.attributes.get("grid")
    grid_shape = tuple(grid.data.shape) if isinstance(grid, ttcore.GridAttr) else ()
    for output in op.outputs:
        if _has_layout(output) and not all(o % g == 0 for o, g in zip(_split(output)[0], grid_shape)):
            raise op.error("output grid shape must be divisible by the generic op's grid shape")
    _verify_virtual_grid(op, grid)
    if len({m.num_dims for m in maps}) > 1:
        raise op.error("all indexing maps must have the same number of dimensions")
    if num_iterators and len(factors) != num_iterators:
        raise op.error(f"number of block factors[{len(factors)}] must match the number of iterators[{num_iterators}]")
    first_output = op.outputs[0].type
    has_grid = isinstance(first_output, MemRefType) or (isinstance(first_output, TensorType) and
                                                        first_output.encoding is not None and
                                                        not isinstance(first_output.encoding, NoneAttr))
    if len(op.outputs) > 1 and maps and len(maps) == len(operands):
        first = maps[len(op.inputs)]
        if any(m != first for m in maps[len(op.inputs) + 1:]):
            raise op.error("all output operands must share the same indexing map")
    if has_grid and maps and len(maps) == len(operands):
        for value in operands:
            if isinstance(value.type, MemRefType) and not _has_layout(value):
                raise op.error(f"memref operand must have a device layout attribute (e.g., #ttcore.shard or "
                               f"#ttcore.interleaved), but got: '{value.type}'")
            if isinstance(value.type, TensorType) and not _has_layout(value):
                raise op.error(f"tensor operand must have a metal layout encoding, but got: '{value.type}'")
        grids = [_split(v)[0] for v in operands]
        _permutation(op, "grid", maps, grids)
        if not _broadcasts(maps):
            _permutation(op, "shard", maps, [_scalar_shard(v) for v in operands])
        _blocking(op, maps, grids, factors, maps[len(op.inputs)], grid_shape)
    first_region = op.regions[0] if op.regions else None
    for region in op.regions:
        if len(region.blocks) != 1:
            raise op.error("region must have a single block")
        args, first_args = region.blocks.first.args, first_region.blocks.first.args
        if len(args) != len(first_args):
            raise op.error("all regions must have the same number of arguments")
        for arg, first_arg in zip(args, first_args):
            if not isinstance(arg.type, LocalSemaphoreType):
                raise op.error("region block arguments must be of local semaphore type")
            if arg.type != first_arg.type:
                raise op.error("all regions must have the same argument types")
        if not explicit and not maps:
            raise op.error("indexing_maps must be non-empty unless in explicit datamovement form (all of "
                           "block_factors, indexing_maps, and iterator_types are empty)")
    if not op.regions and any(not isinstance(t, ThreadAttr) or not isinstance(t.kernel, SymbolRefAttr)
                              for t in threads):
        raise op.error("threads must have a kernel symbol in external symbol form (i.e. without regions)")
