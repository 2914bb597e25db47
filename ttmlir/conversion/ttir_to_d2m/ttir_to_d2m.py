"""`--ttir-to-d2m`: TTIR ops as D2M programs in unified-thread form, as upstream's first Metal stage writes them.

Each op's tensor operands are moved onto the device (`d2m.to_layout` into a `#ttcore.metal_layout` tensor of tiles
on a 1x1 grid, as upstream leaves grids for `--d2m-grid-selection`), one `d2m.generic` computes the op (its region
loads each operand's block, computes on its tiles in a `linalg.generic` over a `d2m.tile_*` op, or a
`d2m.tile_matmul_block`, or fills tiles with `d2m.tile_fill`, and stores the result block), and the result is moved
back to the host. Ops this build does not convert are refused naming the op. `--ttir-to-ttmetal-pipeline` runs the
programs this pass writes."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (AffineMapAttr, ArrayAttr, BFloat16Type, DenseArrayBase, DenseIntOrFPElementsAttr,
                                   Float32Type, FloatAttr, IntegerAttr, IndexType, ModuleOp, StringAttr, TensorType,
                                   i32, i64)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp as LinalgGenericOp, YieldOp as LinalgYieldOp
from xdsl.dialects.tensor import EmptyOp as TensorEmptyOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m, ttcore
from ttmlir.ir.props import scalar
from ttmlir.ir.tt_op import TTOp
from ttmlir.errors import PassFailure

TILE = 32
# the tile op computing each TTIR op (matmul as a block op on whole blocks)
TILE_OF = {family: mnemonic for mnemonic, (family, arity) in d2m.TILE_OPS.items() if arity < 3}
FILLS = {"zeros": 0.0, "ones": 1.0}  # and full, with its fill_value
FLOATS = (Float32Type(), BFloat16Type())


def metal_type(shape: tuple[int, ...], element: Attribute, memory: str, grid: tuple[int, int] = (1, 1)) -> TensorType:
    """A host tensor's device form: its matrices (leading dims folded into rows) in tiles, on `grid`."""
    dims = (1,) * max(0, 2 - len(shape)) + tuple(shape)
    rows, cols = math.prod(dims[:-1]), dims[-1]
    ht, wt = -(-rows // TILE), -(-cols // TILE)
    intervals = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2, 2]), [0, len(dims) - 1, len(dims) - 1,
                                                                            len(dims)])
    layout = ttcore.MetalLayoutAttr(ttcore.MetalLayout(dims, (TILE,) * len(dims), intervals, memory,
                                                       "sharded" if memory == "l1" else "interleaved"))
    return TensorType(ttcore.TileType((TILE, TILE), _dtype(element)), [*grid, ht // grid[0], wt // grid[1]], layout)


def _dtype(element: Attribute) -> str:
    return {Float32Type(): "f32", BFloat16Type(): "bf16"}[element]


def _map(dims: int, *results: int) -> AffineMapAttr:
    """`(d0, .., d<dims-1>) -> (d<r> for r in results)`."""
    return AffineMapAttr(AffineMap(dims, 0, tuple(AffineExpr.dimension(r) for r in results)))


def _parallel(kind: str = "parallel") -> Attribute:
    return ttcore.IteratorTypeAttr(ttcore.IteratorTypeAttr.enum_type(kind))


def build_generic(inputs: list[SSAValue], output: SSAValue, maps: list[AffineMapAttr], iterators: list[str],
                  compute, grid: tuple[int, ...] = (1, 1)) -> d2m.GenericOp:
    """A unified-thread generic on `grid`: the region loads each input's block at the block indices its map
    names, `compute(ops, loaded, local_out)` gives the result block, which is stored into the output."""
    ops: list[Operation] = []
    dims = len(iterators)
    index = [ops.append(op) or op.result for op in
             (d2m.BlockIndexOp.create(properties={"dim": IntegerAttr(d, i64)}, result_types=[IndexType()])
              for d in range(dims))]

    def local(t: TensorType) -> TensorType:
        return TensorType(t.element_type, t.get_shape()[len(t.get_shape()) // 2:])

    loaded = []
    for value, amap in zip(inputs, maps):
        empty = TensorEmptyOp([], local(value.type))
        at = [index[r.position] for r in amap.data.results]
        load = d2m.RemoteLoadOp.create(operands=[empty.tensor, value, *at], result_types=[empty.tensor.type],
                                       properties={"operandSegmentSizes": DenseArrayBase.from_list(
                                           i32, [1, 1, len(at), 0, 0, 0, 0])})
        ops += [empty, load]
        loaded.append(load.result)
    out_local = TensorEmptyOp([], local(output.type))
    ops.append(out_local)
    result = compute(ops, loaded, out_local.tensor)
    at = [index[r.position] for r in maps[-1].data.results]
    store = d2m.RemoteStoreOp.create(operands=[output, *at, result], result_types=[output.type],
                                     properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, len(at), 1, 0])})
    ops += [store, d2m.YieldOp.create(operands=[store.result])]
    attrs = {"block_factors": ArrayAttr([IntegerAttr(1, i64)] * dims), "grid": ttcore.GridAttr(ttcore.Grid(grid)),
             "indexing_maps": ArrayAttr(maps), "iterator_types": ArrayAttr([_parallel(k) for k in iterators]),
             "threads": ArrayAttr([d2m.ThreadAttr.get("unified")])}
    return d2m.GenericOp.create(operands=[*inputs, output], result_types=[output.type], attributes=attrs,
                                regions=[Region(Block(ops))], properties={
                                    "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(inputs), 1, 0])})


def _elementwise(tile_op: str, arity: int):
    """A linalg.generic over the loaded blocks, `tile_op` on each tile."""

    def compute(ops: list[Operation], loaded: list[SSAValue], out: SSAValue) -> SSAValue:
        tile = out.type.element_type
        body = Block(arg_types=[tile] * (arity + 1))
        op = d2m.TILE_OP_CLASSES[tile_op].create(operands=list(body.args[:arity]), result_types=[tile])
        body.add_ops([op, LinalgYieldOp(op.results[0])])
        identity = AffineMapAttr(AffineMap.identity(2))
        generic = LinalgGenericOp(loaded, [out], Region(body), [identity] * (arity + 1),
                                  [IteratorTypeAttr.parallel()] * 2, [out.type])
        ops.append(generic)
        return generic.res[0]

    return compute


def _fill(value: float):
    """A linalg.generic writing a tile of `value` into every tile of the block."""

    def compute(ops: list[Operation], loaded: list[SSAValue], out: SSAValue) -> SSAValue:
        tile = out.type.element_type
        body = Block(arg_types=[tile])
        constant = arith.ConstantOp(FloatAttr(value, Float32Type() if tile.dtype == "f32" else BFloat16Type()))
        fill = d2m.TileFillOp.create(operands=[constant.result], result_types=[tile])
        body.add_ops([constant, fill, LinalgYieldOp(fill.result)])
        generic = LinalgGenericOp([], [out], Region(body), [AffineMapAttr(AffineMap.identity(2))],
                                  [IteratorTypeAttr.parallel()] * 2, [out.type])
        ops.append(generic)
        return generic.res[0]

    return compute


def _matmul(ops: list[Operation], loaded: list[SSAValue], out: SSAValue) -> SSAValue:
    ops.append(d2m.TILE_OP_CLASSES["tile_matmul_block"].create(operands=[*loaded, out]))
    return out


def check_memspaces(op: Operation, inputs: str, outputs: str) -> None:
    """default-input-memspace and default-output-memspace name L1 or DRAM."""
    for option, value in (("default-input-memspace", inputs), ("default-output-memspace", outputs)):
        if value not in ("l1", "dram"):
            raise PassFailure(op, f"{option} is l1 or dram, not '{value}'")


@dataclass(frozen=True)
class TTIRToD2MPass(ModulePass):
    """TTIR ops to D2M programs (see the module doc)."""

    name: ClassVar[str] = "ttir-to-d2m"
    default_input_memspace: str = "l1"
    default_output_memspace: str = "l1"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_memspaces(op, self.default_input_memspace, self.default_output_memspace)
        for ttir_op in [o for o in op.walk() if isinstance(o, TTOp) and o.name.startswith("ttir.")]:
            if ttir_op.ROW.name == "empty":
                continue
            self.convert(ttir_op)
        for empty in [o for o in op.walk() if isinstance(o, TTOp) and o.name == "ttir.empty" and not o.results[0].uses]:
            empty.detach()
            empty.erase()

    def convert(self, op: TTOp) -> None:
        name = op.ROW.name
        result = op.results[0] if len(op.results) == 1 else None
        if result is None or not isinstance(result.type, TensorType) or result.type.element_type not in FLOATS:
            raise PassFailure(op, f"'{op.name}' is not converted to D2M yet (f32 and bf16 ops of one result are)")
        tensors = [v for v in op.operands if isinstance(v.type, TensorType)]
        if name in FILLS or name == "full":
            value = FILLS.get(name)
            if value is None:
                value = float(scalar(op.prop("fill_value")))
            compute, maps, iterators, ins = _fill(value), [_map(2, 0, 1)], ["parallel"] * 2, []
        elif name == "matmul" and len(tensors) == 2 and all(len(v.type.get_shape()) == 2 for v in tensors) and \
                not any(scalar(op.prop(t)) for t in ("transpose_a", "transpose_b")):
            compute, ins = _matmul, tensors
            maps, iterators = [_map(3, 0, 2), _map(3, 2, 1), _map(3, 0, 1)], ["parallel", "parallel", "reduction"]
        elif name in TILE_OF and len(tensors) == d2m.TILE_OPS[TILE_OF[name]][1] and \
                all(v.type == result.type for v in tensors):
            compute, ins = _elementwise(TILE_OF[name], len(tensors)), tensors
            maps, iterators = [_map(2, 0, 1)] * (len(tensors) + 1), ["parallel"] * 2
        else:
            raise PassFailure(op, f"'{op.name}' is not converted to D2M yet (elementwise ops on operands of the "
                                  "result's type, 2-d matmul and full/zeros/ones are)")
        new: list[Operation] = []
        device_ins = []
        for value in ins:
            target = d2m.EmptyOp.create(result_types=[metal_type(value.type.get_shape(), value.type.element_type,
                                                                 self.default_input_memspace)])
            moved = d2m.ToLayoutOp.create(operands=[value, target.result], result_types=[target.result.type])
            new += [target, moved]
            device_ins.append(moved.result)
        out = d2m.EmptyOp.create(result_types=[metal_type(result.type.get_shape(), result.type.element_type,
                                                          self.default_output_memspace)])
        generic = build_generic(device_ins, out.result, maps, iterators, compute)
        host = d2m.EmptyOp.create(result_types=[result.type])
        back = d2m.ToLayoutOp.create(operands=[generic.results[0], host.result], result_types=[result.type])
        new += [out, generic, host, back]
        for made in new:
            made.location = op.location
        op.parent_block().insert_ops_before(new, op)
        result.replace_all_uses_with(back.result)
        op.detach()
        op.erase()
