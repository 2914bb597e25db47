"""Checks tt-metal's op tests make, for this directory's tests (a module of its own: `conftest` is ambiguous
when the whole suite runs)."""

import ttnn


def assert_with_pcc(expected, actual, pcc=0.9999):
    assert list(expected.shape) == list(actual.shape)
    got = ttnn.pearson_correlation_coefficient(expected, actual)
    assert got >= pcc, f"PCC {got} < {pcc}"
