"""`--ttnn-greedy-memory-layout-propagation`: each op's result placed in L1 (sharded where its kernels allow) when
the op model says the op may run so, walking the program in order; matmul program configs chosen for the result.

Candidates per result, in preference order: L1 sharded layouts whose shards split the tensor evenly (most cores
first, at most `max-legal-layouts` of them), L1 interleaved, DRAM interleaved. The first the op model
(`ttmlir.runtime.op_model.check`) accepts with the operands' layouts as already chosen, and whose modelled runtime is
the lowest, wins. A result stays in DRAM when a function returns it, a non-TTNN op reads it, or it is not a tiled
device tensor. A sharded result needs every reader able to read it sharded. Before a decode-shaped product is
placed, its constant weight moves into DRAM shards when that makes it faster (`dram_sharded_matmul`). The L1 budget over a whole schedule is
`--ttnn-greedy-l1-spill-management`'s: this pass judges one op at a time.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import FusedLoc, ModuleOp, NameLoc, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttcore, ttnn
from ttmlir.ir.props import scalar
from ttmlir.ir.syntax import enum
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttnn.ttnn_utils import device_functions
from ttmlir.runtime import op_model
from ttmlir.runtime.op_model import TensorSpec
from ttmlir.transforms.ttnn.optimizer.tensor_specs import (describe, layout_of, move_operand, operand_specs,  # noqa: F401
                                                          spec_of)

# families whose results stay where the layout pass put them: layout changes, host/device moves, creation, collectives
PINNED_FAMILIES = {"layout_op", "device", "deallocate", "creation", "full", "fill", "arange", "rand", "constant",
                   "ccl", "distribute_tensor", "aggregate_tensor", "mesh_partition", "trace", "generic", "cache", "semaphore", "point_to_point",
                   "tt_lang", "prepare_conv3d_weights", "all_to_all_dispatch", "all_to_all_combine",
                   "all_to_all_dispatch_metadata", "distributed_norm", "norm_post", "norm_stats"}


def arch_of(op: Operation) -> str:
    """The architecture of the first chip in the `ttcore.system_desc` of a module holding `op`."""
    at: Operation | None = op
    while at is not None:
        desc = at.attributes.get("ttcore.system_desc")
        if isinstance(desc, ttcore.SystemDescAttr):
            return str(dict(desc.data.chips[0])["arch"])
        at = at.parent_op()
    return "wormhole_b0"


def loc_name(op: Operation) -> str | None:
    """The name of an op's location (`loc("add_1")`), looking inside fused locations."""
    loc = op.location
    while True:
        if isinstance(loc, NameLoc):
            return loc.desc.data
        if isinstance(loc, FusedLoc) and loc.locations.data:
            loc = loc.locations.data[0]
            continue
        return None


def retype(value: SSAValue, spec: TensorSpec) -> None:
    t = value.type
    Rewriter.replace_value_with_new_type(value, TensorType(t.element_type, t.get_shape(), layout_of(t, spec)))


def family_of(op: Operation) -> str | None:
    return op.ROW.family if isinstance(op, TTNNOp) else None


def reads_sharded(value: SSAValue) -> bool:
    """Whether every reader of `value` may read it sharded (matmul only as its activation, operand 0)."""
    for use in value.uses:
        family = family_of(use.operation)
        if family not in op_model.READS_SHARDED or (family in ("matmul", "conv") and use.index != 0):
            return False
    return True


def placeable(op: Operation) -> bool:
    """An op whose one result the optimizer may move: a TTNN compute op writing a tiled device tensor that only TTNN
    ops read."""
    if family_of(op) in PINNED_FAMILIES or family_of(op) is None or len(op.results) != 1:
        return False
    value = op.results[0]
    spec = spec_of(value.type) if isinstance(value.type, TensorType) else None
    return (spec is not None and spec.on_device and spec.tiled and bool(value.uses)
            and all(isinstance(u.operation, TTNNOp) for u in value.uses))


@dataclass(frozen=True)
class TTNNGreedyMemoryLayoutPropagationPass(ModulePass):
    """Place each op's result in L1 (sharded when legal), op by op, by the op model; matmul program configs set."""

    name: ClassVar[str] = "ttnn-greedy-memory-layout-propagation"
    max_legal_layouts: int = 64
    tensor_l1_usage_cap: str = "0.95"
    override_output_layout: str = ""
    override_conv2d_config: str = ""
    override_conv3d_config: str = ""
    enable_decision_trace: bool = False
    decision_trace_dir: str = "ttrt-artifacts/decision_trace"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        from ttmlir.transforms.ttnn.optimizer.conv3d_config_heuristic import apply_conv3d_blockings, check_conv3d_blocking
        from ttmlir.transforms.ttnn.optimizer.overrides import apply_config_overrides, named, parse_output_layouts
        from ttmlir.transforms.ttnn.optimizer.dram_sharded_matmul import shard_weight

        apply_config_overrides(module, "override-conv2d-config", self.override_conv2d_config, loc_name)
        apply_conv3d_blockings(module)  # a user's fields go on top of the tuned blocking
        for conv in apply_config_overrides(module, "override-conv3d-config", self.override_conv3d_config, loc_name):
            check_conv3d_blocking(conv)
        cap = usage_cap(module, self.tensor_l1_usage_cap)
        overrides = parse_output_layouts(module, self.override_output_layout)
        found: set[str] = set()
        if self.max_legal_layouts < 0:
            raise PassFailure(module, f"max-legal-layouts must not be negative, got {self.max_legal_layouts}")
        arch = arch_of(module)
        trace: list[dict] = []
        for func in device_functions(module):
            if not func.is_declaration:
                for op in list(func.body.block.ops):
                    if isinstance(op, TTNNOp) and (name := next((k for k in overrides if named(op, loc_name(op), k)),
                                                                 None)) is not None:
                        found.add(name)
                        trace.append(self._override(op, name, overrides[name], arch, cap))
                    elif placeable(op):
                        moved = shard_weight(op, arch) if self.max_legal_layouts > 0 else None
                        trace.append(self._place(op, arch, cap))
                        if moved is not None:
                            trace[-1]["weight"] = moved
                    else:
                        trace.append(None)
                    set_program_config(op, arch)
                    if (fidelity := choose_fidelity(op, arch)) is not None and trace and trace[-1] is not None:
                        trace[-1]["math_fidelity"] = fidelity
                    if trace and trace[-1] is None:
                        trace.pop()
        if missing := sorted(set(overrides) - found):
            raise PassFailure(module, f"override-output-layout names no TTNN op: '{missing[0]}'")
        if self.enable_decision_trace:
            write_trace(self.decision_trace_dir, "memory_layout_propagation", trace, module)

    @staticmethod
    def _override(op: TTNNOp, name: str, fields: dict, arch: str, cap: float) -> dict:
        """The user's placement for `op`'s result, if the op model accepts it; else a located error."""
        from ttmlir.transforms.ttnn.optimizer.overrides import overridden_spec

        value = op.results[0] if len(op.results) == 1 else None
        current = spec_of(value.type) if value is not None and isinstance(value.type, TensorType) else None
        if current is None or not current.on_device:
            raise PassFailure(op, f"override-output-layout for '{name}': the op has no single device tensor result")
        spec = overridden_spec(op, current, fields, name)
        verdict = op_model.check(op.ROW.name, op.ROW.family, operand_specs(op), spec, arch, cap,
                                 matmul_block_tiles(op, spec, arch))
        if verdict.legal and spec.sharded and not reads_sharded(value):
            verdict = op_model.Verdict(False, "an op reading the result cannot read it sharded")
        if not verdict.legal:
            raise PassFailure(op, f"override-output-layout for '{name}' ({describe(spec)}) is illegal: {verdict.reason}")
        if spec != current:
            retype(value, spec)
            set_memory_config(op, spec)
        return {"op": op.ROW.name, "loc": name, "chosen": describe(spec), "override": True}

    def _place(self, op: TTNNOp, arch: str, cap: float) -> dict:
        value, family = op.results[0], op.ROW.family
        current = spec_of(value.type)
        inputs = operand_specs(op)
        candidates: list[TensorSpec] = []
        if self.max_legal_layouts > 0:
            if reads_sharded(value) and family in op_model.SHARDABLE:
                candidates += op_model.shardings(current, op_model.SHARDABLE[family], arch)[:self.max_legal_layouts]
            candidates.append(TensorSpec(current.shape, current.dtype, "l1", "interleaved", (1, 1), True))
        candidates.append(TensorSpec(current.shape, current.dtype, "dram", "interleaved", (1, 1), True))
        rejected, best, best_ns = [], None, 0.0
        for spec in candidates:
            verdict = op_model.check(op.ROW.name, family, inputs, spec, arch, cap, matmul_block_tiles(op, spec, arch))
            if not verdict.legal:
                rejected.append({"layout": describe(spec), "reason": verdict.reason})
                continue
            ns = op_model.runtime_ns(op.ROW.name, family, inputs, [spec], arch) + readers_ns(value, spec, arch)
            if best is None or ns < best_ns:
                best, best_ns = spec, ns
        if best is None:  # not even DRAM fits the op model: keep the layout it had (level 0's) and say why
            return {"op": op.ROW.name, "loc": loc_name(op), "chosen": describe(current), "rejected": rejected}
        if best != current:
            retype(value, best)
            set_memory_config(op, best)
        decision = {"op": op.ROW.name, "loc": loc_name(op), "chosen": describe(best), "runtime_ns": round(best_ns, 1),
                    "candidates": len(candidates), "rejected": rejected}
        if family == "conv" and best.sharded and reshard_activation(op, best):
            decision["input_resharded"] = describe(best)
        return decision


def reshard_activation(conv: TTNNOp, spec: TensorSpec) -> bool:
    """A sharded convolution reads its activation sharded as its result is (tt-metal reshards an interleaved one
    itself): when the activation has the result's shape, a `ttnn.to_memory_config` before the conv makes that move
    explicit, so the layouts say what runs and the spill manager sees the shard. Whether a move was inserted."""
    source = conv.operands[0]
    have = spec_of(source.type)
    if have is None or have == spec or have.shape != spec.shape or have.dtype != spec.dtype or not have.tiled:
        return False
    move_operand(conv, 0, spec, "input_reshard")
    return True


def readers_ns(value: SSAValue, spec: TensorSpec, arch: str) -> float:
    """The modelled time of the ops reading `value` were it laid out as `spec` (their results as they are now), and
    of the deallocation that frees it."""
    total = op_model.runtime_ns("deallocate", "deallocate", [spec], [], arch)  # --ttnn-deallocate frees it
    for reader in {use.operation for use in value.uses}:
        inputs = [spec if v is value else spec_of(v.type) for v in reader.operands if isinstance(v.type, TensorType)]
        outputs = [spec_of(r.type) for r in reader.results if isinstance(r.type, TensorType)]
        if isinstance(reader, TTNNOp) and None not in inputs and None not in outputs:
            total += op_model.runtime_ns(reader.ROW.name, reader.ROW.family, inputs, outputs, arch)
    return total


def usage_cap(module: ModuleOp, text: str) -> float:
    try:
        cap = float(text)
    except ValueError:
        raise PassFailure(module, f"tensor-l1-usage-cap must be a number in (0, 1], got '{text}'") from None
    if not 0.0 < cap <= 1.0:
        raise PassFailure(module, f"tensor-l1-usage-cap must be in (0, 1], got {text}")
    return cap


def set_memory_config(op: Operation, spec: TensorSpec) -> None:
    """An op that names its result's memory config names the new one."""
    if "memory_config" in op.properties:
        op.properties["memory_config"] = ttnn.MemoryConfigAttr(ttnn.MemoryConfig(
            enum(ttnn.BufferTypeAttr, spec.buffer_type), enum(ttnn.TensorMemoryLayoutAttr, spec.memory_layout)))


def matmul_block_tiles(op: Operation, out: TensorSpec, arch: str) -> tuple[int, int, int] | None:
    if family_of(op) != "matmul" or op.ROW.name not in ("matmul", "linear") or not out.tiled:
        return None
    a = op.operands[0].type
    k = a.get_shape()[-2 if _flag(op, "transpose_a") else -1]
    blocks = op_model.matmul_blocks(out, max(1, -(-k // 32)), arch)
    return blocks["out_block_h"], blocks["in0_block_w"], blocks["out_block_w"]


def _flag(op: Operation, name: str) -> bool:
    value = op.properties.get(name)
    return value is not None and scalar(value) is True


def set_program_config(op: Operation, arch: str) -> None:
    """A matmul whose result is in L1 gets the program config its layout implies (left alone when one is given):
    2D multicast for interleaved or block-sharded results, 1D (in0 multicast) for height- and width-sharded ones."""
    if family_of(op) != "matmul" or op.ROW.name != "matmul" or "matmul_program_config" in op.properties:
        return
    out = spec_of(op.results[0].type)
    a, b = op.operands[0].type, op.operands[1].type
    if out is None or out.buffer_type != "l1" or len(a.get_shape()) < 2 or len(b.get_shape()) < 2:
        return
    from ttmlir.transforms.ttnn.optimizer.dram_sharded_matmul import program_config

    if (dram := program_config(op, out)) is not None:  # a weight in DRAM shards: tt-metal's DRAM-sharded program
        op.properties["matmul_program_config"] = dram
        return
    k = a.get_shape()[-2 if _flag(op, "transpose_a") else -1]
    blocks = op_model.matmul_blocks(out, max(1, -(-k // 32)), arch)
    gy, gx = blocks["grid"]
    common = (("compute_with_storage_grid_size", ttnn.CoreCoordAttr((gx, gy))), ("in0_block_w", blocks["in0_block_w"]),
              ("out_subblock_h", blocks["out_subblock_h"]), ("out_subblock_w", blocks["out_subblock_w"]),
              ("out_block_h", blocks["out_block_h"]), ("out_block_w", blocks["out_block_w"]),
              ("per_core_m", blocks["per_core_m"]), ("per_core_n", blocks["per_core_n"]))
    batched = len(a.get_shape()) > 2 and len(b.get_shape()) == 2
    if out.memory_layout in ("height_sharded", "width_sharded"):
        config = ttnn.MATMUL_PROGRAM_CONFIGS[2](common + (
            ("fuse_batch", batched), ("mcast_in0", out.memory_layout == "width_sharded"), ("gather_in0", False),
            ("hop_cores", ttnn.CoreRangeSetAttr(())), ("num_global_cb_receivers", 0), ("untilize_out", False)))
    else:
        config = ttnn.MATMUL_PROGRAM_CONFIGS[1](common + (("transpose_mcast", False), ("fuse_batch", batched)))
    op.properties["matmul_program_config"] = config


FIDELITY_GAIN = 1.02  # a lower fidelity than hifi4 must make the op at least this much faster to be chosen


def choose_fidelity(op: Operation, arch: str) -> str | None:
    """A matrix-engine op whose compute_config leaves the math fidelity open (the pipeline's default unset, as above
    level 0) gets one: TTNN's default for its operands where that makes it faster (compute-bound products), else
    hifi4 -- a product bound by DRAM or the NoC gains nothing from fewer fidelity phases, so it keeps every bit.
    What was chosen ("hifi4" or "default"), None when the op's fidelity was not open."""
    if family_of(op) not in ("matmul", "conv") or "compute_config" not in {p[0] for p in op.ROW.props}:
        return None
    config = op.properties.get("compute_config")
    fields = dict(config.data) if config is not None else {}
    if "math_fidelity" in fields:
        return None
    inputs, outputs = operand_specs(op), [spec_of(r.type) for r in op.results if isinstance(r.type, TensorType)]
    if not inputs or None in outputs:
        return None
    default = op_model.runtime_ns(op.ROW.name, op.ROW.family, inputs, outputs, arch)
    full = op_model.runtime_ns(op.ROW.name, op.ROW.family, inputs, outputs, arch, "hifi4")
    if full <= default * FIDELITY_GAIN:
        fields["math_fidelity"] = "hifi4"
        from ttmlir.transforms.ttnn.ttnn_set_compute_kernel_config import FIELDS
        op.properties["compute_config"] = ttnn.DeviceComputeKernelConfigAttr(
            tuple((k, fields[k]) for k in FIELDS if k in fields))
        return "hifi4"
    return "default"


def write_trace(directory: str, stage: str, decisions: list[dict], module: ModuleOp) -> None:
    """One JSON file per stage of the optimizer's decisions, in `directory`."""
    try:
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, f"{stage}.json"), "w") as f:
            json.dump({"stage": stage, "decisions": decisions}, f, indent=1)
    except OSError as error:
        raise PassFailure(module, f"cannot write the decision trace to '{directory}': {error.strerror}") from None
