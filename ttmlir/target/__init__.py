"""Flatbuffer targets: schemas (`schema/*.fbs`), generated accessors and MLIR -> flatbuffer translators."""


class TranslateError(Exception):
    """A module a translation cannot write, naming the op at fault (None for the module as a whole)."""

    def __init__(self, op, message: str):
        super().__init__(message)
        self.op = op


class ValueNames:
    """Names of a function's values in emitted source (`v1`, `v2`, ... in order of first use); a value printed
    inline (an expression folded into its use) is written as its text instead."""

    def __init__(self, func):
        self.func = func
        self.names: dict = {}
        self.inline: dict = {}

    def name(self, value) -> str:
        if value in self.inline:
            return self.inline[value]
        if value not in self.names:
            self.names[value] = f"v{len(self.names) + 1}"
        return self.names[value]
