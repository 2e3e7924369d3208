"""Secret keys for a run: the user's key (file or environment) or a random one per run,
per-patient keys derived from it, and the cipher of reversible mappings.

The key never leaves memory: the manifest records where it came from and, for a user's
key, a fingerprint (a keyed hash that tells keys apart without revealing them).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

import typer

KEY_ENV = "SPACY_DEID_KEY"
# Shorter keys are accepted with a warning: they could be guessed from a fingerprint.
MIN_KEY_CHARS = 16
RANDOM, FILE, ENVIRONMENT = "random", "file", "environment"


def _hmac(key: str, *parts: str) -> str:
    message = "\x1f".join(parts).encode("utf-8")
    return hmac.new(key.encode("utf-8"), message, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class RunKey:
    """The secret key of a run and where it came from (`file`, `environment`, `random`)."""

    value: str
    source: str

    @property
    def fingerprint(self) -> str | None:
        """A short keyed hash that identifies a user's key (None for a random key, which
        nobody can use again)."""
        return None if self.source == RANDOM else _hmac(self.value, "fingerprint")[:16]

    def for_patient(self, patient: str | None) -> str:
        """The key for one patient's documents: HMAC(key, patient id). Documents of one
        patient share surrogates and date shift; other patients' keys are independent.
        Without a patient id, the run key itself."""
        if patient is None:
            return self.value
        return _hmac(self.value, "patient", patient.strip())

    def patient_ref(self, patient: str | None) -> str | None:
        """A pseudonym of a patient id for the manifest (keyed, so it cannot be traced
        back without the key), telling which documents were treated as one patient's."""
        return None if patient is None else _hmac(self.value, "patient-ref", patient.strip())[:12]


def new_key() -> str:
    """A random key of 256 bits (URL-safe text, so it fits a file or an environment variable)."""
    return secrets.token_urlsafe(32)


def load_key(key_file: Path | None, key_env: str = KEY_ENV, required: bool = False) -> RunKey:
    """The key from `key_file`, else from the environment variable `key_env`, else (when
    not `required`) a random key for this run only."""
    if key_file is not None:
        try:
            raw = key_file.read_bytes().strip()
        except OSError as error:
            raise typer.BadParameter(
                f"cannot read the key file {key_file}: {error.strerror}", param_hint="--key-file"
            ) from None
        if not raw:
            raise typer.BadParameter(f"the key file {key_file} is empty", param_hint="--key-file")
        try:
            value = raw.decode("utf-8")
        except UnicodeDecodeError:
            value = raw.hex()
        key = RunKey(value, FILE)
    elif os.environ.get(key_env, "").strip():
        key = RunKey(os.environ[key_env].strip(), ENVIRONMENT)
    elif required:
        raise typer.BadParameter(
            f"this needs the secret key: give --key-file or set the environment variable "
            f"{key_env} (make one with `spacy-deid keygen`)",
            param_hint="--key-file",
        )
    else:
        return RunKey(new_key(), RANDOM)
    if len(key.value) < MIN_KEY_CHARS:
        typer.echo(
            f"Warning: the secret key has fewer than {MIN_KEY_CHARS} characters; "
            "use `spacy-deid keygen` for a strong one.",
            err=True,
        )
    return key


def mapping_cipher(key: RunKey):
    """A Fernet cipher (from `cryptography`) with a key derived from the run key, for the
    reversible mappings; a clear error when `cryptography` is not installed."""
    try:
        from cryptography.fernet import Fernet
    except ImportError:
        raise typer.BadParameter(
            "reversible mappings are encrypted with the `cryptography` package, which is "
            "not installed; install it with `pip install spacy-deid[cli]`",
            param_hint="--reversible",
        ) from None
    derived = hmac.new(key.value.encode("utf-8"), b"spacy-deid mapping v1", hashlib.sha256)
    return Fernet(base64.urlsafe_b64encode(derived.digest()))
