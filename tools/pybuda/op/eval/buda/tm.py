"""`pybuda.op.eval.buda.tm.eval(type, attr, [tensor])`: the Buda graph's tensor manipulations on a 4-d
[w, z, r, c] tensor, computed with torch. The z-slicing ones move rows or columns between the z dimension and a
tile's: vslice/vstack cut rows into z blocks and back, hslice/hstack do so with columns."""

from __future__ import annotations

import torch

from pybuda.config import PyBudaError
from pybuda.op import HSlice, HStack


def _vslice(x: torch.Tensor, slices: int) -> torch.Tensor:
    w, z, r, c = x.shape
    if r % slices:
        raise PyBudaError(f"vslice: {r} rows do not split into {slices} slices")
    return x.reshape(w, z * slices, r // slices, c)


def _vstack(x: torch.Tensor, slices: int) -> torch.Tensor:
    w, z, r, c = x.shape
    if z % slices:
        raise PyBudaError(f"vstack: {z} z blocks do not group by {slices}")
    return x.reshape(w, z // slices, r * slices, c)


def _transpose(x: torch.Tensor, dim0: int, dim1: int, orig_size: int = -1) -> torch.Tensor:
    if orig_size > 0:
        raise PyBudaError("transpose with a padded original size is not supported: tensors here are not tile-padded")
    return torch.transpose(x, dim0, dim1)


def _broadcast(x: torch.Tensor, dim: int, factor: int, explicit: bool = False) -> torch.Tensor:
    if x.is_sparse:
        raise PyBudaError("broadcast of a sparse picker matrix is not supported")
    sizes = [1] * x.dim()
    sizes[dim] = factor
    return x.repeat(*sizes)


# type -> (how it computes, how many attrs it takes at least and at most)
TMS = {
    "vslice": (_vslice, 1, 1), "vstack": (_vstack, 1, 1),
    "hslice": (lambda x, slices: HSlice("hslice", x, slices), 1, 1),
    "hstack": (lambda x, slices: HStack("hstack", x, slices), 1, 1),
    "transpose": (_transpose, 2, 3), "broadcast": (_broadcast, 2, 3),
}


def eval(type: str, attr, ops) -> torch.Tensor:  # noqa: A001  (tt-buda's name for it)
    if type not in TMS:
        raise PyBudaError(f"Buda tm '{type}' is not supported; supported: {', '.join(sorted(TMS))}")
    if len(ops) != 1:
        raise PyBudaError(f"Buda tm '{type}' takes one operand, got {len(ops)}")
    fn, least, most = TMS[type]
    if not least <= len(attr) <= most:
        raise PyBudaError(f"Buda tm '{type}' takes {least}..{most} attributes, got {list(attr)}")
    x = ops[0].value() if hasattr(ops[0], "value") and not isinstance(ops[0], torch.Tensor) else ops[0]
    if type in ("vslice", "vstack") and x.dim() != 4:
        raise PyBudaError(f"Buda tm '{type}' works on 4-d [w, z, r, c] tensors, got {x.dim()}-d")
    return fn(x, *attr)
