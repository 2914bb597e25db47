"""`--d2m-generic-fusion`: an elementwise generic whose one result only feeds another elementwise generic is computed
inside it. The consumer's `linalg.generic` takes the producer's tile ops in place of the block it loaded, and the
producer's inputs (read through their maps composed with the consumer's for that input: a broadcast producer read
by a consumer that spreads it along rows or columns recomputes it per tile) in place of that input; the producer,
and the moves of its result to the host and back that `--ttir-to-d2m` left between them, go away. Both generics
are all-parallel, and the consumer's grid reads each of the producer's inputs through its composed map. A fused
graph needs a dst tile for each value live at once (`max-dst-physical-size-tiles`, half of it for the math thread, as
the compute kernels use dst); a producer that would take more stays a program of its own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import GenericOp as LinalgGenericOp, YieldOp as LinalgYieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.ttir import TTNNMetalLayoutCastOp
from ttmlir.errors import PassFailure, derive
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import dst_tiles
from ttmlir.conversion.ttir_to_d2m.tiles import spread_leaves
from ttmlir.conversion.ttir_to_d2m.ttir_to_d2m import build_generic
from ttmlir.dialects.d2m_tile_bcast import TileBcastOp
from ttmlir.dialects.d2m_mask_tiles import TileWhereOp
from ttmlir.dialects.d2m_tile_reduce import TileReduceOp
from ttmlir.transforms.ttcore.register_device import device_module_of


def _linalg(generic: d2m.GenericOp, reductions: int = 0) -> Operation | None:
    """The linalg.generic of a generic computing tile ops on the blocks it loads, all-parallel but for at most
    `reductions` reduction dims, else None."""
    kinds = [t.data.value for t in generic.attributes["iterator_types"].data]
    if kinds.count("reduction") > reductions or len(generic.outputs) != 1 or \
            isinstance(generic.parent_op(), d2m.SpatialOp):
        return None
    linalgs = [op for op in generic.region.block.ops if op.name == "linalg.generic"]
    if len(linalgs) != 1 or not linalgs[0].inputs:
        return None
    body = linalgs[0].body.block
    tile_ops = (d2m.TileOp, TileBcastOp, TileWhereOp, *((TileReduceOp,) if reductions else ()))
    if not all(isinstance(op, tile_ops) for op in list(body.ops)[:-1]):
        return None
    loads = [op for op in generic.region.walk() if isinstance(op, d2m.RemoteLoadOp)]
    if [load.result for load in loads] != list(linalgs[0].inputs):
        return None
    return linalgs[0]


# a device tensor to the host and back, or to TTNN's and back
MOVES = (d2m.ToLayoutOp, d2m.ToDeviceOp, d2m.ToHostOp, TTNNMetalLayoutCastOp)


def _producer(value: SSAValue, consumer: d2m.GenericOp) -> tuple[d2m.GenericOp, list[Operation]] | None:
    """The generic computing a consumer's input and the moves between them (none, or its result to the host and
    back to the device, or to a TTNN tensor and back, in the same layout), when the consumer is its result's only
    user."""
    back = value.owner
    if any(not consumer.is_ancestor(use.operation) for use in value.uses):
        return None
    if isinstance(back, d2m.GenericOp):  # fed directly (the moves canonicalized away)
        return back, []
    if not isinstance(back, MOVES):
        return None
    middle = back.operands[0]
    out = middle.owner
    if not isinstance(out, MOVES) or not middle.has_one_use():
        return None
    produced = out.operands[0]
    generic = produced.owner
    if not isinstance(generic, d2m.GenericOp) or produced.type != value.type or len(list(produced.uses)) != 1:
        return None
    return generic, [back, *(v.owner for v in back.operands[1:]), out, *(v.owner for v in out.operands[1:])]


def _erase_unused(op: Operation) -> None:
    """`op` and, in turn, the ops making its operands, while nothing else uses them."""
    if op.parent is None or any(r.uses for r in op.results):
        return
    makers = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
    op.detach()
    op.erase()
    for maker in makers:
        if isinstance(maker, (d2m.EmptyOp, *MOVES)):
            _erase_unused(maker)


def _compose(inner: AffineMap, outer: AffineMap) -> AffineMap:
    """`inner` after `outer`: a producer's input map read at the blocks the consumer's map names."""
    results = tuple(outer.results[r.position] if isinstance(r, AffineDimExpr) else r for r in inner.results)
    return AffineMap(outer.num_dims, 0, results)


def _fits(amap: AffineMap, t: TensorType, grid: tuple[int, ...]) -> bool:
    """Whether a generic on `grid` can read a tensor through `amap`: each grid dim of the tensor is the grid's along
    the loop dim indexing it, or 1 where it is read at block 0."""
    shape = t.get_shape()
    if not all(isinstance(r, (AffineDimExpr, AffineConstantExpr)) for r in amap.results):
        return False
    return all(shape[j] == (grid[r.position] if isinstance(r, AffineDimExpr) else 1) and
               (isinstance(r, AffineDimExpr) or r.value == 0) for j, r in enumerate(amap.results))


def _tree(value: SSAValue, args: list[SSAValue]):
    """The tree of tile ops computing `value` over the body's arguments, as the compute kernel evaluates it."""
    if value in args:
        return args.index(value)
    op = value.owner
    return op.name, [_tree(v, args) for v in op.operands], op.parent_block().get_operation_index(op)


@dataclass(frozen=True)
class D2MGenericFusionPass(ModulePass):
    name: ClassVar[str] = "d2m-generic-fusion"
    max_dst_physical_size_tiles: int = 0  # 0: the chip's dst size
    enable_eltwise_reduction_fusion: bool = False  # an elementwise producer into a reduction over one dim too

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        system = device_module_of(op).attributes.get("ttcore.system_desc")
        if not isinstance(system, ttcore.SystemDescAttr):
            raise PassFailure(op, "module has no ttcore.system_desc attribute (run --ttcore-register-device first)")
        dst = int(system.data.chip(0).get("dst_physical_size_tiles") or 16)
        if self.max_dst_physical_size_tiles:
            dst = min(dst, self.max_dst_physical_size_tiles)
        changed = True
        while changed:
            changed = False
            for consumer in [g for g in op.walk() if isinstance(g, d2m.GenericOp)]:
                if consumer.parent is not None and self.fuse_into(consumer, dst // 2):
                    changed = True

    def fuse_into(self, consumer: d2m.GenericOp, dst_limit: int) -> bool:
        """Fuses the first producer of `consumer`'s inputs that can be; whether one was."""
        linalg_c = _linalg(consumer, reductions=int(self.enable_eltwise_reduction_fusion))
        if linalg_c is None:
            return False
        maps_c = [m.data for m in consumer.attributes["indexing_maps"].data]
        grid = tuple(consumer.attributes["grid"].data.shape)
        for index, value in enumerate(consumer.inputs):
            found = _producer(value, consumer)
            if found is None:
                continue
            producer, moves = found
            linalg_p = _linalg(producer)
            maps_p = [m.data for m in producer.attributes["indexing_maps"].data]
            if linalg_p is None or maps_p[-1] != AffineMap.identity(maps_p[-1].num_dims):
                continue
            composed = [_compose(m, maps_c[index]) for m in maps_p[:-1]]
            if not all(_fits(m, v.type, grid) for m, v in zip(composed, producer.inputs)):
                continue  # an input the consumer's grid cannot read through its map
            fused = self.fused(consumer, linalg_c, index, producer, linalg_p, composed)
            if dst_tiles(_tree(fused[1].body.block.last_op.operands[0],
                               list(fused[1].body.block.args))) > dst_limit:
                fused[0].erase()
                continue
            consumer.parent_block().insert_op_before(fused[0], consumer)
            consumer.results[0].replace_all_uses_with(fused[0].results[0])
            consumer.detach()
            consumer.erase()
            for dead in [*moves, producer]:
                _erase_unused(dead)
            return True
        return False

    @staticmethod
    def fused(consumer: d2m.GenericOp, linalg_c: Operation, index: int, producer: d2m.GenericOp,
              linalg_p: Operation, composed: list[AffineMap]) -> tuple[d2m.GenericOp, Operation]:
        """A generic computing the consumer with its input `index` computed by the producer's tile ops, the
        producer's inputs read through their maps composed with the consumer's for that input."""
        maps_c = list(consumer.attributes["indexing_maps"].data)
        inputs = [*consumer.inputs[:index], *producer.inputs, *consumer.inputs[index + 1:]]
        maps = [*maps_c[:index], *map(AffineMapAttr, composed), *maps_c[index + 1:-1], maps_c[-1]]
        body_c, body_p = linalg_c.body.block, linalg_p.body.block
        made: list[Operation] = []

        def compute(ops: list[Operation], loaded: list[SSAValue], out: SSAValue, _maps) -> SSAValue:
            body = Block(arg_types=[*(v.type.element_type for v in loaded), out.type.element_type])
            n_p = len(producer.inputs)
            # each leaf spread as its composed map reads it, not as either body did; a reduction's own operands
            # (its scaler: read whole) as its body reads them
            reduces = any(t.data.value == "reduction" for t in linalg_c.iterator_types.data)
            args = spread_leaves(body, maps, range(index, index + n_p) if reduces else None)

            def clone(ops_of: Block, mapping: dict) -> None:
                for inner in list(ops_of.ops)[:-1]:
                    if isinstance(inner, TileBcastOp):
                        mapping[inner.result] = mapping.get(inner.input, inner.input)
                    else:
                        body.add_op(inner.clone(value_mapper=mapping))

            mapping = {a: args[index + k] for k, a in enumerate(body_p.args[:n_p])}
            clone(body_p, mapping)
            computed = mapping.get(body_p.last_op.operands[0], body_p.last_op.operands[0])
            mapping_c = {body_c.args[-1]: body.args[-1]}  # the output's block: a reduction's accumulator
            for k, a in enumerate(body_c.args[:len(consumer.inputs)]):
                mapping_c[a] = computed if k == index else args[k if k < index else k + n_p - 1]
            clone(body_c, mapping_c)
            result = mapping_c.get(body_c.last_op.operands[0], body_c.last_op.operands[0])
            body.add_op(LinalgYieldOp(result))
            generic = LinalgGenericOp(loaded, [out], Region(body), maps, list(linalg_c.iterator_types.data),
                                      [out.type])
            ops.append(generic)
            made.append(generic)
            return generic.res[0]

        iterators = [t.data.value for t in consumer.attributes["iterator_types"].data]
        generic = build_generic(inputs, consumer.outputs[0], maps, iterators, compute,
                                tuple(consumer.attributes["grid"].data.shape))
        derive(list(generic.walk()), consumer)
        return generic, made[0]

