"""`pybuda.op.eval`: comparing a device's tensor with its golden (`compare_tensor_to_golden`, `calculate_pcc`)."""

from pybuda.op.eval.common import calculate_pcc, compare_tensor_to_golden

__all__ = ["calculate_pcc", "compare_tensor_to_golden"]
