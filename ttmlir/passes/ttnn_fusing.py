"""`--ttnn-fusing`: a unary activation that is the only reader of a conv2d's result (directly or through its one
reshape) or of a matmul/linear's becomes part of that op, as tt-metal applies it in the same kernel: conv2d takes it
in `conv2d_config` (with its weights' data type), matmul and linear in `activation`.

The fusions that upstream validates against the op model (`enable-op-constraints`: RoPE, SDPA, split QKV, concat
heads, RMS norm with activation) are not in this build: asking for them is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import ttnn
from ttmlir.passes import PassFailure

CONV_ACTIVATIONS = frozenset({"relu", "relu6", "silu", "sigmoid"})
MATMUL_ACTIVATIONS = frozenset({"sigmoid", "silu", "gelu"})


def _only_user(value: SSAValue) -> Operation | None:
    uses = list(value.uses)
    return uses[0].operation if len(uses) == 1 else None


def _activation(value: SSAValue, allowed: frozenset, through_reshape: bool) -> Operation | None:
    user = _only_user(value)
    if through_reshape and user is not None and user.name == "ttnn.reshape":
        user = _only_user(user.results[0])
    return user if user is not None and user.name.removeprefix("ttnn.") in allowed else None


def _fuse_conv2d(op: ttnn.TTNNOp) -> None:
    config = op.properties.get("conv2d_config")
    values = dict(config.data) if config is not None else {}
    if values.get("activation") is not None:
        return
    activation = _activation(op.results[0], CONV_ACTIVATIONS, True)
    if activation is None:
        return
    values["activation"] = ttnn.UnaryWithParamAttr((("op_type", activation.name.removeprefix("ttnn.")),))
    values["weights_dtype"] = ttnn.data_type_of(op.operand_groups()["weight"][0].type.element_type)
    order = [key for key, *_ in ttnn.Conv2dConfigAttr.FIELDS]
    op.properties["conv2d_config"] = ttnn.Conv2dConfigAttr(tuple(sorted(values.items(),
                                                                         key=lambda kv: order.index(kv[0]))))
    activation.results[0].replace_all_uses_with(activation.operands[0])
    activation.detach()
    activation.erase()


def _fuse_matmul(op: ttnn.TTNNOp) -> None:
    if op.properties.get("activation") is not None:
        return
    activation = _activation(op.results[0], MATMUL_ACTIVATIONS, False)
    if activation is None:
        return
    op.properties["activation"] = StringAttr(activation.name.removeprefix("ttnn."))
    activation.results[0].replace_all_uses_with(op.results[0])
    activation.detach()
    activation.erase()


@dataclass(frozen=True)
class TTNNFusingPass(ModulePass):
    """TTNN fusing pass."""

    name: ClassVar[str] = "ttnn-fusing"
    enable_op_constraints: bool = False
    max_fallback_attempts: int = 10000
    enable_rope_fusion: bool = False
    enable_sdpa_fusion: bool = False

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for option, asked in (("enable-op-constraints", self.enable_op_constraints),
                              ("enable-rope-fusion", self.enable_rope_fusion),
                              ("enable-sdpa-fusion", self.enable_sdpa_fusion)):
            if asked:
                raise PassFailure(module, f"'{option}' is not supported by this build: the op-model-validated fusions "
                                          "(RoPE, SDPA, split QKV, concat heads, RMS norm activations) are not "
                                          "implemented")
        for op in list(module.walk()):
            if op.parent is None or not isinstance(op, ttnn.TTNNOp):
                continue
            if op.name == "ttnn.conv2d":
                _fuse_conv2d(op)
            elif op.name in ("ttnn.matmul", "ttnn.linear"):
                _fuse_matmul(op)
