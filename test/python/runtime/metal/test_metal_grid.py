"""The Metal simulator's grid running tt-metal kernels from C++ source: numerics against torch, C semantics,
and the failures a kernel author meets (a hang, an access outside L1, a CB too small), each located."""

import pytest
import torch

from ttmlir.runtime.metal import tile_math
from ttmlir.hardware import TENSOR_ACCESSOR_INTERLEAVED
from ttmlir.runtime.metal.grid import Grid
from ttmlir.runtime.metal.core import CBConfig, KernelHang, KernelLaunch, MetalError, Program
from ttmlir.runtime.metal.kernel_cpp import KernelCompileError
from ttmlir.runtime.metal.reference import CB_BASE, eltwise, kernel, matmul


def test_tilize_round_trip_and_face_order():
    x = torch.arange(64 * 32, dtype=torch.float32).reshape(64, 32)
    data = tile_math.tilize(x, "f32")
    assert torch.equal(tile_math.untilize(data, (64, 32), "f32"), x)
    first_tile = data[:4096].view(torch.float32)
    assert torch.equal(first_tile[:16], x[0, :16]) and torch.equal(first_tile[16:32], x[1, :16])  # face 0 rows
    assert torch.equal(first_tile[256:272], x[0, 16:32])  # face 1 starts with row 0's right half


def test_fpu_add_bf16_on_four_cores():
    torch.manual_seed(0)
    a, b = torch.randn(128, 256), torch.randn(128, 256)
    grid = Grid("wormhole_b0")
    out, stats = eltwise(grid, a, b, kernel("compute_add_fpu.cpp"), "bf16", [(0, 0), (0, 1), (1, 0), (1, 1)])
    expected = (a.bfloat16().float() + b.bfloat16().float()).bfloat16().float()
    assert torch.equal(out, expected)
    assert stats.cores == 4 and stats.tiles_computed == 32 and stats.cycles > 0


@pytest.mark.parametrize("op, reference", [("div_binary_tile", torch.div), ("binary_max_tile", torch.maximum),
                                           ("sub_binary_tile", torch.sub)])
def test_sfpu_binary_then_exp_f32(op, reference):
    torch.manual_seed(1)
    a, b = torch.randn(64, 64), torch.rand(64, 64) + 0.5
    out, _ = eltwise(Grid("blackhole"), a, b, kernel("compute_sfpu_binary.cpp").replace("OP", op), "f32",
                     [(0, 0), (2, 3)], fp32_dest=True)
    assert torch.allclose(out, torch.exp(reference(a, b)), rtol=1e-6)


def test_a_wrong_kernel_gives_a_different_answer():
    torch.manual_seed(2)
    a, b = torch.randn(64, 64), torch.randn(64, 64)
    edited = kernel("compute_add_fpu.cpp").replace("add_tiles(", "sub_tiles(")
    out, _ = eltwise(Grid(), a, b, edited, "f32", [(0, 0)], fp32_dest=True)
    assert torch.allclose(out, a - b) and not torch.allclose(out, a + b)


def test_bf16_dest_rounds_intermediate_results():
    a = torch.full((32, 32), 1.0 + 2 ** -10)
    b = torch.zeros(32, 32)
    out, _ = eltwise(Grid(), a, b, kernel("compute_add_fpu.cpp"), "f32", [(0, 0)], fp32_dest=False)
    assert torch.equal(out, torch.ones(32, 32))  # the 16-bit dst keeps 7 mantissa bits
    out, _ = eltwise(Grid(), a, b, kernel("compute_add_fpu.cpp"), "f32", [(0, 0)], fp32_dest=True)
    assert torch.equal(out, a)


@pytest.mark.parametrize("arch, fmt", [("wormhole_b0", "bf16"), ("blackhole", "f32")])
def test_matmul_accumulates_over_k_in_dst(arch, fmt):
    torch.manual_seed(3)
    a, b = torch.randn(64, 128), torch.randn(128, 96)
    out, stats = matmul(Grid(arch), a, b, fmt, [(0, 0), (1, 1), (2, 2)], fp32_dest=True)
    expected = a.to(tile_math.FORMATS[fmt]).float() @ b.to(tile_math.FORMATS[fmt]).float()
    assert torch.allclose(out, expected.to(tile_math.FORMATS[fmt]).float(), rtol=1e-2, atol=1e-2)
    assert stats.tiles_computed == 6 * 4


def test_a_kernel_that_waits_forever_is_a_hang_naming_core_kernel_line_and_cb():
    starved = kernel("compute_add_fpu.cpp").replace("cb_wait_front(1, 1);", "cb_wait_front(1, 2);")
    with pytest.raises(KernelHang) as error:
        eltwise(Grid(), torch.randn(64, 32), torch.randn(64, 32), starved, "bf16", [(0, 0)])
    message = str(error.value)
    assert "hang: no thread can progress" in message
    assert "core (0,0) kernel 'compute' line 11 waits in cb_wait_front(1, 2): 1 of 2 page(s) pushed to cb 1" in message
    assert "kernel 'writer' line 11 waits in cb_wait_front(16, 1): 0 of 1 page(s)" in message


def test_a_noc_write_outside_l1_is_a_located_error():
    source = """void kernel_main() {
      uint32_t l1_end = get_compile_time_arg_val(0);
      noc_async_write(0, get_noc_addr(18, 18, l1_end - 16), 32);
    }"""
    grid = Grid()
    launch = KernelLaunch("bad_writer", source, "brisc", ((0, 0),), ct_args=(grid.facts.l1_size,))
    with pytest.raises(MetalError, match=r"core \(0,0\) kernel 'bad_writer' line 3: core \(0,0\) L1 address "
                                         r"0x16dff0 \+ 32 B is outside L1 \(1499136 B\)"):
        grid.run(Program((launch,)))


def test_a_cb_too_small_for_its_block_is_a_located_error():
    source = "void kernel_main() {\n  cb_reserve_back(0, 4);\n}\n"
    cb = CBConfig(0, CB_BASE, 2048, 2, "bf16", ((1, 2),))
    with pytest.raises(MetalError, match=r"core \(1,2\) kernel 'k' line 2: cb_reserve_back\(0, 4\) can never "
                                         r"succeed: cb 0 \(2 page\(s\) of 2048 B at 0x10000\) is smaller"):
        Grid().run(Program((KernelLaunch("k", source, "brisc", ((1, 2),)),), (cb,)))


def test_semaphores_hand_off_between_cores():
    producer = """void kernel_main() {
      volatile tt_l1_ptr uint32_t* flag = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(0));
      *flag = 7;
      noc_semaphore_inc(get_noc_addr(19, 18, get_semaphore(0)), 5);
    }"""
    consumer = """void kernel_main() {
      volatile tt_l1_ptr uint32_t* sem = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(0));
      noc_semaphore_wait(sem, 5);
      sem[1] = sem[0] * 2;
    }"""
    grid = Grid()
    grid.run(Program((KernelLaunch("producer", producer, "brisc", ((0, 0),)),
                      KernelLaunch("consumer", consumer, "brisc", ((0, 1),))), semaphores=(0,)))
    words = grid.core(0, 1).l1[256:264].view(torch.int32).tolist()
    assert words == [5, 10]


def test_a_kernel_that_spins_forever_is_a_hang(monkeypatch):
    from ttmlir.runtime.metal import kernel_api

    monkeypatch.setattr(kernel_api, "SPIN_LIMIT", 10_000)  # where the spin count is checked
    source = "void kernel_main() {\n  uint32_t i = 0;\n  while (i < 1) {\n    i = 0;\n  }\n}\n"
    with pytest.raises(KernelHang, match=r"core \(0,0\) kernel 'spinner' line 3: hang: the kernel ran 10,000 passes"):
        Grid().run(Program((KernelLaunch("spinner", source, "brisc", ((0, 0),)),)))


def test_c_integer_semantics():
    source = """void kernel_main() {
      uint32_t wrapped = 0 - 1;
      int32_t quotient = -7 / 2;
      int32_t remainder = -7 % 2;
      uint8_t narrow = 300;
      uint32_t shifted = 1 << 31;
      volatile tt_l1_ptr uint32_t* out = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(1024);
      out[0] = wrapped; out[1] = quotient; out[2] = remainder; out[3] = narrow; out[4] = shifted >> 31;
    }"""
    grid = Grid()
    grid.run(Program((KernelLaunch("c", source, "brisc", ((0, 0),)),)))
    words = grid.core(0, 0).l1[1024:1044].view(torch.int32).tolist()
    assert words == [-1, -3, -1, 44, 1]  # 0xFFFFFFFF read back as int32; C truncates toward zero


def test_loops_of_stores_write_what_each_store_would():
    """A loop storing one value through a pointer runs as one fill (of the converted value, at the indices the
    loop visits); loops whose value or index varies, or that step by more than one, store one by one."""
    source = """void kernel_main() {
      int32_t fill = -2;
      volatile tt_l1_ptr uint32_t* out = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(1024);
      volatile tt_l1_ptr uint16_t* half = reinterpret_cast<volatile tt_l1_ptr uint16_t*>(1100);
      for (size_t i = 2; i < 6; i += 1) {
        int32_t j = (int32_t) i;
        volatile tt_l1_ptr uint32_t v = (volatile tt_l1_ptr uint32_t) fill;
        out[j] = v;
      }
      for (size_t i = 6; i < 8; i++) { out[i] = i * 10; }
      for (size_t i = 8; i < 14; i += 2) { out[i] = 7; }
      for (size_t i = 3; i < 3; i++) { out[i] = 9; }
      for (size_t i = 0; i < 3; i++) { half[i] = 65537; }
    }"""
    grid = Grid()
    grid.run(Program((KernelLaunch("stores", source, "brisc", ((0, 0),)),)))
    words = grid.core(0, 0).l1[1024:1080].view(torch.int32).tolist()
    assert words == [0, 0, -2, -2, -2, -2, 60, 70, 7, 0, 7, 0, 7, 0]
    assert grid.core(0, 0).l1[1100:1108].view(torch.int16).tolist() == [1, 1, 1, 0]


def test_a_loop_of_stores_past_l1_is_a_located_error():
    source = """void kernel_main() {
      volatile tt_l1_ptr uint32_t* out = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(1024);
      for (size_t i = 0; i < 100000000; i++) { out[i] = 0; }
    }"""
    with pytest.raises(MetalError, match=r"core \(0,0\) kernel 'zero'.*outside L1"):
        Grid().run(Program((KernelLaunch("zero", source, "brisc", ((0, 0),)),)))


def test_std_min_max_as_emitc_prints_them():
    """What --convert-ttkernel-to-emitc prints for arith.minsi/maxsi/maxui runs."""
    source = """void kernel_main() {
      int32_t a = -5;
      int32_t b = 3;
      volatile tt_l1_ptr uint32_t* out = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(1024);
      out[0] = std::min<int32_t>(a, b); out[1] = std::max<int32_t>(a, b); out[2] = std::max<size_t>(7, 9);
    }"""
    grid = Grid()
    grid.run(Program((KernelLaunch("c", source, "brisc", ((0, 0),)),)))
    assert grid.core(0, 0).l1[1024:1036].view(torch.int32).tolist() == [-5, 3, 9]


def test_unparsable_kernel_names_kernel_and_line():
    with pytest.raises(KernelCompileError, match=r"kernel 'k' line 3:"):
        Grid().run(Program((KernelLaunch("k", "void kernel_main() {\n  uint32_t x = 1;\n  x = = 2;\n}\n", "brisc",
                                         ((0, 0),)),)))


def test_blocking_call_used_as_a_value_is_refused():
    with pytest.raises(KernelCompileError, match="'cb_wait_front' waits, so it must be called as a statement"):
        Grid().run(Program((KernelLaunch("k", "void kernel_main() { uint32_t x = cb_wait_front(0, 1); }", "brisc",
                                         ((0, 0),)),)))


def test_circular_buffer_objects_as_upstream_kernels_use_them():
    """`CircularBuffer cb(id); cb.wait_front(n)` (tt-metal's object API, which tt-mlir's kernels print) means
    what `cb_wait_front(id, n)` does."""
    objects = """#include "api/dataflow/circular_buffer.h"
namespace NAMESPACE {
void MAIN {
  CircularBuffer in0(0);
  CircularBuffer in1(1);
  CircularBuffer out(16);
  uint32_t count = get_arg_val<uint32_t>(0);
  for (uint32_t i = 0; i < count; ++i) {
    in0.wait_front(1);
    in1.wait_front(1);
    out.reserve_back(1);
    tile_regs_acquire();
    mul_tiles(0, 1, 0, 0, 0);
    tile_regs_commit();
    tile_regs_wait();
    pack_tile(0, 16);
    tile_regs_release();
    out.push_back(1);
    in0.pop_front(1);
    in1.pop_front(1);
  }
}
}
"""
    torch.manual_seed(4)
    a, b = torch.randn(64, 64), torch.randn(64, 64)
    out, _ = eltwise(Grid(exact=True), a, b, objects, "f32", [(0, 0), (0, 1)], fp32_dest=True)
    assert torch.equal(out, a * b)
    with pytest.raises(KernelCompileError, match=r"kernel 'compute' line 19: method 'frobnicate' is not supported"):
        eltwise(Grid(), a, b, objects.replace("in0.pop_front(1);", "in0.frobnicate(1);"), "f32", [(0, 0)])


def test_a_tensor_accessor_reads_interleaved_dram_pages_by_id():
    """tt-metal's TensorAccessor (as upstream's emitter writes it): page p of an interleaved DRAM buffer is in
    bank p % banks; read through the Noc object API into L1, in reverse page order."""
    source = """void kernel_main() {
      Noc noc0(0);
      constexpr auto tensor_accessor_args_0 = TensorAccessorArgs<0, 0>();
      TensorAccessor pages = TensorAccessor(tensor_accessor_args_0, get_arg_val<uint32_t>(0), 64);
      for (uint32_t p = 0; p < 30; p += 1) {
        const uint32_t page_id_0 = static_cast<uint32_t>(29 - p);
        noc0.async_read(pages, CoreLocalMem<uint32_t>(4096 + p * 64), pages.get_aligned_page_size(), {.page_id = page_id_0}, {});
      }
      noc0.async_read_barrier();
    }"""
    grid = Grid()
    data = torch.arange(30 * 16, dtype=torch.int32)
    grid.write_interleaved(8192, data.view(torch.uint8), 64)
    launch = KernelLaunch("reader", source, "brisc", ((0, 0),), ct_args=(TENSOR_ACCESSOR_INTERLEAVED,),
                          rt_args={(0, 0): (8192,)})
    grid.run(Program((launch,)))
    read = grid.core(0, 0).l1[4096:4096 + 30 * 64].view(torch.int32).reshape(30, 16)
    assert torch.equal(read, data.reshape(30, 16).flip(0))
    not_dram = KernelLaunch("reader", source, "brisc", ((0, 0),), ct_args=(0,), rt_args={(0, 0): (8192,)})
    with pytest.raises(MetalError, match=r"TensorAccessorArgs<0, 0>: compile-time arg 0 \(0\) describes no buffer"):
        grid.run(Program((not_dram,)))


def test_chained_tensor_accessor_args_start_after_the_previous_ones():
    """`TensorAccessorArgs<prev.next_compile_time_args_offset(), ...>()`: a sharded buffer's description takes
    more compile-time words than an interleaved one's, so the second accessor reads its args where the first's end;
    a wrong offset would read a word that describes no buffer."""
    from ttmlir.hardware import TENSOR_ACCESSOR_SHARDED, tensor_accessor_size

    source = """void kernel_main() {
      constexpr auto first = TensorAccessorArgs<1, 0>();
      constexpr auto second = TensorAccessorArgs<first.next_compile_time_args_offset(), first.next_common_runtime_args_offset()>();
      volatile tt_l1_ptr uint32_t* out = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(4096);
      out[0] = second.next_compile_time_args_offset();
    }"""
    sharded = (TENSOR_ACCESSOR_SHARDED, 1, 1, 1, 1, 0, 0, 1, 1)  # grid, shard, origin, cores
    grid = Grid()
    launch = KernelLaunch("k", source, "brisc", ((0, 0),), ct_args=(0, *sharded, TENSOR_ACCESSOR_INTERLEAVED))
    grid.run(Program((launch,)))
    assert grid.core(0, 0).l1[4096:4100].view(torch.int32).item() == 1 + tensor_accessor_size(True) + 1


def test_stateful_one_packet_reads_and_multicasts():
    """`set_async_read_state` then `async_read_with_state` (as upstream's emitter writes them) read core (1, 0)'s
    words; `async_write_multicast<..., NOC_MAX_BURST_SIZE>` sends one packet to a rectangle of cores. A read with
    no state set, or a one-packet transfer larger than a packet, is a located error."""
    grid = Grid()
    far_x, far_y = grid.facts.coord_translation_offsets[1] + 1, grid.facts.coord_translation_offsets[0]
    source = f"""void kernel_main() {{
      UnicastEndpoint unicast_ep;
      MulticastEndpoint mcast_ep;
      Noc noc0(0);
      noc0.set_async_read_state<NocOptions::DEFAULT, NOC_MAX_BURST_SIZE>(unicast_ep, 64, {{.noc_x = {far_x}, .noc_y = {far_y}, .addr = static_cast<uint32_t>(8192)}});
      noc0.async_read_with_state<NocOptions::DEFAULT, NOC_MAX_BURST_SIZE>(unicast_ep, CoreLocalMem<uint32_t>(4096), 64, {{.noc_x = {far_x}, .noc_y = {far_y}, .addr = static_cast<uint32_t>(8192)}}, {{}});
      noc0.async_read_barrier();
      noc0.async_write_multicast<NocOptions::DEFAULT, NOC_MAX_BURST_SIZE>(CoreLocalMem<uint32_t>(4096), mcast_ep, 64, 2, {{}} , noc_traits_t<MulticastEndpoint>::dst_args_mcast_type{{.noc_x_start = {far_x}, .noc_y_start = {far_y + 1}, .noc_x_end = {far_x + 1}, .noc_y_end = {far_y + 1}, .addr = static_cast<uint32_t>(12288)}}, false);
      noc0.async_write_barrier();
    }}"""
    data = torch.arange(16, dtype=torch.int32)
    grid.core(0, 1).l1[8192:8192 + 64] = data.view(torch.uint8)
    grid.run(Program((KernelLaunch("reader", source, "brisc", ((0, 0),)),)))
    assert torch.equal(grid.core(0, 0).l1[4096:4096 + 64].view(torch.int32), data)
    for y, x in ((1, 1), (1, 2)):
        assert torch.equal(grid.core(y, x).l1[12288:12288 + 64].view(torch.int32), data)
    stateless = source.replace("noc0.set_async_read_state", "noc0.async_read_barrier(); //")
    with pytest.raises(MetalError, match=r"async_read_with_state on NoC 0 before its set_async_read_state"):
        grid.run(Program((KernelLaunch("reader", stateless, "brisc", ((0, 0),)),)))
    too_big = source.replace("(unicast_ep, 64,", "(unicast_ep, 65536,")
    with pytest.raises(MetalError, match=r"65536 bytes do not fit one NoC packet \(8192 bytes\)"):
        grid.run(Program((KernelLaunch("reader", too_big, "brisc", ((0, 0),)),)))


def test_a_matmul_block_reaching_past_the_waited_tiles_names_the_first_it_would_read():
    # two tile rows of A, two K tiles each: the second row starts at A's tile 2, past the two waited for
    reader = ("void kernel_main() {\n  cb_reserve_back(0, 2);\n  cb_push_back(0, 2);\n  cb_reserve_back(1, 2);\n"
              "  cb_push_back(1, 2);\n}\n")
    compute = ("void kernel_main() {\n  cb_wait_front(0, 2);\n  cb_wait_front(1, 2);\n  tile_regs_acquire();\n"
               "  matmul_block(0, 1, 0, 0, 0, false, 1, 2, 2);\n}\n")
    cbs = tuple(CBConfig(port, CB_BASE + port * 8192, 2048, 4, "bf16", ((0, 0),)) for port in (0, 1))
    launches = (KernelLaunch("reader", reader, "brisc", ((0, 0),)), KernelLaunch("mm", compute, "compute", ((0, 0),)))
    with pytest.raises(MetalError, match=r"kernel 'mm' line 5: matmul_block: tile 2 of cb 0 was not waited for "
                                         r"\(cb_wait_front covers 2 page\(s\)\)"):
        Grid().run(Program(launches, cbs))
