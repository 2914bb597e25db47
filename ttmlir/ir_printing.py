"""`--mlir-print-ir-before=<passes>`, `--mlir-print-ir-after=<passes>`, `--mlir-print-ir-before-all`,
`--mlir-print-ir-after-all`: the module printed to stderr around the passes named (or every pass), under MLIR's
banner `// -----// IR Dump After <Name> (<flag>) //----- //`.

Every pass, and every stage a pipeline runs, goes through `timing.run_pass`, which calls `dump_if_asked` here before and after it:
so `--mlir-print-ir-after-all` shows a pipeline stage by stage. As in MLIR, where a pipeline is its passes and not a
pass of its own, `-all` does not print around a pipeline itself (naming it in the list does)."""

from __future__ import annotations

import sys
from contextvars import ContextVar
from dataclasses import dataclass, field

# MLIR's own passes, whose names are not their classes' here (xDSL's): the name MLIR prints in the banner
MLIR_NAMES = {"canonicalize": "Canonicalizer", "cse": "CSE"}


@dataclass(frozen=True)
class IRPrinting:
    before: frozenset[str] = frozenset()  # the flags of the passes to print before
    after: frozenset[str] = frozenset()
    before_all: bool = False
    after_all: bool = False
    print_options: dict = field(default_factory=dict)  # print_module's keywords (debuginfo, local scope, generic)

    def wants(self, names: frozenset[str], every: bool, pass_) -> bool:
        return pass_.name in names or (every and not pass_.name.endswith("-pipeline"))

    def dump(self, when: str, pass_, module) -> None:
        from ttmlir.asm import print_module

        name = MLIR_NAMES.get(pass_.name) or type(pass_).__name__.removesuffix("Pass")
        sys.stderr.write(f"// -----// IR Dump {when} {name} ({pass_.name}) //----- //\n"
                         f"{print_module(module, **self.print_options).rstrip()}\n\n")


# what the running tool asked to print; None: nothing (a context variable: a served call prints only its own run)
PRINTING: ContextVar[IRPrinting | None] = ContextVar("ir_printing", default=None)


def dump_if_asked(when: str, pass_, module) -> None:
    """Print the module `when` ("Before" or "After") `pass_` runs, if the running tool asked for it."""
    printing = PRINTING.get()
    if printing is not None and (printing.wants(printing.before, printing.before_all, pass_) if when == "Before"
                                 else printing.wants(printing.after, printing.after_all, pass_)):
        printing.dump(when, pass_, module)
