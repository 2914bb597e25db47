"""EmitPy end to end: generated Python runs on the simulated `ttnn` module and reproduces `ttrt run` bit for bit;
the `ttnn` API itself against torch."""

from pathlib import Path

import pytest
import torch

from ttmlir.compiler import compile_ttir, lower
from ttmlir.runtime import RuntimeFailure
from ttmlir.runtime.golden import pcc
from ttmlir.target.python import translate_to_python
from emit_runners import run_emitpy

MODELS = Path(__file__).resolve().parents[3] / "lit" / "Models"


def emit_python(text: str) -> str:
    return translate_to_python(lower(text, "<test>", "ttir-to-emitpy-pipeline"))




@pytest.mark.parametrize("model", ["mnist_mlp", "transformer_block", "llama_decoder_step", "resnet_block"])
def test_model_emitpy_equals_flatbuffer(tmp_path, model):
    text = (MODELS / f"{model}.mlir").read_text()
    results = run_emitpy(tmp_path, emit_python(text), compile_ttir(text))
    assert results[0]["result"] == "pass", results[0]["exception"]


CONSTANT_AND_EMBEDDING = """
func.func @main(%ids: tensor<2x8xsi32>, %table: tensor<64x32xbf16>, %x: tensor<2x4xf32>) -> (tensor<2x8x32xbf16>, tensor<2x4xf32>) {
  %e = "ttir.embedding"(%ids, %table) : (tensor<2x8xsi32>, tensor<64x32xbf16>) -> tensor<2x8x32xbf16>
  %c = "ttir.constant"() <{value = dense<[[1.0, -2.0, 3.5, 4.0], [0.5, 6.0, -7.0, 8.25]]> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
  %y = "ttir.multiply"(%x, %c) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %e, %y : tensor<2x8x32xbf16>, tensor<2x4xf32>
}
"""


def test_constant_and_embedding_equal_flatbuffer(tmp_path):
    """A non-splat constant keeps its shape (`ttnn.Tensor(values, shape, ...)`), an embedding its weight's format."""
    py = emit_python(CONSTANT_AND_EMBEDDING)
    assert "ttnn.Tensor([1.0, -2.0, 3.5, 4.0, 0.5, 6.0, -7.0, 8.25], [2, 4], ttnn.DataType.FLOAT32" in py
    assert "dtype=ttnn.DataType.BFLOAT16" in py.split("ttnn.embedding(")[1].split("\n")[0]
    (result,) = run_emitpy(tmp_path, py, compile_ttir(CONSTANT_AND_EMBEDDING))
    assert result["result"] == "pass", result["exception"]


CALLS_A_FORWARD_FUNCTION = """
func.func @var_0(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = "ttir.relu"(%x) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}
func.func @main(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = call @var_0(%x) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %1 = "ttir.add"(%0, %x) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %1 : tensor<32x32xf32>
}
"""


def test_forward_function_called_by_another(tmp_path):
    """A called forward function takes and returns a list like any other; no local shadows its name."""
    py = emit_python(CALLS_A_FORWARD_FUNCTION)
    body = py.split("def _main(")[1].split("\ndef ")[0]
    assert "= var_0(" in body and "\n    var_0 = " not in body
    results = run_emitpy(tmp_path, py, compile_ttir(CALLS_A_FORWARD_FUNCTION))
    assert all(r["result"] == "pass" for r in results), results


def test_emitpy_loops_and_own_inputs(tmp_path):
    text = (MODELS / "mnist_mlp.mlir").read_text()
    (result,) = run_emitpy(tmp_path, emit_python(text), None, **{"--loops": 3})
    assert result["result"] == "pass", result["exception"]
    loops = result["program_results"]["program_index_0"]
    assert sorted(loops) == ["loop_0", "loop_1", "loop_2"]
    assert all(loop["total_device_kernel_duration_ns"] > 0 for loop in loops.values())


def test_emitpy_detects_a_wrong_program(tmp_path):
    """Generated code edited to compute something else no longer matches the flatbuffer."""
    text = (MODELS / "mnist_mlp.mlir").read_text()
    py = emit_python(text).replace("ttnn.relu(", "ttnn.sigmoid(", 1)
    assert "ttnn.sigmoid(" in py
    (result,) = run_emitpy(tmp_path, py, compile_ttir(text))
    assert result["result"] == "error" and "differs from the flatbuffer" in result["exception"]


def test_emitpy_bad_file_is_an_error_entry(tmp_path):
    (result,) = run_emitpy(tmp_path, "def forward(:\n", None)
    assert result["result"] == "error" and "invalid Python" in result["exception"]


def test_ttnn_api_against_torch():
    import ttnn

    device = ttnn.open_device(device_id=0)
    gen = torch.Generator().manual_seed(0)
    a, b = torch.randn(64, 96, generator=gen), torch.randn(96, 32, generator=gen)
    ta = ttnn.from_torch(a, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    tb = ttnn.from_torch(b, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                         memory_config=ttnn.L1_MEMORY_CONFIG)
    assert ta.shape == ttnn.Shape([64, 96]) and ta.dtype == ttnn.bfloat16 and ta.layout == ttnn.TILE_LAYOUT
    assert tb.memory_config() == ttnn.L1_MEMORY_CONFIG
    out = ttnn.to_torch(ttnn.softmax(ttnn.relu(ta @ tb), dimension=-1))
    expected = torch.softmax(torch.relu(a.bfloat16().float() @ b.bfloat16().float()), -1)
    assert out.shape == (64, 32)
    assert pcc(out.float(), expected) > 0.99  # bf16 rounding between the ops
    host = ttnn.from_device(ta + ta)
    assert host.storage_type() == ttnn.StorageType.HOST
    assert torch.equal(ttnn.to_torch(host), (a.bfloat16() * 2))
    assert device.context.peak["dram"] > 0 and device.context.peak["l1"] > 0
    values = torch.arange(12, dtype=torch.float32).reshape(3, 4) - 5.5
    made = ttnn.Tensor(values.flatten().tolist(), [3, 4], ttnn.float32, ttnn.TILE_LAYOUT, device, ttnn.DRAM_MEMORY_CONFIG)
    assert made.shape == ttnn.Shape([3, 4]) and made.layout == ttnn.TILE_LAYOUT and made.storage_type() == ttnn.StorageType.DEVICE
    assert torch.equal(ttnn.to_torch(made), values)
    ttnn.close_device(device)


def test_ttnn_api_refuses_what_it_cannot_do():
    import ttnn

    device = ttnn.open_device()
    t = ttnn.from_torch(torch.ones(32, 32), layout=ttnn.TILE_LAYOUT, device=device)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        ttnn.relu(t, bogus=1)
    with pytest.raises(TypeError, match="missing required argument 'rhs'"):
        ttnn.add(t)
    with pytest.raises(RuntimeFailure, match="activation 'bogus' is not a unary op"):
        ttnn.matmul(t, t, activation="bogus")
    with pytest.raises(ValueError, match="3 values for shape \\[2, 2\\]"):
        ttnn.Tensor([1.0, 2.0, 3.0], [2, 2], ttnn.float32, ttnn.ROW_MAJOR_LAYOUT)
    with pytest.raises(TypeError, match="shard_spec must be a ttnn.ShardSpec"):
        ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1, object())


EXPORTED = """
func.func @model(%x: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<input>},
                 %w: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                 %c: tensor<32x32xbf16> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<32x32xbf16> {
  %0 = "ttir.add"(%x, %w) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %1 = "ttir.subtract"(%w, %c) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  %2 = "ttir.multiply"(%0, %1) : (tensor<32x32xbf16>, tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %2 : tensor<32x32xbf16>
}
"""


def test_target_module_imports_and_runs_on_the_callers_device(tmp_path):
    """`target-module`: an importable module whose `forward(input, device)` takes host tensors and runs on the
    device it is given, its const-eval part computed once; equal to the flatbuffer of the same graph."""
    import importlib.util

    import ttnn
    from ttrt.common.emitpy import generated_code_imports

    from ttmlir.runtime.device import MeshDevice
    from ttmlir.runtime.executor import Binary, run_program

    py = translate_to_python(lower(EXPORTED, "<test>", "ttir-to-emitpy-pipeline",
                                   "target-module=true split-files=false"))
    assert "def forward(input, device):" in py and "DeviceGetter" not in py and "def main(" not in py
    (tmp_path / "exported.py").write_text(py)
    gen = torch.Generator().manual_seed(0)
    x, w, c = (torch.randn(32, 32, generator=gen).bfloat16() for _ in range(3))
    binary = Binary(data=compile_ttir(EXPORTED))
    (expected,), _ = run_program(binary, 0, [x, w, c], MeshDevice())
    device = ttnn.open_device()
    with generated_code_imports():
        spec = importlib.util.spec_from_file_location("exported", tmp_path / "exported.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        inputs = [ttnn.from_torch(t, dtype=ttnn.bfloat16) for t in (x, w, c)]  # on the host, as the caller has them
        for _ in range(2):  # the second call reads the const-eval cache
            (out,) = module.forward(inputs, device)
            assert torch.equal(ttnn.to_torch(out).float(), expected.data.float())
    assert list(module.ce_cache_forward) == ["model_const_eval_0"]  # computed once, named after the graph
    assert out._device is device


CLASS = """
module {
  emitpy.class @Biased {
    func.func @__init__(%self: !emitpy.class<"Biased">, %b: !emitpy.opaque<"ttnn.Tensor"> {emitpy.name = "bias"}) {
      emitpy.set_attr %self, "bias", %b : (!emitpy.class<"Biased">, !emitpy.opaque<"ttnn.Tensor">)
      return
    }
    func.func @forward(%self: !emitpy.class<"Biased">, %x: !emitpy.opaque<"ttnn.Tensor"> {emitpy.name = "x"}) -> !emitpy.opaque<"ttnn.Tensor"> {
      %0 = emitpy.expression(%self, %x) : (!emitpy.class<"Biased">, !emitpy.opaque<"ttnn.Tensor">) -> !emitpy.opaque<"ttnn.Tensor"> {
      ^bb0(%s: !emitpy.class<"Biased">, %v: !emitpy.opaque<"ttnn.Tensor">):
        %b = emitpy.get_attr %s, "bias" : (!emitpy.class<"Biased">) -> !emitpy.opaque<"ttnn.Tensor">
        %r = emitpy.call_opaque "ttnn.add"(%v, %b) : (!emitpy.opaque<"ttnn.Tensor">, !emitpy.opaque<"ttnn.Tensor">) -> !emitpy.opaque<"ttnn.Tensor">
        emitpy.yield %r : !emitpy.opaque<"ttnn.Tensor">
      }
      return %0 : !emitpy.opaque<"ttnn.Tensor">
    }
    func.func @double(%x: !emitpy.opaque<"ttnn.Tensor"> {emitpy.name = "x"}) -> !emitpy.opaque<"ttnn.Tensor"> attributes {emitpy.method_kind = "staticmethod"} {
      %0 = emitpy.call_opaque "ttnn.add"(%x, %x) : (!emitpy.opaque<"ttnn.Tensor">, !emitpy.opaque<"ttnn.Tensor">) -> !emitpy.opaque<"ttnn.Tensor">
      return %0 : !emitpy.opaque<"ttnn.Tensor">
    }
  }
}
"""


def test_emitpy_class_runs():
    """An `emitpy.class` is a Python class: its __init__ keeps state on `self`, its methods read it back."""
    import ttnn

    from ttmlir.dialects import make_context
    from ttmlir.diagnostics import load_module

    module, _ = load_module(make_context(), CLASS, "<test>")
    py = translate_to_python(module)
    assert "class Biased:" in py and "        return ttnn.add(x, self.bias)" in py and "    @staticmethod" in py
    scope = {"ttnn": ttnn}
    exec(compile(py, "biased.py", "exec"), scope)
    device = ttnn.open_device()
    x, b = torch.randn(32, 32), torch.randn(32, 32)
    tx, tb = (ttnn.from_torch(t, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=device) for t in (x, b))
    model = scope["Biased"](tb)
    assert torch.equal(ttnn.to_torch(model.forward(tx)), x + b)
    assert torch.equal(ttnn.to_torch(scope["Biased"].double(tx)), x + x)
