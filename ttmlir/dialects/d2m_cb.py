"""The D2M dialect's explicit-CB form: circular buffers between a generic's threads, in upstream's syntax.

A generic region in this form asks for the buffer of its operand N (`%cb = d2m.get_cb(N) : !d2m.cb<memref<...>>`),
then acquires a block of it as a producer (`d2m.reserve`, released by `d2m.push` or at the end of the block) or as
a consumer (`d2m.wait`, released by `d2m.pop`). The thread attribute names what a region runs as, optionally the
kernel function it was outlined into and the data-movement core it was given (`#d2m.thread<datamovement, @k,
dm_core = 1>`). Semaphore types live here too: they are what a region's semaphore arguments are."""

from __future__ import annotations

from xdsl.dialects.builtin import (I64, ArrayAttr, IntAttr, IntegerAttr, MemRefType, NoneAttr, StringAttr,
                                   SymbolRefAttr, TensorType, i64)
from xdsl.ir import Attribute, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (IRDLOperation, irdl_attr_definition, irdl_op_definition, operand_def, opt_prop_def, param_def,
                       prop_def, result_def, traits_def)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects.d2m_args import ResolutionStageAttr, parse_optional_stage, print_stage

THREAD_KINDS = ("compute", "datamovement", "unified")


@irdl_attr_definition
class ThreadAttr(ParametrizedAttribute):
    """What a generic's region runs as: `#d2m.thread<compute>`, `#d2m.thread<datamovement, @kernel, dm_core = 1>`
    (the kernel symbol once outlined; the data-movement core, -1 while unassigned, is not printed then)."""

    name = "d2m.thread"
    kind: Attribute = param_def(Attribute)
    kernel: Attribute = param_def(Attribute)
    dm_core: IntAttr = param_def(IntAttr)

    @classmethod
    def get(cls, kind: str, kernel: str | None = None, dm_core: int = -1) -> "ThreadAttr":
        return cls(StringAttr(kind), SymbolRefAttr(kernel) if kernel else NoneAttr(), IntAttr(dm_core))

    @property
    def thread(self) -> str:
        return self.kind.data

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            position = parser.pos
            kind = parser.parse_identifier()
            if kind not in THREAD_KINDS:
                parser.raise_error(f"expected one of {', '.join(THREAD_KINDS)}, got '{kind}'", position)
            kernel, dm_core = NoneAttr(), -1
            while parser.parse_optional_punctuation(","):
                if parser.parse_optional_keyword("dm_core") is not None:
                    parser.parse_punctuation("=")
                    dm_core = parser.parse_integer()
                else:
                    kernel = parser.parse_attribute()
                    if not isinstance(kernel, SymbolRefAttr):
                        parser.raise_error("expected a kernel symbol (@name) or dm_core = N")
        return StringAttr(kind), kernel, IntAttr(dm_core)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.kind.data}")
        if isinstance(self.kernel, SymbolRefAttr):
            printer.print_string(", ")
            printer.print_attribute(self.kernel)
        if self.dm_core.data != -1:
            printer.print_string(f", dm_core = {self.dm_core.data}")
        printer.print_string(">")


def verify_compute_region(op) -> None:
    """A compute op inside a `d2m.generic` runs in one of its compute (or unified) regions, not a data-movement one."""
    region = op.parent_region()
    while region is not None and (region.parent is None or region.parent.name != "d2m.generic"):
        region = region.parent.parent_region() if region.parent is not None else None
    if region is None:
        return
    generic = region.parent
    threads = generic.attributes.get("threads")
    index = list(generic.regions).index(region)
    if isinstance(threads, ArrayAttr) and index < len(threads.data) and \
            isinstance(thread := threads.data[index], ThreadAttr) and thread.thread == "datamovement":
        raise VerifyException(f"'{op.name}' op expected to be in a compute or unified region")


@irdl_attr_definition
class CBType(ParametrizedAttribute, TypeAttribute):
    """A circular buffer of blocks of the shaped type it wraps: `!d2m.cb<memref<2x4x!ttcore.tile<32x32, f32>, #l1>>`."""

    name = "d2m.cb"
    underlying: Attribute = param_def(Attribute)

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            position = parser.pos
            underlying = parser.parse_type()
            if not isinstance(underlying, (MemRefType, TensorType)):
                parser.raise_error("!d2m.cb wraps a memref or a ranked tensor", position)
            return (underlying,)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.underlying)
        printer.print_string(">")


@irdl_attr_definition
class LocalSemaphoreType(ParametrizedAttribute, TypeAttribute):
    """A semaphore in each core's L1, shared by the core's threads and its peers: `!d2m.local_semaphore`."""

    name = "d2m.local_semaphore"


@irdl_attr_definition
class GlobalSemaphoreType(ParametrizedAttribute, TypeAttribute):
    """A semaphore allocated across a grid, living beyond one program: `!d2m.global_semaphore`."""

    name = "d2m.global_semaphore"


def parse_cb_type(parser: Parser) -> CBType:
    """A CB type where an op's format names its type: upstream prints it stripped (`<memref<...>>`), as MLIR prints a
    dialect's own type there; the full `!d2m.cb<...>` is read too."""
    if parser._current_token.text == "<":
        return CBType(*CBType.parse_parameters(parser))
    position = parser.pos
    cb = parser.parse_type()
    if not isinstance(cb, CBType):
        parser.raise_error(f"expected a circular buffer type (!d2m.cb<...>), got {cb}", position)
    return cb


def print_cb_type(printer: Printer, cb: Attribute) -> None:
    if isinstance(cb, CBType):
        cb.print_parameters(printer)
    else:  # not a CB: the verifier reports it
        printer.print_attribute(cb)


@irdl_op_definition
class GetCBOp(IRDLOperation):
    """The circular buffer of the enclosing generic's operand `cb_operand_idx`: `%cb = d2m.get_cb(0) : !d2m.cb<...>`."""

    name = "d2m.get_cb"
    cb_operand_idx = prop_def(IntegerAttr[I64])
    resolution_stage = opt_prop_def(ResolutionStageAttr)
    result = result_def(CBType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> "GetCBOp":
        with parser.in_parens():
            position = parser.pos
            index = parser.parse_integer()
            if index < 0:
                parser.raise_error("'cb_operand_idx' must be a non-negative index", position)
        properties = {"cb_operand_idx": IntegerAttr(index, i64), **parse_optional_stage(parser)}
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        return cls.create(properties=properties, attributes=attributes, result_types=[parse_cb_type(parser)])

    def print(self, printer: Printer) -> None:
        printer.print_string(f"({self.cb_operand_idx.value.data})")
        print_stage(printer, self.resolution_stage)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_cb_type(printer, self.result.type)


class _ReleaseOp(IRDLOperation):
    """`d2m.<op> %cb : <T>`."""

    cb = operand_def(CBType)

    @classmethod
    def _parse_cb(cls, parser: Parser) -> tuple[list[SSAValue], dict]:
        """`%cb {attrs} : <T>`: the resolved operand and the attributes."""
        cb = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        return parser.resolve_operands([cb], [parse_cb_type(parser)], position), attributes

    @classmethod
    def parse(cls, parser: Parser):
        operands, attributes = cls._parse_cb(parser)
        return cls.create(operands=operands, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cb)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_cb_type(printer, self.cb.type)


class _AcquireOp(_ReleaseOp):
    """`%m = d2m.<op> %cb : !d2m.cb<T> -> T`: a block of the buffer, as the type it wraps."""

    result = result_def()

    @classmethod
    def parse(cls, parser: Parser):
        operands, attributes = cls._parse_cb(parser)
        parser.parse_punctuation("->")
        return cls.create(operands=operands, result_types=[parser.parse_type()], attributes=attributes)

    def print(self, printer: Printer) -> None:
        super().print(printer)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.cb.type.underlying != self.result.type:
            raise VerifyException(f"'{self.name}' op result type does not match circular buffer's wrapped memref type")


@irdl_op_definition
class WaitOp(_AcquireOp):
    """A consumer's block of a circular buffer, once a producer pushed it (released by `d2m.pop`)."""

    name = "d2m.wait"


@irdl_op_definition
class ReserveOp(_AcquireOp):
    """A producer's free block of a circular buffer to write (released to consumers by `d2m.push`)."""

    name = "d2m.reserve"


@irdl_op_definition
class PushOp(_ReleaseOp):
    """Hands the block a producer reserved to the consumers: `d2m.push %cb : !d2m.cb<...>`."""

    name = "d2m.push"


@irdl_op_definition
class PopOp(_ReleaseOp):
    """Frees the block a consumer waited for: `d2m.pop %cb : !d2m.cb<...>`."""

    name = "d2m.pop"


@irdl_op_definition
class StoreOp(IRDLOperation):
    """A computed block written into a block acquired from a CB: `d2m.store %reserved, %result : tensor<...>`."""

    name = "d2m.store"
    dst = operand_def()
    src = operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> "StoreOp":
        dst = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        src = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        value_type = parser.parse_type()
        return cls.create(operands=parser.resolve_operands([dst, src], [value_type] * 2, position),
                          attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.dst, self.src], printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.dst.type)

    def verify_(self) -> None:
        if self.dst.type != self.src.type:
            raise VerifyException(f"'{self.name}' op requires all operands to have the same type")


CB_OPS = [GetCBOp, WaitOp, ReserveOp, PushOp, PopOp, StoreOp]
CB_ATTRS = [ThreadAttr, CBType, LocalSemaphoreType, GlobalSemaphoreType]
