"""Device tensors too large for L1 moved to DRAM before their programs are built: a tensor whose shard alone takes
more than half of a core's free L1 cannot share the core with the CBs of the programs using it, so it is kept
interleaved in DRAM (its grid and shards unchanged: the programs still compute on that grid) and its programs move
it through their CBs (a matmul's blocks of K step by step, other programs' copies a tile at a time: see
`ProgramKernels.launch_matmul` and `launch`), as upstream's
allocator spills to DRAM what L1 cannot hold. A tensor a view reads, or one placed by a virtual grid mapping, stays
where it is."""

from __future__ import annotations

import dataclasses

from xdsl.dialects.builtin import TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import SSAValue

from ttmlir import hardware
from ttmlir.dialects import d2m, ttcore
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import DTYPES


def _dram_type(t: TensorType) -> TensorType:
    layout = t.encoding.data
    moved = dataclasses.replace(layout, memory_space="dram", memory_layout="interleaved")
    return TensorType(t.element_type, t.get_shape(), ttcore.MetalLayoutAttr(moved))


def _same_tensor(value: SSAValue) -> list[SSAValue] | None:
    """The values standing for the tensor `value` makes (a move's or a generic's result written into it, a store's
    result inside a generic), or None if some use of them needs its L1 shards in place (a view)."""
    seen, todo = [], [value]
    while todo:
        v = todo.pop()
        seen.append(v)
        for use in v.uses:
            op = use.operation
            if isinstance(op, d2m.ViewLayoutOp) or op.name == "ttir.ttnn_metal_layout_cast":
                return None
            made = []
            if isinstance(op, d2m.ToLayoutOp) and use.index == 1:
                made = list(op.results)
            elif isinstance(op, d2m.GenericOp) and v in op.outputs:
                made = [op.results[list(op.outputs).index(v)]]
            elif isinstance(op, d2m.RemoteStoreOp) and v is op.dest:
                made = list(op.results)
            elif isinstance(op, d2m.YieldOp):
                continue  # the generic's result, reached through its output
            todo += [r for r in made if r not in seen]
    return seen


def spill_to_dram(func: FuncOp, chip: dict) -> None:
    """Each tiled L1 tensor of `func` made by a `d2m.empty` (no virtual grid) whose shard takes more than half the
    free L1 of a core, retyped into DRAM with everything standing for it."""
    limit = (int(chip["l1_size"]) - int(chip["l1_unreserved_base"])) // 2
    for empty in [op for op in func.walk() if isinstance(op, d2m.EmptyOp)]:
        t = empty.result.type
        layout = getattr(t, "encoding", None)
        if not isinstance(layout, ttcore.MetalLayoutAttr) or layout.data.memory_space != "l1" or \
                len(t.get_shape()) != 4 or not isinstance(t.element_type, ttcore.TileType) or \
                "virtualGridForwardMapping" in empty.attributes:
            continue
        sy, sx = t.get_shape()[2:]
        if sy * sx * hardware.tile_bytes(DTYPES.get(t.element_type.data_type.data.value, 'f32')) <= limit:
            continue
        values = _same_tensor(empty.result)
        for value in values or ():
            value._type = _dram_type(value.type)  # the same tensor, kept in DRAM
