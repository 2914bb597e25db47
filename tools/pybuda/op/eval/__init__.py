"""`pybuda.op.eval`: comparing a device's tensor with its golden (`compare_tensor_to_golden`, `calculate_pcc`)."""

from pybuda.config import PyBudaError
from pybuda.op.eval.common import calculate_pcc, compare_tensor_to_golden

__all__ = ["calculate_pcc", "compare_tensor_to_golden", "does_prestriding_improve_perf"]


def does_prestriding_improve_perf(*args, **kwargs):
    """Refused: tt-buda's cost estimate for rewriting a strided convolution on a graph input as a stride-1 one over
    space-to-depth channels; our compiler has no prestride rewrite (TTNN's conv2d takes the stride itself)."""
    raise PyBudaError("does_prestriding_improve_perf is not supported: convolutions are not prestrided here; "
                      "TTNN's conv2d takes the stride itself")
