"""Golden comparison: the metrics of ttrt's golden report.

Tensors are compared a slice at a time in f32 with sums kept in f64, so comparing a model's 131072x2048
embedding table takes a few tens of MB beside the two tensors, not several double copies of it."""

from __future__ import annotations

import math
from collections.abc import Iterator

import torch

CHUNK = 1 << 22  # elements per slice, about


def _slices(golden: torch.Tensor, actual: torch.Tensor) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """Blocks of leading rows, as views: a transposed golden is read in place, not copied to flatten it."""
    g, a = golden.reshape(actual.shape), actual
    while g.dim() > 1 and g.shape[0] == 1:
        g, a = g[0], a[0]
    if g.dim() == 0:
        g, a = g.reshape(1), a.reshape(1)
    rows = max(1, CHUNK // max(1, g[0].numel())) if len(g) else 1
    for start in range(0, len(g), rows):
        yield _wide(g[start:start + rows]), _wide(a[start:start + rows])


def _wide(x: torch.Tensor) -> torch.Tensor:
    return x if x.dtype == torch.float64 else x.float()


def _sum(x: torch.Tensor) -> float:
    return float(x.sum(dtype=torch.float64))


def _same_specials(g: torch.Tensor, a: torch.Tensor) -> bool:
    """Both overflowed at the same places: infinities of one sign, or a NaN against either (inf - inf in one
    summation order is an infinity in another)."""
    special = ~torch.isfinite(g)
    if not torch.equal(special, ~torch.isfinite(a)):
        return False
    g, a = g[special], a[special]
    return bool(((g == a) | torch.isnan(g) | torch.isnan(a)).all())


def _finite_slices(golden: torch.Tensor, actual: torch.Tensor) -> Iterator[tuple[torch.Tensor, torch.Tensor] | None]:
    """The slices' finite values, or None for a slice where the NaN and infinities of the two disagree."""
    for g, a in _slices(golden, actual):
        finite = torch.isfinite(g)
        if bool(finite.all()) and bool(torch.isfinite(a).all()):
            yield g, a
        else:
            yield (g[finite], a[finite]) if _same_specials(g, a) else None


def pcc(golden: torch.Tensor, actual: torch.Tensor) -> float:
    """Pearson correlation; two constant tensors correlate fully when they are equal. Non-finite values agree only
    where both tensors hold one (infinities of the same sign, or a NaN against either); the correlation is then
    of the finite rest."""
    equal, count, shift = True, 0, None
    sums = [0.0] * 5  # of g, a, g*g, a*a, g*a; shifted by the first slice's means, which keeps them exact
    for pair in _finite_slices(golden, actual):
        if pair is None:
            return 0.0
        g, a = pair
        if equal and torch.equal(g, a):
            continue
        equal = False
        if shift is None:
            shift = (float(g.mean()), float(a.mean())) if g.numel() else (0.0, 0.0)
        g, a = g - shift[0], a - shift[1]
        count += g.numel()
        for i, term in enumerate((g, a, g * g, a * a, g * a)):
            sums[i] += _sum(term)
    if equal:
        return 1.0
    sg, sa, sgg, saa, sga = sums
    gg, aa, ga = sgg - sg * sg / count, saa - sa * sa / count, sga - sg * sa / count
    if gg <= 0 or aa <= 0:
        return 1.0 if all(torch.allclose(a, g) for g, a in _finite_slices(golden, actual)) else 0.0
    return max(-1.0, min(1.0, ga / math.sqrt(gg * aa)))


def compare(golden: torch.Tensor, actual: torch.Tensor, expected_pcc: float = 0.99, atol: float = 1e-08,
            rtol: float = 1e-05) -> dict:
    report = {"expected_pcc": expected_pcc, "atol": atol, "rtol": rtol}
    if golden.numel() != actual.numel():
        return {**report, "actual_pcc": 0.0, "allclose": False, "max": float("nan"),
                "mean_absolute_error": float("nan"), "root_mean_square_error": float("nan"), "cosine_similarity": 0.0,
                "error": f"shape {list(actual.shape)} differs from golden {list(golden.shape)}"}
    if all(torch.equal(g, a) for g, a in _slices(golden, actual)):  # the common case of data movement: one pass
        nonzero = any(bool(g.any()) for g, _ in _slices(golden, golden))
        return {**report, "actual_pcc": 1.0, "allclose": True, "max": 0.0, "mean_absolute_error": 0.0,
                "root_mean_square_error": 0.0, "cosine_similarity": 1.0 if nonzero else 0.0}
    largest, close = [], True
    absolute = squared = dot = norm_g = norm_a = 0.0
    for g, a in _slices(golden, actual):
        diff = (g - a).abs()
        largest.append(diff.max())
        close = close and bool(((diff <= atol + rtol * g.abs()) | (g == a)).all())  # torch.allclose(a, g)
        absolute, squared = absolute + _sum(diff), squared + _sum(diff * diff)
        dot, norm_g, norm_a = dot + _sum(g * a), norm_g + _sum(g * g), norm_a + _sum(a * a)
    count = max(1, golden.numel())
    return {**report, "actual_pcc": pcc(golden, actual), "allclose": close,
            "max": float(torch.stack(largest).max()) if largest else 0.0, "mean_absolute_error": absolute / count,
            "root_mean_square_error": math.sqrt(squared / count),
            "cosine_similarity": dot / max(math.sqrt(norm_g * norm_a), 1e-8) if golden.numel() else 1.0}
