"""TTNN to EmitC (C++ against the ttnn library): `--convert-ttnn-to-emitc`."""
