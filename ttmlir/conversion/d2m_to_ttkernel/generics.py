"""What a unified-thread `d2m.generic` computes, read off its region and indexing maps, for the Metal conversion to
launch: the tile ops of its `linalg.generic` as a tree over the loaded operand blocks (elementwise ops, a fused graph
of them, a transpose or a typecast), a tile reduction with its scaler, or a block matmul; and how each operand's
reader fetches its tiles (its own shard, or each output tile's source tile, as its map reads it: transposed, or
broadcast along a matrix's rows or columns)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from xdsl.dialects import arith
from xdsl.ir import Block, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_tile_reduce import TileReduceOp
from ttmlir.dialects.d2m_tile_bcast import TileBcastOp
from ttmlir.dialects.d2m_mask_tiles import TileWhereOp
from ttmlir.dialects.d2m_tile_extra import EXTRA_TILE_OPS
from ttmlir.errors import PassFailure
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import (SCALAR_RHS, SFPU_BINARY, SFPU_PARAMETRIZED, SFPU_TERNARY,
                                                              SFPU_UNARY, SWAPPED, SfpuCall)

# a tile reduction's dims as the kernels name them: along rows, along columns, or both (to one value)
REDUCE_DIMS = {"R": "row", "C": "col", "RC": "scalar"}
REDUCED = {"d2m.tile_reduce_sum": "sum", "d2m.tile_reduce_mean": "mean", "d2m.tile_reduce_max": "max",
           "d2m.tile_sfpu_reduce_sum": "sum", "d2m.tile_sfpu_reduce_max": "max"}
DATA_MOVES = ("transpose", "typecast")  # one-operand tile ops the compute kernel does in dst


@dataclass
class GenericPlan:
    """`kind`: the op (a TTIR family name), a tree `(family, [children], order)` of fused ops over leaf indices
    (`order`: the op's place in the body), or one leaf index (a copy of that operand through its gather);
    `sources`: the device tensors of the leaves; `gathers`: per leaf, how its reader fetches it (None: its own
    shard; "transpose", "row", "col" or "scalar"). A reduction also names its tile dim ("row": along a row, "col", "scalar": both) and its
    scaler tensor (and, elementwise ops fused into it, its `prologue`: their tree over the sources); a matmul
    whether B is read transposed."""

    kind: str | tuple
    sources: list[SSAValue]
    gathers: list[str | None]
    reduce_dim: str = ""
    scaler: SSAValue | None = None
    transpose_b: bool = False
    prologue: tuple | None = None


def fills_of(generic: d2m.GenericOp) -> list[d2m.TileFillOp]:
    """The tile fills of a generic's region (a generic filling its output with a constant has one)."""
    return [op for op in generic.region.walk() if isinstance(op, d2m.TileFillOp)] if generic.regions else []


def fill_value(generic: d2m.GenericOp) -> float | int:
    """The constant a generic fills its output with."""
    fills = fills_of(generic)
    constant = fills[0].value.owner if fills else None
    if len(fills) != 1 or not isinstance(constant, arith.ConstantOp) or generic.inputs:
        raise PassFailure(generic, "only generics filling their output with one constant are lowered to TTMetal")
    return constant.value.value.data


def _gather(amap: AffineMap) -> str | None:
    """How an operand map reads its operand for each output tile."""
    if amap == AffineMap.identity(amap.num_dims):
        return None
    results = amap.results
    dims = [r.position if isinstance(r, AffineDimExpr) else None for r in results]
    if not all(isinstance(r, (AffineDimExpr, AffineConstantExpr)) for r in results) or len(dims) != 2:
        return "unsupported"
    return {(0, 1): None, (1, 0): "transpose", (None, 1): "row", (0, None): "col", (None, None): "scalar"}.get(
        tuple(dims), "unsupported")


def _tree(value: SSAValue, body: Block, gathers: list[str | None], generic: d2m.GenericOp) -> tuple | int:
    """The tree `(family, [children], order)` of the tile ops of a linalg.generic's `body` computing `value` over its
    input arguments (leaves: their indices, each read as `gathers` says); what the kernels do not compute is refused
    naming it."""
    args = list(body.args[:len(gathers)])
    positions = {op: n for n, op in enumerate(body.ops)}

    def tree(value: SSAValue) -> tuple | int:
        if value in args:
            return args.index(value)
        op = value.owner
        if isinstance(op, TileBcastOp):  # the spread within each tile its reader's broadcast gather already does
            leaf = tree(op.input)
            if not isinstance(leaf, int) or gathers[leaf] != op.bcast_type.data:
                raise PassFailure(op, f"a 'd2m.tile_bcast' of type {op.bcast_type.data} other than the broadcast its "
                                      "operand's indexing map reads is not lowered to TTMetal yet")
            return leaf
        if not isinstance(op, (d2m.TileOp, TileWhereOp, *EXTRA_TILE_OPS)):
            raise PassFailure(generic, f"'{op.name}' in a generic is not lowered to TTMetal yet")
        family = "where" if isinstance(op, TileWhereOp) else d2m.TILE_OPS[op.name.removeprefix("d2m.")][0] \
            if isinstance(op, d2m.TileOp) else op.name.removeprefix("d2m.tile_")  # a comparison with zero: its own
        if op.name.removeprefix("d2m.") in SFPU_PARAMETRIZED:  # its call, the op's scalars its parameters
            family = SfpuCall.of(op)
        if len(op.operands) == 2 and not isinstance(op.operands[1].type, ttcore.TileType):  # a tile and a scalar
            if op.name.removeprefix("d2m.") not in SCALAR_RHS:
                raise PassFailure(op, f"'{op.name}' of a tile and a scalar is not lowered to TTMetal yet")
            return SfpuCall.with_scalar(op, op.operands[0].type), [tree(op.operands[0])], positions[op]
        children = [tree(v) for v in op.operands]
        if family in SWAPPED:
            family, children = SWAPPED[family], children[::-1]
        if family not in SFPU_UNARY and family not in SFPU_BINARY and family not in SFPU_TERNARY and \
                family not in DATA_MOVES and not isinstance(family, SfpuCall):
            raise PassFailure(op, f"'{op.name}' is not lowered to TTMetal yet")
        return family, children, positions[op]

    return tree(value)


def _reduction_plan(reduce: TileReduceOp, loads: dict) -> GenericPlan:
    """The plan of a generic reducing tiles: of one operand, or (elementwise ops fused into it) of those ops' result
    over its operands (its prologue), each streamed in once, as it is."""
    linalg_op = reduce.parent_op()
    body = linalg_op.body.block
    sources = [loads[v].source for v in linalg_op.inputs]
    args = list(body.args[:len(sources)])
    # (tile, scaler, accumulator); an SFPU (integer) reduction takes no scaler
    scaler = sources[args.index(reduce.operands[1])] if len(reduce.operands) == 3 else None
    plan = partial(GenericPlan, REDUCED[reduce.name], reduce_dim=REDUCE_DIMS[reduce.reduce_dim.data], scaler=scaler)
    if reduce.operands[0] in args:
        return plan([sources[args.index(reduce.operands[0])]], [None])
    gathers = [_gather(m.data) for m in list(linalg_op.indexing_maps.data)[:len(args)]]
    prologue = _tree(reduce.operands[0], body, gathers, linalg_op.parent_op())
    leaves = _leaves(prologue)
    if any(gathers[i] for i in leaves) or any(family in DATA_MOVES for family in _families(prologue)):
        raise PassFailure(reduce, f"'{reduce.name}' of tile ops fused into it reading a broadcast or a transpose, or "
                                  "typecasting, is not lowered to TTMetal yet")
    streamed = list(dict.fromkeys(sources[i] for i in leaves))  # a tensor loaded twice streams in once
    return plan(streamed, [None] * len(streamed),
                prologue=_relabel(prologue, lambda i: streamed.index(sources[i])))


def _leaves(tree) -> list[int]:
    return [tree] if isinstance(tree, int) else [leaf for child in tree[1] for leaf in _leaves(child)]


def _families(tree) -> list:
    return [] if isinstance(tree, int) else [tree[0], *(f for child in tree[1] for f in _families(child))]


def _relabel(tree, leaf):
    """`tree` with each leaf i as `leaf(i)`."""
    return leaf(tree) if isinstance(tree, int) else (tree[0], [_relabel(child, leaf) for child in tree[1]], tree[2])


def plan_generic(generic: d2m.GenericOp) -> GenericPlan:
    """The plan of a generic computing one tile op, a fused graph of elementwise tile ops, a reduction or a block
    matmul, each input a whole block it remote_loads; anything else is refused naming it."""
    loads = {op.result: op for op in generic.region.walk() if isinstance(op, d2m.RemoteLoadOp)}
    for load in loads.values():
        shape = load.source.type.get_shape()
        if load.local.type.get_shape() != shape[len(shape) // 2:]:
            raise PassFailure(generic, "each input of a generic lowered to TTMetal is a whole shard it remote_loads")
    reductions = [op for op in generic.region.walk() if isinstance(op, TileReduceOp)]
    tile_ops = [op for op in generic.region.walk() if isinstance(op, d2m.TileOp)]
    if reductions:
        (reduce,) = reductions
        return _reduction_plan(reduce, loads)
    if len(tile_ops) == 1 and tile_ops[0].name in ("d2m.tile_matmul_block", "d2m.tile_matmul"):
        maps = [m.data for m in generic.attributes["indexing_maps"].data]
        b_dims = tuple(r.position for r in maps[1].results)
        blocks = tile_ops[0].operands[:2]
        if tile_ops[0].name == "d2m.tile_matmul":  # on tiles, in a linalg.generic over the loaded blocks
            blocks = tile_ops[0].parent_op().inputs
        return GenericPlan("matmul", [loads[v].source for v in blocks], [None, None], transpose_b=b_dims == (1, 2))
    linalgs = [op for op in generic.region.walk() if op.name == "linalg.generic"]  # one: a copy through its map
    linalg_op = tile_ops[0].parent_op() if tile_ops else linalgs[0] if len(linalgs) == 1 else None
    if linalg_op is None or linalg_op.name != "linalg.generic":
        raise PassFailure(generic, "only generics computing tile ops in a linalg.generic, filling tiles or copying a "
                                   "block are lowered to TTMetal yet")
    body = linalg_op.body.block
    gathers = [_gather(m.data) for m in list(linalg_op.indexing_maps.data)[:len(linalg_op.inputs)]]
    kind = _tree(body.last_op.operands[0], body, gathers, generic)
    sources = [loads[v].source for v in linalg_op.inputs]
    if "unsupported" in gathers:
        raise PassFailure(generic, "a generic reading an operand through a map other than the identity, a transpose "
                                   "or a broadcast is not lowered to TTMetal yet")
    if isinstance(kind, tuple) and all(isinstance(c, int) for c in kind[1]):  # one op on its operands as they are
        order = kind[1]
        return GenericPlan(kind[0], [sources[i] for i in order], [gathers[i] for i in order])
    return GenericPlan(kind, sources, gathers)
