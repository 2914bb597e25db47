"""The op functions of the simulated `ttnn` module as the compiler's table defines them, one per TTNN op.

`ttnn.add(a, b, dtype=..., memory_config=...)` binds its arguments to the op's row (operands, then properties,
as `ttmlir.conversion.ttnn_api` orders them), writes the op's flatbuffer table as the `.ttnn` writer would, and runs
it with the executor's kernels: results are placed, formatted, allocated and timed as in `ttrt run`.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
import time
import numpy as np
import torch

from ttmlir.conversion import ttnn_api
from ttmlir.runtime import RuntimeFailure
from ttmlir.runtime import executor
from ttmlir.runtime.device import OutOfMemory
from ttmlir.runtime.kernels import KERNELS, MESH_KERNELS
from ttmlir.runtime.perf import estimate
from ttmlir.runtime.tensor import materialize
from ttmlir.target import binary_generated as fb
from ttmlir.target import flatbuffer as fbu
from ttmlir.target.ttnn import UNION_TAGS
from ttnn.trace import call as trace_call
from ttnn.device import Device
from ttnn.tensor import Tensor, describe, from_torch, placement
from ttnn.types import DataType, Layout, MemoryConfig

# the cores the ops called now are confined to (a matmul's core_grid, a reduction's sub_core_grids, a program
# config's grid): the perf model spreads their work over that many cores instead of the whole worker grid
CORES: contextvars.ContextVar[int | None] = contextvars.ContextVar("ttnn_cores", default=None)
# the fused tt-metal op the ops called now belong to (`fused_program`)
FUSED: contextvars.ContextVar[str | None] = contextvars.ContextVar("ttnn_fused", default=None)
# data types for the results of the ops called now, by result name (`result_types`): a tt-metal-signature call asks
# for tt-metal's index types; generated code's calls keep the types the compiler gave their results
RESULT_TYPES: contextvars.ContextVar[dict | None] = contextvars.ContextVar("ttnn_result_types", default=None)

# ops generated code never calls through the library (the device comes from utils.DeviceGetter; ttnn.generic
# runs the compiler's own kernels); global semaphores are the device's own objects (`ttnn.device`)
NOT_LIBRARY_CALLS = {"get_device", "generic", "create_global_semaphore", "reset_global_semaphore"}


def table_functions() -> dict:
    """Every op function by its callee (`add`, `transformer.concatenate_heads`), with the compiler's parameters."""
    from ttmlir.dialects.ttnn import TTNN_ROWS

    functions = {}
    for row in TTNN_ROWS:
        if row.name in NOT_LIBRARY_CALLS or row.name in ttnn_api.CONSTRUCTORS or any(r.endswith("*") for r in row.results) \
                or ttnn_api.outside_ttnn(row.name):  # not ttnn's (ttml's training ops)
            continue
        callee = ttnn_api.callee_of(row.name)
        functions[callee] = _op_function(row, callee)
    return functions


def _op_function(row, callee: str):
    def op(*args, **kwargs):  # a call under trace capture is recorded, to be replayed by ttnn.execute_trace
        return trace_call(lambda *a, **k: run(row, callee, a, k), args, kwargs)

    op.__name__, op.__qualname__ = callee.split(".")[-1], callee
    op.__doc__ = f"ttnn.{callee}: {row.summary}"
    return op


def _parameters(row) -> list[str]:
    """The function's parameter names as ttnn spells them."""
    renamed = ttnn_api.RENAMED.get(row.name, {})
    return [renamed.get(name.rstrip("*"), name.rstrip("*")) for name, _kind in ttnn_api.parameters(row)]


def bind(row, callee: str, args: tuple, kwargs: dict) -> dict:
    """The arguments by the op's operand and property names."""
    params = _parameters(row)
    if len(args) > len(params):
        raise TypeError(f"ttnn.{callee}() takes at most {len(params)} arguments ({len(args)} given)")
    bound = dict(zip(params, args))
    for key, value in kwargs.items():
        if key not in params:
            raise TypeError(f"ttnn.{callee}() got an unexpected keyword argument '{key}'")
        if key in bound:
            raise TypeError(f"ttnn.{callee}() got multiple values for argument '{key}'")
        bound[key] = value
    original = {v: k for k, v in ttnn_api.RENAMED.get(row.name, {}).items()}
    bound = {original.get(k, k): v for k, v in bound.items()}
    if row.name in ttnn_api.ALTERNATIVES:  # the overload's slot: the operand, else the property it stands for
        operand, prop = ttnn_api.ALTERNATIVES[row.name]
        given = bound.get(operand)
        if given is not None and not isinstance(given, Tensor):
            bound[prop] = bound.pop(operand)
        elif isinstance(given, Tensor) and bound.get(prop) is None:
            bound[prop] = given.shape[-1]
    listed = ttnn_api.LISTED.get(row.name)
    if isinstance(bound.get(listed), (list, tuple)):
        if len(bound[listed]) != 1:
            raise TypeError(f"ttnn.{callee}() takes one {ttnn_api.RENAMED[row.name][listed]} entry, "
                            f"got {len(bound[listed])}")
        bound[listed] = bound[listed][0]
    for spec in row.operands:
        if not spec.endswith(("?", "*")) and bound.get(spec) is None:
            raise TypeError(f"ttnn.{callee}() missing required argument '{spec}'")
    for name, _kind, _default, required in row.props:
        if required and bound.get(name) is None and row.name not in ttnn_api.LAYOUT_OP_KEYWORDS:
            raise TypeError(f"ttnn.{callee}() missing required argument '{name}'")
    return bound


def construct(name: str, args: tuple, kwargs: dict, shape):
    """A tensor built by a ttnn constructor (`ttnn.Tensor(values, shape, ...)`): the op it stands for, run with the
    constructor's shape as its result's."""
    from ttmlir.dialects.ttnn import TTNN_ROWS

    row = next(r for r in TTNN_ROWS if r.name == name)
    return run(row, ttnn_api.CONSTRUCTORS[name], args, kwargs, shape)


def run(row, callee: str, args: tuple, kwargs: dict, shape=None):
    bound = bind(row, callee, args, kwargs)
    if shape is not None:
        bound["shape"] = shape
    tensors = [t for v in bound.values() for t in (v if isinstance(v, list) else [v]) if isinstance(t, Tensor)]
    device = next((v for v in bound.values() if isinstance(v, Device)), None) or \
        next((t._device for t in tensors if t._device is not None), None) or _host_device()
    if row.name == "deallocate":
        bound["input"].deallocate()
        return None
    ctx = device.context
    ctx.pool = pool = {}
    table_name = _table_name(row)
    table = getattr(fb, table_name + "T")()
    if hasattr(fb, table_name + "Type"):
        table.type = fbu.enum_value(getattr(fb, table_name + "Type"), row.name)

    def ref_of(value):
        if isinstance(value, Device):
            ref = fb.DeviceRefT()
            ref.globalId = device.global_id()
            return ref
        if not isinstance(value, Tensor):
            raise TypeError(f"ttnn.{callee}(): expected a ttnn.Tensor, got {type(value).__name__}")
        t = value.value
        ref = describe(t.shape, t.dtype, t.layout, t.buffer_type, t.memory_layout, t.shard_grid)
        ref.globalId = device.global_id()
        pool[ref.globalId] = t
        return ref

    for spec in row.operands:
        name, value = spec.rstrip("?*"), bound.get(spec.rstrip("?*"))
        if value is None:
            continue
        _set(table, name, [ref_of(v) for v in value] if spec.endswith("*") else ref_of(value), callee)
    for name, kind, _default, _required in row.props:
        value = bound.get(name)
        if value is not None and fbu.field(name) in vars(table):
            encoded = encode(kind, value, callee, name)
            setattr(table, fbu.field(name), encoded)
            if type(encoded) in UNION_TAGS:  # a union field carries its member's tag beside it
                setattr(table, fbu.field(name) + "Type", UNION_TAGS[type(encoded)])
    first = next((t.value for t in tensors), None)
    results = _result_refs(row, table, bound, first, describe, device)
    # one compiled program per op and operand signature, as tt-metal's program cache keys them (the ops of a
    # fused program count as the one program that holds them)
    if FUSED.get() is None:
        device.note_program(program_key(row.name, tensors, bound.get("memory_config")))
    try:
        outputs = _execute(row, callee, table, results, ctx, device, bound.get("memory_config"))
    except RuntimeFailure as exc:
        raise DeviceError(str(exc)) from None
    config = bound.get("memory_config")
    sharded = isinstance(config, MemoryConfig) and config.is_sharded()
    spec = next((t._shard_spec for t in tensors if t._shard_spec is not None), None)
    # each chip computes on its own values: the results lie over the mesh as the operands do
    topology = next((t._topology for t in tensors if t._topology is not None), None)
    for out in outputs if isinstance(outputs, tuple) else (outputs,):
        if isinstance(out, Tensor) and (out.value.memory_layout or "").endswith("sharded"):
            out._shard_spec = config.for_shape(out.shape).shard_spec if sharded else spec
        if isinstance(out, Tensor) and topology is not None:
            out._topology = topology
    return outputs


class DeviceError(RuntimeFailure, RuntimeError):
    """An op that failed on the simulated device (out of memory, a kernel's refusal): a RuntimeError, as tt-metal
    raises one, and the runtime's RuntimeFailure, as `ttrt run` reports it."""


@functools.lru_cache(maxsize=1)
def _host_device():
    """The device host-only ops are timed on (no buffer of theirs is allocated on it)."""
    return Device(-1)


def _table_name(row) -> str:
    from ttmlir.target.ttnn import table_of
    return table_of(row)


def _set(table, name: str, value, callee: str) -> None:
    attr = fbu.field(name)
    if attr not in vars(table):
        raise TypeError(f"ttnn.{callee}(): the op has no argument '{name}' in this simulator")
    setattr(table, attr, value)


def _placement(row, bound: dict, first, shape, layout: str, device) -> tuple[str, str | None, tuple | None]:
    """The buffer, memory layout and shard grid of the op's results."""
    config = bound.get("memory_config")
    if row.name == "from_device":
        return "system_memory", None, None
    if row.family == "prepare_conv2d":  # the conv's weights live on its device
        return "dram", "interleaved", None
    if config is not None:
        return placement(config, device, shape, layout)
    if row.name == "to_device" or (first is None and bound.get("device") is not None):
        return "dram", "interleaved", None
    if first is None:
        return "system_memory", None, None
    return first.buffer_type, first.memory_layout, first.shard_grid


def _result_refs(row, table, bound: dict, first, describe, device) -> list:
    """The op's result references: shape, format and placement as the call gives them (a computed shape replaces
    the provisional one before the values are stored)."""
    dtype = bound.get("dtype") or bound.get("output_dtype") or bound.get("input_dtype")
    layout = bound.get("layout") or (Layout.TILE if row.family == "prepare_conv2d" else None)
    shape = bound.get("shape")
    shape = list(shape) if shape is not None else (first.shape if first is not None else [1])
    layout = layout.value if layout is not None else (first.layout if first is not None else "row_major")
    config = bound.get("memory_config")
    if isinstance(config, MemoryConfig) and config.is_sharded() and config.shard_spec is not None:
        # the shards are checked against the computed result (`_execute`): this shape may be provisional
        buffer, memory_layout, grid = config.buffer_type.value, config.memory_layout.value, (1, 1)
    else:
        try:
            buffer, memory_layout, grid = _placement(row, bound, first, shape, layout, device)
        except ValueError as exc:  # a memory config the device cannot hold: tt-metal's check fails as a RuntimeError
            raise RuntimeError(f"ttnn.{row.name}: {exc}") from None
    refs, chosen = [], RESULT_TYPES.get() or {}
    for name in row.results:
        result_dtype = chosen.get(name, dtype)
        ref = describe(shape, result_dtype.value if result_dtype is not None else
                       (first.dtype if first is not None else "f32"), layout, buffer, memory_layout, grid)
        ref.globalId = device.global_id()
        setattr(table, "out" if name == "result" else fbu.field(name), ref)
        refs.append(ref)
    return refs


def program_key(name: str, tensors: list, memory_config) -> tuple:
    return (name, tuple((tuple(t.value.shape), t.value.dtype, t.value.layout, t.value.memory_layout)
                        for t in tensors), repr(memory_config))


@contextlib.contextmanager
def fused_program(name: str, tensors: list, memory_config=None):
    """The ops called inside are one tt-metal program (a fused op the simulator runs as several TTNN ops): the
    program cache holds one entry for them, keyed by the fused op and its operands."""
    device = next((t.device() for t in tensors if isinstance(t, Tensor) and t.device() is not None), None)
    if device is not None and FUSED.get() is None:
        device.note_program(program_key(name, [t for t in tensors if isinstance(t, Tensor)], memory_config))
    token = FUSED.set(name)
    try:
        yield
    finally:
        FUSED.reset(token)


@contextlib.contextmanager
def result_types(**types):
    """The ops called inside store their results named here in these data types (`indices=DataType.UINT16`)."""
    token = RESULT_TYPES.set(types)
    try:
        yield
    finally:
        RESULT_TYPES.reset(token)


@contextlib.contextmanager
def on_cores(count: int | None):
    """Run the ops called inside on `count` cores (None: where the caller runs them, by default the device's
    whole worker grid)."""
    if count is None:
        yield
        return
    token = CORES.set(count)
    try:
        yield
    finally:
        CORES.reset(token)


def placed(function):
    """tt-metal's keywords choosing where an op runs, taken off the call: `queue_id` (a command queue the device
    opened; ops run to completion in call order), `sub_core_grids` (the cores the op is confined to, for the perf
    model) and `sub_device_ids` (sub-devices, which the simulated device does not partition: refused)."""
    name = function.__name__

    @functools.wraps(function)
    def op(*args, queue_id=None, sub_core_grids=None, sub_device_ids=None, **kwargs):
        from ttnn.device import check_queue

        tensor = next((v for v in (*args, *kwargs.values()) if isinstance(v, Tensor)), None)
        device = tensor.device() if tensor is not None else kwargs.get("device")
        check_queue(name, queue_id, device)
        cores = None if sub_core_grids is None else grid_cores(sub_core_grids, device, name, "sub_core_grids")
        if sub_device_ids:
            if device is None:
                raise ValueError(f"ttnn.{name}(): sub_device_ids needs a device tensor")
            cores = device.sub_device_cores(sub_device_ids)
        with on_cores(cores):
            return function(*args, **kwargs)

    # the signature callers bind against (`ttnn.operations._either`): the op's own and these keywords
    signature = inspect.signature(function)
    params = list(signature.parameters.values())
    tail = [p for p in params if p.kind == p.VAR_KEYWORD]
    extra = [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=None)
             for k in ("queue_id", "sub_core_grids", "sub_device_ids") if k not in signature.parameters]
    op.__signature__ = signature.replace(parameters=[p for p in params if p.kind != p.VAR_KEYWORD] + extra + tail)
    return op


def grid_cores(grid, device, callee: str, what: str) -> int:
    """The number of cores of a grid a call names (`CoreGrid`, `CoreCoord`/(x, y) grid size, `CoreRangeSet`),
    checked against the device's worker grid as tt-metal checks it."""
    from ttnn.types import CoreCoord, CoreGrid, CoreRange, CoreRangeSet

    gy, gx = device.mesh.chips[0].facts.grid if device is not None else (None, None)
    if isinstance(grid, CoreGrid):
        x, y = grid.x, grid.y
    elif isinstance(grid, (CoreRangeSet, CoreRange)) or (isinstance(grid, (set, frozenset, list)) and grid and
                                                         isinstance(next(iter(grid)), CoreRange)):
        cores = CoreRangeSet(grid).cores()
        outside = [c for c in cores if gx is not None and not (c.x < gx and c.y < gy)]
        if outside:
            raise RuntimeError(f"ttnn.{callee}(): core {tuple(outside[0])} of {what} is outside the device's "
                               f"{gx}x{gy} worker grid")
        if not cores:
            raise RuntimeError(f"ttnn.{callee}(): {what} names no cores")
        return len(cores)
    elif isinstance(grid, (CoreCoord, tuple, list)) and len(grid) == 2:
        x, y = (grid.x, grid.y) if isinstance(grid, CoreCoord) else grid
    else:
        raise TypeError(f"ttnn.{callee}(): {what} must be a core grid, got {type(grid).__name__}")
    if x < 1 or y < 1 or (gx is not None and (x > gx or y > gy)):
        raise RuntimeError(f"ttnn.{callee}(): {what} {x}x{y} (x by y) does not fit the device's {gx}x{gy} worker grid")
    return int(x) * int(y)


def _execute(row, callee: str, table, refs: list, ctx, device, config=None):
    name, where = row.name, f"ttnn.{callee}"
    kernel = MESH_KERNELS.get(name) or KERNELS.get(name)
    if kernel is None:
        raise RuntimeFailure(f"{where}: no kernel for this op in the simulator")
    operation = fb.OperationT()
    operation.type, operation.locInfo, operation.debugInfo = table, where, where
    op = executor.OpContext(name, operation, len(ctx.perf))
    if executor.DebugHooks.pre_op is not None:
        executor.DebugHooks.pre_op(None, ctx, op)
    start = time.perf_counter_ns()
    fields, used = executor._inputs(table, ctx.pool, name)
    num = executor._numerics(name, table, used, refs, ctx)  # the hardware's numerics, as ttrt run resolves them
    per_chip = executor._compute(name, where, kernel, fields, used, table, ctx, num)
    written = executor.in_place_targets(table)
    for i, ref in enumerate(written if not refs else []):  # an op without a result writes its operands in place
        executor._write_in_place(ctx.pool[ref.globalId], [results[i] for results in per_chip], num)
        op.outputs.append(ctx.pool[ref.globalId])
    local = any(t.local for t in used)
    for i, ref in enumerate(refs):
        values = [results[i] for results in per_chip]
        d = ref.desc
        layout = fbu.enum_names(fb.TensorLayout)[d.layout.layout]
        where_ = _buffer_of(d)
        if isinstance(config, MemoryConfig) and config.is_sharded() and config.shard_spec is not None:
            try:  # the shard spec checked against the result's own shape
                where_ = placement(config, device, list(values[0].shape), layout)
            except ValueError as exc:  # tt-metal's shard-spec check fails as a RuntimeError
                raise RuntimeError(f"{where}: {exc}") from None
        shaped = describe(list(values[0].shape), fbu.enum_names(fb.DataType)[d.layout.dataType], layout, *where_)
        ref.desc, ref.size = shaped.desc, shaped.size
        try:
            tensor = materialize(ref, values if len(values) > 1 else values[0], device.mesh, where, local=local,
                                 num=num)
        except OutOfMemory as exc:
            raise RuntimeFailure(f"{where}: {exc}") from None
        op.outputs.append(tensor)
    end = time.perf_counter_ns()
    family = executor.TABLE_FAMILIES.get(type(table).__name__, "data_movement")
    ctx.perf.append((op, estimate(name, family, used, op.outputs, device.mesh.arch, device.mesh.num_chips,
                                  executor._math_fidelity(table), _cores(device)), start, end))
    executor._note_peak(ctx)
    if executor.DebugHooks.post_op is not None:
        executor.DebugHooks.post_op(None, ctx, op)
    ctx.pool = {}
    outputs = [Tensor.of(t, device) for t in op.outputs] if refs else []
    executor.forget_values(op)  # the device's log keeps the op's description, not its values
    if not refs:
        return None
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _cores(device) -> int | None:
    """The cores an op runs on: the call's confinement, else the loaded sub-devices', else the whole grid."""
    cores = CORES.get()
    if cores is None and getattr(device, "sub_devices", None) is not None:
        cores = device.sub_device_cores()
    return cores


def _buffer_of(desc) -> tuple[str, str | None, tuple | None]:
    config = desc.layout.memoryConfig
    if config is None:
        return "system_memory", None, None
    buffer = fbu.enum_names(fb.BufferType)[config.bufferType]
    layout = None if config.tensorMemoryLayout is None else fbu.enum_names(fb.TensorMemoryLayout)[config.tensorMemoryLayout]
    grid = (desc.layout.grid.y, desc.layout.grid.x) if (layout or "").endswith("sharded") else None
    return buffer, layout, grid


def encode(kind: str, value, callee: str, name: str):
    """A Python argument as the op's flatbuffer field holds it (as `ttmlir.target.ttnn` writes it)."""
    import enum

    if kind in ("dtype", "layout", "reduce_type", "shard_type", "shard_direction"):
        if not isinstance(value, enum.Enum):
            raise TypeError(f"ttnn.{callee}(): '{name}' must be a ttnn enum member, got {value!r}")
        schema = {"dtype": fb.DataType, "layout": fb.TensorLayout, "reduce_type": fb.ReduceType,
                  "shard_type": fb.ShardType, "shard_direction": fb.ShardDirection}[kind]
        return fbu.enum_value(schema, value.value)
    if kind == "memory_config":
        out = fb.MemoryConfigT()
        out.bufferType = fbu.enum_value(fb.BufferType, value.buffer_type.value)
        out.tensorMemoryLayout = fbu.enum_value(fb.TensorMemoryLayout, value.memory_layout.value)
        return out
    if kind in ("shape", "pairs") or kind in ttnn_api.LIST_KINDS:
        return [int(v) for v in value]
    if kind in ("mesh_shape", "mesh_offset"):
        out = fb.Dim2dT()
        out.y, out.x = (int(v) for v in value)
        return out
    if kind in ("mesh_mapper_config", "mesh_composer_config"):
        return _mesh_config(kind, value)
    if kind.endswith("_or_darray"):
        return [int(v) for v in value] if isinstance(value, (list, tuple)) else [int(value)]
    if kind in ttnn_api.STRUCT_KINDS:
        out = fb.StructAttrT()
        out.name = type(value).__name__
        out.fields = []
        for key, field in vars(value).items():
            entry = fb.StructFieldT()
            entry.key = key
            entry.value = ("true" if field else "false") if isinstance(field, bool) else \
                field.value if isinstance(field, enum.Enum) else str(field)
            out.fields.append(entry)
        return out
    if kind == "elements":
        return np.frombuffer(np.asarray(value, dtype=np.float32).tobytes(), dtype=np.uint8)
    if kind in ("number", "f32_or_i32"):  # the schema's NumberType: an integer stays an integer, as the compiler writes it
        number = fb.IntegralTypeT() if isinstance(value, int) and not isinstance(value, bool) else fb.FloatingPointTypeT()
        number.value = int(value) if isinstance(number, fb.IntegralTypeT) else float(value)
        return number
    if kind in ("bool", "str", "f32") or kind in ttnn_api.INT_KINDS:
        return value
    raise TypeError(f"ttnn.{callee}(): a '{kind}' argument ('{name}') is not supported by the simulator")


def _mesh_config(kind: str, value):
    """A `ttnn.MeshMapperConfig` / `ttnn.MeshComposerConfig` as the op's table holds it (a replicated axis: dim -1)."""
    from ttnn.distributed import PlacementShard

    if kind == "mesh_mapper_config":
        out = fb.MeshMapperConfigT()
        out.placements = [fb.PlacementT(fb.PlacementType.Shard, int(p.dim)) if isinstance(p, PlacementShard)
                          else fb.PlacementT(fb.PlacementType.Replicate, -1) for p in value.placements]
    else:
        out = fb.MeshComposerConfigT()
        out.dims = [int(d) for d in value.dims]
    override = value.mesh_shape_override
    out.meshShapeOverride = [int(d) for d in override] if override is not None else None
    return out


@functools.lru_cache(maxsize=None)
def _row(name: str):
    from ttmlir.dialects.ttnn import TTNN_ROWS
    return next(r for r in TTNN_ROWS if r.name == name)


def call(name: str, *args, **kwargs):
    """Run the TTNN op `name` (its row's parameters, the compiler's spelling), recorded under trace capture."""
    row = _row(name)
    callee = ttnn_api.callee_of(name)
    return trace_call(lambda *a, **k: run(row, callee, a, k), args, kwargs)


def call_shaped(name: str, shape, *args, **kwargs):
    """`call`, for an op whose result shape its arguments do not carry (arange's length): the caller gives it."""
    row = _row(name)
    callee = ttnn_api.callee_of(name)
    return trace_call(lambda *a, **k: run(row, callee, a, k, list(shape)), args, kwargs)


def to_scalar_tensor(value, like: Tensor) -> Tensor:
    """A Python scalar as the one-element operand a binary op broadcasts (as tt-metal fills a scalar's tile), in the
    other operand's data type and placement."""
    dtype = like.dtype
    if dtype.value.startswith("bfp"):  # a block-float tile of one value: keep the scalar exact in bf16
        dtype = DataType.BFLOAT16
    rank = max(1, len(like.shape))
    device = like.device()
    config = None if device is None else MemoryConfig(buffer_type=like.memory_config().buffer_type)
    return from_torch(torch.full([1] * rank, float(value)), dtype=dtype, layout=like.layout, device=device,
                      memory_config=config)
