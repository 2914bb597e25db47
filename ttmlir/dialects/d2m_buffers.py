"""D2M ops naming buffers a program is given besides its operands: a CB that lives in an operand's own shard
(`d2m.operand_alias`) and semaphores that outlive one program (`d2m.create_global_semaphore` over an L1 buffer,
`d2m.reset_global_semaphore`). `--convert-d2m-to-ttnn` turns them into the CB's tensor binding and TTNN's global
semaphore ops."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, MemRefType, TensorType
from xdsl.irdl import IRDLOperation, ParsePropInAttrDict, irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def

from ttmlir.dialects.d2m_cb import GlobalSemaphoreType


@irdl_op_definition
class OperandAliasOp(IRDLOperation):
    """An operand's local shard seen as a CB (the CB reads and writes the operand's own L1):
    `%cb = d2m.operand_alias %buffer : memref<...> -> memref<..., #ttcore.cb_layout<...>, ...>`."""

    name = "d2m.operand_alias"
    memref = operand_def(MemRefType)
    aliasedBuffer = result_def(MemRefType)
    assembly_format = "$memref attr-dict `:` type($memref) `->` type($aliasedBuffer)"


@irdl_op_definition
class CreateGlobalSemaphoreOp(IRDLOperation):
    """A semaphore per core of a grid, held in an L1 buffer of that grid:
    `%s = d2m.create_global_semaphore(%buffer) {value = 0 : ui32} : memref<...> -> !d2m.global_semaphore`."""

    name = "d2m.create_global_semaphore"
    input = operand_def(MemRefType | TensorType)
    value = opt_prop_def(IntegerAttr)
    result = result_def(GlobalSemaphoreType)
    assembly_format = "`(` $input `)` attr-dict `:` type($input) `->` type($result)"
    irdl_options = (ParsePropInAttrDict(),)


@irdl_op_definition
class ResetGlobalSemaphoreOp(IRDLOperation):
    """A global semaphore set back to `value` on every core: `d2m.reset_global_semaphore(%s) {value = 0 : ui32} :
    !d2m.global_semaphore`."""

    name = "d2m.reset_global_semaphore"
    semaphore = operand_def(GlobalSemaphoreType)
    value = prop_def(IntegerAttr)
    assembly_format = "`(` $semaphore `)` attr-dict `:` type($semaphore)"
    irdl_options = (ParsePropInAttrDict(),)


BUFFER_OPS = [OperandAliasOp, CreateGlobalSemaphoreOp, ResetGlobalSemaphoreOp]
