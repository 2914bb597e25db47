"""TTNN to EmitPy (Python against the ttnn library): `--convert-ttnn-to-emitpy`."""
