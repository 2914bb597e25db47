"""The layout of a core-local circular buffer in L1: `memref<2x4x!ttcore.tile<32x32, f32>, #ttcore.cb_layout<16384x4096,
2>, #l1>` (the byte stride of each dim and how many backing buffers it cycles through). Unlike `#ttcore.shard`, the
whole shape is the one core's buffer (no grid dims)."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Data
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from ttmlir.dialects.ttcore_attrs import _StridedLayout
from ttmlir.ir.syntax import dims_str, parse_dims


@irdl_attr_definition
class CBLayoutAttr(_StridedLayout, Data[tuple[tuple[int, ...], int]]):
    name = "ttcore.cb_layout"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            stride = parse_dims(parser)
            parser.parse_punctuation(",")
            return stride, parser.parse_integer(allow_negative=False)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{dims_str(self.data[0])}, {self.data[1]}>")

    @staticmethod
    def for_buffer(t: MemRefType, element_bytes: int, buffers: int) -> "CBLayoutAttr":
        """The row-major layout of a buffer of `t`'s shape, `element_bytes` per element."""
        shape = t.get_shape()
        return CBLayoutAttr(((tuple(math.prod(shape[i + 1:]) * element_bytes for i in range(len(shape)))), buffers))

    def bytes(self, t: MemRefType) -> int:
        """The bytes of all its backing buffers."""
        stride, buffers = self.data
        return t.get_shape()[0] * stride[0] * buffers if stride else 0
