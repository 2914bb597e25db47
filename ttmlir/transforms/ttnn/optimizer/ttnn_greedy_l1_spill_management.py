"""`--ttnn-greedy-l1-spill-management`: keep every point of a program within the L1 budget by spilling tensors the
memory-layout propagation placed in L1 to DRAM.

The schedule is replayed on the runtime's own L1 allocator (`ttmlir.runtime.device.BankAllocator`, first fit, the
same address range on every bank), its banks cut to the budget (`tensor-l1-usage-cap` of each core's L1): each op's
L1 results are allocated while its operands are live, then every L1 tensor read for the last time is freed (where
`--ttnn-deallocate` frees it). Where a result does not fit, or the live tensors and the op's circular buffers (the
op model's) exceed the budget, the live tensor whose next read is farthest away moves to DRAM for its whole life
(its producer writes DRAM; every reader accepts an interleaved operand) and the replay starts over. The runtime
replays the same allocations in a bank at least as large, so it finds the same addresses: no L1 overflow, no
fragmentation the compiler did not see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass

from ttmlir import hardware
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.runtime.device import BankAllocator, OutOfMemory
from ttmlir.transforms.ttnn.optimizer.ttnn_greedy_memory_layout_propagation import (arch_of, describe, loc_name, matmul_block_tiles,
                                                                 operand_specs, retype, set_memory_config, spec_of,
                                                                 usage_cap, write_trace)
from ttmlir.transforms.ttnn.ttnn_utils import device_functions
from ttmlir.runtime import op_model
from ttmlir.runtime.op_model import TensorSpec


def _l1(value: SSAValue) -> TensorSpec | None:
    spec = spec_of(value.type) if isinstance(value.type, TensorType) else None
    return spec if spec is not None and spec.buffer_type == "l1" else None


@dataclass(frozen=True)
class TTNNGreedyL1SpillManagementPass(ModulePass):
    """Spill L1 tensors to DRAM (farthest next use first) wherever the schedule would overflow the L1 budget."""

    name: ClassVar[str] = "ttnn-greedy-l1-spill-management"
    tensor_l1_usage_cap: str = "0.95"
    enable_decision_trace: bool = False
    decision_trace_dir: str = "ttrt-artifacts/decision_trace"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        arch, cap = arch_of(module), usage_cap(module, self.tensor_l1_usage_cap)
        budget = op_model.l1_budget(arch, cap)
        spills: list[dict] = []
        for func in device_functions(module):
            if func.is_declaration:
                continue
            ops = list(func.body.block.ops)
            index = {op: i for i, op in enumerate(ops)}
            while (failure := self._replay(ops, index, arch, budget)) is not None:
                at, live = failure
                op = ops[at]
                victim = max(live, key=lambda v: next((index[u.operation] for u in v.uses
                                                       if index.get(u.operation, -1) >= at), len(ops) + 1))
                spec = _l1(victim)
                dram = TensorSpec(spec.shape, spec.dtype, "dram", "interleaved", (1, 1), spec.tiled)
                retype(victim, dram)
                if isinstance(victim.owner, TTNNOp):
                    set_memory_config(victim.owner, dram)
                spills.append({"at": loc_name(op) or op.name, "spilled": loc_name(victim.owner) or victim.owner.name,
                               "was": describe(spec), "bytes_per_core": spec.l1_per_core(arch)})
        if self.enable_decision_trace:
            write_trace(self.decision_trace_dir, "l1_spill_management", spills, module)

    def _replay(self, ops: list, index: dict, arch: str, budget: int) -> tuple[int, list[SSAValue]] | None:
        """Allocate the schedule's L1 tensors as the runtime will; the first op where they do not fit and the L1
        tensors live there, or None."""
        facts = hardware.CHIPS[arch]
        bank = BankAllocator("l1", facts.grid[0] * facts.grid[1], budget, facts.noc_l1_address_align_bytes)
        address: dict[SSAValue, int] = {}
        last = {}
        for op in ops:
            for result in op.results:
                if _l1(result) is not None:
                    last[result] = max((index[u.operation] for u in result.uses if u.operation in index),
                                       default=index[op])
        for i, op in enumerate(ops):
            for result in op.results:
                if result in last:
                    try:
                        address[result] = bank.allocate(_l1(result).l1_per_core(arch))
                    except OutOfMemory:
                        return i, [*address, result]
            if address and bank.allocated_bytes() + self._cbs(op, arch) > budget:
                return i, list(address)
            for value in [v for v in address if last[v] <= i]:
                bank.free(address.pop(value))
        return None

    @staticmethod
    def _cbs(op, arch: str) -> int:
        """The op's circular buffers per core, by the op model."""
        if not isinstance(op, TTNNOp) or len(op.results) != 1 or not isinstance(op.results[0].type, TensorType):
            return 0
        out = spec_of(op.results[0].type)
        if out is None or not out.on_device:
            return 0
        return op_model.circular_buffers(op.ROW.name, op.ROW.family, operand_specs(op), out,
                                         matmul_block_tiles(op, out, arch))
