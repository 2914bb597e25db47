"""`FileCheck`: the filecheck package with LLVM's CHECK-NOT range.

LLVM's FileCheck looks for a CHECK-NOT pattern between the end of the previous match and the *start* of the next
one. filecheck 1.0.6 searches up to the *end* of the next match, so `CHECK: op` / `CHECK-NOT: op` / `CHECK: op`
fails when the second match is itself the excluded text (upstream tt-mlir's lit tests rely on LLVM's range).
This entry point records where each positive match starts and ends the CHECK-NOT range there. LLVM also
canonicalizes whitespace inside `{{regex}}` blocks (the whole check file is, unless --strict-whitespace): a run of
spaces there matches any run of blanks, as a literal one does. Everything else is the package's own behaviour.
"""

from __future__ import annotations


def _llvm_not_range() -> None:
    from filecheck.finput import FInput
    from filecheck.matcher import Matcher

    def recording(method):
        def wrapped(self, *args, **kwargs):
            found = method(self, *args, **kwargs)
            if found is not None:
                self.last_match_start = found.start(0)
            return found
        return wrapped

    FInput.find, FInput.match = recording(FInput.find), recording(FInput.match)
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


def main() -> None:
    from filecheck.main import main as filecheck_main

    _llvm_not_range()
    _llvm_regex_whitespace()
    filecheck_main()
