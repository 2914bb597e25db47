"""`dense_array` decodes a dense attribute's bytes at once: the same values `get_values` reads element by element."""

import numpy as np
import pytest
from xdsl.dialects.builtin import (BFloat16Type, DenseIntOrFPElementsAttr, IntegerType, Signedness, TensorType, f16,
                                   f32, f64, i1, i32, i64)


from ttmlir.ir.props import dense_array

VALUES = {i1: [1, 0, 1, 1], IntegerType(8): [-128, 127, 0, -1], IntegerType(16, Signedness.UNSIGNED): [0, 65535, 7, 1],
          i32: [-2**31, 2**31 - 1, 5, -6], i64: [-2**63, 2**40 + 3, 0, 9],
          f16: [0.5, -65504.0, 1e-4, float("inf")], BFloat16Type(): [1.0078125, -3.0e38, 1e-30, -0.0],
          f32: [3.4e38, -1.5, 1e-40, float("nan")], f64: [1e300, -2.5, 5e-324, 0.1]}


@pytest.mark.parametrize("element", VALUES, ids=str)
def test_dense_array_equals_get_values(element):
    attr = DenseIntOrFPElementsAttr.from_list(TensorType(element, [2, 2]), VALUES[element])
    decoded = dense_array(attr)
    assert decoded.shape == (4,)
    np.testing.assert_array_equal(decoded, np.asarray(attr.get_values(), dtype=decoded.dtype))

