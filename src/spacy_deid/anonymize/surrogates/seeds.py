"""Seeded and keyed random generators: the same input and key give the same surrogates."""

from __future__ import annotations

import hashlib
import hmac
import random


def derive_seed(*parts: object, key: str | None = None) -> int:
    """A 64-bit seed from `parts`; keyed (HMAC-SHA256) when `key` is given, else BLAKE2b."""
    message = "\x1f".join(str(part) for part in parts).encode("utf-8")
    if key is not None:
        digest = hmac.new(key.encode("utf-8"), message, hashlib.sha256).digest()
    else:
        digest = hashlib.blake2b(message, digest_size=16).digest()
    return int.from_bytes(digest[:8], "big")


def make_rng(*parts: object, key: str | None = None) -> random.Random:
    """A `random.Random` seeded from `parts` (see `derive_seed`)."""
    return random.Random(derive_seed(*parts, key=key))
