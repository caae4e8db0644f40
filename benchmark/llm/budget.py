"""``--max-cost USD`` and ``--max-requests N``: a cap on what one ``generate`` call may send.

Before each HTTP attempt the engine asks :meth:`Budget.reserve` for the attempt's worst case: one request,
and (with ``--max-cost``) the prompt's cost plus ``max_tokens`` of output at the provider's price. The
reservation is refused when the money already spent, plus what requests in flight may still cost, plus
this worst case, could cross the cap; the call then stops sending (requests in flight finish and are
filed), and every request not sent becomes a missing run with the reason ``budget``, which the next call
fills in (answers already paid for are replayed from the cache, not bought again). When an answer
arrives, its reservation is replaced by its real cost (:meth:`Budget.settle`); an attempt that failed is
settled at 0 (the provider reported nothing to price).

A cost cap needs a price for every provider of the call (:func:`missing_prices`), like inspect_ai's
``--cost-limit``: without one the worst case is unknown and the cap would not hold.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reservation:
    cost: float
    settled: bool = False


@dataclass
class Budget:
    """One per ``generate`` call, shared by every track, provider and pass of it (thread-safe)."""

    max_cost: float | None = None
    max_requests: int | None = None
    spent: float = 0.0
    requests: int = 0
    _in_flight: float = 0.0
    _stopped: str | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def limited(self) -> bool:
        return self.max_cost is not None or self.max_requests is not None

    @property
    def stopped(self) -> str | None:
        """Why the call stopped sending (the first refusal), or ``None``."""
        return self._stopped

    def reserve(self, worst_cost: float | None) -> Reservation | str:
        """A reservation for one more attempt costing at most ``worst_cost`` USD, or why it is refused.

        ``worst_cost`` may be ``None`` only without ``--max-cost`` (the caller checks prices up front).
        Once one attempt is refused, every later one is too: the call stops, it does not pick cheaper
        requests around the cap (the runs left out would depend on the order of requests).
        """
        with self._lock:
            if self._stopped is not None:
                return self._stopped
            if self.max_requests is not None and self.requests + 1 > self.max_requests:
                self._stopped = f"budget: --max-requests {self.max_requests} reached ({self.requests} sent)"
                return self._stopped
            cost = worst_cost or 0.0
            if self.max_cost is not None:
                if worst_cost is None:  # unreachable after missing_prices(); refuse rather than overspend
                    self._stopped = "budget: --max-cost is set but this request has no price"
                    return self._stopped
                if self.spent + self._in_flight + cost > self.max_cost:
                    self._stopped = (
                        f"budget: the next request could cross --max-cost {self.max_cost:g} USD "
                        f"(spent {self.spent:.6f} USD, in flight up to {self._in_flight:.6f}, "
                        f"this request up to {cost:.6f})"
                    )
                    return self._stopped
            self.requests += 1
            self._in_flight += cost
            return Reservation(cost)

    def settle(self, reservation: Reservation, actual_cost: float | None) -> None:
        """Replace a reservation by what the attempt really cost (``None``: unknown, counted as 0)."""
        with self._lock:
            if reservation.settled:
                return
            reservation.settled = True
            self._in_flight = max(0.0, self._in_flight - reservation.cost)
            self.spent += actual_cost or 0.0

    def stop(self, reason: str) -> None:
        with self._lock:
            if self._stopped is None:
                self._stopped = reason

    def to_json(self) -> dict[str, Any]:
        return {
            "maxCost": self.max_cost,
            "maxRequests": self.max_requests,
            "spentUsd": round(self.spent, 8),
            "requests": self.requests,
            "stopped": self._stopped,
        }


def missing_prices(configs: Iterable[Any]) -> list[str]:
    """The names of the providers without a configured price (``--max-cost`` refuses to start)."""
    return sorted({config.name for config in configs if getattr(config, "price", None) is None})


__all__ = ["Budget", "Reservation", "missing_prices"]
