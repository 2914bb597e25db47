"""TTIR text to a `.ttnn` binary in one call: parse, verify, backend pipeline, serialize.

What `ttmlir-opt --ttir-to-ttnn-backend-pipeline | ttmlir-translate --ttnn-to-flatbuffer` does, as a
Python function for scripts, tests and the builder. Bad input raises DiagnosticError.
"""

from __future__ import annotations

from ttmlir.asm import print_module
from ttmlir.diagnostics import Diagnostic, DiagnosticError, load_module, verify_module
from ttmlir.dialects import make_context
from ttmlir.errors import written_position
from ttmlir.passes import PassFailure, make_pass


def lower_to_ttnn(text: str, filename: str = "<input>", pipeline_options: str = ""):
    """The TTNN module the backend pipeline makes of a TTIR module's text."""
    return lower(text, filename, "ttir-to-ttnn-backend-pipeline", pipeline_options)


def lower_to_ttmetal(text: str, filename: str = "<input>", pipeline_options: str = ""):
    """The TTMetal module (host program and kernels) the Metal pipeline makes of a TTIR module's text."""
    return lower(text, filename, "ttir-to-ttmetal-pipeline", pipeline_options)


def lower(text: str, filename: str, pipeline: str, pipeline_options: str = ""):
    """`pipeline` run on a module's text; a failure is a located diagnostic."""
    module, positions = load_module(make_context(), text, filename)
    try:
        make_pass(pipeline, pipeline_options).apply(make_context(), module)
    except PassFailure as failure:
        pos = written_position(failure.op, positions) if failure.op is not None else None
        raise DiagnosticError(Diagnostic("error", str(failure), filename, text, pos)) from None
    verify_module(module, positions, filename, text)
    return module


def compile_ttir(text: str, filename: str = "<input>", goldens: dict | None = None,
                 pipeline_options: str = "") -> bytes:
    """A `.ttnn` binary of a TTIR module; `goldens` as `ttmlir.target.ttnn.translate` takes them."""
    from ttmlir.target.ttnn import TranslateError, translate

    module = lower_to_ttnn(text, filename, pipeline_options)
    try:
        return translate(module, stages={"ttir": text}, goldens=goldens)
    except TranslateError as error:
        raise DiagnosticError(Diagnostic("error", str(error), filename, print_module(module), None)) from None
