"""D2M's debug op: a kernel thread's print, which `--convert-d2m-to-ttkernel` makes tt-metal's DPRINT."""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition

from ttmlir.ir.format_print import FormatPrintOp


@irdl_op_definition
class PrintOp(FormatPrintOp):
    """A print from a kernel thread, its `{}`s taking the operands in order:
    `d2m.print("x={} y={}\\n", %x, %y) : (ui32, ui32) -> ()`."""

    name = "d2m.print"


DEBUG_OPS = (PrintOp,)
