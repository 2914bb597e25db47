"""MLIR textual IR in and out, as mlir-opt reads and writes it for the tt dialects.

Parsing adds what upstream text needs beyond xDSL: aliases defined after their use (`#loc8 = loc(..)`
at the end of a file) and the source position of every op, so diagnostics point at the op name.
Printing follows mlir-opt: `module`/`return`, attribute aliases (`#dram`, `#ttnn_layout1`, ...),
location aliases with `--mlir-print-debuginfo`, sorted property dictionaries and MLIR's float
and affine-map spelling.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Iterable

from xdsl.context import Context
from xdsl.dialects.builtin import (AffineMapAttr, AnyFloat, ArrayAttr, BytesAttr, ComplexType, DenseIntOrFPElementsAttr,
                                   FileLineColLoc, Float64Type, IntAttr, IntegerAttr, IntegerType, LocationAttr,
                                   MemRefLayoutAttr, MemRefType,
                                   ModuleOp, NameLoc, NoneAttr, StringAttr, UnknownLoc, i64)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind, StringLiteral

from ttmlir.ir.sizes import INT64_MAX, int_width_error, shaped_size_error
from ttmlir.ir.syntax import affine_map_str
from ttmlir.ir.tt_op import TTOp
from ttmlir.ir.value_names import Counters, name_results, name_values
from ttmlir.dialects.ttir_attrs import FlattenedCompatInfoAttr, SparseElementsAttr

# xDSL 0.74's string-literal pattern nests `+` inside `*` and backtracks exponentially on an
# unterminated string; the same language with possessive quantifiers is matched in linear time.
MLIRLexer._unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')



class FirstByIdentity(dict):
    """A cache keyed by attributes that looks a key up by identity before equality. A model's types and
    layouts are a few shared objects (each spelling is parsed once), while hashing one walks its whole
    parameter tree on every lookup. Entries are never replaced."""

    def __init__(self):
        super().__init__()
        self._by_id: dict[int, tuple[object, object]] = {}

    def get(self, key, default=None):
        hit = self._by_id.get(id(key))
        if hit is not None and hit[0] is key:
            return hit[1]
        value = super().get(key, default)
        if value is not default:
            self._by_id[id(key)] = (key, value)  # holding the key keeps its id from being reused
        return value

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self._by_id[id(key)] = (key, value)


class TTLexer(MLIRLexer):
    """MLIR's tokens, the common ones matched by one regular expression (xDSL's lexer takes several steps
    per character class, the larger part of parsing a model); anything else is left to xDSL's lexer."""

    _TOKEN = re.compile(r"""(?:\s++|//[^\n]*+)*+(?:
          (?P<BARE_IDENT>[a-zA-Z_][a-zA-Z0-9_$.]*+)
        | (?P<PREFIXED>(?!\#-\})[#!^%](?:[0-9]++|[a-zA-Z$._-][a-zA-Z0-9$._-]*+))
        | (?P<STRING_LIT>"[^"\\\n\v\f]*+")
        | (?P<HEX>0x[0-9a-fA-F]++)
        | (?P<FLOAT_LIT>[0-9]++\.[0-9]*+(?:[eE][+-]?[0-9]+)?)
        | (?P<INTEGER_LIT>[0-9]++)
        | (?P<PUNCTUATION>->|\{(?!-\#)|[:,()}\[\]<>=+*?|/-]))?""", re.VERBOSE | re.ASCII)
    _PREFIXES = {"#": MLIRTokenKind.HASH_IDENT, "!": MLIRTokenKind.EXCLAMATION_IDENT,
                 "^": MLIRTokenKind.CARET_IDENT, "%": MLIRTokenKind.PERCENT_IDENT}
    _PUNCTUATION = {kind.value: kind for kind in MLIRTokenKind if isinstance(kind.value, str)}

    def lex(self):
        match = self._TOKEN.match(self.input.content, self.pos)
        group = match.lastgroup
        if group is None:
            self.pos = match.end()
            return super().lex()
        start, self.pos = match.start(group), match.end()
        if group == "STRING_LIT":
            return Token(MLIRTokenKind.STRING_LIT, StringLiteral(start, self.pos, self.input))
        if group == "PREFIXED":
            kind = self._PREFIXES[self.input.content[start]]
        elif group == "PUNCTUATION":
            kind = self._PUNCTUATION[match.group(group)]
        else:
            kind = MLIRTokenKind.INTEGER_LIT if group == "HEX" else MLIRTokenKind[group]
        return Token(kind, Span(start, self.pos, self.input))


_ALIAS_DEF = re.compile(r"^([#!][\w.$\-]+)[ \t]*=", re.MULTILINE)
_ANGLE_OR_QUOTE = re.compile(r'->|[<>"]')
_PAREN_OR_QUOTE = re.compile(r'[()"]')
_ARROW = re.compile(r"\s*->\s*")
_TYPE_NAME = re.compile(r"!?[a-zA-Z_][\w.$]*")
# a file range (`"f":3:20 to :26`, `to 4:2`, as newer MLIR and JAX print them) is read as its start
_SIMPLE_LOC = re.compile(r'\(\s*(?:"([^"\\\n]*)"\s*(?::\s*([0-9]+)\s*:\s*([0-9]+)(?:\s+to\s+(?:[0-9]+)?:[0-9]+)?'
                         r'|\(\s*(#[\w.$-]+)\s*\))?|(#[\w.$-]+))\s*\)')
_SHAPED_TYPES = frozenset({"tensor", "memref", "vector"})
_TYPED_NUMBER = re.compile(r"-?(?:0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]*(?:[eE][+-]?[0-9]+)?)?)[ \t]*:[ \t]*[a-z][a-z0-9]*\b")
_NUMBER_START = frozenset({MLIRTokenKind.INTEGER_LIT, MLIRTokenKind.FLOAT_LIT, MLIRTokenKind.MINUS})
_INT_TYPE = re.compile(r"[su]?i([0-9]+)")


class PriorUseError(ParseError):
    """A value used with another type than it has; `prior` is where it was defined (MLIR's note)."""

    def __init__(self, span, message: str, prior):
        super().__init__(span, message)
        self.prior = prior


class TTParser(Parser):
    """xDSL's parser, plus forward alias definitions and op source positions."""

    def __init__(self, ctx: Context, text: str, name: str = "<stdin>"):
        super().__init__(ctx, text, name)
        self._parser_state = ParserState(TTLexer(self.lexer.input))
        self.op_positions: dict[Operation, int] = {}
        self._name_positions: list[int] = []
        self._predefined: dict[int, int] = {}  # where each top-level alias definition starts -> ends
        self._first_uses: dict[str, object] = {}
        self._definitions: dict[str, object] = {}  # where each SSA name was defined (a type clash's note)
        self._parsed: dict[str, Attribute] = {}

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        try:
            self._predefine_aliases()
            while (end := self._predefined.get(self._current_token.span.start)) is not None:
                self._resume_from(end)
            if allow_implicit_module and self._current_token.kind == MLIRTokenKind.EOF:
                # MLIR reads an input of no ops (a split piece of comments or aliases) as an empty module
                return ModuleOp([])
            return super().parse_module(allow_implicit_module)
        except VerifyException as error:  # an attribute's own verifier, run while it is parsed
            raise ParseError(self._current_token.span, str(error)) from None
        except ParseError as error:
            if self.forward_ssa_references and error.msg.startswith("values used but not defined"):
                name = next(iter(self.forward_ssa_references))
                raise ParseError(self._first_uses[name], "use of undeclared SSA value name") from None
            raise

    def _parse_memref_attrs(self):
        """A ranked memref's trailing attributes as MLIR reads them: layouts and a memory space, the memory space
        last; a later layout replaces an earlier one (`#ttcore.shard<..>, #ttcore.view<4>, #l1` is a view in L1)."""
        start = self._current_token.span.start
        shape, element = self.parse_shape()
        if shape is None:
            self._resume_from(start)
            return super()._parse_memref_attrs()
        layout = memory_space = None
        while self.parse_optional_punctuation(",") is not None:
            span = self._current_token.span
            attr = self.parse_attribute()
            if memory_space is not None:
                self.raise_error("expected memory space to be last in memref type" if isinstance(
                    attr, MemRefLayoutAttr) else "multiple memory spaces specified in memref type", span)
            if isinstance(attr, MemRefLayoutAttr):
                layout = attr
            else:
                memory_space = attr
        return MemRefType(element, shape, layout or NoneAttr(), memory_space or NoneAttr())

    def resolve_operand(self, operand, type):
        name = operand.operand_name
        if name not in self.ssa_values:
            self._first_uses.setdefault(name, operand.span)
        else:
            values = self.ssa_values[name]
            if operand.index < len(values) and values[operand.index].type != type:
                raise PriorUseError(operand.span, f"use of value '%{name}' expects different type than prior "
                                                  f"uses: '{type}' vs '{values[operand.index].type}'",
                                    self._definitions.get(name))
        return super().resolve_operand(operand, type)

    def _register_ssa_definition(self, name, values, span) -> None:
        self._definitions[name] = span
        super()._register_ssa_definition(name, values, span)

    def _predefine_aliases(self) -> None:
        """Parse every top-level alias first, in dependency order, so uses may precede definitions."""
        pending = [m.start() for m in _ALIAS_DEF.finditer(self.lexer.input.content)]
        first_error: ParseError | None = None
        while pending:
            deferred = []
            for pos in pending:
                self._resume_from(pos)
                try:
                    self._parse_alias_definition()
                    self._predefined[pos] = self._current_token.span.start
                except ParseError as error:
                    deferred.append(pos)
                    first_error = first_error or error
            if len(deferred) == len(pending):
                self._resume_from(deferred[0])
                self._parse_alias_definition()  # raises the real error at its own position
            pending, first_error = deferred, None
        self._resume_from(0)

    def _parse_alias_definition(self) -> str:
        token = self._parse_token(self._current_token.kind, "expected alias name")
        name = token.text
        self.parse_punctuation("=", "after alias name")
        if self._current_token.text == "loc":
            value: Attribute = self.expect(self.parse_optional_location, "expected location")
        else:
            try:
                value = self.parse_attribute()
            except VerifyException as error:  # the attribute's own verifier: reported at its alias
                raise ParseError(token.span, str(error)) from None
        if name in self.attribute_aliases:
            kind = "attribute" if name.startswith("#") else "type"
            self.raise_error(f"redefinition of {kind} alias id '{name[1:]}'", token.span)
        self.attribute_aliases[name] = value

    def _parse_alias_def(self):
        if (end := self._predefined.get(self._current_token.span.start)) is not None:
            self._resume_from(end)  # read before the module, not a redefinition
        else:
            self._parse_alias_definition()

    def parse_optional_location(self):
        """The common spellings, `loc("name")`, `loc("file":1:2)` (or a range from there), `loc("name"(#loc3))` and
        `loc(#loc3)`, read
        by one expression (a model has a location per op and per alias); anything else by xDSL."""
        token = self._current_token
        if token.text == "loc" and (match := _SIMPLE_LOC.match(self.lexer.input.content, token.span.end)):
            name, line, column, nested, alias = match.groups()
            target = self.attribute_aliases.get(nested or alias)
            if (nested or alias) is None or isinstance(target, LocationAttr):
                self._resume_from(match.end())
                if alias is not None:
                    return target
                if line is not None:
                    return FileLineColLoc(StringAttr(name), IntAttr(int(line)), IntAttr(int(column)))
                return NameLoc(StringAttr(name), target if nested is not None else NoneAttr())
        return super().parse_optional_location()

    def parse_optional_type(self):
        """Types repeat on every op of a model (`tensor<1x64x160x160xbf16, #ttnn_layout12>`); each distinct
        spelling is parsed once and later occurrences are skipped by their text."""
        token = self._current_token
        cacheable = token.text in _SHAPED_TYPES or token.kind == MLIRTokenKind.EXCLAMATION_IDENT
        end = self._bracketed_end(token) if cacheable else None
        return self._parse_once(token, end, super().parse_optional_type)

    def parse_optional_attribute(self):
        """Attributes too: `#ttnn.memory_config<...>`, `array<i64: 1, 2>`, `1 : si32`."""
        token = self._current_token
        end = None
        if token.kind == MLIRTokenKind.HASH_IDENT or token.text == "array":
            end = self._bracketed_end(token)
        elif token.kind in _NUMBER_START and (match := _TYPED_NUMBER.match(self.lexer.input.content,
                                                                            token.span.start)):
            end = match.end()
        return self._parse_once(token, end, super().parse_optional_attribute)

    def _parse_once(self, token, end: int | None, parse):
        """`parse()`, or the value an earlier identical spelling from `token` to `end` parsed to."""
        if end is None:
            return parse()
        text = self.lexer.input.content[token.span.start:end]
        if (cached := self._parsed.get(text)) is not None:
            self._resume_from(end)
            return cached
        parsed = parse()
        after = self._current_token.span.start  # the spelling must be exactly what was parsed
        if parsed is not None and after >= end and not self.lexer.input.content[end:after].strip():
            self._parsed[text] = parsed
        return parsed

    def _bracketed_end(self, token) -> int | None:
        """End of a type or attribute spelled `name<...>` starting at `token`; None when it has no brackets."""
        return self._closing(token.span.end) if self.lexer.input.content.startswith("<", token.span.end) else None

    def _closing(self, start: int) -> int | None:
        """End of the `<...>` or `(...)` opening at `start`, balancing that bracket (an arrow's `>` is not
        one); None when it holds a string (which may hold any bracket)."""
        content, depth = self.lexer.input.content, 0
        for match in (_ANGLE_OR_QUOTE if content[start] == "<" else _PAREN_OR_QUOTE).finditer(content, start):
            delimiter = match.group()
            if delimiter == '"':
                return None
            if delimiter != "->":
                depth += 1 if delimiter in "<(" else -1
                if depth == 0:
                    return match.end()
        return None

    def _function_type_end(self, start: int) -> int | None:
        """End of a function type `(...) -> type` or `(...) -> (...)` starting at `start`."""
        content = self.lexer.input.content
        end = self._closing(start) if content.startswith("(", start) else None
        if end is None or not (arrow := _ARROW.match(content, end)):
            return None
        if content.startswith("(", arrow.end()):
            return self._closing(arrow.end())
        if not (name := _TYPE_NAME.match(content, arrow.end())):
            return None
        return self._closing(name.end()) if content.startswith("<", name.end()) else name.end()

    def parse_function_type(self):
        """An op's signature, parsed once per spelling: a model's ops share a handful."""
        token = self._current_token
        return self._parse_once(token, self._function_type_end(token.span.start), super().parse_function_type)

    def parse_optional_properties_dict(self):
        """`<{...}>`, parsed once per spelling; each op gets its own dictionary."""
        token = self._current_token
        end = self._closing(token.span.start) if token.text == "<" else None
        entries = self._parse_once(token, end, lambda: tuple(super(TTParser, self).parse_optional_properties_dict().items()))
        return dict(entries)

    def _parse_optional_integer_or_float_type(self):
        """An integer type's width is bounded as MLIR bounds it, before anything is sized from it."""
        token = self._current_token
        if token.kind == MLIRTokenKind.BARE_IDENT and (match := _INT_TYPE.fullmatch(token.text)):
            digits = match.group(1).lstrip("0")
            if (error := int_width_error(int(digits or "0") if len(digits) <= 10 else 1 << 32)) is not None:
                self.raise_error(error, token.span)
        return super()._parse_optional_integer_or_float_type()

    def parse_shape_dimension(self, allow_dynamic: bool = True) -> int:
        token = self._current_token
        if token.kind == MLIRTokenKind.INTEGER_LIT and not token.text.startswith("0x") and \
                (len(token.text) > 19 or int(token.text) > INT64_MAX):
            self.raise_error("invalid dimension", token.span)
        return super().parse_shape_dimension(allow_dynamic)

    def parse_dimension_list(self) -> list[int]:
        """`64x31x` or, as MLIR also reads it, `64 x 31 x`: a trailing `x` before the element type is given back
        where it stood (xDSL steps back one character, which is a space when the `x` stands apart)."""
        accepted = (MLIRTokenKind.INTEGER_LIT, MLIRTokenKind.QUESTION)
        if self._current_token.kind not in accepted:
            return []
        dims = [self.parse_shape_dimension()]
        while True:
            delimiter = self._current_token.span.start
            if self._parse_optional_shape_delimiter() is None:
                return dims
            if self._current_token.kind not in accepted:
                self._resume_from(delimiter)
                return dims
            dims.append(self.parse_shape_dimension())

    def _parse_optional_builtin_parametrized_attr(self):
        """MLIR's `sparse<indices, values> : type` too, kept as written (see `SparseElementsAttr`)."""
        token, content = self._current_token, self.lexer.input.content
        if token.text != "sparse" or not content.startswith("<", token.span.end):
            return super()._parse_optional_builtin_parametrized_attr()
        if (end := self._closing(token.span.end)) is None:
            self.raise_error("unbalanced '<' in sparse elements", token.span.start, token.span.end)
        self._resume_from(end)
        self.parse_punctuation(":", " after sparse elements")
        return SparseElementsAttr((content[token.span.end + 1:end - 1], self.parse_type()))

    def _parse_optional_builtin_parametrized_type(self):
        """tensor/memref/vector types whose size no 64-bit integer holds are refused where they are written."""
        start = self._current_token.span.start
        parsed = super()._parse_optional_builtin_parametrized_type()
        if (error := shaped_size_error(parsed)) is not None:
            self.raise_error(error, start, self._current_token.span.start)
        return parsed

    def _parse_dialect_type_or_attribute_body(self, attr_name: str, is_type: bool, *args):
        """A dialect type or attribute spelled with more or fewer parameters than it has is refused at its text
        (xDSL's generic reading of `<...>` builds it from however many it finds)."""
        start = self._current_token.span.start
        try:
            return super()._parse_dialect_type_or_attribute_body(attr_name, is_type, *args)
        except ValueError:
            definition = (self.ctx.get_optional_type if is_type else self.ctx.get_optional_attr)(attr_name)
            if definition is None or not issubclass(definition, ParametrizedAttribute) or \
                    definition.parse_parameters.__func__ is not ParametrizedAttribute.parse_parameters.__func__:
                raise
            count = len(definition.get_irdl_definition().parameters)
            self.raise_error(f"{'!' if is_type else '#'}{attr_name} takes {count} parameter{'s' * (count != 1)}",
                             start, self._current_token.span.start)

    def parse_optional_builtin_int_or_float_attr(self):
        token = self._current_token
        try:
            return super().parse_optional_builtin_int_or_float_attr()
        except OverflowError:  # a hex bit pattern wider than its float type (MLIR's wording)
            self.raise_error("hexadecimal float constant out of range for type", token.span)

    def _parse_op_result_list(self):
        results = super()._parse_op_result_list()
        self._name_positions.append(self._current_token.span.start)
        return results

    def parse_operation(self) -> Operation:
        op = super().parse_operation()
        self.op_positions[op] = self._name_positions.pop()
        return op

    def _parse_optional_complex(self):
        """`(re, im)`; a hex part beside a float one is a bit pattern (MLIR reads `(0x7FF8000000000000, 1.0)`),
        which `_literal_value` decodes once the element type is known."""
        if self._current_token.kind != MLIRTokenKind.L_PAREN:
            return None
        start = self._consume_token(MLIRTokenKind.L_PAREN).span.start
        real, _ = self._parse_bool_int_or_float()
        self.parse_punctuation(",")
        imag, _ = self._parse_bool_int_or_float()
        end = self._consume_token(MLIRTokenKind.R_PAREN).span
        return (real, imag), Span(start, end.end, end.input)

    def parse_dense_int_or_fp_elements_attr(self, type) -> DenseIntOrFPElementsAttr:
        """MLIR's dense literal, with two things xDSL lacks: a hex integer in a float literal is the
        element's bit pattern (`dense<0xFF800000> : tensor<4xf32>` is -inf), and a splat keeps one
        element (`dense<0.0> : tensor<8x64x112x112xf32>` is 4 bytes, not 25 MB)."""
        start = self._current_token.span.start
        self.parse_punctuation("<", " in dense attribute")
        literal = None
        if self.parse_optional_punctuation(">") is None:
            literal = self.parse_optional_str_literal()
            if literal is None:
                literal = self._parse_tensor_literal()
            self.parse_punctuation(">", " in dense attribute")
        if type is None:
            self.parse_punctuation(":", " in dense attribute")
            type = self._parse_dense_literal_type()
        element, count = type.element_type, math.prod(type.get_shape())
        if isinstance(element, IntegerType) and element.width.data > 64:  # beyond what a dense buffer packs here
            self.raise_error(f"dense elements of {element} are not supported (integers up to 64 bits are)",
                             at_position=start)
        if literal is None or isinstance(literal, str):
            data = self._hex_string_bytes(literal or "0x", element)
            if element == IntegerType(1) and len(data) == (count + 7) // 8 and count > 1:
                # MLIR bit-packs i1 elements, eight to a byte, first element in the lowest bit
                data = bytes((data[i // 8] >> (i % 8)) & 1 for i in range(count))
        else:
            elements, shape = literal
            if shape and list(type.get_shape()) != shape:
                self.raise_error(f"Shape mismatch in dense literal. Expected {list(type.get_shape())} shape from "
                                 f"the type, but got {shape} shape.", at_position=start)
            values = [self._literal_value(e, element) for e in elements]
            if isinstance(element, IntegerType):
                values = [self._normalized(e, v, element) for e, v in zip(elements, values)]
            data = element.pack(values)
        size = element.compile_time_size
        if count == 0 and len(data) == size:  # a splat of an empty tensor (MLIR reads it) holds no element
            data = b""
        if len(data) not in (size, size * count) or (count == 0 and data):
            self.raise_error(f"Shape mismatch in dense literal. Expected {count} elements from the type, but got "
                             f"{len(data) // size} elements.", at_position=start)
        return DenseIntOrFPElementsAttr(type, BytesAttr(data))

    def _normalized(self, literal, value: int, element: IntegerType) -> int:
        try:
            return element.get_normalized_value(value)
        except ValueError as error:  # out of the type's range: reported at the element
            self.raise_error(str(error), at_position=literal.span)

    def _hex_string_bytes(self, text: str, element) -> bytes:
        try:
            return bytes.fromhex(text[2:])
        except ValueError:
            self.raise_error("Hex string in denseAttr is invalid")

    def _literal_value(self, literal, element):
        """An element's value; hex parts of a float or complex-of-float literal are bit patterns."""
        if isinstance(element, AnyFloat) and _is_hex(literal):
            return self._bit_pattern(int(literal.value), element, literal.span)
        if isinstance(element, ComplexType) and isinstance(element.element_type, IntegerType) and \
                any(isinstance(part, float) for part in literal.value):
            self.raise_error(f"expected integer parts for {element}", at_position=literal.span)
        if isinstance(element, ComplexType) and isinstance(element.element_type, AnyFloat) and \
                isinstance(literal.value, tuple):
            texts = literal.span.text.strip()[1:-1].split(",")
            return tuple(self._bit_pattern(int(part), element.element_type, literal.span)
                         if text.strip()[:2] in ("0x", "0X") else float(part)
                         for part, text in zip(literal.value, texts))
        return literal.to_type(self, element)

    def _bit_pattern(self, bits: int, element, span) -> float:
        size = element.compile_time_size
        if bits >= 1 << (8 * size):
            self.raise_error(f"hexadecimal float constant out of range for type", at_position=span)
        return element.unpack(bits.to_bytes(size, "little"), 1)[0]


def _print_as_hex(attr: DenseIntOrFPElementsAttr) -> bool:
    element = attr.type.element_type
    count = math.prod(attr.type.get_shape())
    width = getattr(element, "bitwidth", None) or getattr(getattr(element, "width", None), "data", 1)
    return count > 100 and (width >= 8 or element == IntegerType(1)) and \
        len(attr.data.data) == count * element.compile_time_size


def _hex_bytes(attr: DenseIntOrFPElementsAttr) -> bytes:
    """The bytes MLIR writes in a dense hex literal: the elements', but i1 elements packed eight to a byte."""
    data = attr.data.data
    if attr.type.element_type != IntegerType(1):
        return data
    return bytes(sum((data[i + b] & 1) << b for b in range(min(8, len(data) - i))) for i in range(0, len(data), 8))


def _is_hex(literal) -> bool:
    return literal.span.text[:2] in ("0x", "0X")


def parse_text(ctx: Context, text: str, filename: str = "<stdin>") -> tuple[ModuleOp, dict[Operation, int]]:
    parser = TTParser(ctx, text, filename)
    module = parser.parse_module()
    if any(op.name.startswith("tosa.") for op in module.walk()):  # older TOSA read in its 1.0 form, as MLIR does
        from ttmlir.dialects.tosa.legacy import upgrade
        upgrade(module)
    return module, parser.op_positions


# --- printing ----------------------------------------------------------------------------------


def _is_i64(attribute: Attribute) -> bool:
    return isinstance(attribute, IntegerAttr) and attribute.type == i64


# The attributes printed through an alias (`#ttnn_layout = ...`) and the ones printed opaquely (`#ttnn<mesh_shape 1x2>`),
# known by name: the printer need not import a dialect to recognise its attributes (a module holding one has loaded
# it). Buffer types and memory spaces are aliased by their value (`#dram`).
_ALIAS_BASES = {"ttnn.ttnn_layout": "ttnn_layout", "ttcore.metal_layout": "layout", "ttcore.system_desc": "system_desc",
                AffineMapAttr.name: "map"}
_ALIASED_BY_VALUE = frozenset({"ttnn.buffer_type", "ttcore.memory_space", "ttcore.iterator_type"})
_OPAQUE = frozenset({"ttnn.mesh_shape", "ttnn.mesh_offset", "ttcore.runtime_tensor_sharding", "ttcore.local_shape",
                     FlattenedCompatInfoAttr.name})


def _alias_name(attr: Attribute) -> str | None:
    name = type(attr).name
    return attr.data.value if name in _ALIASED_BY_VALUE else _ALIAS_BASES.get(name)


_SHORT_NAMES = {"func.return": "return", "func.call": "call"}  # mlir-opt drops the func. prefix


def mlir_float(value: float, type: AnyFloat) -> str:
    """APFloat's spelling as MLIR prints it: `1.000000e-01` if that reads back exactly, else `9.99999974E-6`."""
    exact = Decimal(value)
    if exact == 0:
        return "-0.000000e+00" if str(value).startswith("-") else "0.000000e+00"
    sign = "-" if exact < 0 else ""
    digits, exponent = _digits(abs(exact))
    head, head_exponent = _six_digits(digits, exponent)
    short = f"{sign}{head[0]}.{(head[1:] + '0' * 6)[:6]}e{head_exponent:+03d}"
    if _round_trips(short, value, type):
        return short
    return apfloat_string(value, type)


def apfloat_string(value: float, type: AnyFloat) -> str:
    """APFloat::toString: the digits that read back to the same value of `type`, plain between 1e-4 and the
    precision, else `9.99999974E-6` (how generated code spells a float attribute)."""
    exact = Decimal(value)
    if exact == 0:
        return "-0.0" if str(value).startswith("-") else "0.0"
    sign = "-" if exact < 0 else ""
    digits, exponent = _digits(abs(exact))
    precision = 17 if isinstance(type, Float64Type) else 9
    mantissa, exponent = _rounded_digits(digits, exponent, precision)
    if -4 <= exponent < precision:
        point = exponent + 1
        if point <= 0:
            plain = "0." + "0" * -point + mantissa
        elif point >= len(mantissa):
            plain = mantissa + "0" * (point - len(mantissa)) + ".0"
        else:
            plain = mantissa[:point] + "." + mantissa[point:]
        return sign + plain
    return f"{sign}{mantissa[0]}.{mantissa[1:] or '0'}E{exponent:+d}"


def _six_digits(digits: str, exponent: int) -> tuple[str, int]:
    return _rounded_digits(digits, exponent, 6)


def _rounded_digits(digits: str, exponent: int, precision: int) -> tuple[str, int]:
    """APFloat::toString's digits at a precision: the exact digits cut to the bits that precision needs
    (dropping, not rounding), then rounded half-up to `precision` digits; with the leading digit's new exponent."""
    number, bits = int(digits), precision * 196 // 59 + 1
    if number.bit_length() > bits:
        number //= 10 ** ((number.bit_length() - bits) * 59 // 196)
    text = str(number).rstrip("0")
    if len(text) > precision:
        rounded = str(int(text[:precision]) + (text[precision] >= "5"))
        exponent += len(rounded) - precision
        text = rounded
    return text.rstrip("0") or "0", exponent


def _digits(value: Decimal) -> tuple[str, int]:
    sign, digits, exp = value.as_tuple()
    text = "".join(map(str, digits)).lstrip("0") or "0"
    return text, len(text) + exp - 1 if digits else 0


def _round_trips(text: str, value: float, type: AnyFloat) -> bool:
    """Whether `text` reads back as `value` in the element type (rounded to its precision)."""
    return type.unpack(type.pack((float(text),)), 1)[0] == value


@dataclass(eq=False, repr=False)
class TTPrinter(Printer):
    """mlir-opt's output conventions on top of xDSL's printer."""

    use_aliases: bool = True
    aliases: dict[Attribute, str] = field(default_factory=FirstByIdentity)
    alias_counts: dict[str, int] = field(default_factory=dict)
    loc_aliases: dict[Attribute, str] = field(default_factory=FirstByIdentity)
    top_level: Operation | None = None
    defining: Attribute | None = None
    _counters: Counters = field(default_factory=Counters)
    _depth: int = 0
    _named: Operation | None = None  # the IR whose values are named: printing more of its ops reuses the names
    _rendered: dict[Attribute, str] = field(default_factory=FirstByIdentity)

    def _new_alias(self, attr: Attribute, base: str, table: dict[Attribute, str]) -> str:
        count = self.alias_counts.get(base, 0)
        self.alias_counts[base] = count + 1
        name = f"#{base}{count if count else ''}"
        table[attr] = name
        return name

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        # a model's output is millions of short strings: one written straight to the stream costs a third of
        # `print(..., end="")`; text with line breaks is indented by xDSL's printer
        if "\n" in text or self.stream is None:
            super().print_string(text, indent=indent)
            return
        self._current_column += len(text)
        self.stream.write(text)

    def print_bytes_literal(self, bytestring: bytes) -> None:
        # xDSL's escaping, written in one piece rather than a character at a time (a kernel's calls are string
        # literals)
        self.print_string('"' + "".join("\\\\" if b == 0x5C else f"\\{b:02X}" if b < 0x20 or b > 0x7E or b == 0x22
                                        else chr(b) for b in bytestring) + '"')

    def print_attribute(self, attribute: Attribute) -> None:
        if self.use_aliases and attribute is not self.defining:
            if (base := _alias_name(attribute)) is not None:
                name = self.aliases.get(attribute) or self._new_alias(attribute, base, self.aliases)
                self.print_string(name)
                return
            if isinstance(attribute, LocationAttr) and not isinstance(attribute, UnknownLoc):
                name = self.loc_aliases.get(attribute) or self._new_alias(attribute, "loc", self.loc_aliases)
                self.print_string(name if self.printing_location else f"loc({name})")
                return
        if isinstance(attribute, LocationAttr):
            self._render(attribute)
            return
        # types and attributes repeat on every op of a model: each distinct one is rendered once
        if (text := self._rendered.get(attribute)) is None:
            stream, self.stream = self.stream, io.StringIO()
            self._render(attribute)
            text = self._rendered[attribute] = self.stream.getvalue()
            self.stream = stream
        self.print_string(text)

    def _render(self, attribute: Attribute) -> None:
        if isinstance(attribute, ArrayAttr) and any(_is_i64(a) for a in attribute.data):
            # inside an array MLIR elides an integer's type when it is i64, the type it reads back: `[1, 1]`
            self.print_string("[")
            self.print_list(attribute.data, lambda a: self.print_string(str(a.value.data)) if _is_i64(a)
                            else self.print_attribute(a))
            self.print_string("]")
            return
        if type(attribute).name == "llvm.struct":
            from ttmlir.dialects.llvm_ext import print_struct
            print_struct(self, attribute)
            return
        if isinstance(attribute, AffineMapAttr):
            self.print_string(f"affine_map<{affine_map_str(attribute.data)}>")
            return
        if type(attribute).name in _OPAQUE or getattr(attribute, "opaque_syntax", False):  # `#dialect<mnemonic params>`, as upstream prints these
            dialect, mnemonic = attribute.name.split(".")
            self.print_string(f"#{dialect}<{mnemonic} ")
            attribute.print_parameter(self)
            self.print_string(">")
            return
        if isinstance(attribute, DenseIntOrFPElementsAttr) and _print_as_hex(attribute):
            # as mlir-opt prints more than 100 elements: their bytes in hex (a model's weights print in no time)
            self.print_string(f'dense<"0x{_hex_bytes(attribute).hex().upper()}"> : ')
            self.print_attribute(attribute.type)
            return
        super().print_attribute(attribute)

    def print_float(self, value: float, type) -> None:
        if value == value and abs(value) != float("inf"):
            self.print_string(mlir_float(value, type))
            return
        if value != value or abs(value) == float("inf"):  # MLIR spells these as the bit pattern
            self.print_string(f"0x{type.pack((value,))[::-1].hex().upper()}")
            return
        super().print_float(value, type)

    def print_ssa_value(self, value: SSAValue) -> str:
        """MLIR's names, not the source's (see `value_names`); a value from outside what is printed gets
        the next number."""
        if value not in self._ssa_values:
            self._ssa_values[value] = str(self._counters.value)
            self._counters.value += 1
        return super().print_ssa_value(value)

    def _print_results(self, op: Operation) -> None:
        """Several results numbered together print as one group, `%0:3 = ...`, used as `%0#1`, as mlir-opt
        prints them; named ones as a list (`%values, %indices = "ttnn.sort"`)."""
        name_results(op, self._ssa_values, self._counters, _result_names)  # when written without print_op
        if op.results and (name := self._ssa_values.get(op.results[0], "")).endswith("#0"):
            self.print_string(f"%{name[:-2]}:{len(op.results)} = ")
            return
        super()._print_results(op)

    def print_op(self, op: Operation) -> None:
        if self._depth == 0:  # as mlir-opt prints one op: its values named as in the whole IR holding it
            top = op
            while (parent := top.parent_op()) is not None:
                top = parent
            if top is not self._named:  # a writer printing each op of a module would name it all again per op
                name_values(top, self._ssa_values, self._counters, _result_names)
                self._named = top
        self._depth += 1
        try:
            self._print_op(op)
        finally:
            self._depth -= 1

    def print_attr_dict(self, attr_dict) -> None:
        super().print_attr_dict(dict(sorted(attr_dict.items())))

    def _print_op(self, op: Operation) -> None:
        short = "module" if op is self.top_level and isinstance(op, ModuleOp) else _SHORT_NAMES.get(op.name)
        if short is not None:
            self._print_results(op)
            self.print_string(short)
            op.print(self)
            if self.print_debuginfo:
                self.print_string(" ")
                self.print_attribute(op.location)
            return
        super().print_op(op)


def _constant_name(op: Operation) -> str:
    """What MLIR's arith.constant calls its result: `%c3` (index), `%c3_i32`, `%true`/`%false` (i1), `%cst`."""
    value = op.value
    if not isinstance(value, IntegerAttr):
        return "cst"
    if isinstance(value.type, IntegerType):
        if value.type.width.data == 1:
            return "true" if value.value.data else "false"
        return f"c{value.value.data}_{value.type}"
    return f"c{value.value.data}"


# MLIR's names for the results of memref ops (their getAsmResultNames), by op name
MEMREF_RESULT_NAMES = {"memref.alloc": "alloc", "memref.alloca": "alloca", "memref.cast": "cast",
                       "memref.collapse_shape": "collapse_shape", "memref.expand_shape": "expand_shape",
                       "memref.reinterpret_cast": "reinterpret_cast", "memref.subview": "subview",
                       "memref.view": "view"}


def _result_names(op: Operation) -> list[str] | None:
    """The names an op gives its results, as upstream's ODS does: a TTIR/TTNN op with several results names
    them after its definition (`%values, %indices`), a constant says `%cst` or `%c`, a memref op `%alloc`..."""
    if op.name == "arith.constant":  # by name: arith's module is not imported where no IR holds it
        return [_constant_name(op)]
    if op.name in MEMREF_RESULT_NAMES:
        return [MEMREF_RESULT_NAMES[op.name]]
    if len(op.results) == 1:
        hint = getattr(op, "asm_result_name", None)
        return None if hint is None or (base := hint()) is None else [base]
    if isinstance(op, TTOp) and not any(r.endswith("*") for r in op.ROW.results):
        return [base.rstrip("?") for base in op.ROW.results]
    return None


def print_module(module: Operation, *, debuginfo: bool = False, local_scope: bool = False,
                 generic: bool = False) -> str:
    """The module as mlir-opt prints it: alias definitions, the body, then location aliases."""
    body = io.StringIO()
    printer = TTPrinter(stream=body, print_debuginfo=debuginfo, print_generic_format=generic,
                        use_aliases=not local_scope, top_level=module)
    printer.print_op(module)
    definitions = _alias_definitions(printer)
    out = io.StringIO()
    for line in definitions:
        out.write(line + "\n")
    out.write(body.getvalue().rstrip("\n") + "\n")
    defined = 0
    while defined < len(printer.loc_aliases):  # rendering one may alias the locations nested in it
        attr, name = list(printer.loc_aliases.items())[defined]
        out.write(f"{name} = {_render(printer, attr)}\n")
        defined += 1
    return out.getvalue()


def _render(printer: TTPrinter, attr: Attribute) -> str:
    stream = io.StringIO()
    sub = TTPrinter(stream=stream, use_aliases=printer.use_aliases, aliases=printer.aliases,
                    alias_counts=printer.alias_counts, loc_aliases=printer.loc_aliases, defining=attr)
    sub.print_attribute(attr)
    return stream.getvalue()


def _alias_definitions(printer: TTPrinter) -> Iterable[str]:
    """Definitions ordered as mlir-opt orders them: leaves first, then by name. Keyed by alias name: hashing
    a deep layout attribute once per pair of aliases made this quadratic in hashes."""
    rendered: dict[str, str] = {}
    depth: dict[str, int] = {}
    while len(rendered) < len(printer.aliases):
        for attr, name in list(printer.aliases.items()):
            if name not in rendered:
                rendered[name] = text = _render(printer, attr)
                used = [other for other in printer.aliases.values() if other != name and other in text]
                depth[name] = 1 + max((depth.get(u, 0) for u in used), default=-1) if used else 0

    def key(name: str):
        stem = name.rstrip("0123456789")
        return depth[name], stem, int(name[len(stem):] or 0)

    return [f"{name} = {rendered[name]}" for name in sorted(rendered, key=key)]
