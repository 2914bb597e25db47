"""`--ttnn-row-major-reshapes`: returned logits reshaped (32, N) -> (32, 1, N), and the argmax of them, read the
untilized (32, N) product reshaped as a view, not a (32, 1, N) tiled tensor padded to 32 times its tiles; the
values are torch's."""

import pytest
import torch

from ttmlir.compiler import lower
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.target.ttnn import translate


def _logits(rows: int, split: str) -> str:
    out = f"tensor<{split}x256xbf16>"
    shape = ", ".join(f"{d} : i32" for d in map(int, split.split("x")))
    return f"""
func.func @forward(%x: tensor<{rows}x64xbf16>, %w: tensor<64x256xbf16>) -> ({out}, tensor<{rows}xi32>) {{
  %0 = "ttir.matmul"(%x, %w) : (tensor<{rows}x64xbf16>, tensor<64x256xbf16>) -> tensor<{rows}x256xbf16>
  %1 = "ttir.reshape"(%0) <{{shape = [{shape}, 256 : i32]}}> : (tensor<{rows}x256xbf16>) -> {out}
  %2 = "ttir.argmax"(%0) <{{dim_arg = [1 : i32], keep_dim = false}}> : (tensor<{rows}x256xbf16>) -> tensor<{rows}xi32>
  return %1, %2 : {out}, tensor<{rows}xi32>
}}
"""


def _run(source: str, inputs: list[torch.Tensor]):
    module = lower(source, "<test>", "ttir-to-ttnn-backend-pipeline")
    binary = Binary(data=translate(module))
    outputs, ctx = run_program(binary, 0, inputs, MeshDevice())
    reshapes = [op for op, *_ in ctx.perf if op.name == "reshape"]
    return module, [o.data for o in outputs], reshapes


@pytest.mark.parametrize("rows, split", [(32, (32, 1)), (128, (32, 4))], ids=["decode", "four-rows"])
def test_a_reshape_padding_its_rows_out_runs_row_major_with_the_same_values(rows, split):
    """(32, N) -> (32, 1, N) pads to 32x the tiles, (128, N) -> (32, 4, N) to 8x."""
    g = torch.Generator().manual_seed(0)
    x, w = torch.randn(rows, 64, generator=g).to(torch.bfloat16), torch.randn(64, 256, generator=g).to(torch.bfloat16)
    _, (logits, tokens), reshapes = _run(_logits(rows, "x".join(map(str, split))), [x, w])
    (reshape,) = reshapes
    assert reshape.inputs[0].layout == "row_major" and reshape.outputs[0].layout == "row_major"
    torch.testing.assert_close(logits.float(), (x.float() @ w.float()).reshape(*split, 256), atol=0.1, rtol=0.02)
    assert torch.equal(tokens.long().reshape(-1), logits.float().reshape(rows, 256).argmax(-1))


@pytest.mark.parametrize("rows, split", [(64, (2, 32)), (544, (32, 17))], ids=["whole-tiles", "prefill"])
def test_a_reshape_padding_less_than_4x_stays_tiled(rows, split):
    """(64, N) -> (2, 32, N) fills whole tiles; a prefill's (544, N) -> (32, 17, N) pads 1.9x."""
    g = torch.Generator().manual_seed(0)
    x, w = torch.randn(rows, 64, generator=g).to(torch.bfloat16), torch.randn(64, 256, generator=g).to(torch.bfloat16)
    _, (logits, _), reshapes = _run(_logits(rows, "x".join(map(str, split))), [x, w])
    assert [r.inputs[0].layout for r in reshapes] == ["tile"]
    torch.testing.assert_close(logits.float(), (x.float() @ w.float()).reshape(*split, 256), atol=0.1, rtol=0.02)
