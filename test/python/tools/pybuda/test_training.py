"""Training on the simulated device, checked against torch: per-parameter gradients against torch autograd,
gradient accumulation across run_backward calls, and loss curves of an MLP and a small Llama (built from a config)
trained 20 steps with SGD and Adam against the same training in torch."""

import copy

import pytest
import torch

import pybuda
from ttmlir.runtime.golden import pcc


pytestmark = pytest.mark.usefixtures("fresh_pybuda")


def mlp():
    return torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.Linear(64, 64), torch.nn.Tanh(),
                               torch.nn.Linear(64, 8))


def torch_grads(model, loss_fn, batches):
    """Gradients torch's autograd accumulates over `batches` of (input, target)."""
    model = copy.deepcopy(model)
    for x, y in batches:
        loss_fn(model(x), y).backward()
    return {n: p.grad for n, p in model.named_parameters()}


def device_grads(model, loss, batches, **cfg):
    if cfg:
        pybuda.set_configuration_options(**cfg)
    tt0 = pybuda.TTDevice("tt0", module=pybuda.PyTorchModule("mlp", model))
    tt0.place_loss_module(loss)
    pybuda.initialize_pipeline(training=True, sample_inputs=batches[0][:1], sample_targets=batches[0][1:])
    for step, (x, y) in enumerate(batches):
        tt0.push_to_inputs(x)
        tt0.push_to_target_inputs(y)
        pybuda.run_forward(input_count=1)
        pybuda.run_backward(input_count=1, zero_grad=step == 0)
    return {n: t.value() for n, t in pybuda.get_parameter_gradients(tt0)[0].items()}


@pytest.mark.parametrize("data_format, threshold", [(None, 0.999), (pybuda.DataFormat.Float16_b, 0.99)])
def test_gradients_match_torch_autograd_per_parameter(data_format, threshold):
    model = mlp()
    batches = [(torch.randn(4, 32), torch.randn(4, 8))]
    options = {"default_df_override": data_format} if data_format else {}
    grads = device_grads(model, pybuda.PyTorchModule("mse", torch.nn.MSELoss()), batches, **options)
    expected = torch_grads(model, torch.nn.MSELoss(), batches)
    assert grads.keys() == expected.keys()
    for name, g in expected.items():
        assert grads[name].dtype == torch.float32  # gradients of the float32 master weights
        assert pcc(g, grads[name]) >= threshold, name


def test_attention_layer_gradients_match_torch_autograd():
    """torch's TransformerEncoderLayer: scaled_dot_product_attention traced as its math (its fused CPU kernel's
    backward is one op with no lowering), the any() of its mask checks, and its layer norms' backward reading the
    mean and 1/std the forward saved (native_layer_norm's other results)."""
    model = torch.nn.TransformerEncoderLayer(d_model=32, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)
    batches = [(torch.randn(1, 8, 32), torch.randn(1, 8, 32))]
    grads = device_grads(model, pybuda.op.loss.MSELoss("mse"), batches)
    expected = torch_grads(model, torch.nn.MSELoss(), batches)
    assert grads.keys() == expected.keys()
    for name, g in expected.items():
        assert pcc(g, grads[name]) >= 0.99, name


def test_gradients_accumulate_on_device_until_zero_grad():
    model = mlp()
    batches = [(torch.randn(4, 32), torch.randn(4, 8)) for _ in range(3)]
    loss = pybuda.op.loss.MSELoss("mse")
    grads = device_grads(model, loss, batches)
    expected = torch_grads(model, torch.nn.MSELoss(), batches)  # torch sums .grad over the three backwards
    for name, g in expected.items():
        assert pcc(g, grads[name]) >= 0.999, name
        assert torch.allclose(grads[name], g, rtol=0.02, atol=2e-3), name


def train_on_device(model, loss, batches, optimizer, device_loss=True):
    tt0 = pybuda.TTDevice("tt0", module=pybuda.PyTorchModule("model", model), optimizer=optimizer)
    if device_loss:
        tt0.place_loss_module(loss)
        targets_on = tt0
    else:
        targets_on = pybuda.CPUDevice("cpu1")
        targets_on.place_loss_module(loss)
    for x, y in batches:
        tt0.push_to_inputs(x)
        targets_on.push_to_target_inputs(y)
    pybuda.run_training(steps=len(batches))
    losses = []
    while not pybuda.get_loss_queue().empty():
        losses.append(float(pybuda.get_loss_queue().get()[0].value()))
    return losses, tt0


def train_in_torch(model, loss_fn, batches, make_optimizer):
    model = copy.deepcopy(model)
    optimizer = make_optimizer(model.parameters())
    losses = []
    for x, y in batches:
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(float(loss))
    return losses


def assert_tracks(device, reference, tolerance=0.05):
    assert len(device) == len(reference)
    assert abs(device[-1] - reference[-1]) <= tolerance * abs(reference[-1]), (device, reference)
    assert reference[-1] < reference[0] and device[-1] < device[0]  # it did learn
    for d, r in zip(device, reference):
        assert abs(d - r) <= max(tolerance * abs(r), 1e-3), (device, reference)


@pytest.mark.parametrize("kind", ["sgd", "adam"])
def test_mlp_trained_20_steps_tracks_torch(kind):
    model = mlp()
    teacher = torch.randn(32, 8) / 4  # a task that can be learnt: targets a fixed function of the inputs
    inputs = [torch.randn(8, 32) for _ in range(20)]
    batches = [(x, x @ teacher) for x in inputs]
    if kind == "sgd":
        optimizer, reference = pybuda.optimizers.SGD(learning_rate=0.1, device_params=True), \
            lambda ps: torch.optim.SGD(ps, lr=0.1)
    else:
        optimizer, reference = pybuda.optimizers.Adam(learning_rate=0.005, device_params=True), \
            lambda ps: torch.optim.Adam(ps, lr=0.005)
    losses, tt0 = train_on_device(model, pybuda.PyTorchModule("mse", torch.nn.MSELoss()), batches, optimizer,
                                  device_loss=kind == "adam")
    assert_tracks(losses, train_in_torch(model, torch.nn.MSELoss(), batches, reference))
    report = tt0.training_programs[0].report
    assert report.forward_ns > 0 and report.backward_ns > 0 and report.optimizer_ns > 0
    assert report.step_ns == report.forward_ns + report.backward_ns + report.optimizer_ns
    weights = sum(p.numel() * 4 for p in model.parameters())
    assert report.weights_bytes == weights and report.gradients_bytes == weights
    assert report.optimizer_state_bytes == (2 * weights if kind == "adam" else 0)  # Adam: mean and variance
    text = tt0.training_report()
    assert "Modelled training step (wormhole_b0)" in text and "optimizer state" in text


class CausalLM(torch.nn.Module):
    """A Llama from a config (no weights downloaded): token ids in, logits out; the attention mask is a buffer, so
    the mask arithmetic folds at compile time."""

    def __init__(self, seq: int):
        super().__init__()
        from transformers import LlamaConfig, LlamaForCausalLM

        config = LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                             num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=32,
                             attn_implementation="eager")
        self.llama = LlamaForCausalLM(config)
        self.register_buffer("mask", torch.ones(1, seq, dtype=torch.int64))

    def forward(self, ids):
        return self.llama(input_ids=ids, attention_mask=self.mask, use_cache=False).logits


class TokenCrossEntropy(torch.nn.Module):
    def forward(self, logits, target):
        return torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                                 target.reshape(-1, logits.shape[-1]))


def test_llama_from_config_gradients_and_20_adam_steps_track_torch():
    pytest.importorskip("transformers")
    model = CausalLM(8)
    ids = torch.randint(0, 64, (1, 8))
    # a next-token task on one sequence (labels as one-hot rows: the device computes the whole loss)
    labels = torch.nn.functional.one_hot(torch.roll(ids, -1, 1), 64).float()
    batches = [(ids, labels)] * 20
    optimizer = pybuda.optimizers.Adam(learning_rate=0.01, device_params=True)
    tt0 = pybuda.TTDevice("tt0", module=pybuda.PyTorchModule("llama", model), optimizer=optimizer,
                          loss_module=pybuda.PyTorchModule("ce", TokenCrossEntropy()))
    pybuda.initialize_pipeline(training=True, sample_inputs=(ids,), sample_targets=(labels,))
    tt0.push_to_inputs(ids)
    tt0.push_to_target_inputs(labels)
    pybuda.run_forward()
    pybuda.run_backward(zero_grad=True)
    grads = {n: t.value() for n, t in pybuda.get_parameter_gradients(tt0)[0].items()}
    expected = torch_grads(model, TokenCrossEntropy(), batches[:1])
    assert len(grads) == len(expected) == 12  # embedding, q/k/v/o, gate/up/down, 3 norms, lm_head
    for name, g in expected.items():
        assert pcc(g, grads[name]) >= 0.99, name
    losses = [float(pybuda.get_loss_queue().get()[0].value())]
    pybuda.run_optimizer()
    for x, y in batches[1:]:
        tt0.push_to_inputs(x)
        tt0.push_to_target_inputs(y)
        pybuda.run_forward()
        pybuda.run_backward(zero_grad=True)
        pybuda.run_optimizer()
        losses.append(float(pybuda.get_loss_queue().get()[0].value()))
    assert_tracks(losses, train_in_torch(model, TokenCrossEntropy(), batches,
                                         lambda ps: torch.optim.Adam(ps, lr=0.01)))
