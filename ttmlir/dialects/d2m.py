"""The d2m dialect (direct to metal): programs over a grid of cores computing on tiles, the form upstream's
TTMetal pipeline lowers TTIR into. These are the ops of a D2M program in unified-thread form, in upstream's
syntax: host tensors moved onto the device (`d2m.to_layout` into a `#ttcore.metal_layout` tensor) and viewed
(`d2m.view_layout`), `d2m.generic` ops whose region loads blocks (`d2m.remote_load`), computes on their tiles
(`linalg.generic` over `d2m.tile_*` ops, or `d2m.tile_matmul_block`) and stores the result
(`d2m.remote_store`), and `d2m.spatial` placing generics on core ranges side by side.

The `d2m.tile_*` ops are written in generic form; `TILE_OPS` lists the ones this build knows."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import (AffineMapAttr, ArrayAttr, BoolAttr, DenseArrayBase, FloatAttr, IndexType,
                                   IntegerAttr, MemRefType, TensorType, i32, i64)
from xdsl.ir import Attribute, Dialect, Operation, Region
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (AttrSizedOperandSegments, IRDLOperation, irdl_op_definition, operand_def, opt_operand_def,
                       opt_prop_def, opt_result_def, prop_def, result_def, traits_def, var_operand_def,
                       var_region_def, var_result_def)
from xdsl.dialects.linalg.ops import GenericOp as LinalgGenericOp
from xdsl.dialects.tensor import EmptyOp as TensorEmptyOp
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import (EffectInstance, HasCanonicalizationPatternsTrait, IsTerminator, MemoryEffect,
                         MemoryEffectKind, NoTerminator)
from xdsl.utils.exceptions import VerifyException
from xdsl.printer import Printer

from ttmlir.dialects import ttcore
from ttmlir.dialects.d2m_cb import CB_ATTRS, CB_OPS, CBType, ThreadAttr, verify_compute_region
from ttmlir.dialects.d2m_dst import DST_OPS
from ttmlir.dialects.d2m_mask import MaskOp
from ttmlir.dialects.d2m_debug import DEBUG_OPS
from ttmlir.dialects.d2m_tile_extra import EXTRA_TILE_OPS
from ttmlir.dialects.d2m_tile_bcast import TILE_BCAST_OPS, TileBcastTypeAttr
from ttmlir.dialects.d2m_scratch import SCRATCH_OPS
from ttmlir.dialects.d2m_index import INDEX_OPS
from ttmlir.dialects.d2m_semaphore import SEMAPHORE_OPS
from ttmlir.dialects.d2m_dma import DMA_OPS, DMA_TYPES
from ttmlir.dialects.d2m_null_tx import NULL_TX_OPS
from ttmlir.dialects.d2m_args import ARG_ATTRS, ARG_OPS
from ttmlir.dialects.d2m_alias import ALIAS_OPS
from ttmlir.dialects.d2m_composite_view import COMPOSITE_VIEW_OPS
from ttmlir.dialects.d2m_tilize import TILIZE_OPS
from ttmlir.dialects.d2m_arange import ARANGE_OPS
from ttmlir.dialects.d2m_mask_tiles import MASK_TILE_OPS
from ttmlir.dialects.d2m_topk import TOPK_OPS
from ttmlir.dialects.d2m_topk_plan import TOPK_PLAN_ATTRS
from ttmlir.dialects.d2m_tile_reduce import TILE_REDUCE_OPS, ReduceDimAttr
from ttmlir.dialects.d2m_verify import verify_generic, verify_spatial
from ttmlir.dialects.d2m_embedding import EMBEDDING_OPS
from ttmlir.dialects.d2m_mesh_shard import MESH_SHARD_OPS
from ttmlir.ir.syntax import EmptyFormat, parse_typed_operands, print_typed_operands, table_class

# tile op -> (the TTIR op family it computes, its tile operands)
TILE_OPS = {
    **{f"tile_{op}": (op, 1) for op in ("exp", "log", "sqrt", "rsqrt", "abs", "relu", "sigmoid", "tanh", "sin", "cos",
                                        "tan", "ceil", "floor", "sign", "gelu", "erf", "atan", "logical_not",
                                        "expm1", "log1p", "transpose", "typecast", "erfc", "softsign",
                                        "hardsigmoid", "signbit", "frac", "trunc", "bitwise_not", "silu", "square",
                                        "exp2", "asin", "acos")},
    "tile_recip": ("reciprocal", 1), "tile_negative": ("neg", 1),
    # with scalar attributes (TILE_OP_PROPERTIES): clamp_scalar's bounds, selu's scale and alpha
    "tile_clamp_scalar": ("clamp_scalar", 1), "tile_selu": ("selu", 1),
    **{f"tile_{op}": (op, 2) for op in ("add", "div", "maximum", "minimum", "pow", "eq", "ne", "gt", "ge", "lt",
                                        "le", "atan2")},
    "tile_sub": ("subtract", 2), "tile_mul": ("multiply", 2),
    # of integer tiles
    **{f"tile_{op}": (op, 2) for op in ("bitwise_and", "bitwise_or", "bitwise_xor", "logical_left_shift",
                                        "logical_right_shift", "right_shift")},
    "tile_matmul": ("matmul", 3), "tile_matmul_block": ("matmul", 3),
}


def _parse_signature(parser: Parser, between: str) -> tuple[Attribute, Attribute, Attribute]:
    """`A, B -> C` or `A into B -> C`: two operand types and the result type."""
    first = parser.parse_type()
    if between == ",":
        parser.parse_punctuation(",")
    else:
        parser.parse_keyword(between)
    second = parser.parse_type()
    parser.parse_punctuation("->")
    return first, second, parser.parse_type()


class _AllocationEffect(MemoryEffect):
    """A fresh buffer: dropped when unused, never merged with another (two empties are two buffers)."""

    @classmethod
    def get_effects(cls, op):
        return frozenset({EffectInstance(MemoryEffectKind.ALLOC, op.results[0])})


class _TensorFormEffects(MemoryEffect):
    """On tensors an op only makes values (dropped when unused); on memrefs it reads and writes buffers in place."""

    @classmethod
    def get_effects(cls, op):
        if any(isinstance(t, MemRefType) for t in [*op.operand_types, *op.result_types]):
            return frozenset({EffectInstance(MemoryEffectKind.READ), EffectInstance(MemoryEffectKind.WRITE)})
        return frozenset()


@irdl_op_definition
class EmptyOp(EmptyFormat, IRDLOperation):
    """A tensor to be written: `%0 = d2m.empty() : tensor<...>` (its attributes may place it on the grid)."""

    name = "d2m.empty"
    result = result_def()
    traits = traits_def(_AllocationEffect())


class _ToLayoutCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (FoldToLayout(),)


@irdl_op_definition
class ToLayoutOp(IRDLOperation):
    """A tensor moved into another layout (host to device, device to host):
    `%r = d2m.to_layout %in, %out : tensor<A> into tensor<B> -> tensor<B>`; on memrefs it writes `%out` in place
    and has no result."""

    name = "d2m.to_layout"
    input = operand_def()
    output = operand_def()
    result = opt_result_def()
    traits = traits_def(_TensorFormEffects(), _ToLayoutCanonicalization())

    @classmethod
    def parse(cls, parser: Parser) -> "ToLayoutOp":
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
        attributes = parser.parse_optional_attr_dict()  # this build once printed it here; upstream after the types
        parser.parse_punctuation(":")
        position = parser.pos
        source = parser.parse_type()
        parser.parse_keyword("into")
        target = parser.parse_type()
        attributes |= parser.parse_optional_attr_dict()
        results = [parser.parse_type()] if parser.parse_optional_punctuation("->") else []
        return cls.create(operands=parser.resolve_operands(names, [source, target], position),
                          result_types=results, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(" into ")
        printer.print_attribute(self.output.type)
        printer.print_op_attributes(self.attributes)
        if self.result is not None:
            printer.print_string(" -> ")
            printer.print_attribute(self.result.type)


class _HostTransferOp(IRDLOperation):
    """A tensor moved between the host and the device, the device side's layout named:
    `%r = d2m.to_device %host, %dev layout = #layout : tensor<A> into tensor<B, #layout> -> tensor<B, #layout>`
    (`d2m.to_host` the other way). It is the host case of `d2m.to_layout`, made explicit; the conversions move it
    as they move that."""

    DEVICE_OPERAND: ClassVar[int] = 1  # which operand is on the device
    input = operand_def()
    output = operand_def()
    layout = prop_def(ttcore.MetalLayoutAttr)
    result = opt_result_def()
    traits = traits_def(_TensorFormEffects())

    def verify_(self) -> None:
        host, device = (self.input, self.output) if self.DEVICE_OPERAND else (self.output, self.input)
        if isinstance(host.type, TensorType) and isinstance(host.type.encoding, ttcore.MetalLayoutAttr):
            raise VerifyException(f"'{self.name}' op expects a host tensor without a metal layout, got {host.type}")
        encoding = getattr(device.type, "encoding", None) if isinstance(device.type, TensorType) else None
        if isinstance(device.type, TensorType) and encoding != self.layout:
            raise VerifyException(f"'{self.name}' op layout {self.layout} is not the device tensor's ({device.type})")

    @classmethod
    def parse(cls, parser: Parser):
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
        parser.parse_keyword("layout")
        parser.parse_punctuation("=")
        if parser._current_token.text == "<":  # upstream's stripped form of the typed attribute
            layout = ttcore.MetalLayoutAttr(ttcore.MetalLayoutAttr.parse_parameter(parser))
        else:
            layout = parser.parse_attribute()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        source = parser.parse_type()
        parser.parse_keyword("into")
        target = parser.parse_type()
        results = [parser.parse_type()] if parser.parse_optional_punctuation("->") else []
        return cls.create(operands=parser.resolve_operands(names, [source, target], position), result_types=results,
                          properties={"layout": layout}, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(" layout = ")
        printer.print_attribute(self.layout)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(" into ")
        printer.print_attribute(self.output.type)
        if self.result is not None:
            printer.print_string(" -> ")
            printer.print_attribute(self.result.type)


@irdl_op_definition
class ToDeviceOp(_HostTransferOp):
    name = "d2m.to_device"


@irdl_op_definition
class ToHostOp(_HostTransferOp):
    name = "d2m.to_host"
    DEVICE_OPERAND: ClassVar[int] = 0


class _ViewLayoutCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (FoldIdentityView(),)


@irdl_op_definition
class ViewLayoutOp(IRDLOperation):
    """A tensor seen through an affine remapping of its grid and shard indices:
    `%v = d2m.view_layout %t remapping = #map : tensor<A> -> tensor<B>`."""

    name = "d2m.view_layout"
    input = operand_def()
    remapping = prop_def(AffineMapAttr)
    result = result_def()
    traits = traits_def(_ViewLayoutCanonicalization())

    def asm_result_name(self) -> str:  # upstream's getAsmResultNames
        return "view"

    @classmethod
    def parse(cls, parser: Parser) -> "ViewLayoutOp":
        name = parser.parse_unresolved_operand()
        parser.parse_keyword("remapping")
        parser.parse_punctuation("=")
        remapping = parser.parse_attribute()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        source = parser.parse_type()
        parser.parse_punctuation("->")
        result = parser.parse_type()
        return cls.create(operands=parser.resolve_operands([name], [source], position), result_types=[result],
                          properties={"remapping": remapping}, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        printer.print_string(" remapping = ")
        printer.print_attribute(self.remapping)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)


class FoldIdentityView(RewritePattern):
    """A view of a tensor as it is (its own type, the identity remapping) is the tensor (upstream's fold)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ViewLayoutOp, rewriter: PatternRewriter) -> None:
        if op.input.type == op.result.type and op.remapping.data == AffineMap.identity(op.remapping.data.num_dims):
            rewriter.replace_op(op, [], [op.input])


def _grid_maps(value) -> tuple:
    """The virtual grid mappings a tensor's d2m.empty was made with (none for anything else)."""
    owner = value.owner
    if not isinstance(owner, Operation) or owner.name != "d2m.empty":
        return ()
    return tuple(owner.attributes[k] for k in ("virtualGridForwardMapping", "virtualGridInverseMapping")
                 if k in owner.attributes)


class FoldToLayout(RewritePattern):
    """Upstream's to_layout canonicalizations: a to_layout of a fresh d2m.empty is a d2m.empty of its output's
    type (keeping the output's virtual grid), a to_layout of a to_layout moves the first's input directly, and a
    to_layout between two tensors of one type (not a view's, not changing the virtual grid) is its input."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ToLayoutOp, rewriter: PatternRewriter) -> None:
        if op.result is None or not isinstance(op.result.type, TensorType):
            return
        producer = op.input.owner
        if isinstance(producer, EmptyOp):
            output = op.output.owner
            attributes = {k: v for k, v in output.attributes.items() if k.startswith("virtualGrid")} \
                if isinstance(output, EmptyOp) else {}
            rewriter.replace_op(op, EmptyOp.create(result_types=[op.result.type], attributes=attributes))
        elif isinstance(producer, ToLayoutOp) and producer.result is not None:
            rewriter.replace_op(op, ToLayoutOp.create(operands=[producer.input, op.output],
                                                      result_types=[op.result.type]))
        elif op.input.type == op.output.type and not isinstance(producer, ViewLayoutOp) and \
                _grid_maps(op.input) == _grid_maps(op.output):
            rewriter.replace_op(op, [], [op.input])


class _RegionsOp(IRDLOperation):
    """`{attrs} ins(%a : T) outs(%b : T) {region}[, {region}...] : T...` (generic and spatial)."""

    # the operand groups in order; after `ins` and `outs` a group is optional and printed only when it has values
    GROUPS: ClassVar[tuple[str, ...]] = ("ins", "outs")
    # inherent attributes: kept with the discardable ones, where this build's passes read them, whichever
    # dictionary the text wrote them in (the generic form writes them as properties)
    INHERENT: ClassVar[frozenset[str]] = frozenset()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    inputs = var_operand_def()
    outputs = var_operand_def()
    results_ = var_result_def()

    @classmethod
    def create(cls, *, properties=None, attributes=None, **rest):
        properties, attributes = dict(properties or {}), dict(attributes or {})
        for key in [k for k in properties if k in cls.INHERENT]:
            attributes[key] = properties.pop(key)
        return super().create(properties=properties, attributes=attributes, **rest)

    @classmethod
    def parse(cls, parser: Parser):
        attributes = parser.parse_optional_attr_dict()
        groups = []
        for i, keyword in enumerate(cls.GROUPS):
            if i >= 2 and parser.parse_optional_keyword(keyword) is None:
                groups.append([])
                continue
            if i < 2:
                parser.parse_keyword(keyword)
            names, types_, position = parse_typed_operands(parser)
            groups.append(parser.resolve_operands(names, types_, position))
        regions = []  # none once outlined into kernel functions
        if (region := parser.parse_optional_region()) is not None:
            regions.append(region)
            while parser.parse_optional_punctuation(","):
                regions.append(parser.parse_region())
        results = []  # memref generics write their outputs in place and have no results
        if parser.parse_optional_punctuation(":"):
            results = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        return cls.create(operands=[v for g in groups for v in g], result_types=results, attributes=attributes,
                          regions=regions, properties={"operandSegmentSizes": DenseArrayBase.from_list(
                              i32, [len(g) for g in groups])})

    def name_blocks(self, printer: Printer) -> None:
        """Upstream names a generic's entry blocks after their threads, counted per kind (`^datamovement0`,
        `^compute0`); names already given in this printing (a block printed twice) are kept."""
        threads = self.attributes.get("threads")
        if not isinstance(threads, ArrayAttr):
            return
        counts: dict[str, int] = {}
        for region, thread in zip(self.regions, threads.data):
            if region.blocks.first is None or not isinstance(thread, ThreadAttr):
                continue
            kind = thread.thread
            printer._blocks.setdefault(region.blocks.first, f"{kind}{counts.get(kind, 0)}")
            counts[kind] = counts.get(kind, 0) + 1

    # what precedes each operand group and the regions: upstream starts each on a line of its own
    BREAK: ClassVar[str] = " "

    def print(self, printer: Printer) -> None:
        self.name_blocks(printer)
        printer.print_op_attributes(self.attributes)
        print_typed_operands(printer, "ins", self.inputs, self.BREAK)
        print_typed_operands(printer, "outs", self.outputs, self.BREAK)
        if len(self.GROUPS) > 2 and self.additional_args:
            print_typed_operands(printer, self.GROUPS[2], self.additional_args, self.BREAK)
        for i, region in enumerate(self.regions):
            printer.print_string(", " if i else self.BREAK)
            printer.print_region(region, print_empty_block=True)
        if self.result_types:
            printer.print_string(" : ")
            printer.print_list(self.result_types, printer.print_attribute)


class _GenericCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (FreshLinalgInits(),)


@irdl_op_definition
class GenericOp(_RegionsOp):
    """Computes its outputs from its inputs on a grid of cores: its region runs once per block of the iteration
    space (`grid`, `block_factors`, `indexing_maps`, `iterator_types`, `threads` attributes, as upstream's)."""

    name = "d2m.generic"
    GROUPS: ClassVar[tuple[str, ...]] = ("ins", "outs", "additionalArgs")
    BREAK: ClassVar[str] = "\n        "  # as upstream prints it, whatever the op's indentation
    INHERENT: ClassVar[frozenset[str]] = frozenset({"block_factors", "grid", "indexing_maps", "iterator_types",
                                                    "threads", "fabricConnectionConfig"})
    # the operand groups again, in order: a subclass's own fields come first in IRDL's segment order
    inputs = var_operand_def()
    outputs = var_operand_def()
    # semaphores and circular buffers the regions use besides the operands
    additional_args = var_operand_def()
    regions_ = var_region_def()
    # a data-movement region of explicit-CB form ends without a yield
    traits = traits_def(NoTerminator(), _TensorFormEffects(), _GenericCanonicalization())

    @property
    def region(self) -> Region:
        return self.regions[0]

    def error(self, message: str) -> VerifyException:
        return VerifyException(f"'{self.name}' op {message}")

    def verify_(self) -> None:
        verify_generic(self)


class FreshLinalgInits(RewritePattern):
    """A linalg.generic inside a tensor-form generic computes into a fresh `d2m.empty`: an init that is some other
    value (a reserved block, an input fused in place by a linalg pass) would be written in place, which the
    backend does not do. The result reaches its destination through the `d2m.store` that follows."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if not op.regions or not op.results:
            return
        for region in op.regions:
            for inner in [o for o in region.walk() if isinstance(o, LinalgGenericOp)]:
                for index in range(len(inner.inputs), len(inner.operands)):
                    init = inner.operands[index]
                    if not isinstance(init.type, TensorType) or \
                            isinstance(init.owner, (EmptyOp, TensorEmptyOp)):
                        continue
                    empty = EmptyOp.create(result_types=[init.type])
                    rewriter.insert_op(empty, InsertPoint.before(inner))
                    inner.operands[index] = empty.result
                    rewriter.notify_op_modified(inner)


@irdl_op_definition
class SpatialOp(_RegionsOp):
    """Regions placed side by side on the core ranges `grid_ranges` names, one per region, run together."""

    name = "d2m.spatial"
    regions_ = var_region_def()
    traits = traits_def(NoTerminator())  # upstream's: a region ends with its generic once results are gone

    def error(self, message: str) -> VerifyException:
        return VerifyException(f"'{self.name}' op {message}")

    def verify_(self) -> None:
        verify_spatial(self)
        ranges = self.attributes["grid_ranges"].data
        for i, (a_start, a_end) in enumerate(r.data for r in ranges):
            for j, (b_start, b_end) in enumerate(r.data for r in ranges[i + 1:]):
                if all(a_start[d] <= b_end[d] and b_start[d] <= a_end[d] for d in (0, 1)):
                    raise self.error(f"grid_ranges of regions {i} and {i + 1 + j} overlap")


@irdl_op_definition
class BlockIndexOp(IRDLOperation):
    """The index of the block a generic's region computes, along loop dim `dim`: `d2m.block_index(0) : index`."""

    name = "d2m.block_index"
    dim = prop_def(IntegerAttr)
    result = result_def(IndexType)

    @classmethod
    def parse(cls, parser: Parser) -> "BlockIndexOp":
        with parser.in_parens():
            dim = parser.parse_integer(allow_negative=False)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        return cls.create(properties={"dim": IntegerAttr(dim, i64)}, result_types=[parser.parse_type()],
                          attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(f"({self.dim.value.data})")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def asm_result_name(self) -> str:  # upstream's getAsmResultNames
        return f"block{self.dim.value.data}"


def _parse_indices(parser: Parser) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)


def _parse_keyword_indices(parser: Parser, keyword: str) -> list[UnresolvedOperand]:
    return _parse_indices(parser) if parser.parse_optional_keyword(keyword) is not None else []


def _print_indices(printer: Printer, keyword: str, values) -> None:
    """` keyword[%a, %b]`, or nothing for no values."""
    if values:
        printer.print_string(f"{keyword}[")
        printer.print_list(values, printer.print_operand)
        printer.print_string("]")


def _segments(*groups) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, [len(g) for g in groups])


def _verify_buffer_forms(op: IRDLOperation, remote) -> None:
    """A remote load or store names a local buffer (implicit form) or a CB (explicit form); a CB moves blocks of
    memrefs, so its remote side is a memref too."""
    if (op.local is None) == (op.cb is None):
        raise VerifyException(f"'{op.name}' op needs exactly one of a local buffer or a circular buffer")
    if op.cb is not None and not isinstance(remote.type, MemRefType):
        raise VerifyException(f"'{op.name}' op tensor parameters are not allowed in explicit CB form; memref operand "
                              f"must be a memref type")


@irdl_op_definition
class RemoteLoadOp(IRDLOperation):
    """A block of a (remote) generic operand loaded into a local buffer (`%r = d2m.remote_load %local %src[%i, %j]
    : L, S -> L` on tensors, no result on memrefs) or into a circular buffer (`d2m.remote_load %src[%i, %j] into %cb
    : S into !d2m.cb<...>`); `mcore[...] mshape[...]` multicast it over a core rectangle, `mcast[...]` along
    grid dims."""

    name = "d2m.remote_load"
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    local = opt_operand_def()
    source = operand_def()
    indices = var_operand_def(IndexType)
    cb = opt_operand_def(CBType)
    mcast_start = var_operand_def(IndexType)
    mcast_shape = var_operand_def(IndexType)
    mcast = var_operand_def(IndexType)
    result = opt_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> "RemoteLoadOp":
        first = parser.parse_unresolved_operand()
        second = parser.parse_optional_unresolved_operand()
        local, source = ([first], second) if second is not None else ([], first)
        indices = _parse_indices(parser)
        cb = [parser.parse_unresolved_operand()] if parser.parse_optional_keyword("into") is not None else []
        start = _parse_keyword_indices(parser, "mcore")
        shape = []
        if start:
            parser.parse_keyword("mshape")
            shape = _parse_indices(parser)
        mcast = _parse_keyword_indices(parser, "mcast")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        types_ = [parser.parse_type()]
        if local:
            parser.parse_punctuation(",")
            types_.append(parser.parse_type())
        if cb:
            parser.parse_keyword("into")
            types_.append(parser.parse_type())
        results = [parser.parse_type()] if parser.parse_optional_punctuation("->") else []
        index = [IndexType()] * (len(indices) + len(start) + len(shape) + len(mcast))
        values = parser.resolve_operands([*local, source, *indices, *cb, *start, *shape, *mcast],
                                         [*types_[:1 + len(local)], *index[:len(indices)], *types_[1 + len(local):],
                                          *index[len(indices):]], position)
        return cls.create(operands=values, result_types=results, attributes=attributes, properties={
            "operandSegmentSizes": _segments(local, [source], indices, cb, start, shape, mcast)})

    def print(self, printer: Printer) -> None:
        if self.local is not None:
            printer.print_string(" ")
            printer.print_operand(self.local)
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        if self.cb is not None:
            printer.print_string(" into ")
            printer.print_operand(self.cb)
        if self.mcast_start:
            _print_indices(printer, " mcore", self.mcast_start)
            _print_indices(printer, " mshape", self.mcast_shape)
        _print_indices(printer, " mcast", self.mcast)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if self.local is not None:
            printer.print_attribute(self.local.type)
            printer.print_string(", ")
        printer.print_attribute(self.source.type)
        if self.cb is not None:
            printer.print_string(" into ")
            printer.print_attribute(self.cb.type)
        if self.result is not None:
            printer.print_string(" -> ")
            printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        _verify_buffer_forms(self, self.source)
        if len(self.mcast_start) != len(self.mcast_shape):
            raise VerifyException(f"'{self.name}' op mcore[...] and mshape[...] must have the same rank")


@irdl_op_definition
class RemoteStoreOp(IRDLOperation):
    """A local block stored into a (remote) generic operand: `%r = d2m.remote_store %dst[%i, %j] %local : D, L -> D`
    on tensors (no result on memrefs), or from a circular buffer: `d2m.remote_store %dst[%i] from %cb : D from
    !d2m.cb<...>`."""

    name = "d2m.remote_store"
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    dest = operand_def()
    indices = var_operand_def(IndexType)
    local = opt_operand_def()
    cb = opt_operand_def(CBType)
    result = opt_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> "RemoteStoreOp":
        dest = parser.parse_unresolved_operand()
        indices = _parse_indices(parser)
        local = [] if (value := parser.parse_optional_unresolved_operand()) is None else [value]
        cb = [parser.parse_unresolved_operand()] if parser.parse_optional_keyword("from") is not None else []
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        types_ = [parser.parse_type()]
        if local:
            parser.parse_punctuation(",")
            types_.append(parser.parse_type())
        if cb:
            parser.parse_keyword("from")
            types_.append(parser.parse_type())
        results = [parser.parse_type()] if parser.parse_optional_punctuation("->") else []
        operands = parser.resolve_operands([dest, *indices, *local, *cb],
                                           [types_[0], *[IndexType()] * len(indices), *types_[1:]], position)
        return cls.create(operands=operands, result_types=results, attributes=attributes, properties={
            "operandSegmentSizes": _segments([dest], indices, local, cb)})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.dest)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        if self.local is not None:
            printer.print_string(" ")
            printer.print_operand(self.local)
        if self.cb is not None:
            printer.print_string(" from ")
            printer.print_operand(self.cb)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.dest.type)
        if self.local is not None:
            printer.print_string(", ")
            printer.print_attribute(self.local.type)
        if self.cb is not None:
            printer.print_string(" from ")
            printer.print_attribute(self.cb.type)
        if self.result is not None:
            printer.print_string(" -> ")
            printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        _verify_buffer_forms(self, self.dest)


class _YieldOp(IRDLOperation):
    """`d2m.yield %a, %b : (A, B)`."""

    values = var_operand_def()
    traits = traits_def(IsTerminator())

    @classmethod
    def parse(cls, parser: Parser):
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        position = parser.pos
        types_ = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        return cls.create(operands=parser.resolve_operands(names, types_, position))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.values, printer.print_operand)
        printer.print_string(" : (")
        printer.print_list(self.values.types, printer.print_attribute)
        printer.print_string(")")


@irdl_op_definition
class YieldOp(_YieldOp):
    name = "d2m.yield"


@irdl_op_definition
class SpatialYieldOp(_YieldOp):
    name = "d2m.spatial_yield"


class TileOp(IRDLOperation):
    """A computation on tiles (generic form): `%r = "d2m.tile_exp"(%t) : (!ttcore.tile<...>) -> !ttcore.tile<...>`."""

    FAMILY: ClassVar[str] = ""
    operands_ = var_operand_def()
    results_ = var_result_def()

    def verify_(self) -> None:
        verify_compute_region(self)


# binary tile ops whose scalar right operand leaves the tile as it is at this value (x + 0, x / 1, x ** 1)
SCALAR_IDENTITIES = {"tile_add": 0.0, "tile_sub": 0.0, "tile_mul": 1.0, "tile_div": 1.0, "tile_pow": 1.0}


class FoldScalarIdentity(RewritePattern):
    """A tile op with a constant scalar right operand that is its identity is its left operand."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        identity = SCALAR_IDENTITIES.get(op.name[len("d2m."):])
        if identity is None or len(op.operands) != 2 or len(op.results) != 1:
            return
        lhs, rhs = op.operands
        constant = rhs.owner
        if not isinstance(constant, arith.ConstantOp) or lhs.type != op.results[0].type:
            return
        value = constant.value
        if isinstance(value, (FloatAttr, IntegerAttr)) and value.value.data == identity:
            rewriter.replace_op(op, [], [lhs])


class _ScalarIdentityCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (FoldScalarIdentity(),)


# tile ops' properties: tile_matmul_block's B block may be read transposed; tile_clamp_scalar's bounds are f32 (float
# tiles) or i32 (integer tiles), tile_selu's scale and alpha f32
TILE_OP_PROPERTIES = {"tile_matmul_block": {"transpose_b": lambda: opt_prop_def(BoolAttr)},
                      "tile_clamp_scalar": {"min": lambda: prop_def(FloatAttr | IntegerAttr),
                                            "max": lambda: prop_def(FloatAttr | IntegerAttr)},
                      "tile_selu": {"scale": lambda: prop_def(FloatAttr), "alpha": lambda: prop_def(FloatAttr)}}


def _tile_op(mnemonic: str, family: str) -> type[TileOp]:
    body = {"name": f"d2m.{mnemonic}", "FAMILY": family, "__doc__": f"upstream's `d2m.{mnemonic}`.",
            "__annotations__": {"FAMILY": ClassVar[str]},
            **{key: make() for key, make in TILE_OP_PROPERTIES.get(mnemonic, {}).items()}}
    if mnemonic in SCALAR_IDENTITIES:
        body["traits"] = traits_def(_ScalarIdentityCanonicalization())
    return table_class(mnemonic, "Op", (TileOp,), body, irdl_op_definition)


TILE_OP_CLASSES = {mnemonic: _tile_op(mnemonic, family) for mnemonic, (family, _) in TILE_OPS.items()}


@irdl_op_definition
class TileFillOp(IRDLOperation):
    """A tile every element of which is `value`: `%t = d2m.tile_fill(%c) : f32 -> <32x32, f32>` (the tile type
    printed as upstream prints its result type, without `!ttcore.tile`)."""

    name = "d2m.tile_fill"
    value = operand_def()
    result = result_def(ttcore.TileType)

    @classmethod
    def parse(cls, parser: Parser) -> "TileFillOp":
        parser.parse_punctuation("(")
        name = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        scalar = parser.parse_type()
        parser.parse_punctuation("->")
        if parser._current_token.text == "<":  # the tile type as upstream prints it, its dialect prefix stripped
            tile = ttcore.TileType.new(ttcore.TileType.parse_parameters(parser))
        else:
            tile = parser.parse_type()
        return cls.create(operands=parser.resolve_operands([name], [scalar], position), result_types=[tile],
                          attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_operand(self.value)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(" -> ")
        self.result.type.print_parameters(printer)

D2M = Dialect("d2m", [EmptyOp, ToLayoutOp, ToDeviceOp, ToHostOp, ViewLayoutOp, GenericOp, SpatialOp, BlockIndexOp, RemoteLoadOp,
                      RemoteStoreOp, YieldOp, SpatialYieldOp, TileFillOp, *CB_OPS, *TILE_OP_CLASSES.values(),
                      *TILE_REDUCE_OPS, MaskOp, *DEBUG_OPS, *TILIZE_OPS, *DST_OPS, *EXTRA_TILE_OPS, *SCRATCH_OPS,
                      *INDEX_OPS, *SEMAPHORE_OPS, *DMA_OPS, *NULL_TX_OPS, *ARG_OPS, *ALIAS_OPS, *COMPOSITE_VIEW_OPS, *ARANGE_OPS,
                      *MASK_TILE_OPS, *TILE_BCAST_OPS,
                      *EMBEDDING_OPS,
                      *MESH_SHARD_OPS,
                      *TOPK_OPS],
              [*CB_ATTRS, ReduceDimAttr, TileBcastTypeAttr, *DMA_TYPES, *ARG_ATTRS,
               *TOPK_PLAN_ATTRS])
