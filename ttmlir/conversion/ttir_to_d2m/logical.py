"""`ttir.logical_and`, `ttir.logical_or` and `ttir.logical_xor` as elementwise D2M programs of a few tile ops each,
as upstream writes them: each operand's truth as a `d2m.tile_nez` (1 where it is non-zero, else 0), combined by a
product (and: both true), or the truth of their sum (or: at least one) or of their difference (xor: exactly one).
Their operands are read as any elementwise op's (broadcast along the rows, columns or both); `ttir.logical_not` is
the one tile op `d2m.tile_logical_not` (the pass's TILE_OF)."""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp as LinalgGenericOp, YieldOp as LinalgYieldOp
from xdsl.ir import Block, Operation, Region, SSAValue

from ttmlir.conversion.ttir_to_d2m.tiles import TILE_CLASSES, spread_leaves
from ttmlir.dialects.d2m_tile_extra import EXTRA_TILE_OPS

CLASSES = {**TILE_CLASSES, **{c.name.removeprefix("d2m."): c for c in EXTRA_TILE_OPS}}

# op -> (the tile op combining the operands' truths, whether the combination's own truth is taken)
LOGICAL_TILE_OPS = {"logical_and": ("tile_mul", False), "logical_or": ("tile_add", True),
                    "logical_xor": ("tile_sub", True)}


def _logical(combine: str, truth_of_result: bool):
    """A linalg.generic over two loaded blocks computing a binary logical op on each pair of tiles."""

    def compute(ops: list[Operation], loaded: list[SSAValue], out: SSAValue, maps: list[AffineMapAttr]) -> SSAValue:
        tile = out.type.element_type
        body = Block(arg_types=[*(v.type.element_type for v in loaded), tile])

        def made(mnemonic: str, *operands: SSAValue) -> SSAValue:
            op = CLASSES[mnemonic].create(operands=list(operands), result_types=[tile])
            body.add_op(op)
            return op.results[0]

        truths = [made("tile_nez", leaf) for leaf in spread_leaves(body, maps)]
        result = made(combine, *truths)
        if truth_of_result:
            result = made("tile_nez", result)
        body.add_op(LinalgYieldOp(result))
        generic = LinalgGenericOp(loaded, [out], Region(body), maps,
                                  [IteratorTypeAttr.parallel()] * maps[-1].data.num_dims, [out.type])
        ops.append(generic)
        return generic.res[0]

    return compute


# name -> (compute, tile operands), as the pass's elementwise ops
LOGICAL = {name: (_logical(*row), 2) for name, row in LOGICAL_TILE_OPS.items()}
