"""`ttir.embedding` on the kernel path (`--ttir-to-ttmetal-pipeline`): the data-movement kernel gathers each table
row its index names, on one core and on several, indices and tables of each type, the output in L1 or DRAM."""

import pytest
import torch

from ttmlir.compiler import lower_to_ttmetal
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

EMBEDDING = """
func.func @lookup(%indices: tensor<{indices}x{itype}>, %weight: tensor<{table}x{wtype}>) -> tensor<{indices}x{width}x{wtype}> {{
  %0 = "ttir.embedding"(%indices, %weight) : (tensor<{indices}x{itype}>, tensor<{table}x{wtype}>) -> tensor<{indices}x{width}x{wtype}>
  return %0 : tensor<{indices}x{width}x{wtype}>
}}
"""
TORCH = {"bf16": torch.bfloat16, "f32": torch.float32}


@pytest.mark.parametrize("indices, itype, table, wtype, options", [
    ((2, 3), "ui32", (16, 8), "bf16", ""),  # one tile of output on one core
    ((1, 70), "si32", (100, 80), "f32", ""),  # a 3x3 grid of cores, rows and columns of padding
    ((5, 7), "ui32", (64, 40), "bf16", "default-input-memspace=dram default-output-memspace=dram"),
    ((40,), "ui32", (33, 64), "f32", ""),  # a vector of indices
])
def test_each_row_is_the_table_row_its_index_names(indices, itype, table, wtype, options):
    text = EMBEDDING.format(indices="x".join(map(str, indices)), itype=itype, table="x".join(map(str, table)),
                            wtype=wtype, width=table[1])
    g = torch.Generator().manual_seed(len(indices) + table[0])
    index = torch.randint(0, table[0], indices, generator=g, dtype=torch.int32)
    weight = torch.randn(table, generator=g).to(TORCH[wtype])
    outputs, _ = run_program(translate(lower_to_ttmetal(text, "<test>", options)), [index, weight])
    assert torch.equal(outputs[0].to(weight.dtype), weight[index.long()])
