"""Kernel functions in IR (emitc, arith, scf) printed as C++ by `--ttkernel-to-cpp`'s printer and run on the
Metal simulator: the text the compiler writes is the text the simulator compiles."""

import pytest
import torch

from ttmlir.asm import parse_text
from ttmlir.dialects import make_context
from ttmlir.runtime.metal.grid import Grid
from ttmlir.runtime.metal.reference import eltwise
from ttmlir.target import TranslateError
from ttmlir.target.cpp import translate_to_cpp

COMPUTE = """
func.func @compute() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  emitc.include "api/compute/eltwise_binary.h"
  %in0 = arith.constant 0 : i32
  %in1 = arith.constant 1 : i32
  %out = arith.constant 16 : i32
  %one = arith.constant 1 : i32
  %dst = arith.constant 0 : i32
  %count = emitc.literal "get_arg_val<uint32_t>(0)" : i32
  %ub = arith.index_cast %count : i32 to index
  %lb = arith.constant 0 : index
  %step = arith.constant 1 : index
  emitc.call_opaque "binary_op_init_common"(%in0, %in1, %out) : (i32, i32, i32) -> ()
  scf.for %i = %lb to %ub step %step {
    emitc.call_opaque "cb_wait_front"(%in0, %one) : (i32, i32) -> ()
    emitc.call_opaque "cb_wait_front"(%in1, %one) : (i32, i32) -> ()
    emitc.call_opaque "cb_reserve_back"(%out, %one) : (i32, i32) -> ()
    emitc.call_opaque "tile_regs_acquire"() : () -> ()
    emitc.call_opaque "OP_tiles_init"(%in0, %in1) : (i32, i32) -> ()
    emitc.call_opaque "OP_tiles"(%in0, %in1, %dst, %dst, %dst) : (i32, i32, i32, i32, i32) -> ()
    emitc.call_opaque "tile_regs_commit"() : () -> ()
    emitc.call_opaque "tile_regs_wait"() : () -> ()
    emitc.call_opaque "pack_tile"(%dst, %out) : (i32, i32) -> ()
    emitc.call_opaque "tile_regs_release"() : () -> ()
    emitc.call_opaque "cb_push_back"(%out, %one) : (i32, i32) -> ()
    emitc.call_opaque "cb_pop_front"(%in0, %one) : (i32, i32) -> ()
    emitc.call_opaque "cb_pop_front"(%in1, %one) : (i32, i32) -> ()
  }
  return
}
"""


def compute_kernel(op: str) -> str:
    module, _ = parse_text(make_context(), COMPUTE.replace("OP", op))
    return translate_to_cpp(module)


@pytest.mark.parametrize("op, reference", [("add", torch.add), ("mul", torch.mul), ("sub", torch.sub)])
def test_printed_kernel_runs_on_the_simulator(op, reference):
    torch.manual_seed(5)
    a, b = torch.randn(64, 96), torch.randn(64, 96)
    out, stats = eltwise(Grid("wormhole_b0", exact=True), a, b, compute_kernel(op), "f32", [(0, 0), (3, 5)],
                         fp32_dest=True)
    assert torch.equal(out, reference(a, b))
    assert stats.tiles_computed == 6


def test_a_kernel_with_arguments_is_refused_naming_it():
    module, _ = parse_text(make_context(), "func.func @k(%a: i32) attributes {ttkernel.thread = "
                                           "#ttkernel.thread<noc>} {\n  return\n}\n")
    with pytest.raises(TranslateError, match="kernel @k takes arguments"):
        translate_to_cpp(module)


TTKERNEL_COMPUTE = """
func.func @compute() attributes {ttkernel.thread = #ttkernel.thread<compute>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %in0 = ttkernel.get_compile_time_arg_val(0) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, f32>>
  %in1 = ttkernel.get_compile_time_arg_val(1) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, f32>>
  %out = ttkernel.get_compile_time_arg_val(2) : () -> !ttkernel.cb<2, !ttcore.tile<32x32, f32>>
  %count = ttkernel.get_arg_val(%c0) : (index) -> i32
  %n = arith.index_cast %count : i32 to index
  ttkernel.init_sfpu(%in0, %out) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, !ttkernel.cb<2, !ttcore.tile<32x32, f32>>) -> ()
  scf.for %i = %c0 to %n step %c1 {
    ttkernel.cb_wait_front(%in0, %one) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, i32) -> ()
    ttkernel.cb_wait_front(%in1, %one) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, i32) -> ()
    ttkernel.cb_reserve_back(%out, %one) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, i32) -> ()
    ttkernel.tile_regs_acquire() : () -> ()
    ttkernel.copy_tile_init(%in0) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>) -> ()
    ttkernel.copy_tile(%in0, %c0, %c0) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, index, index) -> ()
    ttkernel.copy_tile_init(%in1) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>) -> ()
    ttkernel.copy_tile(%in1, %c0, %c1) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, index, index) -> ()
    ttkernel.OP_init() : () -> ()
    ttkernel.OP(%c0, %c1, %c0) : (index, index, index) -> ()
    ttkernel.tile_regs_commit() : () -> ()
    ttkernel.tile_regs_wait() : () -> ()
    ttkernel.pack_tile(%c0, %out, %c0, false) : (index, !ttkernel.cb<2, !ttcore.tile<32x32, f32>>, index) -> ()
    ttkernel.tile_regs_release() : () -> ()
    ttkernel.cb_push_back(%out, %one) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, i32) -> ()
    ttkernel.cb_pop_front(%in0, %one) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, i32) -> ()
    ttkernel.cb_pop_front(%in1, %one) : (!ttkernel.cb<2, !ttcore.tile<32x32, f32>>, i32) -> ()
  }
  return
}
"""


@pytest.mark.parametrize("op, reference", [("binary_max_tile", torch.maximum), ("div_binary_tile", torch.div)])
def test_ttkernel_ops_lowered_to_emitc_run_on_the_simulator(op, reference):
    from ttmlir.passes import make_pass

    module, _ = parse_text(make_context(), TTKERNEL_COMPUTE.replace("OP", op))
    make_pass("convert-ttkernel-to-emitc", "").apply(make_context(), module)
    torch.manual_seed(8)
    a, b = torch.randn(64, 64), torch.rand(64, 64) + 0.5
    out, _ = eltwise(Grid("blackhole"), a, b, translate_to_cpp(module), "f32", [(1, 1)], fp32_dest=True)
    assert torch.equal(out, reference(a, b))


# each tile a+b packed twice into the same output page: overwriting it, then (L1 accumulation on) added to it
L1_ACC_COMPUTE = TTKERNEL_COMPUTE.replace(
    "    ttkernel.pack_tile(%c0, %out, %c0, false) : (index, !ttkernel.cb<2, !ttcore.tile<32x32, f32>>, index) -> ()\n",
    "    %off = arith.constant 0 : i32\n"
    "    ttkernel.pack_reconfig_l1_acc(%off) : (i32) -> ()\n"
    "    ttkernel.pack_tile(%c0, %out, %c0, false) : (index, !ttkernel.cb<2, !ttcore.tile<32x32, f32>>, index) -> ()\n"
    "    ttkernel.pack_reconfig_l1_acc(%one) : (i32) -> ()\n"
    "    ttkernel.pack_tile(%c0, %out, %c0, false) : (index, !ttkernel.cb<2, !ttcore.tile<32x32, f32>>, index) -> ()\n"
    "    ttkernel.pack_reconfig_l1_acc(%off) : (i32) -> ()\n").replace("OP", "add_binary_tile")


def test_packer_l1_accumulation_adds_into_the_packed_page():
    from ttmlir.passes import make_pass

    module, _ = parse_text(make_context(), L1_ACC_COMPUTE)
    make_pass("convert-ttkernel-to-emitc", "").apply(make_context(), module)
    source = translate_to_cpp(module)
    assert "PACK((llk_pack_reconfig_l1_acc(" in source
    torch.manual_seed(9)
    a, b = torch.randn(64, 64), torch.randn(64, 64)
    out, _ = eltwise(Grid("wormhole_b0", exact=True), a, b, source, "f32", [(0, 0)], fp32_dest=True)
    assert torch.equal(out, (a + b) * 2)


@pytest.mark.parametrize("op, init, reference", [
    ("add_int_tile", "add_int_tile_init()", torch.add), ("sub_int_tile", "sub_int_tile_init()", torch.sub),
    ("mul_int_tile", "mul_int_tile_init(<si32>)", torch.mul),
    ("binary_max_int32_tile", "binary_max_int32_tile_init()", torch.maximum)])
def test_integer_tile_ops_run_on_the_simulator(op, init, reference):
    """si32 tiles through the SFPU's integer entry points (add/sub/mul told the format), lowered to emitc."""
    from ttmlir.passes import make_pass

    call = f"ttkernel.{op}(%c0, %c1, %c0{', <si32>' if op.endswith('int_tile') else ''})"
    text = TTKERNEL_COMPUTE.replace("f32>>", "si32>>").replace("ttkernel.OP_init()", f"ttkernel.{init}") \
        .replace("ttkernel.OP(%c0, %c1, %c0)", call)
    module, _ = parse_text(make_context(), text)
    make_pass("convert-ttkernel-to-emitc", "").apply(make_context(), module)
    source = translate_to_cpp(module)
    torch.manual_seed(4)
    a, b = torch.randint(-1000, 1000, (32, 64)).float(), torch.randint(-1000, 1000, (32, 64)).float()
    out, _ = eltwise(Grid("wormhole_b0", exact=True), a, b, source, "si32", [(0, 0)], fp32_dest=True)
    assert torch.equal(out, reference(a, b))


@pytest.mark.parametrize("call, param, reference", [
    ("add_unary_tile", 1075838976, lambda a: a + 2.5), ("div_unary_tile", 1082130432, lambda a: a / 4.0),
    ("power_tile", 2, lambda a: a ** 2)])
def test_scalar_tile_ops_run_on_the_simulator(call, param, reference):
    """A DST tile and a scalar parameter (a float's 32 bits, or power's integer exponent), in place."""
    from ttmlir.passes import make_pass

    init = "power_tile_init" if call == "power_tile" else "binop_with_scalar_tile_init"
    text = TTKERNEL_COMPUTE.replace("ttkernel.OP_init()", f"ttkernel.{init}()").replace(
        "ttkernel.OP(%c0, %c1, %c0) : (index, index, index)",
        f"%p = arith.constant {param} : i32\n    ttkernel.{call}(%c0, %p) : (index, i32)")
    module, _ = parse_text(make_context(), text)
    make_pass("convert-ttkernel-to-emitc", "").apply(make_context(), module)
    torch.manual_seed(6)
    a, b = torch.randn(32, 64), torch.randn(32, 64)
    out, _ = eltwise(Grid("wormhole_b0", exact=True), a, b, translate_to_cpp(module), "f32", [(0, 0)],
                     fp32_dest=True)
    assert torch.allclose(out, reference(a))


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_non_finite_constants_print_as_cmath_macros_and_run(value):
    """A float constant that is no number prints as <cmath>'s macro (`INFINITY`, `-INFINITY`, `NAN`, as MLIR's C++
    emitter writes it) and the simulator compiles the macro to the value."""
    from ttmlir.passes import make_pass

    literal = {float("inf"): "0x7F800000", float("-inf"): "0xFF800000"}.get(value, "0x7FC00000")
    text = TTKERNEL_COMPUTE.replace("ttkernel.OP_init()", "ttkernel.fill_tile_init()").replace(
        "ttkernel.OP(%c0, %c1, %c0) : (index, index, index)",
        f"%v = arith.constant {literal} : f32\n    ttkernel.fill_tile(%c0, %v) : (index, f32)")
    module, _ = parse_text(make_context(), text)
    make_pass("convert-ttkernel-to-emitc", "").apply(make_context(), module)
    source = translate_to_cpp(module)
    assert {float("inf"): " = INFINITY;", float("-inf"): " = -INFINITY;"}.get(value, " = NAN;") in source
    out, _ = eltwise(Grid("wormhole_b0", exact=True), torch.zeros(32, 64), torch.zeros(32, 64), source, "f32",
                     [(0, 0)], fp32_dest=True)
    assert torch.equal(out, torch.full((32, 64), value)) if value == value else bool(out.isnan().all())
