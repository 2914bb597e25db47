"""Our `FileCheck` keeps LLVM's CHECK-NOT range (from the end of the previous match to the start of the next) and its
whitespace canonicalization inside regex blocks."""

import subprocess
import sys
from pathlib import Path

FILECHECK = str(Path(sys.executable).parent / "FileCheck")  # as lit starts it (served warm in the suite)


def filecheck(tmp_path, checks: str, text: str) -> int:
    (tmp_path / "checks").write_text(checks)
    (tmp_path / "input").write_text(text)
    return subprocess.run([FILECHECK, str(tmp_path / "checks"),
                           "--input-file", str(tmp_path / "input")], capture_output=True).returncode


def test_check_not_stops_where_the_next_match_starts(tmp_path):
    # the second "relu" is the next CHECK's own match, not text between the two matches
    assert filecheck(tmp_path, "CHECK: relu\nCHECK-NOT: relu\nCHECK: relu\n", "a = relu\nb = relu\n") == 0


def test_check_not_still_finds_excluded_text_between_matches(tmp_path):
    assert filecheck(tmp_path, "CHECK: relu a\nCHECK-NOT: relu\nCHECK: end\n", "relu a\nrelu b\nend\n") == 1
    assert filecheck(tmp_path, "CHECK: a\nCHECK-NOT: relu\n", "a\nrelu\n") == 1  # to the end of the input


def test_spaces_in_a_regex_match_any_blank_run_as_llvm_canonicalizes_them(tmp_path):
    nested = "def f():\n    def f_impl():\n        pass\n"
    assert filecheck(tmp_path, "CHECK: {{^  }}def f_impl(\n", nested) == 0
    assert filecheck(tmp_path, "CHECK: {{^  }}def f(\n", nested) == 1  # `^` and a blank are still required
    assert filecheck(tmp_path, "CHECK: {{[ ]}}f_impl\n", nested) == 0  # a class keeps its space
    assert filecheck(tmp_path, "CHECK: {{^ *}}def f_impl(\n", nested) == 0  # a quantified space


def test_implicit_check_not_fails_on_the_pattern_outside_every_match(tmp_path):
    def run(text: str, *flag: str) -> int:
        (tmp_path / "checks").write_text("CHECK-DAG: add\nCHECK-DAG: mul\n")
        (tmp_path / "input").write_text(text)
        return subprocess.run([FILECHECK,
                               str(tmp_path / "checks"), "--input-file", str(tmp_path / "input"), *flag],
                              capture_output=True).returncode
    assert run("add\nfused\nmul\n") == 0
    assert run("add\nfused\nmul\n", "--implicit-check-not=fused") == 1
    assert run("mul\nadd\nfused\n", "--implicit-check-not", "fused") == 1  # after the last match too
    assert run("add\nmul\n", "--implicit-check-not=fused") == 0


def test_a_bracket_right_after_the_opening_one_is_a_member(tmp_path):
    # POSIX: `[^]]` is anything but `]`, `[]x]` is `]` or `x`
    layout = "<height_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,7)>]>>\n"
    assert filecheck(tmp_path, "CHECK: <height_sharded>{{(, core_ranges = <\\[[^]]*\\]>)?}}>\n", layout) == 0
    assert filecheck(tmp_path, "CHECK: a{{[]x]+}}b\n", "a]x]b\n") == 0
    assert filecheck(tmp_path, "CHECK: a{{[^]]}}b\n", "a]b\n") == 1


def test_a_bracket_inside_a_class_opens_nothing(tmp_path):
    # `[[]` is the class of `[`; `[]x]` and `[^]]` keep a leading `]` as a member
    assert filecheck(tmp_path, "CHECK: dense<{{([[])}}[1, 2]]>\n", "dense<[[1, 2]]>\n") == 0
    assert filecheck(tmp_path, "CHECK: a{{[]x]+}}b\n", "a]x]b\n") == 0
    assert filecheck(tmp_path, "CHECK: <{{[^]]*}}>\n", "<abc>\n") == 0
    assert filecheck(tmp_path, "CHECK: <{{[^]]*}}>\n", "<a]c>\n") == 1
