"""`--ttnn-fusing`: a unary activation that is the only reader of a conv2d's result (directly or through its one
reshape) or of a matmul/linear's becomes part of that op, as tt-metal applies it in the same kernel: conv2d takes it
in `conv2d_config` (with its weights' data type), matmul and linear in `activation`.

With `enable-op-constraints` (the optimizer's pipelines) the fusions the op model must accept follow, on modules
that describe their chip (`ttcore.system_desc`; without one nothing can be validated and nothing is fused):
decode heads gathered back into rows (a [1, B, H, D] tensor reordered to [B, H, 1, D] and collapsed to
[B, H * D]) become `ttnn.nlp_concat_heads_decode`; a RoPE on decode rows reordered to [1, B, H, D] becomes the
decode-mode `ttnn.rotary_embedding` (`ttnn_fusing_rope`); three projections of one input split into heads become
one projection and `ttnn.split_query_key_value_and_split_heads` (`ttnn_fusing_split_qkv`); a silu, gelu or relu of
an rms_norm becomes `ttnn.dit_rms_norm_unary_fused`; and with
`enable-rope-fusion` RoPE written out in TTNN ops becomes `ttnn.rotary_embedding` first. (Upstream's pipelines find RoPE in TTIR as a composite that the op
model then promotes; ours ask for it here, where the same op-model check runs.) Attention written out in TTNN ops
becomes `ttnn.scaled_dot_product_attention` (`..._decode` with one query row per user) with the op constraints or
`enable-sdpa-fusion` (`ttnn_fusing_sdpa`; looked for from each matmul, and from each multiply that may be P · V over
one key).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, ModuleOp, Signedness, StringAttr, i32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir import hardware
from ttmlir.dialects import ttcore, ttnn
from ttmlir.dialects.ttnn import TILE
from ttmlir.transforms.ttnn.ttnn_utils import with_conv2d_config

CONV_ACTIVATIONS = frozenset({"relu", "relu6", "silu", "sigmoid"})
MATMUL_ACTIVATIONS = frozenset({"sigmoid", "silu", "gelu"})
NORM_ACTIVATIONS = frozenset({"silu", "gelu", "relu"})  # those tt-metal's DiT rms_norm kernel applies


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
    if config is not None and dict(config.data).get("activation") is not None:
        return
    activation = _activation(op.results[0], CONV_ACTIVATIONS, True)
    if activation is None:
        return
    op.properties["conv2d_config"] = with_conv2d_config(
        op, activation=ttnn.UnaryWithParamAttr((("op_type", activation.name.removeprefix("ttnn.")),)),
        weights_dtype=ttnn.data_type_of(op.operand_groups()["weight"][0].type.element_type))
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


def _fuse_rms_norm(activation: ttnn.TTNNOp) -> None:
    """An activation of an rms_norm read by nothing else (through one-reader permutes and reshapes, which the
    elementwise activation commutes with) becomes part of it: dit_rms_norm_unary_fused in the norm's place."""
    value = activation.operands[0]
    while isinstance(value.owner, ttnn.TTNNOp) and value.owner.ROW.name in ("permute", "reshape") \
            and _only_user(value) is not None:
        value = value.owner.operands[0]
    norm = value.owner
    if not isinstance(norm, ttnn.TTNNOp) or norm.ROW.name != "rms_norm" or _only_user(value) is None:
        return
    from ttmlir.transforms.ttnn.ttnn_utils import ttnn_op

    props = {**norm.properties, "activation": StringAttr(activation.ROW.name)}
    fused = ttnn_op("dit_rms_norm_unary_fused", norm.operands, props, [value.type], norm)
    groups = norm.operand_groups()
    fused.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
        i32, [1, len(groups["weight"]), len(groups["bias"]), 0])
    norm.parent.insert_op_before(fused, norm)
    value.replace_all_uses_with(fused.results[0])
    activation.results[0].replace_all_uses_with(activation.operands[0])
    for op in (activation, norm):
        op.detach()
        op.erase()


def _through_typecasts(value: SSAValue) -> SSAValue:
    while isinstance(value.owner, ttnn.TTNNOp) and value.owner.ROW.name == "typecast":
        value = value.owner.operands[0]
    return value


def _decode_heads(value: SSAValue) -> SSAValue | None:
    """The [1, B, H, D] tensor `value` ([B, H, 1, D]) reorders: by a permute (1, 2, 0, 3) or the reshape that equals
    it."""
    owner = value.owner
    if not isinstance(owner, ttnn.TTNNOp) or owner.ROW.name not in ("permute", "reshape"):
        return None
    source = owner.operands[0]
    if owner.ROW.name == "permute":
        return source if list(owner.prop("permutation").get_values()) == [1, 2, 0, 3] else None
    before, after = source.type.get_shape(), value.type.get_shape()
    if len(before) == len(after) == 4 and before[0] == 1 and tuple(after) == (before[1], before[2], 1, before[3]):
        return source
    return None


def _nlp_concat_heads_decode(reshape: ttnn.TTNNOp, grid_cores: int) -> None:
    """[1, B, H, D] heads collapsed to [B, H * D] rows: the decode kernel joins them (B and D whole tiles, one user
    per worker core), a where zeroing whole heads on the way re-applied to its input."""
    from ttmlir.transforms.ttnn.ttnn_decomposition import Emitter, like

    out = reshape.results[0].type.get_shape()
    collapsed = _through_typecasts(reshape.operands[0])
    scrub = collapsed.owner if isinstance(collapsed.owner, ttnn.TTNNOp) and collapsed.owner.ROW.name == "where" \
        else None
    reordered = _through_typecasts(scrub.operands[2]) if scrub is not None else collapsed
    heads = _decode_heads(reordered)
    if heads is None:
        shape = reordered.type.get_shape()
        if len(shape) != 4 or shape[0] != 1 or len(out) != 2 or tuple(out) != (shape[1], shape[2] * shape[3]):
            return
        heads = reordered
    _, users, count, size = heads.type.get_shape()
    if len(out) != 2 or tuple(out) != (users, count * size) or size % TILE or users % TILE or users > grid_cores:
        return
    emit = Emitter(reshape)
    value = heads
    if scrub is not None:
        condition, replacement = scrub.operands[0], scrub.operands[1]
        cond = condition.type.get_shape()
        if len(cond) != 4 or cond[0] != users or cond[1] not in (count, 1) or tuple(cond[2:]) != (1, 1) \
                or any(d != 1 for d in replacement.type.get_shape()):
            return
        condition = emit.reshape(condition, [1, users, cond[1], 1])
        value = emit("where", [condition, replacement, value], {}, heads.type)
    if value.type.element_type != reshape.results[0].type.element_type:
        value = emit("typecast", [value], {}, like(value.type, value.type.get_shape(),
                                                   ttnn.data_type_of(reshape.results[0].type.element_type)))
    joined = emit("nlp_concat_heads_decode", [value], {"num_heads": IntegerAttr(count, IntegerType(32, Signedness.UNSIGNED))},
                  like(value.type, [1, 1, users, count * size]))
    reshape.operands[0] = joined
    for new in emit.ops:
        new.location = reshape.location


@dataclass(frozen=True)
class TTNNFusingPass(ModulePass):
    """TTNN fusing pass."""

    name: ClassVar[str] = "ttnn-fusing"
    enable_op_constraints: bool = False
    max_fallback_attempts: int = 10000
    enable_rope_fusion: bool = False
    enable_sdpa_fusion: bool = False

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.enable_sdpa_fusion or (self.enable_op_constraints and _described(module)):
            from ttmlir.transforms.ttnn.ttnn_fusing_sdpa import fuse as fuse_sdpa

            for op in [op for op in module.walk() if isinstance(op, ttnn.TTNNOp) and op.ROW.name in ("matmul", "multiply")]:
                if op.parent is not None:
                    fuse_sdpa(op)
        if self.enable_op_constraints and _described(module):
            from ttmlir.transforms.ttnn import ttnn_fusing_rope as rope
            from ttmlir.transforms.ttnn.ttnn_fusing_split_qkv import split_qkv
            from ttmlir.transforms.ttnn.optimizer.ttnn_greedy_memory_layout_propagation import arch_of

            if self.enable_rope_fusion:
                for name, fuse in (("add", rope.rotate_half), ("concat", rope.expanded)):
                    for op in [op for op in module.walk() if isinstance(op, ttnn.TTNNOp) and op.ROW.name == name]:
                        if op.parent is not None:
                            fuse(op)
            for op in [op for op in module.walk() if isinstance(op, ttnn.TTNNOp)
                       and op.ROW.name in ("permute", "reshape")]:
                if op.parent is not None:
                    rope.decode(op)
            for block in [b for op in module.walk() for r in op.regions for b in r.blocks]:
                split_qkv(block)
            for op in [op for op in module.walk() if isinstance(op, ttnn.TTNNOp) and op.ROW.name in NORM_ACTIVATIONS]:
                _fuse_rms_norm(op)
            for op in list(module.walk()):
                if op.parent is not None and isinstance(op, ttnn.TTNNOp) and op.ROW.name == "reshape":
                    grid = hardware.CHIPS[arch_of(op)].grid
                    _nlp_concat_heads_decode(op, grid[0] * grid[1])
        for op in list(module.walk()):
            if op.parent is None or not isinstance(op, ttnn.TTNNOp):
                continue
            if op.name == "ttnn.conv2d":
                _fuse_conv2d(op)
            elif op.name in ("ttnn.matmul", "ttnn.linear"):
                _fuse_matmul(op)


def _described(module: ModuleOp) -> bool:
    """Whether the module (or the one holding its device module) describes its chip, as validation needs."""
    return any(isinstance(op.attributes.get("ttcore.system_desc"), ttcore.SystemDescAttr)
               for op in module.walk() if isinstance(op, ModuleOp))
