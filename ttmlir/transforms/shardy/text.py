"""Shardy attributes written as text (in frontend attributes and user rules), parsed as the IR parser reads them."""

from __future__ import annotations

from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import ParseError

from ttmlir.errors import PassFailure


def parse_attr(text: str, where: Operation) -> Attribute:
    from ttmlir.asm import TTParser
    from ttmlir.dialects import make_context

    try:
        return TTParser(make_context(), text).parse_attribute()
    except ParseError:
        raise PassFailure(where, f"failed to parse shardy text '{text}'") from None
