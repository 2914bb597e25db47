"""Where the elements of a buffer live, as upstream's D2M utilities compute it (getMemoryMap): an affine map from an
index of a buffer to its place in the chip's memories, and the DMA coalescing factor read off such a map.

- A remote buffer (a device layout: `#ttcore.shard<...>` or `#ttcore.interleaved<...>`, possibly seen through
  `d2m.view_layout`s) maps (grid index, shard index) to `(device, y, x, byte offset)`: the layout's own map (grid
  dims and the shard's byte offset through its strides) after the views' remappings (and the buffer's virtual
  grid forward mapping), then the device's `l1Map` (L1: core y, x, address) or `dramMap` (DRAM: bank, address;
  its symbols the grid and shard shapes collapsed to 2-d, the page size, base 0, the element size).
- A local buffer (a block of this core's L1) maps its index to a byte offset, row-major.
- IndexBuilder applies such a map to index values (a constant, an operand itself, or an `affine.apply` per
  result), as upstream's applyMap.
- The coalescing factor of a map over a grid of shards: the largest count of elements every shard's row-major walk
  lands on contiguously in memory, in runs that divide the shard (the gcd of its contiguous runs).
"""

from __future__ import annotations

import itertools
import math
import re

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, MemRefType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.parser import Parser

from ttmlir import hardware
from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.affine_ext import ApplyOp
from ttmlir.errors import PassFailure

FORWARD_MAPS = ("d2m.virtualGridForwardMapping", "virtualGridForwardMapping")  # memref.alloc's / d2m.empty's


def parse_map(text: str) -> AffineMap:
    return Parser(Context(), text).parse_affine_map()


def element_bytes(element) -> int:
    if isinstance(element, ttcore.TileType):
        return hardware.tile_bytes(element.dtype, tuple(a.value.data for a in element.shape.data))
    return element.bitwidth // 8


def memory_space(t: MemRefType) -> str | None:
    space = getattr(t.memory_space, "data", None)
    return getattr(space, "value", None)


def is_logical_view(view: d2m.ViewLayoutOp) -> bool:
    """Whether a view's remapping names elements by logical index (`ttir-to-d2m`'s gathers: its dims are not its
    device shape's), which the main pipeline's gather programs copy."""
    return view.remapping.data.num_dims != len(view.result.type.get_shape())


def logical_view_refusal(remapping: AffineMap) -> str:
    return (f"a view of logical indices ({remapping}: a reshape or permute moving elements between tiles) is copied "
            "by --ttir-to-ttmetal-pipeline's gather programs, not lowered by the staged D2M pipelines yet")


def apply_views(value: SSAValue) -> tuple[SSAValue, AffineMap]:
    """The buffer a chain of `d2m.view_layout`s reads and the composed remapping from the outermost view's index to
    the buffer's (identity when `value` is no view)."""
    rank = len(value.type.get_shape())
    view = AffineMap.identity(rank)
    while isinstance(value.owner, d2m.ViewLayoutOp):
        if is_logical_view(value.owner):
            raise PassFailure(value.owner, logical_view_refusal(value.owner.remapping.data))
        view = value.owner.remapping.data.compose(view)
        value = value.owner.input
    return value, view


def forward_mapping(value: SSAValue) -> AffineMap | None:
    """The virtual grid forward mapping the buffer under `value`'s views was allocated with, if any."""
    owner = apply_views(value)[0].owner
    for key in FORWARD_MAPS:
        mapping = owner.attributes.get(key) if isinstance(owner, Operation) else None
        if mapping is not None:
            return mapping.data
    return None


def physical_grid(volume: int, device: tuple[int, ...]) -> tuple[int, int] | None:
    """The 2-d grid of `volume` cores upstream places a virtual grid on (findLegalPhysicalGridForVolume): the
    factor pair nearest the square root that fits the device grid, either way round."""
    for y in range(math.isqrt(volume), 0, -1):
        if volume % y == 0:
            x = volume // y
            if y <= device[0] and x <= device[1]:
                return y, x
            if x <= device[0] and y <= device[1]:
                return x, y
    return None


def needs_virtual_grid(grid: tuple[int, ...], device: tuple[int, ...]) -> bool:
    return len(grid) != 2 or grid[0] > device[0] or grid[1] > device[1]


def core_virt_map(grid: tuple[int, ...], physical: tuple[int, int], shard_rank: int) -> AffineMap:
    """Upstream's createCoreVirtMaps forward map: (virtual grid, shard) -> (physical y, x, shard), the virtual grid
    linearized row-major, then laid row-major over the physical grid."""
    linear: AffineExpr = AffineExpr.dimension(len(grid) - 1)
    stride = grid[-1]
    for i in reversed(range(len(grid) - 1)):
        linear = linear + AffineExpr.dimension(i) * stride
        stride *= grid[i]
    y, x = (linear // physical[1]) % physical[0], linear % physical[1]
    shard = [AffineExpr.dimension(len(grid) + i) for i in range(shard_rank)]
    return AffineMap(len(grid) + shard_rank, 0, (y, x, *shard))


def strides_map(strides: tuple[int, ...]) -> AffineMap:
    """(grid dims, shard dims) -> (grid dims, the shard index's byte offset through `strides`)."""
    rank = len(strides)
    offset: AffineExpr = AffineExpr.constant(0)
    for i in reversed(range(rank)):
        offset = AffineExpr.dimension(rank + i) * strides[i] + offset
    return AffineMap(2 * rank, 0, (*(AffineExpr.dimension(i) for i in range(rank)), offset))


def device_map(text: str, symbols: list[int]) -> AffineMap:
    """A device memory map (`l1Map`, `dramMap`: written with symbols) with its symbols given values. The values go
    into the text before parsing: a product of a dim and a symbol is no affine expression until the symbol is a
    constant."""
    header, arrow, body = text.partition("->")
    names = re.findall(r"\bs\d+\b", header)
    if len(names) != len(symbols):
        raise ValueError(f"expected {len(names)} symbol values for {text}, got {len(symbols)}")
    values = dict(zip(names, symbols))
    body = re.sub(r"\bs\d+\b", lambda m: str(values[m.group(0)]), body)
    return parse_map(re.sub(r"\[[^\]]*\]", "", header) + arrow + body)


def _collapsed(shape: tuple[int, ...], rank: int) -> list[int]:
    """`shape` as `rank` dims: padded with leading 1s, or its leading dims multiplied together."""
    if len(shape) <= rank:
        return [1] * (rank - len(shape)) + list(shape)
    return [math.prod(shape[:len(shape) - rank + 1]), *shape[len(shape) - rank + 1:]]


def remote_memory_map(device: ttcore.DeviceAttr, value: SSAValue, op: Operation) -> AffineMap:
    """The map from an index of remote buffer `value` (through its views) to (device, y, x, byte offset) in L1 or
    (device, 0, bank, byte offset) in DRAM, with base address 0."""
    base, view = apply_views(value)
    t = base.type
    layout, space, dev = t.layout, memory_space(t), device.data
    shape = tuple(t.get_shape())
    if isinstance(layout, ttcore.ShardLayoutAttr):
        strides = layout.data[0]
        grid, shard = shape[:len(shape) - len(strides)], shape[len(shape) - len(strides):]
        amap = strides_map(strides)
        forward = forward_mapping(value)
        worker = tuple(dev.worker_grid.shape)
        if forward is None and needs_virtual_grid(grid, worker):
            physical = physical_grid(math.prod(grid), worker)
            if physical is None:
                raise PassFailure(op, f"a buffer on grid {'x'.join(map(str, grid))} has no placement on the "
                                      f"{'x'.join(map(str, worker))} worker grid")
            forward = core_virt_map(grid, physical, len(shard))
        if forward is not None:
            # a grid of more dims than the physical one's: the layout map keeps its trailing grid dims (the physical
            # y, x the forward map gives)
            extra = amap.num_dims - len(forward.results)
            if extra < 0 or extra > len(grid):
                raise PassFailure(op, f"a virtual grid mapping of {len(forward.results)} results does not place "
                                      f"a buffer of rank {amap.num_dims}")
            if extra:
                dims = [AffineExpr.constant(0)] * extra + [AffineExpr.dimension(i)
                                                           for i in range(amap.num_dims - extra)]
                amap = AffineMap(amap.num_dims - extra, 0, tuple(
                    r.replace_dims_and_symbols(dims, []) for r in amap.results[extra:]))
            amap = amap.compose(forward)
        amap = amap.compose(view)
        if space == "l1":
            return device_map(dev.l1_map, [0]).compose(amap)
        if space == "dram":
            if forward is not None:
                physical = [b - a + 1 for a, b in zip(forward.eval([0] * len(shape), []),
                                                      forward.eval([s - 1 for s in shape], []))]
                grid, shard = tuple(physical[:len(worker)]), tuple(physical[len(worker):])
            page = math.prod(shard) * element_bytes(t.element_type)
            symbols = [*_collapsed(grid, len(worker)), *_collapsed(shard, len(worker)), page, 0,
                       element_bytes(t.element_type)]
            return device_map(dev.dram_map, symbols).compose(amap)
    elif isinstance(layout, ttcore.InterleavedLayoutAttr) and space == "dram":
        strides = layout.data
        amap = strides_map(strides).compose(view)
        elem = element_bytes(t.element_type)
        page = elem if isinstance(t.element_type, ttcore.TileType) else strides[0]
        return device_map(dev.dram_map, [*shape, page, 0, elem]).compose(amap)
    raise PassFailure(op, f"a DMA reaches {t}, which has no device layout in L1 or DRAM")


def strided_map(shape: tuple[int, ...], element) -> AffineMap:
    """A row-major block's index -> its byte offset."""
    offset: AffineExpr = AffineExpr.constant(0)
    stride = element_bytes(element)
    for i in reversed(range(len(shape))):
        offset = AffineExpr.dimension(i) * stride + offset
        stride *= shape[i]
    return AffineMap(len(shape), 0, (offset,))


def local_memory_map(value: SSAValue) -> AffineMap:
    """The map from an index of a block of this core's L1 (a memref, or a CB's block) to its byte offset."""
    t = value.type
    if isinstance(t, d2m.CBType):
        t = t.underlying
    amap = strided_map(tuple(t.get_shape()), t.element_type)
    if isinstance(t.layout, ttcore.ViewLayoutAttr):
        amap = amap.compose(apply_views(value)[1])
    return amap


def coalescing_factor(amap: AffineMap, grid: tuple[int, ...], shard: tuple[int, ...], stride: int) -> int:
    """Upstream's calculateCoalescingFactor: walking each shard of the grid row-major through `amap` (grid dims then
    shard dims -> addresses, the last one in bytes), the gcd of the lengths of its runs of elements `stride` bytes
    apart, starting from the whole shard."""
    factor = math.prod(shard)
    if not shard:
        return 1
    for grid_index in itertools.product(*map(range, grid)):
        run, expected = 0, None
        for shard_index in itertools.product(*map(range, shard)):
            address = amap.eval([*grid_index, *shard_index], [])
            if expected is not None and address != expected:
                factor = math.gcd(factor, run)
                if factor == 1:
                    return 1
                run = 0
            run += 1
            expected = (*address[:-1], address[-1] + stride)
        factor = math.gcd(factor, run)
        if factor == 1:
            return 1
    return factor


def index_constant(value: int) -> arith.ConstantOp:
    """An index constant."""
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


class IndexBuilder:
    """Ops built in order before an insertion point."""

    def __init__(self, block: Block, before: Operation | None):
        self.block, self.before = block, before

    def add(self, op: Operation) -> Operation:
        if self.before is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, self.before)
        return op

    def apply(self, amap: AffineMap, operands: list[SSAValue]) -> list[SSAValue]:
        """Each result of `amap` on `operands`: a constant, an operand itself, or an affine.apply."""
        values = []
        constants = [constant_index(v) for v in operands]
        for expr in amap.results:
            single = AffineMap(amap.num_dims, 0, (expr,))
            if not single.used_dims():
                values.append(self.add(index_constant(single.eval([0] * amap.num_dims, [])[0])).result)
            elif isinstance(expr, AffineDimExpr):
                values.append(operands[expr.position])
            elif None not in constants:
                values.append(self.add(index_constant(single.eval(constants, [])[0])).result)
            else:
                values.append(self.add(ApplyOp(operands, AffineMapAttr(single))).result)
        return values


def remote_indices(b: IndexBuilder, amap: AffineMap, index: list[SSAValue]) -> list[SSAValue]:
    """[y, x, offset] (L1) or [_, bank, offset] (DRAM): the memory map's results after the device's."""
    return b.apply(AffineMap(amap.num_dims, 0, amap.results[1:]), index)
