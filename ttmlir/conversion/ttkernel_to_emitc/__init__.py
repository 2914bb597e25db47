"""TTKernel to EmitC (kernel C++): `--convert-ttkernel-to-emitc`."""
