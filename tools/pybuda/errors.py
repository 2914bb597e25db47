"""The error every refusal raises, kept below the rest of the package so `pybuda._C` (which `pybuda.config` imports)
can refuse too."""


class PyBudaError(RuntimeError):
    """A request this build cannot honour; the message is one line saying what and what is supported."""
