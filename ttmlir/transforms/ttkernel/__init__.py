"""Passes within the ttkernel dialect."""
