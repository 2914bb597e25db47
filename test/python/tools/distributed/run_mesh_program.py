"""Run program 0 of each `.ttnn` given and save every chip's value of every output (`torch.save`) to its OUT: in
one process, or as one rank of tt-run (then every rank simulates its own chips and the rank holding chip 0
writes the files). With `--rss FILE`, that rank also writes every rank's peak resident memory in bytes (a JSON
list in rank order) once the programs have run.

usage: python run_mesh_program.py [--rss FILE] BINARY OUT [BINARY OUT ...]
"""

import json
import resource
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


def report_peak_memory(path: str) -> None:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB
    ctx = distributed.context()
    everyone = ctx.comm.gather(peak, root=ctx.owner[0]) if ctx is not None else [peak]
    if distributed.is_root():
        with open(path, "w") as f:
            json.dump(everyone, f)


if __name__ == "__main__":
    args = sys.argv[1:]
    rss = None
    if args[:1] == ["--rss"]:
        rss, args = args[1], args[2:]
    for binary_path, out in zip(args[::2], args[1::2]):
        run(binary_path, out)
    if rss is not None:
        report_peak_memory(rss)
