"""StableHLO's assembly formats with regions or nested structure: reduce (`applies stablehlo.add` or a reducer
body), while (`cond { } do { }`), convolution (`dim_numbers = [..]`, `window = {..}`), custom_call, composite,
tuple/get_tuple_element, rng, rng_bit_generator, complex/real/imag, and CHLO's top_k and arrow forms. Mixed into
the op base as `OperandFormats` is."""

from __future__ import annotations

import io

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, StringAttr, TensorType, TupleType, i1, i32, i64
from xdsl.ir import Attribute, Block, Region
from xdsl.parser import Parser
from xdsl.printer import Printer

from ttmlir.dialects.stablehlo_attrs import *  # noqa: F401,F403 - the formats read and print every attribute
from ttmlir.dialects.stablehlo_table import REDUCE_BODY_NAMES
from ttmlir.dialects.stablehlo_syntax import (applied_op, ints_list, ints_text, print_attr_dict, print_function_type,
                                              types_after_colon)

WINDOW_KEYS = {"stride": "window_strides", "lhs_dilate": "lhs_dilation", "rhs_dilate": "rhs_dilation"}


class RegionFormats:
    """The formats of ops with regions, nested types or a layout of their own."""

    @classmethod
    def _parse_reduce(cls, parser: Parser):
        # `(%x init: %c), (%y init: %d) applies stablehlo.add across dimensions = [1] : (..) -> (..)`, or with
        # `reducer(%a: T, %b: T) (%c: U, %d: U) { body }` after the types
        pairs = []

        def pair():
            value = parser.parse_unresolved_operand()
            parser.parse_keyword("init")
            parser.parse_punctuation(":")
            pairs.append((value, parser.parse_unresolved_operand()))

        parser.parse_punctuation("(")
        pair()
        parser.parse_punctuation(")")
        while parser.parse_optional_punctuation(","):
            parser.parse_punctuation("(")
            pair()
            parser.parse_punctuation(")")
        applies = None
        if parser.parse_optional_keyword("applies"):
            pos = parser.pos
            applies = parser.parse_identifier()
            if applies.removeprefix("stablehlo.") not in REDUCE_BODY_NAMES or "." not in applies:
                parser.raise_error(f"unknown op '{applies}' after 'applies'", at_position=pos)
        parser.parse_keyword("across")
        parser.parse_keyword("dimensions")
        parser.parse_punctuation("=")
        props = {"dimensions": i64_array(ints_list(parser))}
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        names = [p[0] for p in pairs] + [p[1] for p in pairs]
        n = len(pairs)
        if applies is not None:
            scalars = [TensorType(t.element_type, []) for t in fn.inputs.data[n:]]
            block = Block(arg_types=scalars + scalars)
            # the dialect's own classes, from the context parsing it (this module stands below the op table)
            inner = parser.ctx.get_op(applies).create(operands=[block.args[0], block.args[1]],
                                                      result_types=[scalars[0]])
            block.add_ops([inner, parser.ctx.get_op("stablehlo.return").create(operands=[inner.results[0]])])
            region = Region(block)
        else:
            parser.parse_keyword("reducer")
            groups = []
            def argument():
                arg = parser.parse_argument()
                parser.parse_optional_location()  # a block argument's location (printed with debug info)
                return arg

            for _ in range(n):
                groups.append(parser.parse_comma_separated_list(parser.Delimiter.PAREN, argument))
            args = [g[0] for g in groups] + [g[1] for g in groups]
            region = parser.parse_region(args)
        return cls._make(parser, names, list(fn.inputs.data), list(fn.outputs.data), props, attrs, [region])

    def _print_reduce(self, printer: Printer) -> None:
        n = len(self.operands) // 2
        printer.print_string("(")
        for i in range(n):
            if i:
                printer.print_string(", (")
            printer.print_operand(self.operands[i])
            printer.print_string(" init: ")
            printer.print_operand(self.operands[n + i])
            printer.print_string(")")
        body = self.regions[0].block
        applied = applied_op(body) if n == 1 else None
        if applied is not None:
            printer.print_string(f" applies {applied}")
        printer.print_string(f" across dimensions = {ints_text(ints_of(self.properties['dimensions']))}")
        print_attr_dict(printer, self, ("dimensions",))
        printer.print_string(" : ")
        print_function_type(printer, self)
        if applied is None:
            names, printer.stream = printer.stream, io.StringIO()
            for arg in body.args:  # named in block order, whatever order the pairs print them in
                printer.print_ssa_value(arg)
            printer.stream = names
            printer.print_string("\n")
            printer.print_string(" reducer")
            for i in range(n):
                printer.print_string("(")
                printer.print_block_argument(body.args[i])
                printer.print_string(", ")
                printer.print_block_argument(body.args[n + i])
                printer.print_string(") ")
            printer.print_string(" ")
            printer.print_region(self.regions[0], print_entry_block_args=False)

    @classmethod
    def _parse_while(cls, parser: Parser):
        # `(%iterArg = %a, %iterArg_0 = %b) : T, U attributes {..} cond { .. } do { .. }`: both regions' arguments
        # are the names bound in the header
        pairs = []

        def binding():
            name = parser.parse_unresolved_operand()
            parser.parse_punctuation("=")
            pairs.append((name, parser.parse_unresolved_operand()))
        parser.parse_comma_separated_list(parser.Delimiter.PAREN, binding)
        types_ = []
        if pairs:
            parser.parse_punctuation(":")
            types_ = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if len(types_) != len(pairs):
            parser.raise_error(f"{len(pairs)} operands present, but expected {len(types_)}")
        regions = []
        for keyword in ("cond", "do"):
            parser.parse_keyword(keyword)
            regions.append(parser.parse_region([parser.Argument(n.span, t) for (n, _), t in zip(pairs, types_)]))
        return cls._make(parser, [p[1] for p in pairs], types_, types_, None,
                         dict(attrs.data) if attrs is not None else None, regions)

    def _print_while(self, printer: Printer) -> None:
        cond, body = (r.block for r in self.regions)
        printer.print_string("(")
        for i, (arg, operand) in enumerate(zip(body.args, self.operands)):
            if i:
                printer.print_string(", ")
            if arg.name_hint is None:
                arg.name_hint = "iterArg"
            name = printer.print_ssa_value(arg)
            printer._ssa_values[cond.args[i]] = name  # the cond region reads the header's names too
            printer.print_string(" = ")
            printer.print_operand(operand)
        printer.print_string(")")
        if self.operands:
            printer.print_string(" : ")
            printer.print_list(self.operand_types, printer.print_attribute)
        merged = {**self.properties, **self.attributes}
        if merged:
            printer.print_string(" attributes ")
            printer.print_attr_dict(dict(sorted(merged.items())))
        printer.print_string("\n")
        printer.print_string(" cond ")
        printer.print_region(self.regions[0], print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.regions[1], print_entry_block_args=False)

    @classmethod
    def _parse_convolution(cls, parser: Parser):
        # `(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [..], ..} {..} : ..`
        names = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_keyword("dim_numbers")
        parser.parse_punctuation("=")
        props: dict[str, Attribute] = {"dimension_numbers": ConvDimensionNumbersAttr(parse_conv_layout(parser))}
        parser.parse_punctuation(",")
        parser.parse_keyword("window")
        parser.parse_punctuation("=")

        def window_entry():
            pos = parser.pos
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            if key == "pad":
                rows = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: ints_list(parser))
                props["padding"] = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(rows), 2]),
                                                                      [v for r in rows for v in r])
            elif key == "reverse":
                flags = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, lambda: (b if (b := parser.parse_optional_boolean()) is not None
                                                      else bool(parser.parse_integer())))
                props["window_reversal"] = DenseArrayBase.from_list(i1, [int(f) for f in flags])
            elif key in WINDOW_KEYS:
                props[WINDOW_KEYS[key]] = i64_array(ints_list(parser))
            else:
                parser.raise_error(f"unexpected window attribute '{key}'", at_position=pos)

        parser.parse_punctuation("{")
        while parser.parse_optional_punctuation("}") is None:  # entries, a trailing comma allowed
            window_entry()
            if parser.parse_optional_punctuation(",") is None:
                parser.parse_punctuation("}")
                break
        attrs = parser.parse_optional_attr_dict()
        operand_types, result_types = types_after_colon(parser, 2)
        return cls._make(parser, names, operand_types, result_types, props, attrs)

    def _print_convolution(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f") dim_numbers = {self.properties['dimension_numbers'].data.text()}, window = {{")
        parts = []
        for key, prop in WINDOW_KEYS.items():
            if (value := self.properties.get(prop)) is not None:
                parts.append(f"{key} = {ints_text(ints_of(value))}")
            if key == "stride" and (pad := self.properties.get("padding")) is not None:
                flat = ints_of(pad)
                parts.append(f"pad = [{', '.join(ints_text(flat[i:i + 2]) for i in range(0, len(flat), 2))}]")
        if (reverse := self.properties.get("window_reversal")) is not None:
            parts.append(f"reverse = [{', '.join('true' if v else 'false' for v in ints_of(reverse))}]")
        printer.print_string(", ".join(parts) + "}")
        print_attr_dict(printer, self, ("dimension_numbers", "padding", "window_reversal", *WINDOW_KEYS.values()))
        printer.print_string(" : ")
        print_function_type(printer, self)

    @classmethod
    def _parse_custom_call(cls, parser: Parser):  # `stablehlo.custom_call @target(%a, %b) {..} : (T, T) -> R`
        target = parser.parse_symbol_name()
        names = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls._make(parser, names, list(fn.inputs.data), list(fn.outputs.data),
                         {"call_target_name": target}, attrs)

    def _print_custom_call(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.properties["call_target_name"].data)
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(")")
        print_attr_dict(printer, self, ("call_target_name",))
        printer.print_string(" : ")
        print_function_type(printer, self)

    @classmethod
    def _parse_composite(cls, parser: Parser):
        # `stablehlo.composite "tenstorrent.gelu" %a {composite_attributes = {..}, decomposition = @f} : (T) -> R`
        name = parser.parse_str_literal()
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand) \
            if parser._current_token.text.startswith("%") else []
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls._make(parser, names, list(fn.inputs.data), list(fn.outputs.data), {"name": StringAttr(name)},
                         attrs)

    def _print_composite(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.properties["name"].data)
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self, ("name",))
        printer.print_string(" : ")
        print_function_type(printer, self)

    @classmethod
    def _parse_tuple(cls, parser: Parser):  # `stablehlo.tuple %a, %b : tuple<T, U>`
        names = []
        if parser._current_token.text.startswith("%"):
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        if parser._current_token.text == "(":
            fn = parser.parse_function_type()
            return cls._make(parser, names, list(fn.inputs.data), list(fn.outputs.data), attrs=attrs)
        t = parser.parse_type()
        if not isinstance(t, TupleType):
            parser.raise_error("expected a tuple type")
        return cls._make(parser, names, list(t.types.data), [t], attrs=attrs)

    def _print_tuple(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.results[0].type)

    @classmethod
    def _parse_get_tuple_element(cls, parser: Parser):  # `stablehlo.get_tuple_element %t[0] : (tuple<..>) -> T`
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation("[")
        index = parser.parse_integer()
        parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        operand_types, result_types = types_after_colon(parser, 1)
        return cls._make(parser, names, operand_types, result_types, {"index": IntegerAttr(index, i32)}, attrs)

    def _print_get_tuple_element(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        printer.print_string(f"[{int_of(self.properties['index'])}]")
        print_attr_dict(printer, self, ("index",))
        printer.print_string(" : ")
        print_function_type(printer, self)

    @classmethod
    def _parse_rng(cls, parser: Parser):  # `stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (..) -> T`
        names = [parser.parse_unresolved_operand()]
        while parser.parse_optional_punctuation(","):
            if (operand := parser.parse_optional_unresolved_operand()) is None:
                break
            names.append(operand)
        parser.parse_keyword("distribution")
        parser.parse_punctuation("=")
        props = {"rng_distribution": RngDistributionAttr(RngDistributionAttr.parse_parameter(parser))}
        attrs = parser.parse_optional_attr_dict()
        operand_types, result_types = types_after_colon(parser, len(names))
        return cls._make(parser, names, operand_types, result_types, props, attrs)

    def _print_rng(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f", distribution = {self.properties['rng_distribution'].data}")
        print_attr_dict(printer, self, ("rng_distribution",))
        printer.print_string(" : ")
        print_function_type(printer, self)

    @classmethod
    def _parse_rng_bit_generator(cls, parser: Parser):  # `%state, algorithm = DEFAULT : (T) -> (T, U)`
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        parser.parse_keyword("algorithm")
        parser.parse_punctuation("=")
        props = {"rng_algorithm": RngAlgorithmAttr(RngAlgorithmAttr.parse_parameter(parser))}
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls._make(parser, names, list(fn.inputs.data), list(fn.outputs.data), props, attrs)

    def _print_rng_bit_generator(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        printer.print_string(f", algorithm = {self.properties['rng_algorithm'].data}")
        print_attr_dict(printer, self, ("rng_algorithm",))
        printer.print_string(" : ")
        print_function_type(printer, self)

    @classmethod
    def _parse_complex(cls, parser: Parser):  # `stablehlo.complex %re, %im : tensor<4xcomplex<f32>>`
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        if parser._current_token.text == "(":
            fn = parser.parse_function_type()
            return cls._make(parser, names, list(fn.inputs.data), list(fn.outputs.data), attrs=attrs)
        t = parser.parse_type()
        part = TensorType(t.element_type.element_type, t.get_shape())
        return cls._make(parser, names, [part, part], [t], attrs=attrs)

    def _print_complex(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.results[0].type)

    @classmethod
    def _parse_part(cls, parser: Parser):  # real/imag: `%z : tensor<4xcomplex<f32>>` or `: (T) -> R`
        names = [parser.parse_unresolved_operand()]
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        if parser._current_token.text == "(":
            fn = parser.parse_function_type()
            return cls._make(parser, names, list(fn.inputs.data), list(fn.outputs.data), attrs=attrs)
        t = parser.parse_type()
        element = t.element_type
        part = TensorType(getattr(element, "element_type", element), t.get_shape())
        return cls._make(parser, names, [t], [part], attrs=attrs)

    def _print_part(self, printer: Printer) -> None:
        self._print_functional(printer)

    @classmethod
    def _parse_top_k(cls, parser: Parser):
        parser.parse_punctuation("(")
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        parser.parse_keyword("k")
        parser.parse_punctuation("=")
        k = parser.parse_integer()
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand = parser.parse_type()
        parser.parse_punctuation("->")
        results = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        return cls._make(parser, names, [operand], results, {"k": IntegerAttr(k, i64)}, attrs)

    def _print_top_k(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_operand(self.operands[0])
        printer.print_string(f", k = {int_of(self.properties['k'])})")
        print_attr_dict(printer, self, ("k",))
        printer.print_string(" : ")
        printer.print_attribute(self.operands[0].type)
        printer.print_string(" -> (")
        printer.print_list([r.type for r in self.results], printer.print_attribute)
        printer.print_string(")")


    @classmethod
    def _parse_arrow(cls, parser: Parser):  # CHLO's `%a, %b : T, U -> R`
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation("->")
        return cls._make(parser, names, operand_types, [parser.parse_type()], attrs=attrs)

    def _print_arrow(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_list([v.type for v in self.operands], printer.print_attribute)
        printer.print_string(" -> ")
        printer.print_attribute(self.results[0].type)
