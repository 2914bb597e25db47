"""`--ttnn-resolve-composites`: each ttcore.composite becomes the fused TTNN op it names, or its decomposition.

`composite-resolution` says which (upstream's values): `inline` always splices the decomposition function's body
in; `force-promote` builds the fused op of every composite `PROMOTIONS` knows; `validate` builds it only when the
op's verifier and the op model (its L1 need with DRAM-interleaved tiled operands) accept it; `auto`, the pass's
default, is `inline` here and is what the TTNN pipelines turn into `validate` when the optimizer runs. A fused op
whose kernel exists on one architecture only is never built for another (a guard in `PROMOTIONS`): the
decomposition is inlined instead. Decomposition functions no longer referenced are erased.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, ModuleOp, SymbolRefAttr, TensorType
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects.ttcore import CompositeOp
from ttmlir.errors import PassFailure

MODES = ("auto", "inline", "validate", "force-promote")


def inline_composite(composite: CompositeOp) -> None:
    """The decomposition's ops cloned in front of the composite, its results replaced by what they return."""
    func = composite.callee()
    values: dict[SSAValue, SSAValue] = dict(zip(func.body.block.args, composite.operands))
    for op in func.body.block.ops:
        if isinstance(op, ReturnOp):
            Rewriter.replace_op(composite, [], [values[v] for v in op.operands])
            return
        clone = op.clone(value_mapper=values)
        composite.parent.insert_op_before(clone, composite)
        values.update(zip(op.results, clone.results))


def _attrs(composite: CompositeOp) -> dict[str, Attribute]:
    attrs = composite.composite_attributes
    return dict(attrs.data) if isinstance(attrs, DictionaryAttr) else {}


def _flag(attrs: dict[str, Attribute], name: str) -> bool:
    attr = attrs.get(name)
    return isinstance(attr, IntegerAttr) and bool(attr.value.data)


def _required(composite: CompositeOp, attrs: dict[str, Attribute], name: str) -> Attribute:
    if name not in attrs:
        raise PassFailure(composite, f"a '{composite.composite_name.data}' composite needs its '{name}' attribute")
    return attrs[name]


def _flash_mla_prefill(composite: CompositeOp) -> Operation:
    """The inputs are query, key, then value and attention mask as has_value / has_attention_mask say."""
    from ttmlir.conversion.ttir_to_ttnn.convert_ttir_to_ttnn import _by_name
    attrs = _attrs(composite)
    inputs = list(composite.inputs)
    groups = {"query": inputs[:1], "key": inputs[1:2]}
    rest = inputs[2:]
    for name, flag in (("value", "has_value"), ("attention_mask", "has_attention_mask")):
        groups[name], rest = (rest[:1], rest[1:]) if _flag(attrs, flag) else ([], rest)
    if rest or len(inputs) < 2:
        raise PassFailure(composite, "a 'flash_mla_prefill' composite's inputs do not match its has_value and "
                                     "has_attention_mask attributes")
    props = {"head_dim_v": _required(composite, attrs, "head_dim_v"),
             "is_causal": _required(composite, attrs, "is_causal"),
             **({"scale": attrs["scale"]} if "scale" in attrs else {})}
    return _by_name("flash_mla_prefill", groups, props, [r.type for r in composite.results], composite)


def _by_order(name: str, props: Callable[[dict[str, Attribute]], dict[str, Attribute]]):
    """A fused op taking the composite's inputs in order, its properties from the composite's attributes."""
    def build(composite: CompositeOp) -> Operation:
        from ttmlir.transforms.ttnn.ttnn_utils import ttnn_op
        return ttnn_op(name, list(composite.inputs), props(_attrs(composite)), [r.type for r in composite.results],
                       composite)
    return build


def _on_blackhole(composite: CompositeOp) -> bool:
    """Blackhole-only kernels: without a system descriptor the runtime is left to refuse another chip."""
    at = composite.parent_op()
    while at is not None:
        if "ttcore.system_desc" in at.attributes:
            from ttmlir.transforms.ttnn.optimizer.ttnn_greedy_memory_layout_propagation import arch_of
            return arch_of(composite) == "blackhole"
        at = at.parent_op()
    return True


def _indexer_fuses(composite: CompositeOp) -> bool:
    """The fused indexer counts each chip's query positions from chunk_start_idx alone: queries split over a mesh
    axis of several chips (cluster_axis) keep the decomposition, which offsets them by the chip's place."""
    from ttmlir.transforms.ttnn.ttnn_utils import mesh_shape_of

    axis = _attrs(composite).get("cluster_axis")
    if isinstance(axis, IntegerAttr):
        mesh = mesh_shape_of(composite)
        if axis.value.data < len(mesh) and mesh[axis.value.data] > 1:
            return False
    return _on_blackhole(composite)


# composite name -> (the fused TTNN op built from it, a guard that must allow it or None)
PROMOTIONS: dict[str, tuple[Callable[[CompositeOp], Operation], Callable[[CompositeOp], bool] | None]] = {
    "flash_mla_prefill": (_flash_mla_prefill, None),
    "indexer_score_dsa": (_by_order("indexer_score_dsa", lambda a: {k: a[k] for k in ("chunk_start_idx", "cluster_axis")
                                                                     if k in a}), _indexer_fuses),
    "topk_router_gpt": (_by_order("topk_router_gpt", lambda a: {k: a[k] for k in ("k", "num_experts") if k in a}), None),
    "rotary_embedding": (_by_order("rotary_embedding", lambda a: {}), None),
}


def _validates(op: Operation, composite: CompositeOp) -> bool:
    """The fused op's verifier accepts it and its kernel fits in L1 with DRAM-interleaved tiled tensors."""
    from ttmlir.dialects.ttnn import data_type_of
    from ttmlir.transforms.ttnn.optimizer.ttnn_greedy_memory_layout_propagation import arch_of
    from ttmlir.runtime import op_model
    try:
        op.verify()
    except VerifyException:
        return False

    def spec(value: SSAValue) -> op_model.TensorSpec:
        return op_model.TensorSpec(tuple(value.type.get_shape()), data_type_of(value.type.element_type))
    inputs = [spec(v) for v in op.operands if isinstance(v.type, TensorType)]
    return op_model.check(op.ROW.name, op.ROW.family, inputs, spec(op.results[0]), arch_of(composite)).legal


def promoted(composite: CompositeOp, mode: str) -> Operation | None:
    """The fused op replacing the composite, or None when its decomposition is to be inlined."""
    build, guard = PROMOTIONS.get(composite.composite_name.data, (None, None))
    if mode in ("auto", "inline") or build is None or (guard is not None and not guard(composite)):
        return None
    op = build(composite)
    return op if mode == "force-promote" or _validates(op, composite) else None


@dataclass(frozen=True)
class TTNNResolveCompositesPass(ModulePass):
    """Promote each ttcore.composite to its fused TTNN op or inline its decomposition; erase decompositions no
    longer used."""

    name: ClassVar[str] = "ttnn-resolve-composites"
    composite_resolution: str = "auto"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.composite_resolution not in MODES:
            raise PassFailure(module, f"composite-resolution must be one of {', '.join(MODES)}, got "
                                      f"'{self.composite_resolution}'")
        composites = [op for op in module.walk() if isinstance(op, CompositeOp)]
        decompositions = {op.callee() for op in composites}
        for composite in composites:
            fused = promoted(composite, self.composite_resolution)
            if fused is None:
                inline_composite(composite)
            else:
                Rewriter.replace_op(composite, fused)
        referenced = {attr.root_reference.data for op in module.walk() for attr in (*op.properties.values(),
                      *op.attributes.values()) if isinstance(attr, SymbolRefAttr)}
        for func in decompositions:
            if isinstance(func, FuncOp) and func.sym_name.data not in referenced and func.parent is not None:
                Rewriter.erase_op(func)
