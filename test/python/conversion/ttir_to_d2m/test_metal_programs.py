"""Op families with programs of their own on the kernel path (`--ttir-to-ttmetal-pipeline`), run on the simulator:
`ttir.embedding` and gathers of whole rows (each row the table row its index names: one core and several, indices
and tables of each type, the output in L1 or DRAM), batched matmuls (each batch times its own B, B given transposed
or not), argmax (the first maximum of each row) and elementwise operands broadcast with a batch."""

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


def test_a_gather_of_whole_rows_is_an_embedding():
    text = """
func.func @g(%t: tensor<169x3xbf16>, %i: tensor<100x1xsi32>) -> tensor<100x3xbf16> {
  %0 = "ttir.gather"(%t, %i) <{collapsed_slice_dims = array<i64: 0>, index_vector_dim = 1 : si64, indices_are_sorted = false, offset_dims = array<i64: 1>, operand_batching_dims = array<i64>, slice_sizes = array<i64: 1, 3>, start_index_map = array<i64: 0>, start_indices_batching_dims = array<i64>}> : (tensor<169x3xbf16>, tensor<100x1xsi32>) -> tensor<100x3xbf16>
  return %0 : tensor<100x3xbf16>
}
"""
    g = torch.Generator().manual_seed(3)
    table, index = torch.randn(169, 3, generator=g).bfloat16(), torch.randint(0, 169, (100, 1), generator=g)
    outputs, _ = run_program(translate(lower_to_ttmetal(text, "<test>")), [table, index.int()])
    assert torch.equal(outputs[0].bfloat16(), table[index[:, 0]])


BATCHED = """
func.func @bmm(%a: tensor<{a}xf32>, %b: tensor<{b}xf32>) -> tensor<{c}xf32> {{
  %0 = {op} : (tensor<{a}xf32>, tensor<{b}xf32>) -> tensor<{c}xf32>
  return %0 : tensor<{c}xf32>
}}
"""


@pytest.mark.parametrize("a, b, op, transpose, options", [
    ((3, 40, 64), (3, 64, 50), '"ttir.matmul"(%a, %b)', False, ""),
    ((2, 3, 40, 70), (2, 3, 70, 64), '"ttir.dot_general"(%a, %b) <{batch_dims_lhs = array<i64: 0, 1>, '
     'batch_dims_rhs = array<i64: 0, 1>, contract_dims_lhs = array<i64: 3>, contract_dims_rhs = array<i64: 2>}>',
     False, "default-output-memspace=dram"),
    ((3, 40, 64), (3, 70, 64), '"ttir.matmul"(%a, %b) <{transpose_b = true}>', True, ""),
    ((4, 1, 128), (4, 128, 96), '"ttir.matmul"(%a, %b)', False, "use-tile-matmul=true"),
    ((2, 40, 64), (2, 70, 64), '"ttir.dot_general"(%a, %b) <{batch_dims_lhs = array<i64: 0>, batch_dims_rhs = '
     'array<i64: 0>, contract_dims_lhs = array<i64: 2>, contract_dims_rhs = array<i64: 2>}>', True, ""),
])
def test_batched_matmul_multiplies_each_batch_by_its_own_b(a, b, op, transpose, options):
    g = torch.Generator().manual_seed(sum(a))
    x, y = torch.randn(a, generator=g), torch.randn(b, generator=g)
    expected = x @ (y.transpose(-1, -2) if transpose else y)
    text = BATCHED.format(a="x".join(map(str, a)), b="x".join(map(str, b)), c="x".join(map(str, expected.shape)),
                          op=op)
    outputs, _ = run_program(translate(lower_to_ttmetal(text, "<test>", options)), [x, y])
    assert torch.allclose(outputs[0].float(), expected, atol=0.1, rtol=0.02)


ARGMAX = """
func.func @argmax(%a: tensor<{shape}x{dtype}>) -> tensor<{rows}xi32> {{
  %0 = "ttir.argmax"(%a) <{{dim_arg = [1 : i32], keep_dim = false}}> : (tensor<{shape}x{dtype}>) -> tensor<{rows}xi32>
  return %0 : tensor<{rows}xi32>
}}
"""


@pytest.mark.parametrize("shape, dtype", [((32, 1024), "bf16"), ((64, 96), "f32")])
def test_argmax_is_the_first_position_of_the_row_maximum(shape, dtype):
    g = torch.Generator().manual_seed(shape[1])
    x = torch.randint(-20, 20, shape, generator=g).to(TORCH[dtype])  # few values: each row's maximum repeats
    text = ARGMAX.format(shape="x".join(map(str, shape)), dtype=dtype, rows=shape[0])
    outputs, _ = run_program(translate(lower_to_ttmetal(text, "<test>")), [x])
    first = (x == x.max(dim=1, keepdim=True).values).int().argmax(dim=1)  # torch: the first of the ties
    assert (x == x.max(dim=1, keepdim=True).values).sum(dim=1).max() > 1  # ties to break
    assert torch.equal(outputs[0].long(), first.long())


BINARY = """
func.func @binary(%a: tensor<{a}xf32>, %b: tensor<{b}xf32>) -> tensor<{c}xf32> {{
  %0 = "ttir.{op}"(%a, %b) : (tensor<{a}xf32>, tensor<{b}xf32>) -> tensor<{c}xf32>
  return %0 : tensor<{c}xf32>
}}
"""


@pytest.mark.parametrize("a, b, op", [
    ((4, 40, 96), (4, 40, 1), "subtract"),  # along the last dim, with a batch
    ((6, 1, 1, 128), (1, 1, 1, 128), "multiply"),  # a row repeated along the batch
    ((3, 40, 64), (1, 40, 64), "add"),  # a matrix of two tile rows repeated along the batch
    ((4, 40, 96), (1, 1, 96), "multiply"),  # one row for every row of every matrix
    ((2, 3, 40, 64), (1, 3, 40, 64), "multiply"),  # three matrices repeated along the leading dim
])
def test_elementwise_operand_broadcast_with_a_batch(a, b, op):
    g = torch.Generator().manual_seed(len(a) + a[-1])
    x, y = torch.randn(a, generator=g), torch.randn(b, generator=g)
    expected = {"subtract": x - y, "multiply": x * y, "add": x + y}[op]
    text = BINARY.format(a="x".join(map(str, a)), b="x".join(map(str, b)), c="x".join(map(str, a)), op=op)
    outputs, _ = run_program(translate(lower_to_ttmetal(text, "<test>")), [x, y])
    assert torch.allclose(outputs[0].float(), expected, atol=1e-3)
