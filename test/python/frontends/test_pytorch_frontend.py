"""The PyTorch importer: held-out modules through PyTorchModule + TTDevice + run_inference match torch eager."""

import pytest
import torch

import pybuda
from ttmlir.runtime.golden import pcc

transformers = pytest.importorskip("transformers")


pytestmark = pytest.mark.usefixtures("fresh_pybuda")


def run_on_device(module: torch.nn.Module, *inputs, arch=pybuda.BackendDevice.Wormhole_B0):
    tt0 = pybuda.TTDevice("tt0", module=pybuda.PyTorchModule("model", module), arch=arch)
    outputs = pybuda.run_inference(inputs=[inputs]).get()
    return tt0, [o.value() for o in outputs]


def check(module, *inputs, arch=pybuda.BackendDevice.Wormhole_B0):
    module = module.eval()
    with torch.no_grad():
        expected = [t for t in torch.utils._pytree.tree_leaves(module(*inputs)) if isinstance(t, torch.Tensor)]
    tt0, actual = run_on_device(module, *inputs, arch=arch)
    assert len(actual) == len(expected)
    for e, a in zip(expected, actual):
        assert a.shape == e.shape and a.dtype == e.dtype
        assert pcc(e.float(), a.float()) >= 0.99
    return tt0, actual


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.norm, self.fc2 = torch.nn.Linear(64, 128), torch.nn.LayerNorm(128), torch.nn.Linear(128, 10)

    def forward(self, x):
        return torch.softmax(self.fc2(self.norm(torch.nn.functional.gelu(self.fc1(x)))), dim=-1)


class CNN(torch.nn.Module):
    """A ResNet basic block with a stem, batch norms, max and global average pooling and a classifier."""

    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn0 = torch.nn.BatchNorm2d(16)
        self.pool = torch.nn.MaxPool2d(2)
        self.conv1, self.bn1 = torch.nn.Conv2d(16, 16, 3, padding=1, bias=False), torch.nn.BatchNorm2d(16)
        self.conv2, self.bn2 = torch.nn.Conv2d(16, 16, 3, padding=1, bias=False), torch.nn.BatchNorm2d(16)
        self.head = torch.nn.Linear(16, 10)
        for bn in (self.bn0, self.bn1, self.bn2):  # statistics as a trained model has them
            bn.running_mean.uniform_(-0.5, 0.5)
            bn.running_var.uniform_(0.5, 2.0)

    def forward(self, x):
        x = self.pool(torch.relu(self.bn0(self.stem(x))))
        y = torch.relu(self.bn1(self.conv1(x)))
        x = torch.relu(x + self.bn2(self.conv2(y)))
        return self.head(torch.flatten(torch.nn.functional.adaptive_avg_pool2d(x, 1), 1))


def test_linear():
    tt0, _ = check(torch.nn.Linear(64, 32), torch.randn(4, 64))
    assert [where for *_, where in tt0.placement()] == ["device"]


def test_mlp_gelu_layernorm_softmax():
    check(MLP(), torch.randn(8, 64))


def test_resnet_style_cnn():
    check(CNN(), torch.randn(1, 3, 32, 32))


def test_hf_bert_encoder():
    config = transformers.BertConfig(hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                                     intermediate_size=128, vocab_size=100)
    model = transformers.BertModel(config).eval()
    check(model.encoder, torch.randn(1, 32, 64))


def test_hf_gpt2():
    config = transformers.GPT2Config(n_embd=64, n_layer=2, n_head=2, vocab_size=128, n_positions=64,
                                     bos_token_id=0, eos_token_id=0, use_cache=False)
    check(transformers.GPT2LMHeadModel(config).eval(), torch.randint(0, 128, (1, 16)))


def test_hf_llama():
    config = transformers.LlamaConfig(hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                                      num_key_value_heads=2, intermediate_size=128, vocab_size=128,
                                      max_position_embeddings=64, use_cache=False)
    check(transformers.LlamaForCausalLM(config).eval(), torch.randint(0, 128, (1, 16)))
