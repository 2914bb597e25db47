"""Corrupted binaries and TTNN text: every case ends in success or one located error line with exit 1.

`.ttnn` bytes go into `ttrt read`, `check` and `run`: a changed byte fails the checksum, so none of these runs.
Re-sealed mutations (a buggy writer: wrong bytes, right checksum) test the structural checks behind it. TTNN
text goes into `ttmlir-translate`. In-process, seeded: ~1,600 cases in a few seconds.
"""

import random
from pathlib import Path

import pytest
import ttmlir_translate
import ttrt

from fuzzing import mutate
from ttmlir.asm import print_module
from ttmlir.compiler import compile_ttir, lower_to_ttnn
from ttmlir.target import flatbuffer as fbu

ROOT = Path(__file__).resolve().parents[3]
MLP = (ROOT / "examples" / "mlp.mlir").read_text()


@pytest.fixture(scope="module")
def binary() -> bytes:
    return compile_ttir(MLP)


def mutate_bytes(data: bytes, rng: random.Random) -> bytearray:
    out = bytearray(data)
    kind = rng.randrange(4)
    if kind == 0:
        return out[:rng.randrange(len(out))]  # truncated
    if kind == 1:  # a 32-bit word overwritten, as a stray store would
        pos = rng.randrange(len(out) - 4)
        out[pos:pos + 4] = rng.randbytes(4)
        return out
    for _ in range(rng.randint(1, 8 if kind == 2 else 1)):  # scattered bytes, or one bit
        pos = rng.randrange(len(out))
        out[pos] = rng.randrange(256) if kind == 2 else out[pos] ^ (1 << rng.randrange(8))
    return out


def run_tool(main, argv: list[str], capfd) -> tuple[int, list[str]]:
    code = main(argv)
    captured = capfd.readouterr()
    return code, (captured.out + captured.err).splitlines()


def assert_clean(code: int, lines: list[str]) -> None:
    text = "\n".join(lines)
    assert code in (0, 1), text
    assert "Traceback" not in text and "internal error" not in text, text


@pytest.mark.parametrize("command", ["read", "check", "run"])
def test_a_changed_byte_is_refused_by_every_reader(binary, tmp_path, capfd, command):
    rng = random.Random(command)
    path = tmp_path / "fuzz.ttnn"
    for i in range(150):
        mutated = mutate_bytes(binary, rng)
        if mutated == binary:
            continue
        path.write_bytes(mutated)
        code, lines = run_tool(ttrt.main, [command, str(path), "--result-file", str(tmp_path / "r.json"),
                                           "--artifact-dir", str(tmp_path / "a")], capfd)
        assert_clean(code, lines)
        assert code == 1, f"case {i}: a corrupted binary was accepted by ttrt {command}"
        errors = [line for line in lines if "ERROR" in line or "error" in line]
        assert errors and str(path) in errors[0], lines


def test_resealed_mutations_run_or_are_refused(binary, tmp_path, capfd):
    """Bytes changed and the checksum recomputed: the loader's field checks and the runtime's own errors stand
    between such a file and a crash."""
    rng = random.Random(11)
    path = tmp_path / "fuzz.ttnn"
    outcomes = {0: 0, 1: 0}
    for _ in range(150):
        mutated = mutate_bytes(binary, rng)
        try:
            fbu.seal(mutated)
        except fbu.BinaryError:
            pass  # the root table itself is gone: an ordinary corrupted file
        path.write_bytes(mutated)
        code, lines = run_tool(ttrt.main, ["run", str(path), "--result-file", str(tmp_path / "r.json"),
                                           "--artifact-dir", str(tmp_path / "a")], capfd)
        assert_clean(code, lines)
        outcomes[code] += 1
    assert outcomes[1] > 50


def test_mutated_ttnn_text_is_translated_or_diagnosed(tmp_path, capfd):
    text = print_module(lower_to_ttnn(MLP))
    rng = random.Random(5)
    source, out = tmp_path / "fuzz.mlir", tmp_path / "out.ttnn"
    for _ in range(200):
        source.write_text(mutate(text, rng))
        out.unlink(missing_ok=True)
        code, lines = run_tool(ttmlir_translate.main, ["--ttnn-to-flatbuffer", str(source), "-o", str(out)], capfd)
        assert_clean(code, lines)
        if code:
            assert lines and "error:" in lines[0] and not out.exists(), lines
            assert lines[0].startswith(str(source)) or lines[0].startswith("loc("), lines[0]
        else:
            fbu.load(out, expect="ttnn")  # what was written reads back
