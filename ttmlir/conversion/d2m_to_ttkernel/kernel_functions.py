"""Kernel functions in upstream's staged form: the private functions a D2M program's threads were split into, each
marked with its thread (`func.func private @k() attributes {d2m.thread = #d2m.thread<compute>}`), become ttkernel
kernels where they are (as do the D2M ops left in a kernel that already has its `ttkernel.arg_spec`).

The function's `d2m.thread` becomes `ttkernel.thread` (compute, or noc for a data-movement thread) and the
arguments its ops ask for (`d2m.get_cb`, `d2m.get_arg`: kernel_arguments.py) are gathered into its
`ttkernel.arg_spec` first, sorted by kind then operand index (after those of an existing spec). Arguments every
core shares are common runtime args (`ttkernel.get_common_arg_val(i)`, i its place among them), or compile-time
args under force-compile-time-args. The DST compute goes first (kernel_dst.py), while each tile still shows where
it was loaded from; then each op becomes the calls it stands for (LOWERINGS): acquiring and releasing CB pages
(`d2m.wait` -> `cb_wait_front`, the CB's block in pages), a `d2m.print` a `ttkernel.dprint`, a
`d2m.set_l1_accumulate` a `pack_reconfig_l1_acc` (switched off again before the kernel returns), a tile loaded from a
CB block or DST its index there and a tile stored to a CB block a `pack_tile` of that dst index after the packer
is set to the CB's format, a block tilize or untilize tt-metal's block calls, semaphores (kernel_semaphores.py),
DMA and core indices (kernel_dma.py). An op of another dialect's kernel vocabulary is refused, naming it.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import BoolAttr, IndexType, IntegerAttr, IntegerType, i32
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import ttcore, ttkernel
from ttmlir.conversion.d2m_to_ttkernel.kernel_arguments import cb_type, kernel_arg, lower_get_arg, read_arg
from ttmlir.conversion.d2m_to_ttkernel.kernel_dma import DmaLowering
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import SFPU_PARAMETRIZED
from ttmlir.conversion.d2m_to_ttkernel.kernel_dst import FPU_BINARY, FPU_REDUCE, SFPU_BINARY, SFPU_REDUCE, SFPU_UNARY, \
    DstLowering, linear_index
from ttmlir.conversion.d2m_to_ttkernel.kernel_semaphores import lower_semaphore_update, lower_semaphore_wait
from ttmlir.dialects.d2m_args import GetArgOp
from ttmlir.dialects.d2m_dma import MemTxType
from ttmlir.dialects.d2m_cb import CBType as D2MCBType, GetCBOp
from ttmlir.errors import PassFailure

THREADS = {"compute": "compute", "datamovement": "noc"}


def arg_order(arg: tuple[str, None, int]) -> tuple[int, int]:
    """Kernel args sorted as upstream sorts them: by kind, then operand index."""
    return ttkernel.ARG_TYPES.index(arg[0]), arg[2]
TILE_ELEMENTS = 32 * 32
WIDE_DTYPES = ("f32", "si32", "u32")  # 32-bit: half as many tiles fit in dst
# ops a kernel keeps as they are: index arithmetic, control flow, the calls already made
KEPT_DIALECTS = ("arith", "scf", "func", "builtin", "affine", "ttkernel")


def is_kernel_function(func: Operation) -> bool:
    """A kernel function of D2M ops: marked with its thread, or already a kernel (with its arg spec) still holding
    D2M ops."""
    if not isinstance(func, FuncOp):
        return False
    return "d2m.thread" in func.attributes or ("ttkernel.thread" in func.attributes and
                                               any(op.dialect_name() == "d2m" for op in func.walk()))


def _cb_pages(shaped: Attribute) -> int:
    """The pages of a CB block: one per tile, or per tile's worth of scalars for a row-major block."""
    count = math.prod(shaped.get_shape())
    return count if isinstance(shaped.element_type, ttcore.TileType) else -(-count // TILE_ELEMENTS)


def _memory_space(memref: Attribute) -> str | None:
    space = getattr(memref, "memory_space", None)
    return getattr(getattr(space, "data", None), "value", None)


def _unviewed(value: SSAValue) -> SSAValue:
    """The block a collapsed view of a block is of."""
    while isinstance(value.owner, Operation) and value.owner.name == "memref.collapse_shape":
        value = value.owner.operands[0]
    return value


class KernelFunction:
    """One kernel function's lowering: its argument spec, then its ops one by one."""

    def __init__(self, func: FuncOp, force_compile_time_args: bool, chip: dict):
        self.func, self.force_ct = func, force_compile_time_args
        # the tiles of dst a math/pack half holds (dst is split in two halves, the packer draining one)
        self.dst_tiles = int(chip.get("dst_physical_size_tiles") or 16) // 2
        used = {kernel_arg(func, op): None for op in func.walk() if isinstance(op, (GetCBOp, GetArgOp))}
        spec = func.attributes.get("ttkernel.arg_spec")
        if "d2m.thread" not in func.attributes:  # already a kernel: its args so far, then those its D2M ops read
            self.thread = func.attributes["ttkernel.thread"].data.value
            self.rt, self.ct = (list(group) for group in spec.data) if isinstance(spec, ttkernel.ArgSpecAttr) \
                else ([], [])
        else:
            thread = func.attributes["d2m.thread"]
            if thread.thread not in THREADS:
                raise PassFailure(func, f"'{thread.thread}' threads are split into compute and data-movement "
                                        "kernels (d2m-split-unified-thread) before this pass")
            self.thread = THREADS[thread.thread]
            self.rt, self.ct = [], []
        new = [a for a in used if a not in self.rt and a not in self.ct]
        if self.force_ct:  # compile-time args kept sorted, the reads of those already there renumbered
            before = list(self.ct)
            self.ct = sorted({*self.ct, *new}, key=arg_order)
            for op in func.walk():
                if op.name == "ttkernel.get_compile_time_arg_val":
                    op.properties["arg_index"] = IntegerAttr(self.ct.index(before[op.arg_index.value.data]), i32)
        else:
            self.rt += new if spec is not None and "d2m.thread" not in func.attributes else sorted(new, key=arg_order)
        self.rewriter = Rewriter()
        self.dead: list[Operation] = []  # ops erased once the ops using them are lowered
        # each op's operands as written, the type and the block before any collapse (lowering replaces CBs and the
        # blocks acquired from them by ttkernel CBs)
        self.types = {op: [(v.type, _unviewed(v).type) for v in op.operands] for op in func.walk()}
        # and the op that made each (a block's acquire says which CB pointer addresses it)
        self.makers = {op: [v.owner if isinstance(v.owner, Operation) else None for v in op.operands]
                       for op in func.walk()}

    def block_of(self, op: Operation, index: int = 0, unviewed: bool = False) -> Attribute:
        """The memref (a CB's block) operand `index` of `op` was, as written (before any collapse: `unviewed`)."""
        written = self.types[op][index][1 if unviewed else 0]
        return written.underlying if isinstance(written, D2MCBType) else written

    def slot(self, arg: tuple[str, None, int]) -> tuple[bool, int]:
        """Whether `arg` is a compile-time arg, and its place among those of its kind."""
        return (True, self.ct.index(arg)) if arg in self.ct else (False, self.rt.index(arg))

    def lower(self) -> None:
        # DST compute first, while each tile still shows the load it came from
        dst = DstLowering(self)
        for op in list(self.func.walk()):
            if op.parent is None:  # erased with the op whose result it stored
                continue
            if op.name[len("d2m."):] in DST_COMPUTE:
                dst.compute(op)
            elif isinstance(op, memref.StoreOp):
                dst.store(op)
        for op in list(self.func.walk()):
            if op is self.func or op in self.dead:
                continue
            lowering = LOWERINGS.get(op.name)
            if lowering is not None:
                lowering(self, op)
            elif op.dialect_name() not in KEPT_DIALECTS:
                raise PassFailure(op, f"'{op.name}' in a kernel function is not converted to TTKernel yet")
        for op in reversed(self.dead):
            self.rewriter.erase_op(op)
        # transfers carried through loops are null handles now (index), as upstream's type converter has them
        for op in list(self.func.walk()):
            carried = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
            for value in carried:
                if isinstance(value.type, MemTxType):
                    Rewriter.replace_value_with_new_type(value, IndexType())
        self.func.attributes.pop("d2m.thread", None)
        self.func.attributes["ttkernel.thread"] = ttkernel.ThreadAttr(ttkernel.ThreadAttr.enum_type(self.thread))
        self.func.attributes["ttkernel.arg_spec"] = ttkernel.ArgSpecAttr((tuple(self.rt), tuple(self.ct)))

    def replace(self, op: Operation, new: list[Operation], values: list[SSAValue] | None = None) -> None:
        self.rewriter.replace_op(op, new, values)

    # the lowerings, one per D2M (or memref) op

    def get_cb(self, op: GetCBOp) -> None:
        self.replace(op, read_arg(self, kernel_arg(self.func, op), cb_type(op.result.type.underlying)))

    def cb_call(self, op: Operation, call: str) -> None:
        """A CB acquire or release: the call on the CB with the block's pages; an acquired block is the CB."""
        pages = arith.ConstantOp(IntegerAttr(_cb_pages(self.block_of(op)), i32))
        new = [pages, ttkernel.OP_CLASSES[call].create(operands=[op.cb, pages.result])]
        self.replace(op, new, [op.cb] if op.results else [])

    def set_l1_accumulate(self, op: Operation) -> None:
        """The packer's L1 accumulation switched as asked, and off again before each return (as upstream, once per
        switch): the packer keeps its configuration from one program to the next."""
        self.replace(op, [ttkernel.OP_CLASSES["pack_reconfig_l1_acc"].create(operands=[op.operands[0]])])
        for ret in [r for r in self.func.walk() if isinstance(r, ReturnOp)]:
            off = arith.ConstantOp(IntegerAttr(0, i32))
            self.rewriter.insert_op([off, ttkernel.OP_CLASSES["pack_reconfig_l1_acc"].create(
                operands=[off.result])], InsertPoint.before(ret))

    def print_(self, op: Operation) -> None:
        self.replace(op, [ttkernel.DPrintOp.create(operands=list(op.argv), properties={"fmt": op.fmt})])

    def tile_block(self, op: Operation) -> Attribute:
        """The CB block a tile load or store reaches (refused unless a block of tiles in L1)."""
        block = self.block_of(op, 0 if op.name == "memref.load" else 1)
        if not isinstance(getattr(block, "element_type", None), ttcore.TileType):
            raise PassFailure(op, f"'{op.name}' in a kernel function is converted for tiles of a CB block or DST "
                                  "only")
        return block

    def load(self, op: memref.LoadOp) -> None:
        """A tile of a CB block: its index in the block (what a copy or pack names it by)."""
        new, index = linear_index(self.tile_block(op).get_shape(), list(op.indices))
        self.replace(op, new, [index])

    def store(self, op: memref.StoreOp) -> None:
        """A tile stored to a CB block: the packer set to the CB's format, then a pack of the tile's dst index."""
        new, index = linear_index(self.tile_block(op).get_shape(), list(op.indices))
        new += [ttkernel.OP_CLASSES["pack_reconfig_data_format"].create(operands=[op.memref]),
                ttkernel.OP_CLASSES["pack_tile"].create(operands=[op.value, op.memref, index], properties={
                    "out_of_order": BoolAttr(True, IntegerType(1))})]
        self.replace(op, new)


def _layout_block(kernel: KernelFunction, op: Operation, tilize: bool) -> None:
    """A block tilize (untilize): the engines started on the two CBs, then the tilize (the pack untilize, whose
    column tiles go through dst in passes as wide as dst holds and dividing the row) of the block's rows x cols
    tiles, its leading dims collapsed into rows."""
    src, dst = op.input, op.output
    tiles = kernel.block_of(op, 1 if tilize else 0, unviewed=True)
    shape = tiles.get_shape()
    rows, cols = (math.prod(shape[:-1]), shape[-1]) if len(shape) > 2 else tuple(shape)
    block_r, block_c = (arith.ConstantOp(IntegerAttr(v, i32)) for v in (rows, cols))
    new: list[Operation] = [block_r, block_c,
                            ttkernel.OP_CLASSES["compute_kernel_hw_startup"].create(operands=[src, dst])]
    if tilize:
        new += [ttkernel.OP_CLASSES["tilize_init"].create(operands=[src, block_c.result, dst]),
                ttkernel.OP_CLASSES["experimental.tilize_block"].create(
                    operands=[src, dst, block_r.result, block_c.result])]
    else:
        capacity = kernel.dst_tiles // (2 if tiles.element_type.dtype in WIDE_DTYPES else 1)
        per_pass = min(capacity, cols)
        while per_pass > 1 and cols % per_pass:
            per_pass -= 1
        passes = {"colsPerDstPass": IntegerAttr(per_pass, i32), "totalColTiles": IntegerAttr(cols, i32)}
        new += [ttkernel.OP_CLASSES["pack_untilize_init"].create(operands=[src, dst], attributes=dict(passes)),
                ttkernel.OP_CLASSES["experimental.pack_untilize_block"].create(
                    operands=[src, dst, block_r.result, block_c.result], attributes=dict(passes)),
                ttkernel.OP_CLASSES["pack_untilize_uninit"].create(operands=[dst])]
    kernel.replace(op, new, [dst] if op.results else [])  # in memref form the block op has no result


def _matmul_block(kernel: KernelFunction, op: Operation) -> None:
    """A block matmul of the A and B blocks of two CBs into the output block: the block engine set up once, after
    the CBs are defined (mm_block_init), then re-armed (mm_block_init_short) and run over the whole block from tile
    0 of each CB into DST from slot 0 (experimental::matmul_block; rt x ct output tiles over kt, B's K tiles its
    source's row of tiles apart, or adjacent when B comes transposed)."""
    a_type, b_type = kernel.block_of(op, 0), kernel.block_of(op, 1)
    b_source = kernel.block_of(op, 1, unviewed=True)
    transpose_b = op.properties["transpose_b"].value.data if "transpose_b" in op.properties else 0
    rt, kt = a_type.get_shape()[0], a_type.get_shape()[1]
    ct = b_type.get_shape()[0] if transpose_b else b_type.get_shape()[1]
    k_stride = 1 if transpose_b else b_source.get_shape()[1]
    cb_a, cb_b, cb_out = op.operands
    consts = {name: arith.ConstantOp(IntegerAttr(v, i32)) for name, v in
              (("transpose", int(bool(transpose_b))), ("ct", ct), ("rt", rt), ("kt", kt), ("stride", k_stride))}
    zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
    dims = [consts[n].result for n in ("ct", "rt", "kt")]
    start = [arith.ConstantOp(IntegerAttr(c.value.value.data, i32)) for c in
             (consts["transpose"], consts["ct"], consts["rt"], consts["kt"])]
    setup = ttkernel.OP_CLASSES["mm_block_init"].create(operands=[cb_a, cb_b, cb_out, *(c.result for c in start)])
    entry = kernel.func.body.block
    defined = [v.owner for v in (cb_a, cb_b, cb_out) if isinstance(v.owner, Operation) and v.owner.parent_block()
               is entry]
    last = max(defined, key=entry.get_operation_index) if defined else None
    point = InsertPoint.after(last) if last is not None else InsertPoint.at_start(entry)
    kernel.rewriter.insert_op([*start, setup], point)
    new = [*consts.values(), zero,
           ttkernel.OP_CLASSES["mm_block_init_short"].create(operands=[cb_a, cb_b, consts["transpose"].result,
                                                                       *dims]),
           ttkernel.OP_CLASSES["experimental.matmul_block"].create(
               operands=[cb_a, cb_b, zero.result, zero.result, zero.result, consts["transpose"].result, *dims,
                         consts["stride"].result])]
    kernel.replace(op, new, [])


def _mask_tile(kernel: KernelFunction, op: Operation) -> None:
    """A row (column) mask tile written into its CB, at the front the compute reads (upstream's experimental
    padding LLK); the count of valid rows (columns) as an i32."""
    count = [] if op.valid.type == i32 else [arith.IndexCastOp(op.valid, i32)]
    call = ttkernel.OP_CLASSES[op.name.replace("d2m.", "experimental.")]
    kernel.replace(op, [*count, call.create(operands=[count[0].result if count else op.valid, op.output])])


DST_COMPUTE = frozenset({*SFPU_UNARY, *SFPU_PARAMETRIZED, *SFPU_BINARY, *FPU_BINARY, *SFPU_REDUCE, "tile_typecast",
                         "tile_bcast", "tile_matmul", "tile_fill", "tile_transpose", "tile_where", *FPU_REDUCE})
LOWERINGS = {
    "d2m.get_cb": KernelFunction.get_cb,
    "d2m.get_arg": lower_get_arg,
    "d2m.acquire_dst": lambda k, op: DstLowering(k).acquire(op),
    "d2m.dma_read": lambda k, op: DmaLowering(k).read(op),
    "d2m.dma_write": lambda k, op: DmaLowering(k).write(op),
    "d2m.dma_wait": lambda k, op: DmaLowering(k).wait(op),
    "d2m.null_tx": lambda k, op: DmaLowering(k).done(op, []),
    "d2m.core_index": lambda k, op: DmaLowering(k).core_index(op),
    "d2m.semaphore_set": lower_semaphore_update,
    "d2m.semaphore_inc": lower_semaphore_update,
    "d2m.semaphore_wait": lower_semaphore_wait,
    "d2m.wait": lambda k, op: k.cb_call(op, "cb_wait_front"),
    "d2m.reserve": lambda k, op: k.cb_call(op, "cb_reserve_back"),
    "d2m.push": lambda k, op: k.cb_call(op, "cb_push_back"),
    "d2m.pop": lambda k, op: k.cb_call(op, "cb_pop_front"),
    "d2m.print": KernelFunction.print_,
    "d2m.set_l1_accumulate": KernelFunction.set_l1_accumulate,
    # a view of a CB block is its CB, of DST DST
    "memref.collapse_shape": lambda k, op: k.replace(op, [], [op.operands[0]]),
    "memref.cast": lambda k, op: k.replace(op, [], [op.operands[0]]),
    # DST is untyped: a tile read as another type is the same slot
    "d2m.dst_reinterpret_cast": lambda k, op: k.replace(op, [], [op.operands[0]]),
    "memref.load": KernelFunction.load,
    "memref.store": KernelFunction.store,
    "d2m.tile_tilize_block": lambda k, op: _layout_block(k, op, tilize=True),
    "d2m.tile_untilize_block": lambda k, op: _layout_block(k, op, tilize=False),
    "d2m.tile_matmul_block": _matmul_block,
    "d2m.write_row_mask_tile": _mask_tile,
    "d2m.write_col_mask_tile": _mask_tile,
}


def lower_kernel_functions(module, force_compile_time_args: bool, chip: dict) -> None:
    """Lower every upstream-form kernel function of `module` (on the chip `chip` describes) in place."""
    for func in [f for f in module.ops if is_kernel_function(f)]:
        KernelFunction(func, force_compile_time_args, chip).lower()
