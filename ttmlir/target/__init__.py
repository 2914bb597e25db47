"""Flatbuffer targets: schemas (`schema/*.fbs`), generated accessors and MLIR -> flatbuffer translators."""


class TranslateError(Exception):
    """A module a translation cannot write, naming the op at fault (None for the module as a whole)."""

    def __init__(self, op, message: str):
        super().__init__(message)
        self.op = op
