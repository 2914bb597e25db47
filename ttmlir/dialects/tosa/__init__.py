"""MLIR's TOSA dialect: ops from one table (`ops.OPS`), checked by `verify`."""

from ttmlir.dialects.tosa.ops import OPS, TOSA, TOSA_OP_CLASSES, TosaOp  # noqa: F401
from ttmlir.dialects.tosa.types import ShapeType  # noqa: F401
