"""Keeping API keys out of everything written: run files, logs, cache entries, error messages.

Keys are read from the environment and handed to the SDK client only. Anything else that leaves the
process passes through :class:`Redactor`, which replaces every known key value by ``***`` (an SDK error
message may quote the server's response, and a server may echo the key it rejected).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

MASK = "***"
_MIN_SECRET_LENGTH = 6  # shorter values would mask ordinary words; no real key is that short


class Redactor:
    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        self._secrets: list[str] = []
        for secret in secrets:
            self.add(secret)

    def add(self, secret: str | None) -> None:
        if secret and len(secret) >= _MIN_SECRET_LENGTH and secret not in self._secrets:
            self._secrets.append(secret)
            self._secrets.sort(key=len, reverse=True)  # longest first, so a key containing another goes whole

    def text(self, value: str) -> str:
        for secret in self._secrets:
            if secret in value:
                value = value.replace(secret, MASK)
        return value

    def data(self, value: Any) -> Any:
        """A copy of a JSON-like value with every string redacted (keys of dicts included)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(str(k)): self.data(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.data(v) for v in value]
        return value
