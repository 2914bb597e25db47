"""`from profiler import *`: `trace(log_dir, port)` profiles every op run inside it (see profiler.py)."""

from profiler.profiler import trace

__all__ = ["trace"]
