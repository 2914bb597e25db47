"""xDSL's `affine` dialect, with `affine.apply` printed as MLIR prints it: `affine.apply #map(%i, %j)[%s]` (xDSL
puts a space before the operands)."""

from __future__ import annotations

from xdsl.dialects import affine as xaffine
from xdsl.ir import Dialect
from xdsl.printer import Printer


class ApplyOp(xaffine.ApplyOp):  # xDSL's definition, inherited as it is; only the printer differs
    """xDSL's `affine.apply`, read as it is; printed without the space after the map."""

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


Affine = Dialect("affine", [*(op for op in xaffine.Affine.operations if op.name != "affine.apply"), ApplyOp],
                 list(xaffine.Affine.attributes))
