"""`make demo`: compile the example models from TTIR to `.ttnn` and run them on the simulated n150, then one
model through both backends (TTNN and TTMetal).

For each model: lower TTIR to TTNN (the backend pipeline), serialize it with golden tensors computed
in torch for every op (keyed by the op's location), show the binary's op counts (`ttrt read`), then
`ttrt run` it with golden checks and memory tracking and `ttrt perf` it with the perf model. Last, the
elementwise `swish_gate` model is compiled to a `.ttnn` and to a `.ttm` (TTMetal: its own kernels, run from
their C++ on the simulated Tensix grid), and both results are checked against the torch golden.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

import torch

from ttmlir.compiler import lower_to_ttnn
from ttmlir.target.ttnn import translate
from ttrt.common.api import API
from ttrt.common.util import Artifacts, Logger

EXAMPLES = Path(__file__).parent
OUT = EXAMPLES.parent / "build" / "demo"


def mlp_goldens(x, w1, b1, w2, b2) -> dict:
    # The pipeline fuses each matmul with its bias add into one ttnn.linear at the add's location.
    fc1_bias = x @ w1 + b1
    relu = torch.relu(fc1_bias)
    fc2_bias = relu @ w2 + b2
    return {"fc1_bias": fc1_bias, "relu": relu, "fc2_bias": fc2_bias, "softmax": torch.softmax(fc2_bias, 1)}


def attention_goldens(x, wq, wk, wv, scale) -> dict:
    bf16 = lambda t: t.to(torch.bfloat16).float()  # noqa: E731  (each op's output is stored as bf16)
    q, k, v = bf16(x @ wq), bf16(x @ wk), bf16(x @ wv)
    kt = k.transpose(-2, -1)
    scores = bf16(q @ kt)
    scaled = bf16(scores * scale)
    probs = bf16(torch.softmax(scaled, -1))
    return {"q_proj": q, "k_proj": k, "v_proj": v, "k_transpose": kt, "scores": scores, "scale": scaled,
            "softmax": probs, "context": bf16(probs @ v)}


MODELS = {
    "mlp": (mlp_goldens, [(32, 784), (784, 256), (1, 256), (256, 10), (1, 10)], torch.float32),
    "attention": (attention_goldens, [(1, 128, 64), (64, 64), (64, 64), (64, 64), (1, 1, 1)], torch.bfloat16),
}


def banner(text: str) -> None:
    print(f"\n{'=' * 100}\n{text}\n{'=' * 100}")


def compile_model(name: str) -> Path:
    source = (EXAMPLES / f"{name}.mlir").read_text()
    golden_fn, shapes, dtype = MODELS[name]
    generator = torch.Generator().manual_seed(0)
    inputs = [torch.randn(s, generator=generator).to(dtype).float() * (0.125 if name == "attention" else 1)
              for s in shapes]
    goldens = {f"input_{i}": t.numpy() for i, t in enumerate(inputs)}
    goldens.update({f'loc("{name}.{op}")': t.numpy() for op, t in golden_fn(*inputs).items()})

    start = time.perf_counter()
    module = lower_to_ttnn(source, str(EXAMPLES / f"{name}.mlir"))
    binary = translate(module, stages={"ttir": source}, goldens={name: goldens})
    elapsed = time.perf_counter() - start
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.ttnn"
    path.write_bytes(binary)

    banner(f"{name}.mlir: TTIR -> TTNN (ttmlir-opt --ttir-to-ttnn-backend-pipeline)")
    ttnn_ops = Counter(op.name for op in module.walk() if op.name.startswith("ttnn."))
    print(f"{sum(ttnn_ops.values())} TTNN ops: " + ", ".join(f"{n} x{c}" for n, c in sorted(ttnn_ops.items())))
    print(f"compiled and serialized in {elapsed * 1000:.0f} ms -> {path} ({len(binary):,} bytes)")
    return path


def ttrt(command: str, args: dict, log: Path) -> tuple[int, list]:
    logger = Logger(str(log))
    artifacts = Artifacts(logger, artifacts_folder_path=str(OUT / "ttrt-artifacts"))
    cls = API.registered_apis[command]
    return cls(args={**args, "--result-file": str(OUT / f"{command}_results.json")}, logger=logger,
               artifacts=artifacts)()


def both_backends() -> int:
    """swish_gate through TTNN and TTMetal, each result against the torch golden; returns the failures."""
    from ttmlir.compiler import lower_to_ttmetal
    from ttmlir.runtime.golden import compare
    from ttmlir.runtime.metal.program import run_program
    from ttmlir.target.ttmetal import translate as translate_metal

    source_path = EXAMPLES / "swish_gate.mlir"
    source = source_path.read_text()
    generator = torch.Generator().manual_seed(0)
    x, y = (torch.randn(128, 256, generator=generator) for _ in range(2))
    golden = x * torch.sigmoid(x) * y
    banner("swish_gate.mlir through both backends")
    start = time.perf_counter()
    ttnn_path = OUT / "swish_gate.ttnn"
    ttnn_path.write_bytes(translate(lower_to_ttnn(source, str(source_path)), stages={"ttir": source},
                                    goldens={"swish_gate": {"input_0": x.numpy(), "input_1": y.numpy()}}))
    code, _ = ttrt("run", {"binary": str(ttnn_path), "--save-artifacts": True}, OUT / "run.log")
    ttnn_out = torch.load(OUT / "ttrt-artifacts" / ttnn_path.name / "program_0" / "output_0.pt")
    print(f"TTNN:    {ttnn_path.name} compiled and run in {(time.perf_counter() - start) * 1000:.0f} ms; "
          f"output PCC {compare(golden, ttnn_out)['actual_pcc']:.6f}")
    start = time.perf_counter()
    module = lower_to_ttmetal(source, str(source_path))
    metal_path = OUT / "swish_gate.ttm"
    metal_path.write_bytes(translate_metal(module))
    (metal_out,), launches = run_program(metal_path.read_bytes(), [x, y], name=metal_path.name)
    kernels = sum(1 for op in module.walk() if "ttkernel.thread" in getattr(op, "attributes", {}))
    result = compare(golden, metal_out)
    print(f"TTMetal: {metal_path.name} compiled and run in {(time.perf_counter() - start) * 1000:.0f} ms; {len(launches)} "
          f"programs of {kernels // len(launches)} kernels on {launches[0].cores} cores, "
          f"{sum(s.cycles for s in launches):,} modelled cycles; output PCC {result['actual_pcc']:.6f}")
    print(f"         (its kernels' C++: ttrt read {metal_path} --section kernels)")
    return code + (result["actual_pcc"] < 0.99)


def main() -> int:
    API.initialize_apis()
    failures = 0
    for name in MODELS:
        path = compile_model(name)
        banner(f"ttrt read --section op_stats {path.name}")
        code, _ = ttrt("read", {"binary": str(path), "--section": "op_stats"}, OUT / "read.log")
        failures += code
        banner(f"ttrt run --memory --save-artifacts {path.name}   (simulated n150, golden check per op)")
        code, results = ttrt("run", {"binary": str(path), "--memory": True, "--save-artifacts": True},
                             OUT / "run.log")
        failures += code
        report = OUT / "ttrt-artifacts" / path.name / "golden_results.json"
        if report.exists():
            for loc, entry in json.loads(report.read_text()).items():
                status = "ok  " if entry["actual_pcc"] >= entry["expected_pcc"] else "FAIL"
                print(f"  {status} {loc:36} PCC {entry['actual_pcc']:.6f}  max |diff| {entry['max']:.3g}")
        banner(f"ttrt perf {path.name}   (perf model: ops_perf_results.csv)")
        code, _ = ttrt("perf", {"binary": str(path)}, OUT / "perf.log")
        failures += code
    failures += both_backends()
    print("\ndemo " + ("passed" if not failures else "FAILED") + f"; binaries and reports are in {OUT}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
