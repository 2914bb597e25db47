"""The `device` fixture tt-metal's op tests take: one simulated Wormhole chip per test."""

import pytest

import ttnn


@pytest.fixture
def device():
    dev = ttnn.open_device(device_id=0)
    yield dev
    ttnn.close_device(dev)


def assert_with_pcc(expected, actual, pcc=0.9999):
    assert list(expected.shape) == list(actual.shape)
    got = ttnn.pearson_correlation_coefficient(expected, actual)
    assert got >= pcc, f"PCC {got} < {pcc}"
