"""How a TTNN op is called through the `ttnn` library: one table for EmitPy (Python) and EmitC (C++).

A call is the callee, the op's operands as positional arguments (an absent optional one as None) and its
properties as keyword arguments in the op row's order; `dtype`, `layout` and `memory_config` an op does not
carry come from its result's layout, so generated code places every tensor where the flatbuffer does. The layout
ops carry nothing: their arguments are the result's layout. Values are language-neutral (`Enum`, `Ctor`, lists,
scalars, None) and spelled by `python_value` / `cpp_value`; the simulator's `ttnn` module reads them back with
the same table (`tools/ttnn`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FloatAttr, FunctionType, IndexType, IntegerType, NoneAttr, TensorType, TupleType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue

from ttmlir.dialects import ttnn
from ttmlir.ir.props import dense_values, int_values, scalar
from ttmlir.errors import PassFailure

# Ops ttnn exposes under another name or in a submodule (Python spelling; C++ uses `::` for `.`).
CALLEES = {"pow_tensor": "pow", "split_query_key_value_and_split_heads": "transformer.split_query_key_value_and_split_heads",
           "scaled_dot_product_attention": "transformer.scaled_dot_product_attention",
           "scaled_dot_product_attention_decode": "transformer.scaled_dot_product_attention_decode",
           "paged_scaled_dot_product_attention_decode": "transformer.paged_scaled_dot_product_attention_decode",
           "concatenate_heads": "transformer.concatenate_heads", "nlp_concat_heads": "experimental.nlp_concat_heads",
           "nlp_concat_heads_decode": "experimental.nlp_concat_heads_decode",
           "nlp_create_qkv_heads_decode": "experimental.nlp_create_qkv_heads_decode",
           "rotary_embedding_llama": "experimental.rotary_embedding_llama",
           "rotary_embedding": "experimental.rotary_embedding", "paged_update_cache": "experimental.paged_update_cache",
           "dit_rms_norm_unary_fused": "experimental.dit_rms_norm_unary_fused",
           "chunked_scaled_dot_product_attention": "transformer.chunked_scaled_dot_product_attention",
           "paged_fill_cache": "experimental.paged_fill_cache", "update_cache": "update_cache",
           "fill_cache": "fill_cache", "all_to_all_dispatch_metadata": "experimental.all_to_all_dispatch_metadata",
           "reset_global_semaphore": "reset_global_semaphore_value", "prepare_conv2d_weights": "prepare_conv_weights",
           "prepare_conv2d_bias": "prepare_conv_bias", "flash_mla_prefill": "transformer.flash_mla_prefill",
           "indexer_score_dsa": "experimental.indexer_score_dsa",
           # tt-train's fused ops live in ttml, not ttnn (C++ only: ttml binds none of them in Python)
           "adamw": "::ttml.metal.adamw", "sdpa_fw": "::ttml.metal.sdpa_fw", "sdpa_bw": "::ttml.metal.sdpa_bw"}
# ops C++ reaches in another namespace than Python (Python spelling, `.` for `::`)
CPP_CALLEES = {"create_global_semaphore": "global_semaphore.create_global_semaphore",
               "reset_global_semaphore": "global_semaphore.reset_global_semaphore_value",
               "prepare_conv2d_weights": "operations.conv.conv2d.prepare_conv_weights",
               "prepare_conv2d_bias": "operations.conv.conv2d.prepare_conv_bias",
               "load_tensor": "loadTensor"}  # tt-mlir's C++ helper reading a .tensorbin file
# ttcore data types, layouts, buffers and memory layouts as ttnn's enums name them
DATA_TYPES = {"f32": "FLOAT32", "bf16": "BFLOAT16", "f16": "FLOAT16", "bfp_bf8": "BFLOAT8_B", "bfp_bf4": "BFLOAT4_B",
              "bfp_f8": "BFLOAT8_B", "bfp_f4": "BFLOAT4_B", "bfp_bf2": "BFLOAT2_B", "bfp_f2": "BFLOAT2_B",
              "u32": "UINT32", "u16": "UINT16", "u8": "UINT8", "si32": "INT32"}
LAYOUTS = {"tile": "TILE", "row_major": "ROW_MAJOR"}
BUFFER_TYPES = {"dram": "DRAM", "l1": "L1", "system_memory": "SYSTEM_MEMORY", "l1_small": "L1_SMALL", "trace": "TRACE"}
MEMORY_LAYOUTS = {"interleaved": "INTERLEAVED", "single_bank": "SINGLE_BANK", "height_sharded": "HEIGHT_SHARDED",
                  "width_sharded": "WIDTH_SHARDED", "block_sharded": "BLOCK_SHARDED"}
# property kinds that are enums, with ttnn's type name and member spelling
ENUM_KINDS = {"dtype": ("DataType", DATA_TYPES), "layout": ("Layout", LAYOUTS),
              "reduce_type": ("ReduceType", None), "shard_type": ("MeshShardType", None),
              "shard_direction": ("MeshShardDirection", None),
              "mask_type": ("AttentionMaskType", {"none": "None", "causal": "Causal", "arbitrary": "Arbitrary"})}
# bool properties a callee takes as an enum: (type, member when true, member when false)
BOOL_ENUMS = {"stochastic_rounding": ("StochasticRounding", "Enabled", "Disabled")}
STRUCT_KINDS = {"compute_config": "DeviceComputeKernelConfig", "conv2d_config": "Conv2dConfig",
                "sdpa_program_config": None,
                "conv3d_config": "Conv3dConfig", "matmul_program_config": None}
# struct fields that are enums: ttnn's type and member spelling; (C++ namespace of the type)
FIELD_ENUMS = {"math_fidelity": ("MathFidelity", {"lofi": "LoFi", "hifi2": "HiFi2", "hifi3": "HiFi3", "hifi4": "HiFi4"})}
SDPA_PROGRAM_CONFIG = "ttnn.sdpa_program_config"
CPP_NAMESPACES = {"MathFidelity": "::tt::tt_metal", "SDPAProgramConfig": "::ttnn::operations::transformer",
                  "AttentionMaskType": "::ttml::metal", "StochasticRounding": "::ttml::metal"}
INT_KINDS = {"i32", "ui32", "si32", "i64", "si64", "si8"}
LIST_KINDS = {"i32_darray", "i64_darray", "i32_array", "pairs"}
# layout ops: the keywords they take, all read from the result's layout
LAYOUT_OP_KEYWORDS = {"to_layout": ("layout", "dtype", "memory_config"), "typecast": ("dtype",),
                      "to_device": ("memory_config",), "from_device": (), "to_memory_config": ("memory_config",)}
DERIVED = ("dtype", "layout", "memory_config")
# ops whose ttnn signature orders operands and properties otherwise than their row (operands first, then props)
ORDER = {"arange": ("start", "end", "step", "dtype", "device", "memory_config", "layout"),
         "load_tensor": ("file_path", "layout", "dtype", "device", "memory_config"),
         **{name: ("shape", *fill, "dtype", "layout", "device", "memory_config")
            for name, fill in (("full", ("fill_value",)), ("zeros", ()), ("ones", ()), ("empty", ()))},
         "rand": ("size", "device", "dtype", "layout", "memory_config", "low", "high", "seed"),
         "create_global_semaphore": ("device", "core_range_set", "initial_value"),
         "sdpa_fw": ("query", "key", "value", "mask_type", "attention_mask", "dropout_probability",
                     "return_intermediates"),
         "sdpa_bw": ("grad_output", "attn_output", "query", "key", "value", "intermediates", "mask_type",
                     "attention_mask", "dropout_probability"),
         "flash_mla_prefill": ("query", "key", "value", "attention_mask", "is_causal", "scale", "memory_config")}
# ttnn's overloads keyed on one positional argument: (operand, property) where the operand's slot carries the
# property when the operand is absent (flash_mla_prefill takes V, or head_dim_v to slice V from K)
ALTERNATIVES = {"flash_mla_prefill": ("value", "head_dim_v")}
# properties ttnn takes as a list of them (None when unset): the one mesh axis as `seq_shard_axes=[axis]`
LISTED = {"indexer_score_dsa": "cluster_axis"}
# keywords an op's ttnn function takes beyond its row, read from the result's layout: the result's format does not
# follow the first operand's (ttnn.embedding's is the weight's)
RESULT_KEYWORDS = {"embedding": ("layout", "dtype"), "flash_mla_prefill": ("memory_config",),
                   "load_tensor": ("layout", "dtype", "memory_config")}
# keywords ttnn's function spells otherwise than the op's property (by op); an operand named here is passed by
# that keyword too
RENAMED = {**{op: {"matmul_program_config": "program_config", "compute_config": "compute_kernel_config"}
              for op in ("matmul", "linear")},
           "create_global_semaphore": {"device": "mesh_device", "core_range_set": "cores"},
           **{name: {"device": "device"} for name in ("full", "zeros", "ones", "empty")},
           "rand": {"size": "shape", "device": "device"},
           **{f"prepare_conv2d_{what}": {operand: operand, "device": "device", "input_tensor_layout": "input_layout",
                                         "conv2d_config": "conv_config"}
              for what, operand in (("weights", "weight_tensor"), ("bias", "bias_tensor"))},
           "flash_mla_prefill": {"attention_mask": "attn_mask"}, "indexer_score_dsa": {"cluster_axis": "seq_shard_axes"}}
# ops whose dtype keyword is None: the result takes the operands' data type
OPERAND_DTYPE = {"remainder"}
# ops Python builds with a ttnn constructor, not an op function: `ttnn.Tensor(values, shape, dtype, layout[, device,
# memory_config=...])` for a constant, its values flat in row-major order (C++ calls the op's function)
CONSTRUCTORS = {"constant": "Tensor"}


@dataclass(frozen=True)
class Enum:
    type: str
    member: str


@dataclass(frozen=True)
class Ctor:
    """A value built by a ttnn constructor: positional `args`, then `kwargs` (name, value) pairs."""

    type: str
    args: tuple = ()
    kwargs: tuple = ()


class TypedFloat(float):
    """A float attribute's value and its type: Python spells it as APFloat prints that type (`9.99999974E-6`)."""

    def __new__(cls, value: float, type: Attribute):
        self = super().__new__(cls, value)
        self.type = type
        return self


@dataclass(frozen=True)
class Operand:
    index: int


@dataclass(frozen=True)
class Call:
    op: str  # the TTNN op's name
    callee: str  # as Python spells it, without the `ttnn.` prefix
    args: tuple  # (keyword or None, value) pairs


def callee_of(name: str) -> str:
    return CALLEES.get(name, name)


def cpp_callee_of(name: str) -> str:
    return "::".join(CPP_CALLEES.get(name, callee_of(name)).split("."))


def outside_ttnn(name: str) -> bool:
    """An op another library provides (a callee spelled from the global namespace, `::ttml.metal.adamw`)."""
    return callee_of(name).startswith("::")


def ttir_name(ttnn_name: str) -> str | None:
    """The TTIR op a TTNN op lowers from (its own name when a TTIR op has it): how generated code names a host
    op of a CPU-hoisted function (`ttir_cpu.div`)."""
    from ttmlir.ir.op_table import TTIR_OPS

    names = [row.name for row in TTIR_OPS if row.ttnn == ttnn_name]
    return ttnn_name if ttnn_name in names else next(iter(names), None)


def memory_config(buffer: str, memory_layout: str | None) -> Ctor | None:
    if buffer == "system_memory":
        return None
    return Ctor("MemoryConfig", (Enum("TensorMemoryLayout", MEMORY_LAYOUTS[memory_layout or "interleaved"]),
                                 Enum("BufferType", BUFFER_TYPES[buffer]), None))


def _layout_of(op: Operation) -> ttnn.TTNNLayoutAttr | None:
    for result in op.results:
        if isinstance(result.type, TensorType) and isinstance(result.type.encoding, ttnn.TTNNLayoutAttr):
            return result.type.encoding
    return None


def derived(op: Operation, keyword: str):
    """A `dtype`/`layout`/`memory_config` argument read from the result's layout (None without one)."""
    layout = _layout_of(op)
    if layout is None:
        return None
    if keyword == "dtype":
        return Enum("DataType", DATA_TYPES[layout.data_type])
    if keyword == "layout":
        return Enum("Layout", "TILE" if layout.is_tiled else "ROW_MAJOR")
    memory_layout = None if isinstance(layout.memory_layout, NoneAttr) else layout.memory_layout.data.value
    return memory_config(layout.buffer_type, memory_layout)


def value_of(op: Operation, kind: str, attr: Attribute):
    """A property's neutral value."""
    if kind == "bool":
        return bool(scalar(attr))
    if kind in INT_KINDS:
        return int(scalar(attr))
    if kind in ("f32", "number", "f32_or_i32"):
        return TypedFloat(attr.value.data, attr.type) if isinstance(attr, FloatAttr) else scalar(attr)
    if kind == "str":
        return str(scalar(attr))
    if kind in LIST_KINDS or kind.endswith("_or_darray"):
        values = int_values(attr) if kind != "pairs" else [int(v) for v in dense_values(attr)]
        return values[0] if kind.endswith("_or_darray") and len(values) == 1 and not hasattr(attr, "get_values") \
            else values
    if kind in ENUM_KINDS:
        type_name, members = ENUM_KINDS[kind]
        value = attr.data.value
        return Enum(type_name, members[value] if members else value.upper())
    if kind == "memory_config":
        config = attr.data
        return memory_config(config.buffer_type.data.value,
                             config.memory_layout.data.value if config.memory_layout is not None else None)
    if kind == "shape":
        return Ctor("Shape", (list(attr.data),))
    if kind in ("mesh_shape", "mesh_offset"):
        return Ctor("MeshShape" if kind == "mesh_shape" else "MeshCoordinate", tuple(attr.data))
    if kind in ("mesh_mapper_config", "mesh_composer_config"):
        override = attr.mesh_shape_override
        shape = Ctor("MeshShape", (list(override),)) if override is not None else None
        if kind == "mesh_composer_config":
            return Ctor("MeshComposerConfig", (list(attr.dims), shape))
        placements = [Ctor("PlacementShard", (dim,)) if what == "shard" else Ctor("PlacementReplicate")
                      for what, dim in attr.placements]
        return Ctor("MeshMapperConfig", (placements, shape))
    if kind in STRUCT_KINDS:
        type_name = STRUCT_KINDS[kind] or struct_type_name(attr.name)
        return Ctor(type_name, (), tuple((key, Enum(FIELD_ENUMS[key][0], FIELD_ENUMS[key][1][v]) if key in FIELD_ENUMS
                                          else _struct_field(v)) for key, v in attr.data))
    if kind == "elements":
        return [float(v) if isinstance(v, float) else int(v) for v in dense_values(attr)]
    if kind == "symbol":
        return attr.root_reference.data
    if kind == "core_range_set":
        return Ctor("CoreRangeSet", ([Ctor("CoreRange", (Ctor("CoreCoord", start), Ctor("CoreCoord", end)))
                                      for start, end in (r.data for r in attr.data)],))
    raise PassFailure(op, f"'{op.name}': a '{kind}' property has no spelling in the ttnn API here")


def struct_type_name(attr_name: str) -> str:
    if attr_name == SDPA_PROGRAM_CONFIG:
        return "SDPAProgramConfig"  # tt-metal's acronym
    return "".join(part.capitalize() for part in attr_name.removeprefix("ttnn.").split("_"))


def _struct_field(value):
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, ttnn.CoreCoordAttr):
        return Ctor("CoreCoord", tuple(value.data))
    if isinstance(value, tuple):
        return [_struct_field(v) for v in value]
    return str(value)


def parameters(row) -> list[tuple[str, str | None]]:
    """The op's arguments in call order: (name, property kind), the kind None for an operand (`*` ending the
    name of a variadic one); operands are passed positionally, properties by keyword."""
    operands = [(name.rstrip("?"), None) for name in row.operands]
    if row.name in LAYOUT_OP_KEYWORDS:
        return operands + [(k, "derived") for k in LAYOUT_OP_KEYWORDS[row.name]]
    params = operands + [(name, kind) for name, kind, _default, _required in row.props]
    params += [(k, "derived") for k in RESULT_KEYWORDS.get(row.name, ())]
    if row.name in ORDER:
        by_name = {n.rstrip("*"): (n, k) for n, k in params}
        params = [by_name[n] for n in ORDER[row.name]]
    elif row.family == "prepare_conv2d":  # the device after the conv's groups, as ttnn takes it
        device = params.pop(1)
        params.insert(next(i for i, (n, _) in enumerate(params) if n == "groups") + 1, device)
    return params


def call_of(op: ttnn.TTNNOp) -> Call:
    """How `op` is called: its callee, positional operands and keyword properties."""
    row = op.ROW
    if row.family == "generic":
        raise PassFailure(op, f"'{op.name}' runs the compiler's own kernels; it has no ttnn library call")
    if row.name in CONSTRUCTORS:
        return _constructed(op)
    args: list[tuple[str | None, object]] = []
    renamed = RENAMED.get(row.name, {})
    operands = _operands_by_name(op)
    defaults = {name: default for name, _kind, default, _required in row.props if default is not None}
    for name, kind in parameters(row):
        if kind is None:
            values = operands.get(name.rstrip("*"))
            keyword = name if name in renamed else None
            if name.endswith("*"):
                args.append((keyword, [Operand(i) for i in values or []]))
            elif not values and ALTERNATIVES.get(row.name, (None,))[0] == name:
                prop = ALTERNATIVES[row.name][1]
                kind_of = {p: k for p, k, _d, _r in row.props}[prop]
                args.append((keyword, value_of(op, kind_of, op.properties[prop])))
            else:
                args.append((keyword, Operand(values[0]) if values else None))
        elif kind == "derived":
            args.append((name, derived(op, name)))
        elif name == "dtype" and row.name in OPERAND_DTYPE:
            args.append((name, None))
        elif (attr := op.properties.get(name)) is not None or name in defaults:
            from ttmlir.ir.props import KINDS
            value = value_of(op, kind, attr if attr is not None else KINDS[kind].build(defaults[name]))
            if name in BOOL_ENUMS:
                type_name, yes, no = BOOL_ENUMS[name]
                value = Enum(type_name, yes if value else no)
            args.append((name, [value] if LISTED.get(row.name) == name else value))
        else:
            args.append((name, derived(op, name) if name in DERIVED else None))
    return Call(row.name, callee_of(row.name), tuple((renamed.get(k, k) if k else k, v) for k, v in args))


def _constructed(op: ttnn.TTNNOp) -> Call:
    """A constant as `ttnn.Tensor` takes it: values, shape, dtype, layout positionally, then the device and its
    memory config when the constant is placed on one."""
    result = op.results[0].type
    args = [(None, value_of(op, "elements", op.properties["value"])), (None, list(result.get_shape())),
            (None, derived(op, "dtype")), (None, derived(op, "layout"))]
    if op.operands:
        args += [(None, Operand(0)), ("memory_config", derived(op, "memory_config"))]
    return Call(op.ROW.name, CONSTRUCTORS[op.ROW.name], tuple(args))


def _operands_by_name(op: ttnn.TTNNOp) -> dict[str, list[int]]:
    """Operand indices by the row's operand name (a variadic or optional one by its segment)."""
    index = {value: i for i, value in enumerate(op.operands)}
    return {name: [index[v] for v in values] for name, values in op.operand_groups().items()}


# --- spelling -----------------------------------------------------------------------------------------------


def python_value(value, operand) -> str:
    """A neutral value as Python source; `operand(i)` names operand i."""
    if isinstance(value, Operand):
        return operand(value.index)
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(python_value(v, operand) for v in value) + "]"
    if isinstance(value, Enum):
        return f"ttnn.{value.type}.{value.member}"
    parts = [python_value(v, operand) for v in value.args]
    parts += [f"{k}={python_value(v, operand)}" for k, v in value.kwargs]
    return f"ttnn.{value.type}({', '.join(parts)})"


def _float(value: float) -> str:
    if math.isnan(value):
        return "float('nan')"
    if math.isinf(value):
        return "float('inf')" if value > 0 else "float('-inf')"
    if isinstance(value, TypedFloat):
        from ttmlir.asm import apfloat_string
        return apfloat_string(value, value.type)
    return repr(value)


def cpp_value(value, operand) -> str:
    """A neutral value as C++ source against the TTNN C++ API."""
    if isinstance(value, Operand):
        return operand(value.index)
    if value is None:
        return "::std::nullopt"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "::std::numeric_limits<float>::quiet_NaN()"
        if math.isinf(value):
            return ("" if value > 0 else "-") + "::std::numeric_limits<float>::infinity()"
        return f"{value!r}f"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        element = "::ttnn::Tensor" if value and isinstance(value[0], Operand) else \
            f"::ttnn::{value[0].type}" if value and isinstance(value[0], Ctor) else \
            "float" if any(isinstance(v, float) for v in value) else "int64_t"
        return f"::std::vector<{element}>{{" + ", ".join(cpp_value(v, operand) for v in value) + "}"
    if isinstance(value, Enum):
        return f"{CPP_NAMESPACES.get(value.type, '::ttnn')}::{value.type}::{value.member}"
    parts = [cpp_value(v, operand) for v in value.args]
    parts += [f".{k} = {cpp_value(v, operand)}" for k, v in value.kwargs]
    return f"{CPP_NAMESPACES.get(value.type, '::ttnn')}::{value.type}{{{', '.join(parts)}}}"


def host_type(t: Attribute, at: Operation, spellings: dict[type, Attribute], language: str) -> Attribute:
    """The generated code's type for a TTNN-level type: `spellings` by type class (TensorType, TupleType for a tuple
    of tensors, ...); integers and indices stay as they are."""
    if isinstance(t, TupleType) and not all(isinstance(m, TensorType) for m in t.types.data):
        raise PassFailure(at, f"a tuple of {t} has no {language} type here: only tuples of tensors are")
    if isinstance(t, (IntegerType, IndexType)):
        return t
    spelling = next((s for cls, s in spellings.items() if isinstance(t, cls)), None)
    if spelling is None:
        raise PassFailure(at, f"type {t} has no {language} spelling in generated TTNN code")
    return spelling


def convert_function(func: FuncOp, convert_type: Callable[[Attribute, Operation], Attribute],
                     convert_op: Callable[[Operation], tuple[list[Operation], list[SSAValue]] | None]) -> None:
    """A TTNN function rewritten in place for a code target (EmitC, EmitPy): its arguments and results take the
    target's types, and each op the target converts is replaced by the ops it becomes."""
    block = func.body.block
    for i, arg in enumerate(list(block.args)):
        new = block.insert_arg(convert_type(arg.type, func), i)
        arg.replace_all_uses_with(new)
        block.erase_arg(arg)
    func.function_type = FunctionType.from_lists([a.type for a in block.args],
                                                 [convert_type(t, func) for t in func.function_type.outputs.data])
    names = [d.data.get("emitpy.name") for d in func.arg_attrs.data] if func.arg_attrs is not None else []
    func.arg_attrs = ArrayAttr([DictionaryAttr({"emitpy.name": n} if n is not None else {}) for n in names]) \
        if any(n is not None for n in names) else None  # the Python names given; nothing else survives
    func.res_attrs = None
    for op in list(block.ops):
        replaced = convert_op(op)
        if replaced is None:
            continue
        new_ops, results = replaced
        for new in new_ops:
            block.insert_op_before(new, op)
        for old, value in zip(op.results, results):
            old.replace_all_uses_with(value)
        block.erase_op(op)
