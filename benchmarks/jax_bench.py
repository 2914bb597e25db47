"""A JAX model with 50 MB of weights (dense<...> constants in its StableHLO) through the StableHLO and TTNN
pipelines to a `.ttnn` binary: wall and CPU seconds of each step (issue 33: "compiles in seconds").
Figures only; nothing is asserted."""

from __future__ import annotations

import resource
import time

import numpy as np


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(label: str, fn):
    wall, used = time.perf_counter(), cpu()
    value = fn()
    print(f"{label:<32} {time.perf_counter() - wall:7.2f} s wall {cpu() - used:7.2f} s cpu")
    return value


def main() -> None:
    from ttmlir.frontends import jax as tt_jax

    rng = np.random.default_rng(0)
    w1 = rng.standard_normal((2048, 4096)).astype(np.float32)  # 32 MB
    w2 = rng.standard_normal((4096, 1152)).astype(np.float32) * 0.01  # 18 MB
    x = rng.standard_normal((8, 2048)).astype(np.float32)

    def mlp(x):
        import jax
        return jax.nn.relu(x @ w1) @ w2

    text = timed("jax lowering (StableHLO text)", lambda: tt_jax.stablehlo_text(mlp, x))
    print(f"StableHLO text: {len(text) / 1e6:.0f} MB; weights {(w1.nbytes + w2.nbytes) / 1e6:.0f} MB")
    binary = timed("compile to .ttnn", lambda: tt_jax.compile_stablehlo(text))
    print(f".ttnn binary: {len(binary) / 1e6:.0f} MB")
    out = timed("run on the simulated device", lambda: tt_jax.run_binary(binary, [x])[0])
    want = mlp(x)
    print(f"max |difference| from JAX: {float(np.abs(out - want).max()):.3g}")


if __name__ == "__main__":
    main()
