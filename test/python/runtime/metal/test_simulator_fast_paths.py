"""The Metal simulator's fast paths compute what its plain paths compute, bit for bit: tiles unpacked, rounded in
dst and packed through numpy, a matmul_block's steps as one batched product, and kernel C++'s integer division
compiled to Python's where the kernel's types prove it agrees with C."""

import numpy
import pytest
import torch

from ttmlir.runtime.metal import tile_math
from ttmlir.runtime.metal.core import KernelLaunch, MetalError, Program
from ttmlir.runtime.metal.grid import Grid
from ttmlir.runtime.metal.kernel_cpp import compile_kernel
from ttmlir.runtime.numerics import Numerics

NUMERICS = [Numerics(fidelity, fp32, False, exact) for fidelity in ("lofi", "hifi2", "hifi3", "hifi4")
            for fp32 in (False, True) for exact in (False, True)]


def tiles(count: int, seed: int, special: bool = True) -> torch.Tensor:
    """Values over a wide range of magnitudes; with infinities, subnormals and -0 among them when `special`."""
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(count, 32, 32, generator=gen) * torch.exp(torch.randn(count, 32, 32, generator=gen) * 3)
    if special:
        pick = torch.rand(count, 32, 32, generator=gen)
        x[pick < 0.01], x[(pick > 0.01) & (pick < 0.02)] = float("inf"), -float("inf")
        x[(pick > 0.02) & (pick < 0.03)], x[(pick > 0.03) & (pick < 0.04)] = 1e-39, -0.0
    return x


def same_bits(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.shape == b.shape and torch.equal(a.contiguous().view(torch.int32), b.contiguous().view(torch.int32))


@pytest.mark.parametrize("fmt", ["bf16", "f32"])
@pytest.mark.parametrize("transpose", [False, True])
def test_unpack_round_and_pack_through_numpy_match_the_torch_path(fmt, transpose):
    for seed in range(6):
        x = tiles(1, seed, special=seed % 2 == 0)[0]
        data = tile_math.tilize(x, fmt)
        if seed == 4:
            data[::97] = 0xFF  # NaNs among the bytes: left to the torch path where it rounds them
        unpacked = tile_math.unpack(data, fmt)
        unpacked = unpacked.T if transpose else unpacked
        for num in NUMERICS:
            held = numpy.empty((32, 32), numpy.float32)
            assert tile_math.unpack_into(held, data.numpy(), fmt, transpose)
            assert same_bits(torch.from_numpy(held.copy()), unpacked)
            if tile_math.dst_holds(held, fmt, num):
                assert same_bits(torch.from_numpy(held), tile_math.dst_round(unpacked, num))
            else:
                assert torch.isnan(unpacked).any() and not num.fp32_dest_acc_en
            page = numpy.zeros(tile_math.tile_bytes(fmt), numpy.uint8)
            source = x.T.contiguous() if transpose else x
            if tile_math.pack_into(page, source.numpy(), fmt, num):
                assert torch.equal(torch.from_numpy(page), tile_math.pack(source, fmt, num))
            else:
                assert fmt == "bf16" and (num.exact or torch.isnan(source).any())


def test_a_format_numpy_does_not_hold_is_left_to_the_torch_path():
    held = numpy.empty((32, 32), numpy.float32)
    assert not tile_math.unpack_into(held, numpy.zeros(2048, numpy.uint8), "f16")
    assert not tile_math.pack_into(numpy.zeros(2048, numpy.uint8), held, "f16", Numerics())


@pytest.mark.parametrize("num", NUMERICS, ids=str)
def test_matmul_steps_equal_one_tile_matmul_per_step(num):
    for seed, (steps, rows, cols) in enumerate([(1, 1, 1), (28, 1, 1), (3, 2, 4), (5, 3, 2)]):
        a = tiles(steps * rows, seed, special=seed == 2).reshape(steps, rows, 1, 32, 32)
        b = tiles(steps * cols, seed + 10, special=seed == 2).reshape(steps, 1, cols, 32, 32)
        start = tile_math.dst_round(tiles(rows * cols, seed + 20, special=False).reshape(rows, cols, 32, 32), num)
        for transpose in (False, True):
            acc = start
            for k in range(steps):
                acc = tile_math.dst_round(tile_math.matmul(acc, a[k], b[k], transpose, num), num)
            assert same_bits(tile_math.matmul_steps(start.clone(), a, b, transpose, num), acc)


def run_words(source: str, count: int, args: tuple = ()) -> list[int]:
    grid = Grid()
    core = ((0, 0),)
    grid.run(Program((KernelLaunch("ints", source, "brisc", core, rt_args={core[0]: args}),)))
    return grid.core(0, 0).l1[1024:1024 + 4 * count].view(torch.int32).tolist()


def test_integer_division_keeps_c_semantics_where_it_compiles_to_python_division():
    source = """void kernel_main() {
      volatile tt_l1_ptr int32_t* out = reinterpret_cast<volatile tt_l1_ptr int32_t*>(1024);
      int32_t seven = get_arg_val<uint32_t>(0);
      int32_t minus = 0 - seven;
      uint32_t big = get_arg_val<uint32_t>(1);
      size_t four = get_arg_val<uint32_t>(2);
      for (uint32_t i = 0; i < 4; i += 1) {
        uint32_t row = i / 4;
        uint32_t col = i % 4;
        out[i] = row * 10 + col;
      }
      out[4] = minus / 2;
      out[5] = minus % 2;
      out[6] = big / 3;
      out[7] = big % 7;
      out[8] = 7 / four;
    }"""
    python = compile_kernel(source, "ints", frozenset()).python
    assert "(c_i // 4)" in python and "(c_i % 4)" in python  # both known non-negative
    assert "(c_minus // 2 if c_minus >= 0 else _cdiv(c_minus, 2))" in python  # signed: tested where it runs
    assert "c_row = (c_i // 4)" in python  # an unsigned quotient of unsigned values needs no conversion
    assert "_cdiv(7, c_four)" in python  # a divisor that may be 0
    assert run_words(source, 9, (7, 4000000000, 4)) == [0, 1, 2, 3, -3, -1, 1333333333, 4000000000 % 7, 1]


def test_constants_fold_as_c_computes_them():
    """A local declared once with a constant value is that constant where it is read; operations on constants are
    computed when the kernel compiles (C's truncating division), an integer's identities (x * 1, x / 1, x + 0)
    dropped and the API's coordinates read once: the values are those the C program computes."""
    source = """void kernel_main() {
      volatile tt_l1_ptr int32_t* out = reinterpret_cast<volatile tt_l1_ptr int32_t*>(1024);
      int32_t seven = 7;
      int32_t minus = 0 - seven;
      size_t one = 1;
      size_t x = my_logical_x_ * one + 0;
      out[0] = minus / 2;
      out[1] = minus % 2;
      out[2] = x / one;
      out[3] = x % one;
      out[4] = seven * 3 - 30;
      out[5] = my_logical_y_;
    }"""
    python = compile_kernel(source, "ints", frozenset()).python
    assert "c_seven" not in python and "c_one" not in python  # the constants are not locals
    assert "api.store(c_out, 0, (-3))" in python and "api.store(c_out, 1, (-1))" in python
    assert "c_x = _k_my_logical_x_" in python and python.count("api.constant(") == 2
    grid, core = Grid(), (3, 2)
    grid.run(Program((KernelLaunch("ints", source, "brisc", (core,)),)))
    assert grid.core(*core).l1[1024:1048].view(torch.int32).tolist() == [-3, -1, 2, 0, -9, 3]


def test_a_divisor_that_may_be_zero_keeps_the_c_helper():
    source = """void kernel_main() {
      volatile tt_l1_ptr uint32_t* out = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(1024);
      uint32_t zero = get_arg_val<uint32_t>(0);
      out[0] = 5 / zero;
    }"""
    assert "_cdiv(5, c_zero)" in compile_kernel(source, "ints", frozenset()).python
    with pytest.raises(MetalError, match="line 4: ZeroDivisionError: integer division by zero"):
        run_words(source, 1, (0,))


def test_a_cast_keeps_its_operands_range_and_the_logical_coordinates_are_bytes():
    source = """void kernel_main() {
      volatile tt_l1_ptr uint32_t* out = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(1024);
      uint32_t row = my_logical_y_ * 4;
      int32_t at = (int32_t) row;
      out[0] = at / 2;
    }"""
    python = compile_kernel(source, "ints", frozenset()).python
    assert "c_at = c_row" in python and "(c_at // 2)" in python  # row is in [0, 1020]: no conversion, no C helper
    grid, core = Grid(), (3, 2)
    grid.run(Program((KernelLaunch("ints", source, "brisc", (core,)),)))
    assert grid.core(*core).l1[1024:1028].view(torch.int32).tolist() == [6]


def test_object_api_reads_equal_the_general_paths_reads():
    """`noc0.async_read` from a worker's L1 (unicast) and from a DRAM bank (AllocatorBank), done in one step, read
    the bytes, take the cycles and count the traffic that `noc_async_read` of the same NoC address does, including a
    DRAM page never written (zeros) and a read crossing two DRAM pages (the general path)."""
    object_api = """void kernel_main() {
      UnicastEndpoint unicast_ep;
      AllocatorBank<AllocatorBankType::DRAM> dram_ep;
      Noc noc0(0);
      noc0.async_read(unicast_ep, CoreLocalMem<uint32_t>(200000), 96, {.noc_x = 19, .noc_y = 18, .addr = 300000}, {});
      noc0.async_read(dram_ep, CoreLocalMem<uint32_t>(201000), 128, {.bank_id = 3, .addr = 4096}, {});
      noc0.async_read(dram_ep, CoreLocalMem<uint32_t>(202000), 64, {.bank_id = 5, .addr = 1 << 20}, {});
      noc0.async_read(dram_ep, CoreLocalMem<uint32_t>(203000), 64, {.bank_id = 3, .addr = 65536 - 32}, {});
      noc0.async_read_barrier();
    }"""
    general = """void kernel_main() {
      noc_async_read(get_noc_addr(19, 18, 300000), 200000, 96);
      noc_async_read(get_noc_addr_from_bank_id<true>(3, 4096), 201000, 128);
      noc_async_read(get_noc_addr_from_bank_id<true>(5, 1 << 20), 202000, 64);
      noc_async_read(get_noc_addr_from_bank_id<true>(3, 65536 - 32), 203000, 64);
      noc_async_read_barrier();
    }"""
    results = []
    for source in (object_api, general):
        grid = Grid()
        grid.core(0, 1).l1[300000:300096] = torch.arange(96, dtype=torch.uint8)
        grid.write(grid.dram_addr(3, 0), torch.arange(70000, dtype=torch.int64).remainder(251).to(torch.uint8))
        stats = grid.run(Program((KernelLaunch("reads", source, "brisc", ((0, 0),)),)))
        results.append((grid.core(0, 0).l1[200000:203064].clone(), stats.cycles, stats.noc_bytes))
    (fast, fast_cycles, fast_bytes), (plain, plain_cycles, plain_bytes) = results
    assert torch.equal(fast, plain) and fast[:96].tolist() == list(range(96))
    assert (fast_cycles, fast_bytes) == (plain_cycles, plain_bytes)


@pytest.mark.parametrize("far", ["{.noc_x = 19, .addr = 300000}", "{19, 18, 300000}", "{.noc_x = 19, .noc_y = 18}"])
def test_an_object_api_read_naming_its_far_side_otherwise_fails_located(far):
    """A unicast read's far side with a field missing or given by position is not the direct read: it reaches the
    general path, which refuses it naming the fields it takes."""
    source = f"""void kernel_main() {{
      UnicastEndpoint unicast_ep;
      Noc noc0(0);
      noc0.async_read(unicast_ep, CoreLocalMem<uint32_t>(200000), 96, {far}, {{}});
    }}"""
    with pytest.raises(MetalError, match=r"a unicast endpoint's far side is \{\.noc_x, \.noc_y, \.addr\}"):
        Grid().run(Program((KernelLaunch("reads", source, "brisc", ((0, 0),)),)))
