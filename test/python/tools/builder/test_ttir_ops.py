"""Every TTIR op through the builder: build with goldens, compile to .ttnn, run on the simulated n150,
check every op's output (intermediate verification) and the program outputs at PCC >= 0.99."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
import torch

from builder.base.builder_apis import compile_and_execute_ttir
from builder.ttir.ttir_builder import TTIRBuilder
from golden.mapping import GOLDEN_MAPPINGS, MESH_GOLDENS, OPAQUE
from ttmlir.ir.op_table import BINARY_NAMES, TTIR_BY_NAME, UNARY_NAMES
from ttmlir.dialects.quant import uniform
from xdsl.dialects.builtin import Float32Type

F32, I32 = torch.float32, torch.int32


def positive(shape):
    return torch.rand(shape) + 0.5


def unit(shape):
    return torch.rand(shape) * 1.8 - 0.9


def small_ints(shape):
    return torch.randint(0, 4, shape).float()


def bits(shape):
    return torch.randint(0, 2, shape).float()


def indices(high):
    return lambda shape: torch.randint(0, high, shape, dtype=I32)


def signed(high):
    return lambda shape: torch.randint(-high, high, shape, dtype=I32)


def USER_BLOCKS(shape):
    """A page table: each user's own blocks of the cache, none shared."""
    return torch.randperm(8)[:shape[0] * shape[1]].reshape(shape).to(I32)


def distinct_along(dim):
    return lambda shape: torch.rand(shape).argsort(dim).float()


def distinct_in_planes(shape):
    """NHWC values that differ within each (H, W) plane."""
    n, h, w, c = shape
    return torch.rand(n, c, h * w).argsort(-1).float().reshape(n, c, h, w).permute(0, 2, 3, 1)


def seeded(seed):
    return lambda shape: torch.randn(shape, generator=torch.Generator().manual_seed(seed))


def causal_forward(which):
    """sdpa_bw's forward-pass inputs (`out` or the log-sum-exp `lse` rows) for the query, key and value `seeded(1..3)`
    make, computed here with torch's causal attention."""
    def make(shape):
        q, k, v = (seeded(i)((*shape[:3], 64)) for i in (1, 2, 3))
        scores = (q @ k.transpose(-1, -2) / 8).masked_fill(torch.ones(shape[2], shape[2]).triu(1).bool(), -torch.inf)
        lse = torch.logsumexp(scores, -1, keepdim=True)
        return torch.exp(scores - lse) @ v if which == "out" else torch.nn.functional.pad(lse, (0, 31))
    return make


@dataclass
class Case:
    shapes: list
    kwargs: dict = field(default_factory=dict)
    dtypes: list | None = None
    inputs: list | None = None  # a function of the shape per input, else random
    list_operand: bool = False  # the op takes its inputs as one list (concat)
    named: tuple = ()  # inputs passed by keyword after the first, e.g. ("weight", "bias")


def combine_metadata(tokens: int, experts: int, k: int) -> dict[str, torch.Tensor]:
    """One chip's routing as moe_gpt records it for selective_reduce_combine: each token's k experts (seeded), the
    experts' active-token counts, their token maps (16-byte aligned u32 entries, -1 after the last) and the
    activation records (token, each expert's k slot or k + 1, pad; a -1 row after the last)."""
    chosen = torch.stack([torch.randperm(experts, generator=torch.Generator().manual_seed(t))[:k]
                          for t in range(tokens)])
    words = 4  # u32 words per 16 bytes
    counts = torch.zeros(1, words, dtype=I32)
    maps = torch.zeros(experts, (tokens + 1) * words, dtype=I32)
    width = -(-(2 * experts + 1) // words) * words
    records = torch.zeros(tokens + 1, width, dtype=I32)
    for t in range(tokens):
        records[t, 0] = t
        records[t, 1:1 + experts] = k + 1
        for slot, e in enumerate(chosen[t].tolist()):
            records[t, 1 + e] = slot
            maps[e, int(counts[0, e]) * words] = t
            counts[0, e] += 1
    records[tokens, 0] = -1
    for e in range(experts):
        maps[e, int(counts[0, e]) * words] = -1
    return {"counts": counts, "maps": maps, "records": records}


COMBINE = combine_metadata(8, 4, 2)


# quantized types (stored as si32): per axis 1 of 3, and per tensor
SCALES, ZERO_POINTS = torch.tensor([0.01, 0.02, 0.05]), torch.tensor([0, 10, -20], dtype=I32)
Q_AXIS = uniform("i32", Float32Type(), SCALES.tolist(), ZERO_POINTS.tolist(), axis=1)
Q_TENSOR, Q_TENSOR_IN = uniform("i32", Float32Type(), [0.02], [-7]), uniform("i32", Float32Type(), [0.05], [3])


def stored(shape):
    """Quantized values: integers around the zero points."""
    return torch.randint(-200, 200, shape, dtype=I32)


SQUARE = [(32, 32)]
PAIR = [(32, 32), (32, 32)]
DOMAINS = {"log": positive, "sqrt": positive, "rsqrt": positive, "reciprocal": positive, "log1p": positive,
           "acos": unit, "asin": unit, "tan": unit}
INT_UNARY = {"bitwise_not"}
INT_BINARY = {"bitwise_and", "bitwise_or", "bitwise_xor"}

CASES: dict[str, Case] = {
    **{n: Case(SQUARE, inputs=[DOMAINS[n]] if n in DOMAINS else None) for n in UNARY_NAMES},
    "bitwise_not": Case(SQUARE, dtypes=[I32]),
    **{n: Case(PAIR) for n in BINARY_NAMES},
    **{n: Case(PAIR, inputs=[small_ints, small_ints]) for n in ("eq", "ne", "ge", "gt", "le", "lt")},
    **{n: Case(PAIR, inputs=[bits, bits]) for n in ("logical_and", "logical_or", "logical_xor")},
    **{n: Case(PAIR, dtypes=[I32, I32]) for n in INT_BINARY},
    # negative values too: a logical right shift moves a zero into the sign bit
    **{n: Case(PAIR, dtypes=[I32, I32], inputs=[signed(64), indices(4)])
       for n in ("logical_left_shift", "logical_right_shift", "right_shift")},
    "div": Case(PAIR, inputs=[None, positive]),
    "remainder": Case(PAIR, inputs=[None, positive]),
    "pow": Case(PAIR, inputs=[positive, unit]),
    "leaky_relu": Case(SQUARE, {"parameter": 0.1}),
    "selu": Case(SQUARE, {"scale": 2.0, "alpha": 0.5}),
    "bitcast_convert": Case(SQUARE, {"output_type": I32}),  # f32 bit patterns as integers
    "gelu_bw": Case([(32, 64)] * 2, {"approximate": "none"}),
    # bf16-exact dropout: a 1/2 keep scale and the device's mask from the seed
    "dropout": Case([(64, 128)], {"prob": 0.5, "scale": 2.0, "seed": 21}),
    "typecast": Case(SQUARE, {"output_type": torch.bfloat16}),
    "where": Case([(32, 32)] * 3, inputs=[bits, None, None]),
    "clamp_scalar": Case(SQUARE, {"min": -0.5, "max": 0.5}),
    "clamp_tensor": Case([(32, 32)] * 3, inputs=[None, lambda s: -positive(s), positive]),
    **{n: Case([(4, 32, 64)], {"dim_arg": [1], "keep_dim": True}) for n in ("sum", "mean", "max", "min")},
    "prod": Case([(4, 8, 32)], {"dim_arg": [1]}, inputs=[lambda s: torch.rand(s) * 0.2 + 0.9]),
    "reduce_and": Case([(4, 32, 64)], {"dim_arg": [2]}, inputs=[bits]),
    "reduce_or": Case([(4, 32, 64)], {"dim_arg": [2]}, inputs=[bits]),
    "argmax": Case([(4, 32, 64)], {"dim_arg": [2]}),
    "cumsum": Case([(4, 32, 64)], {"dim": 1}),
    # factors near 1 keep a running product of 32 in range
    "cumprod": Case([(4, 32, 64)], {"dim": 1}, inputs=[lambda s: torch.rand(s) * 0.2 + 0.9]),
    # distinct small integers along the sorted dimension: exact in the bf16 the kernels sort in, so the
    # indices are unambiguous
    "sort": Case([(4, 32, 64)], {"dim": 1, "descending": True}, inputs=[distinct_along(1)]),
    "topk": Case([(2, 32, 128)], {"k": 5}, inputs=[distinct_along(-1)]),
    "reshape": Case([(4, 32, 64)], {"shape": [128, 64]}),
    "transpose": Case([(32, 64)], {"dim0": 0, "dim1": 1}),
    "permute": Case([(2, 32, 64)], {"permutation": [0, 2, 1]}),
    "concat": Case([(32, 32), (32, 64)], {"dim": 1}, list_operand=True),
    "repeat": Case(SQUARE, {"repeat_dimensions": [2, 1]}),
    "repeat_interleave": Case(SQUARE, {"repeats": 2, "dim": 0}),
    "broadcast": Case([(1, 32)], {"broadcast_dimensions": [32, 1]}),
    "pad": Case(SQUARE, {"padding": [1, 1, 2, 2], "value": 0.0}),
    "slice_static": Case([(32, 64)], {"begins": [0, 0], "ends": [16, 64], "step": [1, 2]}),
    # rows 8..40 step 2 and columns 32..64 of a 64x96 input, the bounds in tensors
    "slice_dynamic": Case([(64, 96), (2,), (2,)], {"step": [2, 1]}, dtypes=[F32, I32, I32],
                          inputs=[None, lambda s: torch.tensor([8, 32], dtype=I32),
                                  lambda s: torch.tensor([40, 64], dtype=I32)]),
    # a distinct row of the 8 for every source row: where each value lands is unambiguous
    "scatter": Case([(32, 16), (8, 16), (8, 16)], {"dim": 0, "scatter_reduce_type": "invalid"},
                    dtypes=[F32, I32, F32], inputs=[None, lambda s: torch.randperm(32)[:8, None].expand(s).to(I32),
                                                    None]),
    "squeeze": Case([(1, 32, 32)], {"dim": 0}),
    "unsqueeze": Case(SQUARE, {"dim": 0}),
    "reverse": Case([(32, 64)], {"dimensions": [0]}),
    "index": Case([(32, 64)], {"dim": 0, "begin": 0, "end": 16, "step": 2}),
    "index_select": Case([(32, 64)], {"dim": 1, "begin": 0, "length": 2, "stride": 4}),
    "gather": Case([(32, 64), (8, 1)], {"offset_dims": [1], "collapsed_slice_dims": [0], "operand_batching_dims": [],
                                        "start_indices_batching_dims": [], "start_index_map": [0],
                                        "index_vector_dim": 1, "slice_sizes": [1, 64]},
                   dtypes=[F32, I32], inputs=[None, indices(32)]),
    "matmul": Case([(32, 64), (64, 32)]),
    "linear": Case([(32, 64), (64, 32), (32,)], named=("b", "bias")),
    "dot_general": Case([(2, 32, 64), (2, 64, 16)], {"batch_dims_lhs": [0], "contract_dims_lhs": [2],
                                                     "batch_dims_rhs": [0], "contract_dims_rhs": [1]}),
    "softmax": Case([(4, 32, 64)], {"dimension": 2}),
    "embedding": Case([(2, 8), (32, 64)], dtypes=[I32, F32], inputs=[indices(32), None]),
    # 16 of 20 indices: repeats accumulate, and the lowering pads them to a whole tile
    "embedding_backward": Case([(2, 20), (16, 64), (2, 20, 64)], dtypes=[I32, F32, F32],
                               inputs=[indices(16), None, None]),
    "conv2d": Case([(1, 8, 8, 16), (32, 16, 3, 3), (1, 1, 1, 32)],
                   {"stride": 1, "padding": 1, "dilation": 1, "groups": 1}),
    # grouped, strided and padded unevenly: TTNN runs it as a conv2d over a height of one
    "conv1d": Case([(2, 20, 8), (6, 4, 3), (1, 1, 6)], {"stride": 2, "padding": [1, 2], "dilation": 1, "groups": 2}),
    # 40 input channels: padded to 64 and read in two 32-channel blocks by the prepared weight
    "conv3d": Case([(1, 6, 8, 8, 40), (16, 40, 3, 3, 3), (1, 1, 1, 1, 16)],
                   {"stride": [1, 2, 1], "padding": [1, 1, 0], "groups": 1}),
    # a 0/1 mask: the skipped (token group, expert) blocks must come out zero
    "sparse_matmul": Case([(2, 4, 32, 64), (1, 4, 64, 32), (2, 4, 1, 4)], {"is_input_b_sparse": True},
                          inputs=[None, None, bits]),
    # 8 users over 64 bf16 candidates with global ids; per-user k, p and 1/T
    "sampling": Case([(8, 64), (8, 64), (8,), (8,), (8,)], {"seed": 42},
                     dtypes=[torch.bfloat16, I32, torch.int32, torch.bfloat16, torch.bfloat16],
                     inputs=[lambda s: torch.randn(s) * 2, lambda s: torch.randperm(1000)[:64].expand(s).to(I32),
                             lambda s: torch.randint(1, 33, s, dtype=I32), lambda s: torch.rand(s) * 0.5 + 0.5,
                             lambda s: torch.rand(s) + 0.5]),
    "topk_router_gpt": Case([(32, 64), (64, 128), (32, 128)], {"k": 4, "num_experts": 128}),
    "conv_transpose2d": Case([(1, 8, 8, 16), (16, 8, 3, 3)], {"stride": 2, "padding": 1, "output_padding": 1,
                                                              "dilation": 1, "groups": 1}),
    "max_pool2d": Case([(1, 16, 16, 32)], {"kernel": [2, 2], "stride": [2, 2], "dilation": [1, 1],
                                           "padding": [0, 0, 0, 0], "ceil_mode": False}),
    "avg_pool2d": Case([(1, 16, 16, 32)], {"kernel": [3, 3], "stride": [2, 2], "dilation": [1, 1],
                                           "padding": [1, 1, 1, 1], "ceil_mode": False,
                                           "count_include_pad": False}),
    # distinct integers in each (H, W) plane, exact in bf16: the indices of the maxima are unambiguous
    "max_pool2d_with_indices": Case([(1, 16, 16, 32)], {"kernel": [3, 3], "stride": [2, 2], "dilation": [1, 1],
                                                        "padding": [1, 1, 1, 1], "ceil_mode": True},
                                    inputs=[distinct_in_planes]),
    "global_avg_pool2d": Case([(1, 8, 8, 32)]),
    "concatenate_heads": Case([(2, 4, 32, 48)]),
    "split_query_key_value_and_split_heads": Case([(2, 32, 512)], {"num_heads": 8, "num_kv_heads": 4,
                                                                   "transpose_key": True}),
    "quantize": Case([(2, 3, 32, 32)], {"output_type": Q_AXIS}),
    "dequantize": Case([(2, 3, 32, 32)], dtypes=[Q_AXIS], inputs=[stored]),
    "requantize": Case([(2, 32, 32)], {"output_type": Q_TENSOR}, dtypes=[Q_TENSOR_IN], inputs=[stored]),
    "quantize_unrolled": Case([(2, 3, 32, 32), (3,), (3,)], {"axis": 1, "output_type": Q_AXIS},
                              dtypes=[F32, F32, I32], inputs=[None, lambda s: SCALES, lambda s: ZERO_POINTS]),
    "dequantize_unrolled": Case([(2, 32, 32), (1,), (1,)], dtypes=[Q_TENSOR, F32, I32],
                                inputs=[stored, lambda s: torch.tensor([0.02]), lambda s: torch.tensor([-7])]),
    "requantize_unrolled": Case([(2, 32, 32), (1,), (1,), (1,), (1,)], {"output_type": Q_TENSOR},
                                dtypes=[Q_TENSOR_IN, F32, I32, F32, I32],
                                inputs=[stored, lambda s: torch.tensor([0.05]), lambda s: torch.tensor([3]),
                                        lambda s: torch.tensor([0.02]), lambda s: torch.tensor([-7])]),
    "upsample2d": Case([(1, 8, 8, 32)], {"scale_factor": 2, "mode": "nearest"}),
    "batch_norm_inference": Case([(2, 16, 8, 8)] + [(16,)] * 4, {"epsilon": 1e-5, "dimension": 1},
                                 inputs=[None, None, None, None, positive]),
    "batch_norm_training": Case([(2, 16, 8, 8)] + [(16,)] * 4, {"epsilon": 1e-5, "dimension": 1, "momentum": 0.1}),
    "layer_norm": Case([(32, 64), (64,), (64,)], {"normalized_shape": [64]}, named=("weight", "bias")),
    "rms_norm": Case([(32, 64), (64,)], {"normalized_shape": [64]}, named=("weight",)),
    "group_norm": Case([(1, 8, 8, 32), (32,), (32,)], {"num_groups": 4, "epsilon": 1e-3}, named=("weight", "bias")),
    "constant": Case([], {"value": torch.arange(64, dtype=F32).reshape(8, 8)}),
    "full": Case([], {"shape": [32, 32], "fill_value": 2.5}),
    "zeros": Case([], {"shape": [32, 32]}),
    "ones": Case([], {"shape": [32, 32]}),
    "arange": Case([], {"start": 0, "end": 32, "step": 1, "arange_dimension": 0, "shape": [32, 16]}),
    "empty": Case([], {"shape": [32, 32]}),
    "rand": Case([], {"size": [32, 32], "low": -1.0, "high": 1.0, "seed": 7}),
    "update_cache": Case([(1, 2, 32, 16), (1, 2, 1, 16), (1,)], {"batch_offset": 0}, dtypes=[F32, F32, I32],
                         inputs=[None, None, indices(32)]),
    # four users' tokens at their own positions (of 64), each user's two 32-row blocks distinct
    "paged_update_cache": Case([(8, 2, 32, 16), (1, 4, 2, 16), (4,), (4, 2)], dtypes=[F32, F32, I32, I32],
                               inputs=[None, None, lambda s: torch.randperm(64)[:4].to(I32), USER_BLOCKS]),
    "fill_cache": Case([(1, 2, 32, 16), (1, 2, 8, 16)], {"batch_offset": 0}),
    # a 40-token prompt through a page table of 4 distinct blocks (of 8, 32 rows each)
    "paged_fill_cache": Case([(8, 2, 32, 16), (1, 2, 40, 16), (1, 4)], dtypes=[F32, F32, I32],
                             inputs=[None, None, lambda s: torch.randperm(8)[:4].reshape(s).to(I32)]),
    # grouped-query attention: 8 query heads over 2 key/value heads
    "scaled_dot_product_attention": Case([(2, 8, 64, 32), (2, 2, 64, 32), (2, 2, 64, 32)], {"is_causal": True}),
    "scaled_dot_product_attention_decode": Case([(1, 4, 8, 32), (4, 2, 64, 32), (4, 2, 64, 32), (4,)],
                                                {"is_causal": True}, dtypes=[F32, F32, F32, I32],
                                                inputs=[None, None, None, indices(64)], named=("cur_pos_tensor",)),
    # two users, four distinct 32-row blocks each (of 8); decode positions anywhere in their 128 rows
    "paged_scaled_dot_product_attention_decode": Case(
        [(1, 2, 8, 32), (8, 2, 32, 32), (8, 2, 32, 32), (2, 4), (1, 2, 8, 32), (2,)], {"is_causal": True},
        dtypes=[F32, F32, F32, I32, F32, I32], inputs=[None, None, None, USER_BLOCKS, None, indices(128)],
        named=("cur_pos_tensor",)),
    # a 32-token chunk from position 64 on: it sees the 64 cached tokens before it and itself causally
    "chunked_scaled_dot_product_attention": Case(
        [(2, 4, 32, 32), (8, 2, 32, 32), (8, 2, 32, 32), (2, 4), (1,), (2, 4, 32, 32)], {"scale": 0.125},
        dtypes=[F32, F32, F32, I32, I32, F32], inputs=[None, None, None, USER_BLOCKS, lambda s: torch.tensor([64]), None]),
    # latent attention: one 64-wide cache, its first 32 features the values
    "paged_flash_multi_latent_attention_decode": Case(
        [(1, 2, 16, 64), (8, 1, 32, 64), (2, 4), (2,)], {"head_dim_v": 32, "is_causal": True},
        dtypes=[F32, F32, I32, I32], inputs=[None, None, USER_BLOCKS, indices(128)],
        named=("page_table", "cur_pos_tensor")),
    "mesh_shard": Case(SQUARE, {"shard_type": "devices", "shard_direction": "full_to_shard", "shard_shape": [1, 1],
                                "shard_dims": [0, 1]}),
    "all_gather": Case(SQUARE, {"all_gather_dim": 1, "cluster_axis": 1}),
    "all_reduce": Case(SQUARE, {"reduce_type": "sum", "cluster_axis": 1}),
    "all_reduce_async": Case(SQUARE, {"reduce_type": "sum", "cluster_axis": 1}),
    "reduce_scatter": Case(SQUARE, {"reduce_type": "sum", "scatter_dim": 1, "cluster_axis": 1}),
    "collective_permute": Case(SQUARE, {"source_target_pairs": torch.tensor([[0, 0]])}),
    "all_to_all": Case(SQUARE, {"split_dim": 0, "concat_dim": 1, "split_count": 1, "replica_groups": torch.tensor([[0]])}),
    "collective_broadcast": Case(SQUARE, {"replica_groups": torch.tensor([[0]])}),
    "mesh_partition": Case(SQUARE, {"dim": 0, "cluster_axis": 1}),
    "distributed_rms_norm": Case([(32, 64), (64,)], {"cluster_axis": 1, "epsilon": 1e-5}, named=("weight",)),
    # one chip's expert exchange: half the experts (random marks) held, the tokens of the others are zeros
    "all_to_all_dispatch": Case([(2, 16, 1, 64), (2, 16, 1, 4), (1, 1, 8, 1)], {"num_devices": 1, "cluster_axis": 1},
                                dtypes=[F32, I32, I32], inputs=[None, indices(8), lambda s: bits(s).to(I32)]),
    # experts owned by chip 0 or 1 (of the 1x1 mesh, only chip 0's tokens stay)
    "all_to_all_dispatch_metadata": Case([(1, 1, 32, 64), (1, 1, 32, 4), (1, 1, 32, 4), (1, 1, 1, 8)],
                                         {"num_devices": 1, "cluster_axis": 1}, dtypes=[F32, I32, F32, I32],
                                         inputs=[None, indices(8), None, lambda s: bits(s).to(I32)]),
    "all_to_all_combine": Case([(4, 2, 16, 64), (1, 2, 16, 2), (1, 1, 4, 1)],
                               {"num_devices": 1, "cluster_axis": 1, "num_experts_per_tok": 2, "output_shard_dim": 1},
                               dtypes=[F32, I32, I32], inputs=[None, indices(4), lambda s: torch.ones(s, dtype=I32)]),
    "moe_expert_token_remap": Case([(1, 2, 16, 8), (1, 1, 8, 1), (1, 2, 16, 2)], {"reduction_size": 8},
                                   dtypes=[F32, I32, I32], inputs=[None, lambda s: torch.ones(s, dtype=I32), indices(8)]),
    # one chip's experts (all 4 here), each with its dense token blocks on 4 x 3 worker cores, back to [K, T, H]
    "selective_reduce_combine": Case(
        [(3, 4, 4, 2, 32), (9, 12), (4, 36), (1, 4)],
        {"hidden_size": 96, "batch_size": 8, "seq_size": 1, "select_experts_k": 2, "experts": 4},
        dtypes=[F32, I32, I32, I32],
        inputs=[None, lambda s: COMBINE["records"], lambda s: COMBINE["maps"], lambda s: COMBINE["counts"]]),
    # a 1x1 mesh's expert stage: every token's 2 experts (of 2, on chip 0), silu FFN from packed weights
    "moe_compute": Case(
        [(1, 32, 64), (1, 32, 2), (1, 32, 2), (1, 2), (1, 2, 64, 32), (1, 2, 64, 32), (1, 2, 32, 64)],
        {"layer_id": 0, "output_height_shard_dim": 4, "intermediate_size": 32, "cluster_axis": 1},
        dtypes=[F32, I32, F32, I32, F32, F32, F32],
        inputs=[None, lambda s: torch.stack([torch.randperm(2) for _ in range(32)]).reshape(s).to(I32), None,
                lambda s: torch.zeros(s, dtype=I32), None, None, None]),
    "adamw": Case([(1, 1, 32, 64)] * 5, {"lr": 1e-2, "beta1": 0.9, "beta2": 0.999, "beta1_pow": 0.729,
                                          "beta2_pow": 0.997003, "epsilon": 1e-8, "weight_decay": 0.01},
                  inputs=[None, lambda s: torch.randn(s).bfloat16().float(), unit, positive, positive]),
    "sdpa_fw": Case([(1, 4, 32, 64), (1, 2, 32, 64), (1, 2, 32, 64), (1, 1, 32, 32)],
                    {"mask_type": "arbitrary", "return_intermediates": True}, inputs=[None, None, None, bits]),
    "sdpa_bw": Case([(1, 2, 32, 64)] * 5 + [(1, 2, 32, 32)], {"mask_type": "causal"},
                    inputs=[seeded(4), causal_forward("out"), seeded(1), seeded(2), seeded(3), causal_forward("lse")]),
    "to_layout": Case(SQUARE),
    "get_dimension_size": Case([(32, 64)], {"dimension": 1}),
}


def test_every_ttir_op_has_a_builder_method_a_golden_and_a_case():
    assert set(GOLDEN_MAPPINGS) | (set(MESH_GOLDENS) & set(TTIR_BY_NAME)) | OPAQUE == set(TTIR_BY_NAME)
    assert set(CASES) == set(TTIR_BY_NAME) - OPAQUE
    assert all(callable(getattr(TTIRBuilder, name, None)) for name in TTIR_BY_NAME)


def module_for(name: str, case: Case):
    dtypes = case.dtypes or [F32] * len(case.shapes)

    def module(builder: TTIRBuilder):
        @builder.func(case.shapes, dtypes)
        def op_under_test(*args):
            *inputs, builder = args
            if case.inputs:
                builder.set_goldens({v: fn for v, fn in zip(inputs, case.inputs) if fn is not None})
            if case.list_operand:
                return getattr(builder, name)(inputs, **case.kwargs)
            positional = inputs[:len(inputs) - len(case.named)]
            by_name = dict(zip(case.named, inputs[len(positional):]))
            return getattr(builder, name)(*positional, **by_name, **case.kwargs)
    module.__name__ = f"ttir_{name}"
    return module


@pytest.mark.parametrize("name", sorted(CASES))
def test_op_compiles_and_matches_its_golden(name, tmp_path):
    report = compile_and_execute_ttir(module_for(name, CASES[name]), artifact_dir=str(tmp_path),
                                      enable_intermediate_verification=True)
    checked = report["program_index_0"]
    assert "output_0" in checked
    assert all(entry["actual_pcc"] >= 0.99 for entry in checked.values()), checked


BF16_OPS = ["add", "multiply", "relu", "exp", "sigmoid", "matmul", "linear", "softmax", "sum", "mean",
            "layer_norm", "rms_norm", "conv2d", "max_pool2d", "reshape", "permute", "concat", "embedding"]


@pytest.mark.parametrize("name", BF16_OPS)
def test_op_in_bf16_matches_its_golden(name, tmp_path):
    """bf16 in, bf16 out: the device rounds every op's output to bf16 as the golden does; PCC >= 0.99."""
    case = CASES[name]
    dtypes = [torch.bfloat16 if d == F32 else d for d in (case.dtypes or [F32] * len(case.shapes))]
    bf16_case = Case(case.shapes, case.kwargs, dtypes, case.inputs, case.list_operand, case.named)
    report = compile_and_execute_ttir(module_for(name, bf16_case), artifact_dir=str(tmp_path),
                                      enable_intermediate_verification=True)
    assert all(entry["actual_pcc"] >= 0.99 for entry in report["program_index_0"].values())


@pytest.mark.parametrize("name", ["add", "exp", "matmul", "softmax"])
def test_op_hoisted_to_the_cpu_matches_its_golden(name, tmp_path):
    """`unit_attrs=["ttir.should_hoist"]` runs the op as a ttcore.cpu_module function on host tensors."""
    case = CASES[name]
    case = Case(case.shapes, {**case.kwargs, "unit_attrs": ["ttir.should_hoist"]}, case.dtypes, case.inputs,
                case.list_operand, case.named)
    report = compile_and_execute_ttir(module_for(name, case), artifact_dir=str(tmp_path),
                                      enable_intermediate_verification=True)
    assert "ttcore.cpu_module" in next(tmp_path.rglob("*_ttnn.mlir")).read_text()
    assert len(report["program_index_0"]) == 2  # the hoisted op and the output
    assert all(entry["actual_pcc"] >= 0.99 for entry in report["program_index_0"].values())


@pytest.mark.parametrize("shapes, dim", [([(5, 40), (3, 40)], 0), ([(4, 6, 40), (4, 6, 7)], -1), ([(40,), (9,)], 0)])
def test_torch_style_gather_matches_its_golden(shapes, dim, tmp_path):
    """ttir.gather in torch.gather's form (`dim`; rank 1 runs on (1, n) views) computes what torch.gather does."""
    high = shapes[0][dim]
    case = Case(shapes, {"dim": dim}, dtypes=[F32, I32], inputs=[None, indices(high)])
    report = compile_and_execute_ttir(module_for("gather", case), artifact_dir=str(tmp_path),
                                      enable_intermediate_verification=True)
    assert all(entry["actual_pcc"] >= 0.99 for entry in report["program_index_0"].values())


# StableHLO's form with batching dims: result[b, s, :] = operand[b, index[b, s, 0], :]
BATCHED_GATHER = {"offset_dims": [2], "collapsed_slice_dims": [1], "operand_batching_dims": [0],
                  "start_indices_batching_dims": [0], "start_index_map": [1], "index_vector_dim": 2,
                  "slice_sizes": [1, 1, 4]}


def test_stablehlo_gather_golden_follows_the_spec():
    """The golden's StableHLO gather (written apart from the simulator's kernel) against the spec's cases worked by
    hand: batching dims, and windows whose starts are clamped into the operand, laid out around the batch dims."""
    golden = GOLDEN_MAPPINGS["gather"]
    operand, index = torch.randn(3, 10, 4), torch.randint(0, 10, (3, 5, 1))
    got = golden({"input": operand, "start_indices": index}, {"dim": None, **BATCHED_GATHER})
    assert torch.equal(got, torch.stack([operand[b, index[b, :, 0]] for b in range(3)]))
    # windows of 3 x 2 over a 6 x 5 operand, starts (row, col) clamped to [0, 3] x [0, 3]; result (3, 4, 2)
    operand, starts = torch.arange(30.0).reshape(6, 5), torch.tensor([[-2, 1], [5, 9], [2, 2], [0, 4]])
    windows = {"dim": None, "offset_dims": [0, 2], "collapsed_slice_dims": [], "operand_batching_dims": [],
               "start_indices_batching_dims": [], "start_index_map": [0, 1], "index_vector_dim": 1,
               "slice_sizes": [3, 2]}
    got = golden({"input": operand, "start_indices": starts}, windows)
    clamped = [(0, 1), (3, 3), (2, 2), (0, 3)]
    assert torch.equal(got, torch.stack([operand[r:r + 3, c:c + 2] for r, c in clamped], 1))


def test_gather_with_batching_dims_matches_its_golden(tmp_path):
    """Each index vector reads its own batch of the operand: the kernel once started every slice at batch 0 (and a
    golden that called the same function agreed with it)."""
    case = Case([(3, 10, 4), (3, 5, 1)], BATCHED_GATHER, dtypes=[F32, I32], inputs=[None, indices(10)])
    report = compile_and_execute_ttir(module_for("gather", case), artifact_dir=str(tmp_path),
                                      enable_intermediate_verification=True)
    assert all(entry["actual_pcc"] >= 0.99 for entry in report["program_index_0"].values())


@pytest.mark.parametrize("name", ["argmax", "prod"])
def test_reduction_over_several_dims_matches_its_golden(name, tmp_path):
    """TTNN's argmax and prod take one dimension: several are reduced in turn (prod) or merged into one (argmax)."""
    # 32 outputs of 32 factors near 1, seeded: PCC over a handful of outputs swung with the draw
    near_one = lambda s: torch.rand(s, generator=torch.Generator().manual_seed(0)) * 0.2 + 0.9
    case = Case([(4, 32, 8)], {"dim_arg": [0, 2], "keep_dim": True}, inputs=[near_one])
    report = compile_and_execute_ttir(module_for(name, case), artifact_dir=str(tmp_path),
                                      enable_intermediate_verification=True)
    assert all(entry["actual_pcc"] >= 0.99 for entry in report["program_index_0"].values())


@pytest.mark.parametrize("name", [n for n in sorted(CASES) if "quantize" in n])
def test_quantization_is_exact(name, tmp_path):
    """Quantized values are integers: each one within a rounding step of its golden (PCC misses zero points)."""
    report = compile_and_execute_ttir(module_for(name, CASES[name]), artifact_dir=str(tmp_path), check_atol=True,
                                      atol=1.0, enable_intermediate_verification=True)
    assert all(entry["max"] <= 1.0 for entry in report["program_index_0"].values())


@pytest.mark.parametrize("reduce", ["sum", "prod", "max", "min"])
def test_scatter_reduces_repeated_indices(reduce, tmp_path):
    """Source rows sent to the same input row (4 rows among 32 sources) combine with each other and the input."""
    case = Case([(8, 16), (32, 16), (32, 16)], {"dim": 0, "scatter_reduce_type": reduce}, dtypes=[F32, I32, F32],
                inputs=[positive, lambda s: torch.randint(0, 4, s, dtype=I32), positive])
    report = compile_and_execute_ttir(module_for("scatter", case), artifact_dir=str(tmp_path),
                                      enable_intermediate_verification=True)
    assert all(entry["actual_pcc"] >= 0.99 for entry in report["program_index_0"].values())


def test_paged_fill_cache_takes_each_batch_rows_page_table_row(tmp_path):
    """Two prompts, each through the page table row its batch_idx_tensor entry names (rows 3 and 1 of 4)."""
    blocks = torch.randperm(16)[:8].reshape(4, 2).to(I32)
    case = Case([(16, 2, 32, 16), (2, 2, 64, 16), (4, 2), (2,)], dtypes=[F32, F32, I32, I32],
                inputs=[None, None, lambda s: blocks, lambda s: torch.tensor([3, 1], dtype=I32)])
    report = compile_and_execute_ttir(module_for("paged_fill_cache", case), artifact_dir=str(tmp_path),
                                      enable_intermediate_verification=True)
    assert all(entry["actual_pcc"] >= 0.99 for entry in report["program_index_0"].values())


@pytest.mark.parametrize("name", ["layer_norm", "rms_norm"])
def test_norm_over_several_trailing_dims_matches_its_golden(name, tmp_path):
    """TTNN normalizes the last dimension: a two-dimensional normalized_shape is flattened into one and back."""
    case = Case([(4, 8, 32), (8, 32), (8, 32)], {"normalized_shape": [8, 32]}, named=("weight", "bias"))
    report = compile_and_execute_ttir(module_for(name, case), artifact_dir=str(tmp_path),
                                      enable_intermediate_verification=True)
    assert all(entry["actual_pcc"] >= 0.99 for entry in report["program_index_0"].values())


@pytest.mark.parametrize("bias", [(1,), (64,)])
def test_linear_of_two_vectors_matches_its_golden(bias, tmp_path):
    """A dot product plus a one-value bias stays one ttnn.linear; a wider bias is added after the matmul."""
    case = Case([(64,), (64,), bias])
    report = compile_and_execute_ttir(module_for("linear", case), artifact_dir=str(tmp_path),
                                      enable_intermediate_verification=True)
    assert all(entry["actual_pcc"] >= 0.99 for entry in report["program_index_0"].values())


ATTENTION_CASES = {
    # a sink logit per head, scaled neither in TTIR nor (after the conversion divides it) on the device
    "sink_and_window": Case([(1, 8, 64, 32), (1, 2, 64, 32), (1, 2, 64, 32), (1, 8, 1, 1)],
                            {"is_causal": True, "scale": 0.25, "sliding_window_size": 16}, named=("attention_sink",)),
    # one query token: TTNN's decode op, the [B, 1, 1, Sk] mask permuted and repeated over the heads
    "one_query_masked": Case([(2, 8, 1, 32), (2, 2, 64, 32), (2, 2, 64, 32), (2, 1, 1, 64)], {"is_causal": False},
                             named=("attention_mask",)),
    # a 48-wide head: zero-padded to 64 for the kernel, the scale kept at 1/sqrt(48)
    "padded_head": Case([(1, 4, 32, 48), (1, 4, 32, 48), (1, 4, 32, 48), (1, 1, 32, 32)], {"is_causal": False},
                        named=("attention_mask",)),
}


@pytest.mark.parametrize("form", sorted(ATTENTION_CASES))
def test_attention_forms_match_their_golden(form, tmp_path):
    # the fused kernels (--ttnn-decomposition would rebuild them from primitive ops)
    report = compile_and_execute_ttir(module_for("scaled_dot_product_attention", ATTENTION_CASES[form]),
                                      artifact_dir=str(tmp_path), enable_intermediate_verification=True,
                                      pipeline_options=["enable-ttnn-decomposition-pass=false"])
    assert all(entry["actual_pcc"] >= 0.99 for entry in report["program_index_0"].values())
    ttnn_ir = next(tmp_path.rglob("*_ttnn.mlir")).read_text()
    assert ("scaled_dot_product_attention_decode" in ttnn_ir) == (form == "one_query_masked")


def test_channel_first_conv3d_with_replicated_edges_matches_its_golden(tmp_path):
    """An NCDHW conv3d is permuted to TTNN's NDHWC and back; replicate padding repeats the edge values."""
    case = Case([(1, 4, 5, 6, 7), (8, 4, 3, 3, 3)], {"stride": 1, "padding": 1, "groups": 1, "channel_dim": 1,
                                                     "depth_dim": 2, "height_dim": 3, "width_dim": 4,
                                                     "padding_mode": "replicate"})
    report = compile_and_execute_ttir(module_for("conv3d", case), artifact_dir=str(tmp_path),
                                      enable_intermediate_verification=True)
    assert all(entry["actual_pcc"] >= 0.99 for entry in report["program_index_0"].values())
    assert '"ttnn.prepare_conv3d_weights"' in next(tmp_path.rglob("*_ttnn.mlir")).read_text()


def test_conv2d_with_four_paddings_matches_its_golden(tmp_path):
    """(top, left, bottom, right) padding reaches TTNN as (top, bottom, left, right), as upstream orders it."""
    case = Case([(1, 8, 8, 16), (32, 16, 3, 3)], {"stride": 1, "padding": [2, 0, 1, 1], "dilation": 1, "groups": 1})
    report = compile_and_execute_ttir(module_for("conv2d", case), artifact_dir=str(tmp_path),
                                      enable_intermediate_verification=True)
    assert all(entry["actual_pcc"] >= 0.99 for entry in report["program_index_0"].values())
    assert "padding = array<i32: 2, 1, 0, 1>" in next(tmp_path.rglob("*_ttnn.mlir")).read_text()
