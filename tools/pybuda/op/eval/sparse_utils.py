"""`pybuda.op.eval.sparse_utils`: the convolution arithmetic tt-buda scripts call: canonical padding, output
sizes, and the sparse "picker" matrices that express one kernel tap of a convolution as a matmul (output pixel
rows picking input pixel columns), and the row-block splitting and tile interleaving applied to them. Padding lists
are PyBuda's [left, right, top, bottom]."""

from __future__ import annotations

import math

import torch

from pybuda.config import PyBudaError
from pybuda.pybudaglobal import TILE_DIM, align_up_tile


def _pair(v) -> tuple[int, int]:
    return (v, v) if isinstance(v, int) else (int(v[0]), int(v[1]))


def conv2d_padding_to_canonical(padding, kernel_size) -> list[int]:
    """[left, right, top, bottom] of an int, "same", (height, width) or a 4-list. tt-buda's "same" puts k // 2 on
    each side and one less after the kernel centre for an even kernel (the size kept at stride 1)."""
    kh, kw = _pair(kernel_size)
    if isinstance(padding, int):
        return [padding] * 4
    if padding == "same":
        return [kw // 2, kw // 2 - (kw % 2 == 0), kh // 2, kh // 2 - (kh % 2 == 0)]
    if isinstance(padding, (list, tuple)) and len(padding) in (2, 4):
        return [padding[1], padding[1], padding[0], padding[0]] if len(padding) == 2 else list(padding)
    raise PyBudaError(f"padding {padding!r}: expected an int, 'same', (height, width) or [left, right, top, bottom]")


def _check_padding(padding) -> None:
    if not (isinstance(padding, (list, tuple)) and len(padding) == 4 and all(isinstance(p, int) for p in padding)):
        raise PyBudaError(f"padding {padding!r}: expected [left, right, top, bottom] ints "
                          "(conv2d_padding_to_canonical makes one)")


def calculate_conv2d_output_dimensions(original_y: int, original_x: int, kernel_size, stride, padding,
                                       dilation: int = 1, ceil_mode: bool = False) -> tuple[int, int]:
    """(height, width) of a convolution's or pooling's output."""
    _check_padding(padding)
    (kh, kw), (sy, sx) = _pair(kernel_size), _pair(stride)
    left, right, top, bottom = padding
    rounding = math.ceil if ceil_mode else math.floor
    y = rounding((original_y + top + bottom - dilation * (kh - 1) - 1) / sy) + 1
    x = rounding((original_x + left + right - dilation * (kw - 1) - 1) / sx) + 1
    return y, x


def calculate_conv2d_transpose_output_dimensions(original_y: int, original_x: int, kernel_size, stride, padding,
                                                 dilation: int = 1, output_padding: int = 0) -> tuple[int, int]:
    """(height, width) of a transposed convolution's output; `padding` an int or [left, right, top, bottom]."""
    padding = [padding] * 4 if isinstance(padding, int) else padding
    _check_padding(padding)
    (kh, kw), (sy, sx), (oy, ox) = _pair(kernel_size), _pair(stride), _pair(output_padding)
    left, right, top, bottom = padding
    y = (original_y - 1) * sy - top - bottom + dilation * (kh - 1) + oy + 1
    x = (original_x - 1) * sx - left - right + dilation * (kw - 1) + ox + 1
    return y, x


def create_conv2d_sparse_picker_matrix(y: int, x: int, y_shift: int, x_shift: int, k_y: int, k_x: int, stride,
                                       padding, dilation: int, tile_align: bool = False, pad_x_only: bool = False,
                                       sparse_r_pad: int = 0, sparse_c_pad: int = 0, is_convtranspose2d: bool = False,
                                       yout_transpose: int | None = None,
                                       xout_transpose: int | None = None) -> torch.Tensor:
    """The 0/1 matrix [output pixels, input pixels] (row-major pixels) whose row for output (oy, ox) picks the input
    pixel one kernel tap reads. The tap is given as its offset from the kernel centre, (k - 1) // 2 - tap index,
    as PyBuda's conv decomposition numbers them. `tile_align` pads both sides to whole tiles (plus
    `sparse_r_pad`/`sparse_c_pad` more tiles); a transposed convolution gives its output size."""
    if pad_x_only:
        raise PyBudaError("create_conv2d_sparse_picker_matrix(pad_x_only=True) is not supported: pickers here are "
                          "for row-major (channel-first) pixels")
    if is_convtranspose2d and (yout_transpose is None or xout_transpose is None):
        raise PyBudaError("create_conv2d_sparse_picker_matrix(is_convtranspose2d=True) needs yout_transpose and "
                          "xout_transpose")
    _check_padding(padding)
    sy, sx = _pair(stride)
    left, _, top, _ = padding
    out_y, out_x = (yout_transpose, xout_transpose) if is_convtranspose2d else \
        calculate_conv2d_output_dimensions(y, x, (k_y, k_x), stride, padding, dilation)
    tap_y, tap_x = (k_y - 1) // 2 - y_shift, (k_x - 1) // 2 - x_shift
    oy, ox = torch.meshgrid(torch.arange(out_y), torch.arange(out_x), indexing="ij")
    iy, ix = oy * sy - top + dilation * tap_y, ox * sx - left + dilation * tap_x
    inside = (iy >= 0) & (iy < y) & (ix >= 0) & (ix < x)
    rows, cols = (oy * out_x + ox)[inside], (iy * x + ix)[inside]
    shape = (out_y * out_x, y * x)
    if tile_align:
        shape = (align_up_tile(shape[0]) + 32 * sparse_r_pad, align_up_tile(shape[1]) + 32 * sparse_c_pad)
    return torch.sparse_coo_tensor(torch.stack([rows, cols]), torch.ones(rows.numel()), shape,
                                   dtype=torch.float32).coalesce()


def vslice(t: torch.Tensor, split_factor: int, pack: bool = False):
    """A 2-d sparse matrix cut into `split_factor` blocks of consecutive rows (each keeps every column); `pack`
    stacks them into one [split_factor, rows / split_factor, cols] tensor."""
    if not t.is_sparse or t.dim() != 2:
        raise PyBudaError(f"vslice needs a 2-d sparse tensor, got a {t.dim()}-d {t.layout} one")
    rows = t.shape[0]
    if rows % split_factor:
        raise PyBudaError(f"vslice: {rows} rows do not split into {split_factor} blocks")
    height = rows // split_factor
    t = t.coalesce()
    (r, c), values = t.indices(), t.values()
    blocks = [torch.sparse_coo_tensor(torch.stack([r[r // height == b] % height, c[r // height == b]]),
                                      values[r // height == b], (height, t.shape[1]), dtype=t.dtype).coalesce()
              for b in range(split_factor)]
    return torch.stack(blocks) if pack else blocks


def interleave_tiles(pickers: "list[torch.Tensor]") -> torch.Tensor:
    """Equal-shape 2-d sparse matrices side by side, interleaved a tile (32 columns) at a time: column c of matrix z
    lands in column tile (c // 32) * len(pickers) + z, at offset c % 32."""
    if not pickers or any(p.shape != pickers[0].shape for p in pickers):
        raise PyBudaError("interleave_tiles needs one or more sparse matrices of one shape")
    count, rows, cols, values = len(pickers), [], [], []
    for z, picker in enumerate(pickers):
        picker = picker.coalesce()
        r, c = picker.indices()
        rows.append(r)
        cols.append((c // TILE_DIM) * count * TILE_DIM + z * TILE_DIM + c % TILE_DIM)
        values.append(picker.values())
    shape = (pickers[0].shape[0], pickers[0].shape[1] * count)
    return torch.sparse_coo_tensor(torch.stack([torch.cat(rows), torch.cat(cols)]), torch.cat(values), shape,
                                   dtype=pickers[0].dtype).coalesce()


def _no_prestride(what: str):
    def refuse(*args, **kwargs):
        raise PyBudaError(f"{what} is not supported: convolutions are not prestrided here; TTNN's conv2d takes the "
                          "stride itself")
    refuse.__name__ = refuse.__qualname__ = what
    refuse.__doc__ = f"Refused: {what} belongs to tt-buda's prestride rewrite of strided convolutions."
    return refuse


can_conv2d_prestride = _no_prestride("can_conv2d_prestride")
calculate_conv2d_prestride_weights_and_padding = _no_prestride("calculate_conv2d_prestride_weights_and_padding")
