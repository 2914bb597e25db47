"""`--ttnn-deallocate`: free each device intermediate right after its last use."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import ReturnOp
from xdsl.ir import Block, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import ttnn
from ttmlir.dialects.debug import DebugOp
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.errors import PassFailure
from ttmlir.ir.op_table import RESULT_INTO
from ttmlir.transforms.ttnn.ttnn_utils import NOT_FORCED, device_functions, frees_its_activation, ttnn_op


def _is_device_tensor(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, TensorType) and isinstance(t.encoding, ttnn.TTNNLayoutAttr) and \
        t.encoding.buffer_type != "system_memory"


def _check_freed_last(value: SSAValue, order: dict) -> None:
    """A convolution that frees its L1 input itself must be that input's last reader."""
    users = [u.operation for u in value.uses if u.operation in order]
    if not _is_device_tensor(value) or not users:
        return
    last = max(users, key=order.__getitem__)
    for user in users:
        if user is not last and isinstance(user, TTNNOp) and frees_its_activation(user, value):
            raise PassFailure(user, "use-after-free detected: op deallocates its input but is not the last user")


@dataclass(frozen=True)
class TTNNDeallocatePass(ModulePass):
    """Free each device intermediate right after its last use (never arguments or results)."""

    name: ClassVar[str] = "ttnn-deallocate"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for func in device_functions(module):
            if not func.is_declaration:
                self._deallocate(func.body.block)

    @staticmethod
    def _deallocate(block: Block) -> None:
        order = {op: i for i, op in enumerate(block.ops)}
        for value in (*block.args, *(r for op in block.ops for r in op.results)):
            _check_freed_last(value, order)
        # a debug op's result is its operand's tensor under another name (as is the result of an op writing into a
        # bound buffer): the tensor lives until the last use of any of its names and is freed once, by its first name
        names: dict[SSAValue, list[SSAValue]] = {}
        for op in block.ops:
            if isinstance(op, DebugOp) and op.results:
                root = next((r for r, aliases in names.items() if op.operands[0] in aliases), op.operands[0])
                names.setdefault(root, [root]).append(op.results[0])
            into = RESULT_INTO.get(op.ROW.name) if isinstance(op, TTNNOp) else None
            for buffer in op.operand_groups()[into] if into else ():
                names.setdefault(buffer, [buffer]).append(op.results[0])
        aliases = {a for values in names.values() for a in values[1:]}
        for op in list(block.ops):
            for result in op.results:
                if not _is_device_tensor(result) or result in aliases:
                    continue
                users = [u.operation for name in names.get(result, [result]) for u in name.uses]
                if not users:
                    continue
                if any(isinstance(u, ReturnOp) or u.parent is not block for u in users):
                    continue
                last = max(users, key=order.__getitem__)
                dealloc = ttnn_op("deallocate", [result], {"force": NOT_FORCED}, [], last)
                block.insert_op_after(dealloc, last)
