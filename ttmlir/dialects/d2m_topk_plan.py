"""The attributes `--d2m-grid-selection` hands `--d2m-build-topk-chain` on a topk's leaf generic (`d2m.topk_plan`):
`#d2m.topk_plan<numShards = 1, ntShards = 1, mergeSchedule = [], placements = [...]>`, how the topk is split (bands
of the reduction dim, slices of the non-target dim, the group count after each merge round) and every buffer the
chain is built with, in build order, each a `#d2m.topk_placement<type = tensor<...>, grid = #ttcore.grid<...>>`
(the buffer's device type and the grid of the generic writing it)."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IntAttr, TensorType
from xdsl.ir import ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from ttmlir.dialects import ttcore

PLAN_ATTR = "d2m.topk_plan"


def _keyword(parser: AttrParser, name: str) -> None:
    parser.parse_keyword(name)
    parser.parse_punctuation("=")


@irdl_attr_definition
class TopKPlacementAttr(ParametrizedAttribute):
    """One planned buffer: its device type and the grid of the generic writing it."""

    name = "d2m.topk_placement"
    type: TensorType = param_def(TensorType)
    grid: ttcore.GridAttr = param_def(ttcore.GridAttr)

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            _keyword(parser, "type")
            position = parser.pos
            kind = parser.parse_type()
            if not isinstance(kind, TensorType):
                parser.raise_error("expected a ranked tensor type", position)
            parser.parse_punctuation(",")
            _keyword(parser, "grid")
            position = parser.pos
            grid = parser.parse_attribute()
            if not isinstance(grid, ttcore.GridAttr):
                parser.raise_error("expected a #ttcore.grid", position)
        return kind, grid

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<type = ")
        printer.print_attribute(self.type)
        printer.print_string(", grid = ")
        printer.print_attribute(self.grid)
        printer.print_string(">")


@irdl_attr_definition
class TopKPlanAttr(ParametrizedAttribute):
    """How a topk is split and the buffers its chain is built with (see the module doc)."""

    name = "d2m.topk_plan"
    num_shards: IntAttr = param_def(IntAttr)
    nt_shards: IntAttr = param_def(IntAttr)
    merge_schedule: ArrayAttr = param_def(ArrayAttr)
    placements: ArrayAttr = param_def(ArrayAttr)

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            _keyword(parser, "numShards")
            shards = parser.parse_integer(allow_negative=False)
            parser.parse_punctuation(",")
            _keyword(parser, "ntShards")
            nt = parser.parse_integer(allow_negative=False)
            parser.parse_punctuation(",")
            _keyword(parser, "mergeSchedule")
            schedule = parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                         lambda: parser.parse_integer(allow_negative=False))
            parser.parse_punctuation(",")
            _keyword(parser, "placements")
            position = parser.pos
            placements = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_attribute)
            if not all(isinstance(p, TopKPlacementAttr) for p in placements):
                parser.raise_error("expected #d2m.topk_placement attributes", position)
        return IntAttr(shards), IntAttr(nt), ArrayAttr([IntAttr(s) for s in schedule]), ArrayAttr(placements)

    def print_parameters(self, printer: Printer) -> None:
        schedule = ", ".join(str(s.data) for s in self.merge_schedule.data)
        printer.print_string(f"<numShards = {self.num_shards.data}, ntShards = {self.nt_shards.data}, "
                             f"mergeSchedule = [{schedule}], placements = [")
        for i, placement in enumerate(self.placements.data):
            if i:
                printer.print_string(", ")
            printer.print_attribute(placement)
        printer.print_string("]>")


TOPK_PLAN_ATTRS = [TopKPlacementAttr, TopKPlanAttr]
