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
                                   Float32Type, FloatAttr, IndexType, IntegerAttr, IntegerType, ModuleOp, Signedness,
                                   TensorType, f32, i32, i64)
from xdsl.dialects.func import ReturnOp
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp as LinalgGenericOp, YieldOp as LinalgYieldOp
from xdsl.dialects.tensor import EmptyOp as TensorEmptyOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m, ttcore, ttnn
from ttmlir.dialects.ttir import TTIR_OP_CLASSES, TTNNMetalLayoutCastOp
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import ShardLayout, grid_maps
from ttmlir.transforms.ttcore.register_device import device_module_of
from ttmlir.transforms.d2m.d2m_grid_selection import grid_for
from ttmlir.dialects.d2m_tile_reduce import TILE_REDUCE_OPS
from ttmlir.ir.props import scalar
from ttmlir.ir.tt_op import TTOp
from ttmlir.errors import PassFailure, derive
from ttmlir.transforms.d2m.reblock import reblock_view
from ttmlir.conversion.ttir_to_d2m.tiles import TILE, _dtype, _elementwise, _map, masked, metal_type
from ttmlir.conversion.ttir_to_d2m.broadcast import BROADCASTS
from ttmlir.conversion.ttir_to_d2m.permute import PERMUTES, transpose
from ttmlir.conversion.ttir_to_d2m.reshape import RESHAPES
from ttmlir.conversion.ttir_to_d2m.slice import SLICES
from ttmlir.conversion.ttir_to_d2m.pad import PADS
from ttmlir.conversion.ttir_to_d2m.row_gather import matrix_dims
from ttmlir.conversion.ttir_to_d2m.tms import decompose_tms
from ttmlir.conversion.ttir_to_d2m.embedding import DATA_MOVEMENT, moves_bits
from ttmlir.conversion.ttir_to_d2m.matmul import BATCHED_MATMULS, fold_transposed_b
from ttmlir.conversion.ttir_to_d2m.argmax import DECOMPOSED
from ttmlir.conversion.ttir_to_d2m.valued_pad import VALUED_PADS
from ttmlir.conversion.ttir_to_d2m.cache_updates import CACHE_UPDATES
from ttmlir.conversion.ttir_to_d2m.mixed_types import cast_mixed_operands
from ttmlir.conversion.ttir_to_d2m.ccl import HOST_COLLECTIVES, MESH_PROGRAMS
from ttmlir.conversion.ttir_to_d2m.conv2d import CONVOLUTIONS
from ttmlir.conversion.ttir_to_d2m.pool2d import POOLS
from ttmlir.conversion.ttir_to_d2m.conv_transpose2d import TRANSPOSED_CONVOLUTIONS
from ttmlir.conversion.ttir_to_d2m.logical import LOGICAL
from ttmlir.conversion.ttir_to_d2m.clamp import CLAMPS
from ttmlir.conversion.ttir_to_d2m.composites import COMPOSITE_USES, COMPOSITES, FIXED_SCALARS
from ttmlir.conversion.ttir_to_d2m.float_indices import FLOAT_INDICES
from ttmlir.conversion.ttir_to_d2m.reductions import ROW_REDUCTIONS
from ttmlir.conversion.ttir_to_d2m.topk import MULTI_RESULT
from ttmlir.conversion.ttir_to_d2m.tiled_at_rank import AT_RANK
from ttmlir.conversion.ttir_to_d2m.host_view import host_view
from ttmlir.conversion.ttir_to_d2m.int_comparisons import integer_comparison

# the tile op computing each TTIR op (matmul as a block op on whole blocks)
TILE_OF = {family: mnemonic for mnemonic, (family, arity) in d2m.TILE_OPS.items()
           if arity < 3 and family not in ("transpose", "typecast")} | {"where": "tile_where"}
ARITY = {mnemonic: arity for mnemonic, (_, arity) in d2m.TILE_OPS.items()} | {"tile_where": 3}
# elementwise ops: name -> (compute, tile operands), one tile op each or several (files of their own)
ELEMENTWISE = {name: (_elementwise(tile_op, ARITY[tile_op]), ARITY[tile_op])
               for name, tile_op in TILE_OF.items()} | LOGICAL | CLAMPS | COMPOSITES
FILLS = {"zeros": 0.0, "ones": 1.0}  # and full, with its fill_value
FLOATS = (Float32Type(), BFloat16Type())
ELEMENTS = (*FLOATS, IntegerType(32), IntegerType(32, Signedness.SIGNED))
# ops left as they are: host data (written by the Metal conversion), tensors made or moved between layouts, the
# collectives between chips (host commands)
KEPT = ("constant", "arange", "empty", "to_layout", *HOST_COLLECTIVES)
REDUCTIONS = {"sum": "tile_reduce_sum", "mean": "tile_reduce_mean", "max": "tile_reduce_max"}
# integer tiles reduce on the SFPU, with no scaler tile (the FPU's reduce_tile takes floats)
INTEGER_REDUCTIONS = {"sum": "tile_sfpu_reduce_sum", "max": "tile_sfpu_reduce_max"}
# what a reduction's input holds outside its logical shape: its identity, so the tile padding leaves it unchanged
REDUCTION_FILLS = {"sum": "zero", "mean": "zero", "max": "neginf"}
# an inner min as an order-reversing involution around a max, by element type: min(x) = -max(-x) = ~max(~x)
INVERSE = {**dict.fromkeys(FLOATS, "neg"), **dict.fromkeys(ELEMENTS[len(FLOATS):], "bitwise_not")}
REDUCE_CLASSES = {c.name.removeprefix("d2m."): c for c in TILE_REDUCE_OPS}
# op families converted in files of their own: name -> (op, tensor operands) -> (compute, maps, iterators, inputs)
FAMILIES = {**RESHAPES, **PERMUTES, **BROADCASTS, **SLICES, **PADS}
# op families that build their whole program (operands' layouts, grid): name -> (pass, op, device grid) -> (ops,
# host result), or None for an op of the family converted the usual way
PROGRAMS = {**DATA_MOVEMENT, **BATCHED_MATMULS, **MESH_PROGRAMS, **AT_RANK}
# ops written as other TTIR ops where they are, then converted
REWRITTEN = {**DECOMPOSED, **CACHE_UPDATES, **FLOAT_INDICES, **ROW_REDUCTIONS, **VALUED_PADS}
# ops written as TTIR ops and gather programs where they are (given the pass: its generic builder), then converted
WINDOWED = {**CONVOLUTIONS, **POOLS, **TRANSPOSED_CONVOLUTIONS}


def ranked_metal_type(shape: tuple[int, ...], element: Attribute, memory: str) -> TensorType:
    """A host tensor kept at its rank on the device (collapse-tensors-2d=false): a grid dim per dim, each matrix
    of the batch in whole tiles, on a grid of 1s."""
    n = len(shape)
    intervals = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [n, 2]), [i + k for i in range(n) for k in (0, 1)])
    layout = ttcore.MetalLayoutAttr(ttcore.MetalLayout(tuple(shape), (1,) * (n - 2) + (TILE, TILE), intervals, memory,
                                                       "sharded" if memory == "l1" else "interleaved"))
    return TensorType(ttcore.TileType((TILE, TILE), _dtype(element)),
                      [*(1,) * n, *shape[:-2], -(-shape[-2] // TILE), -(-shape[-1] // TILE)], layout)


def _parallel(kind: str = "parallel") -> Attribute:
    return ttcore.IteratorTypeAttr(ttcore.IteratorTypeAttr.enum_type(kind))


def _block_index(ops: list[Operation], index: list[SSAValue], expr: AffineExpr) -> SSAValue:
    """The block an operand's map names along one of its dims: the generic's block index, or block 0 for an operand
    broadcast (or reduced) along it."""
    if isinstance(expr, AffineDimExpr):
        return index[expr.position]
    zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
    ops.append(zero)
    return zero.result


def build_generic(inputs: list[SSAValue], output: SSAValue, maps: list[AffineMapAttr], iterators: list[str],
                  compute, grid: tuple[int, ...] = (1, 1)) -> d2m.GenericOp:
    """A unified-thread generic on `grid`: the region loads each input's block at the block indices its map
    names, `compute(ops, loaded, local_out, maps)` gives the result block, which is stored into the output."""
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
        at = [_block_index(ops, index, r) for r in amap.data.results]
        load = d2m.RemoteLoadOp.create(operands=[empty.tensor, value, *at], result_types=[empty.tensor.type],
                                       properties={"operandSegmentSizes": DenseArrayBase.from_list(
                                           i32, [1, 1, len(at), 0, 0, 0, 0])})
        ops += [empty, load]
        loaded.append(load.result)
    out_local = TensorEmptyOp([], local(output.type))
    ops.append(out_local)
    result = compute(ops, loaded, out_local.tensor, maps)
    at = [_block_index(ops, index, r) for r in maps[-1].data.results]
    store = d2m.RemoteStoreOp.create(operands=[output, *at, result], result_types=[output.type],
                                     properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, len(at), 1, 0])})
    ops += [store, d2m.YieldOp.create(operands=[store.result])]
    attrs = {"block_factors": ArrayAttr([IntegerAttr(1, i64)] * dims), "grid": ttcore.GridAttr(ttcore.Grid(grid)),
             "indexing_maps": ArrayAttr(maps), "iterator_types": ArrayAttr([_parallel(k) for k in iterators]),
             "threads": ArrayAttr([d2m.ThreadAttr.get("unified")])}
    return d2m.GenericOp.create(operands=[*inputs, output], result_types=[output.type], attributes=attrs,
                                regions=[Region(Block(ops))], properties={
                                    "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(inputs), 1, 0])})


def _reduction(tile_op: str, dim: str):
    """A linalg.generic reducing each loaded tile (scaled by the scaler tile, when the reduction takes one) into the
    output's tile of its row (dim "R": along a row), column ("C") or matrix ("RC")."""

    def compute(ops: list[Operation], loaded: list[SSAValue], out: SSAValue, maps: list[AffineMapAttr]) -> SSAValue:
        tile = out.type.element_type
        body = Block(arg_types=[tile] * (len(loaded) + 1))
        op = REDUCE_CLASSES[tile_op].create(operands=list(body.args), result_types=[tile],
                                                 properties={"reduce_dim": d2m.ReduceDimAttr(dim)})
        body.add_ops([op, LinalgYieldOp(op.results[0])])
        parallel, reduction = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
        kinds = {"R": [parallel, reduction], "C": [reduction, parallel], "RC": [reduction, reduction]}[dim]
        generic = LinalgGenericOp(loaded, [out], Region(body), maps, kinds, [out.type])
        ops.append(generic)
        return generic.res[0]

    return compute


def _fill(value: float | int):
    """A linalg.generic writing a tile of `value` into every tile of the block."""

    def compute(ops: list[Operation], loaded: list[SSAValue], out: SSAValue, maps: list[AffineMapAttr]) -> SSAValue:
        tile = out.type.element_type
        body = Block(arg_types=[tile])
        if tile.dtype == "si32":
            constant = arith.ConstantOp(IntegerAttr(int(value), i32))
        else:
            constant = arith.ConstantOp(FloatAttr(value, Float32Type() if tile.dtype == "f32" else BFloat16Type()))
        fill = d2m.TileFillOp.create(operands=[constant.result], result_types=[tile])
        body.add_ops([constant, fill, LinalgYieldOp(fill.result)])
        generic = LinalgGenericOp([], [out], Region(body), [AffineMapAttr(AffineMap.identity(2))],
                                  [IteratorTypeAttr.parallel()] * 2, [out.type])
        ops.append(generic)
        return generic.res[0]

    return compute


def _matmul(ops: list[Operation], loaded: list[SSAValue], out: SSAValue, maps: list[AffineMapAttr]) -> SSAValue:
    """A linalg.generic accumulating `d2m.tile_matmul` of A's and B's tiles into the output's, over (M, N, K)."""
    tile = out.type.element_type
    body = Block(arg_types=[*(v.type.element_type for v in loaded), tile])
    op = d2m.TILE_OP_CLASSES["tile_matmul"].create(operands=list(body.args), result_types=[tile])
    body.add_ops([op, LinalgYieldOp(op.results[0])])
    kinds = [IteratorTypeAttr.parallel(), IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()]
    generic = LinalgGenericOp(loaded, [out], Region(body), maps, kinds, [out.type])
    ops.append(generic)
    return generic.res[0]


def check_memspaces(op: Operation, inputs: str, outputs: str) -> None:
    """default-input-memspace and default-output-memspace name L1 or DRAM."""
    for option, value in (("default-input-memspace", inputs), ("default-output-memspace", outputs)):
        if value not in ("l1", "dram"):
            raise PassFailure(op, f"{option} is l1 or dram, not '{value}'")


def _broadcast_map(source: TensorType, result: TensorType, op: Operation) -> AffineMapAttr:
    """How an elementwise operand is read: its own blocks, or (broadcast along a matrix's rows, columns or both,
    or along the last dim of each matrix) the one block row or column it has, for every block of the result."""
    s, r = source.get_shape(), result.get_shape()
    if s == r:  # the same tensor's blocks, wherever each is held and whatever its element type
        return _map(2, 0, 1)
    if len(s) == len(r) < 2:  # vectors as one row
        s, r = matrix_dims(s), matrix_dims(r)
    if len(s) != len(r) or len(r) < 2 or \
            (math.prod(r[:-2]) != 1 and s[:-1] != r[:-1]):
        raise PassFailure(op, f"'{op.name}' broadcasts beyond a matrix's rows and columns ({source} -> "
                              f"{result}); that is not converted to D2M yet")
    rows, cols = s[-2] == 1 and r[-2] != 1, s[-1] == 1 and r[-1] != 1
    if (not rows and s[-2] != r[-2]) or (not cols and s[-1] != r[-1]):
        raise PassFailure(op, f"'{op.name}': {source} does not broadcast to {result}")
    return _map(2, None if rows else 0, None if cols else 1)


def _reduced_dim(op: TTOp) -> tuple[str, float]:
    """The tile dims a reduction folds ("R": along a row, the last dim; "C": the second-to-last of a matrix; "RC":
    both of a matrix's) and the scaler its result is multiplied by (1/N for a mean of N elements)."""
    shape = op.operands[0].type.get_shape()
    dims, keep = op.properties.get("dim_arg"), op.properties.get("keep_dim")
    # a dim of size 1 keeps its one element: folding it changes nothing the kept dim shows
    folded = sorted({d.value.data % len(shape) for d in dims.data} if dims is not None and shape else set())
    folded = [d for d in folded if shape[d] != 1] or folded[-1:]
    if len(shape) < 2 or len(folded) not in (1, 2):
        raise PassFailure(op, "only reductions over one dim or a matrix's two of a tensor of rank >= 2 are converted "
                              "to D2M yet")
    if keep is None or not keep.value.data:
        raise PassFailure(op, "only reductions with keep_dim = true are converted to D2M yet")
    last, matrix = len(shape) - 1, math.prod(shape[:-2]) == 1
    reduced = {(last,): "R", (last - 1,): "C" if matrix else None, (last - 1, last): "RC" if matrix else None}.get(
        tuple(folded))
    if reduced is None:
        raise PassFailure(op, "only reductions over a matrix's last two dims are converted to D2M yet")
    return reduced, 1 / math.prod(shape[d] for d in folded) if op.name == "ttir.mean" else 1.0


def _decomposed_min(op: TTOp) -> list[TTOp]:
    """A min over a tensor's dims as the max of an order-reversing involution, inverted back (there is no tile min
    reduction): -max(-x) for floats, ~max(~x) for integers (negation overflows at INT_MIN; ~INT_MIN is INT_MAX). The
    three TTIR ops replacing it, where it was."""
    (value,) = op.operands
    inverse = INVERSE.get(value.type.element_type)
    if inverse is None:
        raise PassFailure(op, f"a min of {value.type.element_type} is not converted to D2M yet (of f32, bf16 and "
                              f"32-bit integers is)")
    result = op.results[0]
    inverted = TTIR_OP_CLASSES[inverse].create(operands=[value], result_types=[value.type])
    reduced = TTIR_OP_CLASSES["max"].create(operands=[inverted.results[0]], result_types=[result.type],
                                            properties=dict(op.properties))
    back = TTIR_OP_CLASSES[inverse].create(operands=[reduced.results[0]], result_types=[result.type])
    made = [inverted, reduced, back]
    derive(made, op)
    op.parent_block().insert_ops_before(made, op)
    result.replace_all_uses_with(back.results[0])
    op.detach()
    op.erase()
    return made


def fill_generic(value: float | int, output: SSAValue, grid: tuple[int, int] = (1, 1)) -> d2m.GenericOp:
    """A generic on `grid` filling device tensor `output` with `value`."""
    return build_generic([], output, [_map(2, 0, 1)], ["parallel"] * 2, _fill(value), grid)


def _with_scalars(op: Operation, element: Attribute):
    """The compute of an op whose tile op takes its scalar attributes (clamp_scalar's bounds, selu's scale and alpha),
    as upstream forwards them, or scalars of fixed values (relu6's bounds): each as the tiles hold it (f32 for float
    tiles, i32 for integer ones); None for other ops."""
    if op.ROW.name in FIXED_SCALARS:
        tile_op, values = FIXED_SCALARS[op.ROW.name]
    else:
        tile_op = TILE_OF.get(op.ROW.name)
        names = d2m.TILE_OP_PROPERTIES.get(tile_op)
        if names is None:
            return None
        values = {name: scalar(op.prop(name)) for name in names}
    integer = isinstance(element, IntegerType)
    return _elementwise(tile_op, 1, **{name: IntegerAttr(int(v), i32) if integer else FloatAttr(float(v), f32)
                                       for name, v in values.items()})


def _scaler(scale: float, element: Attribute) -> tuple[list[Operation], SSAValue]:
    """A reduction's scaler: one tile of `scale` on the device, made by a generic filling it."""
    empty = d2m.EmptyOp.create(result_types=[metal_type((TILE, TILE), element, "l1")])
    generic = fill_generic(scale, empty.result)
    return [empty, generic], generic.results[0]


def _matmul_maps(op: TTOp) -> tuple[AffineMapAttr, AffineMapAttr]:
    """A's and B's maps of a 2-d matmul (a dot_general that is one): B read transposed when given so."""
    a, b = (v.type.get_shape() for v in op.operands[:2])
    if op.name == "ttir.dot_general":  # a matrix product when nothing is batched: A's dim 1 against B's 0 or 1
        dims = {name: tuple(op.properties[name].get_values()) for name in
                ("batch_dims_lhs", "batch_dims_rhs", "contract_dims_lhs", "contract_dims_rhs")}
        if dims["batch_dims_lhs"] or dims["batch_dims_rhs"] or len(a) != 2 or len(b) != 2 or \
                dims["contract_dims_lhs"] != (1,) or dims["contract_dims_rhs"] not in ((0,), (1,)):
            raise PassFailure(op, "only dot_generals that are 2-d matmuls (no batch dims, A's dim 1 contracted) "
                                  "are converted to D2M yet")
        transpose_a, transpose_b = False, dims["contract_dims_rhs"] == (1,)
    else:
        transpose_a, transpose_b = (t in op.properties and bool(scalar(op.properties[t]))
                                    for t in ("transpose_a", "transpose_b"))
    if len(a) != 2 or len(b) != 2 or transpose_a:
        raise PassFailure(op, "only 2-d matmuls without a transposed A are converted to D2M yet")
    if len({str(v.type.element_type) for v in (*op.operands[:2], op.results[0])}) != 1:
        raise PassFailure(op, "a matmul mixing element types is not converted to D2M yet")
    return _map(3, 0, 2), _map(3, 1, 2) if transpose_b else _map(3, 2, 1)


def scaler_of(values: list[SSAValue]) -> SSAValue | None:
    """A reduction's scaler among a generic's inputs: the one already on the device."""
    return next((v for v in values if isinstance(v.type.encoding, ttcore.MetalLayoutAttr)), None)


def _operand_grid(amap: AffineMapAttr, out_map: AffineMapAttr, grid: tuple[int, ...]) -> tuple[int, ...]:
    """The grid an operand read through `amap` is on when its generic's output (written through `out_map`) is on
    `grid`: each dim along one of the output's, whole along any other."""
    spread = {r.position: g for r, g in zip(out_map.data.results, grid) if isinstance(r, AffineDimExpr)}
    return tuple(spread.get(r.position, 1) if isinstance(r, AffineDimExpr) else 1 for r in amap.data.results)


def _ttnn_metal(value: SSAValue, device: tuple[int, int], op: Operation) -> TTNNMetalLayoutCastOp:
    """A TTNN tensor seen as a metal-layout one where its layout holds it: interleaved in DRAM (computed on the
    largest grid dividing its tiles), or its L1 shards on the cores the layout names (a virtual grid mapping when
    they do not start at core 0,0 or a height- or width-sharded grid is folded onto them)."""
    t = value.type
    encoding = t.encoding
    if not isinstance(encoding, ttnn.TTNNLayoutAttr) or not encoding.is_tiled:
        raise PassFailure(op, f"an operand of type {t} is not a tiled TTNN tensor; ttnn-mode converts those")
    dims = (1,) * max(0, 2 - len(t.get_shape())) + tuple(t.get_shape())
    tiles = (math.prod(dims[:-2]) * -(-dims[-2] // TILE), -(-dims[-1] // TILE))
    memory, memory_layout = encoding.buffer_type, getattr(encoding.memory_layout, "data", None)
    origin, fold = (0, 0), None
    if memory == "dram":
        grid = grid_for(tiles, device)
    elif memory == "l1" and memory_layout is not None and memory_layout.value != "interleaved":
        origin, grid, fold = encoding.shard_grid()
        if tiles[0] % grid[0] or tiles[1] % grid[1]:
            raise PassFailure(op, f"the L1 shards of {t} do not tile its {tiles[0]}x{tiles[1]} tiles")
    else:
        raise PassFailure(op, f"a TTNN tensor in {memory.upper()} {memory_layout or ''} is not converted in ttnn-mode "
                              "yet (DRAM-interleaved and L1-sharded tensors are)")
    properties = {}
    if origin != (0, 0) or fold is not None:
        layout = ShardLayout(grid, (tiles[0] // grid[0], tiles[1] // grid[1]), _dtype(t.element_type), 0, "l1", origin,
                             fold)
        properties = dict(zip(("virtual_grid_forward_mapping", "virtual_grid_inverse_mapping"), grid_maps(layout)))
    return TTNNMetalLayoutCastOp.create(operands=[value], properties=properties, result_types=[
        metal_type(t.get_shape(), t.element_type, memory, grid)])


@dataclass(frozen=True)
class TTIRToD2MPass(ModulePass):
    """TTIR ops to D2M programs (see the module doc)."""

    name: ClassVar[str] = "ttir-to-d2m"
    default_input_memspace: str = "l1"
    default_output_memspace: str = "l1"
    ttnn_mode: bool = False
    collapse_tensors_2d: bool = True
    build_generic = staticmethod(build_generic)  # for the op families building their own programs (PROGRAMS)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_memspaces(op, self.default_input_memspace, self.default_output_memspace)
        device = (8, 8)
        if self.ttnn_mode:
            system = device_module_of(op).attributes.get("ttcore.system_desc")
            if not isinstance(system, ttcore.SystemDescAttr):
                raise PassFailure(op, "module has no ttcore.system_desc attribute (run --ttcore-register-device "
                                      "first)")
            device = tuple(system.data.chip(0)["grid"])
        fold_transposed_b(op)
        cast_mixed_operands(op, set(TILE_OF) - {"typecast"})
        for ttir_op in [o for o in op.walk() if isinstance(o, TTOp) and o.name.startswith("ttir.")]:
            if ttir_op.ROW.name in KEPT:
                continue
            name = ttir_op.ROW.name
            if name in MULTI_RESULT:  # ops of several results, each building its programs
                MULTI_RESULT[name](self, ttir_op, device)
                continue
            rewritten = REWRITTEN[name](ttir_op) if name in REWRITTEN else WINDOWED[name](self, ttir_op) \
                if name in WINDOWED else [ttir_op]
            produced = [q for p in rewritten for q in (_decomposed_min(p) if p.name == "ttir.min" else [p])]
            for each in (t for p in produced  # lazily: each op's TMs rewritten once those before it are converted
                         for t in ([p] if self.ttnn_mode else decompose_tms(p, p.ROW.name in ELEMENTWISE))):
                self.convert(each, device)
        for moved in [o for o in op.walk() if isinstance(o, TTOp) and o.name == "ttir.to_layout"]:
            source, target = moved.operands[:2]
            if self.ttnn_mode and isinstance(getattr(source.type, "encoding", None), (ttcore.MetalLayoutAttr,
                                                                                     ttnn.TTNNLayoutAttr)) and \
                    isinstance(getattr(target.type, "encoding", None), ttnn.TTNNLayoutAttr):
                self.move_into_ttnn(moved, device)
        for empty in [o for o in op.walk() if isinstance(o, TTOp) and o.name == "ttir.empty" and not o.results[0].uses]:
            empty.detach()
            empty.erase()

    def device_type(self, value: SSAValue, memory: str) -> TensorType:
        t = value.type
        if not self.collapse_tensors_2d and len(t.get_shape()) > 2:
            return ranked_metal_type(t.get_shape(), t.element_type, memory)
        return metal_type(t.get_shape(), t.element_type, memory)

    def memory_of(self, value: SSAValue, returned: bool) -> str:
        """Where a device tensor lives: a function's arguments and results where the memspace options say, what
        one op hands the next in L1."""
        if returned:
            return self.default_output_memspace
        return self.default_input_memspace if isinstance(value, BlockArgument) else "l1"

    def convert(self, op: TTOp, device: tuple[int, int]) -> None:
        name = op.ROW.name
        result = op.results[0] if len(op.results) == 1 else None
        if result is None or not isinstance(result.type, TensorType):
            raise PassFailure(op, f"'{op.name}' is not converted to D2M yet (ops of one tensor result are)")
        if not self.ttnn_mode and host_view(op):  # the host's view of its argument (`host_view.py`)
            return
        if name in PROGRAMS and (made := PROGRAMS[name](self, op, device)) is not None:
            new, host = made
            derive([inner for made in new for inner in made.walk()], op)
            op.parent_block().insert_ops_before(new, op)
            result.replace_all_uses_with(host)
            op.detach()
            op.erase()
            return
        tensors = [v for v in op.operands if isinstance(v.type, TensorType)]
        for value in (*tensors, result):
            if value.type.element_type not in ELEMENTS and not (
                    value.type.element_type == IntegerType(32, Signedness.UNSIGNED) and moves_bits(op, FAMILIES)):
                raise PassFailure(op, f"a tensor of {value.type.element_type} is not converted to D2M yet (f32, bf16 "
                                      "and si32 are)")
        new: list[Operation] = []
        if name in FILLS or name == "full":
            value = FILLS.get(name)
            if value is None:
                value = scalar(op.prop("fill_value"))
            compute, maps, iterators, ins = _fill(value), [_map(2, 0, 1)], ["parallel"] * 2, []
        elif name in ("matmul", "dot_general") and len(tensors) == 2:
            compute, ins = _matmul, tensors
            maps, iterators = [*_matmul_maps(op), _map(3, 0, 1)], ["parallel", "parallel", "reduction"]
        elif name in REDUCTIONS and len(tensors) == 1:
            dim, scale = _reduced_dim(op)
            element = result.type.element_type
            kept = {"R": _map(2, 0, None), "C": _map(2, None, 1), "RC": _map(2, None, None)}[dim]
            if isinstance(element, IntegerType):
                if name not in INTEGER_REDUCTIONS:
                    raise PassFailure(op, f"a {name} of {element} is not converted to D2M yet (of f32 and bf16 is)")
                compute, ins, maps = _reduction(INTEGER_REDUCTIONS[name], dim), tensors, [_map(2, 0, 1), kept]
            else:
                new, scaler = _scaler(scale, element)
                compute, ins = _reduction(REDUCTIONS[name], dim), [*tensors, scaler]
                maps = [_map(2, 0, 1), _map(2, None, None), kept]
            iterators = {"R": ["parallel", "reduction"], "C": ["reduction", "parallel"], "RC": ["reduction"] * 2}[dim]
        elif name == "transpose" and len(tensors) == 1:
            shape = tensors[0].type.get_shape()
            dims = sorted(scalar(op.prop(d)) % len(shape) for d in ("dim0", "dim1"))
            if len(shape) < 2 or dims != [len(shape) - 2, len(shape) - 1]:
                raise PassFailure(op, "only transposes of a matrix's two dims are converted to D2M yet")
            compute, maps, iterators, ins = transpose(op, tensors)
        elif name == "typecast" and len(tensors) == 1:
            compute, ins = _elementwise("tile_typecast", 1), tensors
            maps, iterators = [_map(2, 0, 1)] * 2, ["parallel"] * 2
        elif name in FAMILIES:
            compute, maps, iterators, ins = FAMILIES[name](op, tensors)
        elif (name in ELEMENTWISE and len(tensors) == ELEMENTWISE[name][1]) or \
                (name in FIXED_SCALARS and len(tensors) == 1):
            compute = integer_comparison(name, tensors) or _with_scalars(op, result.type.element_type) or \
                ELEMENTWISE[name][0]
            ins = [tensors[i] for i in COMPOSITE_USES.get(name, range(len(tensors)))]
            maps = [_broadcast_map(v.type, result.type, op) for v in ins] + [_map(2, 0, 1)]
            iterators = ["parallel"] * 2
        else:
            raise PassFailure(op, f"'{op.name}' is not converted to D2M yet (elementwise ops, reductions, transposes, "
                                  "typecasts, 2-d matmuls and full/zeros/ones are)")
        returned = any(isinstance(use.operation, ReturnOp) for use in result.uses)
        ranked = not self.collapse_tensors_2d and len(result.type.get_shape()) > 2
        if ranked:  # kept at its rank: elementwise ops on operands of the result's shape
            rank = len(result.type.get_shape())
            if compute is _matmul or scaler_of(ins) is not None or any(m != _map(2, 0, 1) for m in maps) or \
                    any(v.type.get_shape() != result.type.get_shape() for v in ins):
                raise PassFailure(op, f"'{op.name}' on tensors kept above two dims (collapse-tensors-2d=false) is not "
                                      "converted to D2M yet (elementwise ops on operands of one shape are)")
            maps, iterators = [_map(rank, *range(rank))] * len(maps), ["parallel"] * rank
        device_ins = []
        ttnn_out = self.ttnn_mode and isinstance(result.type.encoding, ttnn.TTNNLayoutAttr)
        if ttnn_out:  # a new TTNN tensor the program writes, seen as a metal one on the cores TTNN puts it
            made = d2m.EmptyOp.create(result_types=[result.type])
            new.append(made)
            out_cast = _ttnn_metal(made.result, device, op)
            grid = tuple(out_cast.results[0].type.get_shape()[:2])
        else:
            grid = (1,) * len(iterators)
        for value, amap in zip(ins, maps):
            if isinstance(value.type.encoding, ttcore.MetalLayoutAttr):  # made on the device (a scaler, a bound)
                device_ins.append(value)
            elif self.ttnn_mode:  # a TTNN tensor, seen where TTNN holds it and viewed on the program's grid
                new.append(_ttnn_metal(value, device, op))
                new.append(reblock_view(new[-1].results[0], _operand_grid(amap, maps[-1], grid)))
                device_ins.append(new[-1].result)
            else:
                target = d2m.EmptyOp.create(result_types=[self.device_type(value, self.memory_of(value, False))])
                moved = d2m.ToLayoutOp.create(operands=[value, target.result], result_types=[target.result.type])
                if compute is _matmul:  # K's padding zeroed: a computed operand's holds its op's value of 0
                    mask = masked(moved.result, "zero", list(amap.data.results).index(AffineExpr.dimension(2)) - 2)
                else:
                    mask = masked(moved.result, REDUCTION_FILLS.get(name),
                                  *{"C": (-2,), "RC": (-2, -1)}.get(dim if name in REDUCTIONS else "R", (-1,)))
                new += [target, moved, *mask]
                device_ins.append(new[-1].results[0])
        if self.ttnn_mode and not isinstance(result.type.encoding, ttnn.TTNNLayoutAttr):
            # a result TTNN does not hold: an L1 tensor of the program's, on the grid grid selection gives it; the
            # ttir.to_layout that follows moves it into a TTNN tensor
            out = d2m.EmptyOp.create(result_types=[metal_type(result.type.get_shape(), result.type.element_type, "l1")])
            generic = build_generic(device_ins, out.result, maps, iterators, compute, grid)
            new += [out, generic]
            back = generic
        elif ttnn_out:  # the result seen as TTNN's again
            view = reblock_view(out_cast.results[0], grid)
            generic = build_generic(device_ins, view.result, maps, iterators, compute, grid)
            back = TTNNMetalLayoutCastOp.create(operands=[generic.results[0]], result_types=[result.type])
            new += [out_cast, view, generic, back]
        else:
            out = d2m.EmptyOp.create(result_types=[self.device_type(result, self.memory_of(result, returned))])
            generic = build_generic(device_ins, out.result, maps, iterators, compute, (1,) * len(iterators))
            host = d2m.EmptyOp.create(result_types=[result.type])
            back = d2m.ToLayoutOp.create(operands=[generic.results[0], host.result], result_types=[result.type])
            new += [out, generic, host, back]
        derive([inner for made in new for inner in made.walk()], op)
        op.parent_block().insert_ops_before(new, op)
        result.replace_all_uses_with(back.results[0])
        op.detach()
        op.erase()

    @staticmethod
    def move_into_ttnn(to_layout: TTOp, device: tuple[int, int]) -> None:
        """`ttir.to_layout` of a device tensor (a program's, or a TTNN one seen as a metal one) into a TTNN one
        (ttnn-mode): a `d2m.to_layout` into the TTNN tensor seen as a metal one, the result seen as TTNN's again."""
        source, target = to_layout.operands[:2]
        new: list[Operation] = []
        if isinstance(source.type.encoding, ttnn.TTNNLayoutAttr):
            if isinstance(source.owner, TTNNMetalLayoutCastOp):  # a program's result: moved from where it is
                source = source.owner.operands[0]
            else:
                new.append(_ttnn_metal(source, device, to_layout))
                source = new[-1].results[0]
        made = d2m.EmptyOp.create(result_types=[target.type])
        cast = _ttnn_metal(made.result, device, to_layout)
        moved = d2m.ToLayoutOp.create(operands=[source, cast.results[0]], result_types=[cast.results[0].type])
        back = TTNNMetalLayoutCastOp.create(operands=[moved.results[0]], result_types=[to_layout.results[0].type])
        new += [made, cast, moved, back]
        derive(new, to_layout)
        to_layout.parent_block().insert_ops_before(new, to_layout)
        to_layout.results[0].replace_all_uses_with(back.results[0])
        to_layout.detach()
        to_layout.erase()
