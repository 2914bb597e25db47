"""Mutated kernel C++ (what a user editing a dumped kernel may write) is compiled or refused with a
KernelCompileError naming the kernel and line, and a compiled one runs or fails with a located MetalError:
never another exception."""

import random

import pytest
import torch

from ttmlir.runtime.metal.grid import Grid
from ttmlir.runtime.metal.core import MetalError
from ttmlir.runtime.metal.kernel_cpp import KernelCompileError, compile_kernel
from ttmlir.runtime.metal.reference import eltwise, kernel

SNIPPETS = ["(", ")", "{", "}", ";", "<", ">", "*", "&", "=", "+=", "++", "x", "0", "-1", "1u", "uint32_t ",
            "for ", "if ", "while (1)", "return ", "get_arg_val<uint32_t>(9)", "cb_wait_front(7, 1);", "//", "/*",
            "\"", ".", "::", "? :", "0x", "1.5f", "[0]", "CircularBuffer c(3);", "c.pop_front(1);"]


def mutations(source: str, count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        text = source
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text))
            if rng.random() < 0.5:
                text = text[:at] + rng.choice(SNIPPETS) + text[at:]
            else:
                text = text[:at] + text[at + rng.randint(1, 8):]
        yield text


@pytest.mark.parametrize("name", ["compute_add_fpu.cpp", "reader_binary.cpp"])
def test_mutated_kernels_compile_or_are_refused_with_a_located_error(name):
    for text in mutations(kernel(name), 250, seed=len(name)):
        try:
            compile_kernel(text, "k", frozenset({"cb_wait_front", "cb_reserve_back", "noc_async_read_barrier"}))
        except KernelCompileError as error:
            assert str(error).startswith("kernel 'k'")


def test_mutated_compute_kernels_run_or_fail_located():
    a, b = torch.randn(32, 64), torch.randn(32, 64)
    for text in mutations(kernel("compute_add_fpu.cpp"), 60, seed=7):
        try:
            eltwise(Grid(), a, b, text, "bf16", [(0, 0)])
        except KernelCompileError as error:
            assert str(error).startswith("kernel 'compute'")
        except MetalError as error:
            assert "kernel '" in str(error) or str(error).startswith("hang")
