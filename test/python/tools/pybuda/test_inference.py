"""The pybuda API (seed 003): pipelines, CPU fallback, device images, compile entry points, refusals."""

import subprocess
import sys
from pathlib import Path

import pytest
import torch

import pybuda
from pybuda._C.backend_api import BackendDevice, BackendType, DeviceMode
from ttmlir.runtime.golden import pcc

ROOT = Path(__file__).resolve().parents[4]


pytestmark = pytest.mark.usefixtures("fresh_pybuda")


class Spectrum(torch.nn.Module):
    """A projection, an FFT magnitude no device op computes, and a classifier after it."""

    def __init__(self):
        super().__init__()
        self.proj, self.head = torch.nn.Linear(32, 64), torch.nn.Linear(33, 8)

    def forward(self, x):
        spectrum = torch.fft.rfft(torch.relu(self.proj(x)), dim=-1).abs()
        return torch.softmax(self.head(spectrum), dim=-1)


def test_backend_api_paths_and_reexports():
    assert pybuda.BackendDevice is BackendDevice and pybuda.BackendType is BackendType
    assert pybuda.DeviceMode is DeviceMode
    assert pybuda.detect_available_devices() == [BackendDevice.Wormhole_B0]
    cfg = pybuda.config._get_global_compiler_config()
    assert cfg.enable_tvm_cpu_fallback is False


def test_cpu_fallback_splits_the_graph():
    model = Spectrum().eval()
    x = torch.randn(4, 32)
    tt0 = pybuda.TTDevice("tt0", module=pybuda.PyTorchModule("spectrum", model))
    tt0.push_to_inputs(x)
    with pytest.raises(pybuda.PyBudaError, match="no TTIR lowering for aten::_fft_r2c.*enable_tvm_cpu_fallback"):
        pybuda.run_inference()
    pybuda.pybuda_reset()

    pybuda.config._get_global_compiler_config().enable_tvm_cpu_fallback = True
    tt0 = pybuda.TTDevice("tt0", module=pybuda.PyTorchModule("spectrum", model))
    for _ in range(2):
        tt0.push_to_inputs((x,))
        output = pybuda.run_inference().get()[0].value()
        assert pcc(model(x), output) >= 0.99
    placement = tt0.placement()
    sides = [where for *_, where in placement]
    assert "cpu" in sides and sides[0] == "device" and sides[-1] == "device"
    assert any(op == "aten::_fft_r2c" and where == "cpu" for _, op, where in placement)
    report = tt0.report()
    assert "on the CPU" in report and "aten::_fft_r2c" in report
    assert "Displaying memory footprint per DRAM channel (MB):" in report and "\n11 : " in report


def test_pipeline_of_cpu_and_tt_devices():
    pre, post = torch.nn.Linear(16, 32), torch.nn.Sequential(torch.nn.ReLU(), torch.nn.Linear(32, 8))
    pybuda.CPUDevice("cpu0", module=pybuda.PyTorchModule("pre", pre))
    tt0 = pybuda.TTDevice("tt0", arch=BackendDevice.Blackhole, devtype=BackendType.Golden)
    tt0.place_module(pybuda.PyTorchModule("post", post))
    x = torch.randn(2, 16)
    outputs = pybuda.run_inference(inputs=[(x,), (x * 2,)])
    first, second = outputs.get(), outputs.get()
    with torch.no_grad():
        assert pcc(post(pre(x)), first[0].value()) >= 0.99
        assert pcc(post(pre(x * 2)), second[0].value()) >= 0.99
    assert tt0.last_run_reports()[0].dram_channels == 8  # a Blackhole p150


def test_pybuda_module_and_tensor():
    class TwoMatmuls(pybuda.PyBudaModule):
        def __init__(self, name):
            super().__init__(name)
            self.weights1 = pybuda.Parameter(torch.rand(32, 32), requires_grad=True)
            self.weights2 = pybuda.Parameter(torch.rand(32, 32), requires_grad=True)

        def forward(self, x):
            return pybuda.op.Matmul("mm2", pybuda.op.Gelu("gelu", pybuda.op.Matmul("mm1", x, self.weights1)),
                                    self.weights2)

    module = TwoMatmuls("test_module")
    module.set_parameter("weights1", torch.eye(32) * 0.5)  # as the tutorials set a weight before compiling
    x = torch.randn(1, 32, 32)
    output = pybuda.run_inference(module, inputs=[pybuda.Tensor.create_from_torch(x)]).get()[0]
    expected = torch.nn.functional.gelu(x @ module.weights1) @ module.weights2
    assert pcc(expected.detach(), output.to_framework("pytorch")) >= 0.99


def test_hugging_face_model_on_a_tokenizer_dict():
    """A tokenizer's dict (input_ids, attention_mask: the first arguments, the rest left to their defaults) with
    padding masked out, as the tt-buda demos pass it."""
    transformers = pytest.importorskip("transformers")
    config = transformers.BertConfig(vocab_size=64, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                                     intermediate_size=64, max_position_embeddings=32)
    model = transformers.BertForMaskedLM(config).eval()
    tokens = {"input_ids": torch.randint(0, 64, (1, 16)),
              "attention_mask": torch.cat([torch.ones(1, 11), torch.zeros(1, 5)], 1).long()}
    output = pybuda.run_inference(pybuda.PyTorchModule("bert", model), inputs=[tokens]).get()[0].value()
    with torch.no_grad():
        assert pcc(model(**tokens).logits, output) >= 0.99
    with pytest.raises(pybuda.PyBudaError, match="inputs by name must be the first arguments"):
        pybuda.run_inference(inputs=[{"input_ids": tokens["input_ids"], "labels": tokens["input_ids"]}])


def test_initialize_pipeline_and_run_forward():
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Tanh())
    tt0 = pybuda.TTDevice("tt0", module=pybuda.PyTorchModule("m", model))
    queue = pybuda.initialize_pipeline(sample_inputs=(torch.randn(3, 8),))
    x = torch.randn(3, 8)
    tt0.push_to_inputs(x)
    pybuda.run_forward(input_count=1)
    assert pcc(model(x).detach(), queue.get()[0].value()) >= 0.99
    with pytest.raises(pybuda.PyBudaError, match="shape \\[4, 8\\]; the module was compiled for \\[3, 8\\]"):
        tt0.push_to_inputs(torch.randn(4, 8))
        pybuda.run_forward()


def test_tti_saved_and_loaded_in_a_fresh_process(tmp_path):
    pybuda.config._get_global_compiler_config().enable_tvm_cpu_fallback = True
    model = Spectrum().eval()
    x = torch.randn(4, 32)
    tt0 = pybuda.TTDevice("tt0", arch=BackendDevice.Wormhole_B0, devtype=BackendType.Silicon)
    tt0.place_module(pybuda.PyTorchModule("spectrum", model))
    image_path = tmp_path / "device_images" / "tt0.tti"
    image = tt0.compile_to_image(img_path=str(image_path), sample_inputs=(x,))
    assert image.get_input_shapes() == [[4, 32]]
    tt0.push_to_inputs(x)
    here = pybuda.run_inference().get()[0].value()
    torch.save(x, tmp_path / "x.pt")
    script = f"""
import sys, torch, pybuda
import pybuda.compiler
sys.modules["pybuda.compiler"].compile_module = None  # loading must not compile
img = pybuda.TTDeviceImage.load_from_disk({str(image_path)!r})
img.info()
device = pybuda.TTDevice.load_image(img=img)
device.push_to_inputs([torch.load({str(tmp_path / 'x.pt')!r})])
torch.save(pybuda.run_inference().get()[0].value(), {str(tmp_path / 'y.pt')!r})
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={"PYTHONPATH": f"{ROOT}:{ROOT / 'tools'}", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert "- arch: BackendDevice.Wormhole_B0" in done.stdout and "ordered input shapes: [[4, 32]]" in done.stdout
    assert torch.equal(torch.load(tmp_path / "y.pt"), here)


def test_compile_and_torch_compile_backend():
    model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.SiLU(), torch.nn.Linear(16, 4)).eval()
    x = torch.randn(2, 16)
    compiled = pybuda.compile(model, sample_inputs=[x])
    assert pcc(model(x).detach(), compiled(x)) >= 0.99
    pybuda.torch_compile.register()
    fast = torch.compile(model, backend="tt")
    with torch.no_grad():
        assert pcc(model(x), fast(x)) >= 0.99


@pytest.mark.parametrize("call, message", [
    (lambda: pybuda.TFModule("m", None), "TensorFlow models are not supported by this build; supported: PyTorchModule"),
    (lambda: pybuda.TFLiteModule("m", None), "TensorFlow Lite models are not supported"),
    (lambda: pybuda.run_backward(), "run_backward needs a pipeline initialized for training"),
    (lambda: pybuda.insert_nop("a", "b"), "insert_nop is not supported: the TTNN backend has no buffering nops"),
    (lambda: pybuda.override_dram_queue_placement("q", channel=0), "override_dram_queue_placement is not supported"),
    (lambda: pybuda.TTDevice("tt0", arch=BackendDevice.Grayskull), "Grayskull is not simulated"),
    (lambda: pybuda.TTDevice("tt0", num_chips=2), "2 chips asked for"),
    (lambda: pybuda.set_configuration_options(device_config="gs_e150"), "device_config 'gs_e150' is not simulated"),
    (lambda: pybuda.set_configuration_options(harvested_rows=[1]), "harvested_rows is not supported"),
    (lambda: pybuda.run_inference(), "no device"),
])
def test_refusals_are_one_line(call, message):
    with pytest.raises(pybuda.PyBudaError, match=message) as info:
        call()
    assert "\n" not in str(info.value)


def onnx_cnn():
    """A small CNN written in ONNX by hand: Conv, BatchNormalization, Relu, MaxPool, GlobalAveragePool,
    Flatten, Gemm, Softmax; with its weights."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    g = torch.Generator().manual_seed(1)
    weights = {"w": torch.randn(8, 3, 3, 3, generator=g) * 0.3, "b": torch.randn(8, generator=g) * 0.1,
               "scale": torch.rand(8, generator=g) + 0.5, "shift": torch.randn(8, generator=g) * 0.1,
               "mean": torch.randn(8, generator=g) * 0.1, "var": torch.rand(8, generator=g) + 0.5,
               "fc_w": torch.randn(4, 8, generator=g) * 0.3, "fc_b": torch.randn(4, generator=g) * 0.1}
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("BatchNormalization", ["c", "scale", "shift", "mean", "var"], ["n"], epsilon=1e-5),
             helper.make_node("Relu", ["n"], ["r"]),
             helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("GlobalAveragePool", ["p"], ["g"]),
             helper.make_node("Flatten", ["g"], ["f"], axis=1),
             helper.make_node("Gemm", ["f", "fc_w", "fc_b"], ["y0"], transB=1),
             helper.make_node("Softmax", ["y0"], ["y"], axis=1)]
    graph = helper.make_graph(nodes, "cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])],
                              [numpy_helper.from_array(v.numpy(), k) for k, v in weights.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    return model, weights


def test_onnx_module():
    model, w = onnx_cnn()
    x = torch.randn(1, 3, 16, 16)
    output = pybuda.run_inference(pybuda.OnnxModule("onnx_cnn", model), inputs=[(x,)]).get()[0].value()
    y = torch.nn.functional.conv2d(x, w["w"], w["b"], padding=1)
    y = torch.relu(torch.nn.functional.batch_norm(y, w["mean"], w["var"], w["scale"], w["shift"], eps=1e-5))
    y = torch.nn.functional.max_pool2d(y, 2).mean((2, 3))
    expected = torch.softmax(y @ w["fc_w"].T + w["fc_b"], dim=1)
    assert pcc(expected, output) >= 0.99


def test_onnx_op_without_importer_is_refused():
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    graph = helper.make_graph([helper.make_node("Einsum", ["x", "x"], ["y"], equation="ij,ij->i")], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    with pytest.raises(pybuda.PyBudaError, match="ONNX ops with no importer: Einsum"):
        pybuda.run_inference(pybuda.OnnxModule("e", helper.make_model(graph)), inputs=[(torch.randn(2, 2),)])


def amp_run(model, x, **options):
    pybuda.pybuda_reset()
    pybuda.set_configuration_options(**options)
    tt0 = pybuda.TTDevice("tt0", module=pybuda.PyTorchModule("m", model))
    output = pybuda.run_inference(inputs=[x]).get()[0].value()
    return tt0, output


def test_amp_levels_change_weight_formats_and_the_reported_pcc():
    model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.GELU(), torch.nn.LayerNorm(256),
                                torch.nn.Linear(256, 64)).eval()
    x = torch.randn(32, 64)
    runs = {level: amp_run(model, x, amp_level=level) for level in (0, 1, 2)}
    formats = {level: tt0.compiled[0].weight_formats() for level, (tt0, _) in runs.items()}
    assert [formats[level]["0.weight"] for level in (0, 1, 2)] == ["f32", "bfp_bf8", "bfp_bf4"]
    assert all(formats[level]["2.weight"] == "f32" for level in (0, 1, 2))  # layer norm keeps its format
    assert runs[0][0].last_pcc is None
    pcc8, pcc4 = runs[1][0].last_pcc[0], runs[2][0].last_pcc[0]
    assert pcc4 < pcc8 < 1.0 and pcc8 >= 0.99
    assert pcc(model(x).detach(), runs[2][1]) == pytest.approx(pcc4)
    report = runs[1][0].report()
    assert "Parameter data formats: 2 bfp_bf8, 4 f32" in report and "PCC against the float32 model: 0.99" in report


def test_default_df_override_and_mixed_precision_rules():
    model = torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8)).eval()
    x = torch.randn(4, 32)
    tt0, output = amp_run(model, x, default_df_override=pybuda.DataFormat.Float16_b)
    assert set(tt0.compiled[0].weight_formats().values()) == {"bf16"} and output.dtype == torch.float32
    assert tt0.last_pcc[0] >= 0.99
    pybuda.pybuda_reset()
    pybuda.config.configure_mixed_precision(name_regex="2\\.weight", output_df=pybuda.DataFormat.Bfp8_b)
    tt0 = pybuda.TTDevice("tt0", module=pybuda.PyTorchModule("m", model))
    pybuda.run_inference(inputs=[x]).get()
    assert tt0.compiled[0].weight_formats() == {"0.weight": "f32", "0.bias": "f32", "2.weight": "bfp_bf8",
                                                "2.bias": "f32"}
    with pytest.raises(pybuda.PyBudaError, match="per-op math_fidelity and accumulate_df are not supported"):
        pybuda.config.configure_mixed_precision(op_type="matmul", math_fidelity=pybuda.MathFidelity.HiFi2)


def test_math_fidelity_sets_the_compute_configs():
    model = torch.nn.Linear(64, 64).eval()
    x = torch.randn(32, 64)
    fidelities = {}
    for fidelity in (pybuda.MathFidelity.HiFi4, pybuda.MathFidelity.LoFi):
        tt0, output = amp_run(model, x, math_fidelity=fidelity, accumulate_df=pybuda.DataFormat.Float16_b)
        fidelities[fidelity] = {o.fidelity for o in tt0.last_run_reports()[0].ops if o.op == "linear"}
        assert pcc(model(x).detach(), output) >= 0.99
    assert fidelities == {pybuda.MathFidelity.HiFi4: {"HiFi4"}, pybuda.MathFidelity.LoFi: {"LoFi"}}


def test_jax_module_through_stablehlo():
    jnp = pytest.importorskip("jax.numpy")

    class Dense:
        """A Flax-style module: apply(variables, x)."""

        def apply(self, variables, x):
            return jnp.tanh(x @ variables["w"] + variables["b"])

    g = torch.Generator().manual_seed(2)
    variables = {"w": (torch.randn(16, 8, generator=g) * 0.3).numpy(), "b": torch.randn(8, generator=g).numpy()}
    x = torch.randn(4, 16)
    module = pybuda.JaxModule("dense", Dense(), variables)
    output = pybuda.run_inference(module, inputs=[(x,)]).get()[0].value()
    expected = torch.tanh(x @ torch.from_numpy(variables["w"]) + torch.from_numpy(variables["b"]))
    assert pcc(expected, output) >= 0.99
    square = pybuda.JaxModule("square", lambda v: v * v)
    pybuda.pybuda_reset()
    assert pcc(x * x, pybuda.run_inference(square, inputs=[(x,)]).get()[0].value()) >= 0.99


def test_pybuda_native_convolution_and_pooling():
    """pybuda.op.nn.Conv2dModule / MaxPool2dModule / AvgPool2dModule and pybuda.op.Conv2d with PyBuda's padding
    forms ("same", [left, right, top, bottom], channel_last), against torch's own conv and pools."""
    from pybuda.op.nn import AvgPool2dModule, Conv2dModule, MaxPool2dModule

    class NativeCNN(pybuda.PyBudaModule):
        def __init__(self, name):
            super().__init__(name)
            self.conv = Conv2dModule("conv", 3, 8, (3, 3), padding="same")
            self.pool = MaxPool2dModule("pool", 2, stride=2)
            self.w2 = pybuda.Parameter(torch.randn(4, 8, 2, 2) / 4)
            self.avg = AvgPool2dModule("avg", 2, stride=2)

        def forward(self, x):
            y = self.pool(self.conv(x))
            y = pybuda.op.Conv2d("conv2", y.permute(0, 2, 3, 1), self.w2, padding=[1, 0, 0, 1], channel_last=True)
            return self.avg(y.permute(0, 3, 1, 2))

    module = NativeCNN("native_cnn")
    x = torch.randn(1, 3, 16, 16)
    output = pybuda.run_inference(module, inputs=[(x,)]).get()[0].value()
    F = torch.nn.functional
    with torch.no_grad():
        y = F.max_pool2d(F.conv2d(x, module.conv.weights, module.conv.bias, padding=1), 2, 2)
        expected = F.avg_pool2d(F.conv2d(F.pad(y, (1, 0, 0, 1)), module.w2), 2, 2)
    assert output.shape == expected.shape == (1, 4, 4, 4)
    assert pcc(expected, output) >= 0.99
