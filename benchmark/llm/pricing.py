"""What a provider's tokens cost, as the configuration says (``[providers.NAME.price]``), and nothing else.

Prices are never guessed or shipped with the code: they change, differ per account and contract, and a
cost column built on a stale table would look exact while being wrong. So a price is what the user wrote,
with the date it was taken (and, optionally, where), and a provider without one has no cost: blank, never
0 (inspect_ai refuses to start a cost-limited run on a model without a price; so does ``--max-cost``).
A local server costs nothing in tokens; saying so needs a reason (``reason = "local"``), so that a 0 in a
table is always a statement, never a default.

    [providers.OpenAI.price]
    input_per_million = 2.50      # USD per million input (prompt) tokens
    output_per_million = 10.00    # USD per million output (completion) tokens
    date = 2025-06-01             # when the price was taken (a TOML date, or "YYYY-MM-DD")
    source = "https://..."        # optional: where

    [providers.LlamaCpp.price]
    input_per_million = 0
    output_per_million = 0
    reason = "local"              # required for a zero price
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmark.core.errors import ConfigurationError
from benchmark.core.wording import word

PRICE_KEYS = ("input_per_million", "output_per_million", "date", "source", "reason")
COST_DECIMALS = 8  # a millionth of a cent: below any price step, above float noise


@dataclass(frozen=True)
class Price:
    """USD per million tokens, in and out, and when (or why) that is the price."""

    input_per_million: float
    output_per_million: float
    date: str | None = None
    source: str | None = None
    reason: str | None = None  # why a zero price is zero ("local")

    @property
    def free(self) -> bool:
        return self.input_per_million == 0 and self.output_per_million == 0

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        """The USD cost of one request's tokens, rounded to :data:`COST_DECIMALS` places."""
        raw = (input_tokens * self.input_per_million + output_tokens * self.output_per_million) / 1_000_000
        return round(raw, COST_DECIMALS)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "inputPerMillion": self.input_per_million,
            "outputPerMillion": self.output_per_million,
        }
        for key, value in (("date", self.date), ("source", self.source), ("reason", self.reason)):
            if value is not None:
                data[key] = value
        return data


def parse_price(entry: Any, *, source: Path, field: str) -> Price:
    """A ``price`` table, checked: both prices (numbers >= 0), a ``date`` for a price that is not zero,
    a ``reason`` for one that is."""
    if not isinstance(entry, Mapping):
        raise ConfigurationError("must be a table", file=source, field=field)
    unknown = set(entry) - set(PRICE_KEYS)
    if unknown:
        raise ConfigurationError(
            f"unknown {word(len(unknown), 'key')} {', '.join(sorted(unknown))};"
            f" allowed: {', '.join(PRICE_KEYS)}",
            file=source,
            field=field,
        )
    prices = []
    for key in ("input_per_million", "output_per_million"):
        if key not in entry:
            raise ConfigurationError(
                "missing required key (USD per million tokens)", file=source, field=f"{field}.{key}"
            )
        value = entry[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise ConfigurationError(
                "must be a number >= 0 (USD per million tokens)", file=source, field=f"{field}.{key}"
            )
        prices.append(float(value))
    date = _date(entry.get("date"), source, f"{field}.date")
    texts = {}
    for key in ("source", "reason"):
        value = entry.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ConfigurationError("must be a non-empty string", file=source, field=f"{field}.{key}")
        texts[key] = value
    price = Price(prices[0], prices[1], date=date, source=texts["source"], reason=texts["reason"])
    if price.free and price.reason is None:
        raise ConfigurationError(
            'a zero price needs a reason (e.g. reason = "local"): a 0 in a cost column must be a statement',
            file=source,
            field=f"{field}.reason",
        )
    if not price.free and price.date is None:
        raise ConfigurationError(
            "a price needs the date it was taken (date = YYYY-MM-DD): prices change",
            file=source,
            field=f"{field}.date",
        )
    return price


def _date(value: Any, source: Path, field: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, _dt.date) and not isinstance(value, _dt.datetime):
        return value.isoformat()
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        try:
            return _dt.date.fromisoformat(value).isoformat()
        except ValueError:
            pass
    raise ConfigurationError("must be a date (YYYY-MM-DD)", file=source, field=field)


__all__ = ["COST_DECIMALS", "PRICE_KEYS", "Price", "parse_price"]
