"""How a computed tensor is judged against its golden: elementwise within tolerances and, given a threshold, by
Pearson correlation (PCC); the shapes (up to leading 1s) must agree."""

from __future__ import annotations

import logging

import torch

from ttmlir.runtime.golden import pcc as pearson

logger = logging.getLogger("pybuda.verify")


def calculate_pcc(golden: torch.Tensor, calculated: torch.Tensor) -> float:
    return float(pearson(golden.detach().float(), calculated.detach().float()))


def _squeezed(shape) -> tuple:
    dims = list(shape)
    while len(dims) > 1 and dims[0] == 1:
        dims.pop(0)
    return tuple(dims)


def compare_tensor_to_golden(name: str, golden: torch.Tensor, calculated: torch.Tensor, is_buda: bool = False,
                             rtol: float | None = None, atol: float | None = None, pcc: float | None = None,
                             warning_only: bool = False, relative_atol: float | None = None,
                             verify_cfg=None) -> bool:
    """True if `calculated` matches `golden`: the same shape (up to leading 1s), every element within
    atol + rtol * |golden|, and, when a PCC threshold is given, a Pearson correlation at least that. Thresholds
    not given come from `verify_cfg` (per dtype), then defaults: atol is `relative_atol` (0.1) of the golden's
    largest magnitude, rtol 0. Booleans must be equal. `is_buda` (the tensor came off a device) only names where it
    came from in the log. With `warning_only`, a mismatch is logged and passes."""
    if verify_cfg is not None:
        dtype = golden.dtype if golden.dtype in verify_cfg.rtol else torch.float32
        rtol = rtol if rtol is not None else verify_cfg.rtol.get(dtype)
        atol = atol if atol is not None else verify_cfg.atol.get(dtype)
        pcc = pcc if pcc is not None else verify_cfg.pcc
        relative_atol = relative_atol if relative_atol is not None else verify_cfg.relative_atol
    where = "device" if is_buda else "computed"
    why = ""
    if _squeezed(golden.shape) != _squeezed(calculated.shape):
        why = f"shape {tuple(calculated.shape)} is not the golden's {tuple(golden.shape)}"
    elif golden.dtype == torch.bool:
        if not torch.equal(golden.reshape(calculated.shape), calculated.to(torch.bool)):
            why = "boolean values differ"
    else:
        g = golden.detach().float().reshape(calculated.shape)
        c = calculated.detach().float()
        if atol is None:
            atol = (0.1 if relative_atol is None else relative_atol) * (float(g.abs().max()) if g.numel() else 0.0)
        rtol = 0.0 if rtol is None else rtol
        if not torch.allclose(g, c, rtol=rtol, atol=atol):
            why = f"max difference {float((g - c).abs().max()):.6g} (atol {atol:.6g}, rtol {rtol})"
        elif pcc is not None and g.numel() > 1 and not torch.equal(g, c) and g.std() > 0:
            value = calculate_pcc(g, c)
            if not value >= pcc:
                why = f"PCC {value:.6f}, required {pcc}"
    if not why:
        logger.debug("%s: %s tensor matches the golden", name, where)
        return True
    if warning_only:
        logger.warning("%s: %s tensor does not match the golden (%s), waived", name, where, why)
        return True
    logger.error("%s: %s tensor does not match the golden: %s", name, where, why)
    return False
