"""The `debug` dialect: ops a user puts in the IR to look at a run (upstream's Debug dialect).

Each op reads one tensor. `annotate`, `region_start`/`region_end` and the rest of the `debug` family pass it
through unchanged (their result has the operand's type), so the ops around them cannot be moved across;
`breakpoint`, `print`, `dump` and `memory_snapshot` have no result and are kept for their effect. The TTIR→TTNN
conversion leaves them in place (`dump` becomes `ttnn.dump_tensor`) and the layout pass retypes their results like
any op's; `ttmlir-translate` writes the six the runtime knows, and refuses the others with a located error.
"""

from __future__ import annotations

from xdsl.ir import Dialect

from ttmlir.ir.op_table import op
from ttmlir.dialects.canonical_patterns import patterns_for
from ttmlir.ir.tt_op import TTOp, build_op_class

# family "debug": a pure pass-through; "debug_effect": no result, kept for what it does at run time
ROWS = (
    op("annotate", "debug", "operand", props="annotation:str",
       summary="Attach a user's note to a value; the value is unchanged."),
    op("breakpoint", "debug_effect", "operand", results="", summary="Stop the run in the debugger here."),
    op("print", "debug_effect", "operand", props="message:str", results="", summary="Log a message at run time."),
    op("dump", "debug_effect", "operand", props="file_path:str", results="", summary="Save a tensor to disk."),
    op("memory_snapshot", "debug_effect", "operand", props="file_path:str", results="",
       summary="Write the device's memory state to a file."),
    op("region_start", "debug", "operand", props="region_id:str", summary="Mark the start of a region."),
    op("region_end", "debug", "operand", props="region_id:str", summary="Mark the end of a region."),
    op("overwrite", "debug", "dst src", summary="Overwrite a tensor."),
    op("snapshot", "debug", "operand", summary="Snapshot the device state."),
    op("begin_trace", "debug", "operand", props="trace_id:str", summary="Begin a graph trace."),
    op("end_trace", "debug", "operand", props="trace_id:str", summary="End a graph trace."),
    op("profiler_start", "debug", "operand", props="scope_id:str", summary="Start the profiler."),
    op("profiler_end", "debug", "operand", props="scope_id:str", summary="End the profiler."),
    op("timestamp", "debug", "operand", summary="Capture the current clock time."),
    op("hook", "debug", "operand", summary="Insert a runtime hook."),
)
# The ops a `.ttnn` binary holds and the runtime runs (upstream's debug.fbs); `dump` is lowered to ttnn.dump_tensor.
SERIALIZED = frozenset({"annotate", "breakpoint", "print", "memory_snapshot", "region_start", "region_end"})


class DebugOp(TTOp):
    """A debug op: upstream's SameOperandsAndResultType on the pass-through ones."""

    def tt_verify(self) -> None:
        super().tt_verify()
        types = {v.type for v in (*self.operands, *self.results)}
        if self.results and len(types) > 1:
            raise self.error("requires the same type for all operands and results")


DEBUG_OP_CLASSES: dict[str, type[TTOp]] = {}
DEBUG_OP_CLASSES.update({row.name: build_op_class("debug", row, DebugOp, None, DEBUG_OP_CLASSES, patterns_for) for row in ROWS})
Debug = Dialect("debug", list(DEBUG_OP_CLASSES.values()), [])


def dump_tensor_rule(op: TTOp) -> None:
    """ttnn.dump_tensor writes TTNN's tensor format, whose files are named `.tensorbin`."""
    path = op.prop("file_path").data
    if not path.endswith(".tensorbin"):
        raise op.error(f"file {path} must end with .tensorbin extension")


def load_tensor_rule(op: TTOp) -> None:
    """ttnn.load_tensor reads a `.tensorbin` file; it takes a device exactly when its result lives on one."""
    dump_tensor_rule(op)
    layout = op.results[0].type.encoding
    on_device = getattr(layout, "buffer_type", "system_memory") != "system_memory"
    if op.operands and not on_device:
        raise op.error("device operand must be null for system memory buffer type")
    if on_device and not op.operands:
        raise op.error("device operand must be specified for device memory buffer type")
