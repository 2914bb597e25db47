"""The TTNN dialect: the op-by-op library calls a runtime executes, with their tensor layouts."""

from __future__ import annotations

import math
from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, BFloat16Type, IntegerType, NoneAttr, TensorType
from xdsl.ir import Attribute, Dialect

from ttmlir.dialects import ttcore
from ttmlir.dialects import attention, conv, debug, moe, trace, ttml, ttnn_program
from ttmlir.dialects import moe_fused
from ttmlir.dialects.ttnn_nd_layout import ND_LAYOUT_ATTRS, NDShardSpecAttr, TTNNNDLayoutAttr  # noqa: F401
from ttmlir.dialects.ttnn_mesh_attrs import (MESH_ATTRS, MeshComposerConfigAttr, MeshMapperConfigAttr,
                                             aggregate_tensor_rule, distribute_tensor_rule)
from ttmlir.dialects.ttnn_d2m_subgraph import D2MSubgraphOp
from ttmlir.ir.op_table import ADAMW_OPERANDS, ADAMW_PROPS, ATTENTION, GATHER_PROPS, SDPA_BW, SDPA_FW, TTIR_OPS, op
from ttmlir.ir.props import KINDS, Kind, scalar
from ttmlir.ir.syntax import enum
from ttmlir.dialects.canonical_patterns import patterns_for
from ttmlir.ir.tt_op import TTOp, WholeMessageError, build_op_class
from ttmlir.dialects.ttir import SHAPE_RULES
from ttmlir.dialects.ttir_shapes import (check_repeat, commas, first_shape, matmul, matmul_product_shape,
                                         paged_fill_cache, reduction, result_shape, same_shape, shape_of)
from ttmlir.dialects.ttir_shapes_nn import collective_dim, paged_update_cache, reduce_type_in, same_rank

from ttmlir.dialects.ttnn_attrs import *  # noqa: F401,F403 - the dialect's attributes are ttnn.<Name> too


def check_layout(op: TTOp, what: str, tensor: TensorType) -> None:
    encoding = tensor.encoding
    if not isinstance(encoding, (NoneAttr, TTNNLayoutAttr, TTNNNDLayoutAttr, trace.TraceIdAttr)):
        raise op.error(f"{what} encoding must be a #ttnn.ttnn_layout, got {encoding}")


def check_tile_element(op: TTOp, tensor: Attribute) -> None:
    """A tile element type names a block-float data type, which has no scalar type: it must be the tile of the
    layout's memref (upstream's CheckTileTypeTrait)."""
    if not isinstance(tensor, TensorType) or not isinstance(tensor.element_type, ttcore.TileType):
        return
    encoding = tensor.encoding
    memref_element = encoding.memref.element_type if isinstance(encoding, TTNNLayoutAttr) else None
    scalar = element_type_for(memref_element.dtype) if isinstance(memref_element, ttcore.TileType) else memref_element
    if tensor.element_type == scalar:
        return
    raise op.error(f"Output element type must match the scalar element type from encoding. Element type: "
                   f"'{tensor.element_type}', Scalar element type: '{scalar}'.")


class TTNNOp(TTOp):
    """Base of table-built TTNN ops: operands may also be the device; layouts are checked."""

    OPERAND_TYPE_CHECK: ClassVar[tuple[tuple[type, ...], str]] = (
        (TensorType, DeviceType, trace.GlobalSemaphoreType), "ranked tensor, !ttnn.device or !ttnn.global_semaphore values")
    ANY_TYPE_OPERANDS: ClassVar[frozenset[str]] = frozenset({"additional_args"})  # a generic's scalars, semaphores

    def tt_verify(self) -> None:
        for result in self.results:
            check_tile_element(self, result.type)
        super().tt_verify()
        for i, value in enumerate(self.operands):
            if isinstance(value.type, TensorType):
                check_layout(self, f"operand #{i}", value.type)
        for i, result in enumerate(self.results):
            if isinstance(result.type, TensorType):
                check_layout(self, f"result #{i}", result.type)


def _attr_kind(cls) -> Kind:
    return Kind(lambda a: isinstance(a, cls), f"{cls.name} attribute", lambda v: v)


KINDS.update({
    "dtype": Kind(lambda a: isinstance(a, ttcore.DataTypeAttr), "TTCore DataType attribute",
                  lambda v: enum(ttcore.DataTypeAttr, v)),
    "memory_config": _attr_kind(MemoryConfigAttr),
    "layout": Kind(lambda a: isinstance(a, LayoutAttr), "TTNN Layout attribute", lambda v: enum(LayoutAttr, v)),
    "shape": Kind(lambda a: isinstance(a, ShapeAttr), "TTNN Shape attribute", lambda v: ShapeAttr(tuple(v))),
    "mesh_shape": _attr_kind(MeshShapeAttr),
    "mesh_offset": _attr_kind(MeshOffsetAttr),
    "mesh_mapper_config": _attr_kind(MeshMapperConfigAttr),
    "mesh_composer_config": _attr_kind(MeshComposerConfigAttr),
    "compute_config": _attr_kind(DeviceComputeKernelConfigAttr),
    "conv2d_config": _attr_kind(Conv2dConfigAttr),
    "conv3d_config": _attr_kind(Conv3dConfigAttr),
    "conv2d_slice_config": _attr_kind(Conv2dSliceConfigAttr),
    "sdpa_program_config": _attr_kind(SDPAProgramConfigAttr),
    "core_range_set": _attr_kind(CoreRangeSetAttr),
    "matmul_program_config": Kind(lambda a: isinstance(a, MATMUL_PROGRAM_CONFIGS), "TTNN matmul program config",
                                  lambda v: v),
})

KINDS["program"] = _attr_kind(ttnn_program.ProgramAttr)

OUT = " dtype:dtype? memory_config:memory_config?"
COMPUTE_CONFIG = " compute_config:compute_config?"
CONV_CONFIGS = " conv2d_config:conv2d_config?" + COMPUTE_CONFIG + " conv2d_slice_config:conv2d_slice_config?"
SDPA_PROGRAM = " program_config:sdpa_program_config?"  # chunking and cores: how, never what, it computes
# the configurations TTNN ops (by name, else by family) take beyond their TTIR row's properties
# how a CCL exchange runs (sub-device, links, topology): never what it computes
CCL = " sub_device_id:ui32? num_links:ui32? topology:topology?"
CONFIGS = {"matmul": " matmul_program_config:matmul_program_config?" + COMPUTE_CONFIG + " activation:str?",
           "reduction": COMPUTE_CONFIG, "softmax": COMPUTE_CONFIG, "reduce_scatter": CCL + COMPUTE_CONFIG,
           **dict.fromkeys(("all_gather", "all_reduce", "all_reduce_async"), CCL),
           "sparse_matmul": " program_config:matmul_program_config?" + COMPUTE_CONFIG,
           "tt_lang_op": " kernel_artifact:str?"}  # the compiled kernel, once tt-lang's resolver has run
CREATION = " dtype:dtype? layout:layout? memory_config:memory_config?"
POOL = ("batch_size:si32 input_height:si32 input_width:si32 channels:si32 kernel_size:i32_darray "
        "stride:i32_darray padding:i32_darray dilation:i32_darray ceil_mode:bool=false")
CONV = ("in_channels:i32 out_channels:i32 batch_size:i32 input_height:i32 input_width:i32 "
        "kernel_size:i32_darray stride:i32_darray padding:i32_darray dilation:i32_darray groups:i32")
# prepare_conv2d_weights / prepare_conv2d_bias: the conv2d they prepare for (upstream's argument order)
PREPARE_CONV2D = ("input_memory_config:memory_config input_tensor_layout:layout{weights} in_channels:i32 "
                  "out_channels:i32 batch_size:i32 input_height:i32 input_width:i32 kernel_size:i32_darray "
                  "stride:i32_darray padding:i32_darray dilation:i32_darray{bias} groups:i32 input_dtype:dtype "
                  "output_dtype:dtype?" + CONV_CONFIGS)

BATCH_NORM_OPERANDS = "input running_mean? running_var? weight? bias?"
# TTNN ops whose signature differs from their TTIR row, and the TTNN-only ops.
QUANTIZATION = " axis:i32? output_dtype:dtype? memory_config:memory_config?"
TTNN_ONLY = (
    op("quantize", "quantization", "input scale zero_point", props=QUANTIZATION,
       summary="Quantize a float tensor: round(input / scale) + zero_point, per tensor or along `axis`."),
    op("dequantize", "quantization", "input scale zero_point", props=QUANTIZATION,
       summary="Dequantize a quantized tensor: (input - zero_point) * scale."),
    op("requantize", "quantization", "input in_scale in_zero_point out_scale out_zero_point", props=QUANTIZATION,
       summary="Requantize to another scale and zero point."),
    op("get_device", "device", "", props="mesh_shape:mesh_shape? mesh_offset:mesh_offset?",
       summary="Get the device the program runs on."),
    op("generic", "generic", "inputs_and_outputs* additional_args*", props="program:program", results="",
       summary="Run a program of the compiler's own kernels on the op's tensors (written in place)."),
    # the layout ops carry no attributes: what they make is the result's #ttnn.ttnn_layout, as upstream's
    op("to_tensor_spec", "layout_op", summary="Make a tensor what its result's layout says: page layout, data "
       "type, memory and device at once (broken down by --ttnn-decompose-layouts)."),
    op("to_layout", "layout_op", summary="Tilize or untilize a tensor, optionally changing its data type."),
    op("to_device", "layout_op", "input device", summary="Move a host tensor to the device."),
    op("from_device", "layout_op", summary="Move a device tensor to the host."),
    op("to_memory_config", "layout_op", summary="Move a device tensor to another memory configuration."),
    op("typecast", "layout_op", summary="Convert a tensor's data type (the result's layout says which)."),
    op("deallocate", "deallocate", props="force:bool=false", results="",
       summary="Free a device tensor's buffer."),
    op("dump_tensor", "debug_effect", props="file_path:str", results="",
       summary="Save a tensor to disk in the TTNN binary format (a `.tensorbin` file)."),
    op("load_tensor", "load", "device?", props="file_path:str",
       summary="Read a tensor dump_tensor saved (onto the device when one is given)."),
    op("empty", "creation", "device", props="shape:shape dtype:dtype? layout:layout? memory_config:memory_config?",
       summary="Allocate an uninitialised device tensor."),
    op("full", "full", "device?", props="shape:shape fill_value:number" + CREATION,
       summary="Create a tensor filled with a value."),
    op("zeros", "fill", "device?", props="shape:shape" + CREATION, summary="Create a tensor of zeros."),
    op("ones", "fill", "device?", props="shape:shape" + CREATION, summary="Create a tensor of ones."),
    op("arange", "arange", "device?", props="start:si64 end:si64 step:si64" + CREATION,
       summary="Create a 1D range of values."),
    op("rand", "rand", "device", props="size:shape low:f32=0.0 high:f32=1.0 seed:ui32=0" + CREATION,
       summary="Create a tensor of uniform random values."),
    op("constant", "constant", "device?", props="value:elements" + CREATION, summary="A constant tensor."),
    op("repeat", "repeat", props="repeat_dims:shape" + OUT, summary="Tile a tensor along each dimension."),
    op("permute", "permute", props="permutation:i64_darray pad_value:f32=0.0 memory_config:memory_config?",
       summary="Permute a tensor's dimensions."),
    op("conv2d", "conv", "input weight bias? device", props=CONV + " dtype:dtype?" + CONV_CONFIGS,
       summary="2D convolution over a flattened NHWC input."),
    # tt-metal's conv1d, a conv2d over a height of one: NLC input, (O, C/G, K) weight, conv2d's (1, 1, 1, O) bias
    # and its flattened (1, 1, N * L_out, O) result
    op("conv1d", "conv1d", "input weight bias? device",
       props="in_channels:i32 out_channels:i32 batch_size:i32 input_length:i32 kernel_size:i32 stride:i32 "
       "padding:i32_darray dilation:i32 groups:i32 dtype:dtype?" + CONV_CONFIGS,
       summary="1D convolution of an (N, L, C) input."),
    op("conv_transpose2d", "conv", "input weight bias? device",
       props=CONV + " output_padding:i32_darray dtype:dtype?" + CONV_CONFIGS, summary="2D transposed convolution."),
    op("conv3d", "conv3d", "input weight bias? device", props="in_channels:i32 out_channels:i32 batch_size:i32 "
       "input_depth:i32 input_height:i32 input_width:i32 kernel_size:i32_darray stride:i32_darray padding:i32_darray "
       "padding_mode:str=zeros groups:i32 conv3d_config:conv3d_config?" + COMPUTE_CONFIG,
       summary="3D convolution of an NDHWC volume; the weight raw (O, C/G, kD, kH, kW) or prepared (2D)."),
    op("prepare_conv3d_weights", "prepare_conv3d_weights", "weight_tensor device",
       props="groups:i32 c_in_block:i32 alignment:i32",
       summary="Flatten a conv3d weight to (blocks*kD*kH*kW*c_in_block, O), input channels padded to the alignment."),
    op("prepare_conv2d_weights", "prepare_conv2d", "weight_tensor device", props=PREPARE_CONV2D.format(
        weights=" weights_format:str", bias=" has_bias:bool"),
       summary="Lay a conv2d's OIHW weight out as conv2d consumes it: (1, 1, kH*kW*C_in, O), groups block-diagonal."),
    op("prepare_conv2d_bias", "prepare_conv2d", "bias_tensor device", props=PREPARE_CONV2D.format(weights="", bias=""),
       summary="Lay a conv2d's (1, 1, 1, O) bias out as conv2d consumes it, in the weights' data type."),
    op("max_pool2d", "pool", props=POOL + OUT, summary="2D max pooling over a flattened NHWC input."),
    op("max_pool2d_with_indices", "pool", props=POOL + OUT, results="result result_indices",
       summary="2D max pooling over a flattened NHWC input, with each maximum's index in its input plane."),
    op("avg_pool2d", "pool", props=POOL + " count_include_pad:bool=true" + OUT,
       summary="2D average pooling over a flattened NHWC input."),
    op("cumsum", "cumsum", props="dim:si32" + OUT, summary="Cumulative sum along one dimension."),
    op("scatter", "scatter", "input index source", props="dim:si32 scatter_reduce_type:reduce_type"
       " memory_config:memory_config?", summary="Write (or reduce) source values into a tensor at indexed places."),
    op("cumprod", "cumsum", props="dim:si32" + OUT, summary="Cumulative product along one dimension."),
    op("gather", "gather", "input start_indices", props="dim:si32? " + GATHER_PROPS + " memory_config:memory_config?",
       summary="Gather values along one dimension by an index tensor (or in StableHLO's general form)."),
    # argmax and prod reduce one dimension (or all), as tt-metal's kernels do
    op("argmax", "reduction", props="dim:si32? keep_dim:bool=false" + OUT, summary="Indices of the maxima along one "
       "dimension (or of the whole tensor)."),
    op("prod", "reduction", props="dim_arg:si64? keep_dim:bool" + OUT, summary="Product along one dimension (or of "
       "the whole tensor)."),
    op("sort", "sort", props="dim:si8=-1 descending:bool=false stable:bool=false memory_config:memory_config?",
       results="values indices", summary="Sort along one dimension, with the sorted elements' original indices."),
    op("topk", "topk", "input_tensor", props="k:i32 dim:si32=-1 largest:bool=true sorted:bool=false "
       "memory_config:memory_config?", results="values indices",
       summary="The k largest (or smallest) elements along one dimension, with their indices."),
    op("pow_scalar", "unary", props="rhs:f32_or_i32" + OUT,
       summary="Raise a tensor to a constant non-negative power."),
    # TTNN's norms run over the last dimension only (the conversion flattens a longer normalized_shape into it)
    op("layer_norm", "norm", "input weight? bias?", props="epsilon:f32=1e-12" + COMPUTE_CONFIG,
       summary="Layer norm over the last dimension."),
    op("rms_norm", "norm", "input weight? bias?", props="epsilon:f32=1e-12" + COMPUTE_CONFIG,
       summary="RMS norm over the last dimension."),
    op("dit_rms_norm_unary_fused", "norm", "input weight? bias? residual_input?",
       props="epsilon:f32=1e-05 activation:str? memory_config:memory_config?" + COMPUTE_CONFIG,
       summary="RMS norm over the last dimension of input (+ residual_input), then a unary activation, in one kernel."),
    # a norm over a row split across chips: each chip's partial sums (pre), all-gathered, then the norm (post)
    op("rms_norm_pre_all_gather", "norm_stats", "input residual?", props="use_2d_core_grid:bool?" + COMPUTE_CONFIG,
       summary="Per row of input (+ residual): its sum of squares, in column 0 of a tile-wide result."),
    op("layer_norm_pre_all_gather", "norm_stats", "input residual_input? recip?", props=COMPUTE_CONFIG.strip(),
       summary="Per row of input (+ residual): its sum (column 0) and sum of squares (column 32) in a result two "
       "tiles wide; recip, a table of reciprocals the device's Welford kernel reads, changes no value."),
    op("layer_norm_post_all_gather", "norm_post", "input stats weight? bias?", props="epsilon:f32=1e-12" + COMPUTE_CONFIG,
       summary="Layer norm of the local part of a row from the gathered partial sums of every chip."),
    # a norm over rows split across the chips of a cluster axis, only the statistics exchanged: rms_norm fused
    # (tt-metal's kernel takes stats, a scratch tile, and semaphore, allocated by --ttnn-allocate-distributed-op-*)
    # or decomposed by --ttnn-decomposition; layer_norm always decomposed (pre/post all-gather)
    op("distributed_rms_norm", "distributed_norm", "input weight? residual? stats? semaphore? device",
       props="cluster_axis:ui32 epsilon:f32=1e-12" + CCL + " memory_config:memory_config?" + COMPUTE_CONFIG,
       summary="RMS norm of rows split across the chips of cluster_axis: x / sqrt(mean(x^2) + eps) * weight."),
    op("distributed_layer_norm", "distributed_norm", "input weight? bias? residual? device",
       props="cluster_axis:ui32 epsilon:f32=1e-05",
       summary="Layer norm of rows split across the chips of cluster_axis."),
    # attention helpers of tt-metal's transformer library
    op("nlp_concat_heads", "nlp_concat_heads", props="memory_config:memory_config?",
       summary="[B, heads, S, head_dim] heads joined into [B, 1, S, heads * head_dim]."),
    op("nlp_concat_heads_decode", "nlp_concat_heads_decode", props="num_heads:ui32",
       summary="[S, B, padded heads, head_dim] (decode) heads joined into [S, 1, B, num_heads * head_dim]."),
    op("nlp_create_qkv_heads_decode", "nlp_create_qkv_heads_decode", "input batch_offset?",
       props="num_heads:ui32 num_kv_heads:ui32? overlap_qk_coregrid:bool? slice_size:ui32?",
       results="query key value", summary="A fused [1, 1, B, head_dim * (heads + 2 * kv_heads)] QKV split into "
       "[1, B, heads, head_dim] Q and [1, B, kv_heads, head_dim] K and V (decode)."),
    op("rotary_embedding", "rotary_embedding", "input cos_cache sin_cache", props="token_index:ui32?" + COMPUTE_CONFIG,
       summary="x * cos + rotate_half(x) * sin, at one position (token_index) or every one."),
    op("rotary_embedding_llama", "rotary_embedding", "input cos_cache sin_cache trans_mat",
       props="is_decode_mode:bool=false" + COMPUTE_CONFIG,
       summary="x * cos + (x @ trans_mat) * sin, the transformation applied to each tile-wide block of head_dim."),
    # the attention ops without TTIR's output operands; the decode ones also take a sliding window
    op("scaled_dot_product_attention", "attention", "query key value attention_mask? attention_sink?",
       props=ATTENTION + " sliding_window_size:ui32?", summary="FlashAttention-2 attention (prefill)."),
    op("scaled_dot_product_attention_decode", "attention",
       "query key value attention_mask? cur_pos_tensor? attention_sink?",
       props=ATTENTION + " sliding_window_size:ui32?" + SDPA_PROGRAM,
       summary="Flash-decode attention of one query token per user, [1, B, Hq, D]."),
    op("paged_scaled_dot_product_attention_decode", "attention",
       "query key value page_table attention_mask? cur_pos_tensor? attention_sink?",
       props=ATTENTION + " sliding_window_size:ui32?" + SDPA_PROGRAM,
       summary="Decode attention over a paged key/value cache."),
    op("chunked_scaled_dot_product_attention", "attention", "query key value page_table chunk_start_idx",
       props="scale:f32?" + SDPA_PROGRAM,
       summary="A prefill chunk attending causally over a paged cache from chunk_start_idx."),
    op("paged_flash_multi_latent_attention_decode", "attention",
       "query key value? page_table attention_mask? cur_pos_tensor? attention_sink?",
       props="head_dim_v:ui32 " + ATTENTION, summary="Multi-latent decode attention over a paged latent cache."),
    op("flash_mla_prefill", "attention", "query key value? attention_mask?", props="head_dim_v:ui32 " + ATTENTION,
       summary="Multi-latent prefill attention; without value, V is the first head_dim_v features of K."),
    op("indexer_score_dsa", "indexer_score", "query key weights", props="chunk_start_idx:ui32=0 cluster_axis:ui32?",
       summary="DeepSeek sparse attention's indexer: sum over heads of relu(q · k) * weight, causal from "
       "chunk_start_idx."),
    # the TTIR op's with a [D, E] mapping and the persistent buffers and semaphore tt-metal may be given
    op("all_to_all_dispatch_metadata", "all_to_all_dispatch_metadata",
       "input_tensor expert_indices expert_scores expert_mapping dispatched_buffer? indices_buffer? scores_buffer? "
       "cross_device_semaphore?", props="num_devices:i64 cluster_axis:i64", results="dispatched indices scores",
       summary="Dispatch tokens and their expert scores to the chips of their experts along cluster_axis."),
    op("assign", "assign", summary="A copy of a tensor (point-to-point exchanges write into one)."),
    op("point_to_point", "point_to_point", "input optional_output_tensor?",
       props="sender_coord:i64_darray receiver_coord:i64_darray",
       summary="The chip at receiver_coord gets the sender chip's input (written into optional_output_tensor, "
       "whose values the other chips keep)."),
    # TTNN's batch norm: over dimension 1 of NCHW, its statistics and affine parameters [1, C, 1, 1] (TTIR's
    # decomposition makes them so), in tt-metal's argument order; training also gives the batch statistics
    op("batch_norm_inference", "batch_norm", BATCH_NORM_OPERANDS,
       props="epsilon:f32=1e-05 memory_config:memory_config?" + COMPUTE_CONFIG,
       summary="Normalize each channel by its running mean and variance, then scale and shift."),
    op("batch_norm_training", "batch_norm", BATCH_NORM_OPERANDS,
       props="epsilon:f32=1e-05 momentum:f32=0.1 memory_config:memory_config?" + COMPUTE_CONFIG,
       results="result batch_mean batch_variance",
       summary="Normalize each channel by the batch's mean and variance, then scale and shift."),
    # TTIR's mesh_shard on the host: a full tensor spread over the mesh, or the chips' pieces put back together
    op("distribute_tensor", "distribute_tensor", "input device", props="mapper_config:mesh_mapper_config cq_id:ui32?",
       summary="Distribute tensor across mesh devices"),
    op("aggregate_tensor", "aggregate_tensor", "input device", props="composer_config:mesh_composer_config",
       summary="Aggregate distributed tensor back to host"),
    # TTIR's transpose lowers to permute; this one is what TTNN rewrites (decompositions) build, a permute to the device
    op("transpose", "transpose", props="dim0:si32 dim1:si32 memory_config:memory_config?",
       summary="Swap two dimensions."),
    # ttml's training ops: adamw writes param and the moments in place (no results); no memory config
    op("adamw", "optimizer_in_place", ADAMW_OPERANDS, props=ADAMW_PROPS, results="",
       summary="AdamW optimizer step (ttml)."),
    op("sdpa_fw", "ttml_attention", SDPA_FW["operands"], props=SDPA_FW["props"], results=SDPA_FW["results"],
       summary="Scaled dot-product attention forward (ttml)."),
    op("sdpa_bw", "ttml_attention", SDPA_BW["operands"], props=SDPA_BW["props"], results=SDPA_BW["results"],
       summary="Scaled dot-product attention backward (ttml)."),
    *trace.ROWS,
    *moe_fused.TTNN_ROWS,
)
TTNN_ONLY_NAMES = {row.name for row in TTNN_ONLY}


def generic_rule(op: TTOp):
    tensors = len(op.operand_groups()["inputs_and_outputs"])
    if not tensors:  # upstream's emitError, not naming the op
        raise WholeMessageError("GenericOp must have at least one operand")
    problem = ttnn_program.verify_program(op.properties["program"], tensors)
    if problem:
        raise op.error(problem)


def repeat_rule(op: TTOp):
    check_repeat(op, op.prop("repeat_dims").data)


def shape_attr_rule(op: TTOp):
    return [op.prop("shape").data]


TTNN_SHAPE_RULES = {**SHAPE_RULES, "device": None, "generic": generic_rule, "layout_op": same_shape, "deallocate": None, "debug_effect": None, "load": None,
                    "creation": shape_attr_rule, "fill": shape_attr_rule, "full": shape_attr_rule,
                    "repeat": repeat_rule, "distribute_tensor": distribute_tensor_rule,
                    "aggregate_tensor": aggregate_tensor_rule, "conv": None, "trace": None, "semaphore": None, "pool": None, "arange": None, "rand": None,
                    **dict.fromkeys(("nlp_concat_heads", "nlp_concat_heads_decode", "nlp_create_qkv_heads_decode",
                                     "rotary_embedding", "norm_stats", "norm_post", "indexer_score", "assign", "point_to_point",
                                     "prepare_conv3d_weights", "prepare_conv2d", "optimizer_in_place",
                                     "prepare_moe_compute"))}  # verified by their own rules below


TTIR_ONLY_PROPS = {"group_norm": ("channel_dim",)}  # the conversion to TTNN puts channels last


def _ttnn_rows():
    """TTIR rows carried over under their TTNN names, with TTNN's output dtype/memory config."""
    seen = set(TTNN_ONLY_NAMES)
    for row in TTIR_OPS:
        if row.ttnn is None or row.ttnn in seen or (row.ttnn != row.name and row.ttnn in {r.name for r in TTIR_OPS}):
            continue
        seen.add(row.ttnn)
        extra = OUT if row.family in ("unary", "binary", "ternary", "reduction") else " memory_config:memory_config?"
        props = " ".join(f"{n}:{k}" + (f"={d}" if d is not None else "" if req else "?")
                         for n, k, d, req in row.props if n not in TTIR_ONLY_PROPS.get(row.name, ()))
        yield op(row.ttnn, row.family, " ".join(row.operands), props + extra + CONFIGS.get(row.ttnn, CONFIGS.get(row.family, "")),
                 " ".join(row.results),
                 summary=f"TTNN {row.ttnn.replace('_', ' ')} operation.")


def clamp_scalar_rule(op: TTOp):
    if shape_of(op.operands[0]) != result_shape(op):
        raise op.error("input and output must have same shape.")


def all_gather_rule(op: TTOp):
    collective_dim(op, "all_gather_dim", "Invalid gather dimension for all reduce op", "gather")
    return same_rank(op)


def reduce_scatter_rule(op: TTOp):
    collective_dim(op, "scatter_dim", "Invalid scatter dimension for reduce scatter op", "scatter")
    reduce_type_in(op, ("sum",), "reduce scatter")  # TTNN lowers only sum
    return same_rank(op)


def all_reduce_rule(op: TTOp, what: str = "all reduce"):
    reduce_type_in(op, ("sum",), what)
    return same_rank(op)


def _layouts(op: TTOp, *which: str) -> list[TTNNLayoutAttr]:
    """The layouts of the input and/or result, in upstream's words when one is missing."""
    found = []
    for what in which:
        value = op.operands[0] if what == "Input" else op.results[0]
        if not isinstance(value.type.encoding, TTNNLayoutAttr):
            raise op.error(f"{what} tensor type missing layout attribute")
        found.append(value.type.encoding)
    return found


def to_tensor_spec_rule(op: TTOp):
    _layouts(op, "Output")
    return same_shape(op)


def to_layout_rule(op: TTOp):
    """ttnn.to_layout only tilizes/untilizes (and may cast): memory and placement are to_tensor_spec's."""
    source, target = _layouts(op, "Input", "Output")
    if source.buffer_type != target.buffer_type:
        raise op.error(f"ttnn.to_layout cannot change buffer type from '{source.buffer_type}' to "
                       f"'{target.buffer_type}'; use ttnn.to_tensor_spec for memory-config or device placement changes")
    if source.memory_layout != target.memory_layout:
        raise op.error("ttnn.to_layout cannot change tensor memory layout; use ttnn.to_tensor_spec for "
                       "memory-config changes")
    if source.grid != target.grid:
        raise op.error("ttnn.to_layout cannot change grid shape; usettnn.to_tensor_spec for memory-config changes")
    return same_shape(op)


def argmax_rule(op: TTOp):
    shape, dim, keep = shape_of(op.operands[0]), op.prop("dim"), scalar(op.prop("keep_dim"))
    rank = len(shape)
    if dim is not None and not -rank <= scalar(dim) < rank:
        raise op.error(f"dim attribute value {scalar(dim)} is out of range for input tensor of rank {rank}, expected "
                       f"value in range [{-rank}, {rank - 1}]")
    reduced = set(range(rank)) if dim is None else {scalar(dim) % rank}
    want = tuple(1 if i in reduced else d for i, d in enumerate(shape) if keep or i not in reduced)
    if result_shape(op) != want:
        raise op.error(f"expected output shape ({commas(want)}), got ({commas(result_shape(op))})")


def prod_rule(op: TTOp):
    if len(shape_of(op.operands[0])) > 4:
        raise op.error("Input tensor rank is greater than 4 for reduce(product).")
    return reduction(op)


def to_memory_config_rule(op: TTOp):
    # Which memory layouts a buffer type admits is the layout attribute's own check (layout_problem).
    _layouts(op, "Input", "Output")
    return same_shape(op)


def embedding_bw_rule(op: TTOp):
    """tt-metal's layout: (B, 1, 1, N) indices, a (1, 1, B * N, C) gradient, a (1, 1, V, C) result."""
    indices, weight, gradient = (tuple(v.type.get_shape()) for v in op.operands)
    if indices[-1] % TILE:
        raise op.error("Input's last dim must be divisible by TILE_WIDTH")
    if len(indices) != 4:
        raise op.error("Input index tensor must be a 4D tensor")
    if indices[1] != 1 or indices[2] != 1:
        raise op.error("Input index tensor dims 1 and 2 must be 1, got shape (B, ?, ?, N) where ? must be 1")
    if len(weight) != 2:
        raise op.error("Input must be a 2D tensor")
    if len(gradient) != 4:
        raise op.error("Input gradient must be a 4D tensor")
    if gradient[:2] != (1, 1):
        raise op.error("Input gradient must be in the form (1, 1, R, C)")
    if gradient[2] != indices[0] * indices[-1]:
        raise op.error("Input gradient dim 2 must equal index_shape[0] * index_shape[-1]")
    if gradient[3] != weight[1]:
        raise op.error("Input gradient second dimension must match the second dimension of the weight tensor")
    if op.operands[2].type.element_type != op.results[0].type.element_type:
        raise op.error("Input gradient and output must have the same dtype")
    want = (1, 1, *weight)
    if tuple(op.results[0].type.get_shape()) != want:
        raise op.error(f"expected output shape of ({commas(want)}) but got ({commas(op.results[0].type.get_shape())})")


def _rank4(op: TTOp, *named: tuple[str, tuple]) -> None:
    for what, shape in named:
        if len(shape) != 4:
            raise op.error(f"{what} tensor must be a 4D tensor")


def nlp_concat_heads_rule(op: TTOp):
    shape, out = first_shape(op), result_shape(op)
    _rank4(op, ("output", out), ("input", shape))
    want = (shape[0], 1, shape[2], shape[1] * shape[3])
    if out != want:
        raise op.error(f"expected output shape ({commas(want)}), got ({commas(out)})")


def nlp_concat_heads_decode_rule(op: TTOp):
    shape, out, heads = first_shape(op), result_shape(op), scalar(op.prop("num_heads"))
    _rank4(op, ("input", shape), ("output", out))
    if out[1] != 1:
        raise op.error(f"output dimension 1 must be 1, got {out[1]}")
    if shape[2] < heads:
        raise op.error(f"num_heads attribute must be less than or equal to input num_heads dimension, got num_heads "
                       f"= {heads}, input num_heads dimension = {shape[2]}")
    if shape[0] != out[0]:
        raise op.error(f"input sequence dimension must match output sequence dimension, got input sequence size = "
                       f"{shape[0]}, output sequence size = {out[0]}")
    if heads * shape[3] != out[3]:
        raise op.error(f"Output hidden dimension must equal num_heads * head_size, got num_heads = {shape[2]}, "
                       f"head_size = {heads}, expected hidden size = {heads * shape[3]}, actual output hidden size = "
                       f"{out[3]}")


def nlp_create_qkv_heads_decode_rule(op: TTOp):
    shapes = [tuple(v.type.get_shape()) for v in (op.operands[0], *op.results)]
    _rank4(op, *zip(("input", "query", "key", "value"), shapes))
    offset, slice_size = op.operand_groups()["batch_offset"], op.prop("slice_size")
    if bool(offset) != (slice_size is not None):
        raise op.error("both or neither of batch_offset and slice_size must be set")
    if offset and math.prod(offset[0].type.get_shape()) != 1:
        raise op.error(f"batch_offset must be a scalar, got shape ({commas(offset[0].type.get_shape())})")
    shape = shapes[0]
    for dim in (0, 1):
        if shape[dim] != 1:
            raise op.error(f"input tensor dimension {dim} must be 1, got {shape[dim]}")
    heads = scalar(op.prop("num_heads"))
    kv_heads = scalar(op.prop("num_kv_heads")) if op.prop("num_kv_heads") is not None else heads
    batch = scalar(slice_size) if slice_size is not None else shape[2]
    head_dim = shape[3] // (heads + 2 * kv_heads)
    for name, want, got in (("query", (1, batch, heads, head_dim), shapes[1]), ("key", (1, batch, kv_heads, head_dim),
                            shapes[2]), ("value", (1, batch, kv_heads, head_dim), shapes[3])):
        if got != want:
            raise op.error(f"expected {name} shape ({commas(want)}), got ({commas(got)})")


def rotary_embedding_rule(op: TTOp):
    x, cos, sin = (v.type for v in op.operands[:3])
    out = op.results[0].type
    if op.ROW.name == "rotary_embedding":
        if cos.element_type != sin.element_type:
            raise op.error("cos and sin tensor dtypes must match.")
        if cos.get_shape() != sin.get_shape():
            raise op.error("cos and sin tensor shapes must match.")
        if any(len(t.get_shape()) != 4 for t in (x, cos, sin, out)):
            raise op.error("all input and output tensors must be 4D tensors.")
        return
    inputs = [v.type for v in op.operands]
    if not all(isinstance(t.element_type, BFloat16Type) for t in inputs):
        raise op.error("all input tensors must be bfloat16 type.")
    layouts = [t.encoding for t in inputs]
    if not all(isinstance(l, TTNNLayoutAttr) and l.is_tiled for l in layouts):
        raise op.error("all input tensors must have tiled layout.")
    if not all(l.buffer_type != "system_memory" for l in layouts):
        raise op.error("all input tensors must be on device.")
    if cos.get_shape() != sin.get_shape():
        raise op.error("cos and sin tensors must have the same shape.")
    if x.get_shape()[-1] > 256:
        raise op.error(f"head dimension must be ≤ 256, got {x.get_shape()[-1]}.")
    trans = tuple(inputs[3].get_shape())
    if len(trans) != 4:
        raise op.error("transformation matrix must be at least 4D tensor.")
    if trans != (1, 1, TILE, TILE):
        raise op.error(f"transformation matrix must have shape (1,1,{TILE},{TILE}) but got ({','.join(map(str, trans))}).")
    if scalar(op.prop("is_decode_mode")) and not all(
            isinstance(l.memory_layout, TensorMemoryLayoutAttr) and l.memory_layout.data.value == "height_sharded"
            for l in layouts):
        raise op.error("in decode mode, all input tensors must have HeightSharded memory layout.")
    if out.get_shape() != x.get_shape():
        raise op.error("output shape must match input shape.")


def norm_stats_rule(op: TTOp):
    shape, out = first_shape(op), result_shape(op)
    rms = op.ROW.name == "rms_norm_pre_all_gather"
    if len(shape) < 2:
        raise op.error("input tensor must have rank greater than 1" if rms else "input tensor must have rank >= 2")
    residual = op.operand_groups()["residual" if rms else "residual_input"]
    if not rms and residual and shape_of(residual[0]) != shape:
        raise op.error("residual_input shape must match input shape")
    if len(out) != len(shape):
        raise op.error("input rank must match the output rank" if rms else "input and output must have the same rank")
    for i in range(len(shape) - 1):
        if out[i] != shape[i]:
            raise op.error(f"output dimension {i} ({out[i]}) must match input dimension ({shape[i]})")
    if rms and residual and shape_of(residual[0]) != shape:
        raise op.error("residual tensor shape must match the input tensor shape")
    width, spelled, what = (TILE, "TILE_WIDTH", "rms norm") if rms else (2 * TILE, "2 * TILE_WIDTH", "layernorm")
    if out[-1] != width:
        raise op.error(f"output last dimension must be {width} ({spelled}) for {what} partial statistics, got "
                       f"{out[-1]}")


def norm_post_rule(op: TTOp):
    groups = op.operand_groups()
    shape = first_shape(op)
    if len(shape) < 2:
        raise op.error("input must have rank >= 2")
    if len(shape_of(groups["stats"][0])) < 2:
        raise op.error("stats must have rank >= 2")
    if result_shape(op) != shape:
        raise op.error("input and output must have the same shape")
    for name in ("weight", "bias"):
        if groups[name] and shape_of(groups[name][0]) != (shape[-1],):
            raise op.error(f"{name} tensor must be 1D with size matching the last dimension of input")


def rand_rule(op: TTOp):
    if scalar(op.prop("low")) >= scalar(op.prop("high")):
        raise op.error("'low' value must be < 'high' value")
    size, out = tuple(op.prop("size").data), result_shape(op)
    if size != out:
        raise op.error(f"size argument does not match with output tensor shape. [Size = ({commas(size)}), output "
                       f"tensor shape = ({commas(out)})]")


def pow_scalar_rule(op: TTOp):
    exponent = scalar(op.prop("rhs"))
    if exponent < 0:
        raise op.error(f"exponent must be non-negative; but got {exponent if isinstance(exponent, int) else f'{exponent:e}'}")
    return same_shape(op)


def constant_rule(op: TTOp):
    layout = op.results[0].type.encoding
    on_host = isinstance(layout, TTNNLayoutAttr) and layout.buffer_type == "system_memory"
    if isinstance(layout, TTNNLayoutAttr) and not on_host and not op.operands:
        raise op.error("device operand must be specified for non-system memory buffer type")
    if on_host and op.operands:
        raise op.error("device operand must not be specified for system memory buffer type")
    return TTNN_SHAPE_RULES["constant"](op)


def assign_rule(op: TTOp):
    value, result = op.operands[0].type, op.results[0].type
    if value.get_shape() != result.get_shape():
        raise op.error("input and output tensor must have the same shape")
    if data_type_of(value.element_type) != data_type_of(result.element_type):
        raise op.error("output tensor data type does not match expected output data type")


def point_to_point_rule(op: TTOp):
    output = op.operand_groups()["optional_output_tensor"]
    if output:
        value, into = op.operands[0].type, output[0].type
        if value.element_type != into.element_type or value.get_shape() != into.get_shape():
            raise op.error("Optional output tensor must match input tensor in shape and element type.")
        if op.prop("sender_coord") == op.prop("receiver_coord"):
            raise op.error("Can't send/receive to the same device")


def distributed_norm_rule(op: TTOp):
    """As TTIR's, but rms_norm's weight may be laid out in rows of one tile's width ((N/32, 32), as its kernel
    reads it) and layer_norm's weight and bias are 1D."""
    groups, shape = op.operand_groups(), first_shape(op)
    weight = groups["weight"]
    if result_shape(op) != shape:
        raise op.error("output shape must match input shape")
    if scalar(op.prop("cluster_axis")) > 1:
        raise op.error("cluster_axis must be 0 or 1")
    if scalar(op.prop("epsilon")) <= 0:
        raise op.error("epsilon must be positive")
    if groups["residual"] and shape_of(groups["residual"][0]) != shape:
        raise op.error("residual tensor shape must match input tensor shape")
    if not weight:
        return
    if op.ROW.name == "distributed_rms_norm":
        if math.prod(shape_of(weight[0])) != shape[-1]:
            raise op.error("weight tensor total elements must match input's last dimension")
        return
    for name, value in (("weight", weight), ("bias", groups["bias"])):
        if value and shape_of(value[0]) != shape[-1:]:
            raise op.error(f"{name} tensor must be 1D with size matching the last dimension of input")


def last_dim_norm_rule(op: TTOp):
    shape = first_shape(op)
    if result_shape(op) != shape:
        raise op.error("input and output must have the same shape")
    groups = op.operand_groups()
    for name in ("weight", "bias"):
        if not groups[name]:
            continue
        given = shape_of(groups[name][0])
        if not shape and given:
            raise op.error(f"{name} tensor must be 0D for 0D input tensor")
        if shape and given != shape[-1:]:
            raise op.error(f"{name} tensor must be 1D with size matching the last dimension of input")


def dit_rms_norm_rule(op: TTOp):
    residual = op.operand_groups()["residual_input"]
    if residual and shape_of(residual[0]) != first_shape(op):
        raise op.error("residual_input tensor must have the same shape as input")
    last_dim_norm_rule(op)


# TTNN ops verified unlike the rest of their family, as upstream's TTNN verifies them.
def linear_rule(op: TTOp):
    """As TTIR's; the product's own shape also verifies when the bias pads to one tile of rows, as tt-metal's fused
    kernel writes it (--ttnn-workaround splits such a linear into matmul and add)."""
    bias = op.operand_groups()["bias"]
    if bias and len(shape_of(bias[0])) > 1 and shape_of(bias[0])[-2] <= TILE \
            and result_shape(op) == matmul_product_shape(op):
        return
    matmul(op)


def batch_norm_rule(op: TTOp):
    for name, what in (("input", "Input"), ("running_mean", "Running mean"), ("running_var", "Running variance"),
                       ("weight", "Weight"), ("bias", "Bias")):
        for value in op.operand_groups()[name]:
            if len(shape_of(value)) != 4:
                raise op.error(f"{what} tensor must have rank 4")
    shape = shape_of(op.operands[0])
    if len(op.results) == 1:
        if not (op.operand_groups()["running_mean"] and op.operand_groups()["running_var"]):
            raise op.error("inference normalizes by the running statistics: running_mean and running_var are "
                           "required")
        return [shape]
    stats = [1, shape[1], 1, 1]  # the batch statistics, shaped as the running ones
    return [shape, stats, stats]


TTNN_OWN_RULES = {"batch_norm_inference": batch_norm_rule, "batch_norm_training": batch_norm_rule, "linear": linear_rule, "argmax": argmax_rule, "prod": prod_rule, "to_tensor_spec": to_tensor_spec_rule, "to_layout": to_layout_rule,
                  "to_memory_config": to_memory_config_rule, "clamp_scalar": clamp_scalar_rule, "all_gather": all_gather_rule, "reduce_scatter": reduce_scatter_rule, "all_reduce": all_reduce_rule,
                  "all_reduce_async": lambda op: all_reduce_rule(op, "all reduce async"),
                  "embedding_bw": embedding_bw_rule, "nlp_concat_heads": nlp_concat_heads_rule,
                  "nlp_concat_heads_decode": nlp_concat_heads_decode_rule,
                  "nlp_create_qkv_heads_decode": nlp_create_qkv_heads_decode_rule,
                  "rotary_embedding": rotary_embedding_rule, "rotary_embedding_llama": rotary_embedding_rule,
                  "rms_norm_pre_all_gather": norm_stats_rule, "layer_norm_pre_all_gather": norm_stats_rule,
                  "layer_norm_post_all_gather": norm_post_rule, "paged_fill_cache": paged_fill_cache,
                  "paged_update_cache": paged_update_cache,
                  "rand": rand_rule, "pow_scalar": pow_scalar_rule, "constant": constant_rule,
                  "layer_norm": last_dim_norm_rule,
                  "distributed_rms_norm": distributed_norm_rule, "distributed_layer_norm": distributed_norm_rule, "rms_norm": last_dim_norm_rule, "dit_rms_norm_unary_fused": dit_rms_norm_rule, **attention.TTNN_RULES, **conv.TTNN_RULES, **moe.TTNN_RULES, **trace.TTNN_RULES,
                  "assign": assign_rule, "point_to_point": point_to_point_rule, "dump_tensor": debug.dump_tensor_rule,
                  "load_tensor": debug.load_tensor_rule,
                  **ttml.TTNN_RULES,
                  **moe_fused.TTNN_RULES}
class TTNNGenericBase(TTNNOp):
    """ttnn.generic's operands may also be scalars its kernels read (integers and floats of at most 32 bits)."""

    OPERAND_TYPE_CHECK: ClassVar[tuple[tuple[type, ...], str]] = (
        (TensorType, DeviceType, trace.GlobalSemaphoreType, IntegerType, AnyFloat),
        "ranked tensor, !ttnn.device, !ttnn.global_semaphore or scalar values")

    def tt_verify(self) -> None:
        super().tt_verify()
        tensors = len(self.operand_groups()["inputs_and_outputs"])
        for i, value in enumerate(self.operands):
            if not isinstance(value.type, (IntegerType, AnyFloat)):
                continue
            if i < tensors:
                raise self.error(f"operand #{i}: inputs and outputs are tensors, got '{value.type}'")
            if value.type.bitwidth > 32:
                raise self.error(f"operand #{i}: a scalar argument is at most 32 bits, got '{value.type}'")


OP_BASES = {"generic": TTNNGenericBase}
TTNN_ROWS = (*_ttnn_rows(), *TTNN_ONLY)
TTNN_OP_CLASSES: dict[str, type[TTOp]] = {}
TTNN_OP_CLASSES.update({row.name: build_op_class("ttnn", row, OP_BASES.get(row.name, TTNNOp),
                                                 TTNN_OWN_RULES.get(row.name, TTNN_SHAPE_RULES[row.family]),
                                                 TTNN_OP_CLASSES, patterns_for)
                        for row in TTNN_ROWS})

TTNN = Dialect(
    "ttnn", [*TTNN_OP_CLASSES.values(), D2MSubgraphOp],
    [DeviceType, trace.GlobalSemaphoreType, trace.TraceIdAttr, BufferTypeAttr, LayoutAttr, TensorMemoryLayoutAttr, ShapeAttr, MeshShapeAttr, MeshOffsetAttr,
     CoreCoordAttr, CoreRangeAttr, CoreRangeSetAttr, MemoryConfigAttr, TTNNLayoutAttr, *STRUCT_ATTRS, Conv2dSliceConfigAttr,
     *ttnn_program.PROGRAM_ATTRS, *ND_LAYOUT_ATTRS, *MESH_ATTRS],
)
