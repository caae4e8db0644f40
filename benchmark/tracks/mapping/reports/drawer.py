"""A process forked during a cold session's scoring that imports matplotlib there, and draws the report's
figures when the statistics are ready.

Importing matplotlib takes about a third of a second, and a report that draws its figures cannot start
them before it has. A session without pytest-xdist scores its cases in one process, on one CPU; so, once
its scoring missed the disk cache (the statistics, keyed by the rows, will then be computed too), the
track calls :func:`prepare`, which forks the drawer: it imports matplotlib on an otherwise idle CPU and
waits. The report then hands it the statistics (:meth:`Drawer.draw`), computes the paired comparisons
and the drill-down itself meanwhile, and takes the figures (:meth:`Drawer.figures`), which the drawer
draws side by side in processes it forks (:func:`benchmark.core.forked.run_forked`), with the cyclic
collector paused, as the report would. Figures are pure functions of the statistics, so they are the same
to the byte whichever process draws them. No drawer is forked where forking is unsafe or pointless
(:func:`benchmark.core.forked.can_fork`, one usable CPU).

The drawer is this process's child, and only this process can reap it. When the report is written here,
taking the figures reaps it; when a process forked to write the track's report took it (a session of
several tracks writes each track's report in its own process, :mod:`benchmark.reports`), that process
cannot, so this one ends and reaps the drawer it prepared as it exits (:func:`end_prepared`), or when the
next session prepares another: no drawer outlives the session's process, running or as a zombie.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
from typing import Any

from benchmark.core.forked import can_fork, receive_answer, usable_cpus

#: the drawer prepared, and the session it is for (its track's disk cache object)
_drawer: tuple[object, Drawer] | None = None


def prepare(session: object) -> None:
    """Fork the drawer for ``session`` (the track's disk cache object, one per session), unless there is
    one already or forking is ruled out. A drawer left by another session (in-process sessions of a
    test run) is ended: it holds that session's state, not this one's."""
    global _drawer
    if _drawer is not None and _drawer[0] is session:
        return
    stale = take(None)
    if stale is not None:
        stale.end()
    if usable_cpus() >= 2 and can_fork():
        _drawer = (session, Drawer())
        _end_at_exit()


def take(session: object) -> Drawer | None:
    """The drawer :func:`prepare` forked for ``session`` (once: a drawer draws one report), or None;
    ``None`` takes whichever there is."""
    global _drawer
    if _drawer is None or (session is not None and _drawer[0] is not session):
        return None
    drawer = _drawer[1]
    _drawer = None
    return drawer


def end_prepared() -> None:
    """End the drawer :func:`prepare` forked, if this process still holds it, and reap it: at exit, it
    has either drawn a report for a process forked to write it (which could not reap it) or was never
    used."""
    if _drawer is None or _drawer[1].parent != os.getpid():
        return  # none, or a forked process's inherited copy: the drawer is its sibling, not its child
    drawer = take(None)
    if drawer is not None:
        drawer.end()


_registered = False


def _end_at_exit() -> None:
    """Register :func:`end_prepared` to run at exit, once per process."""
    global _registered
    if not _registered:
        atexit.register(end_prepared)
        _registered = True


class Drawer:
    """The forked drawer, from this process's side."""

    def __init__(self) -> None:
        here, there = multiprocessing.Pipe()
        self.parent = os.getpid()
        self.pid = os.fork()
        if self.pid == 0:  # the drawer: never returns into the code that forked it
            try:
                here.close()
                _serve(there)
            finally:
                os._exit(0)
        there.close()
        self._connection = here

    def draw(self, stats: Any) -> bool:
        """Hand the drawer the statistics to draw; False if it is gone (the caller draws them)."""
        try:
            self._connection.send(stats)
        except OSError:
            self.end()
            return False
        return True

    def figures(self) -> list[Any] | None:
        """The figures, in report order, with the phases their drawing recorded; None if the drawer died
        without an answer (the caller draws them). An exception a figure raised is raised here."""
        try:
            return receive_answer(self._connection)  # type: ignore[no-any-return]
        except (EOFError, OSError):
            return None
        finally:
            self.end()

    def end(self) -> None:
        """Tell a drawer still waiting for statistics to exit (processes forked since hold this end of
        the pipe too, so closing it here is not enough), and reap it."""
        try:
            self._connection.send(None)
        except OSError:  # it has exited already
            pass
        self._connection.close()
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:  # not this process's child (a forked report writer took the drawer)
            pass


def _serve(connection: Any) -> None:
    """In the drawer: import matplotlib, wait for the statistics, draw every figure and send them back."""
    from benchmark.core.forked import child_started, run_forked, send_answer
    from benchmark.core.gcpause import collector_paused
    from benchmark.reports.figures import import_drawing
    from benchmark.tracks.mapping.reports.figures import FIGURES, figure_calls

    import_drawing()
    try:
        stats = connection.recv()
    except (EOFError, OSError):
        return  # never used: the session's process ended
    if stats is None:
        return  # never used: ended
    child_started()
    with collector_paused():  # the processes drawing inherit it, and exit without collecting
        send_answer(connection, lambda: run_forked(figure_calls(stats, FIGURES)))


__all__ = ["Drawer", "prepare", "take"]
