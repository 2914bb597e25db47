"""`ttir.topk` through `--ttir-to-ttmetal-pipeline`, run from the `.ttm` on the simulated grid, against numpy.

Values must be exactly the input's (a top-k moves values, it computes none), in the kernel's data format (bf16
inputs are bf16 values). Indices must name those values; among equal values the lower index ranks first (the
simulated SFPU compares values, then indices), so the indices are numpy's stable argsort's. Results come out
sorted, largest (smallest) first, whatever `sorted` asks."""

import numpy as np
import pytest
import torch

from test_ttmetal_pipeline import compile_ttir
from ttmlir.passes import PassFailure
from ttmlir.runtime.metal.program import run_program


def topk_ir(shape: tuple[int, int], k: int, dim: int, largest: bool, is_sorted: bool, dtype: str = "f32") -> str:
    out = list(shape)
    out[dim] = k
    t = f"tensor<{shape[0]}x{shape[1]}x{dtype}>"
    vt, it = f"tensor<{out[0]}x{out[1]}x{dtype}>", f"tensor<{out[0]}x{out[1]}xsi32>"
    return (f"func.func @f(%a: {t}) -> ({vt}, {it}) {{\n"
            f"  %v, %i = \"ttir.topk\"(%a) <{{k = {k} : i32, dim = {dim} : i32, largest = {str(largest).lower()}, "
            f"sorted = {str(is_sorted).lower()}}}> : ({t}) -> ({vt}, {it})\n"
            f"  return %v, %i : {vt}, {it}\n}}\n")


def expected(x: np.ndarray, k: int, dim: int, largest: bool) -> tuple[np.ndarray, np.ndarray]:
    """numpy's top-k: a stable argsort (equal values by ascending index), the first k."""
    order = np.argsort(-x if largest else x, axis=dim, kind="stable")
    index = np.take(order, np.arange(k), axis=dim)
    return np.take_along_axis(x, index, axis=dim), index


def run_topk(x: torch.Tensor, k: int, dim: int, largest: bool = True, is_sorted: bool = True, dtype: str = "f32"):
    (values, indices), _ = run_program(compile_ttir(topk_ir(tuple(x.shape), k, dim, largest, is_sorted, dtype)), [x])
    return values.numpy(), indices.numpy().astype(np.int64)


@pytest.mark.parametrize("shape,k,dim", [
    ((32, 64), 16, 1), ((64, 32), 16, 0), ((32, 544), 16, 1), ((96, 32), 8, 0), ((40, 200), 5, 1),
    ((32, 160), 64, 1), ((256, 40), 64, 0), ((32, 192), 48, 1), ((10, 10), 4, 1), ((7, 20), 7, 0),
    ((32, 64), 1, 1), ((96, 64), 32, 0)])
@pytest.mark.parametrize("largest", [True, False])
def test_topk_f32(shape, k, dim, largest):
    x = torch.randn(shape, generator=torch.Generator().manual_seed(k + dim))
    values, indices = run_topk(x, k, dim, largest)
    want_values, want_indices = expected(x.numpy(), k, dim, largest)
    assert np.array_equal(values, want_values)
    assert np.array_equal(indices, want_indices)


def test_topk_ties_rank_the_lower_index_first():
    """Few distinct values over a wide reduction: ties everywhere, across tiles and merge levels."""
    x = torch.randint(0, 4, (32, 320), generator=torch.Generator().manual_seed(3)).float()
    for k, largest in ((16, True), (40, False)):
        values, indices = run_topk(x, k, 1, largest)
        want_values, want_indices = expected(x.numpy(), k, 1, largest)
        assert np.array_equal(values, want_values)
        assert np.array_equal(indices, want_indices)


def test_topk_bf16_values_exact():
    x = torch.randn((64, 96), generator=torch.Generator().manual_seed(5)).to(torch.bfloat16).float()
    values, indices = run_topk(x, 12, 1, dtype="bf16")
    want_values, want_indices = expected(x.numpy(), 12, 1, True)
    assert np.array_equal(values, want_values)
    assert np.array_equal(indices, want_indices)


def test_topk_unsorted_holds_the_top_k():
    x = torch.randn((32, 128), generator=torch.Generator().manual_seed(7))
    values, indices = run_topk(x, 20, 1, is_sorted=False)
    want_values, want_indices = expected(x.numpy(), 20, 1, True)
    assert np.array_equal(np.sort(values, axis=1), np.sort(want_values, axis=1))
    assert np.array_equal(np.sort(indices, axis=1), np.sort(want_indices, axis=1))


def test_sorted_k32_over_two_tiles_is_refused():
    with pytest.raises(PassFailure, match="sorted D2M topk with k = 32"):
        compile_ttir(topk_ir((32, 64), 32, 1, True, True))


@pytest.mark.parametrize("shape,k,dim,largest", [
    ((128, 512), 16, 1, True), ((512, 128), 16, 0, False), ((32, 4096), 40, 1, True),  # bands merged by a tree
    ((1024, 256), 8, 1, True)])  # the non-target dim sliced across cores
def test_topk_split_across_cores(shape, k, dim, largest):
    x = torch.randn(shape, generator=torch.Generator().manual_seed(11))
    values, indices = run_topk(x, k, dim, largest)
    want_values, want_indices = expected(x.numpy(), k, dim, largest)
    assert np.array_equal(values, want_values)
    assert np.array_equal(indices, want_indices)
