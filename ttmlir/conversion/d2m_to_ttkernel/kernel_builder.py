"""What the kernels of the Metal path are built from: each tensor's shard layout on the device, the TTKernel op
tables (which SFPU/FPU call computes each TTIR op), and the builder of kernel bodies (`KernelOps`: constants,
arguments, NoC reads by tile, loops, semaphores) that the data-movement and compute kernel writers share."""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (AffineMapAttr, BFloat16Type, DenseArrayBase, Float32Type, IndexType, IntegerAttr,
                                   IntegerType, MemRefType, i32)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from ttmlir import hardware
from ttmlir.dialects import ttcore, ttkernel
from ttmlir.errors import PassFailure

TILE = 32
i8 = IntegerType(8)
DTYPES = {"f32": "f32", "bf16": "bf16", "i32": "si32", "si32": "si32", "ui32": "si32"}  # ui32: indices, read as their bits
ELEMENTS = {"f32": Float32Type(), "bf16": BFloat16Type(), "si32": IntegerType(32)}
ZERO_COMPARISONS = ("eq", "ne", "gt", "ge", "lt", "le")
# TTIR op -> SFPU op (binary: `<op>(dst0, dst1, dst0)`; unary: `<op>_tile(dst0)`)
SFPU_BINARY = {"add": "add_binary_tile", "subtract": "sub_binary_tile", "multiply": "mul_binary_tile",
               "div": "div_binary_tile", "maximum": "binary_max_tile", "minimum": "binary_min_tile",
               "pow": "power_binary_tile", "eq": "eq_binary_tile", "ne": "ne_binary_tile", "gt": "gt_binary_tile",
               "ge": "ge_binary_tile", "atan2": "atan2_binary_tile", "bitwise_and": "bitwise_and_binary_tile", "bitwise_or": "bitwise_or_binary_tile",
               "bitwise_xor": "bitwise_xor_binary_tile", "logical_left_shift": "binary_left_shift_tile",
               "logical_right_shift": "binary_logical_right_shift_tile", "right_shift": "binary_right_shift_tile"}
SFPU_TERNARY = {"where": "where_tile"}  # (condition, true, false) in three dst slots
# a < b is b > a, a <= b is b >= a: lowered with their operands swapped, as upstream canonicalizes them
SWAPPED = {"lt": "gt", "le": "ge"}
SFPU_UNARY = {"exp": "exp", "log": "log", "sqrt": "sqrt", "rsqrt": "rsqrt", "reciprocal": "recip", "abs": "abs",
              "neg": "negative", "relu": "relu", "sigmoid": "sigmoid", "tanh": "tanh", "sin": "sin", "cos": "cos",
              "tan": "tan", "ceil": "ceil", "floor": "floor", "sign": "sign", "gelu": "gelu", "erf": "erf",
              "logical_not": "logical_not", "atan": "atan", "expm1": "expm1", "log1p": "log1p",
              **{op: op for op in ("erfc", "softsign", "hardsigmoid", "signbit", "frac", "trunc", "bitwise_not", "silu",
                                   "square", "exp2", "asin", "acos")},
              **{f"{c}z": f"{c}z" for c in ZERO_COMPARISONS}}  # d2m.tile_<c>z: 1 where x <c> 0
WIDE_DST = ("f32", "si32")  # tiles that need the dst register in 32-bit mode (fp32_dest_acc_en)
# A matmul sums its K products in a 32-bit dst and keeps its partial sums between K steps in f32, as the TTNN
# pipeline's matmuls do by default (compute-cfg-fp32-dest-acc-en) and tt-metal's keep their intermediates: a bf16
# dst rounds the running sum at every K tile, which over K of thousands moves logits by several ulps.
MATMUL_ACCUMULATOR = "f32"
MATMUL_INITS = ("ttkernel.mm_init", "ttkernel.mm_block_init")  # what marks a compute kernel as a matmul's
# SFPU ops with their own entry point for si32 tiles
INT_VARIANTS = {"abs": "abs_tile_int32", **{f"{c}z": f"{c}z_tile_int32" for c in ZERO_COMPARISONS}}
# inits one op family shares
SHARED_INITS = {**dict.fromkeys(("ceil", "floor", "frac", "trunc"), "rounding_op_tile_init"),
                **dict.fromkeys(("bitwise_and", "bitwise_or", "bitwise_xor"), "binary_bitwise_tile_init"),
                **dict.fromkeys(("logical_left_shift", "logical_right_shift", "right_shift"), "binary_shift_tile_init")}
# si32 tiles' binary ops on the SFPU, as upstream's int32 op map: TTIR family -> (init, call), the calls (and mul's
# init) of FORMAT_TOLD told the tiles' format
INT_BINARY = {"add": ("add_int_tile_init", "add_int_tile"), "subtract": ("sub_int_tile_init", "sub_int_tile"),
              "multiply": ("mul_int_tile_init", "mul_int_tile"),
              "maximum": ("binary_max_int32_tile_init", "binary_max_int32_tile"),
              "minimum": ("binary_min_int32_tile_init", "binary_min_int32_tile")}
FORMAT_TOLD = frozenset({"add_int_tile", "sub_int_tile", "mul_int_tile", "mul_int_tile_init"})
# integer tile reductions on the SFPU: (pool, its identity, the int op folding a reduced tile into the result)
SFPU_REDUCE = {"tile_sfpu_reduce_sum": ("reduce_sum", 0, "add_int_tile"),
               "tile_sfpu_reduce_max": ("reduce_max", -2 ** 31, "binary_max_int32_tile")}
# tile ops whose SFPU call takes the op's scalar attributes: (init, call of float tiles, call of integer tiles, the
# attributes in the call's order); integer attributes take the integer call
SFPU_PARAMETRIZED = {"tile_clamp_scalar": ("clamp_tile_init", "clamp_tile", "clamp_tile_int32", ("min", "max")),
                     "tile_selu": ("selu_tile_init", "selu_tile", None, ("scale", "alpha"))}
# a DST tile with a scalar right-hand side, in place: the call for float tiles and for integer ones (upstream's)
SCALAR_RHS = {"tile_add": ("add_unary_tile", "add_unary_tile_int32"),
              "tile_sub": ("sub_unary_tile", "sub_unary_tile_int32"), "tile_mul": ("mul_unary_tile", None),
              "tile_div": ("div_unary_tile", None), "tile_pow": ("power_tile", None)}
BROADCASTS = ("row", "col", "scalar")  # how a broadcast operand's tiles are gathered
FPU_BINARY = {"add": "add_tiles", "subtract": "sub_tiles", "multiply": "mul_tiles"}


def float_bits(value: float) -> int:
    """An f32's 32 bits as the signed i32 a kernel passes them in."""
    return struct.unpack("<i", struct.pack("<f", value))[0]


@dataclass(frozen=True)
class SfpuCall:
    """An SFPU op of a DST tile and scalar parameters (`SFPU_PARAMETRIZED`): its init, its call and each parameter's
    32 bits (a float's bits, an integer as it is)."""
    init: str
    call: str
    params: tuple[int, ...]

    @classmethod
    def of(cls, op: Operation) -> "SfpuCall":
        init, float_call, int_call, names = SFPU_PARAMETRIZED[op.name.removeprefix("d2m.")]
        values = [op.properties[name] for name in names]
        integer = [isinstance(v, IntegerAttr) for v in values]
        if any(integer) and (not all(integer) or int_call is None):
            raise PassFailure(op, f"'{op.name}' takes {' and '.join(names)} as "
                                  f"{'floats' if int_call is None else 'both floats or both integers'}")
        call = int_call if all(integer) else float_call
        return cls(init, call, tuple(v.value.data if all(integer) else float_bits(v.value.data) for v in values))

    @classmethod
    def with_scalar(cls, op: Operation, tile: ttcore.TileType) -> "SfpuCall":
        """A tile op (`SCALAR_RHS`) of a DST tile and a constant scalar: the scalar as the call's parameter (a float's
        bits; power's exponent as an integer)."""
        call, int_call = SCALAR_RHS[op.name.removeprefix("d2m.")]
        owner = op.operands[1].owner
        if not isinstance(owner, arith.ConstantOp):
            raise PassFailure(op, f"'{op.name}' with a scalar operand known only when the kernel runs is not lowered "
                                  "to kernels yet")
        value = owner.value.value.data
        if not tile.dtype.startswith(("f", "bf")):
            if int_call is None:
                raise PassFailure(op, f"'{op.name}' of an integer tile and a scalar has no SFPU call")
            call = int_call
        param = int(value) if call == "power_tile" or not isinstance(value, float) else float_bits(value)
        return cls("power_tile_init" if call == "power_tile" else "binop_with_scalar_tile_init", call, (param,))


@dataclass
class ShardLayout:
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

    def near(self, other: "ShardLayout") -> bool:
        """Whether `other`'s shards are on the same cores, shard for shard."""
        return (self.grid, self.origin, self.cores) == (other.grid, other.origin, other.cores)

    def core_of(self, ops: "KernelOps", y: SSAValue, x: SSAValue) -> tuple[SSAValue, SSAValue]:
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
            (ELEMENTS[self.dtype], hardware.DTYPE_BYTES[self.dtype])
        if not self.tiled:  # the shard's matrix in elements
            shard = (*shard[:-2], shard[-2] * TILE, shard[-1] * TILE)
        strides = [unit]
        for size in reversed(shard[1:]):
            strides.insert(0, strides[0] * size)
        return MemRefType(element, [*grid, *shard], ttcore.ShardLayoutAttr((tuple(strides), 1)), space)

    def staged(self) -> "ShardLayout":
        """The same shards as row-major elements (where host data lands before a tilize program)."""
        return ShardLayout(self.grid, self.shard, self.dtype, 0, self.memory, self.origin, self.fold, self.nd, False)


def fold_grid(grid: tuple[int, int], device: tuple[int, int]) -> tuple[int, int]:
    """The cores a grid's shards are on: its own shape when it fits the device, else (a virtual grid) the squarest
    rectangle of as many cores that fits, filled row by row (1x12 on an 8x8 device: 3x4)."""
    if grid[0] <= device[0] and grid[1] <= device[1]:
        return grid
    count = grid[0] * grid[1]
    rows = [r for r in range(1, count + 1) if count % r == 0 and r * r <= count and r <= device[0]
            and count // r <= device[1]]
    return (rows[-1], count // rows[-1]) if rows else grid


def grid_maps(layout: ShardLayout) -> tuple[AffineMapAttr, AffineMapAttr]:
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
class Placed:
    """A tensor on the device: its buffer and layout."""
    buffer: SSAValue
    layout: ShardLayout


class KernelOps(list):
    """Ops of a kernel body in order; `emit` appends one and gives its result. A data-movement kernel's ops carry
    the NoC its transfers use (an i8 constant made at the kernel's top, as upstream's kernels name theirs)."""

    def __init__(self, noc: int | SSAValue | None = None, plan: "ArgPlan | None" = None,
                 accessors: dict | None = None, values: dict | None = None):
        super().__init__()
        # (value, its Python type, attribute type) -> its IntegerAttr, shared by a kernel's nested bodies: a kernel
        # makes thousands of constants of a few values, and an attribute is immutable
        self.values: dict[tuple[int, type, Attribute], IntegerAttr] = {} if values is None else values
        self.noc = self.const(noc, i8) if isinstance(noc, int) else noc
        self.plan = plan or ArgPlan()
        self.accessors: dict[SSAValue, SSAValue] = {} if accessors is None else accessors  # base -> TensorAccessor

    def nested(self) -> "KernelOps":
        return KernelOps(self.noc, self.plan, self.accessors, self.values)

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
            args = self.emit(ttkernel.TensorAccessorArgsOp.create(
                operands=[self.const(self.plan.accessors[index]), self.const(0)],
                result_types=[ttkernel.TensorAccessorArgsType()],
                properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 1, 0])}))
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
        key = (value, type(value), t)  # a bool is not its int: IntegerAttr keeps which it was given
        attr = self.values.get(key)
        if attr is None:
            attr = self.values[key] = IntegerAttr(value, t)
        # `create`: the op as its constructor makes it, without the generic argument checks (a third of the time)
        return self.emit(arith.ConstantOp.create(properties={"value": attr}, result_types=[t]))

    def ct_arg(self, index: int, t: Attribute = i32) -> SSAValue:
        return self.emit(ttkernel.OP_CLASSES["get_compile_time_arg_val"].create(
            properties={"arg_index": IntegerAttr(index, i32)}, result_types=[t]))

    def call(self, name: str, *operands: SSAValue, result: Attribute | None = None, **props) -> SSAValue | None:
        return self.emit(ttkernel.OP_CLASSES[name].create(operands=list(operands), properties=props,
                                                          result_types=[result] if result else []))

    def tile_in_tensor(self, corner: tuple[SSAValue, SSAValue], shard: tuple[SSAValue, SSAValue],
                       t: SSAValue) -> tuple[SSAValue, SSAValue]:
        """The tensor's (row, col) tile of tile `t` (row-major) of the shard at grid coords `corner` whose shape is
        `shard` (both in tiles)."""
        (y, x), (sy, sx) = corner, shard
        return (self.emit(arith.AddiOp(self.emit(arith.MuliOp(y, sy)), self.emit(arith.DivUIOp(t, sx)))),
                self.emit(arith.AddiOp(self.emit(arith.MuliOp(x, sx)), self.emit(arith.RemUIOp(t, sx)))))

    def coords(self, layout: "ShardLayout") -> tuple[SSAValue, SSAValue]:
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

    def read_tile(self, chip: dict, source: ShardLayout, row: SSAValue, col: SSAValue, base: SSAValue,
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


@dataclass
class ArgPlan:
    """Where a data-movement kernel finds its arguments: compile-time args, or (tensor-accessor DMA) common
    runtime args, a DRAM buffer's address at argument position p read through a TensorAccessor described at
    compile-time slot `accessors[p]` (pages of `page_sizes[p]` bytes)."""
    common: bool = False
    accessors: dict[int, int] = field(default_factory=dict)
    page_sizes: dict[int, int] = field(default_factory=dict)


@dataclass
class DstStep:
    """One step of a compute kernel evaluating a tree of tile ops in dst: leaf `leaf` copied into dst[`result`], or
    op node `node` applied to the tiles in dst[`operands`] (an SFPU op writes its first operand's slot)."""

    result: int
    leaf: int | None = None
    node: tuple | None = None
    operands: tuple[int, ...] = ()


def dst_schedule(tree) -> list[DstStep]:
    """How a compute kernel evaluates `tree` (a leaf index, or `(family, [children], order)` nodes over them) in
    dst: its ops in their `order`, the order they stand in the `linalg.generic`'s body (as upstream's fused kernels
    run the fused ops in the order fusion laid them out, producers first), each leaf copied into the lowest free
    slot just before the op reading it; an op's result stays in its first operand's slot until the op reading it
    frees the slot. The root's result is in the last step's `result`."""
    if isinstance(tree, int):
        return [DstStep(0, leaf=tree)]
    nodes: list[tuple] = []

    def visit(node) -> None:
        if not isinstance(node, int):
            for child in node[1]:
                visit(child)
            nodes.append(node)

    visit(tree)
    steps: list[DstStep] = []
    free: set[int] = set()
    held: dict[int, int] = {}  # id of an evaluated node -> its slot
    top = 0

    def take() -> int:
        nonlocal top
        if free:
            slot = min(free)
            free.discard(slot)
            return slot
        top += 1
        return top - 1

    for node in sorted(nodes, key=lambda n: n[2]):  # stable: copies of one op in tree order
        slots = []
        for child in node[1]:
            if isinstance(child, int):
                steps.append(DstStep(take(), leaf=child))
                slots.append(steps[-1].result)
            else:
                slots.append(held.pop(id(child)))
        free.update(slots[1:])
        held[id(node)] = slots[0]
        steps.append(DstStep(slots[0], node=node, operands=tuple(slots)))
    return steps


def dst_tiles(tree) -> int:
    """The dst tiles evaluating `tree` as `dst_schedule` does takes."""
    return 1 + max(max((s.result, *s.operands)) for s in dst_schedule(tree))
