"""MLIR-style diagnostics: `file:line:col: error: message`, the source line and a caret."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.traits import IsTerminator, NoTerminator
from xdsl.utils.exceptions import ParseError, VerifyException

from ttmlir.ir.tt_op import TTOp, WholeMessageError


@dataclass
class Diagnostic:
    severity: str  # error | warning | remark | note
    message: str
    filename: str
    text: str
    pos: int | None  # offset into `text`; None when the op has no source position
    line_offset: int = 0  # lines before `text` in the original file (--split-input-file)

    @property
    def line(self) -> int:
        return self.text.count("\n", 0, self.pos or 0) + 1 + self.line_offset

    @property
    def column(self) -> int:
        pos = self.pos or 0
        return pos - (self.text.rfind("\n", 0, pos) + 1) + 1

    def render(self) -> str:
        if self.pos is None:
            return f"{self.filename}: {self.severity}: {self.message}"
        start = self.text.rfind("\n", 0, self.pos) + 1
        end = self.text.find("\n", self.pos)
        source = self.text[start:end if end >= 0 else len(self.text)]
        caret = " " * (self.column - 1) + "^"
        return f"{self.filename}:{self.line}:{self.column}: {self.severity}: {self.message}\n{source}\n{caret}"


class DiagnosticError(Exception):
    """Raised with the diagnostic that stops a tool; the CLI prints it and exits 1."""

    def __init__(self, diagnostic: Diagnostic, *more: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic
        self.diagnostics = [diagnostic, *more]


_PARSE_MESSAGES = (
    ("Operation ", " is not registered", "unregistered operation '{0}' found in dialect ('{1}') that does not allow "
     "unknown operations"),
    ("@ identifier expected to start with letter, '_', or '\"'.", "", "@ identifier expected to start with letter or '_'"),
)


def from_parse_error(error: ParseError, filename: str, text: str, line_offset: int = 0) -> Diagnostic:
    message = error.msg
    for prefix, suffix, template in _PARSE_MESSAGES:
        if message.startswith(prefix) and message.endswith(suffix):
            name = message[len(prefix):-len(suffix)]
            message = template.format(name, name.split(".")[0])
    if message.startswith("Expected '"):  # a missing punctuation mark, in MLIR's lower case
        message = "e" + message[1:]
    if message == "attribute expected":
        message = "expected attribute value"
    position = error.span.start
    if message.startswith("expected "):
        position = _after_previous_token(text, position)
    return Diagnostic("error", message, filename, text, position, line_offset)


def _after_previous_token(text: str, position: int) -> int:
    """Where MLIR reports a token it expected but did not find: a token that starts its line is not where the
    mistake is, so the error goes just after the last token before it (past blank lines and `//` comments)."""
    end = position
    while True:
        end = len(text[:end].rstrip(" \t"))
        if end == 0:
            return position
        if text[end - 1] not in "\n\r":
            return end
        end -= 1
        line_start = max(text.rfind("\n", 0, end), text.rfind("\r", 0, end)) + 1
        comment = text.find("//", line_start, end)
        if comment >= 0:
            end = comment


def _verify_error(op: Operation) -> tuple[Operation, str] | None:
    """Where and why `op` alone fails to verify (a verifier may point at one of its children), in upstream's
    words, or None."""
    try:
        if isinstance(op, TTOp):
            op.tt_verify()
        else:
            if hasattr(op, "verify_ods"):  # an op checking MLIR's ODS constraints in MLIR's words first
                op.verify_ods()
            op.verify_()
    except VerifyException as error:
        message = str(error).splitlines()[0] if str(error) else "failed to verify"
        return getattr(error, "at", op), message if message.startswith("'") or isinstance(error, WholeMessageError) \
            else f"'{op.name}' op {message}"
    except Exception as error:  # a malformed op that a verifier could not even inspect
        return op, f"'{op.name}' op is malformed: {error}"
    message = _sharding_error(op)
    return None if message is None else (op, message)


def _sharding_error(op: Operation) -> str | None:
    """Shardy's `sdy.sharding` on an op's results or a function's arguments/results, checked against its mesh."""
    attrs = [op.attributes] + [d.data for key in ("arg_attrs", "res_attrs")
                               for d in getattr(getattr(op, key, None), "data", ()) if hasattr(d, "data")]
    if not any("sdy.sharding" in a or "sdy.sharding_rule" in a for a in attrs):
        return None
    from ttmlir.dialects.sdy import verify_attributes

    message = verify_attributes(op)
    return message if message is None or message.startswith("'") else f"'{op.name}' {message}"


def op_text(op: Operation) -> str:
    """An op as one line of generic MLIR, for a message."""
    import io

    from ttmlir.asm import TTPrinter

    stream = io.StringIO()
    TTPrinter(stream=stream, print_generic_format=True, print_debuginfo=False).print_op(op)
    return " ".join(stream.getvalue().split())


def _terminator_error(op: Operation) -> tuple[Operation, str] | None:
    """MLIR's structural check: every block of a region that needs a terminator ends in one."""
    if op.has_trait(NoTerminator):
        return None
    for region in op.regions:
        for block in region.blocks:
            last = block.last_op
            if last is None:
                return op, "empty block: expect at least a terminator"
            if not last.has_trait(IsTerminator):
                return last, f"block with no terminator, has {op_text(last)}"
    return None


def verify_errors(module: ModuleOp) -> list[tuple[Operation, str]]:
    """Every function's first failing op (in walk order), as MLIR's verifier reports them: it checks
    functions independently and stops inside one at its first failure."""
    errors = []
    pending: list[tuple[Operation, FuncOp | None]] = [(module, None)]  # walk order; each op with its function
    while pending:
        op, func = pending.pop()
        func = op if isinstance(op, FuncOp) else func
        found = _verify_error(op) or _terminator_error(op)
        if found is not None:
            errors.append(found)
            if func is None:
                break
            while pending and pending[-1][1] is func:  # the rest of the function (on top: walked depth first)
                pending.pop()
            continue
        pending.extend((inner, func) for region in reversed(op.regions) for block in reversed(region.blocks)
                       for inner in reversed(block.ops))
    return errors


def verify_module(module: ModuleOp, positions: dict[Operation, int], filename: str, text: str,
                  line_offset: int = 0) -> None:
    errors = verify_errors(module)
    if errors:
        raise DiagnosticError(*(Diagnostic("error", message, filename, text, positions.get(op), line_offset)
                                for op, message in errors))


def load_module(ctx, text: str, filename: str, line_offset: int = 0) -> tuple[ModuleOp, dict[Operation, int]]:
    """Parse and verify; a bad input raises DiagnosticError."""
    from xdsl.utils.exceptions import ParseError

    from ttmlir.asm import parse_text

    try:
        module, positions = parse_text(ctx, text, filename)
    except ParseError as error:
        prior = getattr(error, "prior", None)  # a value used with a type other than its own: where it was defined
        notes = [] if prior is None else [Diagnostic("note", "prior use here", filename, text, prior.start,
                                                     line_offset)]
        raise DiagnosticError(from_parse_error(error, filename, text, line_offset), *notes) from None
    verify_module(module, positions, filename, text, line_offset)
    return module, positions
