"""`%tx = d2m.null_tx : !d2m.mem_tx<write>`: a transfer handle standing for no transfer, waiting on which waits for
nothing in flight (the first value of a transfer carried across loop iterations, `--d2m-optimize-dma`)."""

from __future__ import annotations

from xdsl.irdl import IRDLOperation, irdl_op_definition, result_def, traits_def
from xdsl.traits import Pure

from ttmlir.dialects.d2m_dma import MemTxType


@irdl_op_definition
class NullTxOp(IRDLOperation):
    name = "d2m.null_tx"
    result = result_def(MemTxType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"


NULL_TX_OPS = [NullTxOp]
