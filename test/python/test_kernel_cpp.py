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
    out, stats = eltwise(Grid("wormhole_b0"), a, b, compute_kernel(op), "f32", [(0, 0), (3, 5)], fp32_dest=True)
    assert torch.equal(out, reference(a, b))
    assert stats.tiles_computed == 6


def test_a_kernel_with_arguments_is_refused_naming_it():
    module, _ = parse_text(make_context(), "func.func @k(%a: i32) attributes {ttkernel.thread = "
                                           "#ttkernel.thread<noc>} {\n  return\n}\n")
    with pytest.raises(TranslateError, match="kernel @k takes arguments"):
        translate_to_cpp(module)
