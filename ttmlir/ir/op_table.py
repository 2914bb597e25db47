"""The op table: one row per TTIR op, plain data shared by dialects, passes, target and runtime.

A row names the op, its family (which drives the shape rule, the TTNN lowering and the kernel),
its operands (`x?` optional, `x*` variadic), its properties as `name:kind` (`=default` makes it
optional with that default, `?` optional without one), its results and the TTNN op it lowers to.
Property kinds are defined in `ttmlir.ir.props`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class OpRow:
    name: str
    family: str
    operands: tuple[str, ...]
    props: tuple[tuple[str, str, str | None, bool], ...]  # (name, kind, default text, required)
    results: tuple[str, ...]
    ttnn: str | None
    summary: str


def _props(spec: str) -> tuple[tuple[str, str, str | None, bool], ...]:
    rows = []
    for item in spec.split():
        name, kind = item.split(":")
        if "=" in kind:
            kind, default = kind.split("=")
            rows.append((name, kind, default, False))
        elif kind.endswith("?"):
            rows.append((name, kind[:-1], None, False))
        else:
            rows.append((name, kind, None, True))
    return tuple(rows)


def op(name, family, operands="input", props="", results="result", ttnn="=", summary=""):
    return OpRow(name, family, tuple(operands.split()), _props(props), tuple(results.split()),
                 name if ttnn == "=" else ttnn, summary or f"TTIR {name.replace('_', ' ')} operation.")


UNARY_NAMES = ("abs cbrt ceil cos acos floor frac trunc gelu isfinite logical_not bitwise_not mish neg tan atan "
               "tanh reciprocal relu relu6 rsqrt sigmoid softsign hardsigmoid silu sign signbit sin asin asinh "
               "sqrt square log log1p expm1 exp exp2 erf erfc").split()
BINARY_NAMES = {"add": "add", "subtract": "subtract", "multiply": "multiply", "div": "divide",
                "maximum": "maximum", "minimum": "minimum", "remainder": "remainder", "pow": "pow_tensor",
                "atan2": "atan2", "eq": "eq", "ne": "ne", "ge": "ge", "gt": "gt", "le": "le", "lt": "lt",
                "logical_and": "logical_and", "logical_or": "logical_or", "logical_xor": "logical_xor",
                "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor",
                "logical_left_shift": "logical_left_shift", "logical_right_shift": "logical_right_shift"}
# Operands an op reads as indices into another of its operands, with how many entries that one has (from its
# shape); and the ops (TTIR or TTNN) that pass an integer tensor's values on unchanged. Random inputs that
# reach an index operand stay below that count, as a model's token ids do (decode positions stay in the first
# block of a paged cache).
_PAGED = (("page_table", "key", lambda shape: shape[0]), ("cur_pos_tensor", "key", lambda shape: shape[2]))
_EXPERTS = lambda shape: shape[2]  # expert_mapping [1, 1, E, D]
INDEX_OPERANDS = {"embedding": (("input", "weight", lambda shape: math.prod(shape[:-1])),),
                  "update_cache": (("update_index", "cache", lambda shape: shape[2]),),
                  "paged_update_cache": (("update_index", "cache", lambda shape: shape[2]),
                                         ("page_table", "cache", lambda shape: shape[0])),
                  "gather": (("start_indices", "input", min),),
                  "all_to_all_dispatch": (("expert_indices", "expert_mapping", _EXPERTS),),
                  "all_to_all_dispatch_metadata": (("expert_indices", "expert_mapping", lambda shape: shape[-1]),),
                  **dict.fromkeys(("all_to_all_combine", "moe_expert_token_remap"),
                                  (("expert_metadata", "expert_mapping", _EXPERTS),)),
                  "moe_compute": (("tilize_expert_indices_tensor", "tilize_expert_mapping_tensor", lambda shape: shape[-1]),),
                  "scaled_dot_product_attention_decode": _PAGED[1:],
                  "paged_scaled_dot_product_attention_decode": _PAGED,
                  "paged_flash_multi_latent_attention_decode": _PAGED,
                  "chunked_scaled_dot_product_attention": (_PAGED[0], ("chunk_start_idx", "key", lambda shape: shape[2]))}
PASSES_VALUES = frozenset({"reshape", "typecast", "squeeze", "unsqueeze", "broadcast", "repeat", "permute",
                           "transpose", "slice_static", "concat", "to_layout", "to_device", "from_device",
                           "to_memory_config"})
# Families whose ops have no result and write their values into these operands (those present, in order), in place.
# Properties MLIR fills in when an op is created (a `DefaultValuedAttr`), so they print even when the text left
# them out; every other table default stays implicit.
POPULATED_DEFAULTS = {"matmul": ("transpose_a", "transpose_b"), "linear": ("transpose_a", "transpose_b")}
IN_PLACE_OPERAND = {"cache": ("cache",), "optimizer_in_place": ("param", "exp_avg", "exp_avg_sq", "max_exp_avg_sq")}
# TTNN ops whose result is this operand's buffer when it is bound (tt-metal returns the caller's tensor): one tensor
# under two names, freed once
RESULT_INTO = {"moe_compute": "optional_output_tensor"}
CONV_DIMS = "batch_dim:i64=0 height_dim:i64=1 width_dim:i64=2 channel_dim:i64=3"
REDUCTION_NAMES = "sum mean max min prod".split()
# conv2d/pools on an input flattened to (1, 1, N*H*W, C) say what (N, H, W) it was (--ttir-flatten-sliding-window)
FLATTENED = " flattened_compat_info:flattened_compat?"
POOL_PROPS = ("kernel:i32_or_darray stride:i32_or_darray dilation:i32_or_darray padding:i32_or_darray ceil_mode:bool"
              + FLATTENED)
NORM_OPERANDS = "input weight? bias?"
ATTENTION = "is_causal:bool=true scale:f32?"
# tt-train's (ttml) fused training ops, the same in TTIR and TTNN (TTNN's adamw updates its operands in place)
ADAMW_OPERANDS = "param grad exp_avg exp_avg_sq max_exp_avg_sq?"
ADAMW_PROPS = ("lr:f32 beta1:f32 beta2:f32 beta1_pow:f32 beta2_pow:f32 epsilon:f32 weight_decay:f32 "
               "stochastic_rounding:bool=false")
SDPA_FW = dict(operands="query key value attention_mask?", results="result intermediates?",
               props="mask_type:mask_type=causal dropout_probability:f32=0.0 return_intermediates:bool=false")
TTML_LSE_WIDTH = 32  # sdpa_fw keeps each row's log-sum-exp as one fp32 tile row (in its column 0)
SDPA_BW = dict(operands="grad_output attn_output query key value intermediates attention_mask?",
               props="mask_type:mask_type=arbitrary dropout_probability:f32=0.0", results="grad_query grad_key grad_value")
# gather in either of upstream's forms: torch.gather's (`dim`; the index tensor has the result's shape) or the
# StableHLO one its exported models still carry (offset/collapsed/batching dims, start_index_map, slice_sizes).
STABLEHLO_GATHER = ("offset_dims", "collapsed_slice_dims", "operand_batching_dims", "start_indices_batching_dims",
                    "start_index_map", "index_vector_dim", "slice_sizes")
GATHER_PROPS = ("offset_dims:i64_darray? collapsed_slice_dims:i64_darray? operand_batching_dims:i64_darray? "
                "start_indices_batching_dims:i64_darray? start_index_map:i64_darray? index_vector_dim:si64? "
                "slice_sizes:i64_darray? indices_are_sorted:bool?")

TTIR_OPS: tuple[OpRow, ...] = (
    *(op(n, "unary") for n in UNARY_NAMES),
    op("leaky_relu", "unary", props="parameter:f32"),
    op("selu", "unary", props="scale:f32=1.0507009873390197 alpha:f32=1.6732635498046875"),
    op("typecast", "unary", props="conservative_folding:bool=false"),
    # each element's bits read as the result's element type (of the same width)
    op("bitcast_convert", "bitcast"),
    *(op(n, "binary", "lhs rhs", ttnn=t) for n, t in BINARY_NAMES.items()),
    # each lhs element's bits shifted right by rhs's, its sign bit copied in (TTNN has no such op)
    op("right_shift", "binary", "lhs rhs", ttnn=None, summary="TTIR arithmetic right shift operation."),
    # the gradient of gelu (exact, or its tanh approximation) at `rhs`, times the incoming gradient `lhs`
    op("gelu_bw", "binary", "lhs rhs", props="approximate:str=none"),
    op("where", "ternary", "first second third"),
    op("clamp_scalar", "unary", props="min:f32_or_i32 max:f32_or_i32"),
    op("clamp_tensor", "ternary", "input min max"),
    *(op(n, "reduction", props="keep_dim:bool=false dim_arg:i32_array?") for n in REDUCTION_NAMES),
    # TTNN has no logical reductions (--ttir-to-ttir-decomposition makes them arithmetic)
    *(op(n, "reduction", props="keep_dim:bool=false dim_arg:i32_array?", ttnn=None) for n in ("reduce_and", "reduce_or")),
    op("argmax", "reduction", props="keep_dim:bool=false dim_arg:i32_array?"),
    op("cumsum", "cumsum", props="dim:i64"),
    op("cumprod", "cumsum", props="dim:i64"),
    # quantization: scales and zero points in the !quant.uniform type, or (unrolled, as TTNN takes them) operands
    op("quantize", "quantization", ttnn=None),
    op("dequantize", "quantization", ttnn=None),
    op("requantize", "quantization", ttnn=None),
    op("quantize_unrolled", "quantization", "input scale zero_point", props="axis:i32?", ttnn="quantize"),
    op("dequantize_unrolled", "quantization", "input scale zero_point", props="axis:i32?", ttnn="dequantize"),
    op("requantize_unrolled", "quantization", "input in_scale in_zero_point out_scale out_zero_point",
       props="axis:i32?", ttnn="requantize"),
    op("sort", "sort", props="dim:si32=-1 descending:bool=false stable:bool=false", results="values indices"),
    op("topk", "topk", "input_tensor", props="k:i32 dim:i32=-1 largest:bool=true sorted:bool=false",
       results="values indices"),
    op("reshape", "reshape", props="shape:i32_array"),
    op("transpose", "transpose", props="dim0:si32 dim1:si32", ttnn="permute"),
    op("permute", "permute", props="permutation:i64_darray"),
    op("concat", "concat", "inputs*", props="dim:si32"),
    op("repeat", "repeat", props="repeat_dimensions:i64_darray"),
    op("repeat_interleave", "repeat_interleave", props="repeats:ui32 dim:si32"),
    op("broadcast", "broadcast", props="broadcast_dimensions:i64_darray", ttnn="repeat"),
    op("pad", "pad", props="padding:i32_darray value:f32"),
    op("slice_static", "slice", props="begins:i32_array ends:i32_array step:i32_array"),
    # begins and ends are tensors read at run time; the result's (static) shape is what they must select
    op("slice_dynamic", "slice_dynamic", "input begins ends", props="step:i32_array?"),
    op("squeeze", "squeeze", props="dim:si32", ttnn="reshape"),
    op("unsqueeze", "unsqueeze", props="dim:si32", ttnn="reshape"),
    op("reverse", "reverse", props="dimensions:i64_darray"),
    op("index", "index", props="dim:i32 begin:i32 end:i32 step:i32", ttnn="slice_static"),
    op("index_select", "index_select", props="dim:si32 begin:si32 length:si32 stride:si32=0",
       ttnn="slice_static"),
    op("gather", "gather", "input start_indices", props="dim:i32? " + GATHER_PROPS),
    # torch-style scatter: source values written (or reduced, unless `invalid`) into input where index says
    op("scatter", "scatter", "input index source", props="dim:i32 scatter_reduce_type:reduce_type"),
    op("matmul", "matmul", "a b", props="transpose_a:bool=false transpose_b:bool=false"),
    op("linear", "matmul", "a b bias?", props="transpose_a:bool=false transpose_b:bool=false"),
    op("dot_general", "dot_general", "lhs rhs", props="batch_dims_lhs:i64_darray contract_dims_lhs:i64_darray "
       "batch_dims_rhs:i64_darray contract_dims_rhs:i64_darray", ttnn="matmul"),
    op("softmax", "softmax", props="dimension:si32 numericStable:bool=false"),
    # attention heads [batch, heads, seq, head_size] joined into [batch, seq, heads * head_size]
    op("concatenate_heads", "concatenate_heads"),
    # a fused [batch, seq, (heads + 2 * kv_heads) * head_size] projection (or Q, and K|V apart) split into
    # [batch, heads, seq, head_size] query, key (optionally [.., head_size, seq]) and value
    op("split_query_key_value_and_split_heads", "split_qkv", "input_tensor kv_input_tensor?",
       props="num_heads:ui32 num_kv_heads:ui32? transpose_key:bool", results="query key value"),
    # attention per head: softmax(query · keyᵀ · scale + mask) · value, each key/value head shared by a group of
    # query heads; causal (a query sees the keys up to its position) or masked, as upstream's attention ops
    op("scaled_dot_product_attention", "attention", "query key value attention_mask? attention_sink?",
       props=ATTENTION + " sliding_window_size:ui32?"),
    op("scaled_dot_product_attention_decode", "attention",
       "query key value attention_mask? cur_pos_tensor attention_sink?", props=ATTENTION),
    op("paged_scaled_dot_product_attention_decode", "attention",
       "query key value page_table output attention_mask? cur_pos_tensor? attention_sink?",
       props=ATTENTION + " sliding_window_size:ui32?"),
    op("chunked_scaled_dot_product_attention", "attention", "query key value page_table chunk_start_idx output",
       props="scale:f32?"),
    op("paged_flash_multi_latent_attention_decode", "attention",
       "query key value? page_table attention_mask? cur_pos_tensor? attention_sink?", props="head_dim_v:ui32 " + ATTENTION),
    # one AdamW step as torch.optim.AdamW takes it (decoupled weight decay; bias corrections 1 - beta1_pow and
    # 1 - beta2_pow, beta^t of step t; AMSGrad when max_exp_avg_sq is given): the updated param and moments
    op("adamw", "optimizer", ADAMW_OPERANDS, props=ADAMW_PROPS,
       results="param_out exp_avg_out exp_avg_sq_out max_exp_avg_sq_out?", summary="AdamW optimizer step"),
    # softmax(query · keyᵀ / sqrt(D) + mask) · value for training: causal, none, or an arbitrary 1/0 mask [1, 1, S, S];
    # `intermediates` [.., S, 32] keep each row's log-sum-exp (column 0) for the backward pass
    op("sdpa_fw", "ttml_attention", SDPA_FW["operands"], props=SDPA_FW["props"], results=SDPA_FW["results"],
       summary="Scaled dot-product attention forward (ttml)."),
    # the gradients of sdpa_fw's query, key and value from the gradient of its output, its output and intermediates
    op("sdpa_bw", "ttml_attention", SDPA_BW["operands"], props=SDPA_BW["props"], results=SDPA_BW["results"],
       summary="Scaled dot-product attention backward (ttml)."),
    op("embedding", "embedding", "input weight"),
    # the weight's gradient: each index's row of in_gradient summed into that row of a zero table
    op("embedding_backward", "embedding_backward", "input weight in_gradient", ttnn="embedding_bw"),
    op("conv2d", "conv2d", "input weight bias?", props="stride:i32_or_darray padding:i32_or_darray "
       "dilation:i32_or_darray groups:i32 " + CONV_DIMS + FLATTENED),
    op("conv_transpose2d", "conv_transpose2d", "input weight bias?", props="stride:i32_or_darray "
       "padding:i32_or_darray output_padding:i32_or_darray dilation:i32_or_darray groups:i32 " + CONV_DIMS + FLATTENED),
    op("conv1d", "conv1d", "input weight bias?", props="stride:i32_or_darray padding:i32_or_darray "
       "dilation:i32_or_darray groups:i32 batch_dim:i64=0 length_dim:i64=1 channel_dim:i64=2", ttnn="conv1d",
       summary="Conv1d operation."),
    op("conv3d", "conv3d", "input weight bias?", props="stride:i32_or_darray padding:i32_or_darray groups:i32 "
       "batch_dim:i64=0 depth_dim:i64=1 height_dim:i64=2 width_dim:i64=3 channel_dim:i64=4 padding_mode:str=zeros",
       summary="3D convolution of an NDHWC (or dimension-attributed) volume; padding is symmetric, zeros or "
       "replicated edges."),
    # per user (row): softmax of its candidate values scaled by temp (1/T), the k most likely, then those within
    # top-p mass, one drawn (from seed) and its global index (input_indices) returned
    op("sampling", "sampling", "input_values input_indices k p temp", props="seed:ui32?"),
    # b = [1, E, K, N] holds E expert blocks; the mask says which (token group, expert) pairs are computed
    op("sparse_matmul", "sparse_matmul", "a b sparsity",
       props="is_input_a_sparse:bool=false is_input_b_sparse:bool=true nnz:i64?"),
    op("topk_router_gpt", "topk_router_gpt", "input weight bias", props="k:i32 num_experts:i32",
       results="expert_indices expert_weights"),
    # expert parallelism over a line of chips (along cluster_axis): expert_mapping [1, 1, E, D] marks the chip(s)
    # holding each expert; dispatch sends each token to the chips of its experts and gathers the expert indices
    op("all_to_all_dispatch", "all_to_all_dispatch", "input_tensor expert_indices expert_mapping",
       props="num_devices:i64 cluster_axis:i64", results="dispatched metadata"),
    # the same with each token's expert scores; expert_mapping [1, 1, D, E] names each expert's chip (row d as chip
    # d sees it); results are [1, tokens of the line, H or K]
    op("all_to_all_dispatch_metadata", "all_to_all_dispatch_metadata",
       "input_tensor expert_indices expert_scores expert_mapping", props="num_devices:i64 cluster_axis:i64",
       results="dispatched indices scores", ttnn=None),
    # the inverse: result[k] of a token is what its k-th expert's chip computed for it
    op("all_to_all_combine", "all_to_all_combine", "input_tensor expert_metadata expert_mapping",
       props="num_devices:i64 cluster_axis:i64 num_experts_per_tok:i64 output_shard_dim:i64=2"),
    # a chip's local experts: each token's score for those it chose (else 0), and per block of reduction_size
    # tokens whether any chose them
    op("moe_expert_token_remap", "moe_expert_token_remap", "topk_tensor expert_mapping expert_metadata",
       props="reduction_size:i64", results="mapping reduced"),
    # the fused MoE kernels (ttmlir.dialects.moe_fused says what each computes): selective_reduce_combine sends
    # each chip's per-expert token blocks back to the tokens' chips; moe_gpt is GPT-OSS's expert stage on
    # prepacked weights; moe_compute the expert FFN of dispatched tokens on raw weights, combined per token and k
    op("selective_reduce_combine", "selective_reduce_combine",
       "dense_input_tensor dense_activations_tensor dense_token_maps_tensor dense_token_counts_tensor",
       props="hidden_size:ui32 batch_size:ui32 seq_size:ui32 select_experts_k:ui32 experts:ui32"),
    op("moe_gpt", "moe_gpt", "input_tensor expert_indices expert_scores expert_mapping w0_w1_tensor w2_tensor",
       props="output_height_shard_dim:ui32=4 output_width_shard_dim:ui32=3 hidden_size:ui32=2880 cluster_axis:ui32?",
       results="token_counts activation_records token_indices tilize_out tilize_out_rm"),
    op("moe_compute", "moe_compute", "tilize_input_tensor tilize_expert_indices_tensor tilize_expert_scores_tensor "
       "tilize_expert_mapping_tensor w0 w1 w2 bias_0? bias_1? bias_2?",
       props="layer_id:ui32 output_height_shard_dim:ui32 intermediate_size:ui32 activation_function:moe_activation=silu "
       "cluster_axis:ui32", results="combine_output", ttnn=None),
    op("max_pool2d", "pool2d", props=POOL_PROPS),
    # torch.max_pool2d(return_indices=True): each maximum's flat index in its (H, W) input plane
    op("max_pool2d_with_indices", "pool2d", "input output*", props=POOL_PROPS, results="result result_indices"),
    op("avg_pool2d", "pool2d", props=POOL_PROPS + " count_include_pad:bool=true"),
    op("global_avg_pool2d", "global_pool2d"),
    op("upsample2d", "upsample2d", props="scale_factor:si32_or_darray mode:str=nearest", ttnn="upsample"),
    op("batch_norm_inference", "batch_norm", "operand scale offset mean variance",
       props="epsilon:f32 dimension:i32"),
    op("batch_norm_training", "batch_norm", "operand scale offset running_mean running_variance",
       props="epsilon:f32 dimension:i32 momentum:f32", results="result batch_mean batch_variance"),
    op("layer_norm", "norm", NORM_OPERANDS, props="normalized_shape:i64_darray epsilon:f32=1e-05"),
    op("rms_norm", "norm", NORM_OPERANDS, props="normalized_shape:i64_darray epsilon:f32=1e-05"),
    # epsilon defaults to upstream's (and ttnn's) 1e-12, not torch's 1e-5: IR that leaves it out means 1e-12
    op("group_norm", "group_norm", "input input_mask? weight? bias?",
       props="num_groups:i64 epsilon:f32=1e-12 channel_dim:i64=3"),
    op("constant", "constant", "", props="value:elements"),
    op("full", "full", "", props="shape:i32_darray fill_value:number"),
    op("zeros", "fill", "", props="shape:i32_darray"),
    op("ones", "fill", "", props="shape:i32_darray"),
    op("arange", "arange", "", props="start:si64 end:si64 step:si64 arange_dimension:i64"),
    op("empty", "creation", ""),
    op("rand", "rand", "", props="size:i32_array low:f32=0.0 high:f32=1.0 seed:ui32=0"),
    # zeroes each element with probability `prob` (a Bernoulli mask drawn from `seed`), scales the rest
    op("dropout", "dropout", props="prob:f32=0.0 scale:f32=1.0 seed:ui32=0 use_per_device_seed:bool=true"),
    # cache ops write into `cache` in place and have no result, as upstream's
    op("update_cache", "cache", "cache input update_index", props="batch_offset:i32", results=""),
    op("fill_cache", "cache", "cache input", props="batch_offset:i32", results=""),
    # one token per user: input [1, users, heads, dim] goes to position update_index[u] of user u's rows (the
    # page page_table[u][p // block] at row p % block, or cache row u itself without a page table)
    op("paged_update_cache", "cache", "cache input update_index page_table?", props="share_cache:bool=false",
       results=""),
    # a prompt written into a paged cache: position p of batch row b goes to block page_table[i][p // block] (i
    # is batch_idx_tensor[b], else 0) at row p % block
    op("paged_fill_cache", "cache", "cache input page_table batch_idx_tensor?", results=""),
    # lowered to ttnn.distribute_tensor (full_to_shard) or ttnn.aggregate_tensor (shard_to_full)
    op("mesh_shard", "mesh_shard", props="shard_type:shard_type shard_direction:shard_direction "
       "shard_shape:i64_darray shard_dims:i64_darray", ttnn=None),
    op("all_gather", "ccl", props="all_gather_dim:si32 cluster_axis:ui32"),
    op("all_reduce", "ccl", props="reduce_type:reduce_type cluster_axis:ui32"),
    # all_reduce that overlaps its exchange with compute on the device; the same values
    op("all_reduce_async", "ccl", props="reduce_type:reduce_type cluster_axis:ui32"),
    op("reduce_scatter", "ccl", props="reduce_type:reduce_type scatter_dim:si32 cluster_axis:ui32"),
    # the exchanges between chips named by chip ids (replica groups, source-target pairs) become TTNN's
    # point-to-point copies
    op("collective_permute", "ccl", props="source_target_pairs:pairs", ttnn=None),
    # each chip of a replica group splits its tensor along split_dim and gets the i-th piece of every chip of the
    # group (i its place there), concatenated along concat_dim in the group's order
    op("all_to_all", "ccl", props="split_dim:si32 concat_dim:si32 split_count:si32 replica_groups:pairs", ttnn=None),
    # every chip of a replica group gets the tensor of the group's first chip
    op("collective_broadcast", "ccl", props="replica_groups:pairs", ttnn=None),
    op("mesh_partition", "mesh_partition", props="dim:si32 cluster_axis:ui32?"),
    op("distributed_rms_norm", "distributed_norm", "input weight? residual?", props="cluster_axis:ui32 epsilon:f32=1e-05"),
    # a user's tt-lang kernel, opaque to the compiler: `arg_roles` tags each input "in" or "out" (in* out+); the
    # "out" inputs are destinations, one per result
    op("tt_lang_op", "tt_lang", "inputs*", props="kernel_id:str version_tag:str arg_roles:str shard_spec:str=",
       results="results*"),
    op("to_layout", "to_layout", "input output"),  # `output` is a destination (an empty) of the result's type
    op("get_dimension_size", "get_dimension_size", "operand", props="dimension:i32", ttnn=None),
)

TTIR_BY_NAME = {row.name: row for row in TTIR_OPS}
