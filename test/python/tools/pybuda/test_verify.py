"""pybuda.verify as tt-buda's tests use it: verify_module / verify_module_pipeline on TT and CPU devices for
inference and training, judged against torch on copies of the modules; a wrong device result fails it; the fields
naming stages this build lacks are refused. And the compiler-config attributes such tests and demos set."""

import pytest
import torch

import pybuda
from pybuda import PyTorchModule
from pybuda.device import TTDevice
from pybuda.op.eval import compare_tensor_to_golden
from ttmlir.runtime.golden import pcc
from pybuda.verify import TestKind as Kind  # (a class named Test* pytest would try to collect)
from pybuda.verify import VerifyConfig, verify_module, verify_module_pipeline


pytestmark = pytest.mark.usefixtures("fresh_pybuda")


class TwoMatmuls(pybuda.PyBudaModule):
    def __init__(self, name):
        super().__init__(name)
        self.weights1 = pybuda.Parameter(32, 32, requires_grad=True)
        self.weights2 = pybuda.Parameter(32, 32, requires_grad=True)

    def forward(self, act1, act2):
        return pybuda.op.Add("add", pybuda.op.Matmul("mm1", act1, self.weights1),
                             pybuda.op.Matmul("mm2", act2, self.weights2))


class TorchMatmul(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = torch.nn.Parameter(torch.rand(32, 32) - 0.5)

    def forward(self, act):
        return torch.matmul(act, self.weights)


def test_inference_passes_and_a_wrong_device_result_fails(monkeypatch):
    verify_module(TwoMatmuls("mm"), [(1, 32, 32), (1, 32, 32)], VerifyConfig(test_kind=Kind.INFERENCE))

    run = TTDevice._run
    monkeypatch.setattr(TTDevice, "_run", lambda self, inputs: tuple(v * 1.3 for v in run(self, inputs)))
    with pytest.raises(AssertionError, match="output 0 does not match the golden"):
        verify_module(TwoMatmuls("mm"), [(1, 32, 32), (1, 32, 32)], VerifyConfig(test_kind=Kind.INFERENCE))


def test_training_pipeline_checks_gradients_and_parameters_per_device(monkeypatch):
    """A PyBuda module on the TT device, a PyTorch one on a CPU device, the default L1 loss added on a CPU device:
    two SGD steps of two accumulated input sets each."""
    cfg = dict(test_kind=Kind.TRAINING, steps=2, accumulation_steps=2, optimizer={"type": "sgd", "params": {
        "learning_rate": 0.5}})
    devices = verify_module_pipeline([TwoMatmuls("tt_stage"), PyTorchModule("cpu_stage", TorchMatmul())],
                                     [(1, 32, 32), (1, 32, 32)], VerifyConfig(**cfg, skip_shutdown=True),
                                     device_types=["TTDevice", "CPUDevice"])
    assert [type(d).__name__ for d in devices] == ["TTDevice", "CPUDevice", "CPUDevice"]  # + the added loss device
    assert len(pybuda.get_parameter_gradients()[0]) == 2

    pybuda.pybuda_reset()  # skip_shutdown left the first run's devices
    gradients = TTDevice._gradients
    monkeypatch.setattr(TTDevice, "_gradients", lambda self: {n: g * 1.5 for n, g in gradients(self).items()})
    with pytest.raises(AssertionError, match="step 0, device 0, gradient of weights1"):
        verify_module_pipeline([TwoMatmuls("tt_stage"), PyTorchModule("cpu_stage", TorchMatmul())],
                               [(1, 32, 32), (1, 32, 32)], VerifyConfig(**cfg), device_types=["TTDevice", "CPUDevice"])


def test_loss_module_on_the_tt_device_with_adam():
    verify_module(TwoMatmuls("mm"), [(1, 32, 32), (1, 32, 32)], loss_module=pybuda.op.loss.CrossEntropyLoss("ce"),
                  verify_cfg=VerifyConfig(test_kind=Kind.TRAINING, steps=2, optimizer={
                      "type": "adam", "params": {"learning_rate": 0.01}}))


@pytest.mark.parametrize("fields, message", [
    ({"run_golden": True}, "run_golden=True"),
    ({"verify_all": True}, "verify_all=True"),
    ({"enable_input_gradient_checking": True}, "input gradients are not computed"),
    ({"scheduler": {"type": object}}, "scheduler"),
    ({"devmode": pybuda.DeviceMode.RunOnly}, "RunOnly"),
    ({"test_kind": Kind.TRAINING_RECOMPUTE}, "TRAINING_RECOMPUTE"),
    ({"test_kind": Kind.TRAINING, "devmode": pybuda.DeviceMode.CompileOnly}, "CompileOnly"),
])
def test_stages_this_build_lacks_are_refused(fields, message):
    with pytest.raises(pybuda.PyBudaError, match=message):
        VerifyConfig(**fields)


def test_compile_only_writes_the_device_image(tmp_path):
    image = tmp_path / "mm.tti"
    devices = verify_module(TwoMatmuls("mm"), [(1, 32, 32), (1, 32, 32)],
                            VerifyConfig(devmode=pybuda.DeviceMode.CompileOnly, tti_path=str(image)))
    assert devices[0].compiled and image.exists()


def test_unsupported_optimizer_is_refused():
    with pytest.raises(pybuda.PyBudaError, match="optimizer .* not supported"):
        verify_module(PyTorchModule("mm", TorchMatmul()), [(1, 32, 32)],
                      VerifyConfig(test_kind=Kind.TRAINING, optimizer={"type": "lamb", "params": {
                          "learning_rate": 0.1}}))


def test_compare_tensor_to_golden_tolerances():
    golden = torch.linspace(-1, 1, 64)
    assert compare_tensor_to_golden("same", golden, golden.reshape(1, 64).clone())
    assert not compare_tensor_to_golden("scaled", golden, golden * 1.2)      # PCC 1, but off by 20% of the max
    assert compare_tensor_to_golden("scaled", golden, golden * 1.2, relative_atol=0.3)
    assert not compare_tensor_to_golden("shuffled", golden, golden.flip(0), atol=10.0, pcc=0.99)
    assert not compare_tensor_to_golden("shape", golden, golden[:32])
    assert compare_tensor_to_golden("waived", golden, golden * 2, warning_only=True)


def test_compiler_config_attributes_scripts_set():
    cfg = pybuda.config._get_global_compiler_config()
    with pytest.raises(pybuda.PyBudaError, match="no option 'enable_t_streaming'"):
        cfg.enable_t_streaming = True
    with pytest.raises(pybuda.PyBudaError, match="enable_t_streaming not supported"):
        pybuda.set_configuration_options(enable_t_streaming=True)
    cfg.balancer_policy = "Random"
    with pytest.raises(pybuda.PyBudaError, match="balancer_policy 'Random' is not supported"):
        cfg.check()
    cfg.balancer_policy = "default"
    cfg.compile_depth = pybuda.CompileDepth.GENERATE_INITIAL_GRAPH
    with pytest.raises(pybuda.PyBudaError, match="compile_depth"):
        cfg.check()


def test_balancer_policy_runs_the_optimizer():
    """A searching balancer policy is the TTNN optimizer's layout search: the same results, a faster modelled
    run (weights and activations placed in L1)."""
    model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.ReLU(), torch.nn.Linear(256, 256))
    x = torch.randn(64, 256)
    times, outputs = {}, {}
    for policy in ("default", "Ribbon"):
        pybuda.pybuda_reset()
        pybuda.config._get_global_compiler_config().balancer_policy = policy
        tt0 = pybuda.TTDevice("tt0", module=PyTorchModule("mlp", model))
        outputs[policy] = pybuda.run_inference(inputs=[(x,)]).get()[0].value()
        times[policy] = sum(r.device_ns for r in tt0.last_run_reports())
    assert torch.allclose(outputs["default"], outputs["Ribbon"], atol=1e-3)
    assert times["Ribbon"] < times["default"], times


def test_consteval_and_fusing_options_reach_the_binary():
    """enable_consteval: the weight-only subgraph runs in a const-eval program of its own; enable_auto_fusing: the
    hand-written softmax becomes one softmax op."""
    from ttmlir.runtime.executor import Binary
    from ttmlir.target import flatbuffer as fbu

    class ScaledSoftmax(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.randn(32, 32))

        def forward(self, x):
            e = torch.exp(x @ (self.w * 0.5).t())
            return e / e.sum(-1, keepdim=True)

    model, x = ScaledSoftmax(), torch.randn(32, 32)
    for enabled in (True, False):
        pybuda.pybuda_reset()
        cfg = pybuda.config._get_global_compiler_config()
        cfg.enable_consteval = cfg.enable_auto_fusing = enabled
        tt0 = pybuda.TTDevice("tt0", module=PyTorchModule("m", model))
        out = pybuda.run_inference(inputs=[(x,)]).get()[0].value()
        with torch.no_grad():
            assert pcc(model(x), out) >= 0.999
        binary = Binary(data=tt0.compiled[0].binaries[0])
        ops = [fbu.op_name(op) for op in binary.programs[0].operations]
        assert ("load_cached" in ops) == enabled and ("softmax" in ops) == enabled, ops
