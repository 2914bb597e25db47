"""`--ttnn-create-d2m-subgraphs` and `--ttnn-collaspe-d2m`: which elementwise ops are outlined into a
`ttnn.d2m_subgraph`, the op's syntax and verifier, and that outlining then inlining again computes what the graph
computed before (both binaries run on the simulator)."""

import re

import pytest
import torch

from ttmlir.asm import print_module
from ttmlir.compiler import lower
from ttmlir.diagnostics import DiagnosticError, load_module, verify_module
from ttmlir.dialects import make_context
from ttmlir.passes import run_pass
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.target.ttnn import translate

# exp's result is read by the matmul too, so it stays outside; neg and abs read it and join at the add
MODEL = """
func.func @forward(%x: tensor<64x64xbf16>, %w: tensor<64x64xbf16>) -> (tensor<64x64xbf16>, tensor<64x64xbf16>) {
  %0 = "ttir.matmul"(%x, %w) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  %1 = "ttir.exp"(%0) : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
  %2 = "ttir.neg"(%1) : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
  %3 = "ttir.abs"(%1) : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
  %4 = "ttir.add"(%2, %3) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  %5 = "ttir.matmul"(%1, %w) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  %6 = "ttir.relu"(%5) : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %4, %6 : tensor<64x64xbf16>, tensor<64x64xbf16>
}
"""


def _lowered():
    """The TTNN graph as the pipeline has it where subgraphs are made: before deallocation (a value something frees
    is read outside any group, so it would stay out)."""
    module = lower(MODEL, "<test>", "ttir-to-ttnn-backend-pipeline", "enable-fusing-pass=false")
    for op in [op for op in module.walk() if op.name == "ttnn.deallocate"]:
        op.detach()
        op.erase()
    return module


def _ops(func_text: str) -> list[str]:
    return re.findall(r'"ttnn\.(\w+)"', func_text)


def test_groups_stop_at_escaping_values_and_single_ops():
    module = run_pass(_lowered(), "ttnn-create-d2m-subgraphs")
    text = print_module(module)
    assert text.count("ttnn.d2m_subgraph @") == 1  # relu alone is no group
    forward, outlined = text.split("func.func private @d2m_subgraph_0")
    assert _ops(outlined.split("func.func")[0]) == ["neg", "abs", "add"]
    assert '"ttnn.exp"' in forward and '"ttnn.relu"' in forward
    call = re.search(r"(%\d+) = ttnn.d2m_subgraph @d2m_subgraph_0\n\s*ins\((%\d+) : [^)]*\)\n\s*outs\((%\d+) :", text)
    assert call, text
    assert re.search(rf"{call.group(2)} = \"ttnn.exp\"", text)
    assert re.search(rf"{call.group(3)} = \"ttnn.empty\"", text)


def test_subgraph_round_trips_and_collapse_restores_the_graph():
    outlined = run_pass(_lowered(), "ttnn-create-d2m-subgraphs")
    text = print_module(outlined)
    reparsed, _ = load_module(make_context(), text, "<test>")
    assert print_module(reparsed) == text
    collapsed = run_pass(reparsed, "ttnn-collaspe-d2m")
    after = print_module(collapsed)
    assert "d2m_subgraph" not in after
    # the function's ops back in place, beside the buffer made for the subgraph and the device it is made on
    assert sorted(_ops(after)) == sorted(_ops(print_module(_lowered())) + ["get_device", "empty"])


def test_collapsed_graph_computes_what_the_original_did():
    g = torch.Generator().manual_seed(7)
    inputs = [(torch.randn(64, 64, generator=g) * 0.2).to(torch.bfloat16) for _ in range(2)]

    def run(module):
        binary = Binary(data=translate(module))
        index = next(i for i, p in enumerate(binary.programs) if p.name == "forward")
        return [o.data.float() for o in run_program(binary, index, inputs, MeshDevice())[0]]

    before = run(_lowered())
    after = run(run_pass(run_pass(_lowered(), "ttnn-create-d2m-subgraphs"), "ttnn-collaspe-d2m"))
    for a, b in zip(before, after):
        assert torch.equal(a, b)


BAD = """
#l1 = #ttnn.buffer_type<l1>
#layout = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #l1>, <interleaved>>
module {
  func.func @f(%a: tensor<32x32xf32, #layout>, %o: tensor<32x32xf32, #layout>) -> tensor<32x32xf32, #layout> {
    %0 = ttnn.d2m_subgraph @g
        ins(%a : tensor<32x32xf32, #layout>)
        outs(%o : tensor<32x32xf32, #layout>) : tensor<32x32xf32, #layout>
    return %0 : tensor<32x32xf32, #layout>
  }
  FUNC
}
"""


@pytest.mark.parametrize("func, message", [
    ("", "Could not find D2M function '@g' in parent module."),
    ("func.func private @g() -> tensor<32x32xf32, #layout>", "D2M function must have 1 arguments, got 0"),
    ("func.func private @g(%x: tensor<32x32xf32, #layout>)", "D2M function must have 1 return values, got 0"),
    ("func.func private @g(%x: tensor<32x32xbf16>) -> tensor<32x32xf32, #layout>",
     "D2M function argument type 0 mismatch"),
])
def test_verifier(func, message):
    body = f"{func} {{\n  }}" if func and "->" not in func else func
    if "->" in func:
        body = func + " {\n    %r = \"ttnn.empty\"() : () -> tensor<32x32xf32, #layout>\n    return %r : tensor<32x32xf32, #layout>\n  }"
    text = BAD.replace("FUNC", body)
    with pytest.raises(DiagnosticError, match=re.escape(f"'ttnn.d2m_subgraph' op {message}")):
        module, positions = load_module(make_context(), text, "<test>")
        verify_module(module, positions, "<test>", text)


CHAINS = """
func.func @forward(%x: tensor<64x128xbf16>, %w: tensor<128x64xbf16>, %y: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  %0 = "ttir.abs"(%x) : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
  %1 = "ttir.neg"(%0) : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
  %2 = "ttir.exp"(%1) : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
  %3 = "ttir.matmul"(%2, %w) : (tensor<64x128xbf16>, tensor<128x64xbf16>) -> tensor<64x64xbf16>
  %4 = "ttir.add"(%3, %y) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  %5 = "ttir.multiply"(%4, %y) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %5 : tensor<64x64xbf16>
}
"""


@pytest.mark.parametrize("fusion", ["true", "false"])
def test_pipeline_compiles_chains_through_d2m(fusion):
    """enable-create-d2m-subgraphs: each chain becomes the compiler's own kernels (one fused program per chain, or
    one per op), and the binary computes what the TTNN ops' binary does."""
    options = f"optimization-level=1 enable-create-d2m-subgraphs=true enable-d2m-elementwise-fusion={fusion}"
    module = lower(CHAINS, "<test>", "ttir-to-ttnn-backend-pipeline", options)
    text = print_module(module)
    assert "d2m_subgraph" not in text
    forward = text.split("func.func private")[0]
    assert _ops(forward).count("generic") == (2 if fusion == "true" else 5)
    assert not {"abs", "neg", "exp", "add", "multiply"} & set(_ops(forward))
    g = torch.Generator().manual_seed(3)
    inputs = [(torch.randn(s, generator=g) * 0.3).to(torch.bfloat16) for s in ((64, 128), (128, 64), (64, 64))]

    def run(module):
        binary = Binary(data=translate(module))
        index = next(i for i, p in enumerate(binary.programs) if p.name == "forward")
        return run_program(binary, index, inputs, MeshDevice())[0][0].data.float()

    reference = run(lower(CHAINS, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=1"))
    x, w, y = (t.float() for t in inputs)
    expected = ((torch.exp(-x.abs()) @ w) + y) * y
    got = run(module)
    assert torch.allclose(got, expected, rtol=0.05, atol=0.05)
    assert torch.allclose(got, reference, rtol=0.05, atol=0.05)


def test_fusion_without_subgraphs_is_refused():
    with pytest.raises(DiagnosticError, match="enable-d2m-elementwise-fusion=true requires enable-create-d2m-subgraphs"):
        lower(CHAINS, "<test>", "ttir-to-ttnn-backend-pipeline", "enable-d2m-elementwise-fusion=true")
