"""The `d2m.generic` verifier, in upstream's order and wording: the op's forms (pure tensor semantics, explicit
data movement with no maps, external kernel symbols with no regions), its threads and regions, and how its operands'
grids and shards fit the iteration space the indexing maps and block factors describe.

Grid and shard shapes are the two halves of a device operand's shape (`tensor<2x1x1x1x!ttcore.tile<...>, #layout>`:
grid 2x1, shard 1x1 tiles). A map sends iteration dims to operand dims; its inverse (dims an operand does not index
read 0, a wildcard) compares operands dim by dim."""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, MemRefType, NoneAttr, SymbolRefAttr, TensorType
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import IRDLOperation

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
