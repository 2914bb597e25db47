"""xDSL's `linalg` and `math` dialects with the ops `--convert-ttir-to-linalg` emits that xDSL lacks:
`linalg.div`, `linalg.pooling_nhwc_max`, `linalg.pooling_nhwc_sum` and `math.erfc` (MLIR's names and syntax),
and `linalg.generic` reading back the `-> (T1, T2)` it prints for several results (xDSL 0.74 reads one)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects import linalg as xlinalg
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import AnyFloat
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation, PoolingOperation
from xdsl.dialects.linalg.ops import GenericOp as XGenericOp, YieldOp
from xdsl.ir import Attribute, BlockArgument, Dialect, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import irdl_op_definition, traits_def
from xdsl.parser import Parser
from xdsl.traits import Pure
from xdsl.utils.mlir_lexer import MLIRTokenKind


class GenericOp(XGenericOp):  # xDSL's definition, inherited as it is; only the parser differs
    """xDSL's `linalg.generic`, whose parser reads its result types as a list without parentheses; here a
    parenthesized list (how MLIR and xDSL print two or more results) reads too."""

    @classmethod
    def parse(cls, parser: Parser):
        plain = parser.parse_comma_separated_list

        def result_types(delimiter, parse, context_msg=""):
            if delimiter is Parser.Delimiter.NONE and parse == parser.parse_attribute and \
                    parser._current_token.kind == MLIRTokenKind.L_PAREN:
                return plain(Parser.Delimiter.PAREN, parse, context_msg)
            return plain(delimiter, parse, context_msg)

        parser.parse_comma_separated_list = result_types
        try:
            return super().parse(parser)
        finally:
            parser.parse_comma_separated_list = plain


@irdl_op_definition
class DivOp(ElementwiseOperation):
    """`linalg.div ins(%a, %b : T, T) outs(%init : T) -> T`: elementwise a / b (signed for integers)."""

    name = "linalg.div"

    def __init__(self, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue], res: Sequence[Attribute] | None = None):
        super().__init__(ins=inputs, outs=outputs, result_types=res if res is not None else [o.type for o in outputs],
                         hidden_region=self.get_hidden_region(inputs, outputs))

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        div = arith.DivfOp if isinstance(arg_types[-1], AnyFloat) else arith.DivSIOp

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(div(args[0], args[1]))

        return body


def _pair(attr) -> tuple[int, int]:
    """Two values of a strides/dilations vector, which a splat (`dense<1> : tensor<2xi64>`) stores once."""
    values = [int(v) for v in attr.get_values()]
    return (values[0], values[0]) if len(values) == 1 else (values[0], values[1])


class _PoolingNhwc(PoolingOperation):
    """A 2-D window over an NHWC input: ins(input, window shape tensor), outs(NHWC init)."""

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, c, kh, kw = (AffineDimExpr(d) for d in range(6))
        stride_h, stride_w = _pair(self.strides)
        dilation_h, dilation_w = _pair(self.dilations)
        return (AffineMap(6, 0, (n, oh * stride_h + kh * dilation_h, ow * stride_w + kw * dilation_w, c)),
                AffineMap(6, 0, (kh, kw)), AffineMap(6, 0, (n, oh, ow, c)))


@irdl_op_definition
class PoolingNhwcMaxOp(_PoolingNhwc):
    """`linalg.pooling_nhwc_max`: each output is the largest input in its window."""

    name = "linalg.pooling_nhwc_max"

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        largest = arith.MaximumfOp if isinstance(arg_types[-1], AnyFloat) else arith.MaxSIOp

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(largest(args[2], args[0]))

        return body


@irdl_op_definition
class PoolingNhwcSumOp(_PoolingNhwc):
    """`linalg.pooling_nhwc_sum`: each output is the sum of the inputs in its window."""

    name = "linalg.pooling_nhwc_sum"

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        add = arith.AddfOp if isinstance(arg_types[-1], AnyFloat) else arith.AddiOp

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(add(args[2], args[0]))

        return body


@irdl_op_definition
class ErfcOp(xmath.FloatingPointLikeUnaryMathOperation):
    """`math.erfc %x : f32`: the complementary error function, 1 - erf(x)."""

    name = "math.erfc"

    traits = traits_def(Pure())


Linalg = Dialect("linalg", [*(op for op in xlinalg.Linalg.operations if op.name != "linalg.generic"), GenericOp, DivOp,
                            PoolingNhwcMaxOp, PoolingNhwcSumOp],
                 list(xlinalg.Linalg.attributes))
Math = Dialect("math", [*xmath.Math.operations, ErfcOp], list(xmath.Math.attributes))
