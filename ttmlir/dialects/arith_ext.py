"""xDSL's `arith` dialect with MLIR's fold of an `arith.cmpi` of two integer constants to its `i1` result (xDSL folds
only a comparison of a value with itself): a guard on loop indices that canonicalize made constant folds away."""

from __future__ import annotations

import operator

from xdsl.dialects import arith as xarith
from xdsl.dialects.builtin import BoolAttr
from xdsl.ir import Dialect
from xdsl.irdl import traits_def
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.traits import HasCanonicalizationPatternsTrait, Pure
from xdsl.transforms.canonicalization_patterns.arith import ApplyCmpiPredicateToEqualOperands
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand_attribute


def _unsigned(value: int, width: int) -> int:
    return value % (1 << width)


# cmpi predicates by number: (compare, whether unsigned)
PREDICATES = {0: (operator.eq, False), 1: (operator.ne, False), 2: (operator.lt, False), 3: (operator.le, False),
              4: (operator.gt, False), 5: (operator.ge, False), 6: (operator.lt, True), 7: (operator.le, True),
              8: (operator.gt, True), 9: (operator.ge, True)}


class FoldConstantCmpi(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xarith.CmpiOp, rewriter: PatternRewriter, /):
        lhs, rhs = const_evaluate_operand_attribute(op.lhs), const_evaluate_operand_attribute(op.rhs)
        if lhs is None or rhs is None:
            return
        compare, unsigned = PREDICATES[op.predicate.value.data]
        a, b = lhs.value.data, rhs.value.data
        if unsigned:
            width = getattr(lhs.type, "width", None)
            bits = width.data if width is not None else 64
            a, b = _unsigned(a, bits), _unsigned(b, bits)
        rewriter.replace_op(op, xarith.ConstantOp(BoolAttr.from_bool(compare(a, b))))


class _Canonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (ApplyCmpiPredicateToEqualOperands(), FoldConstantCmpi())


class CmpiOp(xarith.CmpiOp):  # xDSL's definition, inherited as it is; only its patterns differ
    traits = traits_def(_Canonicalization(), Pure())


Arith = Dialect("arith", [*(op for op in xarith.Arith.operations if op.name != "arith.cmpi"), CmpiOp],
                list(xarith.Arith.attributes))
