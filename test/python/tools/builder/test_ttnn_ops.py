"""Every TTNNBuilder op: built on device tensors with its golden, serialized, run on the simulated n150."""

from __future__ import annotations

import pytest
import torch

from builder.base.builder_apis import compile_and_execute_ttnn
from builder.ttnn.ttnn_builder import DEVICE_FREE, TTNNBuilder
from test_ttir_ops import CASES, Case, module_for
from ttmlir.ir.op_table import TTIR_BY_NAME, TTIR_OPS

def pair_swap(shape):
    matrix = torch.zeros(shape)
    for i in range(0, shape[-1], 2):
        matrix[..., i, i + 1], matrix[..., i + 1, i] = 1.0, -1.0
    return matrix.bfloat16()


def gathered_stats(shape):
    """Two chips' partial sums of 64-wide rows (standard normal values): sums near 0, squares near 64."""
    stats = torch.zeros(shape)
    for chip in range(2):
        stats[..., 64 * chip] = torch.randn(shape[:-1]) * 8
        stats[..., 64 * chip + 32] = 64 + torch.randn(shape[:-1])
    return stats


def without_destination(case: Case, index: int) -> Case:
    """A TTIR op's case for its TTNN op, which has no destination operand (at `index` in TTIR's)."""
    def drop(items):
        return items[:index] + items[index + 1:]
    return Case(drop(case.shapes), case.kwargs, drop(case.dtypes), drop(case.inputs), named=case.named)


TTIR_NAME = {row.ttnn: row.ttnn if row.ttnn in TTIR_BY_NAME else row.name for row in TTIR_OPS if row.ttnn}
TTNN_CASES = {"repeat": Case([(32, 32)], {"repeat_dims": [2, 1]}), "typecast": Case([(32, 32)], {"output_type": torch.bfloat16}),
              "to_layout": Case([(32, 32)], {"layout": "row_major"}), "from_device": Case([(32, 32)]),
              "to_memory_config": Case([(32, 32)], {"buffer_type": "l1"}),
              "argmax": Case([(4, 32, 64)], {"dim": 2}),
              "nlp_concat_heads": Case([(2, 4, 32, 32)]),
              "layer_norm": Case([(32, 64), (64,), (64,)], {"epsilon": 1e-5}, named=("weight", "bias")),
              "rms_norm": Case([(32, 64), (64,)], {"epsilon": 1e-5}, named=("weight",)),
              "rms_norm_pre_all_gather": Case([(1, 1, 64, 128), (1, 1, 64, 128)]),
              "layer_norm_pre_all_gather": Case([(1, 1, 64, 128)]),
              # two chips' statistics of rows whose other half lives elsewhere: [sum, sum of squares] per chip
              "layer_norm_post_all_gather": Case([(1, 1, 32, 128), (1, 1, 32, 128), (128,), (128,)],
                                                 {"epsilon": 1e-5}, inputs=[None, gathered_stats, None, None],
                                                 named=("weight", "bias")),
              "nlp_concat_heads_decode": Case([(1, 32, 32, 64)], {"num_heads": 8}),
              "nlp_create_qkv_heads_decode": Case([(1, 1, 32, 1024)], {"num_heads": 8, "num_kv_heads": 4}),
              "rotary_embedding": Case([(1, 2, 32, 64), (1, 1, 32, 64), (1, 1, 32, 64)]),
              # the transformation matrix tt-transformers builds: each (even, odd) pair becomes (-odd, even)
              "rotary_embedding_llama": Case([(1, 2, 32, 64), (1, 1, 32, 64), (1, 1, 32, 64), (1, 1, 32, 32)],
                                             dtypes=[torch.bfloat16] * 4, inputs=[None, None, None, pair_swap]),
              "embedding_bw": Case([(2, 1, 1, 32), (16, 64), (1, 1, 64, 64)], dtypes=[torch.int32, torch.bfloat16,
                                   torch.bfloat16], inputs=[lambda s: torch.randint(0, 16, s, dtype=torch.int32),
                                                            None, None]),
              "prod": Case([(4, 8, 32)], {"dim_arg": 1, "keep_dim": False}, inputs=[lambda s: torch.rand(s) * 0.2 + 0.9]),
              # the paged attention ops without TTIR's destination operand
              "paged_scaled_dot_product_attention_decode": without_destination(
                  CASES["paged_scaled_dot_product_attention_decode"], 4),
              "chunked_scaled_dot_product_attention": without_destination(
                  CASES["chunked_scaled_dot_product_attention"], 5),
              "all_to_all_dispatch_metadata": Case(
                  [(1, 1, 32, 64), (1, 1, 32, 4), (1, 1, 32, 4), (1, 8)], {"num_devices": 1, "cluster_axis": 1},
                  dtypes=[torch.float32, torch.int32, torch.float32, torch.int32],
                  inputs=[None, lambda s: torch.randint(0, 8, s, dtype=torch.int32), None,
                          lambda s: torch.randint(0, 2, s, dtype=torch.int32)]),
              "assign": Case([(32, 32)]),
              "point_to_point": Case([(32, 32)], {"sender_coord": [0, 0], "receiver_coord": [0, 0]}),  # one chip
              "flash_mla_prefill": Case([(1, 8, 64, 64), (1, 2, 64, 64)], {"head_dim_v": 32, "is_causal": True}),
              "indexer_score_dsa": Case([(1, 4, 32, 64), (1, 1, 96, 64), (1, 4, 32, 1)], {"chunk_start_idx": 64}),
              **{name: CASES[name + "_unrolled"] for name in ("quantize", "dequantize", "requantize")}}


def test_ttnn_builder_covers_the_compute_ops():
    assert len(DEVICE_FREE) >= 100
    assert all(callable(getattr(TTNNBuilder, name)) for name in DEVICE_FREE)


@pytest.mark.parametrize("name", sorted(DEVICE_FREE))
def test_ttnn_op_matches_its_golden(name, tmp_path):
    case = TTNN_CASES.get(name) or CASES[TTIR_NAME[name]]
    report = compile_and_execute_ttnn(module_for(name, case), artifact_dir=str(tmp_path),
                                      enable_intermediate_verification=True)
    checked = report["program_index_0"]
    assert "output_0" in checked and all(entry["actual_pcc"] >= 0.99 for entry in checked.values()), checked
