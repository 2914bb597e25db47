"""`ttrt`: read, query, check, run and profile `.ttnn` binaries on the simulated device."""

from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    from ttrt.common.api import API

    parser = argparse.ArgumentParser(prog="ttrt", description="tt-mlir runtime tool (simulated Wormhole/Blackhole)")
    commands = parser.add_subparsers(dest="command", metavar="{" + ",".join(API.registered_apis) + "}")
    for name, cls in API.registered_apis.items():
        sub = commands.add_parser(name, help=cls.summary, description=cls.summary)
        for arg in cls.all_args():
            if arg.name == "binary":
                sub.add_argument("binary", help=arg.help)
            elif arg.type is bool:
                sub.add_argument(arg.name, action="store_true", help=arg.help)
            else:
                sub.add_argument(arg.name, type=arg.type, default=arg.default, choices=arg.choices,
                                 help=f"{arg.help} (default: {arg.default})")
    return parser


def run(argv: list[str]) -> int:
    from ttrt.common.api import API

    parser = build_parser()
    parsed = parser.parse_args(argv)
    if parsed.command is None:
        parser.print_help()
        return 1
    cls = API.registered_apis[parsed.command]
    args = {a.name: getattr(parsed, a.name.lstrip("-").replace("-", "_")) for a in cls.all_args()}
    code, _ = cls(args=args)()
    return code


def main(argv: list[str] | None = None) -> int:
    try:  # Ctrl-C while the compiler is imported, before `guarded` takes over, is one line too
        from ttmlir.cli import guarded
        from ttmlir.runtime import distributed
    except KeyboardInterrupt:
        print("ttrt: interrupted", file=sys.stderr)
        return 130

    return distributed.finish(guarded("ttrt", lambda: run(sys.argv[1:] if argv is None else argv)))


if __name__ == "__main__":
    raise SystemExit(main())
