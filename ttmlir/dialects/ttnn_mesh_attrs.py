"""How a host tensor is spread over the device mesh and gathered back (`ttnn.distribute_tensor`,
`ttnn.aggregate_tensor`), in upstream's syntax:

    #ttnn.mesh_mapper_config<placements = [<replicate, -1 : i32>, <shard, 1 : i32>], mesh_shape_override = [1 : ui32, 2 : ui32]>
    #ttnn.mesh_composer_config<dims = [0 : i32, 1 : i32], mesh_shape_override = [1 : ui32, 2 : ui32]>

A mapper gives each mesh axis a placement: the same tensor on every chip along it, or equal slices of one tensor
dimension. A composer names, per mesh axis, the tensor dimension the chips' values are concatenated along; its
mesh shape override is the sub-mesh (from the origin) whose chips are read.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Data
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer

PLACEMENT_TYPES = ("replicate", "shard")

Placement = tuple  # (placement type, tensor dim or None)


def _parse_int(parser: AttrParser) -> int:
    attr = parser.parse_attribute()
    if not isinstance(attr, IntegerAttr):
        parser.raise_error("expected an integer attribute")
    return attr.value.data


def _parse_placement(parser: AttrParser) -> Placement:
    with parser.in_angle_brackets():
        kind = parser.parse_identifier()
        if kind not in PLACEMENT_TYPES:
            parser.raise_error(f"expected one of: {', '.join(PLACEMENT_TYPES)}")
        return kind, _parse_int(parser) if parser.parse_optional_punctuation(",") else None


def _placement_str(placement: Placement) -> str:
    kind, dim = placement
    return f"<{kind}>" if dim is None else f"<{kind}, {dim} : i32>"


def _parse_fields(parser: AttrParser, first: str, parse_first) -> tuple[tuple, tuple[int, ...] | None]:
    """`<first = [...] (, mesh_shape_override = [...])?>`"""
    with parser.in_angle_brackets():
        parser.parse_keyword(first)
        parser.parse_punctuation("=")
        values = tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parse_first(parser)))
        override = None
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("mesh_shape_override")
            parser.parse_punctuation("=")
            override = tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: _parse_int(parser)))
    return values, override


def _override_str(override: tuple[int, ...] | None) -> str:
    return "" if override is None else ", mesh_shape_override = [" + ", ".join(f"{d} : ui32" for d in override) + "]"


@irdl_attr_definition
class MeshMapperConfigAttr(Data[tuple]):
    """One placement per mesh axis, and the mesh shape the chips are taken as (the device's when absent)."""

    name = "ttnn.mesh_mapper_config"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        return _parse_fields(parser, "placements", _parse_placement)

    def print_parameter(self, printer: Printer) -> None:
        placements, override = self.data
        printer.print_string(f"<placements = [{', '.join(map(_placement_str, placements))}]{_override_str(override)}>")

    @property
    def placements(self) -> tuple[Placement, ...]:
        return self.data[0]

    @property
    def mesh_shape_override(self) -> tuple[int, ...] | None:
        return self.data[1]


@irdl_attr_definition
class MeshComposerConfigAttr(Data[tuple]):
    """Per mesh axis, the tensor dimension its chips' values are concatenated along, and the sub-mesh read."""

    name = "ttnn.mesh_composer_config"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        return _parse_fields(parser, "dims", _parse_int)

    def print_parameter(self, printer: Printer) -> None:
        dims, override = self.data
        printer.print_string(f"<dims = [{', '.join(f'{d} : i32' for d in dims)}]{_override_str(override)}>")

    @property
    def dims(self) -> tuple[int, ...]:
        return self.data[0]

    @property
    def mesh_shape_override(self) -> tuple[int, ...] | None:
        return self.data[1]


MESH_ATTRS = (MeshMapperConfigAttr, MeshComposerConfigAttr)


def _axis_sizes(override: tuple[int, ...] | None, count: int) -> tuple[int, ...] | None:
    """The chips along each of `count` mesh axes an override gives (None: the device's, unknown here)."""
    if override is None:
        return None
    return tuple(override) if len(override) == count else None


def distribute_tensor_rule(op) -> None:
    """Each sharded tensor dimension is split evenly over its mesh axis; a dimension is sharded on one axis."""
    config, shape, result = op.prop("mapper_config"), list(op.operands[0].type.get_shape()), op.results[0].type
    placements = config.placements
    sharded = [dim for kind, dim in placements if kind == "shard"]
    for dim in sharded:
        if dim is None or not 0 <= dim < len(shape):
            raise op.error(f"shard placement dim {dim} is not a dimension of the rank-{len(shape)} input")
    if len(set(sharded)) != len(sharded):
        raise op.error(f"placements shard tensor dim {sharded[0]} on more than one mesh axis")
    sizes = _axis_sizes(config.mesh_shape_override, len(placements))
    if sizes is None:
        return None
    for (kind, dim), size in zip(placements, sizes):
        if kind == "shard":
            if shape[dim] % size:
                raise op.error(f"dimension {dim} of size {shape[dim]} does not split evenly over {size} devices")
            shape[dim] //= size
    if list(result.get_shape()) != shape:
        raise op.error(f"result shape ({', '.join(map(str, result.get_shape()))}) must be "
                       f"({', '.join(map(str, shape))}), the input's piece on one device")
    return None


def aggregate_tensor_rule(op) -> None:
    """Each mesh axis' chip values are concatenated along its dim (distinct dims, inside the tensor)."""
    config, shape, result = op.prop("composer_config"), list(op.operands[0].type.get_shape()), op.results[0].type
    dims, sizes = config.dims, _axis_sizes(config.mesh_shape_override, len(config.dims))
    joined = [(d, size) for d, size in zip(dims, sizes or [None] * len(dims)) if d != -1 or size != 1]
    if any(not 0 <= d < len(shape) for d, _ in joined):  # -1: an axis of one chip, joined along no dim
        raise op.error(f"composer dims ({', '.join(map(str, dims))}) must be dimensions of the rank-{len(shape)} input")
    if len({d for d, _ in joined}) != len(joined):
        raise op.error(f"composer dims ({', '.join(map(str, dims))}) must be distinct")
    if sizes is None:
        return None
    for dim, size in joined:
        shape[dim] *= size
    if list(result.get_shape()) != shape:
        raise op.error(f"result shape ({', '.join(map(str, result.get_shape()))}) must be "
                       f"({', '.join(map(str, shape))}), the chips' values concatenated")
    return None
