"""What a golden computes: a `GoldenMap` (one tensor per device of the mesh, `{0: t}` on one chip), and a `Golden`,
a function of an op's inputs by operand name and its properties as Python values."""

from __future__ import annotations

from typing import Callable

import torch

GoldenMap = dict[int, torch.Tensor]
Golden = Callable[[dict, dict], object]
