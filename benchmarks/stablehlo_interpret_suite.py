"""StableHLO's own value tests on the simulated device: the reference interpreter's test files
(openxla/stablehlo `stablehlo/tests/interpret/*.mlir`) compiled and run as a user would, each checked value
compared with what the file says it must be.

usage: python benchmarks/stablehlo_interpret_suite.py --stablehlo DIR [--filter REGEX] [--bin .venv/bin] [-j 2]
                                                      [--timeout S] [--report FILE]

DIR is a checkout of openxla/stablehlo or its bare git directory. Each `// -----` part of a file is parsed; each
function without arguments that holds `check.*` ops is one program: its checks become its results (the values
checked, and for `check.expect_eq`/`expect_almost_eq`/`expect_close` the values compared with), the functions it
calls come along, and then it goes through the shell pipeline unchanged otherwise:

    ttmlir-opt --stablehlo-to-ttir-pipeline --ttir-to-ttnn-backend-pipeline t.mlir -o t.ttnn.mlir
    ttmlir-translate --ttnn-to-flatbuffer t.ttnn.mlir -o t.ttnn
    ttrt run t.ttnn --program-index 0 --disable-golden --save-artifacts --artifact-dir ART

and its saved outputs are compared as the interpreter compares: `expect_eq*` exactly (NaN equal to NaN),
`expect_almost_eq*` within the stated tolerance (default 1e-4), `expect_close` within `max_ulp_difference` units
in the last place. Outcomes: PASS; INEXACT (ran, a float misses the check's tolerance by no more than the device's
bf16 arithmetic gives: 2^-7 relative); WRONG (ran, a value differs: a silent wrong answer); REFUSED (a tool stopped with
a located one-line error); CRASH (a tool printed a Python traceback or died); PARSE (our parser refused the
part); SKIP (the part uses the interpreter's own `interpreter.*` ops or `check.expect_serialized_eq`, which need
the interpreter's instrumentation). The tools are served warm (tools/ttmlir_server) during the run.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ttmlir.asm import print_module
from ttmlir.diagnostics import DiagnosticError, load_module
from ttmlir.dialects import check, make_context
from ttmlir.ir.props import dense_values
from xdsl.dialects import func
from xdsl.dialects.builtin import BFloat16Type, ComplexType, FunctionType, IntegerType, Signedness

INTERPRET_DIR = "stablehlo/tests/interpret"
CONST_CHECKS = (check.ExpectEqConstOp, check.ExpectAlmostEqConstOp)
PAIR_CHECKS = (check.ExpectEqOp, check.ExpectAlmostEqOp, check.ExpectCloseOp)
NEEDS_INTERPRETER = re.compile(r"\binterpreter\.|check\.expect_serialized_eq")


def test_files(root: str) -> dict[str, str]:
    """name -> text of every interpreter test file, from a checkout or a bare git directory."""
    if os.path.isdir(os.path.join(root, INTERPRET_DIR)):
        paths = sorted(glob.glob(os.path.join(root, INTERPRET_DIR, "**", "*.mlir"), recursive=True))
        return {os.path.relpath(p, os.path.join(root, INTERPRET_DIR)): open(p).read() for p in paths}
    git = ["git", "--git-dir", root]
    names = subprocess.run([*git, "ls-tree", "-r", "--name-only", "HEAD", INTERPRET_DIR], capture_output=True,
                           text=True, check=True).stdout.split()
    return {os.path.relpath(n, INTERPRET_DIR): subprocess.run([*git, "show", f"HEAD:{n}"], capture_output=True,
                                                              text=True, check=True).stdout
            for n in names if n.endswith(".mlir")}


def expectation(op) -> tuple[str, list, object, float]:
    """What a check op says: its kind, the values the program returns for it, the expected array (None when the
    second returned value is the expectation) and the tolerance (ulps for expect_close)."""
    if isinstance(op, CONST_CHECKS):
        attr = op.attributes["value"]
        element = attr.type.element_type
        if isinstance(element, ComplexType):  # stored as (real, imaginary) pairs
            pairs = np.array(dense_values(attr), np.float64).reshape(-1, 2)
            expected = np.empty(len(pairs), np.complex128)  # set part by part: NaN * 1j would spoil the real part
            expected.real, expected.imag = pairs[:, 0], pairs[:, 1]
        elif isinstance(element, IntegerType):  # Python ints, kept exact (i1's true reads as -1)
            expected = np.array([int(v) for v in dense_values(attr)], dtype=object)
            expected = expected != 0 if element.width.data == 1 else expected
        else:
            expected = np.array(dense_values(attr), dtype=np.float64)
        expected = expected.reshape(attr.type.get_shape())
        tolerance = op.attributes.get("tolerance")
        kind = "eq" if isinstance(op, check.ExpectEqConstOp) else "almost"
        return kind, [op.operands[0]], expected, tolerance.value.data if tolerance is not None else 1e-4
    if isinstance(op, check.ExpectCloseOp):
        return "ulp", list(op.operands), None, op.attributes["max_ulp_difference"].value.data
    tolerance = op.attributes.get("tolerance")
    kind = "eq" if isinstance(op, check.ExpectEqOp) else "almost"
    return kind, list(op.operands), None, tolerance.value.data if tolerance is not None else 1e-4


def bit_width(element) -> int | float:
    """An integer type's width (an int); a float's as a float (bf16: 16.5, apart from f16); a complex type's
    part's."""
    element = element.element_type if isinstance(element, ComplexType) else element
    if isinstance(element, IntegerType):
        return element.width.data
    return 16.5 if isinstance(element, BFloat16Type) else float(element.bitwidth)


def numpy_of(attr) -> np.ndarray:
    """A dense constant as the numpy array a caller would pass (bf16 as float32: numpy has no bf16)."""
    element, shape = attr.type.element_type, attr.type.get_shape()
    values = dense_values(attr)
    if isinstance(element, ComplexType):
        # the runtime holds complex values as (real, imaginary) pairs in a last dimension
        return np.array(values, dtype=np.float32 if element.element_type.bitwidth == 32 else np.float64
                        ).reshape(*shape, 2)
    if isinstance(element, IntegerType):
        width, unsigned = element.width.data, element.signedness.data == Signedness.UNSIGNED
        if width == 1:
            return (np.array([int(v) for v in values]) != 0).reshape(shape)
        kind = {8: "uint8" if unsigned else "int8", 16: "int32" if unsigned else "int16",
                32: "int64" if unsigned else "int32"}.get(width, "uint64" if unsigned else "int64")
        return np.array([int(v) for v in values], dtype=kind).reshape(shape)
    kind = {16: np.float16, 64: np.float64}.get(element.bitwidth, np.float32)
    return np.array(values, dtype=np.float64).astype(kind if not isinstance(element, BFloat16Type) else np.float32
                                                      ).reshape(shape)


def constants_as_arguments(entry: func.FuncOp) -> list[np.ndarray]:
    """The entry's top-level constants become its arguments (so the device computes what they feed instead of
    the compiler folding it); their values, in argument order."""
    block, values = entry.body.blocks[0], []
    for op in [op for op in block.ops if op.name == "stablehlo.constant" and op.results[0].uses]:
        argument = block.insert_arg(op.results[0].type, len(block.args))
        op.results[0].replace_all_uses_with(argument)
        values.append(numpy_of(op.properties.get("value") or op.attributes["value"]))
        op.detach()
        op.erase()
    return values


def programs(text: str, as_arguments: bool = False) -> list[tuple[str, str, list, list]]:
    """(function name, module text, expectations, inputs) for each checked function of one part of a file: the
    module holds that function, its checks turned into results (its constants into arguments, with
    `as_arguments`), and every function with arguments (what it may call)."""
    module, _ = load_module(make_context(), text, "<part>")
    entries = [f for f in module.ops if isinstance(f, func.FuncOp) and not f.function_type.inputs.data
               and any(isinstance(op, (*CONST_CHECKS, *PAIR_CHECKS)) for op in f.walk())]
    out = []
    for name in [f.sym_name.data for f in entries]:
        copy = module.clone()
        for f in list(copy.ops):
            if isinstance(f, func.FuncOp) and not f.function_type.inputs.data and f.sym_name.data != name:
                f.detach()
        entry = next(f for f in copy.ops if isinstance(f, func.FuncOp) and f.sym_name.data == name)
        entry.detach()
        block = copy.body.block
        block.insert_op_before(entry, block.first_op) if block.first_op else block.add_op(entry)  # program 0
        checks = [op for op in entry.walk() if isinstance(op, (*CONST_CHECKS, *PAIR_CHECKS))]
        expectations, results = [], []
        for op in checks:
            kind, values, expected, tolerance = expectation(op)
            width = bit_width(values[0].type.element_type)
            expectations.append((kind, len(results), width, expected, tolerance))
            results += values
        ret = entry.body.blocks[-1].last_op
        ret.detach()
        ret.erase()
        for op in checks:
            op.detach()
            op.erase()
        entry.body.blocks[-1].add_op(func.ReturnOp(*results))
        inputs = constants_as_arguments(entry) if as_arguments else []
        entry.function_type = FunctionType.from_lists([a.type for a in entry.body.blocks[0].args],
                                                      [v.type for v in results])
        out.append((name, print_module(copy), expectations, inputs))
    return out


def ulp(w: np.ndarray, float_bits: int) -> np.ndarray:
    """The spacing of floats of `float_bits` bits (16 is f16; bf16 is 16 + 0.5, an f32 with 16 fewer bits) at w."""
    if float_bits == 16.5:
        return np.spacing(np.abs(w).astype(np.float32)).astype(np.float64) * 65536
    if float_bits not in (16, 32, 64):
        raise ValueError(f"no ulp measure for {float_bits:g}-bit floats here")
    return np.spacing(np.abs(w).astype({16: np.float16, 32: np.float32, 64: np.float64}[float_bits])).astype(np.float64)


def compare(kind: str, got: np.ndarray, want: np.ndarray, width: int | float, tolerance: float) -> tuple[str, str]:
    """("PASS", "") when `got` is what the check wants; else WRONG, or INEXACT for floats off by no more than the
    device's bf16 arithmetic gives (2^-7 relative), with why. Integers of `width` bits compare as bit patterns of
    that width: a device stores an i8 result as u8, whose 128 is i8's -128; a value past the stored type's range
    (an i64 beyond si32) still differs."""
    if got.shape != want.shape:
        return "WRONG", f"shape {list(got.shape)}, expected {list(want.shape)}"
    near = None
    if width == 1:
        bad = (got != 0) != (want != 0)
    elif isinstance(width, int):
        if got.dtype.kind == "f" and not (np.isfinite(got) & (got == np.round(got))).all():
            return "WRONG", f"an integer result holds non-integers, e.g. {got[~np.isfinite(got) | (got != np.round(got))][0]!r}"
        mask = (1 << width) - 1
        bits = np.vectorize(lambda v: int(v) & mask, otypes=[object])
        bad = bits(got) != bits(want)
    else:
        kind_of = np.complex128 if np.iscomplexobj(want) or np.iscomplexobj(got) else np.float64
        g, w = got.astype(kind_of), want.astype(kind_of)
        both_nan = np.isnan(g) & np.isnan(w)
        with np.errstate(invalid="ignore", over="ignore"):
            off = np.abs(g - w)
            allowed = {"eq": 0.0, "almost": tolerance, "ulp": tolerance * ulp(w.real, width)}[kind]
            bad = ~both_nan & (g != w) & ~(off <= allowed)
            near = off <= 2.0 ** -7 * np.abs(w) + 1e-6
    if not bad.any():
        return "PASS", ""
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    outcome = "INEXACT" if near is not None and near[bad].all() else "WRONG"
    return outcome, f"at {list(index)}: {got[index]!r}, expected {want[index]!r} ({int(bad.sum())} of {bad.size} differ)"


def run_program(name: str, text: str, expectations: list, inputs: list, bin_dir: str, timeout: float
                ) -> tuple[str, str]:
    import torch

    from ttmlir.frontends.jax import run_binary
    from ttmlir.runtime import RuntimeFailure

    with tempfile.TemporaryDirectory(prefix="shlo-interp-") as folder:
        source, ttnn_ir, binary = (os.path.join(folder, f) for f in ("t.mlir", "t.ttnn.mlir", "t.ttnn"))
        with open(source, "w") as f:
            f.write(text)
        artifacts = os.path.join(folder, "artifacts")
        steps = [["ttmlir-opt", "--stablehlo-to-ttir-pipeline", "--ttir-to-ttnn-backend-pipeline", source, "-o",
                  ttnn_ir], ["ttmlir-translate", "--ttnn-to-flatbuffer", ttnn_ir, "-o", binary],
                 ["ttrt", "run", binary, "--program-index", "0", "--disable-golden", "--save-artifacts",
                  "--artifact-dir", artifacts]]
        for step in steps[:2] if inputs else steps:
            try:
                done = subprocess.run([os.path.join(bin_dir, step[0]), *step[1:]], capture_output=True, text=True,
                                      timeout=timeout)
            except subprocess.TimeoutExpired:
                return "CRASH", f"{step[0]}: no answer in {timeout:.0f} s"
            if done.returncode != 0:
                err = (done.stderr.strip() or done.stdout.strip())
                if "Traceback" in err or done.returncode < 0:
                    return "CRASH", f"{step[0]}: {err.splitlines()[-1] if err else f'signal {-done.returncode}'}"
                lines = [ln for ln in err.splitlines() if "error" in ln] or err.splitlines() or ["(no message)"]
                return "REFUSED", f"{step[0]}: {lines[0].replace(source, 't.mlir')}"
        if inputs:  # ttrt draws its own inputs: the binary runs in this process on the constants' values
            try:
                values = run_binary(open(binary, "rb").read(), inputs)
            except RuntimeFailure as failure:
                return "REFUSED", f"run: {failure}"
            except Exception as error:  # noqa: BLE001 - any other escape is a crash to report, not to stop on
                return "CRASH", f"run: {type(error).__name__}: {error}"
        else:
            outputs = sorted(glob.glob(os.path.join(artifacts, "**", "output_*.pt"), recursive=True),
                             key=lambda p: int(re.search(r"output_(\d+)", p).group(1)))
            values = [(t.float() if t.dtype == torch.bfloat16 else t).numpy() for t in map(torch.load, outputs)]
    for i, (kind, first, width, expected, tolerance) in enumerate(expectations):
        got = values[first]
        want = values[first + 1] if expected is None else expected
        if np.iscomplexobj(want) and not np.iscomplexobj(got) and got.shape == (*want.shape, 2):
            got = got[..., 0] + 1j * got[..., 1]  # the runtime's complex tensor: (real, imaginary) in a last dim
        try:
            outcome, why = compare(kind, got, want, width, tolerance)
        except ValueError as error:  # a check this harness cannot judge (ulps of f4/f6/f8)
            return "SKIP", str(error)
        if outcome != "PASS":
            return outcome, f"check {i} ({kind}) {why}"
    return "PASS", ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stablehlo", required=True, help="a checkout of openxla/stablehlo or its bare git directory")
    ap.add_argument("--filter", default="", help="only files whose name matches this regular expression")
    ap.add_argument("--bin", default=os.path.join(".venv", "bin"), help="where the tools are (default: .venv/bin)")
    ap.add_argument("-j", type=int, default=2, help="programs run at a time (default: 2)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per tool call (default: 300)")
    ap.add_argument("--report", help="write one line per program here")
    ap.add_argument("--constants-as-arguments", action="store_true",
                    help="make each checked function's constants its arguments, so the device computes what the "
                         "compiler would otherwise fold; run in this process (ttrt cannot be given inputs)")
    a = ap.parse_args()
    from ttmlir_server import ENVIRONMENT, start_server

    bin_dir = os.path.abspath(a.bin)
    if not all(os.path.exists(os.path.join(bin_dir, tool)) for tool in ("python", "ttmlir-opt", "ttrt")):
        sys.exit(f"{bin_dir}: no python, ttmlir-opt and ttrt there (run `make demo`, or pass --bin)")
    rows, jobs = [], []
    for file, text in test_files(a.stablehlo).items():
        if not re.search(a.filter, file):
            continue
        for part_index, part in enumerate(text.split("// -----")):
            if "func.func" not in part:
                continue
            where = f"{file}#{part_index}"
            if NEEDS_INTERPRETER.search(part):
                rows.append((where, "SKIP", "uses the interpreter's instrumentation"))
                continue
            try:
                found = programs(part, a.constants_as_arguments)
            except DiagnosticError as error:
                rows.append((where, "PARSE", str(error).splitlines()[0].replace("<part>", file)))
                continue
            except Exception as error:  # the parser or printer failed on valid input: our bug
                rows.append((where, "CRASH", f"reading the part: {type(error).__name__}: {error}"))
                continue
            jobs += [(f"{where}@{name}", program, expectations, inputs) for name, program, expectations, inputs in found]
    socket_path, stop = start_server(os.path.join(bin_dir, "python"))
    os.environ[ENVIRONMENT] = socket_path
    try:
        with ThreadPoolExecutor(a.j) as pool:
            futures = [(where, pool.submit(run_program, where, program, expectations, inputs, bin_dir, a.timeout))
                       for where, program, expectations, inputs in jobs]
            for n, (where, future) in enumerate(futures, 1):
                outcome, detail = future.result()
                rows.append((where, outcome, detail))
                print(f"[{n}/{len(futures)}] {outcome:7} {where} {detail}"[:240], file=sys.stderr, flush=True)
    finally:
        stop()
    counts = {k: sum(r[1] == k for r in rows) for k in ("PASS", "INEXACT", "WRONG", "REFUSED", "CRASH", "PARSE", "SKIP")}
    if a.report:
        with open(a.report, "w") as f:
            f.writelines(f"{where}\t{outcome}\t{detail}\n" for where, outcome, detail in sorted(rows))
    print("  ".join(f"{k} {v}" for k, v in counts.items()))
    total = len(rows) - counts["SKIP"]
    print(f"PASSED {counts['PASS']}/{total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
