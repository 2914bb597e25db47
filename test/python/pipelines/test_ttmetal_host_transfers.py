"""Host data crosses to and from the device row-major, as upstream's host can neither tilize nor untilize:
`--ttir-to-ttmetal-pipeline` has the host write each L1 input into row-major shards (each matrix padded to whole
tiles) that a program tilizes on the same cores, and untilizes a tiled L1 result on its own cores, in a program after
the one computing it, into row-major shards the host reads as they are; run from the `.ttm` on the simulated grid
against torch (exact for data movement)."""

import pytest
import torch

from ttmlir.asm import parse_text
from ttmlir.dialects import make_context
from ttmlir.dialects.ttmetal import EnqueueProgramOp, EnqueueReadBufferOp, EnqueueWriteBufferOp
from ttmlir.passes import make_pass
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

TYPES = {"f32": torch.float32, "bf16": torch.bfloat16}


def _type(shape, dtype: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


def _compile(text: str, arch: str = "wormhole_b0", options: str = ""):
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    make_pass("ttcore-register-device", f"mock-system-desc-arch={arch}").apply(ctx, module)
    make_pass("ttir-to-ttmetal-pipeline", options).apply(ctx, module)
    return module


def _run(module, inputs):
    outputs, _ = run_program(translate(module), inputs)
    return outputs


def _reads(module) -> list:
    return [op for op in module.walk() if isinstance(op, EnqueueReadBufferOp)]


def _writes(module) -> list:
    return [op for op in module.walk() if isinstance(op, EnqueueWriteBufferOp)]


def _programs(module) -> list:
    return [op for op in module.walk() if isinstance(op, EnqueueProgramOp)]


@pytest.mark.parametrize("shape, dtype", [
    ((64, 128), "f32"),
    ((50, 70), "bf16"),  # rows and columns of padding
    ((3, 50, 70), "f32"),  # a batch of matrices, each padded to whole tiles
    ((2, 3, 40, 33), "bf16"),
    ((128,), "bf16"),  # a vector: a row padded to a tile's rows
])
def test_host_data_crosses_row_major_tilized_and_untilized_on_the_device(shape, dtype):
    t = _type(shape, dtype)
    module = _compile(f'func.func @f(%a: {t}) -> {t} {{\n  %0 = "ttir.neg"(%a) : ({t}) -> {t}\n'
                      f'  return %0 : {t}\n}}\n')
    (write,), (read,) = _writes(module), _reads(module)
    for device, host in ((write.operands[1].type, write.operands[0].type), (read.operands[0].type,
                                                                            read.operands[1].type)):
        assert device.element_type == host.element_type  # row-major elements, not tiles
        assert all(d % 32 == 0 for d in device.get_shape()[2:])  # each shard whole tiles' worth of rows and columns
    assert len(_programs(module)) == 3  # the tilize, the neg, the untilize
    x = torch.randn(shape, generator=torch.Generator().manual_seed(3)).to(TYPES[dtype])
    (out,) = _run(module, [x])
    assert torch.equal(out.to(TYPES[dtype]), -x)


def test_a_transpose_read_back_row_major_is_exact():
    a, b = _type((50, 70), "f32"), _type((70, 50), "f32")
    module = _compile(f'func.func @f(%a: {a}) -> {b} {{\n'
                      f'  %0 = "ttir.transpose"(%a) <{{dim0 = 0 : si32, dim1 = 1 : si32}}> : ({a}) -> {b}\n'
                      f'  return %0 : {b}\n}}\n')
    x = torch.randn(50, 70, generator=torch.Generator().manual_seed(5))
    (out,) = _run(module, [x])
    assert torch.equal(out, x.T)


def test_a_reduction_result_is_untilized_on_its_own_grid():
    """The untilize runs where the result is: a bf16 max over rows (a 1x4 grid of one tile each) read back from a
    1x4 grid of 32x32 row-major shards (on blackhole, as upstream's virtual_grid_scalar_host_bounce checks)."""
    a, r = _type((512, 128), "bf16"), _type((128,), "bf16")
    module = _compile(f'func.func @f(%a: {a}) -> {r} {{\n'
                      f'  %0 = "ttir.max"(%a) <{{dim_arg = [0 : i32], keep_dim = false}}> : ({a}) -> {r}\n'
                      f'  return %0 : {r}\n}}\n', arch="blackhole")
    (read,) = _reads(module)
    assert read.operands[0].type.get_shape() == (1, 4, 32, 32)
    x = torch.randn(512, 128, generator=torch.Generator().manual_seed(9)).bfloat16()
    (out,) = _run(module, [x])
    assert torch.equal(out.bfloat16(), x.amax(dim=0))


def test_two_results_each_untilized_after_the_program_computing_it():
    t = _type((64, 96), "f32")
    module = _compile(f'func.func @f(%a: {t}) -> ({t}, {t}) {{\n'
                      f'  %0 = "ttir.neg"(%a) : ({t}) -> {t}\n  %1 = "ttir.abs"(%0) : ({t}) -> {t}\n'
                      f'  return %0, %1 : {t}, {t}\n}}\n')
    assert len(_programs(module)) == 5  # the input's tilize, neg, its untilize, abs, its untilize
    x = torch.randn(64, 96, generator=torch.Generator().manual_seed(11))
    neg, absolute = _run(module, [x])
    assert torch.equal(neg, -x) and torch.equal(absolute, x.abs())


def test_dram_tensors_are_written_and_read_back_tiled():
    """Inputs and results in DRAM are still written and read back as tiles (row-major DRAM buffers are not built
    yet)."""
    t = _type((64, 64), "f32")
    module = _compile(f'func.func @f(%a: {t}) -> {t} {{\n  %0 = "ttir.neg"(%a) : ({t}) -> {t}\n'
                      f'  return %0 : {t}\n}}\n',
                      options="default-input-memspace=dram default-output-memspace=dram")
    (write,), (read,) = _writes(module), _reads(module)
    assert "tile" in str(write.operands[1].type.element_type) and "tile" in str(read.operands[0].type.element_type)
    assert len(_programs(module)) == 1
    x = torch.randn(64, 64, generator=torch.Generator().manual_seed(13))
    (out,) = _run(module, [x])
    assert torch.equal(out, -x)


def test_a_scalar_result_is_read_from_its_row_major_tile():
    a, r = _type((40, 70), "f32"), "tensor<f32>"
    module = _compile(f'func.func @f(%a: {a}) -> {r} {{\n'
                      f'  %0 = "ttir.sum"(%a) <{{dim_arg = [0 : i32, 1 : i32], keep_dim = false}}> : ({a}) -> {r}\n'
                      f'  return %0 : {r}\n}}\n')
    (read,) = _reads(module)
    assert read.operands[0].type.get_shape() == (1, 1, 32, 32)
    x = torch.randn(40, 70, generator=torch.Generator().manual_seed(17))
    (out,) = _run(module, [x])
    assert out.shape == () and torch.allclose(out, x.sum(), rtol=1e-4, atol=1e-3)


def test_a_scalar_and_a_masked_input_are_tilized_on_the_device():
    """A 0-d argument lands in one row-major tile (the rest zero) and is broadcast from it; a max over a row of 70
    columns reads the masked padding of its tilized input (-inf where the host's zeros are)."""
    b, r = _type((40, 70), "f32"), _type((40, 1), "f32")
    module = _compile(f'func.func @f(%a: tensor<f32>, %b: {b}) -> {r} {{\n'
                      f'  %0 = "ttir.add"(%b, %a) : ({b}, tensor<f32>) -> {b}\n'
                      f'  %1 = "ttir.max"(%0) <{{dim_arg = [1 : i32], keep_dim = true}}> : ({b}) -> {r}\n'
                      f'  return %1 : {r}\n}}\n')
    # the two arguments row-major (the constants of the masks and the reduction's scaler are host data written as
    # tiles)
    assert all("tile" not in str(w.operands[1].type.element_type) for w in _writes(module)[:2])
    x = -torch.rand(40, 70, generator=torch.Generator().manual_seed(19)) - 1
    (out,) = _run(module, [torch.tensor(0.5), x])
    assert torch.equal(out, (x + 0.5).amax(dim=1, keepdim=True))
