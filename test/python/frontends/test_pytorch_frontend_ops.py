"""The importer's op table, swept in a few modules that each use many ATen ops (one compile each), against
torch eager."""

import pytest
import torch
import torch.nn.functional as F

import pybuda
from ttmlir.runtime.golden import pcc


pytestmark = pytest.mark.usefixtures("fresh_pybuda")


class Convs(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv1d(4, 8, 3, padding=1)
        self.c2 = torch.nn.Conv2d(4, 8, 3, stride=2, padding=1, groups=2)
        self.up = torch.nn.ConvTranspose2d(8, 4, 2, stride=2)
        self.gn = torch.nn.GroupNorm(2, 8)

    def forward(self, seq, img):
        a = F.leaky_relu(self.c1(seq), 0.1)
        b = self.gn(self.c2(img))
        c = F.avg_pool2d(F.hardtanh(self.up(b)), 2)
        return a, b, c


class Transformerish(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(50, 32)
        self.norm = torch.nn.RMSNorm(32, eps=1e-6)
        self.qkv = torch.nn.Linear(32, 96)

    def forward(self, ids, mask):
        x = self.norm(self.emb(ids))
        q, k, v = self.qkv(x).view(1, 8, 3, 4, 8).permute(2, 0, 3, 1, 4).unbind(0)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        z = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.3)
        return torch.cat([y, z], dim=-1).transpose(1, 2).reshape(1, 8, 64)


class Reductions(torch.nn.Module):
    def forward(self, x, idx):
        values, indices = torch.topk(x, 3, dim=-1)
        top = values.sum(-1) + torch.gather(x, 1, idx).mean(-1)
        var = x.var(dim=1, keepdim=True) + x.std(dim=0).unsqueeze(0).amax(1, keepdim=True)
        where = torch.where(x > 0.5, x.abs(), x.clamp(-0.3, 0.3) * 2)
        cum = torch.cumsum(F.pad(x, (1, 2)), dim=1)
        return top, indices, x.argmax(-1), var, where, cum, torch.log_softmax(x, -1), x.max(dim=0).values


class Data(torch.nn.Module):
    def forward(self, x, y):
        parts = torch.split(x, [2, 6], dim=1)
        a = parts[1][:, ::3].repeat(1, 2) * parts[0].repeat(1, 2) - y.expand(4, 4)
        b = torch.index_select(x, 0, torch.tensor([3, 0])) / (x.narrow(1, 2, 4).sum() + 1)
        c = x.flatten().unflatten(0, (8, 4)).t().contiguous()[1]
        d = (x.to(torch.bfloat16) + 1).float() * torch.arange(8.0) + torch.full((8,), 0.5)
        e = F.silu(x) + F.mish(x) - F.hardsigmoid(x) + torch.sigmoid(x) * torch.rsqrt(x.abs() + 1)
        return a, b, c, d, e, (x >= 0) & (y < 0.5).expand(4, 8), torch.remainder(x, 0.7)


class Indexing(torch.nn.Module):
    """Advanced indexing (index tensors side by side after a whole dimension, apart: they go first, broadcast);
    any/all."""

    def forward(self, x, i, j):
        positive = x > 0
        return (x[:, i, j], x[i, :, j], x[i.unsqueeze(1), j], positive.any(-1), positive.all(dim=(0, 2)),
                (x > -9).all(1), (x > 3).any())


def distinct(*shape):
    """Values a bf16 or f32 device keeps apart (0.125 steps), so indices of maxima compare exactly."""
    return torch.randperm(torch.Size(shape).numel()).float().reshape(shape) / 8 - 4


@pytest.mark.parametrize("module, make_inputs", [
    (Convs(), lambda: (torch.randn(1, 4, 16), torch.randn(1, 4, 8, 8))),
    (Transformerish(), lambda: (torch.randint(0, 50, (1, 8)), torch.rand(1, 1, 8, 8) > 0.3)),
    (Reductions(), lambda: (distinct(4, 16), torch.randint(0, 16, (4, 5)))),
    (Data(), lambda: (torch.randn(4, 8), torch.randn(4, 1))),
    (Indexing(), lambda: (torch.randn(4, 5, 6), torch.randint(0, 4, (3,)), torch.randint(0, 4, (3,)))),
], ids=["convs", "attention", "reductions", "data_movement", "indexing"])
def test_op_sweep(module, make_inputs):
    inputs = make_inputs()  # drawn after the fixture seeds torch: the same values whatever ran before
    module = module.eval()
    with torch.no_grad():
        expected = module(*inputs)
    compiled = pybuda.compile(module, sample_inputs=inputs)
    actual = compiled(*inputs)
    assert all(where == "device" for *_, where in compiled.placement())
    for e, a in zip(torch.utils._pytree.tree_leaves(expected), torch.utils._pytree.tree_leaves(actual)):
        assert a.shape == e.shape and a.dtype == e.dtype
        if e.dtype == torch.bool or not e.is_floating_point():
            assert torch.equal(a, e)
        else:
            assert pcc(e, a) >= 0.99
