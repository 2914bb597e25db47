"""How 2D convolution/pooling properties spell their values, shared by verifiers, lowering and kernels.

A stride, dilation, kernel or scale is one value for both dimensions or a (height, width) pair; a
padding is one value, a (vertical, horizontal) pair, or (top, left, bottom, right).
"""

from __future__ import annotations


def round_up(value: int, multiple: int) -> int:
    """`value` rounded up to a multiple of `multiple` (tiles, alignments, blocks)."""
    return -(-value // multiple) * multiple


def pair(values) -> list[int]:
    values = [int(v) for v in values]
    return values * 2 if len(values) == 1 else values


def padding4(values) -> list[int]:
    """(top, left, bottom, right)."""
    v = [int(x) for x in values]
    return v * 4 if len(v) == 1 else [v[0], v[1], v[0], v[1]] if len(v) == 2 else v


def conv_sides(values) -> list[int]:
    """TTNN convolution padding as (top, bottom, left, right): four values are that, fewer (height, width)."""
    v = [int(x) for x in values]
    return v if len(v) == 4 else [v[0], v[0], v[-1], v[-1]]
