"""The faster paths a large model's compile takes give what the plain ones gave: the verifier's walk (each
function's first error, functions independently), the printer's string literals, grid placement's compiled
affine expressions and the kernel builder's shared constants."""

import io
import itertools

import pytest
from xdsl.dialects.builtin import AffineMapAttr, IndexType, i32
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.printer import Printer

from ttmlir.asm import TTPrinter
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import KernelOps
from ttmlir.diagnostics import DiagnosticError, load_module
from ttmlir.dialects import make_context
from ttmlir.dialects.ttcore_attrs import _compiled, grid_placement

BAD_FUNCTIONS = """func.func @a(%x: i32) -> i32 {
  %0 = "ttir.relu"(%x, %x) : (i32, i32) -> i32
  %1 = "ttir.relu"(%x, %x) : (i32, i32) -> i32
  return %x : i32
}
func.func @b(%x: i32) -> i32 {
  return %x : i32
}
func.func @c(%x: i32) -> i32 {
  %0 = "ttir.relu"(%x, %x) : (i32, i32) -> i32
  return %x : i32
}
"""


def test_verifier_reports_each_function_first_error_in_order():
    with pytest.raises(DiagnosticError) as raised:
        load_module(make_context(), BAD_FUNCTIONS, "bad.mlir")
    found = [(d.line, d.message) for d in raised.value.diagnostics]
    assert found == [(2, "'ttir.relu' op requires a single operand"), (10, "'ttir.relu' op requires a single operand")]


@pytest.mark.parametrize("data", [b"noc_async_read_tile", b'a"b\\c\n\x01\x7f~ \xff', "héllo".encode()])
def test_string_literal_prints_as_xdsl_escapes_it(data):
    ours, theirs = io.StringIO(), io.StringIO()
    TTPrinter(stream=ours).print_bytes_literal(data)
    Printer(stream=theirs).print_bytes_literal(data)
    assert ours.getvalue() == theirs.getvalue()


def test_compiled_affine_expression_evaluates_as_eval():
    d0, d1, d2 = (AffineExpr.dimension(i) for i in range(3))
    exprs = [(d0 * 32 + d1) // 7, (d0 * 32 + d1) % 7, (d0 + d1 - 3).ceil_div(4), (d2 * 5 - d1 * 9) % 4,
             (d2 * 5 - d1 * 9) // 3, d1 + 3, AffineExpr.constant(5)]
    for expr in exprs:
        compiled = _compiled(expr)
        for dims in itertools.product(range(-9, 10, 3), repeat=3):
            assert compiled(dims) == expr.eval(dims, []), (expr, dims)


def test_grid_placement_of_translated_and_folded_grids():
    d = [AffineExpr.dimension(i) for i in range(4)]
    translated = AffineMapAttr(AffineMap(4, 0, (d[0] + 1, d[1] + 2, d[2], d[3])))
    assert grid_placement(translated, (3, 4)) == ((1, 2), (3, 4))
    linear = d[0] * 12 + d[1]
    folded = AffineMapAttr(AffineMap(4, 0, (linear // 4, linear % 4, d[2], d[3])))
    assert grid_placement(folded, (1, 12)) == ((0, 0), (3, 4))
    scattered = AffineMapAttr(AffineMap(4, 0, (d[1] % 2, d[1] // 2, d[2], d[3])))  # column-major: not row by row
    assert grid_placement(scattered, (1, 4)) is None


def test_kernel_constants_share_attributes_and_print_as_constructed():
    ops = KernelOps()
    inner = ops.nested()
    a, b, c = ops.const(3, IndexType()), inner.const(3, IndexType()), inner.const(3, i32)
    assert a.owner.value is b.owner.value and c.owner.value is not a.owner.value
    stream = io.StringIO()
    TTPrinter(stream=stream).print_op(a.owner)
    assert stream.getvalue() == "%c3 = arith.constant 3 : index"
