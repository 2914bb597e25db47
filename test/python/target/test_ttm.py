"""A TTMetal module (host commands and kernels in IR) through `--ttmetal-to-flatbuffer` to a `.ttm`, run by the
Metal simulator: the numbers of the kernels the binary carries."""

from pathlib import Path

import pytest
import torch

from ttmlir.asm import parse_text
from ttmlir.dialects import make_context
from ttmlir.runtime.metal.core import MetalError
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.flatbuffer import BinaryError, load_bytes
from ttmlir.target.ttmetal import translate

ADD = Path(__file__).parents[2] / "lit" / "Translate" / "TTMetal" / "eltwise_add.mlir"


def binary(text: str) -> bytes:
    module, _ = parse_text(make_context(), text)
    return translate(module)


def test_eltwise_add_runs_from_its_binary():
    torch.manual_seed(6)
    a, b = torch.randn(64, 128), torch.randn(64, 128)
    outputs, stats = run_program(binary(ADD.read_text()), [a, b], name="add.ttm")
    assert len(outputs) == 1 and torch.equal(outputs[0], a + b)
    assert stats[0].cores == 2 and stats[0].tiles_computed == 8


def test_the_kernel_the_binary_carries_is_the_one_that_runs():
    torch.manual_seed(7)
    a, b = torch.randn(64, 128), torch.randn(64, 128)
    edited = ADD.read_text().replace('"add_tiles"', '"mul_tiles"').replace('"add_tiles_init"', '"mul_tiles_init"')
    outputs, _ = run_program(binary(edited), [a, b], exact=True)  # f32 products, not the FPU's 19-bit ones
    assert torch.equal(outputs[0], a * b)


def test_a_ttm_carries_a_checksum():
    data = bytearray(binary(ADD.read_text()))
    assert load_bytes(bytes(data), "add.ttm")[0] == "ttm"
    data[len(data) // 2] ^= 0x40
    with pytest.raises(BinaryError, match="add.ttm: corrupted flatbuffer"):
        run_program(bytes(data), [], name="add.ttm")


def test_wrong_inputs_and_a_buffer_used_after_its_deallocation_are_named():
    data = binary(ADD.read_text())
    with pytest.raises(MetalError, match="program 'add' takes 2 input"):
        run_program(data, [torch.zeros(64, 128)])
    reordered = ADD.read_text().replace(
        '''    "ttmetal.enqueue_program"''', '''    "ttmetal.deallocate_buffer"(%a) : (memref<1x2x2x2x!ttcore.tile<32x32, f32>, #ttcore.shard<8192x4096, 1>, #l1>) -> ()
    "ttmetal.enqueue_program"''', 1)
    with pytest.raises(MetalError, match="buffer 2 was not created"):
        run_program(binary(reordered), [torch.zeros(64, 128)] * 2)


def test_a_hand_edited_kernel_loaded_with_load_kernels_changes_the_result(tmp_path):
    import subprocess
    import sys

    from ttmlir.compiler import lower_to_ttmetal
    from ttmlir.target.ttmetal import translate as translate_metal

    source = (Path(__file__).parents[2] / "lit" / "Conversion" / "TTIRToTTMetal" / "eltwise.mlir").read_text()
    binary = tmp_path / "mul_exp.ttm"
    binary.write_bytes(translate_metal(lower_to_ttmetal(source)))
    kernels, ttrt = tmp_path / "kernels", Path(sys.executable).parent / "ttrt"

    def run(*flags: str) -> list[torch.Tensor]:
        artifacts = tmp_path / f"artifacts{len(list(tmp_path.iterdir()))}"
        subprocess.run([str(ttrt), "run", str(binary), "--save-artifacts", "--artifact-dir", str(artifacts),
                        "--result-file", str(tmp_path / "results.json"), "--kernel-source-dir", str(kernels), *flags],
                       check=True, capture_output=True)
        folder = artifacts / binary.name / "program_0"
        return [torch.load(folder / f"{kind}.pt") for kind in ("input_0", "input_1", "output_0")]

    a, b, product = run("--dump-kernels")
    assert torch.allclose(product, torch.exp(a * b), rtol=1e-5)
    compute = kernels / "mul_exp" / "compute_kernel5.cpp"  # the multiply's (kernels 0-3 tilize its inputs)
    compute.write_text(compute.read_text().replace("mul_binary_tile(", "add_binary_tile("))
    a, b, total = run("--load-kernels")
    assert torch.allclose(total, torch.exp(a + b), rtol=1e-5)


def test_ttrt_run_checks_a_ttm_against_the_goldens_it_carries(tmp_path, monkeypatch):
    import subprocess
    import sys

    from builder.base.builder_apis import Operand, compile_ttir_to_flatbuffer
    from builder.ttir.ttir_builder import TTIRBuilder

    def gate(builder: TTIRBuilder):
        @builder.func([(64, 64), (64, 64)], [torch.float32, torch.float32])
        def model(in0: Operand, in1: Operand, builder: TTIRBuilder):
            return builder.multiply(builder.sigmoid(in0), in1)

    monkeypatch.chdir(tmp_path)
    _, binary, io, _ = compile_ttir_to_flatbuffer(gate, target="ttmetal")
    ttrt = [str(Path(sys.executable).parent / "ttrt"), "run", binary, "--result-file", "r.json",
            "--kernel-source-dir", "k"]
    passed = subprocess.run([*ttrt, "--dump-kernels"], capture_output=True, text=True)
    assert passed.returncode == 0 and "output_0: PCC 1.000000 (golden)" in passed.stdout
    compute = tmp_path / "k" / "model" / "compute_kernel7.cpp"  # the multiply's (after two tilizes and the sigmoid)
    compute.write_text(compute.read_text().replace("mul_binary_tile(", "sub_binary_tile("))
    failed = subprocess.run([*ttrt, "--load-kernels"], capture_output=True, text=True)
    assert failed.returncode == 1
    assert "program 0 ('model'): golden check failed for output_0: PCC" in failed.stdout + failed.stderr
    assert subprocess.run([*ttrt, "--load-kernels", "--disable-golden"], capture_output=True).returncode == 0


def test_resealed_mutations_of_a_ttm_run_or_fail_located():
    """Bytes changed and the checksum made to match again (a buggy writer, not a bad disk): each binary is refused
    when read, or runs, or fails with a located error; never another exception."""
    import random

    from ttmlir.compiler import lower_to_ttmetal
    from ttmlir.runtime import RuntimeFailure
    from ttmlir.runtime.metal.kernel_cpp import KernelCompileError
    from ttmlir.runtime.metal.program import input_shapes
    from ttmlir.target import flatbuffer as fbu

    data = translate(lower_to_ttmetal((Path(__file__).parents[2] / "lit" / "Conversion" / "TTIRToTTMetal" /
                                       "eltwise.mlir").read_text()))
    rng = random.Random(11)
    for _ in range(80):
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        try:
            fbu.seal(mutated, "ttm")
            _, root = load_bytes(bytes(mutated), "m.ttm")
            programs = fbu.as_list(root.programs)
            shapes = input_shapes(programs[0]) if programs else []
            run_program(bytes(mutated), [torch.zeros(s) for s in shapes], name="m.ttm")
        except (BinaryError, RuntimeFailure, KernelCompileError) as error:
            assert "m.ttm" in str(error) or "kernel '" in str(error) or "core (" in str(error) or "buffer" in str(error)
