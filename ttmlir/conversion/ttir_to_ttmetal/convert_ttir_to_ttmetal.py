"""`--convert-ttir-to-ttmetal`: TTIR elementwise graphs straight to a TTMetal host program and TTKernel kernels.

This is the first cut of the Metal path; upstream reaches the same place through D2M (`d2m.generic` per op,
grid selection, bufferization, allocation, thread split, DMA lowering), which this pass does in one step for
what it covers: elementwise unary and binary ops on f32, bf16 and si32 tensors (each matrix padded to whole
tiles, leading dims folded into rows; an operand may broadcast along a matrix's rows or columns: its tiles are
gathered per output tile and spread by unary_bcast), and the transpose of a matrix
(each output tile fetched from the core or DRAM page holding its source tile, transposed in the dst register),
dense constants (host data in a `memref.global`, written to the device like an input), f32/bf16
typecasts (copied into dst, converted by the packer), sum/mean/max over a
matrix's rows or columns (reduce_tile with a scaler tile the host writes to each core)
and 2-d matmul, also a ttir.dot_general that is one (each core's output shard computed from a block of A and one
of B, multicast along the grid's rows and columns with semaphore handshakes; tile or block matmuls per
`use-tile-matmul`). D2M programs in unified-thread form are read too: a host tensor moved onto the device lives
where its metal-layout type and its d2m.empty put it (grid, shards, the cores a virtual grid mapping moves it
to), and each d2m.generic computing one tile op on whole shards runs as that op's program on its tensor's cores (the
regions of a d2m.spatial as one program). Anything else is refused naming the op.

With `ttnn-mode` the function's tensors are TTNN's and stay so: a TTIR op on them, or a D2M program on their
`ttir.ttnn_metal_layout_cast`s, computes where their `#ttnn.ttnn_layout` holds them (L1 shards on the cores it
names, or DRAM pages), each result a `ttnn.empty`, and each program becomes a `ttnn.generic`
(`convert_d2m_to_ttnn`) whose kernels take every address as a runtime argument, since TTNN allocates at run time.

Per function: each tensor is computed on the largest grid that divides its tile rows and columns and fits the
device's worker grid (a grid given larger than the device, a virtual grid, is laid onto a rectangle of cores row by
row; with collapse-tensors-2d=false a tensor keeps its rank, each matrix of its batch on its own rows of cores, and
its host data is written row-major and tilized by a program on the device). It lives in L1, sharded over that grid, or (function inputs and results, with the
memspace options) in DRAM, interleaved a tile per page over the banks; addresses are fixed here (a bump
allocator per space from the chip's unreserved base). Each op is one `ttmetal.enqueue_program` of three
kernels per core: a reader that hands L1-resident input shards to their CBs or reads DRAM pages into them, a
compute kernel that walks the shard tile by tile through the dst register, and a writer that waits for the
output shard (and writes it to DRAM pages). f32 ops run on the SFPU (both inputs copied into
dst), bf16 add/subtract/multiply on the FPU (`add_tiles`), as upstream chooses.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (AffineMapAttr, ArrayAttr, BFloat16Type, BytesAttr, DenseArrayBase,
                                   DenseIntOrFPElementsAttr, Float32Type, FunctionType, IndexType, IntegerAttr,
                                   IntegerType, MemRefType, ModuleOp, NoneAttr, StringAttr, SymbolRefAttr, TensorType,
                                   UnitAttr, i32, i64)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.dialects.memref import AllocOp, CopyOp, GetGlobalOp, GlobalOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass

from ttmlir import hardware
from ttmlir.dialects import d2m, ttcore, ttkernel, ttmetal, ttnn
from ttmlir.ir.sizes import elements_error
from ttmlir.dialects.ttir import TTNNMetalLayoutCastOp
from ttmlir.errors import PassFailure
from ttmlir.conversion.d2m_to_ttnn.convert_d2m_to_ttnn import device_of, generic_of
from ttmlir.transforms.ttnn.ttnn_utils import ttnn_empty
from ttmlir.transforms.d2m.d2m_grid_selection import grid_for
from ttmlir.conversion.ttir_to_d2m.ttir_to_d2m import check_memspaces

TILE = 32
i8 = IntegerType(8)
_DTYPES = {"f32": "f32", "bf16": "bf16", "i32": "si32", "si32": "si32"}
_ELEMENTS = {"f32": Float32Type(), "bf16": BFloat16Type(), "si32": IntegerType(32)}
# TTIR op -> SFPU op (binary: `<op>(dst0, dst1, dst0)`; unary: `<op>_tile(dst0)`)
SFPU_BINARY = {"add": "add_binary_tile", "subtract": "sub_binary_tile", "multiply": "mul_binary_tile",
               "div": "div_binary_tile", "maximum": "binary_max_tile", "minimum": "binary_min_tile",
               "pow": "power_binary_tile", "eq": "eq_binary_tile", "ne": "ne_binary_tile", "gt": "gt_binary_tile",
               "ge": "ge_binary_tile"}
# a < b is b > a, a <= b is b >= a: lowered with their operands swapped, as upstream canonicalizes them
SWAPPED = {"lt": "gt", "le": "ge"}
SFPU_UNARY = {"exp": "exp", "log": "log", "sqrt": "sqrt", "rsqrt": "rsqrt", "reciprocal": "recip", "abs": "abs",
              "neg": "negative", "relu": "relu", "sigmoid": "sigmoid", "tanh": "tanh", "sin": "sin", "cos": "cos",
              "tan": "tan", "ceil": "ceil", "floor": "floor", "sign": "sign", "gelu": "gelu", "erf": "erf",
              "logical_not": "logical_not", "atan": "atan", "expm1": "expm1", "log1p": "log1p"}
INT_VARIANTS = {"abs": "abs_tile_int32"}  # SFPU ops with their own entry point for si32 tiles
SHARED_INITS = {"ceil": "rounding_op_tile_init", "floor": "rounding_op_tile_init"}  # inits one op family shares
FPU_BINARY = {"add": "add_tiles", "subtract": "sub_tiles", "multiply": "mul_tiles"}
REDUCTIONS = ("sum", "mean", "max")
CREATIONS = {"full": None, "zeros": 0, "ones": 1, "arange": None}  # ops making a tensor: their fill value
BROADCASTS = ("row", "col", "scalar")


@dataclass
class _Layout:
    """A tensor's device buffer: the grid its tiles are computed on, each core's shard (in tiles), the element
    tile, where it lives and its address there. In L1 it is sharded over the grid; in DRAM it is interleaved
    over the banks a tile per page (and computed through an L1 copy of the same shards, the CB)."""
    grid: tuple[int, int]
    shard: tuple[int, int]
    dtype: str
    address: int
    memory: str = "l1"
    origin: tuple[int, int] = (0, 0)  # the core holding shard (0, 0) (an L1 tensor placed away from core (0, 0))
    fold: tuple[int, int] | None = None  # the rectangle of cores a virtual grid's shards fill, row by row
    # a tensor kept at its rank (collapse-tensors-2d=false): its grid and shard dims, in tiles, of which the
    # 2-d grid and shard are the leading dims folded into rows
    nd: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    tiled: bool = True  # row-major elements otherwise (host data staged for a tilize program)

    @property
    def cores(self) -> tuple[int, int]:
        """The rectangle of cores (from `origin`) holding the shards: the grid's own shape unless folded."""
        return self.fold or self.grid

    def near(self, other: "_Layout") -> bool:
        """Whether `other`'s shards are on the same cores, shard for shard."""
        return (self.grid, self.origin, self.cores) == (other.grid, other.origin, other.cores)

    def core_of(self, ops: "_Ops", y: SSAValue, x: SSAValue) -> tuple[SSAValue, SSAValue]:
        """The core (y, x) holding shard (y, x), relative to `origin` (computed in the kernel)."""
        if self.fold is None:
            return y, x
        index = IndexType()
        linear = ops.emit(arith.AddiOp(ops.emit(arith.MuliOp(y, ops.const(self.grid[1], index))), x))
        columns = ops.const(self.fold[1], index)
        return ops.emit(arith.DivUIOp(linear, columns)), ops.emit(arith.RemUIOp(linear, columns))

    @property
    def tile(self) -> ttcore.TileType:
        return ttcore.TileType((TILE, TILE), self.dtype)

    @property
    def tiles(self) -> int:
        return self.shard[0] * self.shard[1]

    @property
    def page(self) -> int:
        return hardware.tile_bytes(self.dtype)

    @property
    def tensor_tiles(self) -> tuple[int, int]:
        return self.grid[0] * self.shard[0], self.grid[1] * self.shard[1]

    def memref(self) -> MemRefType:
        space = ttcore.MemorySpaceAttr(ttcore.MemorySpaceAttr.enum_type(self.memory))
        if self.memory == "dram":
            ht, wt = self.tensor_tiles
            return MemRefType(self.tile, [1, 1, ht, wt], ttcore.InterleavedLayoutAttr((wt * self.page, self.page)), space)
        grid, shard = self.nd or (self.grid, self.shard)
        element, unit = (self.tile, self.page) if self.tiled else \
            (_ELEMENTS[self.dtype], hardware.DTYPE_BYTES[self.dtype])
        if not self.tiled:  # the shard's matrix in elements
            shard = (*shard[:-2], shard[-2] * TILE, shard[-1] * TILE)
        strides = [unit]
        for size in reversed(shard[1:]):
            strides.insert(0, strides[0] * size)
        return MemRefType(element, [*grid, *shard], ttcore.ShardLayoutAttr((tuple(strides), 1)), space)

    def staged(self) -> "_Layout":
        """The same shards as row-major elements (where host data lands before a tilize program)."""
        return _Layout(self.grid, self.shard, self.dtype, 0, self.memory, self.origin, self.fold, self.nd, False)


class _Ops(list):
    """Ops of a kernel body in order; `emit` appends one and gives its result. A data-movement kernel's ops carry
    the NoC its transfers use (an i8 constant made at the kernel's top, as upstream's kernels name theirs)."""

    def __init__(self, noc: int | SSAValue | None = None, plan: "_ArgPlan | None" = None,
                 accessors: dict | None = None):
        super().__init__()
        self.noc = self.const(noc, i8) if isinstance(noc, int) else noc
        self.plan = plan or _ArgPlan()
        self.accessors: dict[SSAValue, SSAValue] = {} if accessors is None else accessors  # base -> TensorAccessor

    def nested(self) -> "_Ops":
        return _Ops(self.noc, self.plan, self.accessors)

    def arg(self, index: int, t: Attribute = i32) -> SSAValue:
        """Argument `index` of the kernel: compile-time, or common runtime under tensor-accessor DMA."""
        if not self.plan.common:
            return self.ct_arg(index, t)
        return self.call("get_common_arg_val", self.const(index, IndexType()), result=t)

    def address(self, index: int) -> SSAValue:
        """The buffer address at argument `index`; a DRAM buffer read under tensor-accessor DMA also gets its
        TensorAccessor (its description at the compile-time slot the plan names), used for its transfers."""
        base = self.arg(index)
        if index in self.plan.accessors:
            args = self.call("TensorAccessorArgs", self.const(self.plan.accessors[index]), self.const(0),
                             result=ttkernel.TensorAccessorArgsType())
            page = self.const(self.plan.page_sizes[index])
            self.accessors[base] = self.call("TensorAccessor", args, base, page, result=ttkernel.TensorAccessorType())
        return base

    def transfer_tile(self, read: bool, base: SSAValue, page_id: SSAValue, local: SSAValue) -> bool:
        """Page `page_id` of the DRAM buffer at `base` moved through its TensorAccessor, if it has one."""
        if base not in self.accessors:
            return False
        self.call("noc_async_read_tile" if read else "noc_async_write_tile", page_id, self.accessors[base], local,
                  self.noc)
        return True

    def barrier(self, kind: str) -> None:
        self.call(f"noc_async_{kind}_barrier", self.noc)

    def emit(self, op: Operation) -> SSAValue | None:
        self.append(op)
        return op.results[0] if op.results else None

    def const(self, value: int, t: Attribute = i32) -> SSAValue:
        return self.emit(arith.ConstantOp(IntegerAttr(value, t)))

    def ct_arg(self, index: int, t: Attribute = i32) -> SSAValue:
        return self.emit(ttkernel.OP_CLASSES["get_compile_time_arg_val"].create(
            properties={"arg_index": IntegerAttr(index, i32)}, result_types=[t]))

    def call(self, name: str, *operands: SSAValue, result: Attribute | None = None, **props) -> SSAValue | None:
        return self.emit(ttkernel.OP_CLASSES[name].create(operands=list(operands), properties=props,
                                                          result_types=[result] if result else []))

    def coords(self, layout: "_Layout") -> tuple[SSAValue, SSAValue]:
        """The shard (y, x) of `layout`'s grid this core holds (its grid starts at core `origin`, folded onto its
        rectangle of cores row by row when `fold` says)."""
        index = IndexType()
        y, x = (self.emit(ttkernel.MyLogicalYOp.create(result_types=[index])),
                self.emit(ttkernel.MyLogicalXOp.create(result_types=[index])))
        y, x = (self.emit(arith.SubiOp(v, self.const(o, index))) if o else v for v, o in zip((y, x), layout.origin))
        if layout.fold is None:
            return y, x
        linear = self.emit(arith.AddiOp(self.emit(arith.MuliOp(y, self.const(layout.fold[1], index))), x))
        columns = self.const(layout.grid[1], index)
        return self.emit(arith.DivUIOp(linear, columns)), self.emit(arith.RemUIOp(linear, columns))

    def loop(self, count: int, body) -> None:
        """`for k in 0..count: body(ops, k)` as an scf.for over index."""
        index = IndexType()
        lower, step, upper = self.const(0, index), self.const(1, index), self.const(count, index)
        block = Block(arg_types=[index])
        inner = self.nested()
        body(inner, block.args[0])
        block.add_ops([*inner, scf.YieldOp()])
        self.append(scf.ForOp(lower, upper, step, [], block))

    def if_else(self, cond: SSAValue, then, otherwise) -> None:
        """`if (cond) then(ops) else otherwise(ops)` as an scf.if."""
        regions = []
        for build in (then, otherwise):
            inner = self.nested()
            build(inner)
            regions.append(Region(Block([*inner, scf.YieldOp()])))
        self.append(scf.IfOp(cond, [], *regions))

    def semaphore(self, sem_id: int) -> tuple[SSAValue, SSAValue]:
        """Semaphore `sem_id` of this core: its L1 address, and a pointer to it."""
        address = self.call("get_semaphore", self.const(sem_id), result=ttkernel.LocalSemaphoreType())
        return address, self.call("reinterpret_cast", address, result=ttkernel.L1AddrPtrType())

    def read_tile(self, chip: dict, source: _Layout, row: SSAValue, col: SSAValue, base: SSAValue,
                  near: SSAValue) -> None:
        """A NoC read of tile (row, col) of `source` into L1 at `near`: from its DRAM page (page row * Wt + col,
        bank page % banks), or from the L1 of the core holding it (core (row / SY, col / SX), its NoC coordinates
        the logical ones plus the chip's translation offset, at shard position (row % SY, col % SX))."""
        index = IndexType()
        page = self.const(source.page)
        if source.memory == "dram" or base in self.accessors:  # by page: row * Wt + col of the whole tensor
            tile = self.emit(arith.IndexCastOp(self.emit(arith.AddiOp(
                self.emit(arith.MuliOp(row, self.const(source.tensor_tiles[1], index))), col)), i32))
            if self.transfer_tile(True, base, tile, near):
                return
            banks = self.const(int(chip["num_dram_channels"]))
            bank = self.emit(arith.RemUIOp(tile, banks))
            far = self.emit(arith.AddiOp(base, self.emit(arith.MuliOp(self.emit(arith.DivUIOp(tile, banks)), page))))
            self.append(ttkernel.NocAsyncReadOp.create(
                operands=[bank, far, near, page, self.noc],
                properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [0, 1, 1, 1, 1, 1])}))
            return
        sy, sx = self.const(source.shard[0], index), self.const(source.shard[1], index)
        offset_y, offset_x = (self.const(o + g, index)
                              for o, g in zip(chip["coord_translation_offsets"], source.origin))
        core_y, core_x = source.core_of(self, self.emit(arith.DivUIOp(row, sy)), self.emit(arith.DivUIOp(col, sx)))
        noc_y, noc_x = self.emit(arith.AddiOp(core_y, offset_y)), self.emit(arith.AddiOp(core_x, offset_x))
        position = self.emit(arith.AddiOp(self.emit(arith.MuliOp(self.emit(arith.RemUIOp(row, sy)), sx)),
                                          self.emit(arith.RemUIOp(col, sx))))
        far = self.emit(arith.AddiOp(base, self.emit(arith.MuliOp(self.emit(arith.IndexCastOp(position, i32)), page))))
        self.append(ttkernel.NocAsyncReadOp.create(
            operands=[noc_x, noc_y, far, near, page, self.noc],
            properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [2, 0, 1, 1, 1, 1])}))


FUSED_DST_TILES = 8  # dst tiles a fused elementwise tree may use at once (half of dst: f32 tiles take two slots)


def _eltwise(op: Operation) -> tuple[str, list[SSAValue]] | None:
    """An elementwise TTIR op as (SFPU kind, operands), compared ops with their operands swapped as lowered;
    None for any other op."""
    kind = op.name.removeprefix("ttir.")
    if not op.name.startswith("ttir.") or len(op.results) != 1:
        return None
    operands = list(op.operands)
    if kind in SWAPPED:
        kind, operands = SWAPPED[kind], operands[::-1]
    return (kind, operands) if kind in SFPU_BINARY or kind in SFPU_UNARY else None


LAYOUT_MOVES = ("d2m.to_layout", "ttir.to_layout")  # a tensor moved into another layout (host <-> device, regridded)


def _host_layout(t: Attribute) -> ttcore.HostLayoutAttr | None:
    """The padded host layout a tensor not in whole tiles is staged in: each matrix of the batch padded to whole
    tiles, as the device holds it; None when nothing is padded."""
    shape = tuple(t.get_shape())
    batch, rows, cols = hardware.tile_padded(shape)
    if len(shape) >= 2 and (rows, cols) == shape[-2:]:
        return None
    return ttcore.HostLayoutAttr(ttcore.HostLayout(shape, hardware.tile_padded_strides(shape), batch * rows * cols))


def _one_program(launches: list[ttmetal.EnqueueProgramOp], op: Operation) -> ttmetal.EnqueueProgramOp:
    """Launches on disjoint cores as one program (a d2m.spatial's regions run together): their operands, CBs and
    kernels side by side, each kernel's argument indices moved past the launches before it."""
    args, cbs, ports, configs = [], [], [], []
    for launch in launches:
        shift = {"cb_port": len(cbs), "buffer_address": len(args)}
        for config in launch.kernelConfigs.data:
            kernel = config.data
            groups = tuple(tuple((kind, index + shift.get(kind, 0)) for kind, index in group)
                           for group in kernel.args.data)
            configs.append(type(config)(ttmetal.KernelConfig(kernel.symbol, kernel.core_range,
                                                             ttmetal.KernelArgsAttr(groups), kernel.fields)))
        args += launch.args
        cbs += launch.cbs
        ports += launch.cb_ports.get_values()
    return _enqueue(args, cbs, ports, configs, op)


def _configs(layout: _Layout, reader: tuple[str, Attribute], writer: tuple[str, Attribute], compute: str,
             ports: list[int]) -> list[Attribute]:
    """A launch's kernels on the output's cores: a reader on NoC 0 (data-movement core 1) and a writer on NoC 1
    (core 0), each (symbol, argument bindings), and the compute kernel with CB ports `ports` as compile-time
    args (f32 accumulating in an f32 dst)."""
    cores = ttmetal.CoreRangeAttr((layout.origin, layout.cores))
    return [ttmetal.NocConfigAttr(ttmetal.KernelConfig(SymbolRefAttr(reader[0]), cores, reader[1], (1, "noc0", None))),
            ttmetal.NocConfigAttr(ttmetal.KernelConfig(SymbolRefAttr(writer[0]), cores, writer[1], (0, "noc1", None))),
            ttmetal.ComputeConfigAttr(ttmetal.KernelConfig(SymbolRefAttr(compute), cores, _args(ports, []),
                                                           ("hifi4", layout.dtype == "f32", False, False,
                                                            ("default",))))]


def _enqueue(buffers: list[SSAValue], cbs: list[SSAValue], ports: list[int], configs: list[Attribute],
             op: Operation) -> ttmetal.EnqueueProgramOp:
    """A program launch of `configs` over `buffers` and the CBs `cbs` (on `ports`), located at `op`."""
    launch = ttmetal.EnqueueProgramOp.create(
        operands=[*buffers, *cbs],
        properties={"cb_ports": DenseArrayBase.from_list(i64, ports), "kernelConfigs": ArrayAttr(configs),
                    "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(buffers), len(cbs)])})
    launch.location = op.location
    return launch


def _dst_tiles(tree) -> int:
    """The dst tiles evaluating `tree` takes: an operand in its slot, a binary op's second operand in the next."""
    if isinstance(tree, int):
        return 1
    kind, children = tree
    if len(children) == 1:
        return _dst_tiles(children[0])
    return max(_dst_tiles(children[0]), _dst_tiles(children[1]) + 1)


@dataclass
class _ArgPlan:
    """Where a data-movement kernel finds its arguments: compile-time args, or (tensor-accessor DMA) common
    runtime args, a DRAM buffer's address at argument position p read through a TensorAccessor described at
    compile-time slot `accessors[p]` (pages of `page_sizes[p]` bytes)."""
    common: bool = False
    accessors: dict[int, int] = field(default_factory=dict)
    page_sizes: dict[int, int] = field(default_factory=dict)


def _args(ports: list[int], addresses: list[int]) -> ttmetal.KernelArgsAttr:
    """Compile-time args: the CB ports of the launch's CBs `ports`, then the addresses of operands `addresses`."""
    return ttmetal.KernelArgsAttr(((), (), (*(("cb_port", i) for i in ports),
                                            *(("buffer_address", i) for i in addresses))))


def _fold(grid: tuple[int, int], device: tuple[int, int]) -> tuple[int, int]:
    """The cores a grid's shards are on: its own shape when it fits the device, else (a virtual grid) the squarest
    rectangle of as many cores that fits, filled row by row (1x12 on an 8x8 device: 3x4)."""
    if grid[0] <= device[0] and grid[1] <= device[1]:
        return grid
    count = grid[0] * grid[1]
    rows = [r for r in range(1, count + 1) if count % r == 0 and r * r <= count and r <= device[0]
            and count // r <= device[1]]
    return (rows[-1], count // rows[-1]) if rows else grid


def _grid_maps(layout: _Layout) -> tuple[AffineMapAttr, AffineMapAttr]:
    """A placed grid's virtual grid maps as upstream writes them: forward (shard index..., element index...) ->
    (core y, core x, element index...), inverse (core y, core x) -> (0, shard index...). A grid kept at its rank
    has its leading dims folded into rows; a grid folded onto a rectangle of cores fills it row by row."""
    grid = layout.nd[0] if layout.nd else layout.grid
    n = len(grid)
    d = [AffineExpr.dimension(i) for i in range(2 * n)]
    (oy, ox), (cy, cx), columns = layout.origin, layout.cores, layout.grid[1]
    strides = [math.prod(grid[k + 1:n - 1]) for k in range(n - 1)]  # of each leading dim within the rows
    terms = [d[k] * stride if stride > 1 else d[k] for k, stride in enumerate(strides) if grid[k] > 1 or k == n - 2]
    row = terms[0]
    for term in terms[1:]:
        row = row + term
    core = AffineExpr.dimension(0), AffineExpr.dimension(1)
    if layout.fold is None:
        forward, (virtual_row, virtual_col) = (row + oy, d[n - 1] + ox), (core[0] - oy, core[1] - ox)
    else:
        shard, linear = row * columns + d[n - 1], (core[0] - oy) * cx + (core[1] - ox)
        forward, (virtual_row, virtual_col) = (shard // cx + oy, shard % cx + ox), (linear // columns, linear % columns)
    leading = [virtual_row // strides[0] if strides[0] > 1 else virtual_row]
    leading += [AffineExpr.constant(0) if size == 1 else (virtual_row // stride if stride > 1 else virtual_row) % size
                for stride, size in zip(strides[1:], grid[1:n - 1])]
    return (AffineMapAttr(AffineMap(2 * n, 0, (*forward, *d[n:]))),
            AffineMapAttr(AffineMap(2, 0, (AffineExpr.constant(0), *leading, virtual_col))))


@dataclass
class _Placed:
    """A tensor on the device: its buffer and layout."""
    buffer: SSAValue
    layout: _Layout


@dataclass
class _FunctionLowering:
    func: FuncOp
    device_grid: tuple[int, int]
    chip: dict
    kernels: list[FuncOp]
    input_memory: str = "l1"
    output_memory: str = "l1"
    use_tile_matmul: bool = False
    fuse: bool = False
    accessor_dma: bool = False
    ttnn_mode: bool = False  # the function's tensors are TTNN's: each program becomes a ttnn.generic on them
    force_ct_args: bool = False
    keep_rank: bool = False  # collapse-tensors-2d=false
    fold_layouts: bool = True  # back-to-back to_layouts moved once

    def __post_init__(self):
        self.globals: list[Operation] = []  # constants' host data, module-level memref.global ops
        self.next = {"l1": int(self.chip["l1_unreserved_base"]), "dram": int(self.chip["dram_unreserved_base"])}
        self.ops: list[Operation] = []
        self.buffers: list[SSAValue] = []
        self.layouts: dict[SSAValue, _Layout] = {}  # each device buffer's layout (the CBs of a ttnn.generic)

    def shape_of(self, t: Attribute, op: Operation) -> tuple[int, int, str]:
        if not isinstance(t, TensorType):
            raise PassFailure(op, f"{t} is not a ranked tensor; the Metal path lowers tensors")
        shape = t.get_shape()
        dtype = str(t.element_type)
        if dtype not in _DTYPES:
            raise PassFailure(op, f"a tensor of {t.element_type} is not lowered to TTMetal yet (f32, bf16 and i32 are)")
        if len(shape) < 2:
            shape = (1,) * (2 - len(shape)) + tuple(shape)
        # each matrix of a batch is padded to whole tiles, then the batch folds into rows
        return math.prod(shape[:-2]) * -(-shape[-2] // TILE) * TILE, shape[-1], _DTYPES[dtype]

    def allocate(self, memory: str, size: int, op: Operation) -> int:
        """A fixed address: in each core's L1, or in each DRAM bank (a bump allocator per space); `size` is the
        bytes each core or bank holds."""
        address = self.next[memory]
        self.next[memory] += -(-size // 32) * 32
        limit = int(self.chip["l1_size"]) if memory == "l1" else int(self.chip["dram_unreserved_end"])
        if self.next[memory] > limit:
            raise PassFailure(op, f"the tensors of @{self.func.sym_name.data} need {self.next[memory]} B of "
                                  f"{memory.upper()} per {'core' if memory == 'l1' else 'bank'} ({limit} B)")
        return address

    def place(self, t: Attribute, op: Operation, memory: str) -> _Placed:
        if self.ttnn_mode:  # a result in the memory its TTNN layout names, allocated by TTNN
            empty = ttnn_empty(t, device_of(self.ops, self.func), op)
            self.ops.append(empty)
            return self.place_ttnn(empty.results[0], op)
        rows, cols, dtype = self.shape_of(t, op)
        ht, wt = -(-rows // TILE), -(-cols // TILE)
        if self.keep_rank and len(t.get_shape()) > 2:
            layout = self.nd_layout(t.get_shape(), (ht, wt), dtype, memory, op)
        else:
            grid = grid_for((ht, wt), self.device_grid)
            layout = _Layout(grid, (ht // grid[0], wt // grid[1]), dtype, 0, memory)
        per_bank = -(-ht * wt // int(self.chip["num_dram_channels"]))  # interleaved pages each DRAM bank holds
        layout.address = self.allocate(memory, (per_bank if memory == "dram" else layout.tiles) * layout.page, op)
        return _Placed(self.create_buffer(layout), layout)

    def nd_layout(self, shape: tuple[int, ...], tiles: tuple[int, int], dtype: str, memory: str,
                  op: Operation) -> _Layout:
        """A tensor kept at its rank: each matrix of the batch on its own rows of cores (a grid dim per batch
        dim, shards of one along them), its rows and columns over the largest grid dividing them that fits; a
        virtual grid larger than the device is laid onto a rectangle of cores."""
        if memory != "l1":
            raise PassFailure(op, "tensors kept above two dims live in L1 in this build; set "
                                  "default-input-memspace/default-output-memspace to l1")
        batch = tuple(shape[:-2])
        count = math.prod(batch)
        matrix_rows = tiles[0] // count
        gh, gw = grid_for((matrix_rows, tiles[1]), (max(1, self.device_grid[0] // count), self.device_grid[1]))
        grid = (count * gh, gw)
        cores = _fold(grid, self.device_grid)
        if cores[0] > self.device_grid[0] or cores[1] > self.device_grid[1]:
            raise PassFailure(op, f"a batch of {count} matrices needs more than the "
                                  f"{self.device_grid[0]}x{self.device_grid[1]} worker grid's cores")
        shard = (matrix_rows // gh, tiles[1] // gw)
        return _Layout(grid, shard, dtype, 0, memory, (0, 0), None if cores == grid else cores,
                       ((*batch, gh, gw), (*(1,) * len(batch), *shard)))

    def write_input(self, host: SSAValue, placed: _Placed, op: Operation) -> None:
        """A host tensor onto its device tensor: written as it is, or, for a tensor kept at its rank, written
        row-major into shards of its own and tilized there by a program, as upstream moves host data."""
        if placed.layout.nd is None:
            self.write_host(host, placed.buffer)
            return
        staged = self.staging(placed.layout, op)
        self.write_host(host, staged.buffer)
        self.ops.append(self.launch("tilize", [staged], placed, op))

    def read_output(self, placed: _Placed, t: TensorType, op: Operation) -> SSAValue:
        """A device tensor read back to the host (untilized by a program first when kept at its rank)."""
        if placed.layout.nd is None:
            return self.read_host(placed.buffer, t)
        staged = self.staging(placed.layout, op)
        self.ops.append(self.launch("untilize", [placed], staged, op))
        return self.read_host(staged.buffer, t)

    def staging(self, layout: _Layout, op: Operation) -> _Placed:
        staged = layout.staged()
        staged.address = self.allocate("l1", staged.tiles * staged.page, op)
        return _Placed(self.create_buffer(staged), staged)

    def create_buffer(self, layout: _Layout) -> SSAValue:
        props = {"address": IntegerAttr(layout.address, i64)}
        if layout.origin != (0, 0) or layout.fold or layout.nd:  # shards on other cores than the grid's own
            props.update(zip(("virtualGridForwardMapping", "virtualGridInverseMapping"), _grid_maps(layout)))
        create = ttmetal.CreateBufferOp.create(properties=props, result_types=[layout.memref()])
        self.ops.append(create)
        self.buffers.append(create.result)
        self.layouts[create.result] = layout
        return create.result

    def cb_of(self, placed: _Placed, op: Operation) -> SSAValue:
        """The L1 buffer a CB works in: the tensor's own shards in L1, or an L1 copy of a DRAM tensor's."""
        if placed.layout.memory == "l1":
            return placed.buffer
        return self.l1_buffer(placed.layout, placed.layout.shard, placed.layout.dtype, op)

    def lower(self) -> None:
        func, block = self.func, self.func.body.block
        if self.ttnn_mode:  # TTNN tensors in and out, as they are
            host_types = [a.type for a in block.args]
        else:
            host_types = [MemRefType(a.type.element_type, a.type.get_shape()) for a in block.args
                          if self.shape_of(a.type, func)]
        new_block = Block(arg_types=host_types)
        placed: dict[SSAValue, _Placed] = {}
        returned = {v for op in block.ops if isinstance(op, ReturnOp) for v in op.operands}
        self.hosts = {} if self.ttnn_mode else dict(zip(block.args, new_block.args))
        self.folded: dict[SSAValue, SSAValue] = {}  # a to_layout's result moved on by the next: its own source
        for old, new in zip(block.args, new_block.args):
            if self.ttnn_mode:
                old.replace_all_uses_with(new)
            elif any(use.operation.name not in LAYOUT_MOVES for use in old.uses):  # D2M places its own
                placed[old] = self.place(old.type, func, self.input_memory)
                self.write_input(new, placed[old], func)
        results: list[SSAValue] = []
        pending: dict[SSAValue, tuple] = {}  # fused elementwise results: (kind, operands), computed by their consumer
        for op in list(block.ops):
            if isinstance(op, ReturnOp):
                for value in op.operands:
                    if value in self.hosts and value not in block.args:  # host data copied on the host
                        results.append(self.hosts[value])
                        continue
                    if self.ttnn_mode and value not in placed:  # a TTNN op's result, or an argument
                        results.append(value)
                        continue
                    if value not in placed or value in block.args:
                        raise PassFailure(op, "a returned value must be computed on the device")
                    results.append(placed[value].buffer if self.ttnn_mode else
                                   self.read_output(placed[value], value.type, op))
                continue
            if op.name.startswith("d2m.") or op.name in (*LAYOUT_MOVES, "ttir.empty"):
                self.lower_d2m(op, placed)
                continue
            if self.ttnn_mode and (op.name.startswith("ttnn.") or isinstance(op, TTNNMetalLayoutCastOp)):
                self.bridge(op, placed)
                continue
            kind = op.name.removeprefix("ttir.")
            inputs = list(op.operands)
            if self.ttnn_mode:  # a TTIR op on TTNN tensors: each computed where TTNN holds it
                for value in inputs:
                    if value not in placed:
                        placed[value] = self.place_ttnn(value, op)
            if kind in ("constant", *CREATIONS):  # host data (a memref.global) written to the device like an input
                host = self.constant(op)
                placed[op.results[0]] = self.place(op.results[0].type, op, self.input_memory)
                self.write_host(host, placed[op.results[0]].buffer)
                continue
            if kind in REDUCTIONS:
                dim, scale = self.check_reduction(op)
                out = self.place(op.results[0].type, op, self.output_memory if op.results[0] in returned else "l1")
                self.ops.append(self.launch_reduction(placed[inputs[0]], out, op, kind, dim, scale))
                placed[op.results[0]] = out
                continue
            if kind in ("matmul", "dot_general"):
                transpose_b = self.check_matmul(op)
                out = self.place(op.results[0].type, op, self.output_memory if op.results[0] in returned else "l1")
                self.ops.append(self.launch_matmul(placed[inputs[0]], placed[inputs[1]], out, op, transpose_b))
                placed[op.results[0]] = out
                continue
            if kind == "transpose":
                self.check_transpose(op)
                out = self.place(op.results[0].type, op, self.output_memory if op.results[0] in returned else "l1")
                self.ops.append(self.launch(kind, [placed[inputs[0]]], out, op, ["transpose"]))
                placed[op.results[0]] = out
                continue
            if kind == "typecast":
                formats = {v.type.element_type for v in (inputs[0], op.results[0])}
                if not formats <= {BFloat16Type(), Float32Type()}:
                    raise PassFailure(op, "only typecasts between f32 and bf16 are lowered to TTMetal yet")
                out = self.place(op.results[0].type, op, self.output_memory if op.results[0] in returned else "l1")
                self.ops.append(self.launch(kind, [placed[inputs[0]]], out, op))  # the packer converts
                placed[op.results[0]] = out
                continue
            node = _eltwise(op)
            if node is None:
                raise PassFailure(op, f"'{op.name}' is not lowered to TTMetal yet (elementwise unary and binary ops, "
                                      "transpose and matmul are)")
            kind, inputs = node
            if len(inputs) != (2 if kind in SFPU_BINARY else 1) or len(op.results) != 1:
                raise PassFailure(op, f"'{op.name}' with {len(inputs)} operand(s) is not lowered to TTMetal yet")
            result = op.results[0]
            if self.fuse and result not in returned and result.has_one_use() and \
                    _eltwise(next(iter(result.uses)).operation) is not None:
                pending[result] = node  # computed inside its consumer's program
                continue
            tree, leaves = self.fused_tree(node, pending, placed, op)
            if all(isinstance(child, int) for child in tree[1]):  # nothing fused: the op on its own operands
                tree, leaves = kind, inputs
            gathers = [self.broadcast_of(value.type, result.type, op) for value in leaves]
            out = self.place(result.type, op, self.output_memory if result in returned else "l1")
            self.ops.append(self.launch(tree, [placed[v] for v in leaves], out, op, gathers))
            placed[result] = out
        if self.ttnn_mode:  # each program a ttnn.generic on the TTNN tensors; its CBs' buffers the runtime's
            self.ops = [generic_of(op, self.layouts, self.kernels) if isinstance(op, ttmetal.EnqueueProgramOp) else op
                        for op in self.ops if not isinstance(op, ttmetal.CreateBufferOp)]
        else:  # a buffer nothing reads or writes (a to_layout folded away) is not created
            self.ops = [op for op in self.ops if not isinstance(op, ttmetal.CreateBufferOp) or op.result.uses]
            self.ops += [ttmetal.DeallocateBufferOp.create(operands=[b]) for b in self.buffers if b.uses]
            self.ops.append(ttmetal.FinishOp.create())
        self.ops.append(ReturnOp(*results))
        new_block.add_ops(self.ops)
        func.body.detach_block(block)
        func.body.add_block(new_block)
        func.function_type = FunctionType.from_lists(host_types, [r.type for r in results])

    def write_host(self, host: SSAValue, buffer: SSAValue) -> None:
        """A host tensor written to its device buffer; one not in whole tiles is first copied into a host buffer
        padded to them (`#ttcore.host_layout`), as upstream stages unaligned host data."""
        layout = _host_layout(host.type)
        if layout is not None:
            staging = AllocOp.get(host.type.element_type, shape=host.type.get_shape(), layout=layout)
            self.ops += [staging, CopyOp(host, staging.memref)]
            host = staging.memref
        self.ops.append(ttmetal.EnqueueWriteBufferOp.create(operands=[host, buffer]))

    def read_host(self, buffer: SSAValue, t: TensorType) -> SSAValue:
        """A device buffer read into a new host tensor of type `t` (through a padded host buffer when `t` is not
        in whole tiles)."""
        layout = _host_layout(t)
        staging = AllocOp.get(t.element_type, shape=t.get_shape(), layout=layout or NoneAttr())
        self.ops += [staging, ttmetal.EnqueueReadBufferOp.create(operands=[buffer, staging.memref])]
        if layout is None:
            return staging.memref
        result = AllocOp.get(t.element_type, shape=t.get_shape())
        self.ops += [result, CopyOp(staging.memref, result.memref)]
        return result.memref

    def fused_tree(self, node: tuple, pending: dict[SSAValue, tuple], placed: dict[SSAValue, _Placed],
                   op: Operation) -> tuple[tuple, list[SSAValue]]:
        """An elementwise op with the pending ops it absorbs, as a tree over its leaves (the values computed
        before: input indices); a tree needing more dst tiles than `FUSED_DST_TILES` has its pending operands
        launched as their own programs first."""
        leaves: list[SSAValue] = []

        def build(kind: str, operands: list[SSAValue]) -> tuple:
            children = []
            for value in operands:
                if value in pending:
                    children.append(build(*pending[value]))
                else:
                    if value not in leaves:
                        leaves.append(value)
                    children.append(leaves.index(value))
            return kind, children

        tree = build(*node)
        if _dst_tiles(tree) > FUSED_DST_TILES:
            for value in node[1]:
                if value in pending:
                    child, child_leaves = self.fused_tree(pending.pop(value), pending, placed, op)
                    out = self.place(value.type, op, "l1")
                    self.ops.append(self.launch(child, [placed[v] for v in child_leaves], out, op,
                                                [self.broadcast_of(v.type, value.type, op) for v in child_leaves]))
                    placed[value] = out
            leaves.clear()
            tree = build(*node)
        return tree, leaves

    def lower_d2m(self, op: Operation, placed: dict[SSAValue, _Placed]) -> None:
        """One op of a D2M program: a host tensor moved onto the device into the layout its target names (grid,
        shards, L1 or DRAM, the cores a virtual grid mapping moves it to), views and moves back to the host as the
        tensor they stand for, each generic (alone, or in a spatial op's regions) as the program it computes."""
        if op.name in ("d2m.empty", "ttir.empty"):  # a device tensor is placed where it is made; a host one is the
            # return's
            encoding = getattr(op.result.type, "encoding", None)
            if isinstance(encoding, ttcore.MetalLayoutAttr):
                placed[op.result] = self.place_d2m(op.result, op)
            elif isinstance(encoding, ttnn.TTNNLayoutAttr) and self.ttnn_mode:  # a TTNN tensor a program writes
                empty = ttnn_empty(op.result.type, device_of(self.ops, self.func), op)
                op.result.replace_all_uses_with(empty.results[0])
                self.ops.append(empty)
            return
        if op.name in LAYOUT_MOVES:
            source, dest, result = self.folded.get(op.operands[0], op.operands[0]), op.operands[1], op.results[0]
            uses = list(result.uses)
            if self.fold_layouts and len(uses) == 1 and uses[0].operation.name in LAYOUT_MOVES and uses[0].index == 0:
                self.folded[result] = source  # back-to-back moves: the next one moves from where this one would
                return
            if source in self.hosts and not isinstance(getattr(result.type, "encoding", None), ttcore.MetalLayoutAttr):
                copy = AllocOp.get(result.type.element_type, shape=result.type.get_shape())  # all of it folded away
                self.ops += [copy, CopyOp(self.hosts[source], copy.memref)]
                self.hosts[result] = copy.memref
                return
            if source in self.hosts and dest in placed:
                placed[result] = placed[dest]
                self.write_host(self.hosts[source], placed[result].buffer)
            elif source in placed and not isinstance(getattr(result.type, "encoding", None), ttcore.MetalLayoutAttr):
                placed[result] = placed[source]  # read back where the function returns it
            elif source in placed and dest in placed:  # a device tensor into another layout: copied over
                if placed[source].layout == placed[dest].layout:
                    placed[result] = placed[source]
                else:
                    self.ops.append(self.launch("typecast", [placed[source]], placed[dest], op, ["same"]))
                    placed[result] = placed[dest]
            else:
                raise PassFailure(op, "only to_layouts between the host and the device are lowered to TTMetal yet")
            return
        if isinstance(op, d2m.ViewLayoutOp):
            if op.remapping.data != AffineMap.identity(op.remapping.data.num_dims) or \
                    op.input.type != op.result.type:
                raise PassFailure(op, "only identity view_layouts are lowered to TTMetal yet")
            placed[op.result] = placed[op.input]
            return
        fills = [o for o in op.region.walk() if isinstance(o, d2m.TileFillOp)] if isinstance(op, d2m.GenericOp) else []
        if fills:
            placed[op.results[0]] = self.fill(op, fills, placed)
            return
        generics = [op] if isinstance(op, d2m.GenericOp) else []
        if isinstance(op, d2m.SpatialOp):
            for region in op.regions:
                body = list(region.block.ops)
                if len(body) != 2 or not isinstance(body[0], d2m.GenericOp) or \
                        not isinstance(body[1], d2m.SpatialYieldOp):
                    raise PassFailure(op, "a spatial region lowered to TTMetal holds one d2m.generic")
                generics.append(body[0])
        if not generics:
            raise PassFailure(op, f"'{op.name}' is not lowered to TTMetal yet")
        launches = [self.launch_generic(generic, placed) for generic in generics]
        self.ops.append(_one_program(launches, op) if len(launches) > 1 else launches[0])
        for generic in generics:
            placed[generic.results[0]] = placed[generic.outputs[0]]
        for result, generic in zip(op.results, generics) if op is not generics[0] else ():
            placed[result] = placed[generic.results[0]]

    def fill(self, generic: d2m.GenericOp, fills: list[d2m.TileFillOp], placed: dict[SSAValue, _Placed]) -> _Placed:
        """A generic filling its output with a constant (`d2m.tile_fill` of an arith.constant): the value is known
        when compiling, so the filled tensor is host data written to the output, as a TTIR full is."""
        constant = fills[0].value.owner
        if len(fills) != 1 or not isinstance(constant, arith.ConstantOp) or generic.inputs:
            raise PassFailure(generic, "only generics filling their output with one constant are lowered to TTMetal")
        out, layout = placed[generic.outputs[0]], generic.outputs[0].type.encoding.data
        element = {"f32": Float32Type(), "bf16": BFloat16Type()}[out.layout.dtype]
        host_type = TensorType(element, layout.logical_shape)
        value = constant.value.value.data
        self.write_host(self.host_constant(host_type, DenseIntOrFPElementsAttr.from_list(host_type, [value])),
                        out.buffer)
        return out

    def place_d2m(self, value: SSAValue, op: Operation, tensor: SSAValue | None = None) -> _Placed:
        """A device tensor of a D2M program where its type and the op making it (a d2m.empty, or in ttnn-mode the
        cast of TTNN tensor `tensor`) put it: a grid of shards of tiles (`tensor<GY x GX x SY x SX x
        !ttcore.tile<...>, #ttcore.metal_layout<...>>`) in L1 from the core its virtual grid mapping names, or
        interleaved in DRAM (computed on that grid)."""
        t, maker = value.type, value.owner
        layout_attr = getattr(t, "encoding", None)
        shape = t.get_shape() if isinstance(t, TensorType) else ()
        if not isinstance(layout_attr, ttcore.MetalLayoutAttr) or len(shape) != 4 or \
                not isinstance(t.element_type, ttcore.TileType):
            raise PassFailure(op, f"only tensors of tiles on a 2-d grid are lowered to TTMetal yet, not {t}")
        memory = layout_attr.data.memory_space
        if (memory, layout_attr.data.memory_layout) not in (("l1", "sharded"), ("dram", "interleaved")):
            raise PassFailure(op, "only L1-sharded and DRAM-interleaved D2M tensors are lowered to TTMetal yet")
        dtype = _DTYPES.get(t.element_type.data_type.data.value)
        if dtype is None:
            raise PassFailure(op, f"tiles of {t.element_type.data_type.data.value} are not lowered to TTMetal yet")
        grid = tuple(shape[:2])
        mapping = maker.attributes.get("virtualGridForwardMapping") if maker.name in ("d2m.empty", "ttir.empty") else \
            maker.virtual_grid_forward_mapping if isinstance(maker, TTNNMetalLayoutCastOp) else None
        if mapping is not None:
            placement = ttcore.grid_placement(mapping, grid)
            if placement is None:
                raise PassFailure(maker, "only virtual grids laid onto a rectangle of cores row by row are lowered "
                                         "to TTMetal yet")
            origin, cores = placement
        else:
            origin, cores = (0, 0), _fold(grid, self.device_grid)
        if any(o < 0 or o + g > d for o, g, d in zip(origin, cores, self.device_grid)):
            raise PassFailure(op, f"a {shape[0]}x{shape[1]} grid from core {origin} does not fit the "
                                  f"{self.device_grid[0]}x{self.device_grid[1]} worker grid")
        layout = _Layout(grid, tuple(shape[2:]), dtype, 0, memory, origin, None if cores == grid else cores)
        if tensor is not None:  # the TTNN tensor's own buffer, wherever the runtime allocates it
            self.layouts[tensor] = layout
            return _Placed(tensor, layout)
        banks = int(self.chip["num_dram_channels"])
        layout.address = self.allocate(memory, (layout.tiles if memory == "l1" else -(-math.prod(shape) // banks))
                                       * layout.page, op)
        return _Placed(self.create_buffer(layout), layout)

    def place_ttnn(self, value: SSAValue, op: Operation) -> _Placed:
        """A TTNN tensor where its layout puts it: L1 shards on the cores it names (each the layout's memref of
        tiles), or interleaved in DRAM (computed on the largest grid dividing its tiles, as `place` chooses)."""
        layout_attr = getattr(value.type, "encoding", None)
        if not isinstance(layout_attr, ttnn.TTNNLayoutAttr) or not layout_attr.is_tiled:
            raise PassFailure(op, f"an operand of type {value.type} is not a tiled TTNN tensor; ttnn-mode lowers those")
        rows, cols, dtype = self.shape_of(value.type, op)
        ht, wt = -(-rows // TILE), -(-cols // TILE)
        memory, memory_layout = layout_attr.buffer_type, layout_attr.memory_layout
        if memory == "dram":
            grid = grid_for((ht, wt), self.device_grid)
            layout = _Layout(grid, (ht // grid[0], wt // grid[1]), dtype, 0, "dram")
        elif memory == "l1" and getattr(memory_layout, "data", None) is not None and \
                memory_layout.data.value != "interleaved":
            shard = tuple(layout_attr.memref.get_shape())
            ranges = layout_attr.core_ranges
            if ranges is not None and len(ranges.data) == 1:
                (x0, y0), (x1, y1) = ranges.data[0].data
                origin, grid = (y0, x0), (y1 - y0 + 1, x1 - x0 + 1)
            else:
                origin, grid = (0, 0), tuple(layout_attr.grid.data.shape)
            if (grid[0] * shard[0], grid[1] * shard[1]) != (ht, wt):
                raise PassFailure(op, f"the L1 shards of {value.type} do not tile its {ht}x{wt} tiles")
            layout = _Layout(grid, shard, dtype, 0, "l1", origin)
        else:
            raise PassFailure(op, f"a TTNN tensor in {memory.upper()} {getattr(memory_layout, 'data', '')} is not "
                                  "lowered in ttnn-mode yet (DRAM-interleaved and L1-sharded tensors are)")
        self.layouts[value] = layout
        return _Placed(value, layout)

    def bridge(self, op: Operation, placed: dict[SSAValue, _Placed]) -> None:
        """ttnn-mode: a TTNN op stays; a cast of a TTNN tensor to a metal layout places that tensor as
        the metal type says (refused if the two disagree on its memory); a cast back is the tensor itself."""
        if not isinstance(op, TTNNMetalLayoutCastOp):  # on the tensors the programs before it wrote
            op.operands = [placed[v].buffer if v in placed else v for v in op.operands]
            op.detach()
            self.ops.append(op)
            return
        if op.input in placed:
            placed[op.result] = placed[op.input]
            return
        source, target = op.input.type.encoding, op.result.type.encoding
        if isinstance(target, ttcore.MetalLayoutAttr) and isinstance(source, ttnn.TTNNLayoutAttr) and \
                source.buffer_type != target.data.memory_space:
            raise PassFailure(op, f"the TTNN tensor is in {source.buffer_type.upper()}, its metal layout in "
                                  f"{target.data.memory_space.upper()}")
        placed[op.result] = self.place_d2m(op.result, op, tensor=op.input)

    def launch_generic(self, generic: d2m.GenericOp, placed: dict[SSAValue, _Placed]) -> ttmetal.EnqueueProgramOp:
        """A generic op's program: its region loads whole shards of its inputs, computes one tile op on them
        (elementwise in a linalg.generic, or a matmul) and stores the whole output shard."""
        out = placed[generic.outputs[0]]
        grid = generic.attributes.get("grid")
        factors = generic.attributes.get("block_factors")
        if len(generic.outputs) != 1 or not isinstance(grid, ttcore.GridAttr) or \
                tuple(grid.data.shape) != out.layout.grid or factors is None or \
                any(f.value.data != 1 for f in factors.data):
            raise PassFailure(generic, "only generics with one output, on its tensor's grid and with block factors "
                                       "of 1 are lowered to TTMetal yet")
        loads = {op.result: op for op in generic.region.walk() if isinstance(op, d2m.RemoteLoadOp)}
        tile_ops = [op for op in generic.region.walk() if isinstance(op, d2m.TileOp)]
        stores = [op for op in generic.region.walk() if isinstance(op, d2m.RemoteStoreOp)]
        if not tile_ops and len(loads) == 1 and [s.local for s in stores] == list(loads):  # a copy
            (load,) = loads.values()
            return self.launch("typecast", [placed[load.source]], out, generic, ["same"])
        if len(tile_ops) != 1:
            raise PassFailure(generic, "only generics computing one tile op, filling tiles or copying a block are "
                                       "lowered to TTMetal yet")
        tile_op = tile_ops[0]
        family, arity = d2m.TILE_OPS[tile_op.name.removeprefix("d2m.")]
        linalg_op = tile_op.parent_op()
        block_inputs = linalg_op.inputs if linalg_op is not None and linalg_op.name == "linalg.generic" else \
            tile_op.operands[:2]
        sources = []
        for value in block_inputs:
            load = loads.get(value)
            if load is None or load.local.type.get_shape() != load.source.type.get_shape()[2:]:
                raise PassFailure(generic, "each input of a generic lowered to TTMetal is a whole shard it "
                                           "remote_loads")
            sources.append(placed[load.source])
        if family == "matmul":
            return self.launch_matmul(*sources, out, generic, False)
        if family in SWAPPED:
            family, sources = SWAPPED[family], sources[::-1]
        if family not in SFPU_UNARY and family not in SFPU_BINARY:
            raise PassFailure(tile_op, f"'{tile_op.name}' is not lowered to TTMetal yet")
        # an input on other cores than the output's (or in another grid) is fetched tile by tile
        gathers = [None if s.layout.near(out.layout) else "same" for s in sources]
        return self.launch(family, sources, out, generic, gathers)

    def check_transpose(self, op: Operation) -> None:
        shape = op.operands[0].type.get_shape()
        dims = sorted(d.value.data % len(shape) for d in (op.properties["dim0"], op.properties["dim1"]))
        if len(shape) < 2 or dims != [len(shape) - 2, len(shape) - 1] or math.prod(shape[:-2]) != 1:
            raise PassFailure(op, "only transposes of a matrix's two dims are lowered to TTMetal yet")

    def constant(self, op: Operation) -> SSAValue:
        """A `ttir.constant`, or a tensor `full`, `zeros`, `ones` or `arange` make (their values are known when
        compiling), as a private constant `memref.global` of the module and its `memref.get_global`."""
        t = op.results[0].type
        self.shape_of(t, op)
        kind = op.name.removeprefix("ttir.")
        if kind == "arange":
            if (error := elements_error(t)) is not None:  # its values are listed one by one
                raise PassFailure(op, error)
            start, step, dim = (op.properties[n].value.data for n in ("start", "step", "arange_dimension"))
            shape = t.get_shape()
            values = [start + step * index[dim] for index in itertools.product(*map(range, shape))]
        elif kind in CREATIONS:
            fill = CREATIONS[kind] if CREATIONS[kind] is not None else op.properties["fill_value"].value.data
            values = [fill]
        else:
            value = op.properties["value"]
            if not isinstance(value, DenseIntOrFPElementsAttr):
                raise PassFailure(op, "only dense constants are lowered to TTMetal yet")
            return self.host_constant(t, value)
        if isinstance(t.element_type, IntegerType):
            values = [int(v) for v in values]
        # packed directly, so a fill stays one element (a splat), as the parser keeps `dense<1.0>`
        return self.host_constant(t, DenseIntOrFPElementsAttr(t, BytesAttr(t.element_type.pack(values))))

    def host_constant(self, t: TensorType, value: DenseIntOrFPElementsAttr) -> SSAValue:
        memref = MemRefType(t.element_type, t.get_shape())
        name = f"{self.func.sym_name.data}_constant{len(self.globals)}"
        self.globals.append(GlobalOp.get(StringAttr(name), memref, value, sym_visibility=StringAttr("private"),
                                         constant=UnitAttr()))
        get = GetGlobalOp(name, memref)
        self.ops.append(get)
        return get.memref

    def check_reduction(self, op: Operation) -> tuple[str, float]:
        """The tile dim a reduction reduces ("row": along a row, the last dim; "col": the second-to-last of a
        matrix) and the scaler its result is multiplied by (1/N for a mean)."""
        shape = op.operands[0].type.get_shape()
        dims = op.properties.get("dim_arg")
        keep = op.properties.get("keep_dim")
        if dims is None or len(dims.data) != 1 or len(shape) < 2:
            raise PassFailure(op, "only reductions over one dim of a tensor of rank >= 2 are lowered to TTMetal yet")
        if keep is None or not keep.value.data:
            raise PassFailure(op, "only reductions with keep_dim = true are lowered to TTMetal yet")
        dim = dims.data[0].value.data % len(shape)
        if dim == len(shape) - 1:
            reduced = "row"
        elif dim == len(shape) - 2 and math.prod(shape[:-2]) == 1:
            reduced = "col"
        else:
            raise PassFailure(op, "only reductions over a matrix's last two dims are lowered to TTMetal yet")
        if op.name == "ttir.max" and shape[dim] % TILE:
            raise PassFailure(op, f"a max over a dim of {shape[dim]} (not whole tiles) is not lowered to TTMetal yet: "
                                  "the tile padding would take part in it")
        return reduced, 1 / shape[dim] if op.name == "ttir.mean" else 1.0

    def launch_reduction(self, source: _Placed, out: _Placed, op: Operation, kind: str, dim: str,
                         scale: float) -> ttmetal.EnqueueProgramOp:
        """Each output tile reduced from the input tiles along the dim (streamed to its core over the NoC) with
        reduce_tile, times a scaler tile the host writes to every core."""
        layout = out.layout
        grid_shape = [layout.grid[0] * TILE, layout.grid[1] * TILE]
        element = op.operands[0].type.element_type
        scaler_type = TensorType(element, grid_shape)
        scaler_host = self.host_constant(scaler_type, DenseIntOrFPElementsAttr.from_list(scaler_type, [scale]))
        scaler = self.place(scaler_type, op, "l1")
        self.ops.append(ttmetal.EnqueueWriteBufferOp.create(operands=[scaler_host, scaler.buffer]))
        k_tiles = source.layout.tensor_tiles[1 if dim == "row" else 0]
        cbs = [self.streaming_cb(source.layout, op, layout), scaler.buffer, self.cb_of(out, op)]
        stream = ttkernel.CBType(ttkernel.IntAttr(2), source.layout.tile)
        single = ttkernel.CBType(ttkernel.IntAttr(1), source.layout.tile)
        shard = ttkernel.CBType(ttkernel.IntAttr(layout.tiles), layout.tile)
        layouts = [source.layout, scaler.layout, layout]
        reader_plan, reader_args = self.dm_args([0, 1, 2], [0], layouts)
        writer_plan, writer_args = self.dm_args([0, 1, 2], [2] if layout.memory == "dram" else [], layouts)
        reader = self.kernel("datamovement", "noc", self.reduction_reader(stream, single, source.layout, layout,
                                                                           dim, k_tiles, reader_plan))
        writer = self.kernel("datamovement", "noc", self.writer_body(shard, layout, 2, writer_plan))
        compute = self.kernel("compute", "compute", self.reduction_compute(stream, single, shard, layout, kind, dim,
                                                                           k_tiles))
        configs = _configs(layout, (reader, reader_args), (writer, writer_args), compute, [0, 1, 2])
        return _enqueue([source.buffer, scaler.buffer, out.buffer], cbs, [0, 1, 2], configs, op)

    def check_matmul(self, op: Operation) -> bool:
        """Whether the matmul's B is given transposed (transpose_b); anything else this path does not lower is
        refused."""
        a, b = (v.type.get_shape() for v in op.operands)
        if op.name == "ttir.dot_general":  # a matrix product when nothing is batched: A's dim 1 against B's 0 or 1
            dims = {name: tuple(op.properties[name].get_values()) for name in
                    ("batch_dims_lhs", "batch_dims_rhs", "contract_dims_lhs", "contract_dims_rhs")}
            if dims["batch_dims_lhs"] or dims["batch_dims_rhs"] or len(a) != 2 or len(b) != 2 or \
                    dims["contract_dims_lhs"] != (1,) or dims["contract_dims_rhs"] not in ((0,), (1,)):
                raise PassFailure(op, "only dot_generals that are 2-d matmuls (no batch dims, A's dim 1 contracted) "
                                      "are lowered to TTMetal yet")
            flags = {"transpose_a": False, "transpose_b": dims["contract_dims_rhs"] == (1,)}
        else:
            flags = {t: op.properties.get(t) is not None and bool(op.properties[t].value.data)
                     for t in ("transpose_a", "transpose_b")}
        if len(a) != 2 or len(b) != 2 or flags["transpose_a"]:
            raise PassFailure(op, "only 2-d matmuls without a transposed A are lowered to TTMetal yet")
        if flags["transpose_b"] and self.use_tile_matmul:
            raise PassFailure(op, "'d2m.tile_matmul' op transpose_b is only supported by tile_matmul_block lowering")
        if len({str(v.type.element_type) for v in (*op.operands, op.results[0])}) != 1:
            raise PassFailure(op, "a matmul mixing element types is not lowered to TTMetal yet")
        return flags["transpose_b"]

    def dm_args(self, ports: list[int], addresses: list[int],
                operands: list[_Layout]) -> tuple[_ArgPlan, ttmetal.KernelArgsAttr]:
        """A data-movement kernel's argument plan and bindings: CB ports then buffer addresses (indices into
        `operands`) as common runtime args, as upstream binds arguments every core shares (compile-time args
        under force-compile-time-args; never in ttnn-mode, where TTNN allocates at run time); under
        use-tensor-accessor-dma each buffer it moves pages of has its TensorAccessor description among the
        compile-time args (after those), its pages found through it."""
        accessed = list(addresses) if self.accessor_dma else []
        args = (*(("cb_port", i) for i in ports), *(("buffer_address", i) for i in addresses))
        common = self.ttnn_mode or not self.force_ct_args
        slots = itertools.accumulate((hardware.tensor_accessor_size(operands[j].memory == "l1") for j in accessed),
                                     initial=0 if common else len(args))
        slot_of = dict(zip(accessed, slots))
        positions = {len(ports) + k: j for k, j in enumerate(addresses) if j in accessed}
        plan = _ArgPlan(common, {p: slot_of[j] for p, j in positions.items()},
                        {p: operands[j].page for p, j in positions.items()})
        described = tuple(("tensor_accessor_args", j) for j in accessed)
        return plan, ttmetal.KernelArgsAttr((args, (), described) if common else ((), (), (*args, *described)))

    def l1_buffer(self, on: _Layout, shard: tuple[int, int], dtype: str, op: Operation) -> SSAValue:
        """An L1 buffer of `shard` tiles of `dtype` on each core holding a shard of `on` (a CB's pages)."""
        layout = _Layout(on.grid, shard, dtype, 0, "l1", on.origin, on.fold)
        layout.address = self.allocate("l1", layout.tiles * layout.page, op)
        return self.create_buffer(layout)

    def streaming_cb(self, like: _Layout, op: Operation, on: _Layout | None = None) -> SSAValue:
        """A two-page L1 buffer per core (double buffering) for tiles of `like`'s format streamed through a CB, on
        the grid of `on` (default: `like`'s)."""
        return self.l1_buffer(on or like, (1, 2), like.dtype, op)

    def launch_matmul(self, a: _Placed, b: _Placed, out: _Placed, op: Operation,
                      transpose_b: bool) -> ttmetal.EnqueueProgramOp:
        """out = a @ b (b given as its transpose when `transpose_b`). Each core computes its output shard from a
        block of A (its rows, all of K) and one of B (all of K, its columns). In each row of the grid the core in
        column 0 reads the A block and multicasts it along the row (NoC 0); in each column the core in row 0 reads
        the B block and multicasts it down the column (NoC 1), each after its receivers count themselves ready
        on a semaphore, then flags the data valid on theirs, as upstream's matmul moves its operands."""
        layout, k_tiles = out.layout, a.layout.tensor_tiles[1]
        sy, sx = layout.shard
        if layout.fold:
            raise PassFailure(op, "a matmul whose output grid is folded onto other cores is not lowered to TTMetal "
                                  "yet (its operands are multicast along the grid's rows and columns)")
        cbs = [self.l1_buffer(layout, (sy, k_tiles), a.layout.dtype, op),
               self.l1_buffer(layout, (k_tiles, sx), b.layout.dtype, op), self.cb_of(out, op)]
        cb_a = ttkernel.CBType(ttkernel.IntAttr(sy * k_tiles), a.layout.tile)
        cb_b = ttkernel.CBType(ttkernel.IntAttr(k_tiles * sx), b.layout.tile)
        shard = ttkernel.CBType(ttkernel.IntAttr(layout.tiles), layout.tile)
        layouts = [a.layout, b.layout, layout]
        plan_a, args_a = self.dm_args([0, 1, 2], [0], layouts)
        plan_b, args_b = self.dm_args([0, 1, 2], [1, 2] if layout.memory == "dram" else [1], layouts)
        mover_a = self.kernel("datamovement", "noc", self.matmul_mover(True, cb_a, a.layout, layout, k_tiles, False,
                                                                       plan_a))
        movers_b = self.matmul_mover(False, cb_b, b.layout, layout, k_tiles, transpose_b, plan_b)
        self.write_output(movers_b, shard, layout, cb_arg=2, address_arg=4)
        mover_b = self.kernel("datamovement", "noc", movers_b)
        compute = self.kernel("compute", "compute", self.matmul_compute(cb_a, cb_b, shard, layout, k_tiles,
                                                                        transpose_b))
        configs = _configs(layout, (mover_a, args_a), (mover_b, args_b), compute, [0, 1, 2])
        return _enqueue([a.buffer, b.buffer, out.buffer], cbs, [0, 1, 2], configs, op)

    def matmul_mover(self, a_side: bool, cb: Attribute, source: _Layout, layout: _Layout, k_tiles: int,
                     transpose: bool, plan: _ArgPlan) -> _Ops:
        """The kernel moving one matmul operand into its CB on every core (see `launch_matmul`): A's block (rows
        of this core's shard, all K: page i * Kt + k) on NoC 0, or B's (all K, this core's columns: page
        k * SX + j; tile (j, k) of a B given transposed) on NoC 1."""
        ops, index = _Ops(0 if a_side else 1, plan), IndexType()
        sy, sx = layout.shard
        tiles = sy * k_tiles if a_side else k_tiles * sx
        port, base, count = ops.arg(0 if a_side else 1, cb), ops.address(3), ops.const(tiles)
        ops.call("cb_reserve_back", port, count)
        local = ops.call("get_write_ptr", port, result=i32)
        y, x = ops.coords(layout)
        ready_address, ready = ops.semaphore(0 if a_side else 2)
        valid_address, valid = ops.semaphore(1 if a_side else 3)
        offset_y, offset_x = (ops.const(o + g, index) for o, g in zip(self.chip["coord_translation_offsets"],
                                                                      layout.origin))
        peers = layout.grid[1 if a_side else 0] - 1
        page = ops.const(source.page)
        shard_y, shard_x, kt = ops.const(sy, index), ops.const(sx, index), ops.const(k_tiles, index)
        noc_y, noc_x = ops.emit(arith.AddiOp(y, offset_y)), ops.emit(arith.AddiOp(x, offset_x))
        sender = ops.emit(arith.CmpiOp(x if a_side else y, ops.const(0, index), "eq"))
        # the rest of this core's row (A) or column (B), in NoC coordinates
        first = ops.emit(arith.AddiOp(offset_x if a_side else offset_y, ops.const(1, index)))
        last = ops.emit(arith.AddiOp(offset_x if a_side else offset_y, ops.const(peers, index)))
        start, end = ((first, noc_y), (last, noc_y)) if a_side else ((noc_x, first), (noc_x, last))

        def fetch(body: _Ops, t: SSAValue) -> None:
            if a_side:
                i, k = body.emit(arith.DivUIOp(t, kt)), body.emit(arith.RemUIOp(t, kt))
                row, col = body.emit(arith.AddiOp(body.emit(arith.MuliOp(y, shard_y)), i)), k
            else:
                k, j = body.emit(arith.DivUIOp(t, shard_x)), body.emit(arith.RemUIOp(t, shard_x))
                column = body.emit(arith.AddiOp(body.emit(arith.MuliOp(x, shard_x)), j))
                row, col = (column, k) if transpose else (k, column)
            near = body.emit(arith.AddiOp(local, body.emit(arith.MuliOp(body.emit(arith.IndexCastOp(t, i32)), page))))
            body.read_tile(self.chip, source, row, col, base, near)

        def send(body: _Ops) -> None:
            body.loop(tiles, fetch)
            body.barrier("read")
            if not peers:
                return
            receivers = body.const(peers)
            body.call("noc_semaphore_wait", ready, receivers)
            body.call("noc_semaphore_set", ready, body.const(0))
            body.append(ttkernel.NocAsyncWriteMulticastOp.create(
                operands=[local, body.const(tiles * source.page), receivers, *start, *end, local, body.noc],
                properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 1, 1, 2, 2, 1, 1])}))
            body.call("noc_semaphore_set", valid, body.const(1))
            everyone = body.call("get_noc_multicast_addr", *start, *end, valid_address, body.noc,
                                 result=ttkernel.NocAddrType())
            body.call("noc_semaphore_set_multicast", valid_address, everyone, receivers)
            body.barrier("write")

        def receive(body: _Ops) -> None:
            sender_xy = (offset_x, noc_y) if a_side else (noc_x, offset_y)
            at_sender = body.call("get_noc_addr", *sender_xy, ready_address, body.noc, result=ttkernel.NocAddrType())
            body.call("noc_semaphore_inc", at_sender, body.const(1), body.noc)
            body.call("noc_semaphore_wait", valid, body.const(1))

        ops.if_else(sender, send, receive)
        ops.call("cb_push_back", port, count)
        return ops

    def gather_cb(self, source: _Placed, out: _Placed, op: Operation) -> SSAValue:
        """An L1 buffer shaped like the output's shards, in the source's format, that the reader fills."""
        return self.l1_buffer(out.layout, out.layout.shard, source.layout.dtype, op)

    @staticmethod
    def broadcast_of(source: Attribute, result: Attribute, op: Operation) -> str | None:
        """How an operand of `result`'s shape is read: its own shard (None) or, broadcast along a matrix's rows,
        columns or both, each output tile's source tile ("row": a [1, W] row repeated down the rows, "col", "scalar")."""
        if source == result:
            return None
        s, r = source.get_shape(), result.get_shape()
        if source.element_type != result.element_type or len(s) != len(r) or len(r) < 2 or math.prod(r[:-2]) != 1:
            raise PassFailure(op, f"'{op.name}' casts or broadcasts beyond a matrix's rows and columns ({source} -> "
                                  f"{result}); that is not lowered to TTMetal yet")
        rows, cols = s[-2] == 1 and r[-2] != 1, s[-1] == 1 and r[-1] != 1
        if (not rows and s[-2] != r[-2]) or (not cols and s[-1] != r[-1]):
            raise PassFailure(op, f"'{op.name}': {source} does not broadcast to {result}")
        return "scalar" if rows and cols else "row" if rows else "col"

    def launch(self, kind: str, inputs: list[_Placed], out: _Placed, op: Operation,
               gathers: list[str | None] | None = None) -> ttmetal.EnqueueProgramOp:
        """One op's program. Per input, `gathers` says how its reader fills the input's CB: None, from the input's
        own shard (in L1, or its DRAM pages); "transpose", "row", "col", "scalar": each output tile's source tile,
        fetched from wherever it is."""
        gathers = gathers or [None] * len(inputs)
        tensors = [*inputs, out]
        cbs = [self.gather_cb(t, out, op) if g else self.cb_of(t, op) for t, g in zip(inputs, gathers)]
        cbs.append(self.cb_of(out, op))
        layout = out.layout
        ports = list(range(len(tensors)))
        # each CB holds a shard's tiles in its tensor's format (an input of a typecast differs from the output)
        cb_types = [ttkernel.CBType(ttkernel.IntAttr(layout.tiles), t.layout.tile) for t in tensors]
        in_dram = [i for i, (t, g) in enumerate(zip(inputs, gathers)) if g or t.layout.memory == "dram"]
        layouts = [t.layout for t in tensors]
        reader_plan, reader_args = self.dm_args(list(range(len(inputs))), in_dram, layouts)
        writer_plan, writer_args = self.dm_args([len(inputs)], [len(inputs)] if out.layout.memory == "dram" else [],
                                                layouts)
        reader = self.kernel("datamovement", "noc", self.reader_body(cb_types, inputs, layout, gathers, reader_plan))
        writer = self.kernel("datamovement", "noc", self.writer_body(cb_types[-1], out.layout, 0, writer_plan))
        compute = self.kernel("compute", "compute", self.tilize_body(kind, cb_types, layout)
                              if kind in ("tilize", "untilize") else self.compute_body(kind, cb_types, layout, gathers))
        configs = _configs(layout, (reader, reader_args), (writer, writer_args), compute, ports)
        return _enqueue([t.buffer for t in tensors], cbs, ports, configs, op)

    def kernel(self, base: str, thread: str, body: list[Operation]) -> str:
        name = f"{base}_kernel{len(self.kernels)}"
        func = FuncOp(name, ((), ()), Region(Block()), visibility="private")
        func.attributes["ttkernel.thread"] = ttkernel.ThreadAttr(ttkernel.ThreadAttr.enum_type(thread))
        func.attributes["tt.function_type"] = StringAttr("kernel")
        func.body.block.add_ops([*body, ReturnOp()])
        self.kernels.append(func)
        return name

    @staticmethod
    def _call(name: str, *operands: SSAValue, **props) -> Operation:
        return ttkernel.OP_CLASSES[name].create(operands=list(operands), properties=props)

    def reader_body(self, cb_types: list[Attribute], inputs: list[_Placed], layout: _Layout,
                    gathers: list[str | None], plan: _ArgPlan) -> list[Operation]:
        """Each input's CB filled for the whole shard: an L1 shard is handed over as it is, DRAM pages are read,
        gathered inputs fetch each output tile's source tile (see `launch`)."""
        ops = _Ops(0, plan)
        count = ops.const(layout.tiles)
        ports = [ops.arg(i, t) for i, t in enumerate(cb_types[:len(inputs)])]
        address_arg = len(inputs)  # addresses follow the CB ports among the compile-time args
        for placed, port, gather in zip(inputs, ports, gathers):
            ops.call("cb_reserve_back", port, count)
            if gather:
                self.gather_into(ops, port, ops.address(address_arg), placed.layout, layout, gather)
                address_arg += 1
            elif placed.layout.memory == "dram":
                self.dram_transfer(ops, port, address_arg, placed.layout, read=True)
                address_arg += 1
            ops.call("cb_push_back", port, count)  # an L1 shard is there already
        return ops

    def gather_into(self, ops: _Ops, port: SSAValue, base: SSAValue, source: _Layout, layout: _Layout,
                    gather: str) -> None:
        """Output tile (i, j) of this core's shard into CB page k from source tile (j, i) ("transpose"), (0, j)
        ("row"), (i, 0) ("col") or (0, 0) ("scalar"), wherever that tile is."""
        index = IndexType()
        sy, sx = ops.const(layout.shard[0], index), ops.const(layout.shard[1], index)
        page, zero = ops.const(source.page), ops.const(0, index)
        local = ops.call("get_write_ptr", port, result=i32)
        y, x = ops.coords(layout)

        def fetch(body: _Ops, k: SSAValue) -> None:
            i = body.emit(arith.AddiOp(body.emit(arith.MuliOp(y, sy)), body.emit(arith.DivUIOp(k, sx))))
            j = body.emit(arith.AddiOp(body.emit(arith.MuliOp(x, sx)), body.emit(arith.RemUIOp(k, sx))))
            near = body.emit(arith.AddiOp(local, body.emit(arith.MuliOp(body.emit(arith.IndexCastOp(k, i32)), page))))
            row, col = {"transpose": (j, i), "row": (zero, j), "col": (i, zero), "scalar": (zero, zero),
                        "same": (i, j)}[gather]
            body.read_tile(self.chip, source, row, col, base, near)

        ops.loop(layout.tiles, fetch)
        ops.barrier("read")

    def writer_body(self, cb: Attribute, layout: _Layout, cb_arg: int, plan: _ArgPlan) -> list[Operation]:
        """The writer kernel of a launch (NoC 1): see `write_output`; a DRAM address follows the CB port."""
        ops = _Ops(1, plan)
        self.write_output(ops, cb, layout, cb_arg, cb_arg + 1)
        return ops

    def write_output(self, ops: _Ops, cb: Attribute, layout: _Layout, cb_arg: int, address_arg: int) -> None:
        """Wait for the output shard (its CB port is compile-time arg `cb_arg`) and, for a DRAM result, write it
        to its pages (at compile-time arg `address_arg`)."""
        count, out = ops.const(layout.tiles), ops.arg(cb_arg, cb)
        ops.call("cb_wait_front", out, count)
        if layout.memory == "dram":
            self.dram_transfer(ops, out, address_arg, layout, read=False)

    def dram_transfer(self, ops: _Ops, cb: SSAValue, address_arg: int, layout: _Layout, read: bool) -> None:
        """Each tile of this core's shard between its CB page and its DRAM page: tile (r, c) of the tensor is
        page r * Wt + c, in bank page % banks at row page / banks."""
        index = IndexType()
        banks, page = ops.const(int(self.chip["num_dram_channels"])), ops.const(layout.page)
        sy, sx, wt = (ops.const(v, index) for v in (*layout.shard, layout.tensor_tiles[1]))
        base = ops.address(address_arg)
        local = ops.call("get_write_ptr" if read else "get_read_ptr", cb, result=i32)
        y, x = ops.coords(layout)

        def transfer(body: _Ops, i: SSAValue) -> None:
            r = body.emit(arith.AddiOp(body.emit(arith.MuliOp(y, sy)), body.emit(arith.DivUIOp(i, sx))))
            c = body.emit(arith.AddiOp(body.emit(arith.MuliOp(x, sx)), body.emit(arith.RemUIOp(i, sx))))
            tile = body.emit(arith.IndexCastOp(body.emit(arith.AddiOp(body.emit(arith.MuliOp(r, wt)), c)), i32))
            near = body.emit(arith.AddiOp(local, body.emit(arith.MuliOp(body.emit(arith.IndexCastOp(i, i32)), page))))
            if body.transfer_tile(read, base, tile, near):
                return
            bank = body.emit(arith.RemUIOp(tile, banks))
            far = body.emit(arith.AddiOp(base, body.emit(arith.MuliOp(body.emit(arith.DivUIOp(tile, banks)), page))))
            if read:
                body.append(ttkernel.NocAsyncReadOp.create(
                    operands=[bank, far, near, page, body.noc],
                    properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [0, 1, 1, 1, 1, 1])}))
            else:
                body.append(ttkernel.NocAsyncWriteOp.create(
                    operands=[near, bank, far, page, body.noc],
                    properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 0, 1, 1, 1, 1])}))

        ops.loop(layout.tiles, transfer)
        ops.barrier("read" if read else "write")

    def reduction_reader(self, stream: Attribute, single: Attribute, source: _Layout, layout: _Layout, dim: str,
                         k_tiles: int, plan: _ArgPlan) -> list[Operation]:
        """The scaler tile handed to CB 1, then for each output tile the input tiles along the reduced dim
        streamed into CB 0, wherever they are."""
        ops, index = _Ops(0, plan), IndexType()
        one = ops.const(1)
        port, scaler, base = ops.arg(0, stream), ops.arg(1, single), ops.address(3)
        ops.call("cb_reserve_back", scaler, one)
        ops.call("cb_push_back", scaler, one)
        sy, sx = ops.const(layout.shard[0], index), ops.const(layout.shard[1], index)
        y, x = ops.coords(layout)

        def output_tile(body: _Ops, t: SSAValue) -> None:
            i = body.emit(arith.AddiOp(body.emit(arith.MuliOp(y, sy)), body.emit(arith.DivUIOp(t, sx))))
            j = body.emit(arith.AddiOp(body.emit(arith.MuliOp(x, sx)), body.emit(arith.RemUIOp(t, sx))))

            def step(inner: _Ops, k: SSAValue) -> None:
                inner.call("cb_reserve_back", port, one)
                row, col = (i, k) if dim == "row" else (k, j)
                inner.read_tile(self.chip, source, row, col, base, inner.call("get_write_ptr", port, result=i32))
                inner.barrier("read")
                inner.call("cb_push_back", port, one)

            body.loop(k_tiles, step)

        ops.loop(layout.tiles, output_tile)
        return ops

    def reduction_compute(self, stream: Attribute, single: Attribute, shard: Attribute, layout: _Layout, kind: str,
                          dim: str, k_tiles: int) -> list[Operation]:
        """Each output tile: the streamed input tiles reduced into dst 0 (reduce_tile), then packed."""
        ops, index = _Ops(), IndexType()
        one = ops.const(1)
        a, scaler, out = ops.ct_arg(0, stream), ops.ct_arg(1, single), ops.ct_arg(2, shard)
        dst = ops.const(0, index)
        attrs = {"reduce_type": ttkernel.ReduceTypeAttr(ttkernel.ReduceTypeAttr.enum_type(
                     "reduce_max" if kind == "max" else "reduce_sum")),
                 "reduce_dim": ttkernel.ReduceDimAttr(ttkernel.ReduceDimAttr.enum_type(f"reduce_dim_{dim}"))}
        ops.call("reduce_init", a, scaler, out, **attrs)
        ops.call("cb_wait_front", scaler, one)
        self.accumulate(ops, [a], out, layout, k_tiles, lambda inner: inner.call("reduce_tile", a, scaler, dst, dst,
                                                                                  dst, **attrs))
        return ops

    def matmul_compute(self, cb_a: Attribute, cb_b: Attribute, cb_out: Attribute, layout: _Layout, k_tiles: int,
                       transpose_b: bool) -> list[Operation]:
        """Each output tile (i, j) of the shard: sum over k of A page i * Kt + k times B page k * SX + j. With tile
        matmuls, one tile at a time in dst 0 (matmul_tiles over k); with block matmuls, a run of the row's tiles at
        once (experimental::matmul_block over all of K; B tiles transposed in the tile when B came transposed)."""
        ops, index = _Ops(), IndexType()
        sy, sx = layout.shard
        a, b, out = ops.ct_arg(0, cb_a), ops.ct_arg(1, cb_b), ops.ct_arg(2, cb_out)
        transpose = ops.const(int(transpose_b))
        run = sx if sx <= (4 if layout.dtype == "f32" else 8) else 1  # output tiles dst holds at once
        if self.use_tile_matmul:
            ops.call("mm_init", a, b, out, transpose)
        else:
            ops.call("mm_block_init", a, b, out, transpose, ops.const(run), ops.const(1), ops.const(k_tiles))
        for port, tiles in ((a, sy * k_tiles), (b, k_tiles * sx)):
            ops.call("cb_wait_front", port, ops.const(tiles))
        count, dst = ops.const(layout.tiles), ops.const(0, index)
        kt, shard_x = ops.const(k_tiles, index), ops.const(sx, index)
        ops.call("cb_reserve_back", out, count)

        def position(body: _Ops, t: SSAValue) -> tuple[SSAValue, SSAValue]:
            return body.emit(arith.DivUIOp(t, shard_x)), body.emit(arith.RemUIOp(t, shard_x))

        def output_tile(body: _Ops, t: SSAValue) -> None:
            i, j = position(body, t)
            body.call("tile_regs_acquire")
            row = body.emit(arith.MuliOp(i, kt))
            body.loop(k_tiles, lambda inner, k: inner.call(
                "matmul_tiles", a, b, inner.emit(arith.AddiOp(row, k)),
                inner.emit(arith.AddiOp(inner.emit(arith.MuliOp(k, shard_x)), j)), dst))
            body.call("tile_regs_commit")
            body.call("tile_regs_wait")
            body.call("pack_tile", dst, out, t, out_of_order=IntegerAttr(0, 1))
            body.call("tile_regs_release")

        def output_run(body: _Ops, g: SSAValue) -> None:
            t = body.emit(arith.MuliOp(g, body.const(run, index)))
            i, j = position(body, t)
            body.call("tile_regs_acquire")
            body.call("experimental.matmul_block", a, b, body.emit(arith.MuliOp(i, kt)), j, dst, transpose,
                      body.const(run), body.const(1), body.const(k_tiles), body.const(sx))
            body.call("tile_regs_commit")
            body.call("tile_regs_wait")
            for c in range(run):
                body.call("pack_tile", body.const(c, index), out, body.emit(arith.AddiOp(t, body.const(c, index))),
                          out_of_order=IntegerAttr(0, 1))
            body.call("tile_regs_release")

        if self.use_tile_matmul:
            ops.loop(layout.tiles, output_tile)
        else:
            ops.loop(layout.tiles // run, output_run)
        ops.call("cb_push_back", out, count)
        for port, tiles in ((a, sy * k_tiles), (b, k_tiles * sx)):
            ops.call("cb_pop_front", port, ops.const(tiles))
        return ops

    @staticmethod
    def accumulate(ops: _Ops, streams: list[SSAValue], out: SSAValue, layout: _Layout, k_tiles: int, consume) -> None:
        """For each output tile of the shard: dst 0 accumulates `consume(ops)` over k, each step taking one page of
        every CB in `streams`, then is packed into the tile's place in the output CB."""
        index = IndexType()
        one, count, dst = ops.const(1), ops.const(layout.tiles), ops.const(0, index)
        ops.call("cb_reserve_back", out, count)

        def output_tile(body: _Ops, t: SSAValue) -> None:
            body.call("tile_regs_acquire")

            def step(inner: _Ops, k: SSAValue) -> None:
                for stream in streams:
                    inner.call("cb_wait_front", stream, one)
                consume(inner)
                for stream in streams:
                    inner.call("cb_pop_front", stream, one)

            body.loop(k_tiles, step)
            body.call("tile_regs_commit")
            body.call("tile_regs_wait")
            body.call("pack_tile", dst, out, t, out_of_order=IntegerAttr(0, 1))
            body.call("tile_regs_release")

        ops.loop(layout.tiles, output_tile)
        ops.call("cb_push_back", out, count)

    @staticmethod
    def _call_result(name: str, result: Attribute, *operands: SSAValue) -> Operation:
        return ttkernel.OP_CLASSES[name].create(operands=list(operands), result_types=[result])

    def sfpu_tree(self, node, ins: list[SSAValue], out: SSAValue, broadcasts: list[str | None], tile: SSAValue,
                  dtype: str, slot: int) -> list[Operation]:
        """Tile `tile` of `node` computed into dst[slot]: a leaf (an input's index) copied there from its CB (or
        broadcast: its first row, column or value spread over the tile), an op applied to its operands computed
        in dst[slot] and, for a binary op, dst[slot + 1]."""
        dst = arith.ConstantOp(IntegerAttr(slot, IndexType()))
        ops: list[Operation] = [dst]
        if isinstance(node, int):
            cb, broadcast = ins[node], broadcasts[node]
            if broadcast:
                kind_attr = {"bcast_type": ttkernel.BcastTypeAttr(ttkernel.BcastTypeAttr.enum_type(broadcast))}
                return ops + [self._call("unary_bcast_init", cb, out, **kind_attr),
                              self._call("unary_bcast", cb, tile, dst.result, **kind_attr)]
            return ops + [self._call("copy_tile_init", cb), self._call("copy_tile", cb, tile, dst.result)]
        kind, children = node
        ops += self.sfpu_tree(children[0], ins, out, broadcasts, tile, dtype, slot)
        if kind in SFPU_BINARY:
            second = arith.ConstantOp(IntegerAttr(slot + 1, IndexType()))
            return ops + self.sfpu_tree(children[1], ins, out, broadcasts, tile, dtype, slot + 1) + [
                second, self._call(f"{SFPU_BINARY[kind]}_init"),
                self._call(SFPU_BINARY[kind], dst.result, second.result, dst.result)]
        name = SFPU_UNARY[kind]
        entry = INT_VARIANTS.get(kind, f"{name}_tile") if dtype == "si32" else f"{name}_tile"
        return ops + [self._call(SHARED_INITS.get(kind, f"{name}_tile_init")), self._call(entry, dst.result)]

    def tilize_body(self, kind: str, cb_types: list[Attribute], layout: _Layout) -> list[Operation]:
        """Row-major shards into tiles ("tilize") or back ("untilize"): each 32-row block of the shard (as many
        tile-sized pages as the shard is tiles wide) converted at once."""
        ops = _Ops()
        cb_in, cb_out = (ops.ct_arg(i, t) for i, t in enumerate(cb_types))
        width = ops.const(layout.shard[1])
        ops.call("tilize_init", cb_in, width, cb_out) if kind == "tilize" else ops.call("untilize_init", cb_in)

        def block(body: _Ops, _row: SSAValue) -> None:
            body.call("cb_wait_front", cb_in, width)
            body.call("cb_reserve_back", cb_out, width)
            body.call(f"{kind}_block", cb_in, width, cb_out)
            body.call("cb_push_back", cb_out, width)
            body.call("cb_pop_front", cb_in, width)

        ops.loop(layout.shard[0], block)
        return ops

    def compute_body(self, kind: str | tuple, cb_types: list[Attribute], layout: _Layout,
                     gathers: list[str | None]) -> list[Operation]:
        count = arith.ConstantOp(IntegerAttr(layout.tiles, i32))
        zero, one = arith.ConstantOp(IntegerAttr(0, IndexType())), arith.ConstantOp(IntegerAttr(1, IndexType()))
        upper = arith.ConstantOp(IntegerAttr(layout.tiles, IndexType()))
        cbs = [ttkernel.OP_CLASSES["get_compile_time_arg_val"].create(
            properties={"arg_index": IntegerAttr(i, i32)}, result_types=[t]) for i, t in enumerate(cb_types)]
        ins, out = [c.results[0] for c in cbs[:-1]], cbs[-1].results[0]
        broadcasts = [g if g in BROADCASTS else None for g in gathers]
        fpu = layout.dtype == "bf16" and isinstance(kind, str) and kind in FPU_BINARY and not any(broadcasts)
        ops: list[Operation] = [count, zero, one, upper, *cbs]
        if kind == "transpose":
            ops.append(self._call("transpose_wh_init", ins[0], out))
        else:
            ops.append(self._call("binary_op_init_common", ins[0], ins[1], out) if fpu else
                       self._call("init_sfpu", ins[0], out))
        ops += [self._call("cb_wait_front", c, count.result) for c in ins]
        ops.append(self._call("cb_reserve_back", out, count.result))
        body = Block(arg_types=[IndexType()])
        i = body.args[0]
        step: list[Operation] = [self._call("tile_regs_acquire")]
        if kind == "typecast":
            step += [self._call("copy_tile_init", ins[0]), self._call("copy_tile", ins[0], i, zero.result)]
        elif kind == "transpose":
            step.append(self._call("transpose_wh_tile", ins[0], i, zero.result))
        elif fpu:
            step += [self._call(f"{FPU_BINARY[kind]}_init", ins[0], ins[1]),
                     self._call(FPU_BINARY[kind], ins[0], ins[1], i, i, zero.result)]
        else:
            tree = kind if isinstance(kind, tuple) else (kind, list(range(len(ins))))
            step += self.sfpu_tree(tree, ins, out, broadcasts, i, layout.dtype, 0)
        step += [self._call("tile_regs_commit"), self._call("tile_regs_wait"),
                 self._call("pack_tile", zero.result, out, i, out_of_order=IntegerAttr(0, 1)),
                 self._call("tile_regs_release"), scf.YieldOp()]
        body.add_ops(step)
        ops.append(scf.ForOp(zero.result, upper.result, one.result, [], body))
        ops.append(self._call("cb_push_back", out, count.result))
        ops += [self._call("cb_pop_front", c, count.result) for c in ins]
        return ops


@dataclass(frozen=True)
class ConvertTTIRToTTMetalPass(ModulePass):
    """Lower TTIR elementwise functions to a TTMetal host program and TTKernel kernels (see the module doc)."""

    name: ClassVar[str] = "convert-ttir-to-ttmetal"
    override_device_shape: tuple[int, ...] = ()
    default_input_memspace: str = "l1"
    default_output_memspace: str = "l1"
    use_tile_matmul: bool = False
    enable_elementwise_fusion: bool = False
    use_tensor_accessor_dma: bool = False
    ttnn_mode: bool = False
    force_compile_time_args: bool = False
    disable_tolayout_folding: bool = False
    collapse_tensors_2d: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from ttmlir.transforms.ttcore.register_device import device_module_of

        module = device_module_of(op)
        system = module.attributes.get("ttcore.system_desc")
        if not isinstance(system, ttcore.SystemDescAttr):
            raise PassFailure(op, "module has no ttcore.system_desc attribute (run --ttcore-register-device first)")
        chip = system.data.chip(0)
        grid = tuple(chip["grid"])
        if self.override_device_shape:
            if len(self.override_device_shape) != 2 or any(d < 1 for d in self.override_device_shape):
                raise PassFailure(op, "override-device-shape is a grid YxX, e.g. override-device-shape=1,1")
            grid = tuple(self.override_device_shape)
        kernels: list[FuncOp] = []  # named by their index in the module: datamovement_kernel0, compute_kernel2, ...
        check_memspaces(op, self.default_input_memspace, self.default_output_memspace)
        for func in [f for f in module.ops if isinstance(f, FuncOp) and f.body.blocks and
                     "ttkernel.thread" not in f.attributes]:
            lowering = _FunctionLowering(
                func, grid, chip, kernels, input_memory=self.default_input_memspace,
                output_memory=self.default_output_memspace, use_tile_matmul=self.use_tile_matmul,
                fuse=self.enable_elementwise_fusion, accessor_dma=self.use_tensor_accessor_dma, ttnn_mode=self.ttnn_mode,
                force_ct_args=self.force_compile_time_args, keep_rank=not self.collapse_tensors_2d,
                fold_layouts=not self.disable_tolayout_folding)
            lowering.lower()
            module.body.block.add_ops(lowering.globals)
        module.body.block.add_ops(kernels)
