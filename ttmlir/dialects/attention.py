"""Verifiers of the attention ops (TTIR and TTNN), in upstream's words.

Shapes: query [B, Hq, Sq, D] (decode: [1, B, Hq, D]), key and value [B, Hkv, Sk, D] or, paged, a cache of
blocks [num_blocks, Hkv, block_size, D] read through a [B, blocks per user] page table.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType

from ttmlir.dialects import ttcore
from ttmlir.ir.props import FLOAT_TYPES, scalar
from ttmlir.ir.tt_op import TTOp


def _types(op: TTOp, *names: str):
    groups = op.operand_groups()
    return [groups[n][0].type if groups.get(n) else None for n in names]


def _is_float(t) -> bool:
    """A float tensor; a block-float one (a bfp tile element type, as KV caches may be) counts."""
    return isinstance(t.element_type, FLOAT_TYPES) or ttcore.is_block_float(t.element_type)


def _is_int(t) -> bool:
    return isinstance(t.element_type, IntegerType)


def _mask_batch_heads(op: TTOp, mask, batch: int, heads: int, heads_dim: int) -> None:
    """A mask is causal's alternative: 4D, batch and heads each 1 (broadcast) or the query's."""
    if scalar(op.prop("is_causal")):
        raise op.error("Attention mask is not allowed when is_causal is true")
    shape = mask.get_shape()
    if len(shape) != 4:
        raise op.error("Attention mask must be a 4D tensor")
    if shape[0] not in (1, batch):
        raise op.error("Attention mask batch size must be 1 (broadcast) or match query batch size")
    if heads_dim == 1 and shape[1] not in (1, heads):
        raise op.error("Attention mask dim 1 must be 1 (broadcast) or match query num heads")


def sdpa(op: TTOp, ttnn: bool) -> None:
    query, key, value, mask = _types(op, "query", "key", "value", "attention_mask")
    result = op.results[0].type
    q, k, out = query.get_shape(), key.get_shape(), result.get_shape()
    if ttnn:
        for what, a, b in (("Query and result", query, result), ("Key and value", key, value)):
            if a.get_shape() != b.get_shape():
                raise op.error(f"{what} must have the same shape")
            if a.element_type != b.element_type:
                raise op.error(f"{what} must have the same element type")
    else:
        if query != result:
            raise op.error("Query and result must have the same type")
        if key != value:
            raise op.error("Key and value must have the same type")
    for what, shape in (("Query", q), ("Key/Value", k), ("Output", out)):
        if len(shape) != 4:
            raise op.error(f"{what} must be a 4D tensor")
    _kv_matches(op, k, batch=q[0], heads=q[1], size=q[3])
    if mask is not None:
        _mask_batch_heads(op, mask, q[0], q[1], heads_dim=1)
        if mask.get_shape()[2] != q[2] and (ttnn or mask.get_shape()[2] != 1):
            raise op.error("Attention mask at dim 2 must match query sequence length" if ttnn else
                           "Attention mask dim 2 must be 1 (broadcast) or match query sequence length")
        if mask.get_shape()[3] != k[2]:
            raise op.error("Attention mask at dim 3 must match key/value sequence length (max sequence length)")
    if scalar(op.prop("is_causal")) and q[2] != k[2]:
        raise op.error("Sequence length must match key/value sequence length when is_causal is true")


def _kv_matches(op: TTOp, k, batch: int, heads: int, size: int) -> None:
    if k[0] != batch:
        raise op.error("Key/Value batch size must match query batch size")
    if k[3] != size:
        raise op.error("Key/Value head size must match query head size")
    if heads % k[1]:
        raise op.error("Query num heads must be divisible by key/value num heads")


def sdpa_decode(op: TTOp, ttnn: bool) -> None:
    query, key, value, mask, cur_pos = _types(op, "query", "key", "value", "attention_mask", "cur_pos_tensor")
    result = op.results[0].type
    q, k, out = query.get_shape(), key.get_shape(), result.get_shape()
    if not ttnn:
        if query != result:
            raise op.error("Query and result must have the same type")
        _check_cur_pos(op, cur_pos, None)
        if key != value:
            raise op.error("Key and value must have the same type")
    for what, shape in (("Query", q), ("Key/Value", k), ("Output", out)):
        if len(shape) != 4:
            raise op.error(f"{what} must be a 4D tensor")
    if ttnn:
        if q != out:
            raise op.error("Query and result must have the same shape")
        if query.element_type != result.element_type:
            raise op.error("Query and result must have the same element type")
    if q[0] != 1:
        raise op.error("Query dim 0 must be 1")
    if cur_pos is not None:
        if ttnn:
            _check_cur_pos(op, cur_pos, None)
        if cur_pos.get_shape()[0] != q[1]:
            raise op.error("Cur pos tensor batch size must match query batch size")
    _kv_matches(op, k, batch=q[1], heads=q[2], size=q[3])
    if mask is not None:
        _mask_batch_heads(op, mask, q[1], q[2], heads_dim=2)
        m = mask.get_shape()
        if m[1] != 1:
            raise op.error("Attention mask dim 1 must be 1")
        if m[2] not in (1, q[2]):
            raise op.error("Attention mask num heads must be 1 (broadcast) or match query num heads")
        if m[3] != k[2]:
            raise op.error("Attention mask sequence length must match key/value sequence length")


def _check_cur_pos(op: TTOp, cur_pos, users: int | None) -> None:
    """The decode positions: a 1D integer tensor (paged ops say so in sentences, with a period)."""
    end = "" if users is None else "."
    if not _is_int(cur_pos):
        raise op.error("Cur pos tensor must be a tensor of integers" if users is None else
                       "Cur pos tensor must be an integer tensor.")
    if len(cur_pos.get_shape()) != 1:
        raise op.error(f"Cur pos tensor must be a 1D tensor{end}")
    if users is not None and cur_pos.get_shape()[0] != users:
        raise op.error("Cur pos tensor number of users must match query number of users.")


def paged_sdpa_decode(op: TTOp) -> None:
    query, key, value, table, mask, cur_pos = _types(op, "query", "key", "value", "page_table", "attention_mask",
                                                     "cur_pos_tensor")
    if not all(_is_float(t) for t in (query, key, value)):
        raise op.error("Query, key, and value must be float tensors.")
    if not _is_int(table):
        raise op.error("Page table must be an integer tensor.")
    if key != value:
        raise op.error("Key and value must have the same shape and data type.")
    q, k = query.get_shape(), key.get_shape()
    for what, shape, rank in (("Query", q, 4), ("Key/Value tensor", k, 4), ("Page table tensor", table.get_shape(), 2)):
        if len(shape) != rank:
            raise op.error(f"{what} must be a {rank}D tensor.")
    _paged_kv(op, q[2], q[3], k, block_message="Block size must be divisible by 32.")
    if table.get_shape()[0] != q[1]:
        raise op.error("Page table number of users must match query number of users.")
    if scalar(op.prop("is_causal")) and mask is not None:
        raise op.error("Attention mask is not allowed when is_causal is true.")
    if not scalar(op.prop("is_causal")) and mask is None:
        raise op.error("Attention mask is required when is_causal is false.")
    if cur_pos is not None:
        _check_cur_pos(op, cur_pos, q[1])


def _paged_kv(op: TTOp, heads: int, size: int, k, block_message: str) -> None:
    if size != k[3]:
        raise op.error("Query head size must match key/value head size.")
    if k[1] == 0 or heads % k[1]:
        raise op.error("Query num heads must be divisible by key/value num heads.")
    if k[2] % 32:  # the kernel reads the cache by 32-row sticks
        raise op.error(block_message)


def chunked_sdpa(op: TTOp, ttnn: bool) -> None:
    query, key, value, table, start = _types(op, "query", "key", "value", "page_table", "chunk_start_idx")
    if len(query.get_shape()) != 4:
        raise op.error("Query must be a 4D tensor.")
    if len(key.get_shape()) != 4 or len(value.get_shape()) != 4:
        raise op.error("Key and value must be 4D tensors.")
    for what, shape, rank in (("Page table", table.get_shape(), 2), ("Chunk start index", start.get_shape(), 1)):
        if len(shape) != rank:
            raise op.error(f"{what} must be a {rank}D tensor.")
    if start.get_shape()[0] != 1:
        raise op.error("Chunk start index must have shape [1] (a single prefix offset shared by all users).")
    if not ttnn and not query.element_type == key.element_type == value.element_type:
        raise op.error("Query, key, and value must have the same element type.")
    if not all(_is_float(t) for t in ((query,) if not ttnn else (query, key, value))):
        raise op.error("Query, key, and value must be float tensors.")
    for what, t in (("Page table", table), ("Chunk start index", start)):
        if not _is_int(t):
            raise op.error(f"{what} must be an integer tensor.")
    if key != value:
        raise op.error("Key and value must have the same shape and data type.")
    q = query.get_shape()
    _paged_kv(op, q[1], q[3], key.get_shape(), block_message="Key/value block size must be divisible by 32.")
    if table.get_shape()[0] != q[0]:
        raise op.error("Page table number of users must match query number of users.")
    if op.results[0].type.get_shape() != q:
        raise op.error("Result shape must match query shape.")


def paged_flash_mla_decode(op: TTOp) -> None:
    query, key, value, table = _types(op, "query", "key", "value", "page_table")
    for what, t, rank in (("Query", query, 4), ("Key tensor", key, 4), ("Page table tensor", table, 2)):
        if len(t.get_shape()) != rank:
            raise op.error(f"{what} must be a {rank}D tensor.")
    if not _is_float(query):
        raise op.error("Query must be a float tensor.")
    if query.element_type != key.element_type:
        raise op.error("Query and key must have the same element type.")
    if not _is_int(table):
        raise op.error("Page table must be an integer tensor.")
    if key.get_shape()[1] != 1:  # one latent cache shared by every query head
        raise op.error(f"Key num KV heads (nkv) must be 1, got {key.get_shape()[1]}.")
    if value is not None:
        if len(value.get_shape()) != 4:
            raise op.error("Value tensor must be a 4D tensor.")
        if query.element_type != value.element_type:
            raise op.error("Query and value must have the same element type.")
        if value.get_shape()[1] != 1:
            raise op.error(f"Value num KV heads (nkv) must be 1, got {value.get_shape()[1]}.")
    if scalar(op.prop("head_dim_v")) == 0:
        raise op.error("head_dim_v must be greater than 0.")


def flash_mla_prefill(op: TTOp) -> None:
    query, key, value, mask = _types(op, "query", "key", "value", "attention_mask")
    result = op.results[0].type
    for what, t in (("Query", query), ("Key", key), ("Output", result)):
        if len(t.get_shape()) != 4:
            raise op.error(f"{what} must be a 4D tensor")
    for what, t in (("result", result), ("key", key)):
        if query.element_type != t.element_type:
            raise op.error(f"Query and {what} must have the same element type")
    (batch, heads, seq, size), k = query.get_shape(), key.get_shape()
    head_dim_v = scalar(op.prop("head_dim_v"))
    if k[0] != batch:
        raise op.error("Key batch size must match query batch size")
    if k[3] != size:
        raise op.error("Key head size must match query head size")
    if seq != k[2]:
        raise op.error("Query and key must have the same sequence length")
    if heads % k[1]:
        raise op.error("Query num heads must be divisible by key num heads (GQA/MQA/MLA)")
    if value is not None:
        v = value.get_shape()
        if len(v) != 4:
            raise op.error("Value must be a 4D tensor")
        if query.element_type != value.element_type:
            raise op.error("Query and value must have the same element type")
        for what, got, want in (("Value batch size must match query batch size", v[0], batch),
                                ("Value num heads must match key num heads", v[1], k[1]),
                                ("Value sequence length must match query/key sequence length", v[2], seq),
                                ("Value head size must equal head_dim_v", v[3], head_dim_v)):
            if got != want:
                raise op.error(what)
    elif head_dim_v > size:
        raise op.error("head_dim_v cannot exceed key's head dim when value is not provided")
    if head_dim_v <= 0:
        raise op.error("head_dim_v must be greater than 0")
    if mask is not None:
        _mask_batch_heads(op, mask, batch, heads, heads_dim=1)
        if mask.get_shape()[2] != seq:
            raise op.error("Attention mask at dim 2 must match query sequence length")
        if mask.get_shape()[3] != seq:
            raise op.error("Attention mask at dim 3 must match key sequence length")
    if result.get_shape() != (batch, heads, seq, head_dim_v):
        raise op.error("Result shape must be [batch, num_query_heads, seq_len, head_dim_v]")


def indexer_score_dsa(op: TTOp) -> None:
    query, key, weights = _types(op, "query", "key", "weights")
    result = op.results[0].type
    for what, t, dims in (("Query", query, "[B, Hi, Sq, D]"), ("Key", key, "[B, 1, T, D]"),
                          ("Weights", weights, "[B, Hi, Sq, 1]"), ("Result", result, "[B, 1, Sq, T]")):
        if len(t.get_shape()) != 4:
            raise op.error(f"{what} must be a 4D tensor {dims}")
    (batch, heads, seq, size), k = query.get_shape(), key.get_shape()
    if batch != 1:
        raise op.error(f"Query batch size (dim 0) must be 1, got {batch}")
    if k[0] != batch:
        raise op.error("Key batch size must match query batch size")
    if k[1] != 1:
        raise op.error("Key must have a single head (dim 1 must be 1)")
    if k[3] != size:
        raise op.error("Key head dim must match query head dim")
    if weights.get_shape() != (batch, heads, seq, 1):
        raise op.error("Weights shape must be [batch, num_heads, query_seq_len, 1]")
    if result.get_shape() != (batch, 1, seq, k[2]):
        raise op.error("Result shape must be [batch, 1, query_seq_len, key_seq_len]")
    if query.element_type != key.element_type:
        raise op.error("Query and key must have the same element type")


TTIR_RULES = {"scaled_dot_product_attention": lambda op: sdpa(op, ttnn=False),
              "scaled_dot_product_attention_decode": lambda op: sdpa_decode(op, ttnn=False),
              "paged_scaled_dot_product_attention_decode": paged_sdpa_decode,
              "chunked_scaled_dot_product_attention": lambda op: chunked_sdpa(op, ttnn=False),
              "paged_flash_multi_latent_attention_decode": paged_flash_mla_decode}
TTNN_RULES = {**TTIR_RULES, "scaled_dot_product_attention": lambda op: sdpa(op, ttnn=True),
              "scaled_dot_product_attention_decode": lambda op: sdpa_decode(op, ttnn=True),
              "chunked_scaled_dot_product_attention": lambda op: chunked_sdpa(op, ttnn=True),
              "flash_mla_prefill": flash_mla_prefill, "indexer_score_dsa": indexer_score_dsa}
