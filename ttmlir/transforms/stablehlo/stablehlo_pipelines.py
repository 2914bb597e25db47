"""`--stablehlo-to-ttir-pipeline` and the StableHLO passes it runs before the conversion.

- `--convert-arith-to-stablehlo`: `arith.constant` tensors (torch-mlir leaves some) become `stablehlo.constant`.
- `--stablehlo-aggressive-simplification`: pure ops nothing uses are removed.
- `--legalize-stablehlo-composite-to-ttir`: composites TTIR has an op for (`tenstorrent.gelu`, `rms_norm`,
  `layer_norm`, ...) become that op; the others keep their decomposition.
- `--stablehlo-legalize-composite-to-call` and `--inline`: the remaining composites call their decomposition,
  and every call of a function in the module is inlined (JAX's `func.call`s to private functions too).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (DenseIntOrFPElementsAttr, FloatAttr, Float32Type, IntegerType, ModuleOp, Signedness,
                                   SymbolRefAttr, TensorType)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import Pure

from ttmlir.dialects import stablehlo as shlo
from ttmlir.dialects.ttnn_attrs import TILE  # a candidate row narrower than a tile is padded to one anyway
from ttmlir.ir.props import dense_values
from ttmlir.errors import PassFailure
from ttmlir.transforms.stablehlo.static_dynamic_ops import make_static


@dataclass(frozen=True)
class ConvertArithToStableHLOPass(ModulePass):
    """`arith.constant` of a tensor becomes `stablehlo.constant`."""

    name: ClassVar[str] = "convert-arith-to-stablehlo"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if op.name == "arith.constant" and isinstance(op.results[0].type, TensorType):
                new = shlo.OPS["constant"].create(result_types=[op.results[0].type],
                                                  properties={"value": op.properties["value"]})
                op.parent_block().insert_op_before(new, op)
                op.results[0].replace_all_uses_with(new.results[0])
                op.detach()
                op.erase()


@dataclass(frozen=True)
class StableHLOAggressiveSimplificationPass(ModulePass):
    """The real and imaginary parts of a `stablehlo.complex` are its operands; dynamic ops with constant shape
    operands and static results are their static forms; then pure stablehlo ops nothing uses are removed (innermost
    users first, so whole dead chains go)."""

    name: ClassVar[str] = "stablehlo-aggressive-simplification"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if make_static(op):
                continue
            part = {"stablehlo.real": 0, "stablehlo.imag": 1}.get(op.name)
            source = op.operands[0].owner if part is not None else None
            if getattr(source, "name", None) == "stablehlo.complex":
                op.results[0].replace_all_uses_with(source.operands[part])
        for op in reversed(list(module.walk())):
            if isinstance(op, shlo.StableHLOOp) and op.has_trait(Pure) and all(not r.uses for r in op.results) \
                    and not isinstance(op.parent_op(), shlo.StableHLOOp):
                op.detach()
                op.erase()


def _attr_float(attrs, key: str, default: float) -> FloatAttr:
    attr = attrs.get(key)
    value = default if attr is None else attr.value.data
    return FloatAttr(float(value), Float32Type())


def _ints(attr) -> list[int]:
    if attr is None:
        return []
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return [int(v) for v in dense_values(attr)]
    return list(shlo.ints_of(attr))


def _gelu(b, op, attrs):
    return [b.ttir("gelu", [op.operands[0]], op.results[0].type)]  # both forms, as upstream lowers them


def _norm(kind: str):
    def lower(b, op, attrs):
        shape = _ints(attrs.get("normalized_shape")) or list(op.operands[0].type.get_shape()[-1:])
        operands = list(op.operands)
        segments = [1, int(len(operands) > 1), int(len(operands) > 2)]
        norm = b.ttir_segmented(kind, operands, op.results[0].type, segments, normalized_shape=shape,
                                epsilon=_attr_float(attrs, "epsilon", 1e-5))
        return [norm]
    return lower


def _uniform(b, op, attrs):
    """Values drawn uniformly between the constant bounds (operands 1 and 2); the key operand seeds nothing here,
    as upstream's lowering draws with seed 0."""
    from ttmlir.conversion.stablehlo_to_ttir.lowering import splat_of
    low, high = splat_of(op.operands[1]), splat_of(op.operands[2])
    if low is None or high is None:
        return None  # bounds computed at run time: the decomposition stays
    result = op.results[0].type
    return [b.ttir("rand", [], result, size=list(result.get_shape()), low=FloatAttr(float(low), Float32Type()),
                   high=FloatAttr(float(high), Float32Type()), seed=0)]


def _topk(b, op, attrs):
    """`tenstorrent.topk` gives values and indices; `_values` / `_indices` one of them (the other typed as
    upstream makes it: i32 indices, the input's element type for values)."""
    name = _name(op)
    result = op.results[0].type
    values = result if not name.endswith("_indices") else TensorType(op.operands[0].type.element_type,
                                                                      result.get_shape())
    indices = op.results[-1].type if not name.endswith("_values") else TensorType(IntegerType(32),
                                                                                  result.get_shape())
    k, dim, largest, ordered = _int(attrs, "k", 1), _int(attrs, "dim", -1), _bool(attrs, "largest", True), \
        _bool(attrs, "sorted", False)
    found = _topk_of_shards(b, op, k, dim, largest, ordered, indices)
    if found is None:
        topk = b.ttir_op("topk", [op.operands[0]], [values, indices], k=k, dim=dim, largest=largest, sorted=ordered)
        found = list(topk.results)
    return found if len(op.results) == 2 else [found[int(name.endswith("_indices"))]]


def _topk_of_shards(b, op, k: int, dim: int, largest: bool, ordered: bool, indices: TensorType):
    """A topk of a tensor just gathered along its topk dim: each chip's topk of its own shard, only those
    candidates gathered (their indices offset by the shard's start), and the topk of the candidates: the same
    values and indices, with far less data moved. Each shard gives k candidates, or a whole tile of them when
    the n shards' k would not fill one, so that each chip's part stays tile-aligned (the result is cut back to
    k)."""
    from ttmlir.conversion.stablehlo_to_ttir.ccl import same_collective
    from ttmlir.dialects.stablehlo import int_of
    gather = op.operands[0].owner
    full = list(op.operands[0].type.get_shape())
    dim %= len(full)
    if getattr(gather, "name", None) != "stablehlo.all_gather" or int_of(gather.properties["all_gather_dim"]) != dim:
        return None
    shard = gather.operands[0]
    length = shard.type.get_shape()[dim]
    shards = full[dim] // length
    wide = k if k * shards >= TILE else TILE
    if wide > length:
        return None
    module = op.get_toplevel_object()
    element, i32 = op.operands[0].type.element_type, IntegerType(32)
    sized = lambda n, t: TensorType(t, [n if d == dim else s for d, s in enumerate(full)])  # noqa: E731
    local = b.ttir_op("topk", [shard], [sized(wide, element), sized(wide, i32)], k=wide, dim=dim, largest=largest,
                      sorted=False)
    candidates = []
    for value in local.results:
        new = same_collective(gather, value, sized(wide * shards, value.type.element_type), module)
        new.location = op.location
        b.ops.append(new)
        candidates.append(new.results[0])
    starts_type = sized(wide * shards, i32)
    outer = [s for d, s in enumerate(full) if d != dim]
    inner = math.prod(outer[dim:])  # elements after the topk dim, per position along it
    starts = [(j // wide) * length for _ in range(math.prod(outer[:dim])) for j in range(wide * shards)
              for _ in range(inner)]
    offsets = b.ttir("constant", [], starts_type, value=DenseIntOrFPElementsAttr.from_list(starts_type, starts))
    positions = b.ttir("add", [candidates[1], offsets], starts_type)
    best = b.ttir_op("topk", [candidates[0]], [sized(wide, element), sized(wide, i32)], k=wide, dim=dim,
                     largest=largest, sorted=ordered)
    found = [best.results[0], b.ttir("gather", [positions, best.results[1]], sized(wide, i32), dim=dim)]
    if wide != k:
        found = [b.ttir("slice_static", [v], sized(k, v.type.element_type), begins=[0] * len(full),
                        ends=[k if d == dim else s for d, s in enumerate(full)], step=[1] * len(full))
                 for v in found]
    if indices.element_type != i32:
        found[1] = b.ttir("typecast", [found[1]], indices)
    return found


def _argmax(b, op, attrs):
    return [b.ttir("argmax", [op.operands[0]], op.results[0].type, keep_dim=_bool(attrs, "keepdim", False),
                   dim_arg=[_int(attrs, "dim", -1)])]


def _gather(b, op, attrs):
    """torch.gather along `dim` (required: without it the decomposition stays); TTNN takes ui32 (or ui16) indices."""
    data, index = op.operands
    if "dim" not in attrs or not isinstance(index.type.element_type, IntegerType):
        return None
    if index.type.element_type not in (IntegerType(32, Signedness.UNSIGNED), IntegerType(16, Signedness.UNSIGNED)):
        index = b.ttir("typecast", [index], TensorType(IntegerType(32, Signedness.UNSIGNED), index.type.get_shape()))
    return [b.ttir("gather", [data, index], op.results[0].type, dim=_int(attrs, "dim", 0))]


def _with_unit_dim(b, value: SSAValue, at: int) -> SSAValue:
    shape = list(value.type.get_shape())
    return b.reshape(value, shape[:at] + [1] + shape[at:])


def _sdpa(b, op, attrs):
    """Attention over [B, H, S, D]; rank-3 [B, S, D] operands get a unit head dim (a [B, Sq, Sk] mask too), a
    lower-rank mask leading unit dims. The mask is used only when the composite is not causal."""
    query, key, value, *mask = op.operands
    causal = _bool(attrs, "is_causal", True)
    rank3 = len(query.type.get_shape()) == 3
    qkv = [_with_unit_dim(b, v, 1) for v in (query, key, value)] if rank3 else [query, key, value]
    mask = mask if not causal else []
    if mask:
        m = mask[0]
        rank = len(m.type.get_shape())
        mask = [_with_unit_dim(b, m, 1) if rank3 and rank == 3 else
                b.reshape(m, [1] * (4 - rank) + list(m.type.get_shape()))]
    result = op.results[0].type
    out_type = TensorType(result.element_type, _with_unit_shape(result)) if rank3 else result
    props = {"is_causal": causal} if "is_causal" in attrs else {}
    if "scale" in attrs:
        props["scale"] = FloatAttr(float(attrs["scale"].value.data), Float32Type())
    out = b.ttir_segmented("scaled_dot_product_attention", [*qkv, *mask], out_type, [1, 1, 1, len(mask), 0], **props)
    return [b.reshape(out, result.get_shape())]


def _with_unit_shape(t: TensorType) -> list[int]:
    shape = list(t.get_shape())
    return shape[:1] + [1] + shape[1:]


def _group_norm(b, op, attrs):
    """Groups of channels normalised; a rank < 4 input gets trailing unit dims (TTIR's op is at least 4-d)."""
    x = op.operands[0]
    shape = list(x.type.get_shape())
    padded = shape + [1] * (4 - len(shape))
    props = {"num_groups": _int(attrs, "num_groups", 1), "channel_dim": _int(attrs, "channel_dim", 3)}
    if "epsilon" in attrs:
        props["epsilon"] = _attr_float(attrs, "epsilon", 1e-12)
    weight_bias = list(op.operands[1:])
    segments = [1, 0, int(len(weight_bias) > 0), int(len(weight_bias) > 1)]
    norm = b.ttir_segmented("group_norm", [b.reshape(x, padded), *weight_bias],
                            TensorType(op.results[0].type.element_type, padded), segments, **props)
    return [b.reshape(norm, shape)]


def _all_slice(b, op, attrs):
    """Each mesh axis the out_sharding splits a dim over keeps this device's part of that dim (mesh axes in the
    mesh's order): one ttir.mesh_partition an axis."""
    from ttmlir.dialects import sdy
    from ttmlir.conversion.stablehlo_to_ttir.shardy import mesh_shard_props
    sharding = attrs.get("out_sharding")
    mesh = sdy.mesh_of(op, sharding.data) if isinstance(sharding, sdy.ShardingAttr) else None
    if mesh is None:
        return None
    dims = mesh_shard_props(sharding.data, mesh, "full_to_shard")["shard_dims"].get_values()
    value = op.operands[0]
    for axis, dim in enumerate(dims):
        if dim < 0:
            continue
        shape = list(value.type.get_shape())
        shape[dim] //= mesh.axes[axis][1]
        value = b.ttir("mesh_partition", [value], TensorType(value.type.element_type, shape), dim=dim,
                       cluster_axis=axis)
    return [value]


ADAMW_HYPERPARAMETERS = ("lr", "beta1", "beta2", "beta1_pow", "beta2_pow", "epsilon", "weight_decay")


def _adamw(b, op, attrs):
    """param, grad and the moments (max_exp_avg_sq too, for AMSGrad), one result per updated operand; every
    hyperparameter given as a float (stochastic_rounding optional); otherwise the decomposition stays."""
    if len(op.operands) not in (4, 5) or len(op.results) != len(op.operands) - 1 or \
            not all(isinstance(attrs.get(name), FloatAttr) for name in ADAMW_HYPERPARAMETERS):
        return None
    props = {name: _attr_float(attrs, name, 0.0) for name in ADAMW_HYPERPARAMETERS}
    adamw = b.ttir_op("adamw", list(op.operands), [r.type for r in op.results],
                      stochastic_rounding=_bool(attrs, "stochastic_rounding", False), **props)
    return list(adamw.results)


TTML_MASK_TYPES = ("none", "causal", "arbitrary")  # the composites' integer mask_type


def _ttml_attention(name: str, operands: int, default_mask: int):
    """sdpa_fw (query, key, value[, mask] -> output[, intermediates]) or sdpa_bw (grad_output, attn_output, query,
    key, value, intermediates[, mask] -> three gradients): the mask operand present iff mask_type is arbitrary."""
    def lower(b, op, attrs):
        from ttmlir.dialects import ttcore
        mask = _int(attrs, "mask_type", default_mask)
        if mask not in range(3) or len(op.operands) != operands + (mask == 2) or \
                len(op.results) not in ((1, 2) if name == "sdpa_fw" else (3,)):
            return None
        props = {"mask_type": ttcore.AttentionMaskTypeAttr(ttcore.AttentionMaskTypeAttr.enum_type(TTML_MASK_TYPES[mask])),
                 "dropout_probability": _attr_float(attrs, "dropout_probability", 0.0)}
        if name == "sdpa_fw":
            props["return_intermediates"] = len(op.results) == 2
        return list(b.ttir_op(name, list(op.operands), [r.type for r in op.results], **props).results)
    return lower


def _name(op) -> str:
    return (op.attr("name") if op.name == "stablehlo.composite" else op.attr("call_target_name")).data


def _int(attrs, key: str, default: int) -> int:
    attr = attrs.get(key)
    if isinstance(attr, DenseIntOrFPElementsAttr):  # a one-element tensor, as some frontends write it
        return int(dense_values(attr)[0])
    return default if attr is None else int(attr.value.data)


def _bool(attrs, key: str, default: bool) -> bool:
    attr = attrs.get(key)
    return default if attr is None else bool(attr.value.data)


COMPOSITES = {"tenstorrent.uniform": _uniform, "tenstorrent.gelu": _gelu, "tenstorrent.gelu_tanh": _gelu,
              "tenstorrent.rms_norm": _norm("rms_norm"), "tenstorrent.layer_norm": _norm("layer_norm"),
              "tenstorrent.topk": _topk, "tenstorrent.topk_values": _topk, "tenstorrent.topk_indices": _topk,
              "tenstorrent.argmax": _argmax, "tenstorrent.gather": _gather, "tenstorrent.gather_dim": _gather,
              "tenstorrent.scaled_dot_product_attention": _sdpa, "tenstorrent.group_norm": _group_norm,
              "sdy.all_slice": _all_slice, "tenstorrent.adamw": _adamw,
              "tenstorrent.sdpa_fw": _ttml_attention("sdpa_fw", 3, 1),
              "tenstorrent.sdpa_bw": _ttml_attention("sdpa_bw", 6, 2)}


@dataclass(frozen=True)
class LegalizeStableHLOCompositeToTTIRPass(ModulePass):
    """Composites TTIR has an op for become that op."""

    name: ClassVar[str] = "legalize-stablehlo-composite-to-ttir"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        from ttmlir.conversion.stablehlo_to_ttir.lowering import Builder
        for op in list(module.walk()):
            # a composite, or the custom call --flatten-or-convert-composites made of one for sharding
            if op.name == "stablehlo.composite":
                attrs = op.attr("composite_attributes")
            elif op.name == "stablehlo.custom_call" and "tt.has_custom_sharding" in op.attributes:
                attrs = op.attributes.get("tt.composite_attributes")
            else:
                continue
            if (lower := COMPOSITES.get(_name(op))) is None:
                continue
            b = Builder(op)
            values = lower(b, op, dict(attrs.data) if attrs is not None else {})
            if values is None:
                continue
            for new in b.ops:
                op.parent_block().insert_op_before(new, op)
            for result, value in zip(op.results, values):
                result.replace_all_uses_with(value)
            sources = [v.owner for v in op.operands]
            op.detach()
            op.erase()
            for source in sources:  # a gather the lowering no longer reads (a topk of shards) moves nothing
                if getattr(source, "name", None) == "stablehlo.all_gather" and not source.results[0].uses:
                    source.detach()
                    source.erase()


@dataclass(frozen=True)
class StableHLOLegalizeCompositeToCallPass(ModulePass):
    """Each composite becomes a call of its decomposition."""

    name: ClassVar[str] = "stablehlo-legalize-composite-to-call"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if op.name != "stablehlo.composite":
                continue
            callee = op.attr("decomposition")
            if callee is None:
                raise PassFailure(op, "'stablehlo.composite' op requires attribute 'decomposition'")
            call = CallOp(callee.root_reference.data, list(op.operands), [r.type for r in op.results])
            op.parent_block().insert_op_before(call, op)
            for result, value in zip(op.results, call.results):
                result.replace_all_uses_with(value)
            op.detach()
            op.erase()


@dataclass(frozen=True)
class InlinerPass(ModulePass):
    """Every call of a function defined in the module is replaced by the function's body; private functions
    no longer called are removed. As MLIR's inliner canonicalizes every function it visits, each function's
    constants then lead its body, one per value."""

    name: ClassVar[str] = "inline"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        functions = {op.sym_name.data: op for op in module.walk() if isinstance(op, FuncOp)}
        for _ in range(64):  # calls inside inlined bodies are inlined on the next round
            calls = [op for op in module.walk() if isinstance(op, CallOp) and
                     (f := functions.get(op.callee.root_reference.data)) is not None and f.body.blocks]
            if not calls:
                break
            for call in calls:
                _inline(call, functions[call.callee.root_reference.data])
        else:
            raise PassFailure(module, "recursive calls cannot be inlined")
        # a symbol named anywhere (a call, a composite's decomposition) keeps its function, as MLIR's symbol uses do
        called = {a.root_reference.data for op in module.walk() if not isinstance(op, FuncOp)
                  for a in (*op.properties.values(), *op.attributes.values()) if isinstance(a, SymbolRefAttr)}
        for name, func in functions.items():
            if func.sym_visibility is not None and func.sym_visibility.data == "private" and name not in called \
                    and func.body.blocks:
                func.detach()
                func.erase()
            elif func.body.blocks:
                _hoist_constants(func.body.blocks[0])


def _hoist_constants(block) -> None:
    """The block's constants moved to its start in their order, a repeated one (same value and type) replaced by
    the first."""
    first: dict = {}
    anchor = block.first_op
    for op in [o for o in block.ops if o.name in ("stablehlo.constant", "arith.constant")]:
        in_place = op is anchor
        if in_place:
            anchor = op.next_op
        key = (op.name, op.results[0].type, tuple(sorted((k, str(v)) for k, v in op.properties.items())),
               tuple(sorted((k, str(v)) for k, v in op.attributes.items())))
        if key in first:
            op.results[0].replace_all_uses_with(first[key].results[0])
            op.detach()
            op.erase()
        elif not in_place:
            first[key] = op
            op.detach()
            block.insert_op_before(op, anchor)
        else:
            first[key] = op


def _inline(call: CallOp, func: FuncOp) -> None:
    if len(func.body.blocks) != 1:
        raise PassFailure(call, f"cannot inline '{func.sym_name.data}': it has more than one block")
    block = func.body.block
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, call.operands))
    target = call.parent_block()
    returned: list[SSAValue] = []
    for op in block.ops:
        if isinstance(op, ReturnOp):
            returned = [mapping.get(v, v) for v in op.operands]
            continue
        target.insert_op_before(op.clone(value_mapper=mapping), call)
    for result, value in zip(call.results, returned):
        result.replace_all_uses_with(value)
    call.detach()
    call.erase()


@dataclass(frozen=True)
class _DeadOpRemoval(ModulePass):
    """Ops without effects nothing uses are removed, as MLIR's CSE does while it runs (xDSL's does not)."""

    name: ClassVar[str] = "ttmlir-internal-dead-op-removal"  # a pipeline step, not a registered pass

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        from xdsl.transforms.dead_code_elimination import region_dce
        for region in module.regions:
            region_dce(region)


@dataclass(frozen=True)
class StableHLOToTTIRPipeline(ModulePass):
    """StableHLO to TTIR: arith constants, simplification, complex values as real pairs, composites, inlining,
    conversion, CSE.

    With enable-cpu-fallback (the default) the conversion leaves what it cannot lower, the result is wrapped in
    `ttcore.device_module`, the leftovers the host can run move to `ttcore.cpu_module`
    (`--cpu-hoist-non-lowerable-shlo-ops`), and a strict conversion of the device module reports any other."""

    name: ClassVar[str] = "stablehlo-to-ttir-pipeline"
    enable_arith_to_stablehlo: bool = True
    enable_composite_to_call: bool = True
    enable_aggressive_simplification: bool = True
    enable_cpu_fallback: bool = True

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

        from ttmlir.conversion.stablehlo_to_ttir.convert_stablehlo_to_ttir import ConvertStableHLOToTTIRPass
        passes: list[ModulePass] = []
        if self.enable_arith_to_stablehlo:
            passes.append(ConvertArithToStableHLOPass())
        if self.enable_aggressive_simplification:
            passes.append(StableHLOAggressiveSimplificationPass())
        from ttmlir.transforms.stablehlo.stablehlo_complex_data_type_conversion import StableHLOComplexDataTypeConversionPass
        from ttmlir.transforms.stablehlo.stablehlo_complex_math_expander import StablehloComplexMathExpanderPass
        passes += [StablehloComplexMathExpanderPass(), StableHLOComplexDataTypeConversionPass()]
        passes.append(LegalizeStableHLOCompositeToTTIRPass())
        if self.enable_composite_to_call:
            passes.append(StableHLOLegalizeCompositeToCallPass())
        passes += [InlinerPass(), ConvertStableHLOToTTIRPass(enable_partial_conversion=self.enable_cpu_fallback),
                   CommonSubexpressionElimination(), _DeadOpRemoval()]
        if self.enable_cpu_fallback:
            from ttmlir.transforms.stablehlo.cpu_hoist_non_lowerable_shlo_ops import CPUHoistNonLowerableSHLOOpsPass
            from ttmlir.transforms.ttcore.register_device import WrapDeviceModulePass
            passes += [WrapDeviceModulePass(), CPUHoistNonLowerableSHLOOpsPass(), ConvertStableHLOToTTIRPass()]
        from ttmlir.timing import run_pass

        for p in passes:
            run_pass(p, ctx, module)
