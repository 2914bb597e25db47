"""Seed 002's shardy sections as a user writes them: annotated graphs print as shardy prints them, the stablehlo
pipeline partitions them, a manual computation's goldens are its per-chip pieces put back together, and a
sharded module runs on a 1x2 mesh matching its goldens."""

from __future__ import annotations

import textwrap

import pytest
import torch
import _ttmlir_runtime as tt_runtime

from builder.base.builder_apis import *  # noqa: F401,F403 - stablehlo_pipeline too, as the seed calls it
from builder.stablehlo.stablehlo_builder import StableHLOBuilder

MESH_2X4 = OrderedDict([("x", 2), ("y", 4)])


def expect(printed, text: str) -> None:
    assert str(printed).strip() == textwrap.dedent(text).strip()


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def dims(builder, *axes):
    """One closed dimension sharding per entry: an axis name, or None for unsplit."""
    return [builder.dimension_sharding_attr(axes=[builder.axis_ref_attr(name=a)] if a else [], is_closed=True)
            for a in axes]


def test_shardy_annotated_op_and_argument():
    def module(builder: StableHLOBuilder):
        @builder.func([(2, 4, 8, 16), (2, 4, 8, 16)], [torch.float32, torch.float32])
        def op_sharding_annotation(in0: Operand, in1: Operand, builder: StableHLOBuilder):
            builder.set_graph_level_check(True)
            sharding = builder.tensor_sharding_attr(mesh_name="mesh", dimension_shardings=[
                builder.dimension_sharding_attr(axes=[builder.axis_ref_attr(name="x")], is_closed=True, priority=10),
                builder.dimension_sharding_attr(axes=[builder.axis_ref_attr(name="y")], is_closed=False),
                builder.dimension_sharding_attr(axes=[], is_closed=False),
                builder.dimension_sharding_attr(axes=[], is_closed=False)])
            builder.set_arg_attribute(in0, "sdy.sharding", sharding)
            return builder.add(in0, in1, sharding_attr=builder.tensor_sharding_per_value_attr([sharding]))

    built, builder = build_module(module, "stablehlo", mesh_dict=MESH_2X4)
    sharding = '#sdy.sharding<@mesh, [{"x"}p10, {"y", ?}, {?}, {?}]>'
    expect(built, f"""
        module {{
          sdy.mesh @mesh = <["x"=2, "y"=4]>
          func.func @op_sharding_annotation(%arg0: tensor<2x4x8x16xf32> {{sdy.sharding = {sharding}}}, %arg1: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {{
            %0 = stablehlo.add %arg0, %arg1 {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{{"x"}}p10, {{"y", ?}}, {{?}}, {{?}}]>]>}} : tensor<2x4x8x16xf32>
            return %0 : tensor<2x4x8x16xf32>
          }}
        }}""")  # noqa: E501
    assert builder.golden_maps()[1] == {}  # a graph-level check: inputs and outputs only
    stablehlo_pipeline(built)
    assert 'manual_axes={"x", "y"} (%arg2: tensor<1x1x8x16xf32>, %arg3: tensor<1x1x8x16xf32>)' in str(built)


def test_manual_computation_goldens_are_the_pieces_put_back():
    def module(builder: StableHLOBuilder):
        @builder.func([(1, 1, 32, 32), (1, 1, 32, 32)], [torch.float32, torch.float32])
        def my_modela(in0: Operand, in1: Operand, builder: StableHLOBuilder):
            def single_device_func(inner0: Operand, inner1: Operand, builder: StableHLOBuilder):
                add1 = builder.add(builder.add(inner0, inner1), inner1)
                return builder.cosine(add1), builder.sine(add1)

            sharding = builder.tensor_sharding_attr(mesh_name="mesh", dimension_shardings=dims(builder, None, None,
                                                                                              "x", "y"))
            return builder.manual_computation(single_device_func, [in0, in1], in_shardings=[sharding, sharding],
                                              out_shardings=[sharding, sharding], manual_axes=["x", "y"])

    built, builder = build_module(module, "stablehlo", mesh_dict=MESH_2X4)
    assert 'manual_axes={"x", "y"} (%arg2: tensor<1x1x16x8xf32>, %arg3: tensor<1x1x16x8xf32>)' in str(built)
    io, _ = builder.golden_maps()
    a, b = io[0]["input_0"][0], io[0]["input_1"][0]
    for device in range(8):
        torch.testing.assert_close(io[0]["output_0"][device], torch.cos(a + b + b))
        torch.testing.assert_close(io[0]["output_1"][device], torch.sin(a + b + b))
    stablehlo_pipeline(built)  # already partitioned by hand: kept as written
    assert "%0:2 = sdy.manual_computation(%arg0, %arg1)" in str(built)


def test_sdy_all_gather_prints_as_shardy_does():
    def module(builder: StableHLOBuilder):
        @builder.func([(1, 1, 32, 32), (1, 1, 32, 32)], [torch.float32, torch.float32])
        def my_modela(in0: Operand, in1: Operand, builder: StableHLOBuilder):
            split = builder.tensor_sharding_attr(mesh_name="mesh", dimension_shardings=dims(builder, None, None,
                                                                                           "x", "y"))
            whole = builder.tensor_sharding_attr(mesh_name="mesh", dimension_shardings=dims(builder, *[None] * 4))
            add0 = builder.add(in0, in1, sharding_attr=builder.tensor_sharding_per_value_attr([split]))
            axes = builder.list_of_axis_ref_lists_attr([
                builder.axes_ref_list_attr(axis_ref_list=[]), builder.axes_ref_list_attr(axis_ref_list=[]),
                builder.axes_ref_list_attr(axis_ref_list=[builder.axis_ref_attr(name="x")]),
                builder.axes_ref_list_attr(axis_ref_list=[builder.axis_ref_attr(name="y")])])
            return builder.sdy_all_gather(add0, axes, whole)

    built, builder = build_module(module, "stablehlo", mesh_dict=MESH_2X4)
    assert ('%1 = sdy.all_gather [{}, {}, {"x"}, {"y"}] %0 out_sharding=<@mesh, [{}, {}, {}, {}]> : '
            'tensor<1x1x32x32xf32>') in str(built)
    io, _ = builder.golden_maps()
    torch.testing.assert_close(io[0]["output_0"][0], io[0]["input_0"][0] + io[0]["input_1"][0])


def test_manual_computation_with_a_collective_runs_on_two_chips():
    """Each chip adds and takes the cosine of its half of the columns; the all_gather gives every chip the
    whole result, which the runtime checks against the goldens."""
    def module(builder: StableHLOBuilder):
        @builder.func([(1, 1, 32, 64), (1, 1, 32, 64)], [torch.float32, torch.float32])
        def my_modela(in0: Operand, in1: Operand, builder: StableHLOBuilder):
            def single_device_func(inner0: Operand, inner1: Operand, builder: StableHLOBuilder):
                return builder.all_gather(builder.cosine(builder.add(inner0, inner1)), 3, [[0, 1]])

            split = builder.tensor_sharding_attr(mesh_name="mesh", dimension_shardings=dims(builder, None, None,
                                                                                           "x", "y"))
            whole = builder.tensor_sharding_attr(mesh_name="mesh", dimension_shardings=dims(builder, *[None] * 4))
            return builder.manual_computation(single_device_func, [in0, in1], in_shardings=[split, split],
                                              out_shardings=[whole], manual_axes=["x", "y"])

    built, builder = build_module(module, "stablehlo", mesh_dict=OrderedDict([("x", 1), ("y", 2)]))
    assert ('"stablehlo.all_gather"(%2) <{all_gather_dim = 3 : i64, replica_groups = dense<[[0, 1]]> : '
            'tensor<1x2xi64>}> : (tensor<1x1x32x32xf32>) -> tensor<1x1x32x64xf32>') in str(built)
    tt_runtime.runtime.set_current_device_runtime(tt_runtime.runtime.DeviceRuntime.TTNN)
    compiled_bin, io, intermediates = compile_ttir_module_to_flatbuffer(built, builder)
    assert compiled_bin.mesh_shape() == (1, 2)
    report = execute_fb(compiled_bin, io, intermediates)
    assert report["program_index_0"]["output_0"]["allclose"]


def test_a_loaded_module_keeps_the_mesh_it_declares():
    """Seed 002's "load manual computation op graph": the file's `sdy.mesh` is the builder's mesh (one mesh op,
    under its own name and axes); a mesh_dict that says otherwise is refused."""
    text = '''module {
      sdy.mesh @chips = <["y"=2]>
      func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@chips, [{"y"}, {}]>}) -> tensor<8x4xf32> {
        %0 = stablehlo.exponential %arg0 : tensor<8x4xf32>
        return %0 : tensor<8x4xf32>
      }
    }'''
    module, builder = load_mlir_file(text, target="stablehlo")
    printed = str(module)
    assert printed.count("sdy.mesh") == 1 and 'sdy.mesh @chips = <["y"=2]>' in printed
    with pytest.raises(BuilderError, match="mesh @chips"):
        load_mlir_file(text, target="stablehlo", mesh_dict=MESH_2X4)
