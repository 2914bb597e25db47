"""Reading and writing the flatbuffer files: identifiers, versions, system descriptors, JSON views.

Shared by `ttmlir-translate` (writing) and the runtime and `ttrt` (reading); imports neither xDSL nor
torch. Schema enums are the IR's snake_case names in CamelCase, so `camel`/`snake` convert both ways.
"""

from __future__ import annotations

import math
import re
import struct
import subprocess
import zlib
from functools import lru_cache
from pathlib import Path

import flatbuffers

from ttmlir import __version__, hardware
from ttmlir.cli import UserError
from ttmlir.target import binary_generated as fb
from ttmlir.target import metal_generated as fbm

IDENTIFIERS = {"ttnn": b"TTNN", "ttsys": b"TTSY", "ttm": b"TTM0"}
KIND_OF_IDENTIFIER = {v: k for k, v in IDENTIFIERS.items()}
ROOTS = {"ttnn": fb.TTNNBinaryT, "ttsys": fb.SystemDescRootT, "ttm": fbm.TTMetalBinaryT}
# Binaries sealed with a CRC-32: their root table and the vtable slot of its `checksum` field.
CHECKSUMMED = {"ttnn": (fb.TTNNBinary, 16), "ttm": (fbm.TTMetalBinary, 12)}


class BinaryError(Exception):
    """A file that is not a readable flatbuffer of the expected kind and version."""


def struct_fields(attr) -> dict[str, str]:
    """The fields of a serialized configuration attribute (a StructAttr table, or none) by key."""
    return {f.key: f.value for f in (attr.fields or [])} if attr is not None else {}


def camel(name: str) -> str:
    """`bfp_bf8` -> `BfpBf8`: an IR enum value or op name as a schema enum value or table name."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


# math fidelities as the schemas spell them (not camel-cased from the IR's `hifi4`)
MATH_FIDELITY = {"lofi": "LoFi", "hifi2": "HiFi2", "hifi3": "HiFi3", "hifi4": "HiFi4"}


def snake(name: str) -> str:
    """`PowTensor` -> `pow_tensor`: the inverse of `camel`."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def field(name: str) -> str:
    """A schema field name as flatc's object API spells it: `keep_dim` -> `keepDim`."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


@lru_cache(maxsize=None)
def enum_names(enum_cls: type) -> dict[int, str]:
    return {v: snake(k) for k, v in vars(enum_cls).items() if not k.startswith("_")}


def enum_value(enum_cls: type, name: str) -> int:
    return getattr(enum_cls, camel(name))


def version() -> tuple[int, int, int]:
    major, minor, patch = (int(p) for p in __version__.split(".")[:3])
    return major, minor, patch


def version_str(v) -> str:
    return f"{v.major}.{v.minor}.{v.patch}"


@lru_cache(maxsize=None)
def git_hash() -> str:
    """The compiler's commit, or "unknown" outside a git checkout."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                             text=True, timeout=5)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def version_t() -> fb.VersionT:
    v = fb.VersionT()
    v.major, v.minor, v.patch = version()
    return v


def serialize(root, kind: str) -> bytes:
    """The buffer of `root`; a `.ttnn` or `.ttm` buffer carries the CRC-32 of all its bytes, so any corruption
    is caught."""
    if kind in CHECKSUMMED:
        root.checksum = 0xFFFFFFFF  # a placeholder that is not the default, so the field is written
    builder = flatbuffers.Builder(1024)
    builder.Finish(root.Pack(builder), file_identifier=IDENTIFIERS[kind])
    data = builder.Output()
    if kind not in CHECKSUMMED:
        return bytes(data)
    data = bytearray(data)
    root.checksum = seal(data, kind)
    return bytes(data)


def seal(data: bytearray, kind: str = "ttnn") -> int:
    """Store the CRC-32 of a binary (its checksum bytes read as zero) in the buffer; returns it."""
    position = _checksum_position(data, kind)
    if position is None:
        raise BinaryError("the buffer has no checksum field")
    checksum = _crc(data, position)
    struct.pack_into("<I", data, position, checksum)
    return checksum


def _crc(data: bytes | bytearray, position: int) -> int:
    """CRC-32 of the buffer with its four checksum bytes at `position` read as zero."""
    view = memoryview(data)
    return zlib.crc32(view[position + 4:], zlib.crc32(bytes(4), zlib.crc32(view[:position])))


def _checksum_position(data: bytes | bytearray, kind: str) -> int | None:
    """Where a binary stores its checksum, or None if it has none (or the root table is unreadable)."""
    root, slot = CHECKSUMMED[kind]
    try:
        table = root.GetRootAs(data, 0)._tab
        offset = table.Offset(slot)
    except (IndexError, TypeError, struct.error):  # offsets read from a corrupted buffer
        return None
    position = table.Pos + offset
    return position if offset and position + 4 <= len(data) else None


def verify_checksum(data: bytes, name: str, kind: str = "ttnn") -> None:
    position = _checksum_position(data, kind)
    if position is None:
        raise BinaryError(f"{name}: corrupted flatbuffer (no checksum)")
    stored = struct.unpack_from("<I", data, position)[0]
    if (computed := _crc(data, position)) != stored:
        raise BinaryError(f"{name}: corrupted flatbuffer (checksum {computed:08x} does not match the stored "
                          f"{stored:08x})")


def load_bytes(data: bytes, name: str = "<buffer>", expect: str | None = None):
    """Decode a `.ttnn`, `.ttm` or `.ttsys` buffer into its object tree: `(kind, root)`."""
    if len(data) < 8:
        raise BinaryError(f"{name}: file is empty or truncated ({len(data)} bytes)")
    identifier = bytes(data[4:8])
    kind = KIND_OF_IDENTIFIER.get(identifier)
    if kind is None:
        raise BinaryError(f"{name}: not a ttmlir flatbuffer (file identifier {identifier!r}, "
                          f"expected one of {', '.join(repr(i) for i in IDENTIFIERS.values())})")
    if expect is not None and kind != expect:
        raise BinaryError(f"{name}: expected a .{expect} file, found a .{kind} file")
    if kind in CHECKSUMMED:
        verify_checksum(data, name, kind)
    try:
        root = ROOTS[kind].InitFromPackedBuf(bytearray(data), 0)
    except Exception as exc:  # flatbuffers raises whatever a corrupted offset leads to
        raise BinaryError(f"{name}: corrupted flatbuffer ({type(exc).__name__}: {exc})") from None
    if root.version is None:
        raise BinaryError(f"{name}: corrupted flatbuffer (no version)")
    if kind == "ttnn":
        check_required(root, name)
    elif kind == "ttm":
        check_required_ttm(root, name)
    return kind, root


def check_required(root: fb.TTNNBinaryT, name: str) -> None:
    """Every field the runtime reads is present and in range; a missing one is named with the op it belongs to,
    where a default (f32, host memory) would run and give different numbers."""
    for p, program in enumerate(root.programs or []):
        where = f"{name}: program {p} ('{program.name}')" if program.name else f"{name}: program {p} (no name)"
        if not program.name:
            raise BinaryError(f"{where}: corrupted flatbuffer (the program has no name)")
        for kind in ("inputs", "outputs"):
            for i, ref in enumerate(getattr(program, kind) or []):
                _check_tensor(ref, f"{where}: {kind[:-1]} {i}")
        for i, operation in enumerate(program.operations or []):
            if operation.type is None:
                raise BinaryError(f"{where}: operation {i}: corrupted flatbuffer (the operation has no table)")
            try:
                op = f"{where}: operation {i} ('{qualified_op_name(op_name(operation))}' at {operation.locInfo or 'loc(unknown)'})"
            except KeyError:
                raise BinaryError(f"{where}: operation {i}: corrupted flatbuffer (unknown op type)") from None
            for key, value in vars(operation.type).items():
                for ref in value if isinstance(value, list) else [value]:
                    if isinstance(ref, fb.TensorRefT):
                        _check_tensor(ref, f"{op}: '{snake(key)}'")


def ttm_commands(program: fbm.ProgramT) -> list:
    """A `.ttm` program's commands in order, over its device programs and command queues."""
    return [c for d in as_list(program.devicePrograms) for q in as_list(d.commandQueues) for c in as_list(q.commands)]


def check_required_ttm(root: fbm.TTMetalBinaryT, name: str) -> None:
    """A `.ttm`'s commands, buffers and kernels have every field the simulator reads, in range; a missing one is
    named with its program and command."""
    chips = as_list(root.systemDesc.chipDescs) if root.systemDesc is not None else []
    for chip in chips:
        if chip is None or chip.arch not in enum_names(fbm.Arch):
            raise BinaryError(f"{name}: corrupted flatbuffer (a chip of its system descriptor has no known arch)")
    for p, program in enumerate(as_list(root.programs)):
        where = f"{name}: program {p} ('{program.name}')" if program.name else f"{name}: program {p} (no name)"
        if not program.name:
            raise BinaryError(f"{where}: corrupted flatbuffer (the program has no name)")
        for kind in ("inputs", "outputs"):
            for i, ref in enumerate(as_list(getattr(program, kind))):
                _check_buffer(ref, f"{where}: {kind[:-1]} {i}")
        for i, command in enumerate(ttm_commands(program)):
            here = f"{where}: command {i}"
            if command.type is None:
                raise BinaryError(f"{here}: corrupted flatbuffer (the command has no table)")
            absent = [f for f in _TTM_REQUIRED.get(type(command.type), ()) if getattr(command.type, f) is None]
            if absent:
                raise BinaryError(f"{here}: corrupted flatbuffer (the command has no '{absent[0]}')")
            for key, value in vars(command.type).items():
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, fbm.BufferRefT):
                        _check_buffer(item, f"{here}: '{snake(key)}'")
                    elif isinstance(item, fbm.CBRefT):
                        _check_buffer(item.buffer, f"{here}: CB {item.port}")
                    elif isinstance(item, fbm.KernelConfigT):
                        _check_kernel(item, here)


_TTM_REQUIRED = {fbm.CreateBufferCommandT: ("ref",), fbm.DeallocateBufferCommandT: ("ref",),
                 fbm.EnqueueWriteBufferCommandT: ("src", "dst"), fbm.EnqueueReadBufferCommandT: ("src", "dst"),
                 fbm.HostAllocCommandT: ("dst",), fbm.MemrefCopyCommandT: ("src", "dst"),
                 fbm.MeshShardCommandT: ("src", "dst"), fbm.CollectiveCommandT: ("src", "dst")}  # the buffers commands name


def _check_buffer(ref, where: str) -> None:
    desc = ref.desc if ref is not None else None
    missing = "reference" if ref is None else "descriptor" if desc is None else "shape" if desc.shape is None \
        else None
    if missing:
        raise BinaryError(f"{where}: corrupted flatbuffer (the buffer has no {missing})")
    shape = [int(d) for d in as_list(desc.shape)]
    if any(d < 0 for d in shape) or math.prod(shape) > _MAX_ELEMENTS or desc.pageSize > 2**32:
        raise BinaryError(f"{where}: corrupted flatbuffer (impossible buffer {shape}, pages of {desc.pageSize} B)")
    for field_name, enum in (("dataType", fbm.DataType), ("memory", fbm.BufferType), ("layout", fbm.BufferLayout)):
        if getattr(desc, field_name) not in enum_names(enum):
            raise BinaryError(f"{where}: corrupted flatbuffer ({field_name} {getattr(desc, field_name)} is out of range)")


def _check_kernel(kernel, where: str) -> None:
    missing = [f for f in ("symbol", "source", "coreOffset", "coreSize", "type") if getattr(kernel, f) is None]
    if missing:
        raise BinaryError(f"{where}: kernel '{kernel.symbol}': corrupted flatbuffer (no {', '.join(missing)})")
    if isinstance(kernel.type, fbm.ComputeConfigT) and kernel.type.mathFidelity not in enum_names(fbm.MathFidelity):
        raise BinaryError(f"{where}: kernel '{kernel.symbol}': corrupted flatbuffer (math fidelity "
                          f"{kernel.type.mathFidelity} is out of range)")


_MAX_ELEMENTS = 2**48  # more than any mesh of devices holds: a shape past it is a corrupted one
_ENUM_FIELDS = ((("dataType",), fb.DataType), (("layout",), fb.TensorLayout),
                (("memoryConfig", "bufferType"), fb.BufferType))


def _check_tensor(ref: fb.TensorRefT, where: str) -> None:
    desc = ref.desc
    missing = "descriptor" if desc is None else "shape" if desc.shape is None else \
        "layout" if desc.layout is None else None
    if missing is not None:
        raise BinaryError(f"{where}: corrupted flatbuffer (tensor {ref.globalId} has no {missing})")
    shape = [int(d) for d in desc.shape]
    if any(d < 0 for d in shape) or math.prod(shape) >= _MAX_ELEMENTS:
        raise BinaryError(f"{where}: corrupted flatbuffer (tensor {ref.globalId} has shape {shape})")
    for path, enum_cls in _ENUM_FIELDS:
        value = desc.layout
        for step in path:
            value = None if value is None else getattr(value, step)
        if value is not None and value not in enum_names(enum_cls):
            raise BinaryError(f"{where}: corrupted flatbuffer (tensor {ref.globalId} has {snake(path[-1])} {value}, "
                              f"not a {enum_cls.__name__})")


def load(path: str | Path, expect: str | None = None):
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BinaryError(f"{path}: cannot read file: {exc.strerror}") from None
    return load_bytes(data, str(path), expect)


def check_version(root, name: str) -> None:
    """Strict major.minor.patch equality, as ttrt checks it."""
    v = root.version
    if (v.major, v.minor, v.patch) != version():
        raise BinaryError(f"{name}: binary version {version_str(v)} does not match ttrt version "
                          f"{'.'.join(map(str, version()))} (use --ignore-version to run anyway)")


# --- system descriptors -------------------------------------------------------------------------

def _dim2d(pair) -> fb.Dim2dT:
    d = fb.Dim2dT()
    d.y, d.x = pair
    return d


def _chip_value(key: str, value):
    if key == "arch":
        return enum_value(fb.Arch, value)
    if key == "supported_data_types":
        return [enum_value(fb.DataType, v) for v in value]
    if key == "supported_tile_sizes":
        return [_dim2d(v) for v in value]
    if isinstance(value, tuple):
        return _dim2d(value)
    return value


def system_desc_t(desc: dict) -> fb.SystemDescT:
    """A `#ttcore.system_desc` (as the dict of `ttmlir.hardware.system_desc`) as a flatbuffer table."""
    out = fb.SystemDescT()
    out.cpuDescs = []
    for cpu in desc["cpus"]:
        c, fields = fb.CpuDescT(), dict(cpu)
        c.role, c.targetTriple = enum_value(fb.CpuRole, fields["role"]), fields["target_triple"]
        out.cpuDescs.append(c)
    out.chipDescs = []
    for chip in desc["chips"]:
        c = fb.ChipDescT()
        for key, value in chip:
            if hasattr(c, field(key)):
                setattr(c, field(key), _chip_value(key, value))
        out.chipDescs.append(c)
    out.chipDescIndices = list(desc["chip_desc_indices"])
    out.chipCapabilities = list(desc["chip_capabilities"])
    out.chipCoords = []
    for rack, shelf, y, x in desc["chip_coords"]:
        coord = fb.ChipCoordT()
        coord.rack, coord.shelf, coord.y, coord.x = rack, shelf, y, x
        out.chipCoords.append(coord)
    out.chipChannels = desc.get("chip_channels", "")
    return out


def as_list(value) -> list:
    """A flatbuffer vector (a list, a numpy array or None) as a list."""
    return [] if value is None else list(value)


def system_desc_dict(sd: fb.SystemDescT) -> dict:
    """The inverse of `system_desc_t`."""
    chips = []
    for c in as_list(sd.chipDescs):
        fields = []
        for key, value in ((snake(k), v) for k, v in vars(c).items()):
            if key == "arch":
                value = enum_names(fb.Arch)[value]
            elif key == "supported_data_types":
                value = tuple(enum_names(fb.DataType)[int(v)] for v in as_list(value))
            elif key == "supported_tile_sizes":
                value = tuple((d.y, d.x) for d in as_list(value))
            elif isinstance(value, fb.Dim2dT):
                value = (value.y, value.x)
            elif value is None or (key in ("dst_register_size_tiles",) and value == 0):
                continue
            fields.append((key, value))
        chips.append(tuple(fields))
    return {"cpus": tuple((("role", enum_names(fb.CpuRole)[c.role]), ("target_triple", c.targetTriple or ""))
                          for c in as_list(sd.cpuDescs)),
            "chips": tuple(chips), "chip_desc_indices": tuple(int(i) for i in as_list(sd.chipDescIndices)),
            "chip_capabilities": tuple(int(i) for i in as_list(sd.chipCapabilities)),
            "chip_coords": tuple((c.rack, c.shelf, c.y, c.x) for c in as_list(sd.chipCoords)),
            "chip_channels": sd.chipChannels or ""}


def golden_tensor(name: str, array) -> fb.GoldenTensorT:
    """A numpy array as a GoldenTensor: floats as f32, integers as si32."""
    import numpy as np

    array = np.ascontiguousarray(array)
    is_float = array.dtype.kind == "f"
    array = array.astype(np.float32 if is_float else np.int32)
    out = fb.GoldenTensorT()
    out.name, out.shape = name, list(array.shape)
    out.stride = [s // array.itemsize for s in array.strides]
    out.dtype = enum_value(fb.DataType, "f32" if is_float else "si32")
    out.data = np.frombuffer(array.tobytes(), dtype=np.uint8)
    return out


def golden_info(goldens: dict) -> fb.GoldenInfoT:
    """A program's golden tensors (numpy arrays by key: `input_N`, `output_N`, an op's location)."""
    info = fb.GoldenInfoT()
    info.goldenMap = []
    for key, array in sorted(goldens.items()):
        kv = fb.GoldenKVT()
        kv.key, kv.value = key, golden_tensor(key, array)
        info.goldenMap.append(kv)
    return info


def system_desc_root(desc: dict) -> fb.SystemDescRootT:
    root = fb.SystemDescRootT()
    root.version, root.ttmlirGitHash, root.systemDesc = version_t(), git_hash(), system_desc_t(desc)
    return root


# --- the simulated system ----------------------------------------------------------------------

def simulated_system(args: dict, mesh: tuple[int, int] | None = None) -> dict:
    """The system ttrt simulates: `--arch`, and `--mesh-shape` or the mesh the binary needs."""
    shape = parse_mesh_shape(args["--mesh-shape"]) if args.get("--mesh-shape") else (mesh or (1, 1))
    return hardware.system_desc(args["--arch"], shape[0] * shape[1])


def parse_mesh_shape(text: str) -> tuple[int, int]:
    try:
        y, x = (int(v) for v in text.lower().split("x"))
        if y < 1 or x < 1:
            raise UserError
    except ValueError:
        raise UserError(f"invalid --mesh-shape '{text}': expected AxB, e.g. 1x2") from None
    return y, x


def check_system(binary_desc, system: dict, name: str, mesh: tuple[int, int]) -> None:
    """The binary's chips must be the system's chips, and the system must have enough of them."""
    try:
        compiled = system_desc_dict(binary_desc)
    except (KeyError, IndexError) as exc:  # an enum value no schema names: a corrupted file
        raise BinaryError(f"{name}: corrupted system descriptor (unknown enum value {exc})") from None
    keys = ("arch", "grid", "l1_size", "num_dram_channels", "dram_channel_size")
    want, have = dict(compiled["chips"][0]), dict(system["chips"][0])
    for key in keys:
        if want.get(key) != have.get(key):
            raise UserError(f"{name}: system desc mismatch: the binary was compiled for {key} = {want.get(key)} "
                             f"({want.get('arch')}), the system has {key} = {have.get(key)} ({have.get('arch')})")
    if mesh[0] * mesh[1] > len(system["chip_desc_indices"]):
        raise UserError(f"{name}: system desc mismatch: the binary needs a {mesh[0]}x{mesh[1]} mesh, the system "
                         f"has {len(system['chip_desc_indices'])} chip(s)")


# --- JSON views (ttrt read) ---------------------------------------------------------------------

ENUM_FIELDS = {"dataType": fb.DataType, "dtype": fb.DataType, "supportedDataTypes": fb.DataType,
               "layout": fb.TensorLayout, "bufferType": fb.BufferType, "tensorMemoryLayout": fb.TensorMemoryLayout,
               "arch": fb.Arch, "role": fb.CpuRole, "shardType": fb.ShardType, "shardDirection": fb.ShardDirection,
               "reduceType": fb.ReduceType, "typeType": fb.OpType}
OMITTED = {"data", "value"}  # raw tensor bytes: shown by size


def to_json(obj):
    """A flatbuffer object tree as plain JSON values, enums by name and keys in snake_case."""
    if isinstance(obj, list):
        return [to_json(v) for v in obj]
    if hasattr(obj, "tolist"):  # flatbuffers reads scalar vectors as numpy arrays
        return obj.tolist()
    if not hasattr(obj, "__dict__"):
        return obj
    table = type(obj).__name__[:-1]  # EltwiseUnaryOpT -> EltwiseUnaryOp
    out = {}
    for key, value in vars(obj).items():
        if key == "type" and hasattr(fb, table + "Type"):
            value = enum_names(getattr(fb, table + "Type")).get(value, value)  # a bad value is shown as read
        elif key in ENUM_FIELDS and (isinstance(value, (int, list)) or hasattr(value, "tolist")):
            names = enum_names(ENUM_FIELDS[key])
            value = [names.get(v, v) for v in to_json(value)] if hasattr(value, "__len__") else names.get(value, value)
            if key == "typeType":
                value = camel(value)
        elif key in OMITTED and hasattr(value, "__len__") and not isinstance(value, str):
            value = f"<{len(value)} bytes>"
        else:
            value = to_json(value)
        out[snake(key) if key != "typeType" else "type_type"] = value
    return out


# Tables upstream spells otherwise than the camel case of their op's name (MoE), both ways.
SPELLED_TABLES = {"prepare_moe_compute_w0_w1_weights": "PrepareMoEComputeW0W1WeightsOp",
                  "prepare_moe_compute_w2_weights": "PrepareMoEComputeW2WeightsOp"}
SPELLED_OPS = {table[:-2]: op for op, table in SPELLED_TABLES.items()}


def op_name(operation: fb.OperationT) -> str:
    """The TTNN op an Operation holds: its table's `type` enum, or the table's own name."""
    table = operation.type
    table_name = type(table).__name__[:-3]  # EltwiseUnaryOpT -> EltwiseUnary
    enum_cls = getattr(fb, table_name + "OpType", None)
    if enum_cls is not None:
        return enum_names(enum_cls)[table.type]
    return SPELLED_OPS.get(table_name) or snake(table_name)


def qualified_op_name(name: str) -> str:
    """An op name as the IR spells it: `ttnn.add`, `debug.print`, `func.call`."""
    from ttmlir.dialects.debug import SERIALIZED

    return "func.call" if name == "call" else f"debug.{name}" if name in SERIALIZED else f"ttnn.{name}"
