"""The `device` fixture tt-metal's op tests take: one simulated Wormhole chip per test."""

import pytest

import ttnn


@pytest.fixture
def device():
    dev = ttnn.open_device(device_id=0)
    yield dev
    ttnn.close_device(dev)
