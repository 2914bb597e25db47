"""--ttir-decompose-complex-permute: every permute of rank 2-5 becomes simple steps (each keeps the last dim or only
swaps the last two) that compute the same tensor; --ttir-decompose-complex-reshape: reshapes that move a dimension of
one into or out of the last place become transposes, computing the same tensor."""

from __future__ import annotations

import itertools

import pytest
import torch

from ttir_eval import function_module, run_function
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass
from ttmlir.transforms.ttir.ttir_decompose_complex_permute import _simple, steps


def test_every_permutation_is_made_of_simple_steps():
    for rank in range(2, 6):
        x = torch.randn(*range(2, 2 + rank))
        for perm in itertools.permutations(range(rank)):
            made = [list(perm)] if _simple(list(perm)) else steps(list(perm))
            assert len(made) <= 3 and all(_simple(p) for p in made)
            y = x
            for p in made:
                y = y.permute(*p)
            assert torch.equal(y, x.permute(*perm)), perm


def test_the_pass_rewrites_and_marks_the_steps():
    body = """
  %0 = "ttir.permute"(%a0) <{permutation = array<i64: 3, 2, 1, 0>}> : (tensor<2x3x4x5xf32>) -> tensor<5x4x3x2xf32>
  return %0 : tensor<5x4x3x2xf32>"""
    x = torch.randn(2, 3, 4, 5)
    module = function_module(["2x3x4x5"], body, "5x4x3x2")
    make_pass("ttir-decompose-complex-permute").apply(make_context(), module)
    module.verify()
    permutes = [op for op in module.walk() if op.name == "ttir.permute"]
    assert len(permutes) == 3 and all("decomposed" in op.attributes for op in permutes)
    assert torch.equal(run_function(module, [x])[0], x.permute(3, 2, 1, 0))


@pytest.mark.parametrize("source, target", [
    ("32x1", "1x32"), ("64x1x1", "1x1x64"), ("32x8x17", "32x8x17x1"), ("1x16", "1x16x1x1"), ("128x4x1", "1x512"),
    ("2x3x4", "6x4x1")])
def test_reshapes_moving_a_trailing_one_become_transposes(source, target):
    shape = lambda s: [int(d) for d in s.split("x")]
    body = f"""
  %0 = "ttir.reshape"(%a0) <{{shape = [{", ".join(f"{d} : i32" for d in shape(target))}]}}> : (tensor<{source}xf32>) -> tensor<{target}xf32>
  return %0 : tensor<{target}xf32>"""
    x = torch.randn(*shape(source))
    module = function_module([source], body, target)
    make_pass("ttir-decompose-complex-reshape").apply(make_context(), module)
    module.verify()
    names = [op.name for op in module.walk() if op.name.startswith("ttir.")]
    assert "ttir.permute" in names
    for op in module.walk():  # what reshape is left keeps the last dim's one-ness
        if op.name == "ttir.reshape":
            assert (op.operands[0].type.get_shape()[-1] == 1) == (op.results[0].type.get_shape()[-1] == 1)
    assert torch.equal(run_function(module, [x])[0], x.reshape(*shape(target)))


@pytest.mark.parametrize("source, target", [("4x40x1", "5x32"), ("32x128x1", "128x32"), ("3x4", "12x1x1")])
def test_reshapes_regrouping_elements_are_left_as_they_are(source, target):
    # the transpose of two dims larger than 1 would reorder the elements the reshape keeps in order
    shape = lambda s: [int(d) for d in s.split("x")]
    body = f"""
  %0 = "ttir.reshape"(%a0) <{{shape = [{", ".join(f"{d} : i32" for d in shape(target))}]}}> : (tensor<{source}xf32>) -> tensor<{target}xf32>
  return %0 : tensor<{target}xf32>"""
    module = function_module([source], body, target)
    make_pass("ttir-decompose-complex-reshape").apply(make_context(), module)
    assert [op.name for op in module.walk() if op.name.startswith("ttir.")] == ["ttir.reshape"]
