"""The module paths tt-buda's tests import besides the run API: pybuda.compile (pybuda_compile stage by stage),
pybuda.ttdevice.get_device_config, pybuda.op_repo, pybuda.op.eval.sparse_utils and pybuda._C.balancer/placer/
graph; each computes what its users read, and what has no counterpart is refused where it is used."""

import pytest
import torch

import pybuda
from pybuda import BackendDevice, CompileDepth, CompilerConfig, PyBudaError, Tensor, TTDevice, pybuda_compile
from pybuda.verify import VerifyConfig

pytestmark = pytest.mark.usefixtures("fresh_pybuda")


class TwoMatmuls(pybuda.PyBudaModule):
    def __init__(self, name):
        super().__init__(name)
        self.weights1 = pybuda.Parameter(32, 32, requires_grad=True)
        self.weights2 = pybuda.Parameter(32, 32, requires_grad=True)

    def forward(self, act1, act2):
        return pybuda.op.Add("add", pybuda.op.Matmul("mm1", act1, self.weights1),
                             pybuda.op.Matmul("mm2", act2, self.weights2))


def _compile(depth, tmp_path, verify_cfg=None):
    dev = TTDevice("tt0", arch=BackendDevice.Wormhole_B0)
    module = TwoMatmuls("two")
    dev.place_module(module)
    acts = [torch.rand(1, 32, 32), torch.rand(1, 32, 32)]
    cfg = CompilerConfig(enable_training=False, compile_depth=depth, backend_output_dir=str(tmp_path))
    ret = pybuda_compile(dev, "two", *[Tensor.create_from_torch(a) for a in acts], compiler_cfg=cfg,
                         verify_cfg=verify_cfg)
    expected = acts[0] @ module.get_parameter("weights1").value() + acts[1] @ module.get_parameter("weights2").value()
    return ret, expected


def test_pybuda_compile_stops_at_the_depth_asked(tmp_path):
    import pybuda.compile as compile_info

    ret, expected = _compile(CompileDepth.GENERATE_INITIAL_GRAPH, tmp_path)
    assert ret.stage == "ttir" and compile_info.LAST_SUCCESSFUL_STAGE == "ttir"
    assert ret.lowered_graph is None and ret.netlist_filename is None and ret.perf_model_results is None
    assert ret.initial_graph.op_types() == {"ttir.matmul": 2, "ttir.add": 1}
    assert ret.initial_graph.get_ordered_input_shapes()[0] == [1, 32, 32]
    assert [n.name for n in ret.initial_graph.get_parameter_nodes()] != []
    torch.testing.assert_close(ret.golden_outputs[0], expected)

    ret, _ = _compile(CompileDepth.BUDA_GRAPH_PRE_PLACER, tmp_path)
    assert ret.stage == "ttnn" and ret.netlist_filename is None
    assert all(op.startswith("ttnn.") for op in ret.lowered_graph.op_types())


def test_pybuda_compile_full_runs_on_the_device_and_writes_the_binary(tmp_path):
    ret, expected = _compile(CompileDepth.FULL, tmp_path, VerifyConfig(pcc=0.99))
    assert ret.stage == "run" and (tmp_path / "two.ttnn").stat().st_size > 0
    assert ret.perf_model_results["device_ns"] > 0
    assert torch.allclose(ret.outputs[0].value(), expected, rtol=0.05, atol=0.5)
    with pytest.raises(PyBudaError, match="placer_solution.*no such pass output"):
        ret.pass_specific_output_kwargs["placer_solution"]


def test_pybuda_compile_refuses_what_it_cannot_do(tmp_path):
    with pytest.raises(PyBudaError, match="enable_recompute"):
        pybuda_compile(TTDevice("tt0"), "g", torch.rand(1, 32), compiler_cfg=CompilerConfig(enable_recompute=True))
    dev = TTDevice("tt1")
    dev.place_module(TwoMatmuls("m"))
    with pytest.raises(PyBudaError, match="inference graphs"):
        pybuda_compile(dev, "g", torch.rand(1, 32, 32), torch.rand(1, 32, 32),
                       compiler_cfg=CompilerConfig(enable_training=True))


def test_pybuda_compile_module_is_also_the_one_call_compile():
    model = torch.nn.Linear(32, 16)
    x = torch.rand(2, 32)
    compiled = pybuda.compile(model, sample_inputs=[x])
    assert torch.allclose(compiled(x), model(x), atol=0.1)


def test_get_device_config_describes_the_simulated_chip():
    from pybuda.ttdevice import get_device_config
    from ttmlir.hardware import CHIPS

    for arch, chip in ((BackendDevice.Wormhole_B0, "wormhole_b0"), (BackendDevice.Blackhole, "blackhole")):
        cfg = get_device_config(arch, [], "", "", False, pybuda.BackendType.Golden)
        assert (cfg.grid_size.r, cfg.grid_size.c) == CHIPS[chip].grid
        assert cfg.l1_size == CHIPS[chip].l1_size and cfg.dram_num_channels == CHIPS[chip].num_dram_channels
        assert cfg.get_ethernet_connections() == {0: {}} and cfg.get_harvested_cfg() == {0: 0}
    for bad in ({"arch": BackendDevice.Grayskull}, {"harvesting_mask": 3}, {"chip_ids": [0, 1]},
                {"backend_cluster_descriptor_path": "cluster.yaml"}):
        with pytest.raises(PyBudaError, match="get_device_config"):
            get_device_config(**{"arch": BackendDevice.Wormhole_B0, **bad})


def test_op_repo_entries_name_ops_we_have():
    from pybuda.op_repo import OperatorDefinition, OperandNumRange, pybuda_operator_repository, pytorch_operator_repository
    from ttmlir.frontends.pytorch_ops import LOWERINGS

    for op in pybuda_operator_repository.operators:
        assert callable(op.resolve()), op.name
    for op in pytorch_operator_repository.operators:
        assert callable(op.resolve()), op.name
    assert pybuda_operator_repository.get_by_name("concatenate").input_num_range == OperandNumRange(1, 10)
    assert pytorch_operator_repository.get_by_name("linear").is_layer
    assert torch.ops.aten.relu.default in LOWERINGS or torch.ops.aten.relu in LOWERINGS
    with pytest.raises(KeyError, match="no operator 'nonesuch'"):
        pybuda_operator_repository.get_by_name("nonesuch")
    with pytest.raises(ValueError, match="input_num_range"):
        OperatorDefinition("bad", "pybuda.op.Add", "two")


def test_sparse_pickers_compute_a_convolution():
    from pybuda.op.eval.sparse_utils import (calculate_conv2d_output_dimensions,
                                             calculate_conv2d_transpose_output_dimensions,
                                             conv2d_padding_to_canonical, create_conv2d_sparse_picker_matrix)

    y, x, k, stride, dilation = 9, 7, 3, 2, 2
    padding = conv2d_padding_to_canonical(2, k)
    act, weight = torch.randn(1, 1, y, x), torch.randn(1, 1, k, k)
    expected = torch.nn.functional.conv2d(act, weight, stride=stride, padding=2, dilation=dilation)[0, 0]
    out = calculate_conv2d_output_dimensions(y, x, k, stride, padding, dilation)
    assert out == tuple(expected.shape)
    total = sum(create_conv2d_sparse_picker_matrix(y, x, (k - 1) // 2 - ky, (k - 1) // 2 - kx, k, k, stride, padding,
                                                   dilation).to_dense() @ act.reshape(-1) * weight[0, 0, ky, kx]
                for ky in range(k) for kx in range(k))
    torch.testing.assert_close(total.reshape(out), expected, rtol=1e-4, atol=1e-4)
    tiled = create_conv2d_sparse_picker_matrix(y, x, 0, 0, k, k, stride, padding, dilation, tile_align=True,
                                               sparse_r_pad=1)
    assert tiled.shape == (64, 64)
    assert conv2d_padding_to_canonical("same", 4) == [2, 1, 2, 1]
    transposed = torch.nn.ConvTranspose2d(1, 1, 3, stride=2, padding=1, output_padding=1)(torch.randn(1, 1, 5, 4))
    assert calculate_conv2d_transpose_output_dimensions(5, 4, 3, 2, 1, output_padding=1) == tuple(transposed.shape[2:])
    with pytest.raises(PyBudaError, match="padding"):
        calculate_conv2d_output_dimensions(y, x, k, 1, 1)


def test_balancer_placer_and_graph_names():
    from pybuda._C.balancer import BalancerConfig, OpOverride, OpShape, PolicyType
    from pybuda._C.graph import RuntimeTensorTransformType
    from pybuda._C.placer import DRAMPlacementAlgorithm
    from pybuda.config import _get_global_compiler_config

    with pytest.raises(PyBudaError, match="OpOverride.grid_shape is not supported"):
        OpOverride().grid_shape = (2, 2)
    assert OpShape([(32, 64)], (1, 1, 32, 32)).inputs[0].ct == 2
    pybuda.set_configuration_options(balancer_policy=PolicyType.CNN,
                                     dram_placement_algorithm=DRAMPlacementAlgorithm.ROUND_ROBIN)
    assert _get_global_compiler_config().balancer_policy == "CNN"
    with pytest.raises(PyBudaError, match="GREATEST_CAPACITY"):
        pybuda.set_configuration_options(dram_placement_algorithm=DRAMPlacementAlgorithm.GREATEST_CAPACITY)
    with pytest.raises(PyBudaError, match="Random"):
        BalancerConfig(None, None, PolicyType.Random)
    with pytest.raises(PyBudaError, match="enable_t_streaming"):
        BalancerConfig(None, None, enable_t_streaming=True)
    assert RuntimeTensorTransformType.NoTransform.name == "NoTransform"
