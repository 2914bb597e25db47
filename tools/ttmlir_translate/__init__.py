"""`ttmlir-translate`: TTNN IR to a `.ttnn` flatbuffer (`--ttnn-to-flatbuffer`) and kernel functions to C++
(`--ttkernel-to-cpp`), as upstream's tool does."""

from __future__ import annotations

import sys

from ttmlir.cli import guarded, usage_error as cli_usage_error, write_atomic
from ttmlir.diagnostics import Diagnostic, DiagnosticError

TRANSLATIONS = {"--ttnn-to-flatbuffer": "Serialize a TTNN module to a .ttnn flatbuffer binary",
                "--ttmetal-to-flatbuffer": "Serialize a TTMetal module (host program and kernels) to a .ttm flatbuffer binary",
                "--ttkernel-to-cpp": "Translate kernel functions (emitc, after --convert-ttkernel-to-emitc) to C++",
                "--mlir-to-cpp": "Translate EmitC host code (after --convert-ttnn-to-emitc) to C++ against the TTNN API",
                "--mlir-to-python": "Translate EmitPy code (after --convert-ttnn-to-emitpy) to Python"}
FLAGS = {"--allow-unregistered-dialect": "Allow operations of unregistered dialects",
         "--mlir-print-local-scope": "Keep the module in the .ttnn's debug info printed with attributes inline "
                                     "(no aliases)"}


def usage_error(message: str):
    cli_usage_error("ttmlir-translate", message)


def print_help() -> None:
    print("OVERVIEW: tt-mlir translation driver (pure Python, on xDSL)\n")
    print("USAGE: ttmlir-translate [options] <input file>\n")
    print("OPTIONS:")
    print(f"  {'-o <filename>':40} Output filename (default: stdout)")
    for flag, text in {**FLAGS, **TRANSLATIONS}.items():
        print(f"  {flag:40} {text}")


def parse_args(argv: list[str]) -> tuple[str, str, str | None, set[str]]:
    args, positional, output, translation, flags = iter(argv), [], "-", None, set()
    for arg in args:
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2 and not arg.startswith("-o"):
            arg = "-" + arg  # MLIR's tools take -name for --name
        if arg in ("-h", "--help"):
            print_help()
            raise SystemExit(0)
        if arg == "-o":
            output = next(args, None) or usage_error("-o needs a file name")
        elif arg.startswith("-o") and len(arg) > 2:
            output = arg[2:]
        elif arg in TRANSLATIONS:
            translation = arg
        elif arg in FLAGS:
            flags.add(arg)
        elif arg.startswith("-") and arg != "-":
            usage_error(f"Unknown command line argument '{arg}'.")
        else:
            positional.append(arg)
    if len(positional) > 1:
        usage_error(f"too many positional arguments: {' '.join(positional)}")
    if translation is None:
        usage_error(f"no translation chosen; use one of {', '.join(TRANSLATIONS)}")
    if "--mlir-print-local-scope" in flags and translation != "--ttnn-to-flatbuffer":
        usage_error(f"--mlir-print-local-scope applies to --ttnn-to-flatbuffer only (the MLIR it keeps), not "
                    f"{translation}")
    return positional[0] if positional else "-", output, translation, flags


def run(argv: list[str]) -> int:
    from ttmlir.diagnostics import load_module
    from ttmlir.dialects import make_context
    from ttmlir.target import TranslateError

    source, output, translation, flags = parse_args(argv)
    filename = "<stdin>" if source == "-" else source
    try:
        text = sys.stdin.read() if source == "-" else open(source, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError) as error:
        print(f"ttmlir-translate: error: cannot read '{filename}': {getattr(error, 'strerror', None) or error}",
              file=sys.stderr)
        return 1
    try:
        module, positions = load_module(make_context("--allow-unregistered-dialect" in flags), text, filename)
        try:
            if translation == "--mlir-to-cpp":
                from ttmlir.target.host_cpp import translate_to_cpp as translate_host
                data = translate_host(module)
            elif translation == "--mlir-to-python":
                from ttmlir.target.python import translate_to_python
                data = translate_to_python(module)
            elif translation == "--ttkernel-to-cpp":
                from ttmlir.target.cpp import translate_to_cpp
                data = translate_to_cpp(module)
            elif translation == "--ttmetal-to-flatbuffer":
                from ttmlir.target.ttmetal import translate as translate_metal
                data = translate_metal(module)
            else:
                from ttmlir.target.ttnn import translate
                # the debug info keeps the input text, or the module printed as asked
                data = translate(module, source=None if "--mlir-print-local-scope" in flags else text,
                                 local_scope="--mlir-print-local-scope" in flags)
        except TranslateError as error:
            pos = positions.get(error.op) if error.op is not None else None
            raise DiagnosticError(Diagnostic("error", str(error), filename, text, pos)) from None
    except DiagnosticError as error:
        for diagnostic in error.diagnostics:
            print(diagnostic.render(), file=sys.stderr)
        return 1
    write_atomic(output, data)
    return 0


def main(argv: list[str] | None = None) -> int:
    return guarded("ttmlir-translate", lambda: run(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    raise SystemExit(main())
