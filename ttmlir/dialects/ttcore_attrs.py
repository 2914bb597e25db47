"""The TTCore dialect's types and attributes: data types and tiles, grids and core ranges, the system descriptor
and devices, tensor shardings and the memref layouts of the TTMetal path."""

from __future__ import annotations

import functools
import itertools
import math
import operator

from dataclasses import dataclass, fields

from xdsl.dialects.builtin import ArrayAttr, DenseIntOrFPElementsAttr, DictionaryAttr, IntegerAttr, MemRefLayoutAttr, TensorType
from xdsl.ir.affine import (AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr,
                             AffineMap)
from xdsl.ir import Attribute, BlockArgument, Data, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ttmlir import hardware
from ttmlir.ir.syntax import (BracketedDims, dims_str, enum, enum_attr, parse_bracketed_ints, parse_dims, parse_keyword_value,
                                    scan_raw)


DataTypeAttr = enum_attr("ttcore.supportedDataTypes", hardware.DATA_TYPES, "A data type a Tenstorrent chip computes in.")
ArchAttr = enum_attr("ttcore.arch", hardware.ARCHS, "A chip architecture.")
MemorySpaceAttr = enum_attr("ttcore.memory_space", ("system", "mmio", "dram", "l1", "dst"), "Where a buffer lives.")
IteratorTypeAttr = enum_attr("ttcore.iterator_type", ("parallel", "reduction"),
                             "How a generic op's loop dimension is iterated: independently, or reduced over.")
TensorMemoryLayoutAttr = enum_attr(
    "ttcore.tensor_memory_layout",
    ("none", "interleaved", "single_bank", "height_sharded", "width_sharded", "block_sharded"),
    "How a tensor is spread over banks.")
OOBValAttr = enum_attr("ttcore.oob_val", ("undef", "zero", "one", "inf", "neginf"), "Value read outside a tensor.")
ArgumentTypeAttr = enum_attr("ttcore.argument_type", ("input", "parameter", "constant", "default"),
                             "The role of a function argument.")
ShardStatusAttr = enum_attr("ttcore.shard_status", ("presharded", "unsharded"), "Whether an argument is sharded.")
ShardDirectionAttr = enum_attr("ttcore.shard_direction", ("full_to_shard", "shard_to_full"),
                               "Direction of a mesh_shard.")
ShardTypeAttr = enum_attr("ttcore.shard_type", ("identity", "replicate", "maximal", "devices"), "Kind of mesh_shard.")
ReduceTypeAttr = enum_attr("ttcore.reduce_type", ("sum", "mean", "max", "min", "std", "var", "prod", "invalid"),
                           "Reduction applied by a collective.")
# how the chips along one mesh axis are linked, which the CCL ops route over
TopologyAttr = enum_attr("ttcore.topology", ("ring", "linear", "mesh", "torus", "disabled"), "CCL topology.")
# tt-train's (ttml) attention masking, in the order of its enum: no mask, causal, or an explicit 1/0 mask operand
AttentionMaskTypeAttr = enum_attr("ttcore.attention_mask_type", ("none", "causal", "arbitrary"),
                                  "Which keys a ttml attention op hides.")
# the activation between a MoE expert's gate/up and down matmuls: silu(gate) * up, or GPT-OSS's clamped SwiGLU
MoEActivationFunctionAttr = enum_attr("ttcore.moe_activation_function", ("silu", "swiglu"),
                                      "Activation function for the MoE expert FFN.")


def is_block_float(element: Attribute) -> bool:
    """A tile element type of a block-float data type: the element type of a bfp tensor (it has no scalar type)."""
    return isinstance(element, TileType) and element.dtype.startswith("bfp_")


def is_constant_argument(arg: SSAValue) -> bool:
    """A function argument whose `ttcore.argument_type` is parameter or constant: fixed across runs (weights)."""
    func = arg.block.parent_op() if isinstance(arg, BlockArgument) else None
    if func is None or getattr(func, "arg_attrs", None) is None:
        return False
    attrs = func.arg_attrs.data[arg.index]
    kind = attrs.data.get("ttcore.argument_type") if isinstance(attrs, DictionaryAttr) else None
    return kind is not None and any(word in str(kind) for word in ("parameter", "constant"))

@irdl_attr_definition
class TileType(ParametrizedAttribute, TypeAttribute):
    """A hardware tile of scalars, `!ttcore.tile<32x32, f32>`."""

    name = "ttcore.tile"
    shape: ArrayAttr = param_def()
    data_type: Attribute = param_def()

    def __init__(self, shape: tuple[int, int], dtype: str):
        super().__init__(ArrayAttr([IntegerAttr(d, 64) for d in shape]), enum(DataTypeAttr, dtype))

    @property
    def dims(self) -> tuple[int, ...]:
        return tuple(d.value.data for d in self.shape.data)

    @property
    def dtype(self) -> str:
        return self.data_type.data.value

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            dims = parse_dims(parser)
            parser.parse_punctuation(",")
            dtype = parser.parse_keyword_in(hardware.DATA_TYPES, "for tile data type")
        return ArrayAttr([IntegerAttr(d, 64) for d in dims]), enum(DataTypeAttr, dtype)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{dims_str(self.dims)}, {self.dtype}>")

    def verify(self) -> None:
        if len(self.dims) != 2 or tuple(self.dims) not in hardware.TILE_SIZES:
            raise VerifyException(f"unsupported tile shape {dims_str(self.dims)}")


@dataclass(frozen=True)
class Grid:
    shape: tuple[int, ...]
    maps: tuple[str, ...] = ()
    keyword_maps: bool = False


@irdl_attr_definition
class GridAttr(Data[Grid]):
    """A grid of cores, optionally with its virtual/physical mapping: `#ttcore.grid<8x8>`."""

    name = "ttcore.grid"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Grid:
        with parser.in_angle_brackets():
            return parse_grid_body(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{grid_body(self.data)}>")


def parse_grid_body(parser: AttrParser) -> Grid:
    shape = parse_dims(parser)
    maps: list[str] = []
    keyword = False
    while parser.parse_optional_punctuation(","):
        if parser.parse_optional_keyword_in(("virt_to_physical_map", "physical_to_virt_map")):
            parser.parse_punctuation("=")
            keyword = True
        maps.append(scan_raw(parser))
    return Grid(shape, tuple(maps), keyword)


def grid_body(grid: Grid) -> str:
    text = dims_str(grid.shape)
    if grid.keyword_maps:
        names = ("virt_to_physical_map", "physical_to_virt_map")
        return text + "".join(f", {n} = {m}" for n, m in zip(names, grid.maps))
    return text + "".join(f", {m}" for m in grid.maps)


@irdl_attr_definition
class CoreCoordAttr(Data[tuple[int, int]]):
    """A core's (y, x) coordinate: `#ttcore.core_coord<0, 0>`."""

    name = "ttcore.core_coord"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[int, int]:
        with parser.in_angle_brackets():
            y = parser.parse_integer()
            parser.parse_punctuation(",")
            return y, parser.parse_integer()

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data[0]}, {self.data[1]}>")


@irdl_attr_definition
class CoreRangeAttr(Data[tuple[tuple[int, int], tuple[int, int]]]):
    """An inclusive rectangle of cores: `#ttcore.core_range<(0,0), (7,7)>` (start (y,x), end (y,x))."""

    name = "ttcore.core_range"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        def corner() -> tuple[int, int]:
            with parser.in_parens():
                y = parser.parse_integer()
                parser.parse_punctuation(",")
                return y, parser.parse_integer()

        with parser.in_angle_brackets():  # checked before `>`, so an error points into the attribute
            start = corner()
            parser.parse_punctuation(",")
            end = corner()
            for what, (y, x) in (("start", start), ("end", end)):
                if y < 0 or x < 0:
                    parser.raise_error(f"{what} coordinates ({y},{x}) must be non-negative")
            if start[0] > end[0] or start[1] > end[1]:
                parser.raise_error(f"Start coordinates ({start[0]},{start[1]}) must be less than or equal to end "
                                   f"coordinates ({end[0]},{end[1]})")
        return start, end

    def print_parameter(self, printer: Printer) -> None:
        (y0, x0), (y1, x1) = self.data
        printer.print_string(f"<({y0},{x0}), ({y1},{x1})>")


# --- system descriptor -------------------------------------------------------------------------
# A chip description is an ordered list of `key = value` fields; the table says how each field
# is written, so parsing and printing stay in step with upstream's text.
INT, INT64, DIMS, ARCH, DTYPES, TILES, COORDS, STR = "int", "int64", "dims", "arch", "dtypes", "tiles", "coords", "str"
UNSIGNED_BITS = {INT: 32, INT64: 64, DIMS: 31, TILES: 31}  # the binary's fields: uint32, uint64, int32 pairs
CHIP_FIELDS = {
    "arch": ARCH, "grid": DIMS, "coord_translation_offsets": DIMS, "l1_size": INT64, "num_dram_channels": INT,
    "dram_channel_size": INT64, "noc_l1_address_align_bytes": INT, "pcie_address_align_bytes": INT,
    "noc_dram_address_align_bytes": INT, "l1_unreserved_base": INT, "erisc_l1_unreserved_base": INT,
    "dram_unreserved_base": INT, "dram_unreserved_end": INT64, "supported_data_types": DTYPES,
    "supported_tile_sizes": TILES, "dst_physical_size_tiles": INT, "dst_register_size_tiles": INT, "num_cbs": INT,
    "num_compute_threads": INT, "num_datamovement_threads": INT, "dram_grid": DIMS,
    "dram_bank_to_logical_worker_noc0": COORDS, "dram_bank_to_logical_worker_noc1": COORDS,
}
CPU_FIELDS = {"role": "keyword", "target_triple": STR}
REQUIRED_CHIP_FIELDS = ("arch", "grid", "l1_size", "num_dram_channels", "dram_channel_size")


def _parse_coord(parser: AttrParser) -> tuple[int, int]:
    with parser.in_parens():
        y = parser.parse_integer()
        parser.parse_punctuation(",")
        return y, parser.parse_integer()


def _parse_pair(parser: AttrParser) -> tuple[int, int]:
    """A chip's grids, offsets and tile sizes are `YxX`."""
    start = parser._current_token.span
    dims = parse_dims(parser)
    if len(dims) != 2:
        parser.raise_error(f"expected two dimensions (YxX), got {dims_str(dims) or 'none'}", start)
    if max(dims) >= 1 << UNSIGNED_BITS[DIMS]:
        parser.raise_error("integer value too large", start)
    return dims


def _parse_unsigned(parser: AttrParser, bits: int) -> int:
    start = parser._current_token.span
    value = parser.parse_integer()
    if value < 0:
        parser.raise_error("expected a non-negative integer", start)
    if value >= 1 << bits:
        parser.raise_error("integer value too large", start)
    return value


def _parse_field_value(parser: AttrParser, kind: str):
    if kind in (INT, INT64):
        return _parse_unsigned(parser, UNSIGNED_BITS[kind])
    if kind == DIMS:
        return _parse_pair(parser)
    if kind == STR:
        return parser.parse_str_literal()
    if kind == "keyword":
        return parser.parse_identifier()
    if kind == ARCH:
        with parser.in_angle_brackets():
            return parser.parse_keyword_in(hardware.ARCHS, "for arch")
    if kind == DTYPES:
        def dtype():
            with parser.in_angle_brackets():
                return parser.parse_keyword_in(hardware.DATA_TYPES, "for data type")
        return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, dtype))
    if kind == TILES:
        return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: _parse_pair(parser)))
    return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: _parse_coord(parser)))


def _field_text(kind: str, value) -> str:
    if kind in (INT, INT64):
        return str(value)
    if kind == DIMS:
        return dims_str(value)
    if kind == STR:
        return f'"{value}"'
    if kind == "keyword":
        return value
    if kind == ARCH:
        return f"<{value}>"
    if kind == DTYPES:
        return "[" + ", ".join(f"<{d}>" for d in value) + "]"
    if kind == TILES:
        return "[" + ",".join(f"  {dims_str(t)}" for t in value)[1:] + "]"
    return "[" + ", ".join(f"({y}, {x})" for y, x in value) + "]"


def _parse_fields(parser: AttrParser, table: dict[str, str]) -> tuple[tuple[str, object], ...]:
    def field():
        pos = parser._current_token.span
        key = parser.parse_identifier()
        if key not in table:
            parser.raise_error(f"unknown descriptor field '{key}'", pos)
        parser.parse_punctuation("=")
        return key, _parse_field_value(parser, table[key])

    return tuple(parser.parse_comma_separated_list(parser.Delimiter.BRACES, field))


def _fields_text(fields: tuple[tuple[str, object], ...], table: dict[str, str]) -> str:
    return "{" + ", ".join(f"{k} = {_field_text(table[k], v)}" for k, v in fields) + "}"


@dataclass(frozen=True)
class SystemDesc:
    cpus: tuple[tuple[tuple[str, object], ...], ...]
    chips: tuple[tuple[tuple[str, object], ...], ...]
    chip_desc_indices: tuple[int, ...]
    chip_capabilities: tuple[int, ...]
    chip_coords: tuple[tuple[int, ...], ...]
    chip_channels: str = ""

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def chip(self, index: int = 0) -> dict[str, object]:
        return dict(self.chips[self.chip_desc_indices[index]])


@irdl_attr_definition
class SystemDescAttr(Data[SystemDesc]):
    """The host CPUs and chips a program is compiled for, in upstream's `#ttcore.system_desc` syntax."""

    name = "ttcore.system_desc"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> SystemDesc:
        sq = parser.Delimiter.SQUARE
        start = parser._current_token.span
        with parser.in_angle_brackets():
            cpus = parser.parse_comma_separated_list(sq, lambda: _parse_fields(parser, CPU_FIELDS))
            parser.parse_punctuation(",")
            chips = parser.parse_comma_separated_list(sq, lambda: _parse_fields(parser, CHIP_FIELDS))
            parser.parse_punctuation(",")
            indices = parse_bracketed_ints(parser)
            parser.parse_punctuation(",")

            def capability():
                value = parser.parse_integer()
                parser.parse_punctuation(":")
                parser.parse_keyword("i32")
                return value

            caps = tuple(parser.parse_comma_separated_list(sq, capability))
            parser.parse_punctuation(",")
            coords = tuple(parser.parse_comma_separated_list(sq, lambda: parse_dims(parser)))
            channels = scan_raw(parser) if parser.parse_optional_punctuation(",") else ""
        desc = SystemDesc(tuple(cpus), tuple(chips), indices, caps, coords, channels)
        for chip in desc.chips:
            missing = [f for f in REQUIRED_CHIP_FIELDS if f not in dict(chip)]
            if missing:
                parser.raise_error(f"chip descriptor is missing field '{missing[0]}'", start)
        for index in indices:
            if not 0 <= index < len(chips):
                parser.raise_error(f"chip_desc_indices entry {index} is out of range", start)
        return desc

    def print_parameter(self, printer: Printer) -> None:
        d = self.data
        parts = ["[" + ", ".join(_fields_text(c, CPU_FIELDS) for c in d.cpus) + "]",
                 "[" + ", ".join(_fields_text(c, CHIP_FIELDS) for c in d.chips) + "]",
                 "[" + ", ".join(map(str, d.chip_desc_indices)) + "]",
                 "[" + ", ".join(f"{c} : i32" for c in d.chip_capabilities) + "]",
                 "[" + ",".join(f" {dims_str(c)}" for c in d.chip_coords) + "]"]
        if d.chip_channels:
            parts.append(d.chip_channels)
        printer.print_string("<" + ", ".join(parts) + ">")


def default_system_desc(arch: str = "wormhole_b0", num_chips: int = 1) -> SystemDescAttr:
    """The simulated system: `num_chips` identical chips of `arch` (DESIGN §5)."""
    return SystemDescAttr(SystemDesc(**hardware.system_desc(arch, num_chips)))


@dataclass(frozen=True)
class Device:
    worker_grid: Grid
    l1_map: str
    dram_map: str
    mesh_shape: tuple[int, ...]
    chip_ids: tuple[int, ...]
    dram_grid: Grid | None = None
    mesh_topology: tuple[str, ...] = ()  # per mesh axis, how its chips are linked (ring, linear, disabled)


@irdl_attr_definition
class DeviceAttr(Data[Device]):
    """A device (mesh of chips) with its worker grid and address maps: `#ttcore.device<...>`."""

    name = "ttcore.device"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Device:
        with parser.in_angle_brackets():
            return parse_device_body(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{device_body(self.data)}>")


def parse_device_body(parser: AttrParser) -> Device:
    def grid():
        name = parser.parse_attribute()
        if not isinstance(name, GridAttr):
            parser.raise_error("expected #ttcore.grid")
        return name.data

    worker = parse_keyword_value(parser, "workerGrid", grid)
    parser.parse_punctuation(",")
    dram_grid = None
    if parser.parse_optional_keyword("dramGrid"):
        parser.parse_punctuation("=")
        dram_grid = grid()
        parser.parse_punctuation(",")
    l1_map = parse_keyword_value(parser, "l1Map", lambda: scan_raw(parser))
    parser.parse_punctuation(",")
    dram_map = parse_keyword_value(parser, "dramMap", lambda: scan_raw(parser))
    parser.parse_punctuation(",")
    mesh = parse_keyword_value(parser, "meshShape", lambda: parse_dims(parser))
    parser.parse_punctuation(",")
    chips = parse_keyword_value(parser, "chipIds", lambda: parse_bracketed_ints(parser))
    topology: tuple[str, ...] = ()
    if parser.parse_optional_punctuation(","):
        topology = parse_keyword_value(parser, "meshTopology", lambda: tuple(parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_str_enum(TopologyAttr.enum_type).value)))
        if len(topology) != len(mesh):
            parser.raise_error("expected meshTopology size to match meshShape rank")
    return Device(worker, l1_map, dram_map, mesh, chips, dram_grid, topology)


def device_body(d: Device) -> str:
    dram = f"dramGrid = #ttcore.grid<{grid_body(d.dram_grid)}>, " if d.dram_grid else ""
    return (f"workerGrid = #ttcore.grid<{grid_body(d.worker_grid)}>, {dram}l1Map = {d.l1_map}, "
            f"dramMap = {d.dram_map}, meshShape = {dims_str(d.mesh_shape)}, "
            f"chipIds = [{', '.join(map(str, d.chip_ids))}]" +
            (f", meshTopology = [{', '.join(d.mesh_topology)}]" if d.mesh_topology else ""))


def default_device(system: SystemDesc, mesh_shape: tuple[int, int] = (1, 1),
                   mesh_topology: tuple[str, ...] = ()) -> DeviceAttr:
    chip = system.chip(0)
    channels = chip["num_dram_channels"]
    grid = chip["grid"]
    num_chips = mesh_shape[0] * mesh_shape[1]
    offset = "(d0 * s1) * (s2 * (s3 * s6)) + d1 * (s2 * (s3 * s6)) + d2"
    dram_map = (f"(d0, d1, d2)[s0, s1, s2, s3, s4, s5, s6] -> (0, 0, (({offset}) floordiv s4) mod {channels}, "
                f"((({offset}) floordiv s4) floordiv {channels}) * s4 + ({offset}) mod s4 + s5)")
    return DeviceAttr(Device(Grid(tuple(grid), ("(d0, d1) -> (0, d0, d1)",)),
                             "(d0, d1, d2)[s0] -> (0, d0, d1, d2 + s0)", dram_map,
                             tuple(mesh_shape), tuple(range(num_chips)), mesh_topology=tuple(mesh_topology)))


@irdl_attr_definition
class MeshesAttr(Data[tuple[tuple[str, tuple[int, ...]], ...]]):
    """Named device meshes of a module: `#ttcore.meshes<[<"mesh" = 1x2>]>`."""

    name = "ttcore.meshes"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        def mesh():
            with parser.in_angle_brackets():
                name = parser.parse_str_literal()
                parser.parse_punctuation("=")
                return name, parse_dims(parser)

        with parser.in_angle_brackets():
            return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, mesh))

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<[" + ", ".join(f'<"{n}" = {dims_str(s)}>' for n, s in self.data) + "]>")


@irdl_attr_definition
class RuntimeTensorShardingAttr(Data[tuple[str, TensorType]]):
    """How a function argument arrives on a mesh, printed in the opaque dialect form:
    `#ttcore<runtime_tensor_sharding shard_status = <presharded>, local_shape = tensor<1x256xf32>>`."""

    name = "ttcore.runtime_tensor_sharding"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        parser.parse_keyword("shard_status")
        parser.parse_punctuation("=")
        with parser.in_angle_brackets():
            status = parser.parse_identifier()
        parser.parse_punctuation(",")
        parser.parse_keyword("local_shape")
        parser.parse_punctuation("=")
        return status, parser.parse_type()

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"shard_status = <{self.data[0]}>, local_shape = ")
        printer.print_attribute(self.data[1])


@irdl_attr_definition
class LocalShapeAttr(Data[TensorType]):
    """An argument's or result's per-device shape on a mesh: `#ttcore<local_shape local_shape = tensor<1x256xf32>>`
    (read with `ttcore.shard_status`: a presharded input arrives as pieces of this shape)."""

    name = "ttcore.local_shape"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        parser.parse_keyword("local_shape")
        parser.parse_punctuation("=")
        return parser.parse_type()

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("local_shape = ")
        printer.print_attribute(self.data)


@dataclass(frozen=True)
class MetalLayout:
    logical_shape: tuple[int, ...]
    dim_alignments: tuple[int, ...]
    collapsed_intervals: DenseIntOrFPElementsAttr  # [N, 2] half-open ranges of logical dims, negative from the end
    memory_space: str
    memory_layout: str


METAL_MEMORY_LAYOUTS = ("none", "interleaved", "sharded")


@irdl_attr_definition
class MetalLayoutAttr(Data[MetalLayout]):
    """The layout of a tensor on a grid of cores (the TTMetal path): its logical shape, the alignment of each
    logical dim, which dims collapse into the physical rows, and where it lives. The tensor's own shape is the
    grid shape followed by the shard shape."""

    name = "ttcore.metal_layout"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> MetalLayout:
        with parser.in_angle_brackets():
            shape = parse_keyword_value(parser, "logical_shape", lambda: parse_dims(parser))
            parser.parse_punctuation(",")
            alignments = parse_keyword_value(parser, "dim_alignments", lambda: parse_dims(parser))
            parser.parse_punctuation(",")
            intervals = parse_keyword_value(parser, "collapsed_intervals", parser.parse_attribute)
            if not isinstance(intervals, DenseIntOrFPElementsAttr):
                parser.raise_error("collapsed_intervals must be a dense integer array")
            parser.parse_punctuation(",")
            space = parser.parse_str_enum(MemorySpaceAttr.enum_type).value
            parser.parse_punctuation(",")
            layout = parser.parse_keyword_in(METAL_MEMORY_LAYOUTS, "for a tensor memory layout")
        return MetalLayout(shape, alignments, intervals, space, layout)

    def print_parameter(self, printer: Printer) -> None:
        layout = self.data
        printer.print_string(f"<logical_shape = {dims_str(layout.logical_shape)}, dim_alignments = "
                             f"{dims_str(layout.dim_alignments)}, collapsed_intervals = ")
        printer.print_attribute(layout.collapsed_intervals)
        printer.print_string(f", {layout.memory_space}, {layout.memory_layout}>")

    def verify(self) -> None:
        layout, rank = self.data, len(self.data.logical_shape)
        if len(layout.dim_alignments) != rank:
            raise VerifyException(f"dim_alignments size ({len(layout.dim_alignments)}) must match logical_shape rank "
                                  f"({rank})")
        for i, alignment in enumerate(layout.dim_alignments):
            if alignment <= 0:
                raise VerifyException(f"dim_alignments[{i}] must be positive, got {alignment}")
        shape = layout.collapsed_intervals.get_type().get_shape()
        if len(shape) != 2:
            raise VerifyException(f"collapsed_intervals must be a 2D array, got rank {len(shape)}")
        if shape[1] != 2:
            raise VerifyException(f"collapsed_intervals must have pairs (second dim size 2), got {shape[1]}")
        values = [int(v) for v in layout.collapsed_intervals.get_values()]
        for start, end in zip(values[::2], values[1::2]):
            first, last = (i + rank if i < 0 else i for i in (start, end))
            if not 0 <= first < rank:
                raise VerifyException(f"collapsed_intervals start index {start} (normalized: {first}) is out of bounds "
                                      f"for logical_shape rank {rank}")
            if not 0 <= last <= rank:
                raise VerifyException(f"collapsed_intervals end index {end} (normalized: {last}) is out of bounds for "
                                      f"logical_shape rank {rank}")
            if first > last:
                raise VerifyException(f"collapsed_intervals start ({start}) must not exceed end ({end})")


# --- memref layouts of the TTMetal path --------------------------------------------------------
class _StridedLayout(MemRefLayoutAttr):
    """A layout whose byte offset is sum(index_i * stride_i) over a memref's last len(stride) dims."""

    def get_affine_map(self) -> AffineMap:
        stride = self.data[0] if isinstance(self.data[0], tuple) else self.data
        offset = AffineExpr.constant(0)
        for i, step in enumerate(stride):
            offset = offset + AffineExpr.dimension(i) * step
        return AffineMap(len(stride), 0, (offset,))


@irdl_attr_definition
class ShardLayoutAttr(_StridedLayout, Data[tuple[tuple[int, ...], int]]):
    """A buffer sharded over cores: the byte stride of each shard dim and how many buffers it cycles through:
    `#ttcore.shard<4096x4096, 1>`."""

    name = "ttcore.shard"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            stride = parse_dims(parser)
            parser.parse_punctuation(",")
            return stride, parser.parse_integer()

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{dims_str(self.data[0])}, {self.data[1]}>")


@irdl_attr_definition
class InterleavedLayoutAttr(BracketedDims, _StridedLayout, Data[tuple[int, ...]]):
    """A buffer interleaved page by page over DRAM banks: `#ttcore.interleaved<8192x4096>` (byte strides)."""

    name = "ttcore.interleaved"


# an affine expression's binary operators as AffineExpr.eval computes them
_AFFINE_OPERATORS = {AffineBinaryOpKind.Add: operator.add, AffineBinaryOpKind.Mul: operator.mul,
                     AffineBinaryOpKind.Mod: operator.mod, AffineBinaryOpKind.FloorDiv: operator.floordiv,
                     AffineBinaryOpKind.CeilDiv: lambda a, b: -(-a // b)}


def _compiled(expr: AffineExpr):
    """`expr` (of dims and constants) as a function of the dims' values, as `expr.eval(dims, [])` computes it, without
    walking the expression tree per evaluation."""
    if isinstance(expr, AffineDimExpr):
        return operator.itemgetter(expr.position)
    if isinstance(expr, AffineConstantExpr):
        value = expr.value
        return lambda dims: value
    if isinstance(expr, AffineBinaryOpExpr):
        apply, lhs, rhs = _AFFINE_OPERATORS[expr.kind], _compiled(expr.lhs), _compiled(expr.rhs)
        return lambda dims: apply(lhs(dims), rhs(dims))
    return lambda dims: expr.eval(dims, [])  # a symbol: as eval treats it


@functools.lru_cache(maxsize=1024)  # a pure function of immutable values; a program repeats a few mappings
def grid_placement(mapping: Attribute, grid: tuple[int, ...]) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Where a virtual grid's shards are, from its forward mapping `(shard index..., element index...) -> (core y,
    core x, element index...)`: the core holding the first shard and the rectangle of cores the shards fill in
    row-major order from it (a translation keeps a 2-d grid's shape, `(d0 + 1, d1 + 1, d2, d3)`; a 1x12 grid on
    3x4 cores folds it; a grid of more dims has its leading dims folded into rows). None for any other mapping."""
    affine = getattr(mapping, "data", None)
    n = len(grid)
    if not isinstance(affine, AffineMap) or affine.num_dims != 2 * n or len(affine.results) != n + 2:
        return None
    count = math.prod(grid)
    core_y, core_x = (_compiled(e) for e in affine.results[:2])  # a grid of hundreds of shards: each evaluated
    cores = [(core_y(dims), core_x(dims)) for dims in (
        (*index, *(0,) * n) for index in itertools.product(*map(range, grid)))]
    oy, ox = cores[0]
    if min(oy, ox) < 0 or list(affine.eval([*(0,) * n, *range(2, n + 2)], []))[2:] != list(range(2, n + 2)):
        return None
    for columns in (c for c in range(1, count + 1) if count % c == 0):
        if all(core == (oy + i // columns, ox + i % columns) for i, core in enumerate(cores)):
            return (oy, ox), (count // columns, columns)
    return None


@dataclass(frozen=True)
class HostLayout:
    logical_shape: tuple[int, ...]
    host_strides: tuple[int, ...]
    host_volume: int


@irdl_attr_definition
class HostLayoutAttr(MemRefLayoutAttr, Data[HostLayout]):
    """A host buffer padded to the device's alignment (tiles): row-major strides in elements over the logical
    shape and the padded volume, `#ttcore.host_layout<logical_shape = 9x43x7, host_strides = 2048x32x1,
    host_volume = 18432>`. `memref.copy` moves data between it and a dense host buffer."""

    name = "ttcore.host_layout"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> HostLayout:
        with parser.in_angle_brackets():
            shape = parse_keyword_value(parser, "logical_shape", lambda: parse_dims(parser))
            parser.parse_punctuation(",")
            strides = parse_keyword_value(parser, "host_strides", lambda: parse_dims(parser))
            parser.parse_punctuation(",")
            volume = parse_keyword_value(parser, "host_volume", lambda: parser.parse_integer(allow_negative=False))
        return HostLayout(shape, strides, volume)

    def print_parameter(self, printer: Printer) -> None:
        layout = self.data
        printer.print_string(f"<logical_shape = {dims_str(layout.logical_shape)}, host_strides = "
                             f"{dims_str(layout.host_strides)}, host_volume = {layout.host_volume}>")

    def verify(self) -> None:
        layout = self.data
        if len(layout.host_strides) != len(layout.logical_shape):
            raise VerifyException("host_layout has one stride per logical dim")
        last = sum((d - 1) * s for d, s in zip(layout.logical_shape, layout.host_strides)) + 1
        if any(d < 1 for d in layout.logical_shape) or layout.host_volume < last:
            raise VerifyException(f"host_layout's host_volume {layout.host_volume} does not hold its logical shape")

    def get_affine_map(self) -> AffineMap:
        return AffineMap.identity(len(self.data.logical_shape))


@irdl_attr_definition
class ViewLayoutAttr(MemRefLayoutAttr, Data[int]):
    """A view of another buffer (its indexing given by the op that made it): `#ttcore.view<4>` (its rank)."""

    name = "ttcore.view"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> int:
        with parser.in_angle_brackets():
            return parser.parse_integer(allow_negative=False)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")

    def get_affine_map(self) -> AffineMap:
        return AffineMap.identity(self.data)
