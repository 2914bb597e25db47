"""PyBuda's training API and the rest of its user surface: module paths scripts import, optimizers' rules against
torch's optimizers (LAMB/LARS against their formulas written out here), schedulers, the seed's training loop,
run_training's queues, parameter read/write, CPU devices in a training pipeline, and the direct and delayed runs."""

import copy
import importlib

import pytest
import torch

import pybuda
from ttmlir.runtime.golden import pcc


pytestmark = pytest.mark.usefixtures("fresh_pybuda")


@pytest.mark.parametrize("path, names", [
    ("pybuda.optimizers", ["SGD", "Adam", "AdamW", "LAMB", "LARS", "Optimizer"]),
    ("pybuda.schedulers", ["LearningRateScheduler"]),
    ("pybuda.torch_schedulers", ["TorchLearningRateScheduler"]),
    ("pybuda.pybudaglobal", ["pybuda_reset", "TILE_DIM", "set_device_pipeline", "get_devices", "is_silicon"]),
    ("pybuda.config", ["_get_global_compiler_config", "set_configuration_options", "configure_mixed_precision",
                       "CompilerConfig", "CompileDepth", "override_dram_queue_placement", "insert_nop",
                       "_clear_global_compiler_config", "_set_global_compiler_config"]),
    ("pybuda._C.backend_api", ["BackendDevice", "BackendType", "DeviceMode"]),
    ("pybuda._C", ["DataFormat", "MathFidelity"]),
    ("pybuda.op", ["Matmul", "Add", "HSlice", "Transpose"]),
    ("pybuda.op.loss", ["L1Loss", "MSELoss", "CrossEntropyLoss", "NLLLoss"]),
    ("pybuda.op.nn", ["Softmax", "Layernorm", "Linear", "Conv2dModule", "MaxPool2dModule", "AvgPool2dModule"]),
    ("pybuda.op.convolution", ["Conv2d"]), ("pybuda.op.pooling", ["MaxPool2d", "AvgPool2d"]),
    ("pybuda.run", ["run_training", "get_loss_queue", "get_parameter_gradients"]),
    ("pybuda.ttdevice", ["TTDevice"]), ("pybuda.cpudevice", ["CPUDevice"]), ("pybuda.parameter", ["Parameter"]),
    ("pybuda.module", ["PyBudaModule", "PyTorchModule"]),
    ("pybuda.tensor", ["Tensor", "TensorFromPytorch", "to_pt_tensors", "to_buda_tensors"]),
    ("pybuda.run.api", ["detect_available_devices", "run_inference"]),
    ("pybuda.utils", ["align_up_tile", "round_up_div"]),
    ("pybuda.verify", ["VerifyConfig", "TestKind", "verify_module", "verify_module_pipeline"]),
    ("pybuda.verify.config", ["VerifyConfig", "TestKind", "NebulaGalaxy", "should_waive_gradient"]),
    ("pybuda.verify.backend", ["verify_module", "verify_module_pipeline"]),
    ("pybuda.op.eval", ["compare_tensor_to_golden", "calculate_pcc"]),
    ("pybuda.op.eval.common", ["compare_tensor_to_golden", "calculate_pcc"]),
    ("pybuda.torch_compile", ["compile_torch"]),
    ("pybuda.transformers.pipeline", ["pipeline"]),
    ("pybuda", ["run_schedulers", "error_raised", "sync", "shutdown", "get_parameter_checkpoint",
                "update_device_parameters", "DataFormat", "SGD", "VerifyConfig", "CompileDepth", "compile_torch"]),
])
def test_module_paths_scripts_import(path, names):
    module = importlib.import_module(path)
    assert all(hasattr(module, n) for n in names), [n for n in names if not hasattr(module, n)]


def reference_lamb(p, g, m, v, lr, b1, b2, eps, wd, clip):
    m, v = b1 * m + (1 - b1) * g, b2 * v + (1 - b2) * g * g
    r = m / (v.sqrt() + eps) + wd * p
    trust = (p.norm() / r.norm()).clamp(*clip) if p.norm() > 0 and r.norm() > 0 else torch.tensor(1.0)
    return p - lr * trust * r


def reference_lars(p, g, buf, lr, momentum, wd, coeff, eps):
    local = coeff * p.norm() / (g.norm() + wd * p.norm() + eps)
    buf = momentum * buf + lr * local * (g + wd * p)
    return p - buf, buf


def test_optimizer_rules_on_device_match_torch_and_their_formulas():
    from pybuda.training import TrainingProgram
    from pybuda.config import CompilerConfig

    model = torch.nn.Linear(16, 8)
    x, y = torch.randn(4, 16), torch.randn(4, 8)
    program = TrainingProgram("lin", model, torch.nn.MSELoss(), (x,), (y,), False, CompilerConfig(), "wormhole_b0")
    start = copy.deepcopy(program.params)
    cases = {
        "sgd": (pybuda.optimizers.SGD(0.1, device_params=True), lambda ps: torch.optim.SGD(ps, lr=0.1)),
        "adam": (pybuda.optimizers.Adam(0.01, weight_decay=0.1, device_params=True),
                 lambda ps: torch.optim.Adam(ps, lr=0.01, weight_decay=0.1)),
        "adamw": (pybuda.optimizers.AdamW(0.01, weight_decay=0.1, device_params=True),
                  lambda ps: torch.optim.AdamW(ps, lr=0.01, weight_decay=0.1)),
    }
    program.forward((x,), (y,))
    program.backward(None, zero_grad=True)
    grads = dict(program.grads)
    for kind, (optimizer, reference) in cases.items():
        program.params = copy.deepcopy(start)
        params = {n: p.clone().requires_grad_() for n, p in start.items()}
        torch_opt = reference(list(params.values()))
        for _ in range(3):  # three steps: the state (moments, bias corrections) carries over
            program.step(optimizer)
            for n, p in params.items():
                p.grad = grads[n].clone()
            torch_opt.step()
        for n in params:
            assert torch.allclose(program.params[n], params[n].detach(), rtol=1e-4, atol=1e-5), (kind, n)
    lamb = pybuda.optimizers.LAMB(0.01, weight_decay=0.01, device_params=True)
    lars = pybuda.optimizers.LARS(0.1, momentum=0.9, weight_decay=0.01, lars_coeff=0.01, device_params=True)
    for optimizer in (lamb, lars):
        program.params = copy.deepcopy(start)
        program.step(optimizer)
        program.step(optimizer)
        for n, p in start.items():
            g = grads[n]
            if optimizer is lamb:
                m1, v1 = 0.1 * g, 0.001 * g * g
                p1 = reference_lamb(p, g, torch.zeros_like(p), torch.zeros_like(p), 0.01, 0.9, 0.999, 1e-8, 0.01,
                                    (0.0, 10.0))
                expected = reference_lamb(p1, g, m1, v1, 0.01, 0.9, 0.999, 1e-8, 0.01, (0.0, 10.0))
            else:
                p1, buf = reference_lars(p, g, torch.zeros_like(p), 0.1, 0.9, 0.01, 0.01, 1e-8)
                expected, _ = reference_lars(p1, g, buf, 0.1, 0.9, 0.01, 0.01, 1e-8)
            assert torch.allclose(program.params[n], expected, rtol=1e-4, atol=1e-6), (optimizer.get_type(), n)


class TwoMatmuls(pybuda.PyBudaModule):
    def __init__(self, name):
        super().__init__(name)
        self.weights1 = pybuda.Parameter(torch.rand(32, 32) / 8, requires_grad=True)
        self.weights2 = pybuda.Parameter(torch.rand(32, 32) / 8, requires_grad=True)

    def forward(self, act1, act2):
        m1 = pybuda.op.Matmul("matmul1", act1, self.weights1)
        m2 = pybuda.op.Matmul("matmul2", act2, self.weights2)
        return m1 + m2


class Plus1(pybuda.schedulers.LearningRateScheduler):
    def get_lr(self):
        return self.optimizer.learning_rate + 1


class TorchPlus1(pybuda.torch_schedulers.TorchLearningRateScheduler):
    def get_lr(self):
        return [self.optimizer.param_groups[0]["lr"] + 1]


def test_seed_training_loop_with_a_cpu_stage_loss_and_schedulers():
    """Seed 003's loop as written, over a TT stage and a CPU stage holding the loss and its own torch optimizer;
    the device's parameters follow what torch computes for the same two-stage model."""
    stage0, stage1 = TwoMatmuls("stage0"), torch.nn.Linear(32, 16)
    ref0, ref1 = copy.deepcopy(stage0), copy.deepcopy(stage1)
    optimizer = pybuda.optimizers.SGD(learning_rate=0.5, device_params=True)
    scheduler = Plus1(optimizer)
    tt0 = pybuda.TTDevice("tt0", module=stage0, optimizer=optimizer, scheduler=scheduler)
    cpu1 = pybuda.CPUDevice("cpu1", module=pybuda.PyTorchModule("stage1", stage1),
                            optimizer_f=lambda m: torch.optim.SGD(m.parameters(), lr=0.5),
                            scheduler_f=lambda o: TorchPlus1(o))
    cpu1.place_loss_module(pybuda.PyTorchModule("l1", torch.nn.L1Loss()))
    inputs = [(torch.rand(4, 32, 32), torch.rand(4, 32, 32), torch.rand(4, 32, 16)) for _ in range(4)]
    checkpoint_q = pybuda.initialize_pipeline(training=True, sample_inputs=inputs[0][:2],
                                              sample_targets=inputs[0][2:])
    feed = iter(inputs)
    for step in range(2):
        for acc_step in range(2):
            a, b, t = next(feed)
            tt0.push_to_inputs((a, b))
            cpu1.push_to_target_inputs(t)
            pybuda.run_forward(input_count = 1)
            pybuda.run_backward(input_count = 1, zero_grad = (acc_step == 0))
        pybuda.run_optimizer(checkpoint=True)
    pybuda.run_schedulers()
    assert optimizer.learning_rate == 1.5 and cpu1.optimizer.param_groups[0]["lr"] == 1.5
    # the same training in torch
    opt = torch.optim.SGD(list(ref0.parameters()) + list(ref1.parameters()), lr=0.5)
    feed = iter(inputs)
    for step in range(2):
        opt.zero_grad()
        for acc_step in range(2):
            a, b, t = next(feed)
            torch.nn.functional.l1_loss(ref1(ref0(a, b)), t).backward()
        opt.step()
    checkpoints = [checkpoint_q.get_nowait(), checkpoint_q.get_nowait()]
    assert checkpoint_q.empty() and len(checkpoints[-1]) == 2  # per step: one dict per device
    for name in ("weights1", "weights2"):
        assert pcc(getattr(ref0, name).detach(), checkpoints[-1][0][name].value()) >= 0.999
    assert pcc(ref1.weight.detach(), checkpoints[-1][1]["weight"].value()) >= 0.999
    loss_q = pybuda.get_loss_queue()
    assert sum(1 for _ in range(4) if loss_q.get_nowait()) == 4


def test_run_training_queues_checkpoints_and_parameter_round_trip():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    tt0 = pybuda.TTDevice("tt0", module=pybuda.PyTorchModule("mlp", model),
                          optimizer=pybuda.optimizers.SGD(learning_rate=0.05, device_params=True))
    tt0.place_loss_module(pybuda.op.loss.CrossEntropyLoss("ce"))
    for _ in range(8):
        tt0.push_to_inputs(torch.rand(8, 16))
        tt0.push_to_target_inputs(torch.nn.functional.one_hot(torch.randint(0, 4, (8,)), 4).float())
    loss_q, checkpoint_q = torch.multiprocessing.get_context("spawn").Queue(), torch.multiprocessing.Queue()
    pybuda.run_training(epochs=2, steps=2, accumulation_steps=2, checkpoint_interval=3, loss_queue=loss_q,
                        checkpoint_queue=checkpoint_q)
    losses = [loss_q.get(timeout=5) for _ in range(8)]
    assert all(l[0].value().numel() == 1 for l in losses)
    first, final = checkpoint_q.get(timeout=5), checkpoint_q.get(timeout=5)  # step 3, then the end (step 4)
    assert first[0].keys() == {"0.weight", "0.bias", "2.weight", "2.bias"}
    assert not torch.equal(first[0]["0.weight"].value(), final[0]["0.weight"].value())
    # parameters written from the host are what the device computes with next
    params = pybuda.get_parameter_checkpoint(tt0)
    params[0]["2.bias"] = pybuda.Tensor.create_from_torch(torch.full((4,), 3.0))
    pybuda.update_device_parameters(tt0, params)
    assert torch.equal(pybuda.get_parameter_checkpoint(tt0)[0]["2.bias"].value(), torch.full((4,), 3.0))
    with pytest.raises(pybuda.PyBudaError, match="no trainable parameter 'nope'"):
        pybuda.update_device_parameters(tt0, [{"nope": torch.zeros(1)}])


def test_direct_run_dict_inputs_and_delayed_push():
    module = TwoMatmuls("direct")
    a, b = torch.rand(4, 32, 32), torch.rand(4, 32, 32)
    expected = a @ module.weights1.detach() + b @ module.weights2.detach()
    assert pcc(expected, module.run(a, b)[0].value()) >= 0.999
    assert pcc(expected, module.run(a, b)[0].value()) >= 0.999  # compiled once, run again
    output_q = pybuda.run_inference(module, inputs=[{"act2": b, "act1": a}], input_count=3)
    assert pcc(expected, output_q.get_nowait()[0].value()) >= 0.999 and output_q.empty()
    for _ in range(2):  # the two owed results come as their inputs arrive
        pybuda.get_tenstorrent_device().push_to_inputs((b, a))
    assert [pcc(b @ module.weights1.detach() + a @ module.weights2.detach(), output_q.get_nowait()[0].value())
            >= 0.999 for _ in range(2)] == [True, True]


@pytest.mark.parametrize("call, message", [
    (lambda: pybuda.optimizers.LARS(0.1, nesterov=True, device_params=True), "nesterov and dampening"),
    (lambda: pybuda.TTDevice("tt0", fp32_fallback=pybuda.DataFormat.Bfp8_b), "fp32_fallback .* not supported"),
    (lambda: pybuda.TTDevice("tt0", chip_ids=[1]), r"ids \[1\]\); detect_available_devices"),
    (lambda: pybuda.run_optimizer(), "needs a pipeline initialized for training"),
    (lambda: pybuda.config.set_epoch_break("m"), "set_epoch_break is not supported"),
])
def test_training_refusals_are_one_line(call, message):
    with pytest.raises((pybuda.PyBudaError, ValueError), match=message) as info:
        call()
    assert "\n" not in str(info.value)


def test_training_without_a_loss_module_is_refused():
    pybuda.TTDevice("tt0", module=pybuda.PyTorchModule("lin", torch.nn.Linear(4, 4)))
    with pytest.raises(pybuda.PyBudaError, match="training needs a loss module"):
        pybuda.initialize_pipeline(training=True, sample_inputs=(torch.rand(1, 4),))
    assert pybuda.error_raised()


def test_parameter_data_format_override_reaches_the_binary():
    module = TwoMatmuls("formats")
    tt0 = pybuda.TTDevice("tt0", module=module)
    module.weights1.set_data_format(pybuda.DataFormat.Float16_b)
    a, b = torch.rand(4, 32, 32), torch.rand(4, 32, 32)
    out = pybuda.run_inference(inputs=[(a, b)]).get()[0].value()
    assert tt0.compiled[0].weight_formats() == {"weights1": "bf16", "weights2": "f32"}
    assert pcc(a @ module.weights1.detach() + b @ module.weights2.detach(), out) >= 0.999


def test_one_element_loss_trains_on_device():
    """A 1x1 output's loss (its mean over two size-1 dims) on the device: one SGD step as torch takes it."""
    model, loss = torch.nn.Linear(1, 1), torch.nn.L1Loss()
    x, y = torch.rand(1, 1), torch.rand(1, 1) + 2
    tt0 = pybuda.TTDevice("tt0", module=pybuda.PyTorchModule("lin", model),
                          optimizer=pybuda.optimizers.SGD(learning_rate=0.1, device_params=True))
    tt0.place_loss_module(pybuda.PyTorchModule("loss", loss))
    checkpoints = pybuda.initialize_pipeline(training=True, sample_inputs=(x,), sample_targets=(y,))
    tt0.push_to_inputs(x)
    tt0.push_to_target_inputs(y)
    pybuda.run_forward()
    pybuda.run_backward(zero_grad=True)
    pybuda.run_optimizer(checkpoint=True)
    reference = copy.deepcopy(model)
    loss(reference(x), y).backward()
    with torch.no_grad():
        for p in reference.parameters():
            p -= 0.1 * p.grad
    for name, value in checkpoints.get()[0].items():
        assert torch.allclose(value.value(), dict(reference.named_parameters())[name], atol=1e-4), name


def test_tensor_conversions_and_global_config_helpers():
    from pybuda.tensor import TensorFromPytorch, to_buda_tensors, to_pt_tensors

    x, y = torch.rand(2), torch.rand(3)
    assert all(a is b for a, b in zip(to_pt_tensors((pybuda.Tensor(x), y)), (x, y)))
    assert all(a is b for a, b in zip(to_pt_tensors({"a": x, "b": pybuda.Tensor(y)}), (x, y)))
    converted = to_buda_tensors((x, TensorFromPytorch(y)))
    assert [t.value() for t in converted] == [x, y] and all(isinstance(t, pybuda.Tensor) for t in converted)
    config = pybuda.CompilerConfig(balancer_policy="Ribbon")
    pybuda.config._set_global_compiler_config(config)
    assert pybuda.config._get_global_compiler_config() is config
    pybuda.config._clear_global_compiler_config()
    assert pybuda.config._get_global_compiler_config().balancer_policy == "default"
