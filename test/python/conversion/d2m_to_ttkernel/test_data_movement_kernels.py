"""A program's data-movement kernels on the kernel path (`--ttir-to-ttmetal-pipeline`), run on the simulator: a reader
and a writer when two or more of its CBs move data over the NoC, else one kernel doing both (core 1, NoC 0; core 0,
NoC 1 when what it moves is a DRAM output), as upstream's d2m-schedule-dma leaves such a program one thread; the
results are right either way."""

import pytest
import torch

from ttmlir.compiler import lower_to_ttmetal
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

UNARY = """
func.func @f(%a: tensor<{shape}xf32>) -> tensor<{out}xf32> {{
  %0 = {op} : (tensor<{shape}xf32>) -> tensor<{out}xf32>
  return %0 : tensor<{out}xf32>
}}
"""
BINARY = """
func.func @f(%a: tensor<64x128xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = "ttir.add"(%a, %b) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
"""
DRAM = "default-input-memspace=dram default-output-memspace=dram"


def movers(stats) -> list[list[str]]:
    """Each launch's data-movement kernels, as the processors they ran on (brisc: core 0, ncrisc: core 1)."""
    return [sorted({(name, processor) for _, name, processor, _ in s.kernels if processor != "compute"})
            for s in stats]


def processors(launch: list) -> list[str]:
    return sorted(processor for _, processor in launch)


def test_a_program_whose_operands_are_its_cores_own_shards_has_one_data_movement_kernel():
    g = torch.Generator().manual_seed(1)
    a, b = torch.randn(64, 128, generator=g), torch.randn(64, 128, generator=g)
    (out,), stats = run_program(translate(lower_to_ttmetal(BINARY, "<test>")), [a, b])
    assert torch.allclose(out, a + b)
    # the two inputs' tilizes, the add, the result's untilize: no CB of any moves data over the NoC
    assert [processors(m) for m in movers(stats)] == [["ncrisc"]] * 4


def test_two_dram_inputs_keep_a_reader_and_a_writer():
    g = torch.Generator().manual_seed(2)
    a, b = torch.randn(64, 128, generator=g), torch.randn(64, 128, generator=g)
    (out,), stats = run_program(translate(lower_to_ttmetal(BINARY, "<test>", DRAM)), [a, b])
    assert torch.allclose(out, a + b)
    assert [processors(m) for m in movers(stats)] == [["brisc", "ncrisc"]]


@pytest.mark.parametrize("shape, out, op, options, expected, lone", [
    # a DRAM output the one transfer: its kernel on core 0 (NoC 1), the input tilized by a lone core-1 kernel
    ((64, 128), (64, 128), '"ttir.exp"(%a)', "default-output-memspace=dram", torch.exp, [["ncrisc"], ["brisc"]]),
    # a DRAM input the one transfer, the output in L1: one kernel on core 1, then the result's untilize
    ((64, 128), (64, 128), '"ttir.exp"(%a)', "default-input-memspace=dram", torch.exp, [["ncrisc"], ["ncrisc"]]),
    # a transpose gathers its input's tiles over the NoC into an L1 output
    ((64, 96), (96, 64), '"ttir.transpose"(%a) <{dim0 = 0 : si32, dim1 = 1 : si32}>', "default-input-memspace=dram",
     lambda x: x.t(), [["ncrisc"], ["ncrisc"]]),
    # a reduction streams its operand in over the NoC; its L1 output is the cores' own
    ((64, 128), (64, 1), '"ttir.sum"(%a) <{dim_arg = [1 : i32], keep_dim = true}>', "",
     lambda x: x.sum(1, keepdim=True), None),
])
def test_a_program_moving_one_cb_over_the_noc_has_one_data_movement_kernel(shape, out, op, options, expected, lone):
    text = UNARY.format(shape="x".join(map(str, shape)), out="x".join(map(str, out)), op=op)
    x = torch.randn(shape, generator=torch.Generator().manual_seed(3))
    (result,), stats = run_program(translate(lower_to_ttmetal(text, "<test>", options)), [x])
    assert torch.allclose(result, expected(x), rtol=1e-3, atol=1e-3)
    launches = movers(stats)
    assert all(len(m) == 1 for m in launches)
    if lone is not None:
        assert [processors(m) for m in launches] == lone


def test_a_gather_that_streams_shares_its_kernel_with_the_output():
    """On one core a 320x320 f32 transpose's copies take over a quarter of free L1, so the gathered input streams
    through a CB of a few pages while the same kernel then waits for the whole output shard."""
    text = UNARY.format(shape="320x320", out="320x320", op='"ttir.transpose"(%a) <{dim0 = 0 : si32, dim1 = 1 : si32}>')
    x = torch.randn(320, 320, generator=torch.Generator().manual_seed(4))
    module = lower_to_ttmetal(text, "<test>", "default-input-memspace=dram override-device-shape=1,1")
    (result,), stats = run_program(translate(module), [x])
    assert torch.equal(result, x.t())
    assert [processors(m) for m in movers(stats)] == [["ncrisc"], ["ncrisc"]]


def test_a_dram_output_that_streams_is_written_by_the_one_kernel_on_core_0():
    """On one core a 320x320 f32 negation's DRAM output streams tile by tile, written by the kernel that first hands
    the input shard over: on core 0 (NoC 1), as upstream places a lone thread writing DRAM."""
    text = UNARY.format(shape="320x320", out="320x320", op='"ttir.neg"(%a)')
    x = torch.randn(320, 320, generator=torch.Generator().manual_seed(6))
    module = lower_to_ttmetal(text, "<test>", "default-output-memspace=dram override-device-shape=1,1")
    (result,), stats = run_program(translate(module), [x])
    assert torch.equal(result, -x)
    assert [processors(m) for m in movers(stats)] == [["ncrisc"], ["brisc"]]


def test_a_matmul_keeps_its_two_operand_movers():
    g = torch.Generator().manual_seed(5)
    a, b = torch.randn(64, 128, generator=g), torch.randn(128, 96, generator=g)
    text = """
func.func @f(%a: tensor<64x128xf32>, %b: tensor<128x96xf32>) -> tensor<64x96xf32> {
  %0 = "ttir.matmul"(%a, %b) : (tensor<64x128xf32>, tensor<128x96xf32>) -> tensor<64x96xf32>
  return %0 : tensor<64x96xf32>
}
"""
    (out,), stats = run_program(translate(lower_to_ttmetal(text, "<test>")), [a, b], exact=True)
    assert torch.allclose(out, a @ b, rtol=1e-4, atol=1e-4)
    assert [processors(m) for m in movers(stats)][2] == ["brisc", "ncrisc"]  # after the two tilizes
