"""Golden comparison: the metrics of ttrt's golden report."""

from __future__ import annotations

import torch


def pcc(golden: torch.Tensor, actual: torch.Tensor) -> float:
    """Pearson correlation; two constant tensors correlate fully when they are equal. NaN and infinities
    agree only where both tensors hold the same one; the correlation is then of the finite rest."""
    g, a = golden.double().flatten(), actual.double().flatten()
    if g.numel() == 0 or torch.equal(g, a):
        return 1.0
    g_special, a_special = ~torch.isfinite(g), ~torch.isfinite(a)
    if g_special.any() or a_special.any():
        same_nan = torch.isnan(g) == torch.isnan(a)
        same_inf = torch.where(torch.isinf(g) | torch.isinf(a), g == a, True)
        if not (same_nan.all() and same_inf.all()):
            return 0.0
        finite = ~g_special
        if not finite.any():
            return 1.0
        return pcc(g[finite], a[finite])
    g, a = g - g.mean(), a - a.mean()
    denominator = torch.sqrt((g * g).sum() * (a * a).sum())
    if denominator == 0:
        return 1.0 if torch.allclose(golden.double(), actual.double()) else 0.0
    return float((g * a).sum() / denominator)


def compare(golden: torch.Tensor, actual: torch.Tensor, expected_pcc: float = 0.99, atol: float = 1e-08,
            rtol: float = 1e-05) -> dict:
    g, a = golden.double().reshape(actual.shape) if golden.numel() == actual.numel() else golden.double(), \
        actual.double()
    if g.shape != a.shape:
        return {"expected_pcc": expected_pcc, "actual_pcc": 0.0, "atol": atol, "rtol": rtol, "allclose": False,
                "max": float("nan"), "mean_absolute_error": float("nan"), "root_mean_square_error": float("nan"),
                "cosine_similarity": 0.0, "error": f"shape {list(a.shape)} differs from golden {list(g.shape)}"}
    diff = (g - a).abs()
    cosine = torch.nn.functional.cosine_similarity(g.flatten(), a.flatten(), dim=0) if g.numel() else torch.tensor(1.0)
    return {"expected_pcc": expected_pcc, "actual_pcc": pcc(g, a), "atol": atol, "rtol": rtol,
            "allclose": bool(torch.allclose(a, g, rtol=rtol, atol=atol)),
            "max": float(diff.max()) if diff.numel() else 0.0,
            "mean_absolute_error": float(diff.mean()) if diff.numel() else 0.0,
            "root_mean_square_error": float(torch.sqrt((diff * diff).mean())) if diff.numel() else 0.0,
            "cosine_similarity": float(cosine)}
