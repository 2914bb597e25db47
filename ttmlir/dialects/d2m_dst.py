"""D2M's destination-register (DST) ops and the table saying how each tile op uses DST.

`d2m.acquire_dst() : memref<Nx!ttcore.tile<...>, #ttcore.memory_space<dst>>` is the DST register file of a compute
core, `d2m.dst_reinterpret_cast` reads a tile as another tile type (DST is untyped: a slot written as one format is
read as another) and `d2m.set_l1_accumulate(%flag)` turns the packer's accumulate-into-L1 mode on or off;
`d2m.scratch_init` names the L1 buffer intermediates that do not fit in DST are spilled to.

A tile op reads some of its operands from DST (the SFPU ops, the accumulator of a matmul or an FPU reduction) and
the others straight from circular buffers (an FPU binary op on non-f32 tiles); some write their result over their
first DST input (in place). `dst_operands`, `dst_in_place`, `is_scalar_operand`, `input_slice_stride` and
`scratch_slices` answer for an op, as upstream's OperandLoadStoreRegisterOpInterface does."""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, i32
from xdsl.ir import Attribute, Operation
from xdsl.irdl import EqAttrConstraint, IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects import ttcore
from ttmlir.dialects.d2m_cb import verify_compute_region

DST_SPACE = "dst"


def is_dst_memref(type_: Attribute) -> bool:
    """Whether `type_` is a memref in the DST register's memory space."""
    space = getattr(type_, "memory_space", None)
    return isinstance(type_, MemRefType) and isinstance(space, ttcore.MemorySpaceAttr) and \
        space.data.value == DST_SPACE


@irdl_op_definition
class AcquireDstOp(IRDLOperation):
    """The compute core's DST register file: `%dst = d2m.acquire_dst() : memref<8x!ttcore.tile<32x32, f16>, #dst>`."""

    name = "d2m.acquire_dst"
    result = result_def(MemRefType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "`(` `)` attr-dict `:` type($result)"

    def asm_result_name(self) -> str:
        return "dst"

    def verify_(self) -> None:
        verify_compute_region(self)
        if not is_dst_memref(self.result.type) or not self.result.type.get_shape():
            raise VerifyException(f"'{self.name}' op result #0 must be register memoryspace memref type, but got "
                                  f"{self.result.type}")


@irdl_op_definition
class DstReinterpretCastOp(IRDLOperation):
    """A tile read as another tile type, for a DST slot typed otherwise:
    `%1 = "d2m.dst_reinterpret_cast"(%0) : (!ttcore.tile<32x32, bf16>) -> !ttcore.tile<32x32, f32>` (no data
    moves; printed in generic form, as upstream has no custom syntax for it)."""

    name = "d2m.dst_reinterpret_cast"
    input = operand_def(ttcore.TileType)
    result = result_def(ttcore.TileType)


@irdl_op_definition
class SetL1AccumulateOp(IRDLOperation):
    """`d2m.set_l1_accumulate(%flag)`: with a non-zero i32 the packer adds the tiles it writes to L1 into what is
    there, with zero it overwrites them."""

    name = "d2m.set_l1_accumulate"
    enable = operand_def(EqAttrConstraint(i32))
    assembly_format = "`(` $enable `)` attr-dict"



# tile ops by how they use DST (upstream's op classes); ops not named read every tile operand from DST
FPU_OR_SFPU_BINARY = frozenset({"tile_add", "tile_sub", "tile_mul"})  # FPU on CB tiles unless f32 or a scalar rhs
SCALAR_RHS_BINARY = frozenset({"tile_div", "tile_pow", "tile_bitwise_and", "tile_bitwise_or", "tile_bitwise_xor",
                               "tile_logical_left_shift", "tile_logical_right_shift", "tile_right_shift"})
# ops reading only some operands from DST, and whether they write their result over their DST input
DST_OPERANDS = {"tile_matmul": (2,), "tile_reduce_sum": (2,), "tile_reduce_max": (2,), "tile_reduce_mean": (2,),
                "tile_sfpu_reduce_sum": (1,), "tile_sfpu_reduce_max": (1,), "tile_argmax": (0, 1),
                "tile_fill": (), "tile_rand": (), "tile_bcast": (), "tile_transpose": (), "tile_matmul_block": (),
                "acquire_dst": ()}
NOT_DST_OPERATED = frozenset({"tile_tilize_block", "tile_untilize_block", "tile_matmul_block", "acquire_dst",
                              "arange_block", "topk_block"})
IN_PLACE = frozenset({"tile_matmul", "tile_reduce_sum", "tile_reduce_max", "tile_reduce_mean", "tile_sfpu_reduce_sum",
                      "tile_sfpu_reduce_max", "tile_argmax"})
BINARY_DST = frozenset({"tile_eq", "tile_ne", "tile_gt", "tile_lt", "tile_ge", "tile_le", "tile_maximum",
                        "tile_minimum", "tile_atan2"})
TERNARY_DST = frozenset({"tile_where"})
SCRATCH_SLICES = {"tile_sfpu_reduce_sum": 1, "tile_sfpu_reduce_max": 1}
INPUT_SLICE_STRIDE = {"tile_argmax": 2}


def _mnemonic(op: Operation) -> str:
    return op.name[len("d2m."):]


def is_dst_compute_op(op: Operation) -> bool:
    """Whether `op` is a tile compute op whose operands and result the DST passes place."""
    return op.name.startswith("d2m.tile_") and _mnemonic(op) not in NOT_DST_OPERATED


def _unary(op: Operation) -> bool:
    mnemonic = _mnemonic(op)
    return mnemonic not in DST_OPERANDS and mnemonic not in FPU_OR_SFPU_BINARY | SCALAR_RHS_BINARY | BINARY_DST | \
        TERNARY_DST


def _is_f32(type_: Attribute) -> bool:
    return (type_.dtype if isinstance(type_, ttcore.TileType) else str(type_)) == "f32"


def dst_operands(op: Operation) -> tuple[int, ...]:
    """The indices of the operands `op` reads from DST."""
    mnemonic = _mnemonic(op)
    if mnemonic in DST_OPERANDS:
        return DST_OPERANDS[mnemonic]
    if mnemonic in FPU_OR_SFPU_BINARY:
        lhs, rhs = op.operand_types
        if _is_f32(lhs) or _is_f32(rhs):
            return (0, 1)
        return () if isinstance(rhs, ttcore.TileType) else (0,)
    if mnemonic in SCALAR_RHS_BINARY:
        return (0, 1) if isinstance(op.operand_types[1], ttcore.TileType) else (0,)
    return tuple(range(len(op.operands)))


def dst_in_place(op: Operation) -> bool:
    """Whether `op` writes its result over its DST input."""
    return _mnemonic(op) in IN_PLACE or _unary(op)


def is_scalar_operand(op: Operation, index: int) -> bool:
    """Whether operand `index` is the scalar right-hand side of a tile-or-scalar binary op (or tile_fill's value)."""
    mnemonic = _mnemonic(op)
    if mnemonic == "tile_fill":
        return index == 0
    if mnemonic in FPU_OR_SFPU_BINARY | SCALAR_RHS_BINARY and index == 1:
        type_ = op.operand_types[1]
        return not isinstance(type_, ttcore.TileType) and not isinstance(type_, MemRefType)
    return False


def input_slice_stride(op: Operation) -> int:
    return INPUT_SLICE_STRIDE.get(_mnemonic(op), 1)


def scratch_slices(op: Operation) -> int:
    return SCRATCH_SLICES.get(_mnemonic(op), 0)


DATA_TYPE_BITS = {"f32": 32, "si32": 32, "u32": 32, "f16": 16, "bf16": 16, "u16": 16, "u8": 8}


def element_bits(type_: Attribute) -> int:
    """The bits of a tile's (or scalar's) element, as DST holds it (block floats unpack to 16 bits)."""
    dtype = type_.dtype if isinstance(type_, ttcore.TileType) else str(type_)
    return DATA_TYPE_BITS.get(dtype, 16 if dtype.startswith("bfp") else 32)


@irdl_op_definition
class UnpackStallOnPackOp(IRDLOperation):
    """`d2m.unpack_stall_on_pack`: the unpacker waits until the packer's last write to L1 is committed, before a
    compute op reads a buffer the previous one packed."""

    name = "d2m.unpack_stall_on_pack"
    assembly_format = "attr-dict"


DST_OPS = [AcquireDstOp, DstReinterpretCastOp, SetL1AccumulateOp, UnpackStallOnPackOp]
