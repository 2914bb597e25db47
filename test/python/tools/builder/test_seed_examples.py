"""The builder examples of seed 002, run as written (with real paths), checking the IR they print and
what they compute."""

from __future__ import annotations

import bdb
import os
import re
import sys
import textwrap

import pytest

from ttmlir.passes import ttir_to_ttnn_backend_pipeline  # noqa: F401 - the seed's first import
from builder.ttir.ttir_builder import TTIRBuilder
from builder.stablehlo.stablehlo_builder import StableHLOBuilder
from builder.ttnn.ttnn_builder import TTNNBuilder
from builder.base.builder_apis import *  # noqa: F401,F403
from builder.base.builder_enums import *  # noqa: F401,F403

import torch
import _ttmlir_runtime as tt_runtime


def expect(printed, text: str) -> None:
    assert str(printed).strip() == textwrap.dedent(text).strip()


@pytest.fixture
def device():
    tt_runtime.runtime.set_current_device_runtime(tt_runtime.runtime.DeviceRuntime.TTNN)
    mesh_options = tt_runtime.runtime.MeshDeviceOptions()
    mesh_options.dispatch_core_type = tt_runtime.runtime.DispatchCoreType.ETH
    mesh_options.mesh_shape = (1, 1)
    device = tt_runtime.runtime.open_mesh_device(mesh_options)
    yield device
    tt_runtime.runtime.close_mesh_device(device)


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def sigmoid_module(builder: TTIRBuilder):
    @builder.func([(32, 32)], [torch.float32])
    def modela(in0: Operand, builder: TTIRBuilder):
        sigmoid0 = builder.sigmoid(in0)
        return sigmoid0


def two_sigmoid_functions(builder: TTIRBuilder):
    @builder.func([(32, 32)], [torch.float32])
    def modela(in0: Operand, builder: TTIRBuilder):
        sigmoid0 = builder.sigmoid(in0)
        return sigmoid0

    @builder.func([(32, 32)], [torch.float32])
    def modelb(in0: Operand, builder: TTIRBuilder):
        sigmoid0 = builder.sigmoid(in0)
        return sigmoid0


SIGMOID_FUNC = """
  func.func @{name}(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {{
    %0 = "ttir.sigmoid"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }}"""


def test_build_ttir_module_with_debug_info():
    new_module, builder = build_module(sigmoid_module, "ttir")
    asm = new_module.operation.get_asm(enable_debug_info=True)
    line = sigmoid_module.__code__.co_firstlineno
    assert re.search(r'%0 = "ttir.sigmoid"\(%arg0\) : \(tensor<32x32xf32>\) -> tensor<32x32xf32> loc\((#loc\d*)\)',
                     asm)
    assert f'= loc("{__file__}":{line}:0)' in asm  # the module function's definition
    assert f'= loc("{__file__}:{line + 3}")' in asm  # the builder.sigmoid call site


def test_override_location():
    def module0(builder: TTIRBuilder):
        @builder.func([(32, 32)], [torch.float32])
        def modela(in0: Operand, builder: TTIRBuilder):
            sigmoid0 = builder.sigmoid(in0, loc="tenstorrent://custom_location/sigmoid_op")
            return sigmoid0

    new_module, builder = build_module(module0, "ttir")
    asm = new_module.operation.get_asm(enable_debug_info=True)
    alias = re.search(r'"ttir.sigmoid".* loc\((#loc\d*)\)', asm).group(1)
    assert f'{alias} = loc("tenstorrent://custom_location/sigmoid_op")' in asm


def test_add_op_attributes():
    def module0(builder: TTIRBuilder):
        @builder.func([(32, 32)], [torch.float32])
        def modela(in0: Operand, builder: TTIRBuilder):
            sigmoid0 = builder.sigmoid(in0, unit_attrs=["ttir.should_hoist"])
            return sigmoid0

    new_module, builder = build_module(module0, "ttir")
    expect(new_module, """
        module {
          func.func @modela(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
            %0 = "ttir.sigmoid"(%arg0) {ttir.should_hoist} : (tensor<32x32xf32>) -> tensor<32x32xf32>
            return %0 : tensor<32x32xf32>
          }
        }""")


def test_multiple_returns():
    shapes = [(2, 16, 32, 32), (16,), (16,), (16,), (16,)]
    dtypes = [torch.float32, torch.float32, torch.float32, torch.float32, torch.float32]

    def module(builder: TTIRBuilder):
        @builder.func(shapes, dtypes)
        def batch_norm_training(in0: Operand, scale: Operand, offset: Operand, running_mean: Operand,
                                running_variance: Operand, builder, unit_attrs: Optional[List[str]] = None):
            result, batch_mean, batch_variance = builder.batch_norm_training(
                in0, scale, offset, running_mean, running_variance, epsilon=1e-5, dimension=1, momentum=0.1)
            return result, batch_mean, batch_variance

    new_module, builder = build_module(module, "ttir")
    expect(new_module, """
        module {
          func.func @batch_norm_training(%arg0: tensor<2x16x32x32xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16xf32>) -> (tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>) {
            %result, %batch_mean, %batch_variance = "ttir.batch_norm_training"(%arg0, %arg1, %arg2, %arg3, %arg4) <{dimension = 1 : i32, epsilon = 9.99999974E-6 : f32, momentum = 1.000000e-01 : f32}> : (tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>)
            return %result, %batch_mean, %batch_variance : tensor<2x16x32x32xf32>, tensor<16xf32>, tensor<16xf32>
          }
        }""")  # noqa: E501


def add_with_goldens(set_inputs, set_output=False):
    def module(builder: TTIRBuilder):
        @builder.func([(32, 32), (32, 32)], [torch.float32, torch.float32])
        def test_with_mixed_init(in0: Operand, in1: Operand, builder: TTIRBuilder,
                                 unit_attrs: Optional[List[str]] = None):
            builder.set_goldens(set_inputs(in0, in1))
            add_result = builder.add(in0, in1)
            if set_output:
                builder.set_operand_goldens({add_result: torch.full((32, 32), 7.0)})
            return add_result
    return module


def test_set_goldens_with_functions():
    module, builder = build_module(add_with_goldens(lambda a, b: {a: torch.zeros, b: torch.ones}), "ttir")
    io, _ = builder.golden_maps()
    assert torch.equal(io[0]["output_0"][0], torch.ones(32, 32))
    assert '"ttir.add"(%arg0, %arg1)' in str(module)


def test_set_goldens_with_tensors_and_custom_output_golden(device):
    x, y = torch.randn(32, 32), torch.randn(32, 32)
    module, builder = build_module(add_with_goldens(lambda a, b: {a: x, b: y}), "ttir")
    io, _ = builder.golden_maps()
    assert torch.equal(io[0]["input_0"][0], x) and torch.equal(io[0]["output_0"][0], x + y)
    module, builder = build_module(add_with_goldens(lambda a, b: {a: x, b: y}, set_output=True), "ttir")
    compiled_bin, io, intermediates = compile_ttir_module_to_flatbuffer(module, builder)
    with pytest.raises(TTBuilderGoldenException, match="output_0"):  # the device computes x + y, not 7
        execute_fb(compiled_bin, io, intermediates, device=device)


def test_mixed_precision_output_type():
    def module0(builder: TTIRBuilder):
        @builder.func([(32, 32)], [torch.float32])
        def modela(in0: Operand, builder: TTIRBuilder):
            sigmoid0 = builder.sigmoid(in0, output_type=torch.bfloat16)
            return sigmoid0

    new_module, builder = build_module(module0, "ttir")
    expect(new_module, """
        module {
          func.func @modela(%arg0: tensor<32x32xf32>) -> tensor<32x32xbf16> {
            %0 = "ttir.sigmoid"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xbf16>
            return %0 : tensor<32x32xbf16>
          }
        }""")
    assert builder.golden_maps()[0][0]["output_0"][0].dtype == torch.bfloat16


def test_build_ttnn_module_and_run_it():
    def module0(builder: TTNNBuilder):
        @builder.func([(32, 32), (32, 32)], [torch.float32, torch.float32])
        def modela(in0: Operand, in1: Operand, builder: TTNNBuilder):
            add0 = builder.add(in0, in1)
            return add0

    new_module, builder = build_module(module0, "ttnn")
    expect(new_module, """
        #dram = #ttnn.buffer_type<dram>
        #ttnn_layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
        module {
          func.func @modela(%arg0: tensor<32x32xf32, #ttnn_layout>, %arg1: tensor<32x32xf32, #ttnn_layout>) -> tensor<32x32xf32, #ttnn_layout> {
            %0 = "ttnn.add"(%arg0, %arg1) <{dtype = #ttcore.supportedDataTypes<f32>}> : (tensor<32x32xf32, #ttnn_layout>, tensor<32x32xf32, #ttnn_layout>) -> tensor<32x32xf32, #ttnn_layout>
            return %0 : tensor<32x32xf32, #ttnn_layout>
          }
        }""")  # noqa: E501
    report = compile_and_execute_ttnn(module0)
    assert report["program_index_0"]["output_0"]["actual_pcc"] >= 0.99


def test_build_multiple_functions():
    new_module, builder = build_module(two_sigmoid_functions, "ttir")
    expect(new_module, "module {" + SIGMOID_FUNC.format(name="modela") + SIGMOID_FUNC.format(name="modelb") + "\n}")


def nested(builder: TTIRBuilder):
    @builder.func([(32, 32)], [torch.float32])
    def my_modela(in0: Operand, builder: TTIRBuilder):
        def nested_func(in0: Operand, builder: TTIRBuilder):
            sigmoid0 = builder.sigmoid(in0)
            return sigmoid0

        sigmoid0 = builder.sigmoid(in0)
        nested_func0 = builder.call(nested_func, [sigmoid0])
        return nested_func0

    @builder.func([(32, 32)], [torch.float32])
    def my_modelb(in0: Operand, builder: TTIRBuilder):
        sigmoid0 = builder.sigmoid(in0)
        return sigmoid0


NESTED = """
  func.func @my_modela(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.sigmoid"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %1 = call @nested_func(%0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %1 : tensor<32x32xf32>
  }
  func.func private @nested_func(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.sigmoid"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }""" + SIGMOID_FUNC.format(name="my_modelb")


def test_build_nested_functions_and_run_them(device):
    new_module, builder = build_module(nested, "ttir")
    expect(new_module, "module {" + NESTED + "\n}")
    report = compile_and_execute_ttir(nested, device=device, enable_intermediate_verification=True)
    assert set(report) == {"program_index_0", "program_index_2"}  # the private callee runs only when called
    program_a = report["program_index_0"]
    assert len(program_a) == 3  # both sigmoids (one inside the call) and the output
    assert all(entry["actual_pcc"] >= 0.99 for entry in program_a.values())


def test_build_device_module_graph():
    def module0(builder: TTIRBuilder):
        @builder.device_module
        def my_device_module(builder: TTIRBuilder):
            nested(builder)

    new_module, builder = build_module(module0, "ttir")
    body = textwrap.indent(NESTED, "    ")
    expect(new_module, "module {\n  ttcore.device_module {\n    builtin.module {" + body + "\n    }\n  }\n}")


def test_compile_a_module_to_a_flatbuffer():
    builder, module_file_path, input_output_goldens, intermediate_goldens = compile_ttir_to_flatbuffer(
        two_sigmoid_functions)
    assert os.path.exists(module_file_path)
    assert os.fspath(module_file_path) == os.path.join("ttir-builder-artifacts", "ttnn", "two_sigmoid_functions.ttnn")
    assert set(input_output_goldens) == {0, 1}
    assert set(input_output_goldens[0]) == {"input_0", "output_0"}
    assert len(intermediate_goldens) == 2
    ttnn_text = open(os.path.join("ttir-builder-artifacts", "ttnn", "two_sigmoid_functions_ttnn.mlir")).read()
    assert '"ttnn.sigmoid"' in ttnn_text


def test_compile_a_module_to_ttmetal(device):
    builder, module_file_path, input_output_goldens, intermediate_goldens = compile_ttir_to_flatbuffer(
        two_sigmoid_functions, target="ttmetal")
    assert os.fspath(module_file_path) == os.path.join("ttir-builder-artifacts", "ttmetal", "two_sigmoid_functions.ttm")
    kernels = open(os.path.join("ttir-builder-artifacts", "ttmetal", "two_sigmoid_functions_ttmetal.mlir")).read()
    assert '"ttmetal.enqueue_program"' in kernels and 'emitc.call_opaque "sigmoid_tile"' in kernels
    report = execute_fb(module_file_path, input_output_goldens, intermediate_goldens, device=device)
    assert report["program_index_0"]["output_0"]["actual_pcc"] >= 0.99
    assert report["program_index_1"]["output_0"]["actual_pcc"] >= 0.99


def test_compile_and_execute_on_ttmetal_checks_the_kernels_against_the_goldens(device, monkeypatch):
    def exp_of_product(builder: TTIRBuilder):
        @builder.func([(64, 96), (64, 96)], [torch.float32, torch.float32])
        def model(in0: Operand, in1: Operand, builder: TTIRBuilder):
            return builder.exp(builder.multiply(in0, in1))

    report = compile_and_execute_ttir(exp_of_product, target="ttmetal")
    assert report["program_index_0"]["output_0"]["actual_pcc"] >= 0.999
    from ttmlir.runtime.metal import tile_math

    monkeypatch.setitem(tile_math.SFPU_UNARY, "exp", lambda x: torch.exp(-x))  # a wrong SFPU kernel
    with pytest.raises(TTBuilderGoldenException, match="output_0: PCC"):
        compile_and_execute_ttir(exp_of_product, target="ttmetal")


def test_compile_a_module_to_emitc(tmp_path, device):
    builder, path, io, _ = compile_ttir_to_flatbuffer(sigmoid_module, target="emitc", artifact_dir=str(tmp_path))
    assert path == str(tmp_path / "emitc" / "test_ttnn.mlir.cpp")  # where the seed reads it
    cpp = open(path).read()
    assert '#include "ttnn-precompiled.hpp"' in cpp and "ttnn::sigmoid(" in cpp and "int32_t main()" in cpp
    assert set(io[0]) == {"input_0", "output_0"}
    held = lambda: sum(block.allocated for block in device.chips[0].allocators["dram"].blocks)
    before = held()
    report = execute_cpp(path, io, pcc=0.98, device=device)  # the seed's "execute emitc"
    assert report["program_index_0"]["output_0"]["actual_pcc"] >= 0.98
    assert held() > before  # the generated code's tensors live on the caller's device, which stays open
    assert device.is_open


def test_execute_emitpy(tmp_path):
    builder, path, io, _ = compile_ttir_to_flatbuffer(sigmoid_module, target="emitpy", artifact_dir=str(tmp_path))
    assert path.endswith("_ttnn.mlir.py") and "ttnn.sigmoid(" in open(path).read()
    report = execute_py(path, io, pcc=0.98)
    assert report["program_index_0"]["output_0"]["actual_pcc"] >= 0.98
    io[0]["output_0"] = {k: -v for k, v in io[0]["output_0"].items()} if isinstance(io[0]["output_0"], dict) \
        else -io[0]["output_0"]
    with pytest.raises(TTBuilderGoldenException, match="output_0: PCC"):
        execute_py(path, io, pcc=0.98)
    report = compile_and_execute_ttir(sigmoid_module, target="emitpy", artifact_dir=str(tmp_path))
    assert report["program_index_0"]["output_0"]["actual_pcc"] >= 0.99


def stablehlo_add_module(builder: StableHLOBuilder):
    @builder.func([(32, 32), (32, 32)], [torch.float32, torch.float32])
    def modela(in0: Operand, in1: Operand, builder: StableHLOBuilder):
        add0 = builder.add(in0, in1)
        return add0


def test_build_stablehlo_module():
    new_module, builder = build_module(stablehlo_add_module, "stablehlo")
    assert textwrap.dedent("""\
          func.func @modela(%arg0: tensor<32x32xf32>, %arg1: tensor<32x32xf32>) -> tensor<32x32xf32> {
            %0 = stablehlo.add %arg0, %arg1 : tensor<32x32xf32>
            return %0 : tensor<32x32xf32>
          }""") in textwrap.dedent("\n".join(str(new_module).splitlines()[1:-1]))


def test_run_stablehlo_to_ttir_pipeline_on_a_built_module():
    from ttmlir.passes import stablehlo_to_ttir_pipeline

    new_module, builder = build_module(stablehlo_add_module, "stablehlo")
    stablehlo_to_ttir_pipeline(new_module)  # module is modified in-place!
    printed = str(new_module)
    assert "ttcore.device_module {" in printed
    assert '%0 = "ttir.add"(%arg0, %arg1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>' in printed
    assert "stablehlo." not in printed


def test_stablehlo_module_compiles_and_matches_its_goldens(device):
    def module(builder: StableHLOBuilder):
        @builder.func([(4, 8), (8, 16)], [torch.float32, torch.float32])
        def model(in0: Operand, in1: Operand, builder: StableHLOBuilder):
            product = builder.dot_general(in0, in1, contracting_dims=([1], [0]))
            wave = builder.transpose(builder.cosine(product), [1, 0])
            half = builder.broadcast_in_dim(builder.constant(torch.tensor(0.5)), [16, 4], [])
            return builder.select(builder.compare(wave, half, "GT"), wave, half)

    built, builder = build_module(module, "stablehlo")
    compiled_bin, io, intermediates = compile_ttir_module_to_flatbuffer(built, builder)
    report = execute_fb(compiled_bin, io, intermediates, device=device)
    assert report["program_index_0"]["output_0"]["actual_pcc"] >= 0.99
    # the golden is the op's own meaning: a wrong one is caught
    builder.set_goldens({}, {built.body.ops.last.body.block.last_op.operands[0]: torch.zeros(16, 4)})
    _, io, intermediates = compile_ttir_module_to_flatbuffer(built, builder)
    with pytest.raises(TTBuilderGoldenException):
        execute_fb(compiled_bin, io, intermediates, device=device)


def test_execute_flatbuffer_manually(device):
    module, builder = build_module(two_sigmoid_functions, "ttir")
    compiled_bin, input_output_goldens, intermediate_goldens = compile_ttir_module_to_flatbuffer(module, builder)
    report = execute_fb(compiled_bin, input_output_goldens, intermediate_goldens, device=device)
    assert report["program_index_0"]["output_0"]["actual_pcc"] >= 0.99
    assert report["program_index_1"]["output_0"]["actual_pcc"] >= 0.99


def test_bypass_op(device):
    def module0(builder: TTIRBuilder):
        @builder.func([(32, 32)], [torch.float32])
        def modela(in0: Operand, builder: TTIRBuilder):
            sigmoid0 = builder.sigmoid(in0)
            builder.bypass(sigmoid0)
            return builder.exp(sigmoid0)

    report = compile_and_execute_ttir(module0, device=device, enable_intermediate_verification=True)
    checked = report["program_index_0"]
    assert len(checked) == 2 and "output_0" in checked  # the exp and the output; the sigmoid is bypassed
    assert not any(key.endswith(f':{module0.__code__.co_firstlineno + 4}")') for key in checked)


MLIR_FILE = """
module {
  func.func @modela(%arg0: tensor<32x32xf32>, %arg1: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.add"(%arg0, %arg1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32> loc("add")
    %1 = "ttir.exp"(%0) : (tensor<32x32xf32>) -> tensor<32x32xf32> loc("exp")
    return %1 : tensor<32x32xf32>
  }
  func.func @modelb(%arg0: tensor<32x32xf32>, %arg1: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.multiply"(%arg0, %arg1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32> loc("mul")
    return %0 : tensor<32x32xf32>
  }
}
"""


def test_load_mlir_file_with_custom_inputs_and_execute(device):
    a, b = torch.randn(32, 32), torch.randn(32, 32)
    module, builder = load_mlir_file(MLIR_FILE, target="ttir", golden_inputs={"modela": [a, b], "modelb": [a, b]})
    assert '"ttir.exp"(%0)' in str(module)
    io, intermediates = builder.golden_maps()
    assert torch.allclose(io[0]["output_0"][0], torch.exp(a + b))
    assert torch.allclose(intermediates['loc("add")'][0], a + b)
    compiled_bin, input_output_goldens, intermediate_goldens = compile_ttir_module_to_flatbuffer(module, builder)
    report = execute_fb(compiled_bin, input_output_goldens, intermediate_goldens, device=device,
                        enable_intermediate_verification=True)
    assert set(report["program_index_0"]) == {'loc("add")', 'loc("exp")', "output_0"}


def test_load_split_and_execute_mlir_file(device):
    module, builder = load_mlir_file(MLIR_FILE, target="ttir")
    builder_module_list = split_mlir_file(module, builder)
    assert len(builder_module_list) == 3
    split_module, split_builder = builder_module_list[1]
    expect(split_module, """
        module {
          func.func @exp_module(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
            %0 = "ttir.exp"(%arg0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
            return %0 : tensor<32x32xf32>
          }
        }""")
    # the split op is fed its original input golden (the add's output)
    io, _ = split_builder.golden_maps()
    assert torch.equal(io[0]["input_0"][0], builder.golden_maps()[1]['loc("add")'][0])
    for split_module, split_builder in builder_module_list:
        compiled_bin, input_output_goldens, intermediate_goldens = compile_ttir_module_to_flatbuffer(
            split_module, split_builder)
        report = execute_fb(compiled_bin, input_output_goldens, intermediate_goldens, device=device)
        assert report["program_index_0"]["output_0"]["actual_pcc"] >= 0.99


def test_build_multi_device_all_gather():
    def module(builder: TTIRBuilder):
        @builder.func([(1, 1, 256, 512)], [torch.float32])
        def all_gather(in0: Operand, builder: TTIRBuilder):
            in_shard = builder.mesh_shard(in0, shard_direction=MeshShardDirection.FullToShard.value,
                                          shard_type=MeshShardType.Devices.value, shard_shape=(1, 1, 8, 4),
                                          shard_dims=(2, 3))
            all_gather0 = builder.all_gather(in_shard, all_gather_dim=3, cluster_axis=1)
            return builder.mesh_shard(all_gather0, shard_direction=MeshShardDirection.ShardToFull.value,
                                      shard_type=MeshShardType.Devices.value, shard_shape=(1, 1, 8, 1),
                                      shard_dims=(2, -1))

    module, builder = build_module(module, "ttir", mesh_dict=OrderedDict([("x", 8), ("y", 4)]))
    expect(module, """
        module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 8x4>]>} {
          func.func @all_gather(%arg0: tensor<1x1x256x512xf32>) -> tensor<1x1x256x512xf32> {
            %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 2, 3>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 8, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x256x512xf32>) -> tensor<1x1x32x128xf32>
            %1 = "ttir.all_gather"(%0) <{all_gather_dim = 3 : si32, cluster_axis = 1 : ui32}> : (tensor<1x1x32x128xf32>) -> tensor<1x1x32x512xf32>
            %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: 2, -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 1, 8, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x32x512xf32>) -> tensor<1x1x256x512xf32>
            return %2 : tensor<1x1x256x512xf32>
          }
        }""")  # noqa: E501
    io, _ = builder.golden_maps()
    assert all(torch.equal(io[0]["output_0"][d], io[0]["input_0"][0]) for d in range(32))  # gathered back whole
    tt_runtime.runtime.set_current_device_runtime(tt_runtime.runtime.DeviceRuntime.TTNN)
    compiled_bin, io, intermediates = compile_ttir_module_to_flatbuffer(module, builder)
    assert compiled_bin.mesh_shape() == (8, 4)
    report = execute_fb(compiled_bin, io, intermediates, enable_intermediate_verification=True)  # on 32 chips
    assert len(report["program_index_0"]) == 4  # three ops and the output, each matching on every chip
    assert all(metrics["allclose"] for metrics in report["program_index_0"].values())


def test_build_multi_device_presharded_args():
    def module(builder: TTIRBuilder):
        @builder.func([(1, 1, 256, 512)], [torch.float32])
        def model(in0: Operand, builder: TTIRBuilder):
            builder.preshard_arg(in0, shard_dims=(-1, 3))
            in_shard = builder.mesh_shard(in0, shard_direction=MeshShardDirection.FullToShard.value,
                                          shard_type=MeshShardType.Identity.value, shard_shape=(1, 1, 1, 2),
                                          shard_dims=(-1, 3))
            exp = builder.exp(in_shard)
            out_shard = builder.mesh_shard(exp, shard_direction=MeshShardDirection.ShardToFull.value,
                                           shard_type=MeshShardType.Devices.value, shard_shape=(1, 1, 1, 2),
                                           shard_dims=(-1, 3))
            return out_shard

    module, builder = build_module(module, "ttir", mesh_dict=OrderedDict([("x", 1), ("y", 2)]))
    expect(module, """
        module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
          func.func @model(%arg0: tensor<1x1x256x512xf32> {ttcore.runtime_tensor_sharding = #ttcore<runtime_tensor_sharding shard_status = <presharded>, local_shape = tensor<1x1x256x256xf32>>}) -> tensor<1x1x256x512xf32> {
            %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 3>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 1, 2>, shard_type = #ttcore.shard_type<identity>}> : (tensor<1x1x256x512xf32>) -> tensor<1x1x256x256xf32>
            %1 = "ttir.exp"(%0) : (tensor<1x1x256x256xf32>) -> tensor<1x1x256x256xf32>
            %2 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: -1, 3>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 1, 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<1x1x256x256xf32>) -> tensor<1x1x256x512xf32>
            return %2 : tensor<1x1x256x512xf32>
          }
        }""")  # noqa: E501
    io, _ = builder.golden_maps()
    shards = io[0]["input_0"]  # each device holds its half of the presharded input
    assert shards[0].shape == (1, 1, 256, 256)
    assert torch.allclose(io[0]["output_0"][0], torch.exp(torch.cat([shards[0], shards[1]], 3)))
    tt_runtime.runtime.set_current_device_runtime(tt_runtime.runtime.DeviceRuntime.TTNN)
    compiled_bin, io, intermediates = compile_ttir_module_to_flatbuffer(module, builder)
    assert compiled_bin.programs[0].inputs[0].desc.localShape.tolist() == [1, 1, 256, 256]
    report = execute_fb(compiled_bin, io, intermediates, enable_intermediate_verification=True)  # each chip its half
    # the exp, the gather and the output: the identity split moves nothing, so it is no op of the TTNN program
    assert report["program_index_0"]["output_0"]["allclose"] and len(report["program_index_0"]) == 3
    from ttrt.common.api import API  # ttrt feeds chip 0 the golden half, chip 1 random values: no golden check

    API.initialize_apis()
    code, results = API.Run(args={"binary": os.fspath(compiled_bin), "--disable-golden": True,
                                  "--save-artifacts": True})()
    assert code == 0 and results[0]["result"] == "pass"
    folder = os.path.join(results[0]["artifacts"], os.path.basename(compiled_bin), "program_0")
    given, out = torch.load(os.path.join(folder, "input_0.pt")), torch.load(os.path.join(folder, "output_0.pt"))
    torch.testing.assert_close(out, torch.exp(torch.cat(given, 3)))


def test_run_a_pass_on_a_built_module():
    new_module, builder = build_module(sigmoid_module, "ttir")
    ttir_to_ttnn_backend_pipeline(new_module)  # in place, as the seed says
    assert '"ttnn.sigmoid"' in str(new_module) and "ttcore.device_module" in str(new_module)


def seed_mesh_device():
    """The device the debug-dialect sections open: a (1, 2) mesh, on which the one-chip module runs replicated."""
    tt_runtime.runtime.set_current_device_runtime(tt_runtime.runtime.DeviceRuntime.TTNN)
    mesh_options = tt_runtime.runtime.MeshDeviceOptions()
    mesh_options.dispatch_core_type = tt_runtime.runtime.DispatchCoreType.ETH
    mesh_options.mesh_shape = (1, 2)
    return tt_runtime.runtime.open_mesh_device(mesh_options)


def test_debug_dialect_breakpoint(monkeypatch):
    stops = []

    def debugger(*args, **kwargs):  # stands for pdb: what the user sees at the prompt
        at = sys._getframe(1).f_locals
        program = at["ctx"].binary.programs[at["ctx"].program_index]
        stops.append((at["value"].clone(), at["ctx"].pool[program.inputs[0].globalId].data.clone()))

    monkeypatch.setattr(sys, "breakpointhook", debugger)

    def module0(builder: TTIRBuilder):

      @builder.func([(32, 32)], [torch.float32])
      def modela(in0: Operand, builder: TTIRBuilder):
          sigmoid0 = builder.sigmoid(in0)
          breakpoint0 = builder.breakpoint(sigmoid0)
          return breakpoint0

    device = seed_mesh_device()

    report = compile_and_execute_ttir(
        module0,
        device=device,
    )

    tt_runtime.runtime.close_mesh_device(device)
    assert len(stops) == 1
    value, program_input = stops[0]
    assert torch.allclose(value, torch.sigmoid(program_input), atol=1e-2)  # stopped after the sigmoid ran
    assert report["program_index_0"]["output_0"]["actual_pcc"] >= 0.99


def test_debug_dialect_breakpoint_quit_ends_the_run(monkeypatch):
    def quit_at_prompt(*args, **kwargs):
        raise bdb.BdbQuit

    monkeypatch.setattr(sys, "breakpointhook", quit_at_prompt)

    def module0(builder: TTIRBuilder):
        @builder.func([(32, 32)], [torch.float32])
        def modela(in0: Operand, builder: TTIRBuilder):
            return builder.sigmoid(builder.breakpoint(in0))

    with pytest.raises(TTBuilderRuntimeException, match="run stopped at 'debug.breakpoint'.*the debugger quit"):
        compile_and_execute_ttir(module0)


def test_debug_dialect_memory():
    def module0(builder: TTIRBuilder):

      @builder.func([(32, 32)], [torch.float32])
      def modela(in0: Operand, builder: TTIRBuilder):
          sigmoid0 = builder.sigmoid(in0)
          memory0 = builder.memory_snapshot(sigmoid0, "sigmoid_memory_snapshot.json")
          return memory0

    device = seed_mesh_device()

    compile_and_execute_ttir(
        module0,
        device=device,
    )

    tt_runtime.runtime.close_mesh_device(device)
    lines = open("sigmoid_memory_snapshot.json").read().splitlines()
    assert [line.split(" memory state: ")[0] for line in lines] == [
        "Device DRAM", "Device L1", "Device L1_SMALL", "Device TRACE"]
    # the input and the sigmoid's result, a 4 KiB f32 tile each, in the same range of all 12 DRAM banks
    assert lines[0].endswith("MemoryView{numBanks: 12, totalBytesPerBank: 1023.999 MB, totalBytesAllocatedPerBank: "
                             "0.008 MB, totalBytesFreePerBank: 1023.991 MB, largestContiguousBytesFreePerBank: "
                             "1023.991 MB}")
    assert "numBanks: 64, totalBytesPerBank: 1.397 MB, totalBytesAllocatedPerBank: 0.000 MB" in lines[1]


@pytest.mark.parametrize("kind", ["ttir", "ttnn"])
def test_debug_ops_print_dump_annotate_and_regions(kind, capfd):
    """upstream's debug-op builder examples: values pass through, the message is logged, the tensor saved."""
    builder_type = TTIRBuilder if kind == "ttir" else TTNNBuilder

    def module0(builder: builder_type):
        @builder.func([(32, 32), (32, 32)], [torch.float32, torch.float32])
        def modela(in0: Operand, in1: Operand, builder: builder_type):
            builder.set_goldens({in0: torch.full((32, 32), 1.5), in1: torch.full((32, 32), 0.25)})
            add0 = builder.annotate(builder.add(in0, in1), "This is from KV cache")
            builder.print(add0, "execution has reached here")
            builder.dump(add0, "add0_dump.tensorbin")
            start = builder.region_start(add0, "embedding_region")
            return builder.region_end(builder.sigmoid(start), "embedding_region")

    run = compile_and_execute_ttir if kind == "ttir" else compile_and_execute_ttnn
    report = run(module0, enable_intermediate_verification=True)
    assert all(m["actual_pcc"] >= 0.99 for m in report["program_index_0"].values())
    assert "RuntimeTTNN | INFO | execution has reached here" in capfd.readouterr().err
    saved = torch.load("add0_dump.tensorbin")
    assert saved["shape"] == [32, 32] and saved["dtype"] == "f32" and saved["layout"] == "tile"
    assert torch.equal(saved["values"][0], torch.full((32, 32), 1.75))
