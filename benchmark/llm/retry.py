"""When to try again and how long to wait: exponential backoff with jitter, ``Retry-After`` first.

Retried: HTTP 408, 409, 429, 5xx (and Anthropic's 529 "overloaded"), timeouts and connection errors.
Not retried: other 4xx (a bad request stays bad). A server's ``Retry-After`` (or ``retry-after-ms``) is
obeyed as given up to :attr:`RetryPolicy.max_retry_after` (the provider's ``max_retry_after``); a longer
one is not waited for at all: the engine fails that request as missing (reason ``rate-limit``) instead of
freezing the call for it (inspect_ai #5137). Otherwise attempt *n* waits
``min(max_delay, base_delay * 2**(n-1))`` scaled by a random factor in [0.5, 1] so that parallel workers
do not retry in lockstep. The SDKs' own retries are switched off (``max_retries=0``) so that this policy
is the only one, and what the statistics count is what happened.
"""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 520, 522, 524, 529})
FATAL_STATUS = frozenset({401, 403})  # the same for every request: stop the whole session


@dataclass
class RetryPolicy:
    max_attempts: int = 5
    base_delay: float = 1.0
    max_delay: float = 60.0
    max_retry_after: float = 120.0
    rng: random.Random = field(default_factory=random.Random)

    def backoff(self, attempt: int) -> float:
        """Delay after failed attempt number ``attempt`` (1-based) when the server named none."""
        ceiling = min(self.max_delay, self.base_delay * 2 ** (attempt - 1))
        return ceiling * (0.5 + 0.5 * self.rng.random())

    def too_long(self, retry_after: float | None) -> bool:
        """Whether the server asks for a longer wait than this policy grants (fail instead of waiting)."""
        return retry_after is not None and retry_after > self.max_retry_after

    def delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_retry_after)
        return self.backoff(attempt)


def is_retryable_status(status: int) -> bool:
    return status in RETRYABLE_STATUS or status >= 500


def parse_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date); else None."""
    if not headers:
        return None
    lowered = {str(k).lower(): str(v) for k, v in headers.items()}
    milliseconds = lowered.get("retry-after-ms")
    if milliseconds is not None:
        try:
            return max(float(milliseconds) / 1000.0, 0.0)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if moment is None:
        return None
    return max(moment.timestamp() - time.time(), 0.0)
