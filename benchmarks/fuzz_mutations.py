"""Random mutations of a directory of .mlir files through a pass pipeline: every one must end in printed IR or a
located diagnostic, never an internal error, a MemoryError or a hang. Prints the outcome counts and each failure.

usage: python benchmarks/fuzz_mutations.py DIR [--count 1000] [--seed 0] [--pipeline ttir-to-ttnn-backend-pipeline]
                                              [--memory-mb 2048] [--timeout 30] [--save DIR]
DIR is e.g. upstream tt-mlir's test/ttmlir/Dialect. The address space is capped at --memory-mb, so a size read
from text that is allocated before it is checked shows up as a MemoryError here instead of swapping.
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import signal
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

from ttmlir_opt import SPLIT_MARKER, Options, process_chunk

NUMBER = re.compile(r"\d+")
TOKENS = ["%", "#", "<", ">", "(", ")", "{", "}", "[", "]", ",", ":", "=", "x", "0", "-1", '"', "loc(", "tensor<",
          "dense<", "array<i64:", "memref<", "!ttcore.tile<", "i64", "f32", "bf16", "@"]


def mutate(text: str, rng: random.Random) -> str:
    """One random edit; numbers are blown up often, as sizes read from text are what this hunts."""
    kind = rng.randrange(6)
    pos = rng.randrange(len(text))
    if kind == 0:
        return text[:pos] + text[pos + rng.randint(1, 20):]  # bytes dropped
    if kind == 1:
        return text[:pos] + rng.choice(TOKENS) + text[pos:]  # token inserted
    if kind == 2:
        return text[:pos] + chr(rng.randrange(32, 127)) + text[pos + 1:]  # byte flipped
    if kind == 3:
        other = rng.randrange(len(text))  # a span duplicated elsewhere
        return text[:pos] + text[other:other + rng.randint(1, 40)] + text[pos:]
    numbers = list(NUMBER.finditer(text))
    if not numbers:
        return text[:pos]
    number = rng.choice(numbers)
    digits = number.group() * rng.randint(2, 8) if kind == 4 else str(rng.choice([0, 2**31, 2**32, 2**40, 2**63,
                                                                                   2**64, 16777216, 10**30]))
    return text[:number.start()] + digits + text[number.end():]


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pipeline", default="ttir-to-ttnn-backend-pipeline")
    parser.add_argument("--memory-mb", type=int, default=2048)
    parser.add_argument("--timeout", type=int, default=30)
    parser.add_argument("--save", type=Path, help="write each failing input here, as mutation-N.mlir")
    args = parser.parse_args()

    limit = args.memory_mb << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGALRM, _alarm)
    chunks = [(path, chunk) for path in sorted(args.directory.rglob("*.mlir"))
              for chunk in SPLIT_MARKER.split(path.read_text(encoding="utf-8", errors="replace")) if chunk.strip()]
    rng = random.Random(args.seed)
    opts = Options(passes=[(args.pipeline, "")])
    outcomes, failures, start = Counter(), [], time.time()
    for i in range(args.count):
        path, chunk = rng.choice(chunks)
        mutated = mutate(chunk, rng)
        signal.alarm(args.timeout)
        try:
            printed, diagnostics = process_chunk(mutated, "fuzz.mlir", 0, opts)
            located = all(d.render().startswith("fuzz.mlir") and " error: " in d.render().splitlines()[0]
                          for d in diagnostics)
            outcomes["printed" if printed is not None else "diagnosed" if located else "unlocated"] += 1
            if not located:
                failures.append((i, path, mutated, f"unlocated diagnostic: {diagnostics[0].render()}"))
        except Hang:
            outcomes["hang"] += 1
            failures.append((i, path, mutated, f"no answer in {args.timeout} s"))
        except RecursionError:
            outcomes["too deep"] += 1  # the tools report this as 'input nests too deeply'
        except Exception as error:
            outcomes["internal error"] += 1
            failures.append((i, path, mutated, "".join(traceback.format_exception(error)[-3:])))
        finally:
            signal.alarm(0)
    for i, path, mutated, why in failures:
        print(f"--- mutation {i} of {path}:\n{why}", file=sys.stderr)
        if args.save is not None:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"mutation-{i}.mlir").write_text(mutated, encoding="utf-8")
    print(f"{args.count} mutations of {len(chunks)} pieces in {time.time() - start:.0f} s: "
          + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
