"""`ttnn.d2m_subgraph`: a group of TTNN ops outlined into a private function of the module, to be compiled
through D2M into `ttnn.generic` ops and inlined back where the op stands.

    %r = ttnn.d2m_subgraph @d2m_subgraph_0
    ins(%a, %b : tensor<...>, tensor<...>)
    outs(%out : tensor<...>) : tensor<...>

The function takes the op's inputs and returns its results; `outs` are the buffers the compiled program writes."""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, SymbolRefAttr, TensorType, i32
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute
from xdsl.irdl import (AttrSizedOperandSegments, IRDLOperation, irdl_op_definition, prop_def, traits_def,
                       var_operand_def, var_result_def)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, SymbolTable
from xdsl.utils.exceptions import VerifyException

from ttmlir.ir.syntax import parse_typed_operands, print_typed_operands


@irdl_op_definition
class D2MSubgraphOp(IRDLOperation):
    """Runs the function `d2m_func` on its inputs, writing its outputs (reads and writes device memory, so it is
    never dropped or merged)."""

    name = "ttnn.d2m_subgraph"
    inputs = var_operand_def(TensorType)
    outputs = var_operand_def(TensorType)
    results_ = var_result_def(TensorType)
    d2m_func = prop_def(SymbolRefAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    @classmethod
    def build(cls, func: str, inputs, outputs, result_types) -> D2MSubgraphOp:
        return cls.create(operands=[*inputs, *outputs], result_types=list(result_types),
                          properties={"d2m_func": SymbolRefAttr(func), "operandSegmentSizes":
                                      DenseArrayBase.from_list(i32, [len(inputs), len(outputs)])})

    def main_func(self) -> FuncOp | None:
        """The function this op runs, looked up in the module holding it."""
        found = SymbolTable.lookup_symbol(self, self.d2m_func)
        return found if isinstance(found, FuncOp) else None

    def verify_(self) -> None:
        func = self.main_func()
        name = self.d2m_func.root_reference.data
        if func is None:
            raise self.error(f"Could not find D2M function '@{name}' in parent module.")
        args, rets = func.function_type.inputs.data, func.function_type.outputs.data
        if len(args) != len(self.inputs):
            raise self.error(f"D2M function must have {len(self.inputs)} arguments, got {len(args)}")
        for i, (given, arg) in enumerate(zip(self.inputs, args)):
            if given.type != arg:
                raise self.error(f"D2M function argument type {i} mismatch: expected {given.type}, got {arg}")
        if len(rets) != len(self.results):
            raise self.error(f"D2M function must have {len(self.results)} return values, got {len(rets)}")
        for i, (result, ret) in enumerate(zip(self.results, rets)):
            if result.type != ret:
                raise self.error(f"D2M function return type {i} mismatch: expected {result.type}, got {ret}")

    def error(self, message: str) -> VerifyException:
        return VerifyException(f"'{self.name}' op {message}")

    @classmethod
    def parse(cls, parser: Parser) -> D2MSubgraphOp:
        func = parser.parse_symbol_name()
        attributes = parser.parse_optional_attr_dict()
        groups = []
        for keyword in ("ins", "outs"):
            parser.parse_keyword(keyword)
            names, types_, position = parse_typed_operands(parser)
            groups.append(parser.resolve_operands(names, types_, position))
        results: list[Attribute] = []
        if parser.parse_optional_punctuation(":"):
            results = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        op = cls.build(func.data, *groups, results)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.d2m_func.root_reference.data)
        printer.print_op_attributes(self.attributes)
        for keyword, values in (("ins", self.inputs), ("outs", self.outputs)):
            printer._print_new_line()  # upstream's format breaks the line before each operand group
            print_typed_operands(printer, keyword, values, space="")
        if self.results:
            printer.print_string(" : ")
            printer.print_list(self.result_types, printer.print_attribute)
