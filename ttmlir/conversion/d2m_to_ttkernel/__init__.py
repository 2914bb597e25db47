"""D2M programs to TTKernel kernel bodies: data-movement and compute threads."""
