"""`ttmlir-opt`: parse, verify, run passes and print tt-mlir IR, with mlir-opt's flags."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field

from ttmlir.cli import guarded, usage_error as cli_usage_error, write_atomic
from ttmlir.diagnostics import Diagnostic, DiagnosticError

SPLIT_MARKER = re.compile(r"^// -----[ \t]*$", re.MULTILINE)  # the line break stays: lines keep their numbers
EXPECTED = re.compile(r"expected-(error|warning|remark|note)\s*(@[+-]\d+|@above|@below)?\s*\{\{(.*?)\}\}")
FLAGS = {
    "--split-input-file": "Split the input file into pieces (at '// -----') and process each separately",
    "--verify-diagnostics": "Check that emitted diagnostics match expected-* lines in the input",
    "--mlir-print-debuginfo": "Print debug info (locations) in MLIR output",
    "--mlir-print-local-scope": "Print attributes and locations inline instead of as aliases",
    "--mlir-print-op-generic": "Print every op in the generic form",
    "--allow-unregistered-dialect": "Allow operations of unregistered dialects",
    "--verify-each": "Verify the IR after each pass (default true)",
    "--mlir-timing": "Display execution times (wall time per pass and pipeline) on stderr after the run",
    "--mlir-print-ir-before-all": "Print the IR on stderr before every pass (a pipeline's stages one by one)",
    "--mlir-print-ir-after-all": "Print the IR on stderr after every pass (a pipeline's stages one by one)",
    # passes here always run one after another on one thread, as MLIR's run under this flag
    "--mlir-disable-threading": "Disable multi-threading within MLIR (passes run on one thread, always so here)",
}
TIMING_DISPLAY = "--mlir-timing-display"
SHOW_DIALECTS = "--show-dialects"
PRINT_IR = {"--mlir-print-ir-before": "Print the IR on stderr before each of these passes (comma-separated flags)",
            "--mlir-print-ir-after": "Print the IR on stderr after each of these passes (comma-separated flags)"}


@dataclass
class Options:
    input: str = "-"
    output: str = "-"
    passes: list[tuple[str, str]] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    timing_display: str = "tree"
    print_ir: dict[str, frozenset[str]] = field(default_factory=dict)  # --mlir-print-ir-before/after: pass flags


    def ir_printing(self):
        """What --mlir-print-ir-* asked to print, or None."""
        every = {flag for flag in ("--mlir-print-ir-before-all", "--mlir-print-ir-after-all") if flag in self.flags}
        if not (every or self.print_ir):
            return None
        from ttmlir.ir_printing import IRPrinting

        return IRPrinting(before=self.print_ir.get("--mlir-print-ir-before", frozenset()),
                          after=self.print_ir.get("--mlir-print-ir-after", frozenset()),
                          before_all="--mlir-print-ir-before-all" in every,
                          after_all="--mlir-print-ir-after-all" in every,
                          print_options=self.print_options())

    def print_options(self) -> dict:
        return {"debuginfo": "--mlir-print-debuginfo" in self.flags,
                "local_scope": "--mlir-print-local-scope" in self.flags,
                "generic": "--mlir-print-op-generic" in self.flags}


def usage_error(message: str):
    cli_usage_error("ttmlir-opt", message)


def parse_args(argv: list[str]) -> Options:
    from ttmlir.passes import registered_passes
    from ttmlir.timing import DISPLAY_MODES

    opts = Options()
    args = iter(argv)
    positional = []
    for arg in args:
        if not arg.startswith("--") and "-" + arg.split("=")[0] in FLAGS:  # LLVM's options take one dash too
            arg = "-" + arg
        if arg in ("-h", "--help"):
            print_help()
            raise SystemExit(0)
        if arg == SHOW_DIALECTS:
            from ttmlir.dialects import make_context

            print("Available Dialects: " + ", ".join(sorted(make_context().registered_dialect_names)))
            raise SystemExit(0)
        if arg == "-o":
            opts.output = next(args, None) or usage_error("-o needs a file name")
        elif arg.startswith("-o") and len(arg) > 2:
            opts.output = arg[2:]
        elif arg.lstrip("-").startswith(TIMING_DISPLAY[2:] + "="):
            opts.timing_display = arg.split("=", 1)[1]
            if opts.timing_display not in DISPLAY_MODES:
                usage_error(f"for the {TIMING_DISPLAY} option: Cannot find option named '{opts.timing_display}'!")
        elif arg.lstrip("-").split("=")[0] in (flag[2:] for flag in PRINT_IR) and "=" in arg:
            flag, _, names = arg.partition("=")
            flag = "--" + flag.lstrip("-")
            opts.print_ir[flag] = frozenset(n.strip() for n in names.split(",") if n.strip())
            for name in opts.print_ir[flag] - set(registered_passes()):
                usage_error(f"for the {flag} option: Cannot find option named '{name}'!")
        elif arg in FLAGS or arg.split("=")[0] in FLAGS:
            opts.flags.add(arg.split("=")[0])
        elif "-" + arg.split("=")[0] in FLAGS:  # MLIR's tools take -flag for --flag
            opts.flags.add("-" + arg.split("=")[0])
        elif arg.startswith("--pass-pipeline="):
            opts.passes.extend(parse_pipeline(arg.split("=", 1)[1]))
        elif arg.startswith("-") and arg.lstrip("-").split("=")[0] in registered_passes():  # -name and --name
            name, _, value = arg.lstrip("-").partition("=")
            opts.passes.append((name, value.strip("\"'")))
        elif arg.startswith("-") and arg != "-":
            usage_error(f"Unknown command line argument '{arg}'.")
        else:
            positional.append(arg)
    if len(positional) > 1:
        usage_error(f"too many positional arguments: {' '.join(positional)}")
    opts.input = positional[0] if positional else "-"
    return opts


PASS_NAME = re.compile(r"\s*([\w.-]+)\s*")


def parse_pipeline(text: str) -> list[tuple[str, str]]:
    """`builtin.module(a,b{opt=val})` → [(a, ''), (b, 'opt=val')]; nested anchors (`func.func(...)`) are flattened.
    A malformed pipeline is a usage error naming the column."""
    text = text.strip().strip("\"'")
    passes, pos = _pass_list(text, 0)
    if pos != len(text):
        usage_error(f"invalid pass pipeline '{text}': unexpected '{text[pos]}' at column {pos + 1}")
    return passes


def _pass_list(text: str, pos: int) -> tuple[list[tuple[str, str]], int]:
    passes = []
    while True:
        name = PASS_NAME.match(text, pos)
        if name is None:
            usage_error(f"invalid pass pipeline '{text}': expected a pass name at column {pos + 1}")
        pos = name.end()
        if text.startswith("(", pos):  # an op anchor: its passes run on the module here
            inner, pos = _pass_list(text, pos + 1)
            if not text.startswith(")", pos):
                usage_error(f"invalid pass pipeline '{text}': expected ')' at column {pos + 1}")
            passes, pos = passes + inner, pos + 1
        elif text.startswith("{", pos):
            end = text.find("}", pos)
            if end < 0:
                usage_error(f"invalid pass pipeline '{text}': '{{' at column {pos + 1} is never closed")
            passes, pos = passes + [(name.group(1), text[pos + 1:end].strip())], end + 1
        else:
            passes.append((name.group(1), ""))
        while text.startswith(" ", pos):
            pos += 1
        if not text.startswith(",", pos):
            return passes, pos
        pos += 1


def print_help() -> None:
    from ttmlir.passes import options_of, registered_passes

    print("OVERVIEW: tt-mlir modular optimizer driver (pure Python, on xDSL)\n")
    print("USAGE: ttmlir-opt [options] <input file>\n")
    print("OPTIONS:")
    print(f"  {'-o <filename>':40} Output filename (default: stdout)")
    print(f"  {'--pass-pipeline=<pipeline>':40} A textual pass pipeline, e.g. builtin.module(pass{{opt=val}})")
    print(f"  {SHOW_DIALECTS:40} Print the list of registered dialects and exit")
    for flag, text in FLAGS.items():
        print(f"  {flag:40} {text}")
    print(f"  {TIMING_DISPLAY + '=<tree|list>':40} Display method for timing data (default: tree)")
    for flag, text in PRINT_IR.items():
        print(f"  {flag + '=<pass-arg>,...':40} {text}")
    print("\n  Passes and pipelines (--NAME or --NAME=\"opt=value opt2=value\"):")
    for name, cls in sorted(registered_passes().items()):
        summary = (cls.__doc__ or "").strip().splitlines() or [name.replace("-", " ")]
        print(f"    --{name:38} {summary[0]}")
        for f in options_of(cls):
            default = f.default if not isinstance(f.default, tuple) else "x".join(map(str, f.default))
            print(f"        {f.name.replace('_', '-') + '=<value>':36} (default: {default!r})")


def process_chunk(text: str, filename: str, line_offset: int, opts: Options) -> tuple[str | None, list[Diagnostic]]:
    """Parse, verify and transform one piece of input; return printed IR or the diagnostics."""
    import warnings

    from ttmlir.asm import print_module
    from ttmlir.diagnostics import load_module, verify_module
    from ttmlir.dialects import make_context
    from ttmlir.errors import written_position
    from ttmlir.passes import PassFailure, PassWarning, make_pass
    from ttmlir.timing import run_pass, scope

    ctx = make_context("--allow-unregistered-dialect" in opts.flags)
    positions: dict = {}

    def located(severity: str, op, message: str) -> Diagnostic:
        return Diagnostic(severity, message, filename, text,
                          written_position(op, positions) if op is not None else None, line_offset)

    with warnings.catch_warnings(record=True) as raised:
        warnings.simplefilter("always", PassWarning)
        try:
            with scope("Parser"):
                module, positions = load_module(ctx, text, filename, line_offset)
            for name, options in opts.passes:
                try:
                    run_pass(make_pass(name, options), ctx, module)
                except PassFailure as failure:
                    return None, [located("error", failure.op, str(failure)),
                                  *(located("error", op, message) for op, message in failure.then)]
                with scope("Verifier"):
                    verify_module(module, positions, filename, text, line_offset)
        except DiagnosticError as error:
            return None, error.diagnostics
    notes = [located("warning", w.message.op, str(w.message)) for w in raised if isinstance(w.message, PassWarning)]
    with scope("Output"):
        return print_module(module, **opts.print_options()), notes


def check_expected(text: str, line_offset: int, emitted: list[Diagnostic], filename: str) -> list[str]:
    """mlir-opt --verify-diagnostics: every expected-* must be emitted on its line and vice versa."""
    expected = []
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        for m in EXPECTED.finditer(line):
            kind, where, message = m.groups()
            target = number
            if where == "@above":
                target = number - 1
            elif where == "@below":
                target = number + 1
            elif where:
                target = number + int(where[1:])
            expected.append([kind, target + line_offset, message, number + line_offset, False])
    problems = []
    for diag in emitted:
        match = next((e for e in expected if not e[4] and e[0] == diag.severity and e[1] == diag.line
                      and e[2] in diag.message), None)
        if match:
            match[4] = True
        else:
            problems.append(f"{filename}:{diag.line}:{diag.column}: error: unexpected {diag.severity}: "
                            f"{diag.message}")
    for kind, target, message, where, seen in expected:
        if not seen:
            problems.append(f"{filename}:{where}: error: expected {kind} \"{message}\" was not produced")
    return problems


def run(opts: Options) -> int:
    printing = opts.ir_printing()
    if printing is not None:
        from ttmlir.ir_printing import PRINTING

        token = PRINTING.set(printing)
        try:
            return run_timed(opts)
        finally:
            PRINTING.reset(token)
    return run_timed(opts)


def run_timed(opts: Options) -> int:
    if "--mlir-timing" not in opts.flags:
        return run_untimed(opts)
    from ttmlir.timing import report, timing

    with timing() as root:
        status = run_untimed(opts)
    sys.stderr.write(report(root, opts.timing_display))  # as mlir-opt: after the output, whether or not it failed
    return status


def run_untimed(opts: Options) -> int:
    filename = "<stdin>" if opts.input == "-" else opts.input
    try:
        text = sys.stdin.read() if opts.input == "-" else open(opts.input, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError) as error:
        print(f"ttmlir-opt: error: cannot read '{filename}': {getattr(error, 'strerror', None) or error}",
              file=sys.stderr)
        return 1
    chunks, offsets = [text], [0]
    if "--split-input-file" in opts.flags:
        chunks, offsets, line = [], [], 0
        for piece in SPLIT_MARKER.split(text):
            chunks.append(piece)
            offsets.append(line)
            line += piece.count("\n")
    outputs, failed, problems = [], False, []
    for chunk, offset in zip(chunks, offsets):
        printed, diagnostics = process_chunk(chunk, filename, offset, opts)
        if "--verify-diagnostics" in opts.flags:
            problems += check_expected(chunk, offset, diagnostics, filename)
        elif diagnostics:
            failed |= printed is None  # warnings beside printed IR do not fail the run
            for diag in diagnostics:
                print(diag.render(), file=sys.stderr)
        if printed is not None:
            outputs.append(printed)
    for problem in problems:
        print(problem, file=sys.stderr)
    if failed or problems:
        if opts.output == "-" and outputs:  # as mlir-opt streams them: the pieces that worked still print
            sys.stdout.write("// -----\n".join(outputs))
        return 1  # an output file is not written (mlir-opt keeps it only on success)
    write_atomic(opts.output, "// -----\n".join(outputs))
    return 0


def main(argv: list[str] | None = None) -> int:
    import gc

    # The IR is many small objects that live as long as the run: collecting after every 700 allocations (Python's
    # default) rescans them again and again, 15% of a 4,000-op pipeline's time.
    gc.set_threshold(100_000, 50, 100)
    return guarded("ttmlir-opt", lambda: run(parse_args(sys.argv[1:] if argv is None else argv)))


if __name__ == "__main__":
    raise SystemExit(main())
