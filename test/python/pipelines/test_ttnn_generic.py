"""D2M programs inside a TTNN graph (`ttnn-mode=true`): each becomes a ttnn.generic on the TTNN tensors, the
.ttnn carries its kernels' C++, and the TTNN runtime runs them on the simulated grid, writing the tensors in
place, with the right answer."""

import pytest
import torch
from xdsl.utils.exceptions import VerifyException

from ttmlir.asm import parse_text, print_module
from ttmlir.dialects import make_context
from ttmlir.passes import PassFailure, make_pass
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.target import binary_generated as fb
from ttmlir.target.ttnn import translate

from test_d2m import device, eltwise_generic, matmul_generic

DRAM = ("#ttcore.metal_layout<logical_shape = {r}x{c}, dim_alignments = 32x32, collapsed_intervals = "
        "dense<[[0, -1]]> : tensor<1x2xi64>, dram, interleaved>")
L1 = DRAM.replace("dram, interleaved", "l1, sharded")


def metal(rows: int, cols: int, memory: str) -> str:
    return (f"tensor<1x1x{rows // 32}x{cols // 32}x!ttcore.tile<32x32, f32>, "
            f"{(DRAM if memory == 'dram' else L1).format(r=rows, c=cols)}>")


def ttnn(rows: int, cols: int, memory: str, core: tuple[int, int] = (0, 0)) -> str:
    sharding = "<interleaved>" if memory == "dram" else \
        f"<block_sharded>, core_ranges = <[#ttnn.core_range<({core[1]},{core[0]}), ({core[1]},{core[0]})>]>"
    return (f"tensor<{rows}x{cols}xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<{rows // 32}x"
            f"{cols // 32}x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<{memory}>>, {sharding}>>")


def cast(name: str, source: str, rows: int, cols: int, memory: str, origin=(0, 0), core=(0, 0)) -> str:
    mapping = "" if origin == (0, 0) else (
        f" {{virtual_grid_forward_mapping = affine_map<(d0, d1, d2, d3) -> (d0 + {origin[0]}, d1 + {origin[1]}, d2, "
        f"d3)>, virtual_grid_inverse_mapping = affine_map<(d0, d1) -> (0, d0 - {origin[0]}, d1 - {origin[1]})>}}")
    return (f"    %{name} = ttir.ttnn_metal_layout_cast %{source}{mapping} : {ttnn(rows, cols, memory, core)} -> "
            f"{metal(rows, cols, memory)}\n")


def spatial_program(origin: tuple[int, int], result_memory: str) -> str:
    """exp(x) on core (0, 0) into DRAM beside a @ b on the core at `origin` into `result_memory`, one d2m.spatial
    over TTNN tensors (inputs in DRAM)."""
    oy, ox = origin
    core = origin if result_memory == "l1" else (0, 0)
    generics = {"exp": eltwise_generic("tile_exp", "dx", "ox", 64, 64),
                "mm": matmul_generic("da", "db", "oc", 64, 96, 32)}
    for rows, cols, memory in ((64, 64, "dram"), (64, 96, "dram"), (96, 32, "dram"), (64, 32, result_memory)):
        generics = {k: g.replace(device(rows, cols), metal(rows, cols, memory)) for k, g in generics.items()}
    tx, tc = metal(64, 64, "dram"), metal(64, 32, result_memory)
    return f"""#id = affine_map<(d0, d1) -> (d0, d1)>
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#res = affine_map<(d0, d1, d2) -> (d0, d1)>
#parallel = #ttcore.iterator_type<parallel>
#reduction = #ttcore.iterator_type<reduction>
module {{
  func.func @spatial(%x: {ttnn(64, 64, "dram")}, %a: {ttnn(64, 96, "dram")}, %b: {ttnn(96, 32, "dram")}) -> ({ttnn(64, 64, "dram")}, {ttnn(64, 32, result_memory, core)}) {{
    %e0 = d2m.empty() : {ttnn(64, 64, "dram")}
    %e1 = d2m.empty() : {ttnn(64, 32, result_memory, core)}
{cast("dx", "x", 64, 64, "dram")}{cast("da", "a", 64, 96, "dram", origin)}{cast("db", "b", 96, 32, "dram", origin)}{cast("ox", "e0", 64, 64, "dram")}{cast("oc", "e1", 64, 32, result_memory, origin, core)}    %r:2 = d2m.spatial {{grid_ranges = [#ttcore.core_range<(0, 0), (0, 0)>, #ttcore.core_range<({oy}, {ox}), ({oy}, {ox})>]}}
        ins(%dx, %da, %db : {tx}, {metal(64, 96, "dram")}, {metal(96, 32, "dram")}) outs(%ox, %oc : {tx}, {tc}) {{
{generics["exp"]}      d2m.spatial_yield %g0 : ({tx})
    }}, {{
{generics["mm"]}      d2m.spatial_yield %g1 : ({tc})
    }} : {tx}, {tc}
    %y = ttir.ttnn_metal_layout_cast %r#0 : {tx} -> {ttnn(64, 64, "dram")}
    %z = ttir.ttnn_metal_layout_cast %r#1 : {tc} -> {ttnn(64, 32, result_memory, core)}
    return %y, %z : {ttnn(64, 64, "dram")}, {ttnn(64, 32, result_memory, core)}
  }}
}}
"""


def compile_ttnn_mode(text: str) -> bytes:
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    make_pass("ttir-to-ttmetal-pipeline", "ttnn-mode=true").apply(ctx, module)
    return translate(module)


@pytest.mark.parametrize("origin, result_memory", [((1, 2), "dram"), ((2, 3), "l1")])
def test_a_spatial_program_in_a_ttnn_graph_runs_as_a_generic_op(origin, result_memory):
    generator = torch.Generator().manual_seed(3)
    x, a, b = (torch.randn(*s, generator=generator) for s in ((64, 64), (64, 96), (96, 32)))
    binary = Binary(data=compile_ttnn_mode(spatial_program(origin, result_memory)))
    (y, z), _ = run_program(binary, 0, [x, a, b], MeshDevice(), exact=True)
    assert torch.allclose(y.data.float(), torch.exp(x), rtol=1e-3, atol=1e-3)
    assert torch.allclose(z.data.float(), a @ b, rtol=1e-4, atol=1e-4)
    (generic,) = [op.type for op in binary.programs[0].operations if isinstance(op.type, fb.GenericOpT)]
    kernels = generic.program.kernels
    assert len(kernels) == 6 and all("void kernel_main()" in k.source for k in kernels)
    starts = [(r.startCoord.y, r.startCoord.x) for k in kernels for r in k.coreRanges.coreRanges]
    assert starts == [(0, 0)] * 3 + [origin] * 3  # each region's kernels on its own core
    tensor_cbs = [cb.buffer.tensorOperandIndex for cb in generic.program.cbs if cb.buffer is not None]
    assert tensor_cbs == ([] if result_memory == "dram" else [4])  # an L1 result is its own CB


def test_a_cast_between_memories_is_refused():
    text = spatial_program((1, 2), "dram").replace(ttnn(64, 64, "dram"), ttnn(64, 64, "l1"))
    with pytest.raises(PassFailure, match="the TTNN tensor is in L1, its metal layout in DRAM"):
        compile_ttnn_mode(text)


def test_a_wrong_kernel_fails_the_check():
    """The check above can fail: the same program with exp's tile op swapped for log gives other values."""
    generator = torch.Generator().manual_seed(3)
    x, a, b = (torch.randn(*s, generator=generator).abs() + 0.5 for s in ((64, 64), (64, 96), (96, 32)))
    binary = Binary(data=compile_ttnn_mode(spatial_program((1, 2), "dram").replace("d2m.tile_exp", "d2m.tile_log")))
    (y, _), _ = run_program(binary, 0, [x, a, b], MeshDevice())
    assert torch.allclose(y.data.float(), torch.log(x), rtol=1e-3, atol=1e-3)
    assert not torch.allclose(y.data.float(), torch.exp(x), rtol=1e-2, atol=1e-2)


def test_a_generic_op_binding_an_address_past_its_tensors_is_refused():
    ctx = make_context()
    module, _ = parse_text(ctx, spatial_program((1, 2), "dram"))
    make_pass("ttir-to-ttmetal-pipeline", "ttnn-mode=true").apply(ctx, module)
    printed = print_module(module).replace("#ttnn.kernel_arg_address_of_tensor<4>", "#ttnn.kernel_arg_address_of_tensor<9>", 1)
    tampered, _ = parse_text(make_context(), printed)
    with pytest.raises(VerifyException, match="'ttnn.generic' op Address of tensor at index is out of bounds"):
        tampered.verify()


HOISTED = """module {{
  func.func @f(%x: {dram}) -> {dram} {{
    %0 = "ttnn.to_memory_config"(%x) : ({dram}) -> {l1}
    %1 = "ttnn.abs"(%0) {{ttnn.hoist_generic_via_d2m}} : ({l1}) -> {l1}
    %2 = "ttnn.neg"(%1) {{ttnn.hoist_generic_via_d2m}} : ({l1}) -> {l1}
    %3 = "ttnn.exp"(%2) : ({l1}) -> {l1}
    %4 = "ttnn.to_memory_config"(%3) : ({l1}) -> {dram}
    return %4 : {dram}
  }}
}}
"""


@pytest.mark.parametrize("fuse", [True, False])
def test_ttnn_ops_marked_for_d2m_run_as_generic_ops_between_ttnn_ops(fuse):
    text = HOISTED.format(dram=ttnn(64, 96, "dram"), l1=ttnn(64, 96, "l1", (0, 0)).replace(
        "memref<2x3x", "memref<1x1x").replace("<1x1>", "<2x3>").replace(
        "core_ranges = <[#ttnn.core_range<(0,0), (0,0)>]>", "core_ranges = <[#ttnn.core_range<(0,0), (2,1)>]>"))
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    make_pass("convert-ttnn-to-ttir", "").apply(ctx, module)
    make_pass("ttir-to-ttmetal-pipeline", f"ttnn-mode=true enable-elementwise-fusion={str(fuse).lower()}").apply(
        ctx, module)
    binary = Binary(data=translate(module))
    names = [type(op.type).__name__ for op in binary.programs[0].operations]
    assert names.count("GenericOpT") == (1 if fuse else 2) and "EltwiseUnaryOpT" in names  # exp stays TTNN's
    x = torch.randn(64, 96, generator=torch.Generator().manual_seed(4))
    (y,), _ = run_program(binary, 0, [x], MeshDevice())
    assert torch.allclose(y.data.float(), torch.exp(-x.abs()), rtol=1e-3, atol=1e-3)


def per_core_program(rt_args: str) -> str:
    """|x| of a one-tile tensor sharded on core (0, 0): the reader and the writer take the tensors' addresses and the
    page size from their per-core runtime arguments, the compute kernel packs with `pack_tile<true>`."""
    l1 = ttnn(32, 32, "l1")
    cb = ("<total_size = 4096, core_ranges = #cores, formats = [<buffer_index = {i}, dtype = f32, "
          "page_size = 4096>]>")
    dm = "ttkernel.thread = #ttkernel.thread<noc>"
    move = """%one = "emitc.constant"() <{{value = 1 : i32}}> : () -> i32
    %a = "emitc.constant"() <{{value = 0 : i32}}> : () -> i32
    %p = "emitc.constant"() <{{value = 1 : i32}}> : () -> i32
    %addr = emitc.call_opaque "get_arg_val"(%a) {{template_args = [#emitc.opaque<"uint32_t">]}} : (i32) -> i32
    %page = emitc.call_opaque "get_arg_val"(%p) {{template_args = [#emitc.opaque<"uint32_t">]}} : (i32) -> i32
    %cb = emitc.literal "get_compile_time_arg_val(0)" {{ttkernel.cb_ctarg_idx = 0 : i32}} : !emitc.opaque<"::tt::CB">
    emitc.verbatim "CircularBuffer cb({{}});" args %cb : !emitc.opaque<"::tt::CB">
    %x = emitc.literal "my_x[noc_index]" : !emitc.size_t
    %y = emitc.literal "my_y[noc_index]" : !emitc.size_t
    emitc.verbatim "cb.{wait}({{}});" args %one : i32
    %ptr = emitc.call_opaque "{ptr}"(%cb) : (!emitc.opaque<"::tt::CB">) -> i32
    %noc = emitc.call_opaque "get_noc_addr"(%x, %y, %addr) : (!emitc.size_t, !emitc.size_t, i32) -> i64
    emitc.call_opaque "{call}"({args}, %page) : (i64, i32, i32) -> ()
    emitc.call_opaque "{barrier}"() : () -> ()
    emitc.verbatim "cb.{done}({{}});" args %one : i32
    return"""
    read = move.format(wait="reserve_back", ptr="get_write_ptr", call="noc_async_read", args="%noc, %ptr",
                       barrier="noc_async_read_barrier", done="push_back").replace("(i64, i32, i32)", "(i64, i32, i32)")
    write = move.format(wait="wait_front", ptr="get_read_ptr", call="noc_async_write", args="%ptr, %noc",
                        barrier="noc_async_write_barrier", done="pop_front").replace("(i64, i32, i32)",
                                                                                     "(i32, i64, i32)")
    return f"""#core = #ttnn.core_coord<0, 0>
#cores = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (0,0)>]>
#reader = #ttnn.read_kernel<symbol_ref = @reader, core_ranges = #cores, ct_args = [#ttnn.kernel_arg_cb_buffer_index<0>], common_rt_args = [], rt_args = [{rt_args.format(0)}]>
#compute = #ttnn.compute_kernel<symbol_ref = @compute, core_ranges = #cores, math_fidelity = hifi4, fp32_dest_acc_en = true, dst_full_sync_en = false, unpack_to_dest_modes = [default], bfp8_pack_precise = false, math_approx_mode = false, ct_args = [#ttnn.kernel_arg_cb_buffer_index<0>, #ttnn.kernel_arg_cb_buffer_index<1>], common_rt_args = [], rt_args = []>
#writer = #ttnn.write_kernel<symbol_ref = @writer, core_ranges = #cores, ct_args = [#ttnn.kernel_arg_cb_buffer_index<1>], common_rt_args = [], rt_args = [{rt_args.format(1)}]>
module {{
  func.func @main(%in: {l1}) -> {l1} {{
    %d = "ttnn.get_device"() <{{mesh_shape = #ttnn<mesh_shape 1x1>}}> : () -> !ttnn.device
    %out = "ttnn.empty"(%d) <{{layout = #ttnn.layout<tile>, shape = #ttnn.shape<32x32>}}> : (!ttnn.device) -> {l1}
    "ttnn.generic"(%in, %out) <{{program = #ttnn.program<kernels = [#reader, #compute, #writer], cbs = [{cb.format(i=0)}, {cb.format(i=1)}], semaphores = []>, operandSegmentSizes = array<i32: 2, 0>}}> : ({l1}, {l1}) -> ()
    return %out : {l1}
  }}
  func.func private @reader() attributes {{{dm}}} {{
    {read}
  }}
  func.func private @writer() attributes {{{dm}}} {{
    {write}
  }}
  func.func private @compute() attributes {{ttkernel.thread = #ttkernel.thread<compute>}} {{
    %one = "emitc.constant"() <{{value = 1 : i32}}> : () -> i32
    %z = "emitc.constant"() <{{value = 0 : index}}> : () -> !emitc.size_t
    %in = emitc.literal "get_compile_time_arg_val(0)" : !emitc.opaque<"::tt::CB">
    %out = emitc.literal "get_compile_time_arg_val(1)" : !emitc.opaque<"::tt::CB">
    emitc.verbatim "CircularBuffer cb_in({{}});" args %in : !emitc.opaque<"::tt::CB">
    emitc.verbatim "CircularBuffer cb_out({{}});" args %out : !emitc.opaque<"::tt::CB">
    emitc.verbatim "cb_out.reserve_back({{}});" args %one : i32
    emitc.verbatim "cb_in.wait_front({{}});" args %one : i32
    emitc.call_opaque "init_sfpu"(%in, %out) : (!emitc.opaque<"::tt::CB">, !emitc.opaque<"::tt::CB">) -> ()
    emitc.call_opaque "tile_regs_acquire"() : () -> ()
    emitc.call_opaque "copy_tile_init"(%in) : (!emitc.opaque<"::tt::CB">) -> ()
    emitc.call_opaque "copy_tile"(%in, %z, %z) : (!emitc.opaque<"::tt::CB">, !emitc.size_t, !emitc.size_t) -> ()
    emitc.call_opaque "abs_tile_init"() : () -> ()
    emitc.call_opaque "abs_tile"(%z) : (!emitc.size_t) -> ()
    emitc.call_opaque "tile_regs_commit"() : () -> ()
    emitc.call_opaque "tile_regs_wait"() : () -> ()
    emitc.call_opaque "pack_tile"(%z, %out, %z) {{template_args = [true]}} : (!emitc.size_t, !emitc.opaque<"::tt::CB">, !emitc.size_t) -> ()
    emitc.call_opaque "tile_regs_release"() : () -> ()
    emitc.verbatim "cb_out.push_back({{}});" args %one : i32
    emitc.verbatim "cb_in.pop_front({{}});" args %one : i32
    return
  }}
}}
"""


PER_CORE = ("#ttnn.core_runtime_args<core_coord = #core, args = [#ttnn.kernel_arg_address_of_tensor<{0}>, "
            "#ttnn.kernel_named_arg<name = \"page_size\", value = 4096>]>")


def test_per_core_runtime_args_reach_the_kernels():
    ctx = make_context()
    module, _ = parse_text(ctx, per_core_program(PER_CORE))
    make_pass("ttcore-register-device").apply(ctx, module)
    assert "rt_args = [<core_coord = <0, 0>, args = [#ttnn.kernel_arg_address_of_tensor<1>" in print_module(module)
    x = torch.randn(32, 32, generator=torch.Generator().manual_seed(4))
    (y, *_), _ = run_program(Binary(data=translate(module)), 0, [x], MeshDevice())
    assert torch.equal(y.data.float(), x.abs())


def test_a_kernel_given_two_argument_lists_for_one_core_is_refused():
    from xdsl.utils.exceptions import ParseError

    with pytest.raises(ParseError, match=r"Duplicate CoreCoord \(0, 0\) in runtime arguments"):
        parse_text(make_context(), per_core_program(PER_CORE + ", " + PER_CORE))
