"""`--d2m-insert-tile-matmul-block`: a tile_matmul loop nest (after DST access is inserted) becomes one
`d2m.tile_matmul_block(A, B, C)` over its blocks.

For each tile_matmul, the nest root is its outermost enclosing affine.for below the loop holding the DST acquire.
A and B are the L1 memrefs its first two operands are loaded from, C the L1 memref the DST->L1 copy after the nest
stores into (each taken as the cast or subview of it made before the nest, when there is one). `transpose_b` is set
when B is indexed (n, k) rather than (k, n). Outputs of rank other than 2 keep their loops. With
`use-tile-matmul=true` the tile loops are kept, and a matmul reading B transposed is refused."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import affine, memref
from xdsl.dialects.builtin import BoolAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_dst import AcquireDstOp
from ttmlir.errors import PassFailure


def _in_l1(value: SSAValue) -> bool:
    space = getattr(value.type, "memory_space", None)
    return isinstance(space, ttcore.MemorySpaceAttr) and space.data.value == "l1"


def _index_operand(load: affine.LoadOp, result: int) -> SSAValue | None:
    """The index value a load's map result `result` is, when it is a plain dim."""
    results = load.map.data.results
    if result >= len(results) or not isinstance(results[result], AffineDimExpr):
        return None
    position = results[result].position
    return load.indices[position] if position < len(load.indices) else None


def transpose_b(matmul: Operation) -> bool:
    """Whether B is read (n, k): its second index is A's k index."""
    a, b = (v.owner for v in matmul.operands[:2])
    if not isinstance(a, affine.LoadOp) or not isinstance(b, affine.LoadOp):
        return False
    if len(a.memref.type.get_shape()) < 2 or len(b.memref.type.get_shape()) < 2:
        return False
    k = _index_operand(a, 1)
    return k is not None and _index_operand(b, 1) is k


def _contains_acquire(block) -> bool:
    return any(isinstance(o, AcquireDstOp) for op in block.ops for o in op.walk())


def nest_root(matmul: Operation) -> affine.ForOp | None:
    loop = matmul.parent_op()
    while loop is not None and not isinstance(loop, affine.ForOp):
        loop = loop.parent_op()
    if loop is None:
        return None
    while isinstance(parent := loop.parent_op(), affine.ForOp) and not _contains_acquire(parent.body.block):
        loop = parent
    return loop


def _l1_source(value: SSAValue) -> SSAValue | None:
    load = value.owner
    return load.memref if isinstance(load, affine.LoadOp) and _in_l1(load.memref) else None


def _output(nest: Operation, dst: SSAValue) -> SSAValue | None:
    """The L1 memref the DST->L1 copy after the nest stores into."""
    op = nest.next_op
    while op is not None:
        for store in op.walk():
            if isinstance(store, affine.StoreOp) and _in_l1(store.memref) and \
                    isinstance(store.value.owner, affine.LoadOp) and store.value.owner.memref is dst:
                return store.memref
        op = op.next_op
    return None


def _view_of(raw: SSAValue, nest: Operation) -> SSAValue:
    """The cast or subview of `raw` made before the nest in its block, or `raw`."""
    for op in nest.parent_block().ops:
        if op is nest:
            break
        if isinstance(op, (memref.CastOp, memref.SubviewOp)) and op.operands[0] is raw:
            return op.results[0]
    return raw


def replace_nest(nest: affine.ForOp) -> None:
    matmul = next(o for o in nest.walk() if o.name == "d2m.tile_matmul")
    a, b = _l1_source(matmul.operands[0]), _l1_source(matmul.operands[1])
    if a is None or b is None:
        raise PassFailure(matmul, "'d2m.tile_matmul' op could not find L1 input memrefs for tile_matmul operands")
    accumulator = matmul.operands[2].owner
    if not isinstance(accumulator, affine.LoadOp):
        raise PassFailure(matmul, "'d2m.tile_matmul' op tile_matmul accumulator operand is not an affine.load")
    c = _output(nest, accumulator.memref)
    if c is None:
        raise PassFailure(nest, "'affine.for' op could not find output L1 memref in store copy loop")
    c = _view_of(c, nest)
    if len(c.type.get_shape()) != 2:
        return
    block_op = d2m.TILE_OP_CLASSES["tile_matmul_block"].create(
        operands=[_view_of(a, nest), _view_of(b, nest), c],
        properties={"transpose_b": BoolAttr(transpose_b(matmul), 1)})
    nest.parent_block().insert_op_after(block_op, nest)
    nest.detach()
    nest.erase(safe_erase=False)


@dataclass(frozen=True)
class D2MInsertTileMatmulBlockPass(ModulePass):
    name: ClassVar[str] = "d2m-insert-tile-matmul-block"
    use_tile_matmul: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        matmuls = [o for o in op.walk() if o.name == "d2m.tile_matmul"]
        if self.use_tile_matmul:
            for matmul in matmuls:
                if transpose_b(matmul):
                    raise PassFailure(matmul, "'d2m.tile_matmul' op transpose_b is only supported by "
                                              "tile_matmul_block lowering")
            return
        nests: list[affine.ForOp] = []
        for matmul in matmuls:
            root = nest_root(matmul)
            if root is not None and root not in nests:
                nests.append(root)
        for nest in nests:
            replace_nest(nest)
