"""`ttmlir-golden`: the TTIR-level golden check of a `.mlir` file, e.g. one of upstream's model graphs.

Every TTIR op gets a golden from the op's own semantics (random inputs from --seed), the module is compiled
to TTNN and run on the simulated device, and every output and every op's value is compared with its
golden. The first op whose value misses the PCC threshold is named by its source location: that is where
a wrong answer starts.
"""

from __future__ import annotations

import argparse
import json
import sys


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ttmlir-golden", description=__doc__.split("\n\n")[0].strip("`"))
    parser.add_argument("files", nargs="+", metavar="FILE.mlir", help="TTIR modules to check")
    parser.add_argument("--pcc", type=float, default=0.99, help="PCC every output must reach (default: 0.99)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default: 0)")
    parser.add_argument("--ops", action="store_true", help="print every op's PCC, not only the first divergence")
    parser.add_argument("--report", metavar="FILE", help="write the whole comparison as JSON")
    return parser


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.6f}"


def check(path: str, args: argparse.Namespace) -> tuple[bool, list[dict]]:
    from builder.base.builder_apis import check_mlir_file

    with open(path, encoding="utf-8") as f:
        text = f.read()
    programs = check_mlir_file(text, pcc=args.pcc, seed=args.seed, filename=path)
    records = []
    for program in programs:
        worst = min((m.get("actual_pcc", 0.0) for m in program.outputs.values()), default=None)
        verdict = "PASS" if program.passed else "FAIL"
        print(f"{path} @{program.name}: {len(program.ops)} ops, {len(program.outputs)} outputs, worst output PCC "
              f"{_number(worst)}: {verdict}")
        for name, metrics in program.outputs.items():
            if "error" in metrics:
                print(f"  {name}: {metrics['error']}")
        divergence = program.first_divergence
        if divergence is not None:
            print(f"  first divergence: {divergence.op} at {divergence.loc}: PCC {_number(divergence.pcc)}")
        if args.ops:
            for op in program.ops:
                print(f"  {_number(op.pcc):>9}  {op.op:32} {op.loc}")
        records.append({"file": path, "program": program.name, "passed": program.passed, "outputs": program.outputs,
                        "ops": [{"loc": o.loc, "op": o.op, "metrics": o.metrics} for o in program.ops],
                        "first_divergence": divergence.loc if divergence else None})
    return all(p.passed for p in programs), records


def _failure(path: str, message: str) -> list[dict]:
    print(f"{path}: FAIL: {message}")
    return [{"file": path, "passed": False, "error": message}]


def run(argv: list[str]) -> int:
    from builder.base.builder import BuilderError
    from builder.base.builder_runtime import TTBuilderCompileException, TTBuilderRuntimeException
    from ttmlir.cli import write_atomic

    args = build_parser().parse_args(argv)
    passed, records = True, []
    for path in args.files:
        try:
            ok, found = check(path, args)
        except (OSError, BuilderError, TTBuilderCompileException, TTBuilderRuntimeException) as error:
            ok, found = False, _failure(path, str(error))
        except (MemoryError, RuntimeError) as error:  # torch reports a failed allocation as a RuntimeError
            if not isinstance(error, MemoryError) and "allocate memory" not in str(error):
                raise
            ok, found = False, _failure(path, "the host ran out of memory computing goldens and device values "
                                              "(this model's tensors do not fit this machine)")
        passed, records = passed and ok, records + found
    if args.report:
        write_atomic(args.report, json.dumps(records, indent=1, default=str) + "\n")
    return 0 if passed else 1


def main(argv: list[str] | None = None) -> int:
    from ttmlir.cli import guarded

    return guarded("ttmlir-golden", lambda: run(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    raise SystemExit(main())
