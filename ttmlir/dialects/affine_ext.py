"""xDSL's `affine` dialect with what MLIR's canonicalize does to affine loads, stores and loops: an index operand
that is an `arith.constant` is folded into the access map (`%m[%c0, %i]` prints `%m[0, %i]`), operands the map does
not use are dropped, a load whose value is unused is removed (it only reads) and a loop with an empty body is
erased; `affine.apply` prints as MLIR prints it, `affine.apply #map(%i, %j)[%s]` (xDSL puts a space before the
operands)."""

from __future__ import annotations

from xdsl.dialects import affine as xaffine
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr
from xdsl.ir import Dialect, Operation, Region
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap, AffineSymExpr
from xdsl.irdl import traits_def
from xdsl.printer import Printer
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait, MemoryReadEffect, MemoryWriteEffect, RecursiveMemoryEffect


def _constant(value) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr) and \
            isinstance(owner.value.type, IndexType):
        return owner.value.value.data
    return None


def canonical_map_and_operands(map_: AffineMap, operands) -> tuple[AffineMap, list] | None:
    """The map with constant operands folded in and unused (or repeated) operands dropped, dims and symbols alike;
    None when there is nothing to fold."""
    dims, symbols = list(operands[:map_.num_dims]), list(operands[map_.num_dims:])
    used = {(type(e), e.position) for r in map_.results for e in r.dfs()
            if isinstance(e, (AffineDimExpr, AffineSymExpr))}

    def fold(values, kind, make):
        replacements, kept = [], []
        for position, value in enumerate(values):
            constant = _constant(value)
            if (kind, position) not in used:
                replacements.append(AffineExpr.constant(0))
            elif constant is not None:
                replacements.append(AffineExpr.constant(constant))
            elif value in kept:
                replacements.append(make(kept.index(value)))
            else:
                replacements.append(make(len(kept)))
                kept.append(value)
        return replacements, kept

    new_dims, kept_dims = fold(dims, AffineDimExpr, AffineExpr.dimension)
    new_symbols, kept_symbols = fold(symbols, AffineSymExpr, AffineExpr.symbol)
    if len(kept_dims) == len(dims) and len(kept_symbols) == len(symbols):
        return None
    new_map = map_.replace_dims_and_symbols(new_dims, new_symbols, len(kept_dims), len(kept_symbols))
    return new_map, [*kept_dims, *kept_symbols]


class FoldAccessOperands(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, (xaffine.LoadOp, xaffine.StoreOp)):
            return
        folded = canonical_map_and_operands(op.map.data, list(op.indices))
        if folded is None:
            return
        new_map, indices = folded
        if isinstance(op, xaffine.LoadOp):
            new = LoadOp(op.memref, indices, AffineMapAttr(new_map), op.result.type)
        else:
            new = StoreOp(op.value, op.memref, indices, AffineMapAttr(new_map))
        new.attributes.update(op.attributes)
        rewriter.replace_op(op, new)


class EraseEmptyLoop(RewritePattern):
    """An affine.for whose body only yields, with no results, does nothing."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if isinstance(op, xaffine.ForOp) and not op.results and \
                all(isinstance(inner, xaffine.YieldOp) for inner in op.body.block.ops):
            rewriter.erase_op(op)


class _LoopCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (EraseEmptyLoop(),)


class _Canonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (FoldAccessOperands(),)


class _Reparsed:
    """xDSL's parser builds its own class, and reads `%m[%i, %j]`'s indices as symbols; the op read is made again
    as this class, its indices dims (as MLIR reads them)."""

    @classmethod
    def parse(cls, parser):
        read = super().parse(parser)
        properties = dict(read.properties)
        map_ = read.map.data
        if not map_.num_dims and map_.num_symbols:
            dims = [AffineExpr.dimension(i) for i in range(map_.num_symbols)]
            properties["map"] = AffineMapAttr(map_.replace_dims_and_symbols([], dims, map_.num_symbols, 0))
        op = cls.create(operands=list(read.operands), result_types=list(read.result_types),
                        properties=properties, attributes=dict(read.attributes))
        read.erase()
        return op


class LoadOp(_Reparsed, xaffine.LoadOp):  # xDSL's definition, inherited as it is; only its traits differ
    traits = traits_def(_Canonicalization(), MemoryReadEffect())


class StoreOp(_Reparsed, xaffine.StoreOp):
    traits = traits_def(_Canonicalization(), MemoryWriteEffect())


class ForOp(xaffine.ForOp):
    traits = traits_def(_LoopCanonicalization(), RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser):
        read = super().parse(parser)
        op = cls.create(operands=list(read.operands), result_types=list(read.result_types),
                        properties=dict(read.properties), attributes=dict(read.attributes),
                        regions=[read.detach_region(0)])
        read.erase()
        return op


def for_loop(lower: int, upper: int, body: Region) -> ForOp:
    """`affine.for %i = lower to upper` over `body` (whose block takes the index)."""
    made = xaffine.ForOp.from_region([], [], [], [], lower, upper, body)
    return ForOp.create(operands=[], result_types=[], properties=dict(made.properties),
                        regions=[made.detach_region(0)])


class ApplyOp(xaffine.ApplyOp):  # xDSL's definition, inherited as it is; only the printer differs
    def print(self, printer: Printer) -> None:
        dims = self.map.data.num_dims
        printer.print_string(" ")
        printer.print_attribute(self.map)
        printer.print_string("(")
        printer.print_list(self.mapOperands[:dims], printer.print_operand)
        printer.print_string(")")
        if len(self.mapOperands) > dims:
            printer.print_string("[")
            printer.print_list(self.mapOperands[dims:], printer.print_operand)
            printer.print_string("]")


Affine = Dialect("affine", [*(op for op in xaffine.Affine.operations
                              if op.name not in ("affine.load", "affine.store", "affine.for", "affine.apply")),
                            LoadOp, StoreOp, ForOp, ApplyOp], list(xaffine.Affine.attributes))
