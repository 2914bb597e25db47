"""ND sharding (TTNN JIT's tensor encoding): `#ttnn.ttnn_nd_layout<<grid>, memref<shard>, <memory layout>[, <shard
orientation>[, <distribution strategy>]]>`, whose memref is one shard in any rank (legacy sharding's is 2-D, one
shard per core), and the `#ttnn.nd_shard_spec` a memory config gives such a tensor.

The TTNN compilation pipeline does not make these; IR that carries them serializes (the flatbuffer's memory config
then holds the ND shard spec) and runs as any sharded tensor does.
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, NoneAttr
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects import ttcore
from ttmlir.dialects.ttnn_attrs import (BufferTypeAttr, CoreRangeAttr, CoreRangeSetAttr, MemrefLayout, ShapeAttr,
                                        TensorMemoryLayoutAttr)
from ttmlir.ir.syntax import enum, enum_attr

ShardOrientationAttr = enum_attr("ttnn.shard_orientation", ("row_major", "col_major"),
                                 "The order shards are laid over the cores: along rows or along columns.")
ShardDistributionStrategyAttr = enum_attr(
    "ttnn.shard_distribution_strategy", ("round_robin_1d", "grid_2d"),
    "How ND shards are dealt to the cores: one after another over the cores, or as a 2-D grid.")


def _bare(parser: AttrParser, cls: type) -> Attribute:
    """An enum attribute written bare (`<row_major>`) or whole (`#ttnn.shard_orientation<row_major>`)."""
    if parser._current_token.text.startswith("#"):
        attr = parser.parse_attribute()
        return attr if isinstance(attr, cls) else parser.raise_error(f"expected #{cls.name}")
    return cls(cls.parse_parameter(parser))


@irdl_attr_definition
class NDShardSpecAttr(ParametrizedAttribute):
    """`#ttnn.nd_shard_spec<<[core ranges]>, <shard shape>, <orientation>, <distribution strategy>>`."""

    name = "ttnn.nd_shard_spec"
    core_range_set: CoreRangeSetAttr = param_def()
    shape: ShapeAttr = param_def()
    shard_orientation: ShardOrientationAttr = param_def()
    shard_distribution_strategy: ShardDistributionStrategyAttr = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            cores = CoreRangeSetAttr(CoreRangeSetAttr.parse_parameter(parser))
            parser.parse_punctuation(",")
            shape = ShapeAttr(ShapeAttr.parse_parameter(parser))
            parser.parse_punctuation(",")
            orientation = _bare(parser, ShardOrientationAttr)
            parser.parse_punctuation(",")
            strategy = _bare(parser, ShardDistributionStrategyAttr)
        return cores, shape, orientation, strategy

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        self.core_range_set.print_parameter(printer)
        printer.print_string(", ")
        self.shape.print_parameter(printer)
        for attr in (self.shard_orientation, self.shard_distribution_strategy):
            printer.print_string(", ")
            attr.print_parameter(printer)
        printer.print_string(">")


@irdl_attr_definition
class TTNNNDLayoutAttr(MemrefLayout, ParametrizedAttribute):
    """A tensor's ND-sharded device layout: core grid, one shard's memref, memory layout, and optionally the shard
    orientation and distribution strategy (row-major and 2-D grid when left out)."""

    name = "ttnn.ttnn_nd_layout"
    grid: ttcore.GridAttr = param_def()
    memref: MemRefType = param_def()
    mem_layout: TensorMemoryLayoutAttr = param_def()
    shard_orientation: Attribute = param_def()  # a ShardOrientationAttr, or NoneAttr
    shard_distribution_strategy: Attribute = param_def()  # a ShardDistributionStrategyAttr, or NoneAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            with parser.in_angle_brackets():
                grid = ttcore.GridAttr(ttcore.parse_grid_body(parser))
            parser.parse_punctuation(",")
            memref = parser.parse_type()
            if not isinstance(memref, MemRefType):
                parser.raise_error("expected a memref type in the ttnn_nd_layout")
            parser.parse_punctuation(",")
            layout = _bare(parser, TensorMemoryLayoutAttr)
            orientation = strategy = NoneAttr()
            if parser.parse_optional_punctuation(","):
                orientation = _bare(parser, ShardOrientationAttr)
                if parser.parse_optional_punctuation(","):
                    strategy = _bare(parser, ShardDistributionStrategyAttr)
        return grid, memref, layout, orientation, strategy

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<<{ttcore.grid_body(self.grid.data)}>, ")
        printer.print_attribute(self.memref)
        for attr in (self.mem_layout, self.shard_orientation, self.shard_distribution_strategy):
            if not isinstance(attr, NoneAttr):
                printer.print_string(", ")
                attr.print_parameter(printer)
        printer.print_string(">")

    def verify(self) -> None:
        if not isinstance(self.memref.memory_space, BufferTypeAttr):
            raise VerifyException("ttnn_nd_layout's memref must be in a #ttnn.buffer_type memory space")
        if isinstance(self.shard_distribution_strategy, ShardDistributionStrategyAttr) and \
                isinstance(self.shard_orientation, NoneAttr):
            raise VerifyException("ttnn_nd_layout's distribution strategy comes after its shard orientation")

    @property
    def memory_layout(self) -> TensorMemoryLayoutAttr:
        return self.mem_layout

    @property
    def core_ranges(self) -> CoreRangeSetAttr:
        """The grid's cores from (0, 0), as tt-metal places ND shards."""
        rows, cols = self.grid.data.shape
        return CoreRangeSetAttr((CoreRangeAttr(((0, 0), (cols - 1, rows - 1))),))

    def scalar_shard_shape(self) -> tuple[int, ...]:
        """One shard's shape in elements (tiles counted as their rows and columns)."""
        shape = list(self.memref.get_shape())
        element = self.memref.element_type
        if isinstance(element, ttcore.TileType) and len(shape) >= 2:
            shape[-2] *= element.dims[0]
            shape[-1] *= element.dims[1]
        return tuple(shape)

    def nd_shard_spec(self) -> NDShardSpecAttr:
        orientation = self.shard_orientation if isinstance(self.shard_orientation, ShardOrientationAttr) else \
            enum(ShardOrientationAttr, "row_major")
        strategy = self.shard_distribution_strategy \
            if isinstance(self.shard_distribution_strategy, ShardDistributionStrategyAttr) else \
            enum(ShardDistributionStrategyAttr, "grid_2d")
        return NDShardSpecAttr(self.core_ranges, ShapeAttr(self.scalar_shard_shape()), orientation, strategy)


ND_LAYOUT_ATTRS = (ShardOrientationAttr, ShardDistributionStrategyAttr, NDShardSpecAttr, TTNNNDLayoutAttr)
