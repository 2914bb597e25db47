"""MLIR's TOSA dialect: ops from one table (`ops.OPS`), checked by `verify`."""

from ttmlir.dialects.tosa.ops import OPS, TOSA, TOSA_OP_CLASSES, ShapeType, TosaOp, tosa_op  # noqa: F401
