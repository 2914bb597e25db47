"""`--ttnn-workaround`: give TTNN ops the operand layouts and data types their kernels accept.

Some TTNN kernels only take row-major operands or particular data types (upstream's operand
workarounds). For each such op the table below names what each operand and the result must be; the
pass converts an operand with a `ttnn.to_tensor_spec` before the op, and converts a changed result back
afterwards, so the function computes what it did, with the precision the hardware gives. Canonicalization
merges the conversions that meet; --ttnn-decompose-layouts breaks the rest into primitive moves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir import hardware
from ttmlir.dialects import ttcore, ttnn
from ttmlir.ir.props import KINDS, int_values, scalar
from ttmlir.ir.syntax import enum
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttnn.ttnn_decomposition import like
from ttmlir.transforms.ttnn.ttnn_integer_workarounds import (
    INTEGER_DTYPES, NARROW_INTEGER_DTYPES, U16_MAX, integer_prod_as_multiplies, word_permute_in_halves,
    word_reduction_in_parts, word_sort_by_halves)
from ttmlir.runtime.op_model import TensorSpec
from ttmlir.transforms.ttnn.optimizer.tensor_specs import layout_of
from ttmlir.transforms.ttnn.ttnn_utils import bind_operand, data_type, device_of, helper_location, ttnn_op, with_fields
from ttmlir.spatial import round_up


@dataclass(frozen=True)
class Want:
    """What a tensor must be for the kernel: a layout ("tile"/"row_major"), a data type, a buffer."""

    layout: str | None = None
    dtype: str | None = None
    buffer: str | None = None


ROW_BF16, ROW_U16 = Want("row_major", "bf16"), Want("row_major", "u16")
Workaround = Callable[[TTNNOp], dict[str, Want]]  # operand name or "result" -> what it must be


def _embedding(op: TTNNOp) -> dict[str, Want]:
    """The kernel looks up rows of a row-major bf16 table by u32 ids."""
    return {"input": Want("row_major", "u32"), "weight": ROW_BF16, "result": Want(dtype="bf16")}


def _embedding_bw(op: TTNNOp) -> dict[str, Want]:
    bf16 = Want(dtype="bf16")
    return {"input": Want("row_major", "u32"), "weight": bf16, "in_gradient": bf16, "result": bf16}


def _full(op: TTNNOp) -> dict[str, Want]:
    """ttnn.full makes no rank-1 tiles: fill row-major and tilize."""
    result = op.results[0]
    rank1 = len(result.type.get_shape()) == 1 and result.type.encoding.is_tiled
    return {"result": Want("row_major")} if rank1 else {}


def _slice(op: TTNNOp) -> dict[str, Want]:
    """A strided slice reads unsigned integers narrower than 32 bits as u32; begins off the tile grid need
    row-major data."""
    if any(s > 1 for s in int_values(op.prop("step"))) and data_type(op.operands[0]) in ("u16", "u8"):
        return {"input": Want(dtype="u32"), "result": Want(dtype="u32")}
    begins = int_values(op.prop("begins"))
    if op.operands[0].type.encoding.is_tiled and any(b % ttnn.TILE for b in begins[-2:]):
        return {"input": Want("row_major"), "result": Want("row_major")}
    return {}


def _slice_dynamic(op: TTNNOp) -> dict[str, Want]:
    """Slicing by tensor bounds reads row-major data (u32 for narrower unsigned integers) and u32 bounds."""
    data = Want("row_major", "u32" if data_type(op.operands[0]) in ("u16", "u8") else None)
    return {"input": data, "begins": Want(dtype="u32"), "ends": Want(dtype="u32"), "result": data}


def _scatter(op: TTNNOp) -> dict[str, Want]:
    """Tiled f32, bf16 or 32-bit integer data scatters row-major (the tiled kernel caps the scatter axis)."""
    def row_major(value: SSAValue) -> bool:
        return value.type.encoding.is_tiled and data_type(value) in ("f32", "bf16", "si32", "u32")
    data, index, source = op.operands
    wants = {"index": Want("row_major")} if row_major(index) else {}
    if row_major(data) or row_major(source):
        wants.update(dict.fromkeys(("input", "source", "result"), Want("row_major")))
    return wants


def _on_host(op: TTNNOp) -> dict[str, Want]:
    """Spreading a tensor over the mesh or gathering it back happens on the host."""
    host = Want("row_major", buffer="system_memory")
    return {"input": host, "result": host}


def _row_major_bf16(op: TTNNOp) -> dict[str, Want]:
    """Pooling and upsampling read and write row-major bf16."""
    return {"input": Want("row_major", "bf16"), "result": Want("row_major", "bf16")}


def _pool_with_indices(op: TTNNOp) -> dict[str, Want]:
    """Pooling with indices writes its indices as row-major u16."""
    return {**_row_major_bf16(op), "result_indices": Want("row_major", "u16")}


def _where(op: TTNNOp) -> dict[str, Want]:
    """The predicate must have the data type of the values it selects. 32-bit integers are selected in their own
    type (the ternary kernel has si32/u32 lanes; through f32, values past 2^24 would round: u32 4294967295 becomes
    0); 8/16-bit integers, which it has no lanes for, are selected as f32, which holds them exactly."""
    wanted = data_type(op.operands[1])
    if wanted in NARROW_INTEGER_DTYPES:
        as_float = Want(dtype="f32")
        return {"first": as_float, "second": as_float, "third": as_float, "result": as_float}
    return {"first": Want(dtype=wanted)} if data_type(op.operands[0]) != wanted else {}




def _sort(op: TTNNOp) -> dict[str, Want]:
    """Sort takes bf16 or u16 values (integers as u16, f32 as bf16); its indices are u16 unless the last dimension,
    padded to a power of two for the bitonic sort, reaches 65535."""
    element = data_type(op.operands[0])
    values = "u16" if element in INTEGER_DTYPES else "bf16" if element == "f32" else None
    padded = 1 << max(op.operands[0].type.get_shape()[-1] - 1, 0).bit_length()
    indices = "u16" if padded < U16_MAX else "u32"
    return {"input": Want(dtype=values), "values": Want(dtype=values), "indices": Want(dtype=indices)}


def _topk(op: TTNNOp) -> dict[str, Want]:
    """Top-k runs on bf16 (or bfp8) values; its indices are u16 unless the dimension, padded to whole tiles,
    exceeds 65535."""
    shape = op.operands[0].type.get_shape()
    padded = _tiles(shape[int_values(op.prop("dim"))[0] % len(shape)])
    values = None if data_type(op.operands[0]) in ("bf16", "bfp_bf8") else "bf16"
    indices = "u16" if padded <= U16_MAX else "u32"
    return {"input_tensor": Want(dtype=values), "values": Want(dtype=values), "indices": Want(dtype=indices)}


def _gather(op: TTNNOp) -> dict[str, Want]:
    """torch-style gather reads tiled input and index."""
    return {} if op.prop("dim") is None else {"input": Want("tile"), "start_indices": Want("tile")}


def _both(want: Want, when: Callable[[TTNNOp], bool] = lambda op: True) -> Workaround:
    """The same conversion of the input and the result, when `when` holds."""
    return lambda op: {"input": want, "result": want} if when(op) else {}


def _integer_input(op: TTNNOp) -> bool:
    return data_type(op.operands[0]) in INTEGER_DTYPES


def _front_padded(op: TTNNOp) -> bool:
    """Padding before a dimension's data (not only after it) moves tiled data across tiles: pad row-major."""
    return op.operands[0].type.encoding.is_tiled and any(int_values(op.prop("padding"))[0::2])


def _wants(**wants: Want) -> Workaround:
    """The same conversions whatever the op's operands are."""
    return lambda op: wants


SDPA_DTYPES = ("bf16", "bfp_bf8", "bfp_bf4")


def _argmax(op: TTNNOp) -> dict[str, Want]:
    """argmax reads row-major data and writes row-major u32 indices."""
    return {"input": Want("row_major"), "result": Want("row_major", "u32")}


WORKAROUNDS: dict[str, Workaround] = {
    "gather": _gather, "argmax": _argmax,
    "tanh": _both(Want(dtype="bf16")),  # accurate tanh runs in bf16 (tt-metal#22593)
    "erf": _both(Want(dtype="bf16"), _integer_input),  # erf's SFPU reads integer lanes as floats
    "reshape": _both(Want(dtype="si32"), lambda op: data_type(op.operands[0]) == "u8"),  # no u8 reshape
    "permute": _both(Want(dtype="f32"), lambda op: data_type(op.operands[0]) in ("si32", "u32")),
    "pad": _both(Want("row_major"), _front_padded),
    **{name: _both(Want(dtype="f32"), lambda op: data_type(op.operands[0]) not in ("f32", "bf16"))
       for name in ("sum", "mean", "max", "min")},
    "prod": _both(Want(dtype="bf16")),  # a float kernel (short integer products are multiplies, below)
    "sort": _sort, "topk": _topk,
    "embedding": _embedding, "embedding_bw": _embedding_bw, "max_pool2d": _row_major_bf16,
    "max_pool2d_with_indices": _pool_with_indices, "upsample": _row_major_bf16,
    "full": _full, "slice_static": _slice, "slice_dynamic": _slice_dynamic,
    "scatter": _scatter, "where": _where,
    "distribute_tensor": _on_host, "aggregate_tensor": _on_host,
    # ttnn.experimental.gelu_bw and ttnn.dropout take bf16 only
    "gelu_bw": lambda op: {"lhs": Want(dtype="bf16"), "rhs": Want(dtype="bf16"), "result": Want(dtype="bf16")},
    "dropout": _both(Want(dtype="bf16")),
    "paged_fill_cache": lambda op: {name: Want("row_major") for name, values in op.operand_groups().items()
                                    if name in ("page_table", "batch_idx_tensor") and values and values[0].type.encoding.is_tiled},
    # tt-metal's SDPA kernels compute in bf16 (flash MLA also reads block floats); paged ones read their page
    # table and positions row-major
    **dict.fromkeys(("scaled_dot_product_attention", "scaled_dot_product_attention_decode"),
                    lambda op: dict.fromkeys(("query", "key", "value", "attention_mask", "result"), Want(dtype="bf16"))),
    "flash_mla_prefill": lambda op: {name: Want(dtype="bf16") for name, values in op.operand_groups().items()
                                     if name in ("query", "key", "value", "attention_mask") and values
                                     and data_type(values[0]) not in SDPA_DTYPES} | (
        {"result": Want(dtype="bf16")} if data_type(op.operands[0]) not in SDPA_DTYPES else {}),
    # the sparse matmul kernel reads its mask as 16-bit words: non-zero bf16 keeps every non-zero mask value
    "sparse_matmul": _wants(sparsity=Want("row_major", "bf16")),
    # the expert exchange moves rows of bf16 tokens and u16 expert ids / marks
    "all_to_all_dispatch": _wants(input_tensor=ROW_BF16, expert_indices=ROW_U16, expert_mapping=ROW_U16,
                                  dispatched=ROW_BF16, metadata=ROW_U16),
    # top-k/top-p sampling: bf16 tiles of candidates, row-major indices and per-user parameters, u32 tokens out
    "sampling": _wants(input_values=Want("tile", "bf16"), input_indices=Want("row_major"),
                       k=Want("row_major", "u32"), p=ROW_BF16, temp=ROW_BF16, result=Want("row_major", "u32")),
    "all_to_all_dispatch_metadata": _wants(input_tensor=Want("row_major", "bf16", "l1"),
                                           expert_indices=Want("row_major", "u16", "l1"),
                                           expert_scores=Want("row_major", "bf16", "l1"), expert_mapping=ROW_U16,
                                           dispatched=ROW_BF16, indices=ROW_U16, scores=ROW_BF16),
    "all_to_all_combine": _wants(input_tensor=ROW_BF16, expert_metadata=ROW_U16, expert_mapping=ROW_U16,
                                 result=ROW_BF16),
    "moe_expert_token_remap": _wants(topk_tensor=ROW_BF16, expert_mapping=ROW_U16, expert_metadata=ROW_U16,
                                     mapping=ROW_BF16, reduced=ROW_U16),
    # the fused MoE kernels tilize their row-major bf16 tokens themselves and read u16 expert maps; moe_compute's
    # combine writes row-major bf16 to DRAM, moe_gpt keeps its inputs and u32 routing records in L1 (and its
    # tilized blocks, height-sharded there upstream); the packers read row-major weights
    "moe_compute": _wants(tilize_input_tensor=ROW_BF16, tilize_expert_mapping_tensor=ROW_U16,
                          combine_output=Want("row_major", "bf16", "dram")),
    "moe_gpt": _wants(input_tensor=Want("row_major", None, "l1"), expert_indices=Want("row_major", "u16", "l1"),
                      expert_scores=Want("row_major", None, "l1"), expert_mapping=Want("row_major", "u16", "l1"),
                      **dict.fromkeys(("token_counts", "activation_records", "token_indices"),
                                      Want("row_major", "u32", "l1")),
                      tilize_out=Want("tile", None, "l1"), tilize_out_rm=Want("row_major", None, "l1")),
    **dict.fromkeys(("prepare_moe_compute_w0_w1_weights", "prepare_moe_compute_w2_weights"),
                    _wants(**dict.fromkeys(("w0", "w1", "w2", "bias_0", "bias_1", "bias_2"), Want("row_major")))),
    # tt-metal's conv3d reads and writes bf16
    "conv3d": lambda op: {name: Want(dtype="bf16") for name, values in op.operand_groups().items()
                          if name in ("input", "weight", "bias") and values and data_type(values[0]) != "bf16"} | (
        {"result": Want(dtype="bf16")} if data_type(op.results[0]) != "bf16" else {}),
    # ttml's adamw reads a tiled bf16 gradient from DRAM (the operands it updates in place cannot be converted: a
    # converted copy would take the update)
    "adamw": _wants(grad=Want("tile", "bf16", "dram")),
    # ttml's attention kernels read and write bf16 data and keep the log-sum-exp rows in f32
    "sdpa_fw": _wants(**dict.fromkeys(("query", "key", "value", "attention_mask", "result"), Want(dtype="bf16")),
                      intermediates=Want(dtype="f32")),
    "sdpa_bw": _wants(**dict.fromkeys(("grad_output", "attn_output", "query", "key", "value", "attention_mask",
                                       "grad_query", "grad_key", "grad_value"), Want(dtype="bf16")),
                      intermediates=Want(dtype="f32")),
    "paged_scaled_dot_product_attention_decode": _wants(page_table=Want("row_major"), cur_pos_tensor=Want("row_major")),
    "chunked_scaled_dot_product_attention": _wants(page_table=Want("row_major"), chunk_start_idx=Want("row_major")),
    "paged_flash_multi_latent_attention_decode": _wants(page_table=Want("row_major", "si32"),
                                                        cur_pos_tensor=Want("row_major")),
}


def _prompt_padded_to_tiles(op: TTNNOp) -> None:
    """fill_cache writes whole tiles: a prompt whose length is no tile multiple is padded with zeros first, when
    the padded prompt still fits the cache (tt-metal#42779)."""
    prompt, cache = op.operand_groups()["input"][0], op.operand_groups()["cache"][0]
    padded = _tiles(prompt.type.get_shape()[2])
    if padded != prompt.type.get_shape()[2] and (op.ROW.name != "fill_cache" or padded <= cache.type.get_shape()[2]):
        _pad_operand(op, prompt, 2, padded)


def _head_dim_padded_to_tiles(op: TTNNOp) -> None:
    """SDPA reads whole tiles of the head dimension: query, key and value are zero-padded to a tile multiple
    (zeros change no dot product), the scale kept at the unpadded 1/sqrt(D), and the result sliced back."""
    query = op.operand_groups()["query"][0]
    size = query.type.get_shape()[3]
    if size % ttnn.TILE == 0:
        return
    if op.prop("scale") is None:
        op.properties["scale"] = KINDS["f32"].build(1 / math.sqrt(size))
    for name in ("query", "key", "value"):
        _pad_operand(op, op.operand_groups()[name][0], 3, _tiles(size))
    original = op.results[0].type
    _widened(op, op.results[0], (*original.get_shape()[:3], _tiles(size)))


def _bilinear_channels_padded(op: TTNNOp) -> None:
    """Bilinear upsampling reads whole tiles of channels: they are zero-padded to a tile multiple (each channel is
    interpolated alone) and the result sliced back."""
    value = op.operands[0]
    channels = value.type.get_shape()[3]
    if op.prop("mode") is None or op.prop("mode").data != "bilinear" or channels % ttnn.TILE == 0:
        return
    _pad_operand(op, value, 3, _tiles(channels))
    _widened(op, op.results[0], (*op.results[0].type.get_shape()[:3], _tiles(channels)))


def _linear_bias_added_apart(op: TTNNOp) -> list[Operation] | None:
    """The fused linear adds the first row of its bias tile to every row: a weight with batch dims, or a bias with
    more than one row (or not as wide as the product), runs as a matmul, an add broadcasting the bias, a reshape
    to the declared result and the activation, if any."""
    from ttmlir.dialects.ttir_shapes import broadcast_shape, matmul_product_shape

    groups = op.operand_groups()
    if not groups["bias"]:
        return None
    weight, bias = groups["b"][0].type.get_shape(), groups["bias"][0].type.get_shape()
    product = matmul_product_shape(op) or (1,)
    if not any(d > 1 for d in weight[:-2]) and not any(d > 1 for d in bias[:-1]) and bias[-1] == product[-1]:
        return None
    result = op.results[0].type
    props = {k: v for k, v in op.properties.items() if k not in ("activation", "operandSegmentSizes")}
    new = [ttnn_op("matmul", [groups["a"][0], groups["b"][0]], props, [like(result, product)], op)]
    new.append(ttnn_op("add", [new[-1].results[0], groups["bias"][0]], {},
                       [like(result, broadcast_shape(product, bias))], op))
    if tuple(new[-1].results[0].type.get_shape()) != tuple(result.get_shape()):
        new.append(ttnn_op("reshape", [new[-1].results[0]], {"shape": KINDS["i32_array"].build(list(result.get_shape()))},
                           [result], op))
    if op.prop("activation") is not None:
        new.append(ttnn_op(op.prop("activation").data, [new[-1].results[0]], {}, [result], op))
    for helper in new:
        helper.location = helper_location(op.location, "decomp_" + helper.name.split(".")[1])
    Rewriter.replace_op(op, new)
    return new


def _group_norm_channels_padded(op: TTNNOp) -> None:
    """The group norm kernel reads whole tiles of channels: input, weight and bias are zero-padded to a multiple of
    both the tile and the group size, the added channels forming groups of their own (zeros normalize to zeros),
    and the result sliced back."""
    groups = op.operand_groups()
    shape = list(op.operands[0].type.get_shape())
    count = op.prop("num_groups").value.data
    if groups["input_mask"] or len(shape) != 4 or shape[3] % ttnn.TILE == 0 or count <= 0 or shape[3] % count:
        return
    per_group = shape[3] // count
    padded = round_up(shape[3], math.lcm(ttnn.TILE, per_group))
    _pad_operand(op, op.operands[0], 3, padded)
    for name in ("weight", "bias"):
        for value in groups[name]:
            _pad_operand(op, value, len(value.type.get_shape()) - 1, padded)
    op.properties["num_groups"] = KINDS["i64"].build(padded // per_group)
    _widened(op, op.results[0], (*shape[:3], padded))


def _split_heads_apart(op: TTNNOp) -> list[Operation] | None:
    """The fused QKV split cuts heads on tile boundaries: heads of a size that is no tile multiple are sliced out
    of the hidden dim, reshaped to [B, S, heads, D] and permuted to [B, heads, S, D] (the key to [B, heads, D, S]
    when transposed)."""
    groups = op.operand_groups()
    batch, heads, seq, size = op.results[0].type.get_shape()
    if size % ttnn.TILE == 0:
        return None
    kv_heads = op.results[2].type.get_shape()[1]
    array, new = KINDS["i32_array"].build, []

    def emit(name: str, value: SSAValue, props: dict, shape) -> SSAValue:
        new.append(ttnn_op(name, [value], props, [like(value.type, shape)], op))
        return new[-1].results[0]

    def cut(value: SSAValue, start: int, width: int) -> SSAValue:
        shape = list(value.type.get_shape())
        return emit("slice_static", value, {"begins": array([0, 0, start]), "ends": array([*shape[:2], start + width]),
                                            "step": array([1, 1, 1])}, [*shape[:2], width])

    def to_heads(value: SSAValue, count: int) -> SSAValue:
        return emit("reshape", value, {"shape": array([batch, seq, count, size])}, [batch, seq, count, size])

    def permuted(value: SSAValue, perm: list[int]) -> SSAValue:
        shape = value.type.get_shape()
        return emit("permute", value, {"permutation": KINDS["i64_darray"].build(perm)}, [shape[p] for p in perm])

    key_order = [0, 2, 3, 1] if scalar(op.prop("transpose_key")) else [0, 2, 1, 3]
    source = groups["input_tensor"][0]
    if not groups["kv_input_tensor"]:  # Q | K | V in one hidden dim: all slices, then all reshapes and permutes
        parts = [cut(source, 0, heads * size), cut(source, heads * size, kv_heads * size),
                 cut(source, (heads + kv_heads) * size, kv_heads * size)]
        parts = [to_heads(p, n) for p, n in zip(parts, (heads, kv_heads, kv_heads))]
        outs = [permuted(p, perm) for p, perm in zip(parts, ([0, 2, 1, 3], key_order, [0, 2, 1, 3]))]
    else:  # Q alone, K | V from the second input
        query = permuted(to_heads(source, heads), [0, 2, 1, 3])
        kv = groups["kv_input_tensor"][0]
        key, value = cut(kv, 0, kv_heads * size), cut(kv, kv_heads * size, kv_heads * size)
        if scalar(op.prop("transpose_key")):
            key, value = to_heads(key, kv_heads), to_heads(value, kv_heads)
            key, value = permuted(key, key_order), permuted(value, [0, 2, 1, 3])
        else:
            key = permuted(to_heads(key, kv_heads), key_order)
            value = permuted(to_heads(value, kv_heads), [0, 2, 1, 3])
        outs = [query, key, value]
    Rewriter.replace_op(op, new, outs)
    return new


def _widened(op: TTNNOp, result: SSAValue, shape) -> Operation:
    """`op` makes `result` larger (`shape`); what its users read is its leading part, sliced after `op` (the
    slice returned)."""
    original = result.type
    result = Rewriter.replace_value_with_new_type(result, like(original, shape))
    uses = [(use.operation, use.index) for use in result.uses]
    array, rank = KINDS["i32_array"].build, len(shape)
    sliced = ttnn_op("slice_static", [result], {"begins": array([0] * rank), "ends": array(list(original.get_shape())),
                                                "step": array([1] * rank)}, [original], op)
    op.parent.insert_op_after(sliced, op)
    for user, index in uses:
        user.operands[index] = sliced.results[0]
    return sliced


def _router_k_padded(op: TTNNOp) -> None:
    """The fused router writes a multiple of 8 experts per token: k is padded and both results sliced back;
    the weights, a softmax over the padded top-k, are renormalized over the k kept."""
    k = op.prop("k").value.data
    padded = round_up(k, 8)
    if padded == k:
        return
    op.properties["k"] = KINDS["i32"].build(padded)
    batch = op.results[0].type.get_shape()[0]
    weights = _widened(op, op.results[1], (batch, padded))
    _widened(op, op.results[0], (batch, padded))  # right after the op: the indices are sliced first
    kept = weights.results[0]
    uses = [(use.operation, use.index) for use in kept.uses]
    total = ttnn_op("sum", [kept], {"dim_arg": KINDS["i32_array"].build([1]), "keep_dim": KINDS["bool"].build(True)},
                    [like(kept.type, (batch, 1))], op)
    normalized = ttnn_op("divide", [kept, total.results[0]], {}, [kept.type], op)
    op.parent.insert_op_after(total, weights)
    op.parent.insert_op_after(normalized, total)
    for helper in (weights, total, normalized):  # the indices slice alone stands for the op's first result
        helper.location = helper_location(op.location, helper.name.split(".")[1])
    for user, index in uses:
        user.operands[index] = normalized.results[0]


def _mask_heads_materialized(op: TTNNOp) -> None:
    """The decode kernel cannot broadcast a [B, 1, 1, Sk] mask over the query heads: it is repeated to them."""
    groups = op.operand_groups()
    heads = groups["query"][0].type.get_shape()[2]
    if groups["attention_mask"] and groups["attention_mask"][0].type.get_shape()[2] != heads:
        mask = groups["attention_mask"][0]
        shape = mask.type.get_shape()
        repeat = ttnn_op("repeat", [mask], {"repeat_dims": ttnn.ShapeAttr((1, 1, heads, 1))},
                         [like(mask.type, (*shape[:2], heads, shape[3]))], op)
        op.parent.insert_op_before(repeat, op)
        op.operands[list(op.operands).index(mask)] = repeat.results[0]


def _reshaped_around(op: TTNNOp, shape: list[int], operands: tuple[int, ...] = (0,), lead: int = 0) -> None:
    """`op` runs on its inputs (the operands at `operands`) reshaped to `shape` (reshapes before it), or with
    `lead` leading ones added, its result reshaped back after it (from its shape with leading ones to the rank of
    `shape`)."""
    for i in operands:
        value = op.operands[i]
        target = [1] * lead + list(value.type.get_shape()) if lead else shape
        before = ttnn_op("reshape", [value], {"shape": KINDS["i32_array"].build(target)},
                         [like(value.type, target)], op)
        op.parent.insert_op_before(before, op)
        op.operands[i] = before.results[0]
    result = op.results[0]
    original = result.type
    out_shape = [1] * (len(shape) - len(original.get_shape())) + list(original.get_shape())
    result = Rewriter.replace_value_with_new_type(result, like(original, out_shape))
    uses = [(use.operation, use.index) for use in result.uses]
    after = ttnn_op("reshape", [result], {"shape": KINDS["i32_array"].build(list(original.get_shape()))}, [original], op)
    op.parent.insert_op_after(after, op)
    for user, index in uses:
        user.operands[index] = after.results[0]


def _all_reduce_in_4d(op: TTNNOp) -> None:
    """all_reduce reduces tensors of fewer than four dims wrongly: it runs on the input with leading ones added."""
    shape = list(op.operands[0].type.get_shape())
    if len(shape) < 4:
        _reshaped_around(op, [1] * (4 - len(shape)) + shape)


def _all_gather_in_2d(op: TTNNOp) -> None:
    """all_gather takes no 1D tensor: a (1, N) view gathers along its dim 1."""
    shape = list(op.operands[0].type.get_shape())
    if len(shape) == 1:
        _reshaped_around(op, [1, shape[0]])
        op.properties["all_gather_dim"] = KINDS["si32"].build(1)


def _reduce_scatter_accumulates_in_f32(op: TTNNOp) -> None:
    """reduce_scatter sums in f32 at full fidelity unless told otherwise (bf16 partial sums lose precision)."""
    if op.prop("compute_config") is None:
        op.properties["compute_config"] = ttnn.DeviceComputeKernelConfigAttr((
            ("math_fidelity", "hifi4"), ("math_approx_mode", False), ("fp32_dest_acc_en", True),
            ("packer_l1_acc", False)))


def _rms_norm_at_full_precision(op: TTNNOp) -> None:
    """rms_norm without a compute config runs at full fidelity, accumulating in f32 (dst and packer), as upstream's
    workaround sets it: a later default fidelity (compute-cfg-math-fidelity) does not lower it."""
    if op.prop("compute_config") is None:
        op.properties["compute_config"] = ttnn.DeviceComputeKernelConfigAttr((
            ("math_fidelity", "hifi4"), ("math_approx_mode", False), ("fp32_dest_acc_en", True),
            ("packer_l1_acc", True)))


def _width_sharded_cores(op: TTNNOp, tiles: int) -> int:
    """As many cores as divide the row's tiles evenly, at most one row of the worker grid (the shards side by side)."""
    device = ttcore.registered_device(op)
    columns = device.worker_grid.shape[1] if device is not None else 8
    return max(c for c in range(1, min(columns, tiles) + 1) if tiles % c == 0)


def _distributed_rms_norm_width_sharded(op: TTNNOp) -> list[Operation] | None:
    """tt-metal's fused distributed rms_norm reads its input (and residual) width-sharded in L1 tiles, its weight
    row-major, and accumulates in f32 at full fidelity unless told otherwise; its result, width-sharded like its
    input, moves back to where it was."""
    value = op.operands[0]
    layout = value.type.encoding
    if getattr(getattr(layout.memory_layout, "data", None), "value", None) == "width_sharded":
        return None
    shape = tuple(value.type.get_shape())
    cores = _width_sharded_cores(op, math.ceil(shape[-1] / ttnn.TILE))
    spec = TensorSpec(shape, layout.data_type, "l1", "width_sharded", (1, cores))
    sharded = TensorType(value.type.element_type, shape, layout_of(value.type, spec))
    groups = op.operand_groups()
    for name in ("input", "residual"):
        for v in groups[name]:
            if v.type != sharded:
                move = _conversion(v, sharded, op)
                op.parent.insert_op_before(move, op)
                op = bind_operand(op, name, move.results[0])
    for weight in groups["weight"]:
        if weight.type.encoding.is_tiled:
            move = _conversion(weight, retyped(weight.type, Want("row_major")), op)
            op.parent.insert_op_before(move, op)
            op = bind_operand(op, "weight", move.results[0])
    _rms_norm_at_full_precision(op)
    original = op.results[0].type
    if original != sharded:
        result = Rewriter.replace_value_with_new_type(op.results[0], sharded)
        uses = [(use.operation, use.index) for use in result.uses]
        back = ttnn_op("to_memory_config", [result], {}, [original], op)
        op.parent.insert_op_after(back, op)
        for user, index in uses:
            user.operands[index] = back.results[0]
    return [op]


def _paged_decode_exact_exp(op: TTNNOp) -> None:
    """Paged decode attention on Blackhole runs with `exp_approx_mode = false` (the approximate exponent loses
    accuracy there): an existing program config keeps its other fields; without one tt-metal's decode defaults
    (32-row query and key chunks, one core per head batch, the worker grid) are spelled out to carry it."""
    from ttmlir.transforms.ttnn.optimizer.ttnn_greedy_memory_layout_propagation import arch_of

    if arch_of(op) != "blackhole":
        return
    config = op.prop("program_config")
    if config is None:
        rows, cols = hardware.CHIPS["blackhole"].grid
        config = ttnn.SDPAProgramConfigAttr((("compute_with_storage_grid_size", ttnn.CoreCoordAttr((cols, rows))),
                                             ("q_chunk_size", 32), ("k_chunk_size", 32),
                                             ("max_cores_per_head_batch", 1)))
    op.properties["program_config"] = with_fields(ttnn.SDPAProgramConfigAttr, config, exp_approx_mode=False)


def _embedding_weight_in_4d(op: TTNNOp) -> None:
    """The embedding kernel takes at most a 4D table: one of more dims (all but its last two ones) is read as
    [1, 1, N, D]."""
    weight = op.operand_groups()["weight"][0]
    shape = list(weight.type.get_shape())
    if len(shape) > 4 and all(d == 1 for d in shape[:-2]):
        squeezed = [1, 1, *shape[-2:]]
        reshape = ttnn_op("reshape", [weight], {"shape": KINDS["i32_array"].build(squeezed)},
                          [like(weight.type, squeezed)], op)
        reshape.location = helper_location(op.location, "reshape")
        op.parent.insert_op_before(reshape, op)
        op.operands[list(op.operands).index(weight)] = reshape.results[0]


def _slice_rows_fit_l1(op: TTNNOp) -> list[Operation] | None:
    """The slice kernel double-buffers whole result rows in L1: when two rows do not fit, the innermost other dim
    whose rows do is swapped last (permutes around a slice of the permuted input)."""
    from ttmlir.transforms.ttnn.optimizer.ttnn_greedy_memory_layout_propagation import arch_of
    from ttmlir.runtime.op_model import l1_budget

    shape = list(op.results[0].type.get_shape())
    unit, budget = hardware.DTYPE_BYTES[data_type(op.operands[0])], l1_budget(arch_of(op), 1.0)
    if len(shape) < 2 or 2 * shape[-1] * unit <= budget:
        return None
    swap = next((d for d in range(len(shape) - 2, -1, -1) if 2 * shape[d] * unit <= budget), None)
    if swap is None:
        return None
    perm = list(range(len(shape)))
    perm[swap], perm[-1] = perm[-1], perm[swap]
    value, array = op.operands[0], KINDS["i32_array"].build
    order = lambda values: [values[p] for p in perm]
    before = ttnn_op("permute", [value], {"permutation": KINDS["i64_darray"].build(perm)},
                     [like(value.type, order(value.type.get_shape()))], op)
    sliced = ttnn_op("slice_static", [before.results[0]], {name: array(order(int_values(op.prop(name))))
                                                           for name in ("begins", "ends", "step")},
                     [like(op.results[0].type, order(shape))], op)
    after = ttnn_op("permute", [sliced.results[0]], {"permutation": KINDS["i64_darray"].build(perm)},
                    [op.results[0].type], op)
    for new, suffix in ((before, "permute"), (sliced, "slice"), (after, "permuteInverse")):
        new.location = helper_location(op.location, suffix)
    Rewriter.replace_op(op, [before, sliced, after])
    return [before, sliced, after]


def _gather_rewrites(op: TTNNOp) -> None:
    _gather_in_2d(op)
    _negative_indices_read_nan(op)


def _negative_indices_read_nan(op: TTNNOp) -> None:
    """The gather kernel reads u32 indices: signed ones are clamped at 0 for it, and what a negative index reads
    becomes NaN (a float input's fill for an index out of bounds), by a where after it."""
    from ttmlir.transforms.ttnn.ttnn_decomposition import Emitter

    index = op.operand_groups()["start_indices"][0]
    if op.prop("dim") is None or data_type(index) != "si32" or data_type(op.operands[0]) not in ("f32", "bf16"):
        return
    emit = Emitter(op)
    shape = tuple(index.type.get_shape())
    zero = emit("full", [device_of(op.parent)], {"shape": ttnn.ShapeAttr(shape), "fill_value": IntegerAttr(0, 32),
                                                 "dtype": enum(ttcore.DataTypeAttr, "si32"),
                                                 "layout": enum(ttnn.LayoutAttr, "tile")}, index.type)
    negative = emit("lt", [index, zero], {}, index.type)
    clamped = emit("maximum", [index, zero], {}, index.type)
    op.operands[list(op.operands).index(index)] = emit("to_tensor_spec", [clamped], {},
                                                       retyped(index.type, Want(dtype="u32")))
    result = op.results[0]
    uses = [(use.operation, use.index) for use in result.uses]
    after = Emitter(op.next_op)  # a return follows at least
    shape = tuple(result.type.get_shape())
    nan = after("full", [device_of(op.parent)], {"shape": ttnn.ShapeAttr(shape), "fill_value": FloatAttr(math.nan, 32),
                                                "dtype": enum(ttcore.DataTypeAttr, data_type(result)),
                                                "layout": enum(ttnn.LayoutAttr, "tile")}, result.type)
    filled = after("where", [negative, nan, result], {}, result.type)
    for user, i in uses:
        user.operands[i] = filled


def _gather_in_2d(op: TTNNOp) -> None:
    """tt-metal's gather needs rank >= 2 (tt-metal#45155): a rank-1 gather runs on (1, n) views, along dim 1 (a
    negative dim counts from the back either way)."""
    if op.prop("dim") is None or len(op.operands[0].type.get_shape()) != 1:
        return
    _reshaped_around(op, [1, *op.results[0].type.get_shape()], operands=(0, 1), lead=1)
    dim = op.prop("dim").value.data
    if dim >= 0:
        op.properties["dim"] = KINDS["si32"].build(dim + 1)


def _sampling_in_4d(op: TTNNOp) -> None:
    """The sampling kernel takes [1, 1, users, candidates] and writes [1, 1, 1, users]."""
    shape = list(op.operands[0].type.get_shape())
    if len(shape) == 2:
        _reshaped_around(op, [1, 1, *shape], operands=(0, 1))


def _transpose_as_permute(op: TTNNOp) -> list[Operation]:
    """tt-metal's transpose is a permute swapping the two dims."""
    rank = len(op.operands[0].type.get_shape())
    perm = list(range(rank))
    a, b = (op.prop(d).value.data % rank for d in ("dim0", "dim1"))
    perm[a], perm[b] = perm[b], perm[a]
    permute = ttnn_op("permute", [op.operands[0]], {"permutation": KINDS["i64_darray"].build(perm)},
                      [op.results[0].type], op)
    Rewriter.replace_op(op, permute)
    return [permute]


def _tiles(size: int) -> int:
    return round_up(size, ttnn.TILE)


def _pad_operand(op: TTNNOp, value: SSAValue, dim: int, size: int) -> None:
    """`op` reads `value` zero-padded to `size` along `dim` (a ttnn.pad put before it)."""
    shape = list(value.type.get_shape())
    padding = [0] * (2 * len(shape))
    padding[2 * dim + 1], shape[dim] = size - shape[dim], size
    pad = ttnn_op("pad", [value], {"padding": KINDS["i32_darray"].build(padding), "value": KINDS["f32"].build(0.0)},
                  [like(value.type, shape)], op)
    op.parent.insert_op_before(pad, op)
    op.operands[list(op.operands).index(value)] = pad.results[0]


# Ops a workaround rewrites before their operands are converted: it puts ops before or after them, or replaces
# them (returning the ops that did).
REWRITES: dict[str, Callable[[TTNNOp], list[Operation] | None]] = {
    "prod": integer_prod_as_multiplies, "sum": word_reduction_in_parts, "max": word_reduction_in_parts,
    "min": word_reduction_in_parts, "sort": word_sort_by_halves,
    "fill_cache": _prompt_padded_to_tiles, "paged_fill_cache": _prompt_padded_to_tiles,
    "scaled_dot_product_attention": _head_dim_padded_to_tiles,
    "scaled_dot_product_attention_decode": _mask_heads_materialized,
    "all_reduce": _all_reduce_in_4d, "all_reduce_async": _all_reduce_in_4d, "all_gather": _all_gather_in_2d,
    "reduce_scatter": _reduce_scatter_accumulates_in_f32, "rms_norm": _rms_norm_at_full_precision,
    "dit_rms_norm_unary_fused": _rms_norm_at_full_precision,
    "topk_router_gpt": _router_k_padded,
    "sampling": _sampling_in_4d,
    "embedding": _embedding_weight_in_4d,
    "transpose": _transpose_as_permute, "permute": word_permute_in_halves,
    "gather": _gather_rewrites,
    "split_query_key_value_and_split_heads": _split_heads_apart,
    "group_norm": _group_norm_channels_padded,
    "linear": _linear_bias_added_apart,
    "upsample": _bilinear_channels_padded,
    "slice_static": _slice_rows_fit_l1,
    "paged_scaled_dot_product_attention_decode": _paged_decode_exact_exp,
    "distributed_rms_norm": _distributed_rms_norm_width_sharded,
}


def retyped(t: TensorType, want: Want) -> TensorType:
    """`t` in the wanted layout, data type and buffer (same shape)."""
    layout = t.encoding
    tiled = layout.is_tiled if want.layout is None else want.layout == "tile"
    dtype = want.dtype or layout.data_type
    if layout.memory_layout is not None and "sharded" in str(layout.memory_layout) and \
            (tiled, dtype, want.buffer or layout.buffer_type) == (layout.is_tiled, layout.data_type, layout.buffer_type):
        return t  # a sharded tensor already as wanted stays sharded
    element = t.element_type
    if want.dtype and dtype.startswith("bfp_"):
        element = ttnn.element_type_for(dtype)
    elif want.dtype or element == IntegerType(32):  # a converted i32 is TTNN's si32
        element = ttnn.DATA_TYPE_TO_MLIR.get(dtype, element)
    shape = tuple(t.get_shape())
    return TensorType(element, shape, ttnn.layout_for(shape, element, want.buffer or layout.buffer_type, tiled, dtype))


def _conversion(value: SSAValue, target: TensorType, at: Operation) -> Operation:
    """A ttnn.to_tensor_spec taking `value` to `target` (broken down by --ttnn-decompose-layouts)."""
    return ttnn_op("to_tensor_spec", [value], {}, [target], at)


def apply_workaround(op: TTNNOp, wants: dict[str, Want]) -> None:
    """Convert the named operands before `op` and give the named results (`result`, or a multi-result op's own
    names) the wanted type, converting each back to what its users expect right after `op`."""
    groups = op.operand_groups()
    for name, want in wants.items():
        for value in groups.get(name, []):
            target = retyped(value.type, want)
            if target != value.type:
                convert = _conversion(value, target, op)
                op.parent.insert_op_before(convert, op)
                op.operands[next(i for i, v in enumerate(op.operands) if v is value)] = convert.results[0]
    for name, result in zip(op.ROW.results, op.results):
        want, original = wants.get(name.rstrip("?")), result.type
        if want is None or retyped(original, want) == original:
            continue
        if want.dtype and op.prop("dtype") is not None:
            op.properties["dtype"] = enum(ttcore.DataTypeAttr, want.dtype)
        if want.layout and op.prop("layout") is not None:
            op.properties["layout"] = enum(ttnn.LayoutAttr, want.layout)
        result = Rewriter.replace_value_with_new_type(result, retyped(original, want))
        uses = [(use.operation, use.index) for use in result.uses]
        convert = _conversion(result, original, op)
        op.parent.insert_op_after(convert, op)
        for user, index in uses:
            user.operands[index] = convert.results[0]


@dataclass(frozen=True)
class TTNNWorkaroundPass(ModulePass):
    """Convert operands and results of TTNN ops whose kernels need particular layouts or data types."""

    name: ClassVar[str] = "ttnn-workaround"
    # from optimization level 1 the optimizer's op model chooses layouts and data types: only the ops whose kernels
    # it cannot steer keep their operand workarounds (upstream's list)
    ttnn_optimization_level: int = 0

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.ttnn_optimization_level not in (0, 1, 2):
            raise PassFailure(module, f"ttnn-optimization-level must be 0, 1 or 2, got {self.ttnn_optimization_level}")
        for op in list(module.walk()):
            if not isinstance(op, TTNNOp) or not _laid_out(op):
                continue
            replaced = REWRITES[op.ROW.name](op) if op.ROW.name in REWRITES else None
            for target in replaced if replaced is not None else [op]:
                if target.ROW.name in WORKAROUNDS and (self.ttnn_optimization_level == 0 or
                                                       target.ROW.name in KEPT_WITH_OPTIMIZER):
                    apply_workaround(target, WORKAROUNDS[target.ROW.name](target))


KEPT_WITH_OPTIMIZER = frozenset({
    "where", "full", "embedding", "scatter", "topk", "flash_mla_prefill", "scaled_dot_product_attention",
    "scaled_dot_product_attention_decode", "moe_compute", "sampling", "all_to_all_dispatch",
    "all_to_all_dispatch_metadata", "all_to_all_combine", "moe_expert_token_remap", "sparse_matmul", "sdpa_bw",
    "adamw"})


def _laid_out(op: TTNNOp) -> bool:
    """Workarounds apply to device tensors after --ttnn-layout."""
    values = [v for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)]
    return bool(values) and all(isinstance(v.type.encoding, ttnn.TTNNLayoutAttr) and
                                v.type.encoding.buffer_type != "system_memory" for v in values)
