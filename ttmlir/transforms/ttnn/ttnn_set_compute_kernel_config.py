"""`--ttnn-set-compute-kernel-config`: give every TTNN op that takes a `compute_config` the pipeline's defaults.

A field the op's config already sets is kept; an option left unset (`undefined` fidelity, or a bool option not
given) leaves that field to TTNN's runtime default. The bool options are three-state: `true`, `false`, or unset.
One rule overrides even explicit values: a bf16 matmul/linear whose inner dimension exceeds 50000 accumulates
in f32 with packer L1 accumulation (a bf16 dst loses the sum; tt-metal issue 46101).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import BFloat16Type, ModuleOp, TensorType
from xdsl.passes import ModulePass

from ttmlir.dialects import ttnn
from ttmlir.ir.tt_op import TTOp
from ttmlir.errors import PassFailure

FIELDS = ("math_fidelity", "math_approx_mode", "fp32_dest_acc_en", "packer_l1_acc", "dst_full_sync_en")
LARGE_INNER_DIM = 50000


def tristate(value: bool | str | None, option: str, where: ModuleOp) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    if value in ("true", "1"):
        return True
    if value in ("false", "0"):
        return False
    if value in ("", "unset"):
        return None
    raise PassFailure(where, f"option '{option}' takes true, false or unset, not '{value}'")


def takes_compute_config(op) -> bool:
    return isinstance(op, TTOp) and op.name.startswith("ttnn.") and any(
        name == "compute_config" for name, *_ in op.ROW.props)


def with_defaults(current: dict, defaults: dict) -> ttnn.DeviceComputeKernelConfigAttr:
    merged = {**{k: v for k, v in defaults.items() if v is not None}, **current}
    return ttnn.DeviceComputeKernelConfigAttr(tuple((k, merged[k]) for k in FIELDS if k in merged))


def _large_bf16_matmul(op) -> bool:
    if op.name not in ("ttnn.matmul", "ttnn.linear"):
        return False
    a, result = op.operands[0].type, op.results[0].type
    transposed = op.prop("transpose_a")
    inner = a.get_shape()[-2 if transposed is not None and transposed.value.data else -1]
    return isinstance(result, TensorType) and isinstance(result.element_type, BFloat16Type) and inner > LARGE_INNER_DIM


@dataclass(frozen=True)
class TTNNSetComputeKernelConfigPass(ModulePass):
    """Set default compute_config fields (math fidelity, approx mode, f32 dst, packer L1 acc, dst full sync)."""

    name: ClassVar[str] = "ttnn-set-compute-kernel-config"
    math_fidelity: str = "hifi4"
    math_approx_mode: str | None = None
    fp32_dest_acc_en: str | None = "true"
    packer_l1_acc: str | None = None
    dst_full_sync_en: str | None = None

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.math_fidelity not in (*ttnn.MATH_FIDELITIES, "undefined"):
            raise PassFailure(module, f"option 'math-fidelity' takes one of {', '.join(ttnn.MATH_FIDELITIES)} or "
                                      f"undefined, not '{self.math_fidelity}'")
        defaults = {"math_fidelity": None if self.math_fidelity == "undefined" else self.math_fidelity,
                    **{key: tristate(getattr(self, key), key.replace("_", "-"), module) for key in FIELDS[1:]}}
        for op in module.walk():
            if not takes_compute_config(op):
                continue
            config = op.properties.get("compute_config")
            current = dict(config.data) if config is not None else {}
            if _large_bf16_matmul(op):
                current.update(fp32_dest_acc_en=True, packer_l1_acc=True)
            merged = with_defaults(current, defaults)
            if merged.data:
                op.properties["compute_config"] = merged
