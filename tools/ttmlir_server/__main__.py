"""`python -m ttmlir_server --socket PATH`: serve the tools until idle (see the package's docstring)."""

import argparse

from ttmlir_server import ENVIRONMENT, serve

parser = argparse.ArgumentParser(prog="python -m ttmlir_server", description=(
    "Serve ttmlir-opt, ttmlir-translate, FileCheck and ttrt from one warm process: set "
    f"{ENVIRONMENT}=PATH where the tools run and each call forks from it instead of importing the compiler."))
parser.add_argument("--socket", required=True, help="the Unix socket to listen on")
parser.add_argument("--idle-timeout", type=float, default=900.0,
                    help="seconds without a call after which the server exits (default 900)")
args = parser.parse_args()
serve(args.socket, args.idle_timeout)
