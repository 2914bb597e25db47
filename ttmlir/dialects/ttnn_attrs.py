"""The TTNN dialect's attributes and types: buffers, layouts, memory configs, core ranges, kernel configs, and the
data types and tile shapes a TTNN layout implies."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from xdsl.dialects.builtin import (AffineMapAttr, BFloat16Type, Float16Type, Float32Type, IntegerType, MemRefType,
                                   NoneAttr, Signedness)
from xdsl.ir import Attribute, Data, ParametrizedAttribute, TypeAttribute
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.utils.exceptions import VerifyException
from xdsl.printer import Printer

from ttmlir import hardware
from ttmlir.dialects import ttcore
from ttmlir.dialects.quant import UniformQuantizedType
from ttmlir.ir.syntax import BracketedDims, affine_map_str, dims_str, enum, enum_attr, parse_dims, scan_raw, struct_attr

TILE = 32
BufferTypeAttr = enum_attr("ttnn.buffer_type", ("dram", "l1", "system_memory", "l1_small", "trace"),
                           "The memory a TTNN buffer is allocated in.")
LayoutAttr = enum_attr("ttnn.layout", ("tile", "row_major", "invalid"), "Tile or row-major element order.")
TensorMemoryLayoutAttr = enum_attr(
    "ttnn.tensor_memory_layout", ("interleaved", "single_bank", "height_sharded", "width_sharded", "block_sharded"),
    "How a device tensor is spread over banks or cores.")

# Kernel and program configurations: hints for how tt-metal runs an op. The flatbuffer carries them; the
# simulator's perf model honours compute_config's math fidelity (matrix engine passes per product).
MATH_FIDELITIES = ("lofi", "hifi2", "hifi3", "hifi4")
DeviceComputeKernelConfigAttr = struct_attr("ttnn.device_compute_kernel_config", (
    ("math_fidelity", MATH_FIDELITIES, False), ("math_approx_mode", "bool", False),
    ("fp32_dest_acc_en", "bool", False), ("packer_l1_acc", "bool", False), ("dst_full_sync_en", "bool", False)),
    "How a compute kernel runs: math fidelity, approximate SFPU mode, f32 destination, packer accumulation.")
UnaryWithParamAttr = struct_attr("ttnn.unary_with_param", (("op_type", "keyword", True), ("params", "attr", False)),
                                 "A unary operation, with parameters, fused into another op.")
Conv2dConfigAttr = struct_attr("ttnn.conv2d_config", (
    ("weights_dtype", hardware.DATA_TYPES, False), ("activation", UnaryWithParamAttr, False),  # `<op_type = relu>`
    *((key, "bool", False) for key in ("deallocate_activation", "reallocate_halo_output")),
    *((key, "int", False) for key in ("act_block_h_override", "act_block_w_div")),
    *((key, "bool", False) for key in ("reshard_if_not_optimal", "override_sharding_config")),
    ("shard_layout", tuple(v.value for v in TensorMemoryLayoutAttr.enum_type), False),
    ("core_grid", "attr", False), ("transpose_shards", "bool", False), ("output_layout", ("tile", "row_major"), False),
    *((key, "bool", False) for key in ("enable_act_double_buffer", "enable_weights_double_buffer",
                                       "enable_kernel_stride_folding", "config_tensors_in_dram"))),
    "How tt-metal's conv2d blocks, shards and buffers its work.")
CONV2D_SLICE_TYPES = ("dram_height", "dram_width", "l1_full")


@irdl_attr_definition
class Conv2dSliceConfigAttr(Data[tuple]):
    """How a conv2d passes through L1: `#ttnn.conv2d_slice_config<l1_full, 0>` (the whole op at once) or DRAM-sliced
    along its output's height or width (`dram_height`/`dram_width`, 0 slices: as few as fit). Held as its
    (field, value) pairs, as the struct attributes are."""

    name = "ttnn.conv2d_slice_config"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            kind = parser.parse_identifier()
            if kind not in CONV2D_SLICE_TYPES:
                parser.raise_error(f"expected one of: {', '.join(CONV2D_SLICE_TYPES)}")
            parser.parse_punctuation(",")
            return ("slice_type", kind), ("num_slices", parser.parse_integer(allow_boolean=False, allow_negative=False))

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.get('slice_type')}, {self.get('num_slices')}>")

    def get(self, key: str, default=None):
        return dict(self.data).get(key, default)


_GRID_AND_BLOCKS = (("compute_with_storage_grid_size", "attr", True),
                    *((key, "int", True) for key in ("in0_block_w", "out_subblock_h", "out_subblock_w")))
MATMUL_PROGRAM_CONFIGS = (
    struct_attr("ttnn.matmul_multi_core_reuse_program_config", (
        *_GRID_AND_BLOCKS, ("per_core_m", "int", True), ("per_core_n", "int", True)),
        "A matmul program: blocks reused on every core."),
    struct_attr("ttnn.matmul_multi_core_reuse_multi_cast_program_config", (
        *_GRID_AND_BLOCKS, *((key, "int", True) for key in ("out_block_h", "out_block_w", "per_core_m", "per_core_n")),
        ("transpose_mcast", "bool", True), ("fused_activation", "attr", False), ("fuse_batch", "bool", True)),
        "A 2D multicast matmul program."),
    struct_attr("ttnn.matmul_multi_core_reuse_multi_cast_1d_program_config", (
        *_GRID_AND_BLOCKS, *((key, "int", True) for key in ("out_block_h", "out_block_w", "per_core_m", "per_core_n")),
        ("fuse_batch", "bool", True), ("fused_activation", "attr", False), ("mcast_in0", "bool", True),
        ("gather_in0", "bool", True), ("hop_cores", "attr", True), ("num_global_cb_receivers", "int", True),
        ("untilize_out", "bool", True)),
        "A 1D multicast matmul program."),
    struct_attr("ttnn.matmul_multi_core_reuse_multi_cast_dram_sharded_program_config", (
        ("in0_block_w", "int", True), ("per_core_m", "int", True), ("per_core_n", "int", True),
        ("fused_activation", "attr", False)),
        "A matmul program over DRAM-sharded weights."),
)
Conv3dConfigAttr = struct_attr("ttnn.conv3d_config", (
    ("weights_dtype", hardware.DATA_TYPES, False),
    *((key, "int", False) for key in ("t_out_block", "w_out_block", "h_out_block", "c_out_block", "c_in_block")),
    ("compute_with_storage_grid_size", "attr", False)),
    "How tt-metal's conv3d blocks its output and input channels, and on how many cores.")
SDPAProgramConfigAttr = struct_attr("ttnn.sdpa_program_config", (
    ("compute_with_storage_grid_size", "attr", True), ("sub_core_grids", "attr", False),
    ("q_chunk_size", "int", True), ("k_chunk_size", "int", True), ("exp_approx_mode", "bool", False),
    ("max_cores_per_head_batch", "int", False)),
    "How tt-metal's attention kernels chunk queries and keys, and on how many cores.")
STRUCT_ATTRS = (DeviceComputeKernelConfigAttr, UnaryWithParamAttr, Conv2dConfigAttr, Conv3dConfigAttr,
                SDPAProgramConfigAttr, *MATMUL_PROGRAM_CONFIGS)


@irdl_attr_definition
class DeviceType(ParametrizedAttribute, TypeAttribute):
    """A handle to the (mesh) device, `!ttnn.device`."""

    name = "ttnn.device"


@irdl_attr_definition
class ShapeAttr(BracketedDims, Data[tuple[int, ...]]):
    """A tensor shape: `#ttnn.shape<1x32x32>`."""

    name = "ttnn.shape"


class _MeshDims(Data[tuple[int, int]]):
    """Printed in the opaque dialect form, `#ttnn<mesh_shape 1x2>`."""

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        dims = parse_dims(parser)
        if len(dims) != 2:
            parser.raise_error(f"expected a 2D {cls.name.split('.')[1]}")
        return dims

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(dims_str(self.data))


@irdl_attr_definition
class MeshShapeAttr(_MeshDims):
    """Rows x columns of the device mesh: `#ttnn<mesh_shape 1x2>`."""

    name = "ttnn.mesh_shape"


@irdl_attr_definition
class MeshOffsetAttr(_MeshDims):
    """Offset of a sub-mesh: `#ttnn<mesh_offset 0x0>`."""

    name = "ttnn.mesh_offset"


@irdl_attr_definition
class CoreCoordAttr(Data[tuple[int, int]]):
    """A core coordinate (x, y): `#ttnn.core_coord<0, 0>`."""

    name = "ttnn.core_coord"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            x = parser.parse_integer()
            parser.parse_punctuation(",")
            return x, parser.parse_integer()

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data[0]}, {self.data[1]}>")


def _parse_xy(parser: AttrParser) -> tuple[int, int]:
    with parser.in_parens():
        x = parser.parse_integer()
        parser.parse_punctuation(",")
        return x, parser.parse_integer()


@irdl_attr_definition
class CoreRangeAttr(Data[tuple[tuple[int, int], tuple[int, int]]]):
    """An inclusive rectangle of cores: `#ttnn.core_range<(0,0), (7,7)>`."""

    name = "ttnn.core_range"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            start = _parse_xy(parser)
            parser.parse_punctuation(",")
            end = _parse_xy(parser)
        if end[0] < start[0] or end[1] < start[1]:
            parser.raise_error("core range end must not precede its start")
        return start, end

    def print_parameter(self, printer: Printer) -> None:
        (x0, y0), (x1, y1) = self.data
        printer.print_string(f"<({x0},{y0}), ({x1},{y1})>")


@irdl_attr_definition
class CoreRangeSetAttr(Data[tuple[CoreRangeAttr, ...]]):
    """A set of core ranges: `#ttnn.core_range_set<[#ttnn.core_range<(0,0), (7,7)>]>`."""

    name = "ttnn.core_range_set"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        def core_range():
            attr = parser.parse_attribute()
            if not isinstance(attr, CoreRangeAttr):
                parser.raise_error("expected #ttnn.core_range")
            return attr

        with parser.in_angle_brackets():  # `<>` is the empty set
            if parser._current_token.text == ">":
                return ()
            return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, core_range))

    def print_parameter(self, printer: Printer) -> None:
        if not self.data:
            printer.print_string("<>")
            return
        printer.print_string("<[")
        printer.print_list(self.data, printer.print_attribute)
        printer.print_string("]>")


@dataclass(frozen=True)
class MemoryConfig:
    buffer_type: Attribute
    memory_layout: Attribute | None = None
    shard_spec: str = ""


@irdl_attr_definition
class MemoryConfigAttr(Data[MemoryConfig]):
    """Where and how a tensor is stored: `#ttnn.memory_config<#dram, <interleaved>>`."""

    name = "ttnn.memory_config"

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            buffer = parser.parse_attribute()
            if not isinstance(buffer, BufferTypeAttr):
                parser.raise_error("expected a #ttnn.buffer_type")
            layout, shard = None, ""
            if parser.parse_optional_punctuation(","):
                if parser.parse_optional_punctuation("<"):
                    layout = enum(TensorMemoryLayoutAttr, parser.parse_str_enum(TensorMemoryLayoutAttr.enum_type))
                    parser.parse_punctuation(">")
                    if parser.parse_optional_punctuation(","):
                        shard = scan_raw(parser)
                else:
                    shard = scan_raw(parser)
        return MemoryConfig(buffer, layout, shard)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.data.buffer_type)
        if self.data.memory_layout is not None:
            printer.print_string(f", <{self.data.memory_layout.data.value}>")
        if self.data.shard_spec:
            printer.print_string(f", {self.data.shard_spec}")
        printer.print_string(">")


def layout_problem(memref: MemRefType, grid: ttcore.GridAttr, memory_layout: Attribute, extras: Attribute) -> str | None:
    """What upstream's TTNNLayoutAttr verifier rejects: grid, buffer and memory layout disagreeing, a sharded
    layout without its cores."""
    buffer, shape = memref.memory_space.data.value, tuple(grid.data.shape)
    layout = None if isinstance(memory_layout, NoneAttr) else memory_layout.data.value
    sharded, extras = layout in SHARDED, "" if isinstance(extras, NoneAttr) else extras.data
    if not (buffer == "l1" or (buffer == "dram" and sharded)) and shape != (1, 1):
        return (f"expected (1, 1) grid shape for {buffer} buffer type"
                f"{' with interleaved memory layout' if buffer == 'dram' else ''}, got ({', '.join(map(str, shape))})")
    if layout is not None and buffer == "system_memory":
        return "Memory layout is not allowed for SystemMemory buffer type."
    if layout == "block_sharded" and buffer == "dram":
        return "BlockSharded layout is not supported for DRAM buffer type; use WidthSharded, HeightSharded or Interleaved"
    if layout is None and buffer != "system_memory":
        return "Memory layout is required for non-SystemMemory buffer type."
    if sharded and "core_ranges" not in extras:
        return f"sharded TTNN layout ({layout}) must carry a core_range_set"
    if not sharded and "core_ranges" in extras:
        return f"non-sharded TTNN layout must not carry a core_range_set (got {layout or 'no memory layout'})"
    return None


SHARDED = ("height_sharded", "width_sharded", "block_sharded")


class MemrefLayout:
    """What a layout attribute's `memref` parameter tells of the tensor it lays out."""

    @property
    def buffer_type(self) -> str:
        return self.memref.memory_space.data.value

    @property
    def is_tiled(self) -> bool:
        return isinstance(self.memref.element_type, ttcore.TileType)

    @property
    def data_type(self) -> str:
        return data_type_of(self.memref.element_type)


@irdl_attr_definition
class TTNNLayoutAttr(MemrefLayout, ParametrizedAttribute):
    """A tensor's device layout: collapse map, core grid, per-core memref and memory layout.

    `#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>`
    """

    name = "ttnn.ttnn_layout"
    linear: AffineMapAttr = param_def()
    grid: ttcore.GridAttr = param_def()
    memref: MemRefType = param_def()
    memory_layout: Attribute = param_def()
    extras: Attribute = param_def()  # trailing `key = value` fields kept verbatim (e.g. exactGrid = true)

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        start = parser.pos
        with parser.in_angle_brackets():
            linear = AffineMapAttr(parser.parse_affine_map())
            parser.parse_punctuation(",")
            with parser.in_angle_brackets():
                grid = ttcore.GridAttr(ttcore.parse_grid_body(parser))
            parser.parse_punctuation(",")
            memref = parser.parse_type()
            if not isinstance(memref, MemRefType):
                parser.raise_error("expected a memref type in the ttnn_layout")
            layout: Attribute = NoneAttr()
            fields: list[str] = []
            while parser.parse_optional_punctuation(","):
                if parser.parse_optional_punctuation("<"):
                    layout = enum(TensorMemoryLayoutAttr, parser.parse_str_enum(TensorMemoryLayoutAttr.enum_type))
                    parser.parse_punctuation(">")
                elif parser.parse_optional_keyword("core_ranges"):  # re-printed in upstream's spelling
                    parser.parse_punctuation("=")
                    ranges = (parser.parse_attribute() if parser._current_token.text.startswith("#")
                              else CoreRangeSetAttr(CoreRangeSetAttr.parse_parameter(parser)))
                    if not isinstance(ranges, CoreRangeSetAttr):
                        parser.raise_error("expected a #ttnn.core_range_set")
                    fields.append(f"core_ranges = {str(ranges).removeprefix('#' + CoreRangeSetAttr.name)}")
                else:
                    fields.append(scan_raw(parser))
            extras: Attribute = ttcore.StringAttr(", ".join(fields)) if fields else NoneAttr()
        if (problem := layout_problem(memref, grid, layout, extras)) is not None:
            parser.raise_error(problem, start, parser.pos)
        return linear, grid, memref, layout, extras

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{affine_map_str(self.linear.data)}, <{ttcore.grid_body(self.grid.data)}>, ")
        printer.print_attribute(self.memref)
        if not isinstance(self.memory_layout, NoneAttr):
            printer.print_string(f", <{self.memory_layout.data.value}>")
        if not isinstance(self.extras, NoneAttr):
            printer.print_string(f", {self.extras.data}")
        printer.print_string(">")

    def verify(self) -> None:
        if (problem := layout_problem(self.memref, self.grid, self.memory_layout, self.extras)) is not None:
            raise VerifyException(problem)

    @property
    def core_ranges(self) -> CoreRangeSetAttr | None:
        """The cores a sharded tensor's shards are on, when the layout names them (`core_ranges = <[...]>`)."""
        found = re.search(r"core_ranges = <\[(.*?)\]>", "" if isinstance(self.extras, NoneAttr) else self.extras.data)
        if found is None:
            return None
        corners = re.findall(r"\((\d+),\s*(\d+)\),\s*\((\d+),\s*(\d+)\)", found.group(1))
        return CoreRangeSetAttr(tuple(CoreRangeAttr(((int(a), int(b)), (int(c), int(d)))) for a, b, c, d in corners))

    @property
    def shard_cores(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Where a sharded tensor's shards are: the (row, column) of the first core and the grid's (rows, columns):
        the one core range the layout names, else its grid from core 0,0."""
        ranges = self.core_ranges
        if ranges is not None and len(ranges.data) == 1:
            (x0, y0), (x1, y1) = ranges.data[0].data
            return (y0, x0), (y1 - y0 + 1, x1 - x0 + 1)
        return (0, 0), tuple(self.grid.data.shape)

    def shard_grid(self) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int] | None]:
        """A sharded tensor's grid of shards as the metal layout sees it: the first core, the grid, and the
        rectangle of cores it is folded onto row by row when that differs (a height-sharded tensor is a column of
        shards, one per core, a width-sharded one a row of them; a block-sharded one is the cores' own grid)."""
        origin, cores = self.shard_cores
        count = cores[0] * cores[1]
        grid = {"height_sharded": (count, 1), "width_sharded": (1, count)}.get(
            getattr(self.memory_layout, "data", None) and self.memory_layout.data.value, cores)
        return origin, grid, (cores if grid != cores else None)



# --- layout computation (used by the verifier and the layout pass) ------------------------------

MLIR_TO_DATA_TYPE = {"f32": "f32", "bf16": "bf16", "f16": "f16", "i32": "si32", "si32": "si32", "ui32": "u32",
                     "ui16": "u16", "ui8": "u8", "i1": "bf16", "ui1": "bf16", "si1": "bf16", "i64": "si32", "si64": "si32", "f64": "f32",
                     "ui64": "u32", "i16": "u16", "i8": "u8", "si16": "u16", "si8": "u8"}
DATA_TYPE_TO_MLIR = {"f32": Float32Type(), "bf16": BFloat16Type(), "f16": Float16Type(),
                     "si32": IntegerType(32, Signedness.SIGNED), "u32": IntegerType(32, Signedness.UNSIGNED),
                     "u16": IntegerType(16, Signedness.UNSIGNED), "u8": IntegerType(8, Signedness.UNSIGNED)}


def element_type_for(dtype: str) -> Attribute:
    """A tensor's element type for a ttcore data type: its scalar type, or for a block float (no scalar type) the
    32x32 tile of it, as upstream writes `tensor<32x32x!ttcore.tile<32x32, bfp_bf8>, #layout>`."""
    return DATA_TYPE_TO_MLIR.get(dtype) or ttcore.TileType((TILE, TILE), dtype)


def data_type_of(element: Attribute) -> str:
    """The ttcore data type a builtin element type is stored as on device (a quantized one: its storage's)."""
    if isinstance(element, ttcore.TileType):
        return element.dtype
    if isinstance(element, UniformQuantizedType):
        # signed storage is held as si32 (as tt-metal's quantize writes int32): the device's 8/16-bit types are
        # unsigned, and dequantizing a pattern read unsigned would be wrong for every negative value
        return "si32" if element.data.signed else MLIR_TO_DATA_TYPE.get(str(element.storage_type), "u32")
    return MLIR_TO_DATA_TYPE.get(str(element), "f32")


def collapse_map(shape: tuple[int, ...], tiled: bool) -> AffineMap:
    """Collapse all but the last dimension into rows; the second-to-last is padded to tiles."""
    rank = max(len(shape), 1)
    if len(shape) < 2:
        return AffineMap(rank, 0, (AffineExpr.constant(0), AffineExpr.dimension(0)))
    return AffineMap(rank, 0, (_collapsed_rows(shape, tiled), AffineExpr.dimension(len(shape) - 1)))


def _collapsed_rows(shape: tuple[int, ...], tiled: bool) -> AffineExpr:
    """`d0 * S0 + d1 * S1 + ... + d{n-2}`, outermost first as upstream prints it."""
    strides, stride = [], 1
    for i in range(len(shape) - 2, -1, -1):
        strides.append((i, stride))
        extent = shape[i]
        if i == len(shape) - 2 and tiled:
            extent = math.ceil(extent / TILE) * TILE
        stride *= extent
    expr = None
    for i, s in reversed(strides):
        term = AffineExpr.dimension(i) if s == 1 else AffineExpr.dimension(i) * s
        expr = term if expr is None else expr + term
    return expr


def physical_shape(shape: tuple[int, ...], tiled: bool) -> tuple[int, int]:
    """The (rows, columns) memref shape of an interleaved tensor: tiles or scalars."""
    if not shape:
        shape = (1,)
    cols = shape[-1]
    rows = 1
    for i, d in enumerate(shape[:-1]):
        rows *= math.ceil(d / TILE) * TILE if tiled and i == len(shape) - 2 else d
    if len(shape) == 1 and tiled:
        rows = TILE
    if tiled:
        return math.ceil(rows / TILE), math.ceil(cols / TILE)
    return rows, cols


def layout_for(shape: tuple[int, ...], element: Attribute, buffer: str = "dram", tiled: bool = True,
               dtype: str | None = None) -> TTNNLayoutAttr:
    """The layout the compiler gives a tensor: interleaved over banks, tiles or row-major scalars."""
    dtype = dtype or data_type_of(element)
    scalar_type = element if not tiled else ttcore.TileType((TILE, TILE), dtype)
    if not tiled and dtype in DATA_TYPE_TO_MLIR:
        scalar_type = DATA_TYPE_TO_MLIR[dtype]
    rows_cols = physical_shape(shape, tiled)
    if buffer == "l1":  # interleaved in L1: upstream's per-core form, one row of the whole (1x1 grid) volume
        rows_cols = (1, rows_cols[0] * rows_cols[1])
    memref = MemRefType(scalar_type, rows_cols, NoneAttr(), enum(BufferTypeAttr, buffer))
    memory_layout = NoneAttr() if buffer == "system_memory" else enum(TensorMemoryLayoutAttr, "interleaved")
    return TTNNLayoutAttr(AffineMapAttr(collapse_map(shape, tiled)), ttcore.GridAttr(ttcore.Grid((1, 1))), memref,
                          memory_layout, NoneAttr())
