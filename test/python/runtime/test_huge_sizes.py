"""Absurd sizes written in IR text (integer widths, dimensions, element counts, constants) end in a located one-line
error and exit 1, checked before anything is sized from them: each tool runs under a 1 GiB address-space limit, so
an allocation proportional to such a size would fail the test with a MemoryError instead of swapping."""

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from ttmlir_opt import Options, process_chunk

BIN = Path(sys.executable).parent
LIMIT = 1 << 30

# (text, the text the error points at (its first occurrence), the error)
PIECES = [
    ('func.func @f(%a: tensor<4xi1099511627776>) -> tensor<4xi1099511627776> {\n  return %a : tensor<4xi1099511627776>\n}',
     "i1099511627776>", "invalid integer width"),
    ('func.func @f(%a: tensor<4xi16777216>) -> tensor<4xi16777216> {\n  return %a : tensor<4xi16777216>\n}',
     "i16777216", "integer bitwidth is limited to 16777215 bits"),
    ('func.func @f() -> tensor<4xi32> {\n  %0 = "ttir.arange"() <{start = 0 : si64, end = 4 : si64, '
     'step = 1 : i1099511627776, arange_dimension = 0 : i64}> : () -> tensor<4xi32>\n  return %0 : tensor<4xi32>\n}',
     "i1099511627776,", "invalid integer width"),
    ('func.func @f(%a: tensor<99999999999999999999x4xf32>) -> tensor<99999999999999999999x4xf32> {\n'
     '  return %a : tensor<99999999999999999999x4xf32>\n}', "99999999999999999999x", "invalid dimension"),
    ('func.func @f(%a: tensor<4294967296x4294967296x16xf32>) -> tensor<4294967296x4294967296x16xf32> {\n'
     '  return %a : tensor<4294967296x4294967296x16xf32>\n}', "tensor<4294967296x4294967296x16xf32>",
     "tensor<4294967296x4294967296x16xf32> is too large: 295147905179352825856 elements"),
    ('func.func @f(%a: tensor<4294967296x1073741824xf32>) -> tensor<4294967296x1073741824xf32> {\n'
     '  return %a : tensor<4294967296x1073741824xf32>\n}', "tensor<4294967296x1073741824xf32>",
     "tensor<4294967296x1073741824xf32> is too large: 4611686018427387904 elements of 4 bytes each"),
    ('#dram = #ttnn.buffer_type<dram>\n#l = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, '
     'memref<4294967296x4294967296x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>', "memref<4294967296",
     "memref<4294967296x4294967296x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>> is too large: "
     "18446744073709551616 elements of 2048 bytes each"),
    ('func.func @f() -> tensor<4xi32> {\n  %0 = "ttir.constant"() <{value = dense<1> : tensor<1000000000xi4096>}> '
     ': () -> tensor<1000000000xi4096>\n  return %0 : tensor<4xi32>\n}', "<1> : tensor<1000000000xi4096>",
     "dense elements of i4096 are not supported"),
    ('func.func @f() -> tensor<4xf32> {\n  %0 = "ttir.constant"() <{value = dense<"0x0000803F0000803F"> : '
     'tensor<1000000000000xf32>}> : () -> tensor<1000000000000xf32>\n  return %0 : tensor<4xf32>\n}', "<\"0x0000803F",
     "Shape mismatch in dense literal. Expected 1000000000000 elements from the type, but got 2 elements"),
    ('func.func @f() -> tensor<2xi64> {\n  %0 = "ttir.constant"() <{value = dense<[1, 18446744073709551616]> : '
     'tensor<2xi64>}> : () -> tensor<2xi64>\n  return %0 : tensor<2xi64>\n}', "18446744073709551616]", "Integer value 18446744073709551616 is out of range for type i64"),
    ('func.func @f() -> tensor<1xf32> {\n  %0 = "ttir.full"() <{fill_value = 0xFF800000A : f32, shape = '
     'array<i32: 1>}> : () -> tensor<1xf32>\n  return %0 : tensor<1xf32>\n}', "0xFF800000A",
     "hexadecimal float constant out of range for type"),
    ('func.func @f(%a: tensor<4x!quant.uniform<i4294967296:f32, 0.1>>) {\n  return\n}', "i4294967296:",
     "invalid integer width"),
    ('func.func @f(%a: tensor<4x!quant.uniform<i64:f32, 0.1>>) {\n  return\n}', "i64:",
     "illegal storage type size: 64"),
    ('func.func @f(%a: !ttnn.device<1099511627776>) {\n  return\n}', "<1099511627776>", "!ttnn.device takes 0 parameters"),
]


def _limited():
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def run_tool(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "TTMLIR_TRACEBACK": ""}
    return subprocess.run([str(BIN / args[0]), *args[1:]], capture_output=True, text=True, preexec_fn=_limited,
                          env=env, timeout=120)


def assert_located(proc: subprocess.CompletedProcess, path: Path, line: int, column: int, message: str) -> None:
    assert proc.returncode == 1, proc.stderr
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr
    assert f"{path}:{line}:{column}: error: " in proc.stderr and message in proc.stderr, proc.stderr


@pytest.mark.parametrize("pipeline", [None, "--ttir-to-ttnn-backend-pipeline"])
def test_absurd_sizes_in_text_are_located_errors(tmp_path, pipeline):
    path = tmp_path / "sizes.mlir"
    path.write_text("\n// -----\n".join(text for text, _, _ in PIECES) + "\n")
    proc = run_tool("ttmlir-opt", "--split-input-file", *([pipeline] if pipeline else []), str(path), "-o",
                    str(tmp_path / "out.mlir"))
    assert proc.returncode == 1 and not (tmp_path / "out.mlir").exists()
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr
    first = 1
    for text, at, message in PIECES:
        offset = text.index(at)
        line, column = first + text.count("\n", 0, offset), offset - text.rfind("\n", 0, offset)
        assert f"{path}:{line}:{column}: error: {message}" in proc.stderr, (message, proc.stderr)
        first += text.count("\n") + 2


def _lowered(ttir: str, pipeline: str) -> str:
    printed, diagnostics = process_chunk(ttir, "in.mlir", 0, Options(passes=[(pipeline, "")]))
    assert not diagnostics, diagnostics[0].render()
    return printed


CONSTANT = ('func.func @f() -> tensor<1x2xf32> {\n  %0 = "ttir.constant"() <{value = dense<[[1.0, 2.0]]> : '
            'tensor<1x2xf32>}> : () -> tensor<1x2xf32>\n  return %0 : tensor<1x2xf32>\n}\n')


def _enlarged(text: str) -> str:
    """The two-element constant as a splat of 60000x60000 f32 (14.4 GB if listed element by element)."""
    return text.replace("dense<[[1.000000e+00, 2.000000e+00]]>", "dense<1.0>").replace("1x2xf32", "60000x60000xf32")


@pytest.mark.parametrize("pipeline,translation", [("ttir-to-ttnn-backend-pipeline", "--ttnn-to-flatbuffer"),
                                                  ("ttir-to-ttmetal-pipeline", "--ttmetal-to-flatbuffer")])
def test_translate_refuses_constants_no_binary_holds(tmp_path, pipeline, translation):
    text = _enlarged(_lowered(CONSTANT, pipeline)).replace("memref<1x1x!ttcore", "memref<1875x1875x!ttcore")
    path = tmp_path / "big.mlir"
    path.write_text(text)
    proc = run_tool("ttmlir-translate", translation, str(path), "-o", str(tmp_path / "big.bin"))
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "ttnn.constant" in s or "get_global" in s)
    assert_located(proc, path, line, text.splitlines()[line - 1].index("=") + 3,
                   "a constant tensor<60000x60000xf32> of 14400000000 bytes is larger than a flatbuffer binary holds")
    assert not (tmp_path / "big.bin").exists()


@pytest.mark.parametrize("op,message", [
    ('"ttir.full"() <{fill_value = 1.0 : f32, shape = array<i32: 1000000, 1000000>}>',  # host data to write
     "a constant tensor<1000000x1000000xf32> of 4000000000000 bytes is larger than a flatbuffer binary holds"),
    # a 1-D arange broadcast (the frontend's decomposition): its row's tiles alone are more than L1 holds
    ('"ttir.arange"() <{start = 0 : si64, end = 1000000 : si64, step = 1 : si64, arange_dimension = 1 : i64}>',
     "the tensors live at once in @f need")])
def test_metal_pipeline_does_not_expand_huge_constants(tmp_path, op, message):
    path = tmp_path / "fill.mlir"
    path.write_text(f"func.func @f() -> tensor<1000000x1000000xf32> {{\n  %0 = {op} : () -> tensor<1000000x1000000xf32>"
                    "\n  return %0 : tensor<1000000x1000000xf32>\n}\n")
    assert_located(run_tool("ttmlir-opt", "--ttir-to-ttmetal-pipeline", str(path)), path, 2, 8, message)


def test_verifier_refuses_a_built_type_too_large():
    """IR built in Python (not read from text) is checked by the ops' verifiers."""
    from xdsl.dialects.builtin import ModuleOp, TensorType, f32

    from ttmlir.diagnostics import verify_errors
    from ttmlir.dialects.ttir import TTIR

    empty = next(op for op in TTIR.operations if op.name == "ttir.empty")
    errors = verify_errors(ModuleOp([empty.create(result_types=[TensorType(f32, [2**40, 2**40])])]))
    assert errors and "result #0: tensor<1099511627776x1099511627776xf32> is too large" in errors[0][1]


def test_ttrt_run_refuses_enormous_tensors(tmp_path):
    """A binary whose tensors no device holds (140 TB of DRAM) is refused by the allocator before any is made."""
    from ttmlir.diagnostics import load_module
    from ttmlir.dialects import make_context
    from ttmlir.target.ttnn import translate

    huge = "tensor<1x1099511627776x64xbf16>"
    lowered = _lowered(f'func.func @f(%a: {huge}) -> {huge} {{\n  %0 = "ttir.abs"(%a) : ({huge}) -> {huge}\n'
                       f"  return %0 : {huge}\n}}\n", "ttir-to-ttnn-backend-pipeline")
    binary = tmp_path / "huge.ttnn"
    binary.write_bytes(translate(load_module(make_context(), lowered, "huge.mlir")[0]))
    proc = run_tool("ttrt", "run", str(binary), "--result-file", str(tmp_path / "results.json"))
    assert proc.returncode == 1 and "internal error" not in proc.stdout + proc.stderr
    assert "out of memory: program 'f' input 0 needs 11728124030976 bytes per bank in dram" in proc.stdout + proc.stderr


def test_a_cluster_axis_past_the_mesh_is_not_folded():
    """The one-chip fold of a collective reads the mesh along its axis only when the mesh has that axis."""
    text = ('func.func @f(%a: tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32> {\n  %0 = "ttir.all_reduce"(%a) '
            '<{cluster_axis = 11111 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<1x1x64x64xf32>) -> '
            'tensor<1x1x64x64xf32>\n  return %0 : tensor<1x1x64x64xf32>\n}\n')
    assert '"ttnn.all_reduce"' in _lowered(text, "ttir-to-ttnn-backend-pipeline")
    assert '"ttnn.all_reduce"' not in _lowered(text.replace("11111", "0"), "ttir-to-ttnn-backend-pipeline")
