"""Mutations the fuzz tests share: small random edits of IR text."""

import random
import re


TOKENS = ["%", "#", "<", ">", "(", ")", "{", "}", "[", "]", ",", ":", "=", "x", "0", "-1", '"', "loc(",
          "tensor<", "!ttcore.tile<", "#ttnn.ttnn_layout<", "ttir.", "array<i64:", "dense<", "@", "^bb0"]


def mutate(text: str, rng: random.Random) -> str:
    kind = rng.randrange(6)
    pos = rng.randrange(len(text))
    if kind == 0:
        return text[:pos]  # truncated
    if kind == 1:
        return text[:pos] + text[pos + rng.randint(1, 20):]  # bytes dropped
    if kind == 2:
        return text[:pos] + rng.choice(TOKENS) + text[pos:]  # token inserted
    if kind == 3:
        return text[:pos] + chr(rng.randrange(32, 127)) + text[pos + 1:]  # byte flipped
    if kind == 4 and (number := re.compile(r"\d+").search(text, pos)):  # a number (a width, a size) blown up
        return text[:number.start()] + number.group() * rng.randint(2, 8) + text[number.end():]
    other = rng.randrange(len(text))  # a span duplicated elsewhere
    return text[:pos] + text[other:other + rng.randint(1, 40)] + text[pos:]
