"""The last tt-buda import paths: each computes what its users read (ConvTranspose2d on the device, Constant,
PyBudaOp, vslice/interleave_tiles, Buda TMs, query predicates, the override veto, tvm_to_python's generated
module, NLPPipelineWrapper, CPUCombiner, ci symlinks, ...), and each with no counterpart refuses with one line."""

import importlib
import os
import sys

import pytest
import torch

import pybuda
from pybuda import PyBudaError

pytestmark = pytest.mark.usefixtures("fresh_pybuda")


def test_pybuda_pybuda_is_the_package():
    from pybuda import pybuda as inner

    assert inner is pybuda and inner.op.Matmul is pybuda.op.Matmul


@pytest.mark.parametrize("padding", [1, [0, 1, 2, 0]])
def test_conv_transpose2d_module_runs_on_the_device(padding):
    from pybuda.op.nn import ConvTranspose2dModule

    mod = ConvTranspose2dModule("ct", 3, 4, (3, 3), stride=2, padding=padding)
    x = torch.randn(1, 3, 6, 6)
    left, right, top, bottom = [padding] * 4 if isinstance(padding, int) else padding
    full = torch.nn.functional.conv_transpose2d(x, mod.weights, mod.bias, stride=2)
    expected = full[..., top:full.shape[-2] - bottom, left:full.shape[-1] - right]
    got = mod.run(x)[0].value()
    assert got.shape == expected.shape
    assert torch.allclose(got, expected, atol=0.05)


def test_constant_and_pybuda_op():
    from pybuda.op.common import PyBudaOp

    assert torch.equal(pybuda.op.Constant("c", constant=2.5), torch.full((1, 1), 2.5))
    a, b = torch.randn(2, 3), torch.randn(3, 4)
    assert torch.allclose(PyBudaOp("matmul", "mm", a, b).get_tensor(), a @ b)
    wrapped = PyBudaOp("transpose", "t", pybuda.Tensor.create_from_torch(a), attrs=(0, 1)).get_tensor()
    assert isinstance(wrapped, pybuda.Tensor) and torch.equal(wrapped.value(), a.T)
    with pytest.raises(PyBudaError, match="op type 'fused_thing' is not supported"):
        PyBudaOp("fused_thing", "f", a)


def test_vslice_and_interleave_tiles():
    from pybuda.op.eval.sparse_utils import interleave_tiles, vslice

    dense = torch.arange(8 * 6, dtype=torch.float32).reshape(8, 6) % 5
    blocks = vslice(dense.to_sparse(), 4)
    assert [b.to_dense().tolist() for b in blocks] == [dense[2 * i:2 * i + 2].tolist() for i in range(4)]
    assert vslice(dense.to_sparse(), 2, pack=True).shape == (2, 4, 6)
    a, b = torch.eye(2, 64), 2 * torch.eye(2, 64)
    merged = interleave_tiles([a.to_sparse(), b.to_sparse()]).to_dense()
    # tiles alternate: a's columns 0..31, b's 0..31, a's 32..63, b's 32..63
    assert torch.equal(merged, torch.cat([a[:, :32], b[:, :32], a[:, 32:], b[:, 32:]], dim=1))


def test_buda_tms_round_trip():
    from pybuda.op.eval.buda.tm import eval as tm

    x = torch.randn(1, 2, 64, 96)
    assert tm("vslice", [4], [x]).shape == (1, 8, 16, 96)
    assert torch.equal(tm("vslice", [4], [x])[0, 1], x[0, 0, 16:32])
    assert torch.equal(tm("vstack", [4], [tm("vslice", [4], [x])]), x)
    assert torch.equal(tm("hstack", [3], [tm("hslice", [3], [x])]), x)
    assert torch.equal(tm("broadcast", [1, 3], [x[:, :1]]), x[:, :1].repeat(1, 3, 1, 1))


def test_query_selects_graph_nodes(tmp_path):
    from pybuda import query
    from pybuda._C.graph import Graph, Node, NodeType

    graph = Graph("g")
    for name, op in (("mm0", "ttir.matmul"), ("exp0", "ttir.exp"), ("mm1", "ttir.matmul"), ("mm10", "ttir.add")):
        graph._nodes.append(Node(len(graph._nodes), name, NodeType.Op, op, (32, 32)))
    assert query.name_regex(r"mm\d").select(graph) == ["mm0", "mm1"]
    assert (query.op_type("matmul") | query.op_type("exp")).select(graph) == ["mm0", "exp0", "mm1"]
    predicate = query.op_type("matmul") & query.name_regex("mm1").negate()
    assert query.NodePredicateBuilder.from_json(predicate.to_json()).select(graph) == ["mm0"]
    with pytest.raises(PyBudaError, match="no layer names"):
        query.layer_regex("encoder.*")


def test_override_veto_keeps_named_options_and_defaults_the_rest(monkeypatch):
    from pybuda.config import OVERRIDE_VETO, CompilerConfig, _set_pybuda_override_veto, vetoed

    monkeypatch.setenv(OVERRIDE_VETO, "")  # recorded first, so the veto set below is undone after the test
    monkeypatch.delenv(OVERRIDE_VETO)
    cfg = CompilerConfig(balancer_policy="Ribbon", enable_auto_fusing=False, backend_output_dir="mine")
    assert vetoed(cfg) is cfg
    _set_pybuda_override_veto({"backend_output_dir": "", "balancer_policy": "CNN"}, {"PYBUDA_X": ""})
    effective = vetoed(cfg)
    assert (effective.backend_output_dir, effective.balancer_policy, effective.enable_auto_fusing) == \
        ("mine", "CNN", True)
    with pytest.raises(PyBudaError, match="environment options"):
        _set_pybuda_override_veto({}, {"PYBUDA_DISABLE_STREAM_OUTPUT": "1"})


def test_tvm_to_python_writes_a_module_that_runs_on_the_device(tmp_path, monkeypatch):
    from pybuda.tvm_to_python import compile_tvm_to_python, generate_pybuda_module

    monkeypatch.chdir(tmp_path)
    model = torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.GELU(), torch.nn.Linear(32, 16))
    x = torch.randn(4, 32)
    writers, _ = compile_tvm_to_python(pybuda.PyTorchModule("mlp", model), "mlp_graph", (x,))
    sys.path.append(str(tmp_path))
    try:
        cls = getattr(importlib.import_module(writers[0].import_module_path()), writers[0].class_name)
        generated = cls("gen")
        generated.process_framework_parameters(model)
        with torch.no_grad():
            assert torch.allclose(generated(x), model(x))
        got = generated.run(x)[0].value()  # compiled through the importer, run on the simulator
        assert torch.allclose(got, model(x), atol=0.05)
        modules, devices, _ = generate_pybuda_module(pybuda.PyTorchModule("mlp", model), (x,), clean_later=True,
                                                     verify_cfg=pybuda.VerifyConfig())
        assert isinstance(modules[0], pybuda.PyBudaModule) and devices == ["TTDevice"]
        assert not os.path.exists(tmp_path / "generated_modules" / "mlp.py")
    finally:
        sys.path.remove(str(tmp_path))


def test_small_helpers_compute():
    from pybuda.tools.tti_data_parallel import split_tensor_batch
    from pybuda.utils import get_pybuda_parameters_from_state_dict
    from pybuda.verify.utils import CPUCombiner

    params = get_pybuda_parameters_from_state_dict(torch.nn.Linear(3, 2).state_dict())
    assert set(params) == {"weight", "bias"} and all(isinstance(p, pybuda.Parameter) for p in params.values())
    assert params["weight"].get_name() == "weight"
    a, b = torch.ones(2, 3), torch.ones(1, 2, 4)
    combined = CPUCombiner()(a, b)
    assert combined.shape == (1, 1, 2, 4) and combined[0, 0, 0].tolist() == [2, 2, 2, 1]
    x, y = torch.arange(8).reshape(4, 2), torch.arange(4)
    cards = split_tensor_batch([x, (y,)], 2)
    assert torch.equal(cards[1][0], x[2:]) and torch.equal(cards[1][1][0], y[2:])


def test_ci_symlink_under_a_user_lock(tmp_path):
    from pybuda import ci

    target = tmp_path / "file.txt"
    target.write_text("x")
    link = tmp_path / "sub" / "link.txt"
    ci.create_symlink(str(target), str(link))
    assert link.is_symlink() and link.read_text() == "x"
    ci.create_symlink(str(target), str(link))  # an existing link is replaced
    (tmp_path / "dir").mkdir()
    with pytest.raises(PyBudaError, match="is a directory"):
        ci.create_symlink(str(target), str(tmp_path / "dir"))


def test_nlp_pipeline_wrapper_generates_on_the_device():
    transformers = pytest.importorskip("transformers")
    from pybuda.transformers.pipeline import NLPPipelineWrapper
    from test_transformers_pipeline import gpt2, tokenizer

    model, tok = gpt2(), tokenizer()
    ids = tok("my name is thomas", return_tensors="pt")["input_ids"]
    expected = model.generate(ids, do_sample=False, max_length=7, pad_token_id=0)
    wrapper = NLPPipelineWrapper(model, tok, "gpt2", max_length=16)
    model.prepare_inputs_for_generation = wrapper.prepare_inputs_for_generation
    assert model.generate(ids, do_sample=False, max_length=7, pad_token_id=0).tolist() == expected.tolist()
    assert isinstance(model.forward, type(wrapper.device_forward)) and wrapper.device_forward.device.compiled
    assert transformers


def _call(path: str, *args, **kwargs):
    module, _, name = path.rpartition(":")
    return getattr(importlib.import_module(module), name)(*args, **kwargs)


# what has no counterpart here: (where, the name, the words the refusal must say)
REFUSED = [
    ("pybuda", "MXNetModule", "MXNet models are not supported"),
    ("pybuda._C", "run_pre_placer_buda_passes", "no Buda graph"),
    ("pybuda._C.backend_api", "get_output", "no netlist queues"),
    ("pybuda.tensor", "consteval_input", "no consteval trace"),
    ("pybuda.op.eval", "does_prestriding_improve_perf", "not prestrided"),
    ("pybuda.op.eval.sparse_utils", "can_conv2d_prestride", "not prestrided"),
    ("pybuda.op.eval.sparse_utils", "calculate_conv2d_prestride_weights_and_padding", "not prestrided"),
    ("pybuda.op.eval.buda.splice", "Splice", "not t-streamed"),
    ("pybuda.backend", "BackendAPI", "no netlists"),
    ("pybuda.tools.tti_merge", "merge_models", "one model's binaries"),
    ("pybuda.tools.tti_data_parallel", "initialize_multicard_runner", "one chip"),
    ("pybuda.tools.tti_data_parallel", "MultiCardRunner", "one chip"),
]


@pytest.mark.parametrize("module, name, words", REFUSED, ids=[f"{m}.{n}" for m, n, _ in REFUSED])
def test_no_counterpart_is_refused_when_used(module, name, words):
    with pytest.raises(PyBudaError, match=words):
        _call(f"{module}:{name}", "x", None, None, None, None)


def test_refusals_and_truthful_answers_elsewhere():
    from pybuda._C import NodeEpochType
    from pybuda._C.backend_api import detect_available_silicon_devices
    from pybuda.config import remove_cpu_fallback_ops
    from pybuda.op.eval.buda.splice import Splice

    with pytest.raises(PyBudaError, match="Splice.create_concatenate"):
        Splice.create_concatenate(1, [(1, 1, 32, 32)])
    assert detect_available_silicon_devices() == []  # the chips here are simulated, not on PCIe
    assert [e.name for e in NodeEpochType] == ["Forward", "Backward", "Optimizer"]
    remove_cpu_fallback_ops("embedding")
    with pytest.raises(PyBudaError, match="op types are names"):
        remove_cpu_fallback_ops([3])
