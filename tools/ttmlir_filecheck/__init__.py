"""`FileCheck`: the filecheck package with LLVM's CHECK-NOT range.

LLVM's FileCheck looks for a CHECK-NOT pattern between the end of the previous match and the *start* of the next
one. filecheck 1.0.6 searches up to the *end* of the next match, so `CHECK: op` / `CHECK-NOT: op` / `CHECK: op`
fails when the second match is itself the excluded text (upstream tt-mlir's lit tests rely on LLVM's range).
This entry point records where each positive match starts and ends the CHECK-NOT range there. LLVM also
canonicalizes whitespace inside `{{regex}}` blocks (the whole check file is, unless --strict-whitespace): a run of
spaces there matches any run of blanks, as a literal one does. LLVM's `--implicit-check-not PATTERN`, which the
package lacks, is a CHECK-NOT between every two checks: any occurrence of PATTERN outside the text a positive check
matched fails. In a POSIX bracket expression a `]` right after `[` or `[^` is a member (`[^]]*`: anything but
`]`); the package's newline exclusion would close the class before it.
Everything else is the package's own behaviour.
"""

from __future__ import annotations

import sys

# imported here, not where used: the tool server preloads this module, so a served call imports nothing (28 ms)
import filecheck.main  # noqa: F401


def _llvm_not_range(matched: list) -> None:
    from filecheck.finput import FInput
    from filecheck.matcher import Matcher

    def recording(method):
        def wrapped(self, *args, **kwargs):
            found = method(self, *args, **kwargs)
            if found is not None:
                self.last_match_start = found.start(0)
                matched.append((self, found.start(0), found.end(0)))
            return found
        return wrapped

    FInput.find, FInput.match = recording(FInput.find), recording(FInput.match)
    FInput.match_and_add_hole = recording(FInput.match_and_add_hole)
    post_check = Matcher._post_check

    def llvm_post_check(self, op):
        start = getattr(self.file, "last_match_start", None)
        if op.name in ("NOT", "NOP", "DAG", "COUNT") or self.ctx.negative_matches_start is None or start is None or \
                self.file.is_discontigous() or not self.ctx.negative_matches_start <= start <= self.file.range.start:
            return post_check(self, op)
        end, self.file.range.start = self.file.range.start, start
        try:
            return post_check(self, op)
        finally:
            self.file.range.start = end

    Matcher._post_check = llvm_post_check


def _llvm_regex_whitespace() -> None:
    import dataclasses
    import re

    from filecheck import compiler, matcher, preprocess
    from filecheck.ops import RE

    compile_uops = compiler.compile_uops
    outside_classes = re.compile(r"\[(?:\\.|[^\]])*\]|( +)")  # runs of spaces not in a [character class]

    def blanks(match):
        return match.group(0) if match.group(1) is None else r"(?:[ \t\v]+)"  # a group: a quantifier may follow

    def llvm_compile_uops(check, variables, opts):
        if not opts.strict_whitespace:
            check = dataclasses.replace(check, uops=[RE(outside_classes.sub(blanks, u.content)) if isinstance(u, RE)
                                                     else u for u in check.uops])
        return compile_uops(check, variables, opts)

    compiler.compile_uops = matcher.compile_uops = preprocess.compile_uops = llvm_compile_uops


def _implicit_check_not(argv: list[str]) -> list[str]:
    """The --implicit-check-not patterns, taken out of argv."""
    patterns, i = [], 1
    while i < len(argv):
        arg = argv[i]
        if arg.lstrip("-").startswith("implicit-check-not") and arg.startswith("-"):
            value = arg.split("=", 1)[1] if "=" in arg else argv.pop(i + 1) if i + 1 < len(argv) else ""
            patterns.append(value)
            argv.pop(i)
        else:
            i += 1
    return patterns


def _check_implicit_not(patterns: list[str], matched: list) -> int:
    if not matched:
        return 0
    finput = matched[-1][0]
    spans = [(start, end) for f, start, end in matched if f is finput]
    for pattern in patterns:
        at = finput.content.find(pattern)
        while at >= 0:
            if not any(start <= at and at + len(pattern) <= end for start, end in spans):
                line = finput.content.count("\n", 0, at) + 1
                print(f"{finput.fname}:{line}: error: CHECK-NOT: excluded string found in input ('{pattern}', "
                      "from --implicit-check-not)", file=sys.stderr)
                return 1
            at = finput.content.find(pattern, at + 1)
    return 0


def _posix_leading_bracket() -> None:
    import re

    from filecheck import parser

    to_python = parser.posix_to_python_regex
    # an escape, a class opening with `]` as its first member (made `\]`), any other class, or one character: a
    # `[` inside a class (`[[]`) opens nothing
    tokens = re.compile(r"\\.|\[(\^?)\]((?:[^\]\\]|\\.)*)\]|\[\^?\]?(?:[^\]\\]|\\.)*\]|.", re.S)

    def member(match) -> str:
        return f"[{match.group(1)}\\]{match.group(2)}]" if match.group(2) is not None else match.group(0)

    parser.posix_to_python_regex = lambda expr: to_python(tokens.sub(member, expr))


def main() -> None:
    from filecheck.main import main as filecheck_main

    implicit = _implicit_check_not(sys.argv)
    matched: list = []
    _llvm_not_range(matched)
    _llvm_regex_whitespace()
    _posix_leading_bracket()
    try:
        filecheck_main()
    except SystemExit as done:
        if done.code or not implicit:
            raise
        sys.exit(_check_implicit_not(implicit, matched))
