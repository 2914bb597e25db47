"""A batched matmul (`ttir.matmul` of operands above two dims, or a `ttir.dot_general` whose batch dims lead both
operands and which contracts A's last dim with B's second-to-last or, B given transposed, its last) as a D2M program.

On the device every operand's batch folds into tile rows (each matrix padded to whole tiles), so the region's
`linalg.generic` of `d2m.tile_matmul` over the loaded blocks loops over (r, n, k), r the output's folded tile rows, B
read in the rows of r's batch (see `_maps`), or, when B is one matrix for the whole batch (a matrix, or a batch of
ones), as a 2-d matmul's B (that generic is a 2-d matmul over A's folded rows). An operand whose batch dims broadcast
(numpy's rule, a dim of 1 or one it lacks) reads the matrix its own batch index names for r's (`_batch_of`): nothing
is copied. The generic itself is in explicit form (no maps: theirs would not block the operands' grids). A and B
are moved to DRAM (any of their tiles is read by any core); the output is placed on the largest grid dividing its
tiles (grid selection keeps a generic placed already), each core computing its tiles from the operand tiles it reads
(`convert-d2m-to-ttkernel`)."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp as LinalgGenericOp, YieldOp as LinalgYieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from ttmlir.conversion.ttir_to_d2m.tiles import TILE, masked, metal_type
from ttmlir.dialects import d2m
from ttmlir.errors import PassFailure
from ttmlir.ir.props import KINDS, scalar
from ttmlir.ir.tt_op import TTOp
from ttmlir.transforms.d2m.d2m_grid_selection import grid_for

ITERATORS = ["parallel", "parallel", "reduction"]
SWAPPED_B = {"ttir.matmul", "ttir.dot_general"}  # (r, n, k): the output's folded tile rows, columns, K


def _tiles(n: int) -> int:
    return -(-n // TILE)


def shared_b(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Whether B is one matrix every matrix of a batched A is multiplied by (B without a batch, or of ones)."""
    return len(a) > 2 and math.prod(b[:-2]) == 1 and len(b) <= len(a)


def batched_form(op: TTOp) -> bool | None:
    """Whether B is read transposed in a batched matmul `op`; None when `op` is not one this file converts (a 2-d
    matmul, converted as before)."""
    a, b = (tuple(v.type.get_shape()) for v in op.operands[:2])
    if len(a) <= 2 and len(b) <= 2:
        return None
    if op.name == "ttir.dot_general":
        dims = {name: tuple(op.properties[name].get_values()) for name in
                ("batch_dims_lhs", "batch_dims_rhs", "contract_dims_lhs", "contract_dims_rhs")}
        batch = tuple(range(len(a) - 2))
        if len(a) != len(b) or dims["batch_dims_lhs"] != batch or dims["batch_dims_rhs"] != batch or \
                dims["contract_dims_lhs"] != (len(a) - 1,) or \
                dims["contract_dims_rhs"] not in ((len(b) - 2,), (len(b) - 1,)):
            raise PassFailure(op, "only dot_generals whose batch dims lead both operands and which contract A's last "
                                  "dim are converted to D2M yet")
        return dims["contract_dims_rhs"] == (len(b) - 1,)
    if any(t in op.properties and bool(scalar(op.properties[t])) for t in ("transpose_a",)):
        raise PassFailure(op, "a batched matmul with a transposed A is not converted to D2M yet")
    if op.name == "ttir.matmul" and not _broadcasts(a[:-2], b[:-2]):
        raise PassFailure(op, f"batch dims {list(a[:-2])} and {list(b[:-2])} of a matmul do not broadcast")
    return "transpose_b" in op.properties and bool(scalar(op.properties["transpose_b"]))


def _broadcasts(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return all(x == y or 1 in (x, y) for x, y in zip(reversed(a), reversed(b)))


def _batch_of(batch: AffineExpr, result: tuple[int, ...], own: tuple[int, ...]) -> AffineExpr:
    """The index of the matrix an operand of batch dims `own` reads for the output's matrix `batch` (of batch dims
    `result`): the output's batch index in each dim the operand has (not 1), in the operand's row-major order."""
    own = (1,) * (len(result) - len(own)) + tuple(own)
    if own == tuple(result):
        return batch
    index, stride = AffineExpr.constant(0), 1
    for d in reversed(range(len(result))):
        if own[d] != 1:
            inner = math.prod(result[d + 1:])
            position = batch // inner if inner > 1 else batch
            index = index + (position % result[d] if d else position) * stride  # the outermost needs no modulo
        stride *= own[d]
    return index


def _maps(m_tiles: int, k_tiles: int, n_tiles: int, transpose_b: bool, shared: bool,
          batches: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]) -> list[AffineMapAttr]:
    """(r, n, k) over the output's folded tile rows r: A reads (r, k) (or, its batch broadcast, the rows of its
    matrix for r's batch); B the rows of r's batch (r floordiv Mt, as B's batch dims name it), or its one matrix
    when `shared`: (batch * Kt + k, n), or transposed (batch * Nt + n, k); the output (r, n). `batches`: the batch
    dims of A, B and the output."""
    r, n, k = (AffineExpr.dimension(i) for i in range(3))
    own_a, own_b, result = batches
    batch_a = _batch_of(r // m_tiles, result, own_a)
    rows_a = r if tuple(own_a) == tuple(result) else batch_a * m_tiles + r % m_tiles
    batch = AffineExpr.constant(0) if shared else _batch_of(r // m_tiles, result, own_b)
    rows_b = (batch * n_tiles + n, k) if transpose_b else (batch * k_tiles + k, n)
    return [AffineMapAttr(AffineMap(3, 0, results)) for results in ((rows_a, k), rows_b, (r, n))]


def _compute(ops: list[Operation], loaded: list[SSAValue], out: SSAValue, maps: list[AffineMapAttr]) -> SSAValue:
    """A linalg.generic accumulating `d2m.tile_matmul` of A's and B's tiles into the output's, over (b, m, n, k)."""
    tile = out.type.element_type
    body = Block(arg_types=[*(v.type.element_type for v in loaded), tile])
    matmul = d2m.TILE_OP_CLASSES["tile_matmul"].create(operands=list(body.args), result_types=[tile])
    body.add_ops([matmul, LinalgYieldOp(matmul.results[0])])
    kinds = [IteratorTypeAttr.parallel()] * 2 + [IteratorTypeAttr.reduction()]
    generic = LinalgGenericOp(loaded, [out], Region(body), maps, kinds, [out.type])
    ops.append(generic)
    return generic.res[0]


def batched_matmul(convert, op: TTOp, device: tuple[int, int]) -> tuple[list[Operation], SSAValue] | None:
    """The ops computing batched matmul `op` and the host tensor its result is moved back into (None for a 2-d
    matmul). `convert` is the pass (its memory spaces, its generic builder `build_generic`)."""
    transpose_b = batched_form(op)
    if transpose_b is None:
        return None
    if convert.ttnn_mode or not convert.collapse_tensors_2d:
        raise PassFailure(op, "a batched matmul is converted to D2M with its batch folded into rows (not in "
                              "ttnn-mode or with collapse-tensors-2d=false) yet")
    a, b = op.operands[:2]
    result = op.results[0]
    if len({str(v.type.element_type) for v in (a, b, result)}) != 1:
        raise PassFailure(op, "a matmul mixing element types is not converted to D2M yet")
    sa, sb = a.type.get_shape(), b.type.get_shape()
    shared = shared_b(tuple(sa), tuple(sb))
    # an A read for several of the output's matrices (its batch broadcast) is not split along the output's rows
    whole_a = tuple(sa[:-2]) != tuple(result.type.get_shape()[:-2])
    m_tiles, k_tiles = _tiles(sa[-2]), _tiles(sa[-1])
    n_tiles = _tiles(sb[-2] if transpose_b else sb[-1])
    shape, element = result.type.get_shape(), result.type.element_type
    grid = grid_for((math.prod(shape[:-2]) * m_tiles, n_tiles), device)
    new: list[Operation] = []
    ins = []
    # DRAM pages are read by any core; each operand's grid follows the output's where its map reads it by r or n
    grid_b = ((grid[1], 1) if shared else (1, 1)) if transpose_b else (1, grid[1])
    for value, grid_of in ((a, (1, 1) if whole_a else (grid[0], 1)), (b, grid_b)):
        target = d2m.EmptyOp.create(result_types=[metal_type(value.type.get_shape(), value.type.element_type,
                                                             "dram", grid_of)])
        moved = d2m.ToLayoutOp.create(operands=[value, target.result], result_types=[target.result.type])
        # K's padding zeroed (A's columns, B's rows or its columns given transposed): a computed operand's holds
        # its op's value of 0
        new += [target, moved, *masked(moved.results[0], "zero", -2 if value is b and not transpose_b else -1)]
        ins.append(new[-1].results[0])
    returned = any(use.operation.name == "func.return" for use in result.uses)
    memory = convert.memory_of(result, returned)
    out = d2m.EmptyOp.create(result_types=[metal_type(shape, element, memory, grid)])
    maps = _maps(m_tiles, k_tiles, n_tiles, transpose_b, shared, (tuple(sa[:-2]), tuple(sb[:-2]), tuple(shape[:-2])))
    generic = convert.build_generic(ins, out.result, maps, ITERATORS, _compute, grid)
    # explicit form (its region's linalg.generic holds the maps): the folded rows of the maps do not block the
    # operands' grids as a generic's maps would, so the generic keeps the grid given here. One B for all is read as
    # a 2-d matmul's B, A's folded rows as its rows: that generic keeps its maps.
    for name in () if shared else ("block_factors", "indexing_maps", "iterator_types"):
        generic.attributes[name] = ArrayAttr([])
    host = d2m.EmptyOp.create(result_types=[result.type])
    back = d2m.ToLayoutOp.create(operands=[generic.results[0], host.result], result_types=[result.type])
    return [*new, out, generic, host, back], back.results[0]


def fold_transposed_b(module: Operation) -> None:
    """A batched matmul whose B is a `ttir.permute` swapping its last two dims reads the permute's input
    transposed instead (its tiles transposed as the matmul reads them; the device has no batched transpose): the
    matmul's transpose_b flipped, or a dot_general contracting B's other matrix dim; the permute goes when nothing
    else reads it."""
    for op in [o for o in module.walk() if o.name in SWAPPED_B and len(o.operands) >= 2]:
        permute = op.operands[1].owner
        if not isinstance(permute, TTOp) or permute.name != "ttir.permute":
            continue
        rank = len(permute.operands[0].type.get_shape())
        order = [int(v) % rank for v in permute.prop("permutation").get_values()]
        if rank <= 2 or order != [*range(rank - 2), rank - 1, rank - 2]:
            continue
        if op.name == "ttir.dot_general":
            contract = tuple(op.properties["contract_dims_rhs"].get_values())
            if contract not in ((rank - 2,), (rank - 1,)):
                continue
            op.properties["contract_dims_rhs"] = KINDS["i64_darray"].build([2 * rank - 3 - contract[0]])
        else:
            flipped = not ("transpose_b" in op.properties and bool(scalar(op.properties["transpose_b"])))
            op.properties["transpose_b"] = KINDS["bool"].build(flipped)
        op.operands[1] = permute.operands[0]
        if not permute.results[0].uses:
            permute.detach()
            permute.erase()


BATCHED_MATMULS = {"matmul": batched_matmul, "dot_general": batched_matmul}
