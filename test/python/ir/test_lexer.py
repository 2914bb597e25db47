"""The fast lexer (one regular expression for the common tokens) gives exactly xDSL's token stream."""

import random
from pathlib import Path

import pytest
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from ttmlir.asm import TTLexer

ROOT = Path(__file__).resolve().parents[3]
ALPHABET = list('abcxyz_019.$-#!^%@"\\\n\t {}()[]<>:=,+*?|/é') + ["->", "{-#", "#-}", "0x", "//", "...", "e+"]


def tokens(lexer_class, text: str) -> tuple[list, str | None]:
    lexer, out = lexer_class(Input(text, "t")), []
    try:
        while True:
            token = lexer.lex()
            out.append((token.kind, token.span.start, token.span.end, type(token.span).__name__))
            if token.kind == MLIRTokenKind.EOF:
                return out, None
    except ParseError as error:
        return out, error.msg


LIT_FILES = sorted(p for p in (ROOT / "test" / "lit").rglob("*.mlir") if "Output" not in p.parts)  # lit's own output aside


@pytest.mark.parametrize("path", LIT_FILES[::7], ids=lambda p: p.name)
def test_lit_files_lex_as_xdsl_lexes_them(path):
    text = path.read_text()
    assert tokens(TTLexer, text) == tokens(MLIRLexer, text)


def test_random_text_lexes_as_xdsl_lexes_it():
    rng = random.Random(3)
    for _ in range(5000):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 30)))
        assert tokens(TTLexer, text) == tokens(MLIRLexer, text), repr(text)
