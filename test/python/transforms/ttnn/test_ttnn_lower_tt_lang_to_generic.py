"""`--ttnn-lower-tt-lang-to-generic`: a resolved tt_lang_op becomes the ttnn.generic its artifact describes (source
kernels, CBs, semaphores, scratch and global semaphores), which serializes and runs on the simulated grid with the
right answer; a malformed artifact is a located error."""

from __future__ import annotations

import json

import pytest
import torch

from ttmlir.asm import parse_text
from ttmlir.dialects import make_context
from ttmlir.dialects import ttnn_program as tp
from ttmlir.errors import PassFailure
from ttmlir.passes import make_pass
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.target.ttnn import translate

TYPE = ("tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, "
        "#ttnn.buffer_type<dram>>, <interleaved>>>")

READER = """void kernel_main() {
  uint32_t a = get_common_arg_val<uint32_t>(0);
  uint32_t b = get_common_arg_val<uint32_t>(1);
  uint32_t cb_a = get_compile_time_arg_val(0);
  uint32_t cb_b = get_compile_time_arg_val(1);
  cb_reserve_back(cb_a, 1);
  cb_reserve_back(cb_b, 1);
  noc_async_read(get_noc_addr_from_bank_id<true>(0, a), get_write_ptr(cb_a), get_tile_size(cb_a));
  noc_async_read(get_noc_addr_from_bank_id<true>(0, b), get_write_ptr(cb_b), get_tile_size(cb_b));
  noc_async_read_barrier();
  cb_push_back(cb_a, 1);
  cb_push_back(cb_b, 1);
}"""
COMPUTE = """namespace NAMESPACE {
void MAIN {
  binary_op_init_common(0, 1, 2);
  add_tiles_init(0, 1);
  cb_wait_front(0, 1);
  cb_wait_front(1, 1);
  cb_reserve_back(2, 1);
  tile_regs_acquire();
  add_tiles(0, 1, 0, 0, 0);
  tile_regs_commit();
  tile_regs_wait();
  pack_tile(0, 2);
  tile_regs_release();
  cb_push_back(2, 1);
  cb_pop_front(0, 1);
  cb_pop_front(1, 1);
}
}"""
WRITER = """void kernel_main() {
  uint32_t out = get_common_arg_val<uint32_t>(0);
  cb_wait_front(2, 1);
  noc_async_write(get_read_ptr(2), get_noc_addr_from_bank_id<true>(0, out), get_tile_size(2));
  noc_async_write_barrier();
  cb_pop_front(2, 1);
}"""


def artifact(**changes) -> dict:
    cb = lambda i: {"buffer_index": i, "data_format": "Float32", "page_size": 4096, "total_size": 4096}
    fields = {"format_version": 2, "kernels": [
        {"thread_type": "noc", "cpp_source": READER, "tensor_indices": [0, 1],
         "kernel_config": {"type": "ReaderKernelConfig"}},
        {"thread_type": "compute", "cpp_source": COMPUTE, "tensor_indices": [],
         "kernel_config": {"type": "ComputeKernelConfig", "math_fidelity": "HiFi4", "fp32_dest_acc_en": True}},
        {"thread_type": "noc", "cpp_source": WRITER, "tensor_indices": [2],
         "kernel_config": {"type": "WriterKernelConfig"}}],
        "core_range": {"start": [0, 0], "end": [0, 0]}, "cb_configs": [cb(0), cb(1), cb(2)],
        "num_pipe_sync_semaphores": 0, "num_pipe_global_semaphores": 0, "pipe_sram_scratch_bytes": 0}
    return {**fields, **changes}


def module(art: dict):
    text = json.dumps(json.dumps(art))  # the artifact as a quoted MLIR string
    source = f"""func.func @add(%a: {TYPE}, %b: {TYPE}, %out: {TYPE}) -> {TYPE} attributes {{tt.function_type = "forward_device"}} {{
  %0 = "ttnn.tt_lang_op"(%a, %b, %out) <{{kernel_id = "test.add::v1", version_tag = "1", arg_roles = "in,in,out",
      shard_spec = "", kernel_artifact = {text}}}> : ({TYPE}, {TYPE}, {TYPE}) -> {TYPE}
  return %0 : {TYPE}
}}"""
    return parse_text(make_context(), source)[0]


def lowered(art: dict):
    m = module(art)
    make_pass("ttcore-register-device").apply(make_context(), m)
    make_pass("ttnn-lower-tt-lang-to-generic").apply(make_context(), m)
    m.verify()
    return m


def test_the_generic_runs_the_artifacts_kernels():
    m = lowered(artifact())
    generic = next(op for op in m.walk() if op.name == "ttnn.generic")
    assert not [op for op in m.walk() if op.name == "ttnn.tt_lang_op"]
    ret = next(op for op in m.walk() if op.name == "func.return")
    assert ret.operands[0] is generic.operands[2]  # the result is the op's output operand
    reader, compute, writer = generic.properties["program"].get("kernels").data
    assert isinstance(reader, tp.SourceReadKernelAttr) and isinstance(compute, tp.SourceComputeKernelAttr)
    assert isinstance(writer, tp.SourceWriteKernelAttr) and compute.get("fp32_dest_acc_en") is True
    assert [a.data for a in reader.get("common_rt_args").data] == [0, 1]
    assert len(reader.get("ct_args").data) == 3 + 3 and len(compute.get("ct_args").data) == 3  # CBs (+ accessors)
    a, b = torch.randn(32, 32), torch.randn(32, 32)
    binary = Binary(data=translate(m))
    (out,), _ = run_program(binary, 0, [a, b, torch.zeros(32, 32)], MeshDevice(), exact=True)
    torch.testing.assert_close(out.data.float(), a + b)


def test_pipe_resources_become_scratch_semaphores_and_their_arguments():
    m = lowered(artifact(pipe_sram_scratch_bytes=100, num_pipe_global_semaphores=2, num_pipe_sync_semaphores=3))
    generic = next(op for op in m.walk() if op.name == "ttnn.generic")
    groups = generic.operand_groups()
    scratch = groups["inputs_and_outputs"][3]
    assert scratch.owner.name == "ttnn.empty" and scratch.type.get_shape() == (1, 32)  # 100 B -> 128 B of f32
    assert [v.owner.name for v in groups["additional_args"]] == ["ttnn.create_global_semaphore"] * 2
    program = generic.properties["program"]
    assert [s.get("id") for s in program.get("semaphores")] == [0, 1, 2]
    extra = program.get("kernels").data[2].get("common_rt_args").data
    assert [(a.name, a.data) for a in extra] == [("ttnn.kernel_arg_address_of_tensor", 2),
                                                 ("ttnn.kernel_arg_address_of_tensor", 3),
                                                 ("ttnn.kernel_arg_global_semaphore", 4),
                                                 ("ttnn.kernel_arg_global_semaphore", 5)]


@pytest.mark.parametrize("changes, message", [
    ({"format_version": 1}, "unsupported format_version"),
    ({"core_range": {"start": [1, 0], "end": [0, 0]}}, "`core_range` is empty"),
    ({"cb_configs": [{"buffer_index": 0, "data_format": "Float64", "page_size": 4, "total_size": 4}]},
     "unknown data_format Float64"),
    ({"kernels": [{"thread_type": "compute", "cpp_source": "", "kernel_config": {"type": "ReaderKernelConfig"}}]},
     'thread_type="compute" requires kernel_config.type="ComputeKernelConfig"'),
    ({"num_pipe_sync_semaphores": None}, "missing required integer key `num_pipe_sync_semaphores`"),
])
def test_a_malformed_artifact_is_an_error(changes, message):
    with pytest.raises(PassFailure, match=message):
        lowered(artifact(**changes))


def test_a_kernel_moves_its_global_semaphore():
    """The global semaphore is serialized among the generic's additional args; its kernel argument is its L1
    address on the program's cores, set to the semaphore's value before the run and read back after it."""
    from ttmlir.runtime.executor import GlobalSemaphore

    writer = WRITER.replace("cb_pop_front(2, 1);\n}", """cb_pop_front(2, 1);
  uint32_t sem = get_common_arg_val<uint32_t>(2);
  noc_semaphore_inc(get_noc_addr(my_x[0], my_y[0], sem), 3);
  noc_async_atomic_barrier();
}""")
    art = artifact(pipe_sram_scratch_bytes=128, num_pipe_global_semaphores=1)
    art["kernels"][2]["cpp_source"] = writer
    m = lowered(art)
    binary = Binary(data=translate(m))
    table = next(op.type for op in binary.programs[0].operations if type(op.type).__name__ == "GenericOpT")
    assert len(table.additionalArgs) == 1
    seen = []
    original = GlobalSemaphore.__setattr__

    def record(self, name, value):  # the semaphore's value as the run leaves it
        if name == "value":
            seen.append(value)
        original(self, name, value)

    GlobalSemaphore.__setattr__ = record
    try:
        a, b = torch.randn(32, 32), torch.randn(32, 32)
        (out,), _ = run_program(binary, 0, [a, b, torch.zeros(32, 32)], MeshDevice(), exact=True)
    finally:
        GlobalSemaphore.__setattr__ = original
    torch.testing.assert_close(out.data.float(), a + b)
    assert seen == [0, 3]  # created at 0, incremented by the writer


@pytest.mark.parametrize("flag", [0, 1])
def test_a_scalar_argument_reaches_the_kernel(flag):
    """A program's i32 argument is given to a ttnn.generic as an additional operand (a one-element u32 host tensor
    in the binary) and read by its writer as `#ttnn.kernel_arg_scalar`: here it says whether to write the sum."""
    from ttmlir.asm import print_module

    text = print_module(lowered(artifact()))
    text = text.replace(f"%arg2: {TYPE.split(', #')[0]}, #ttnn_layout>)", f"%arg2: {TYPE.split(', #')[0]}, #ttnn_layout>, %arg3: i32)")
    text = text.replace('"ttnn.generic"(%arg0, %arg1, %arg2)', '"ttnn.generic"(%arg0, %arg1, %arg2, %arg3)')
    text = text.replace("array<i32: 3, 0>", "array<i32: 3, 1>")
    text = text.replace("common_rt_args = [#ttnn.kernel_arg_address_of_tensor<2>]",
                        "common_rt_args = [#ttnn.kernel_arg_address_of_tensor<2>, #ttnn.kernel_arg_scalar<3>]")
    text = text.replace("noc_async_write(get_read_ptr(2)", "if (get_common_arg_val<uint32_t>(1) != 0) noc_async_write(get_read_ptr(2)")
    text = text.replace(" #ttnn_layout>) -> ()", " #ttnn_layout>, i32) -> ()")
    m = parse_text(make_context(), text)[0]
    m.verify()
    binary = Binary(data=translate(m))
    table = next(op.type for op in binary.programs[0].operations if type(op.type).__name__ == "GenericOpT")
    assert table.additionalArgs[0].tensor is not None and list(table.additionalArgs[0].tensor.desc.shape) == [1]
    a, b = torch.randn(32, 32), torch.randn(32, 32)
    (out,), _ = run_program(binary, 0, [a, b, torch.zeros(32, 32), torch.tensor([flag])], MeshDevice(), exact=True)
    torch.testing.assert_close(out.data.float(), a + b if flag else torch.zeros(32, 32))
