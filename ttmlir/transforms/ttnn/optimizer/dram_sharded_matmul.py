"""DRAM-sharded weights for decode-shaped products (the memory-layout analysis' part; see
`--ttnn-greedy-memory-layout-propagation`).

A product of few rows (a decode step: M at most `SKINNY_TILES` tiles) reads its whole weight from DRAM once and does
little math with it: its time is the weight's bytes over the DRAM rate. Interleaved, the weight is read a tile per
request; width-sharded over the DRAM banks (one shard of columns per bank, as tt-metal's
`MatmulMultiCoreReuseMultiCastDRAMShardedProgramConfig` reads it) each bank streams its shard's rows of tiles, and
the rate nears the channels' peak. The weight must be constant (a parameter or constant argument, or a const-eval
result): the move into the sharded layout, a `ttnn.to_memory_config` before the product, is then hoisted into
const-eval and runs once. The op model decides: the move is made when the product's modelled time falls.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import BlockArgument, Operation, SSAValue

from ttmlir import hardware
from ttmlir.dialects import ttcore, ttnn
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.ir.props import scalar
from ttmlir.runtime import op_model
from ttmlir.runtime.op_model import TensorSpec

SKINNY_TILES = 4  # rows of tiles of a decode-shaped product's activation (batch 32 decodes: one)
CONST_KINDS = ("parameter", "constant")


def constant(value: SSAValue) -> bool:
    """Whether `value` is the same on every call: a parameter or constant argument, or a cached const-eval result."""
    if isinstance(value, BlockArgument):
        func = value.owner.parent_op() if value.owner is not None else None
        attrs = getattr(func, "arg_attrs", None)
        if attrs is None:
            return False
        kind = dict(attrs.data[value.index].data).get(ttcore.ArgumentTypeAttr.name)
        return isinstance(kind, ttcore.ArgumentTypeAttr) and kind.data.value in CONST_KINDS
    return isinstance(value.owner, ttcore.LoadCachedOp)


def sharded_weight(spec: TensorSpec, arch: str) -> TensorSpec:
    """`spec` width-sharded over every DRAM bank of the chip."""
    banks = hardware.CHIPS[arch].num_dram_channels
    return TensorSpec(spec.shape, spec.dtype, "dram", "width_sharded", (1, banks), True)


def dram_sharded(spec: TensorSpec | None) -> bool:
    return spec is not None and spec.buffer_type == "dram" and spec.memory_layout == "width_sharded"


def candidate(op: Operation, arch: str) -> TensorSpec | None:
    """The DRAM-sharded layout of `op`'s weight when `op` is a decode-shaped matmul/linear of a constant 2-d weight
    held interleaved in DRAM, else None."""
    from ttmlir.transforms.ttnn.optimizer.tensor_specs import spec_of

    if not isinstance(op, TTNNOp) or op.ROW.name not in ("matmul", "linear") or len(op.operands) < 2:
        return None
    if any(scalar(op.prop(k)) is True for k in ("transpose_a", "transpose_b")):
        return None
    a, w = op.operands[0], op.operands[1]
    if not (isinstance(a.type, TensorType) and isinstance(w.type, TensorType)) or w.type.get_num_dims() != 2:
        return None
    spec = spec_of(w.type)
    rows = 1
    for d in a.type.get_shape()[:-1]:
        rows *= d
    banks = hardware.CHIPS[arch].num_dram_channels
    if spec is None or not spec.tiled or spec.buffer_type != "dram" or spec.memory_layout != "interleaved" or \
            -(-rows // 32) > SKINNY_TILES or spec.physical[1] < banks or not constant(w):
        return None
    return sharded_weight(spec, arch)


def shard_weight(op: Operation, arch: str) -> dict | None:
    """Move `op`'s weight into DRAM shards when the op model finds the product faster so; the decision, if any."""
    from ttmlir.transforms.ttnn.optimizer.tensor_specs import describe, move_operand, operand_specs, spec_of

    sharded = candidate(op, arch)
    if sharded is None:
        return None
    inputs = operand_specs(op)
    outputs = [spec_of(r.type) for r in op.results]
    if None in outputs:
        return None
    before = op_model.runtime_ns(op.ROW.name, op.ROW.family, inputs, outputs, arch)
    after = op_model.runtime_ns(op.ROW.name, op.ROW.family, [inputs[0], sharded, *inputs[2:]], outputs, arch)
    if after >= before:
        return None
    move_operand(op, 1, sharded, "weight_dram_sharded")
    return {"layout": describe(sharded), "runtime_ns": round(after, 1), "interleaved_runtime_ns": round(before, 1)}


def program_config(op: Operation, out: TensorSpec) -> ttnn.MATMUL_PROGRAM_CONFIGS[3] | None:
    """The DRAM-sharded program config of a matmul whose weight is DRAM-sharded: per core, the activation's rows and
    the output columns of one core of the result's shard grid (or one bank's, the result not sharded)."""
    from ttmlir.transforms.ttnn.optimizer.tensor_specs import spec_of

    weight = spec_of(op.operands[1].type) if isinstance(op.operands[1].type, TensorType) else None
    if not dram_sharded(weight):
        return None
    rows, cols = out.physical
    cores = out.grid[0] * out.grid[1] if out.memory_layout == "width_sharded" else weight.grid[0] * weight.grid[1]
    inner = weight.physical[0]
    return ttnn.MATMUL_PROGRAM_CONFIGS[3]((("in0_block_w", op_model._divisor_up_to(max(1, inner // cores), 8)),
                                           ("per_core_m", rows), ("per_core_n", -(-cols // cores))))
