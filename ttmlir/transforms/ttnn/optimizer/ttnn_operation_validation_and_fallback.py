"""`--ttnn-operation-validation-and-fallback`: check each TTNN op's operands and result against what its kernel
accepts and produces, and fall back to conversions where they disagree.

Two facts decide: the operand layouts and data types a kernel needs (the table `--ttnn-workaround` applies), and
what the kernel writes: an op that computes in its input's format (eltwise, reductions, data movement) writes its
first operand's data type and page layout unless it names its own `dtype`. An operand the kernel cannot read is
converted before the op; a result declared otherwise than the kernel writes is retyped to what it writes and
converted to the declared type after the op (a `ttnn.to_tensor_spec`, broken down by --ttnn-decompose-layouts).
A conversion of an L1 tensor goes through DRAM (an operand converted into DRAM, a retyped result written there and
converted back): in the pipeline this pass runs after the L1 spill manager, which could not count a new L1 tensor.

A convolution with a `conv2d_slice_config` must also fit L1 as that says (the op model's `Conv2dWork`; unset,
tt-metal slices it as far as it must). If it does not, configurations are tried in upstream's order -- the whole op in L1, then sliced through DRAM along the
output's width, then its height; activation blocks of 1024 rows down to 32 (in L1 also the whole shard) -- and the
first that fits is set: at most `max-fallback-attempts` of them (0: no limit).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass

from ttmlir.dialects import ttnn
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.errors import PassFailure
from ttmlir.ir.props import int_values, scalar
from ttmlir.transforms.ttnn.optimizer.ttnn_greedy_memory_layout_propagation import arch_of
from ttmlir.transforms.ttnn.ttnn_utils import on_host, with_conv2d_config
from ttmlir.transforms.ttnn.ttnn_workaround import WORKAROUNDS, Want, apply_workaround, retyped
from ttmlir.runtime import op_model

CONV2D_OPS = ("conv2d", "conv_transpose2d")
SLICE_FALLBACKS = ("l1_full", "dram_width", "dram_height")
# (slice type, activation block rows) in the order tried: in L1 also the whole shard (0), through DRAM not
CONV_FALLBACKS = tuple((kind, block) for kind in SLICE_FALLBACKS
                       for block in ((0,) if kind == "l1_full" else ()) + tuple(range(1024, 0, -32)))
# families whose kernels write their first operand's data type and page layout
FORMAT_PRESERVING = {"unary", "binary", "ternary", "reduction", "reshape", "permute", "concat", "slice", "repeat",
                     "pad", "softmax", "repeat_interleave", "reverse"}


def produced(op: TTNNOp) -> Want | None:
    """What the kernel writes as its result, when it follows from its operands."""
    if op.ROW.family not in FORMAT_PRESERVING or op.ROW.name == "argmax" or len(op.results) != 1:
        return None
    first = next((v for v in op.operands if isinstance(v.type, TensorType)), None)
    if first is None or not isinstance(first.type.encoding, ttnn.TTNNLayoutAttr):
        return None
    layout = first.type.encoding
    dtype = op.prop("dtype").data.value if op.prop("dtype") is not None else layout.data_type
    return Want("tile" if layout.is_tiled else "row_major", dtype)


@dataclass(frozen=True)
class TTNNOperationValidationAndFallbackPass(ModulePass):
    """Convert operands a kernel cannot read; retype results to what the kernel writes and convert them back."""

    name: ClassVar[str] = "ttnn-operation-validation-and-fallback"
    max_fallback_attempts: int = 10000

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        fallbacks = 0
        for op in list(module.walk()):
            if isinstance(op, TTNNOp) and op.ROW.name in CONV2D_OPS:
                self._fit_conv(op)
            if not isinstance(op, TTNNOp) or not _on_device(op):
                continue
            wants = dict(WORKAROUNDS[op.ROW.name](op)) if op.ROW.name in WORKAROUNDS else {}
            if "result" not in wants and (want := produced(op)) is not None \
                    and retyped(op.results[0].type, want) != op.results[0].type:
                wants["result"] = want
            if not wants:
                continue
            groups = op.operand_groups()
            values = {**groups, **{name.rstrip("?"): [r] for name, r in zip(op.ROW.results, op.results)}}
            for name, want in wants.items():  # what a conversion adds goes to DRAM: the L1 budget is settled
                if want.buffer is None and any(retyped(v.type, want) != v.type and v.type.encoding.buffer_type == "l1"
                                               for v in values.get(name, [])):
                    wants[name] = replace(want, buffer="dram")
            fallbacks += 1
            if fallbacks > self.max_fallback_attempts:
                raise PassFailure(op, f"operation validation needs more than max-fallback-attempts="
                                      f"{self.max_fallback_attempts} fallbacks")
            apply_workaround(op, wants)

    def _fit_conv(self, op: TTNNOp) -> None:
        work = conv2d_work(op)
        if work is None:
            return
        arch = arch_of(op)
        config = op.prop("conv2d_config")
        block = (config.get("act_block_h_override") if config is not None else None) or 0
        chosen = op.prop("conv2d_slice_config")
        if chosen is None or work.slices_needed(arch, chosen.get("slice_type"), block, chosen.get("num_slices"),
                                                usage_cap=1.0) is not None:
            return  # unset: tt-metal slices the conv through DRAM as far as it must
        for kind, block in CONV_FALLBACKS[:self.max_fallback_attempts or len(CONV_FALLBACKS)]:
            if work.slices_needed(arch, kind, block, usage_cap=1.0) is not None:
                op.properties["conv2d_slice_config"] = ttnn.Conv2dSliceConfigAttr((("slice_type", kind), ("num_slices", 0)))
                op.properties["conv2d_config"] = with_conv2d_config(op, act_block_h_override=block)
                return
        need = work.l1_per_core(arch, act_block_h=block)
        raise PassFailure(op, f"OperationValidationAndFallback: Operation {op.name} failed validation (original error: "
                              f"Out of Memory Error - needs {need} bytes of L1 per core, more than the "
                              f"{op_model.l1_budget(arch, 1.0)} available). No fallback configuration worked (tested "
                              f"up to {self.max_fallback_attempts} combinations).")


def conv2d_work(op: TTNNOp) -> op_model.Conv2dWork | None:
    """What a conv2d/conv_transpose2d moves through L1, when its input is on the device."""
    source, result = op.operands[0].type, op.results[0].type
    if not isinstance(source.encoding, ttnn.TTNNLayoutAttr) or on_host(source):
        return None
    n, h, w, c, o = (scalar(op.prop(k)) for k in ("batch_size", "input_height", "input_width", "in_channels",
                                                   "out_channels"))
    kernel = tuple(int_values(op.prop("kernel_size")))
    if op.ROW.name == "conv_transpose2d":  # it slides over its input spread out by the stride
        sh, sw = int_values(op.prop("stride"))
        h, w = (h - 1) * sh + 1, (w - 1) * sw + 1
    return op_model.Conv2dWork(n, h, w, c, result.get_shape()[2], o, kernel, ttnn.data_type_of(source.element_type))


def _on_device(op: TTNNOp) -> bool:
    values = [v for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)]
    return bool(values) and all(isinstance(v.type.encoding, ttnn.TTNNLayoutAttr) and
                                v.type.encoding.buffer_type != "system_memory" for v in values)
