"""Run program 0 of each `.ttnn` given and save every chip's value of every output (`torch.save`) to its OUT: in
one process, or as one rank of tt-run (then every rank simulates its own chips and the rank holding chip 0
writes the files).

usage: python run_mesh_program.py BINARY OUT [BINARY OUT ...]
"""

import sys

import torch

from ttmlir.runtime import distributed
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.runtime.session import make_inputs, own_chips


def run(binary_path: str, out: str, seed: int = 0) -> None:
    binary = Binary(binary_path)
    device = distributed.open_mesh(binary.arch(), binary.mesh_shape())
    inputs = own_chips(device, make_inputs(binary, 0, "randn", seed))
    outputs, _ = device.lockstep(lambda: run_program(binary, 0, inputs, device))
    values = [device.gather(tensor) for tensor in outputs]
    if distributed.is_root():
        torch.save(values, out)


if __name__ == "__main__":
    for binary_path, out in zip(sys.argv[1::2], sys.argv[2::2]):
        run(binary_path, out)
