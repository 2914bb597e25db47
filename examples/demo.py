"""`make demo`: lower the example models from TTIR to TTNN with the backend pipeline and show the result."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

from ttmlir.asm import parse_text, print_module
from ttmlir.diagnostics import verify_module
from ttmlir.dialects import make_context
from ttmlir.passes import ttir_to_ttnn_backend_pipeline

EXAMPLES = Path(__file__).parent


def lower(path: Path) -> None:
    text = path.read_text()
    start = time.perf_counter()
    module, positions = parse_text(make_context(), text, str(path))
    verify_module(module, positions, str(path), text)
    ttir_ops = Counter(op.name for op in module.walk() if op.name.startswith("ttir."))
    ttir_to_ttnn_backend_pipeline(module)
    verify_module(module, {}, str(path), text)
    elapsed = time.perf_counter() - start
    out = print_module(module)
    ttnn_ops = Counter(op.name for op in module.walk() if op.name.startswith("ttnn."))
    print(f"=== {path.name}: TTIR -> TTNN (ttmlir-opt --ttir-to-ttnn-backend-pipeline) ===")
    print(out)
    print(f"  {sum(ttir_ops.values())} TTIR ops -> {sum(ttnn_ops.values())} TTNN ops in {elapsed * 1000:.0f} ms")
    print("  " + ", ".join(f"{name} x{n}" for name, n in sorted(ttnn_ops.items())) + "\n")


if __name__ == "__main__":
    for example in ("mlp.mlir", "attention.mlir"):
        lower(EXAMPLES / example)
