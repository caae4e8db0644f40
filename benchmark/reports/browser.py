"""Open a report page in headless Chromium and say whether it rendered (used by the tests and CI).

Chromium is driven through the DevTools protocol over ``--remote-debugging-pipe`` (JSON messages
separated by NUL bytes on file descriptors 3 and 4), so no WebSocket library and no browser download is
needed: only Debian's ``chromium`` package. The check collects console errors, uncaught exceptions,
failed or non-local requests, the load state of every image, a screenshot, and what does not fit the
window sideways, scrollbars shown as a reader's browser shows them (a 1400 px window leaves 1385 px to
a long page): the page wider than the window, any element that scrolls (or clips) sideways, and any
element that sticks out past the window's right edge or out of ``<main>``; as the page loads, then with
every collapsed row shown and every ``<details>`` open (what a reader can unfold must fit too).
"""

from __future__ import annotations

import base64
import io
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-dev-shm-usage",
    "--mute-audio",
)
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


_TRAMPOLINE = (
    "import os, sys; r, w = int(sys.argv[1]), int(sys.argv[2]); os.dup2(r, 3); os.dup2(w, 4); "
    "os.close(r); os.close(w); os.execvp(sys.argv[3], sys.argv[3:])"
)


class BrowserError(RuntimeError):
    """The browser could not be started or stopped answering."""


def find_chromium() -> str | None:
    """``$ATLBENCH_CHROMIUM`` if set, else the first Chromium on the PATH."""
    configured = os.environ.get("ATLBENCH_CHROMIUM")
    if configured:
        return configured if Path(configured).exists() or shutil.which(configured) else None
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


@dataclass
class PageCheck:
    """What the browser saw. ``ok`` when nothing went wrong and the screenshot is not blank."""

    url: str
    console_errors: list[str] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    images: list[dict[str, Any]] = field(default_factory=list)
    title: str = ""
    counts: dict[str, int] = field(default_factory=dict)
    screenshot: bytes = b""
    distinct_colours: int = 0
    non_white_fraction: float = 0.0
    page_width: int = 0  # the document's scroll width; wider than the window: the page scrolls sideways
    window_width: int = 0  # what the page has of the window: its width less the vertical scrollbar
    sideways: list[str] = field(default_factory=list)  # elements that scroll, clip or stick out sideways

    @property
    def scrolls_sideways(self) -> bool:
        return self.page_width > self.window_width

    @property
    def broken_images(self) -> list[dict[str, Any]]:
        return [i for i in self.images if not i["complete"] or i["naturalWidth"] == 0]

    @property
    def non_local_requests(self) -> list[str]:
        return [u for u in self.requests if not u.startswith(("file:", "data:", "about:"))]

    @property
    def blank(self) -> bool:
        return self.distinct_colours < 16 or self.non_white_fraction < 0.01

    @property
    def problems(self) -> list[str]:
        found = [f"console error: {e}" for e in self.console_errors]
        found += [f"exception: {e}" for e in self.exceptions]
        found += [f"failed request: {u}" for u in self.failed_requests]
        found += [f"network request: {u}" for u in self.non_local_requests]
        found += [f"image not loaded: {i['alt'] or i['src'][:60]}" for i in self.broken_images]
        if self.blank:
            found.append(
                f"blank screenshot ({self.distinct_colours} colours, {self.non_white_fraction:.1%} non-white)"
            )
        if self.scrolls_sideways:
            found.append(
                f"the page scrolls sideways ({self.page_width} px wide in a {self.window_width} px window)"
            )
        found += [f"sideways: {element}" for element in self.sideways]
        return found

    @property
    def ok(self) -> bool:
        return not self.problems


class _Pipe:
    """A DevTools session over the two pipes: send commands, collect events."""

    def __init__(self, to_browser: int, from_browser: int) -> None:
        self._out = os.fdopen(to_browser, "wb", buffering=0)
        self._in = os.fdopen(from_browser, "rb", buffering=0)
        self._next_id = 0
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.events: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = self._in.read(65536)
            except (OSError, ValueError):  # closed by close() while reading
                chunk = b""
            if not chunk:
                self._queue.put(None)
                return
            buffer += chunk
            while b"\0" in buffer:
                message, buffer = buffer.split(b"\0", 1)
                self._queue.put(json.loads(message))

    def send(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        session: str | None = None,
        timeout: float = 30.0,
    ) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self._out.write(json.dumps(message).encode("utf-8") + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._get(deadline, method)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, *, timeout: float = 30.0) -> dict[str, Any]:
        for event in self.events:
            if event.get("method") == method:
                return event
        deadline = time.monotonic() + timeout
        while True:
            event = self._get(deadline, method)
            self.events.append(event)
            if event.get("method") == method:
                return event

    def drain(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                event = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return
            if event is None:
                return
            self.events.append(event)

    def _get(self, deadline: float, waiting_for: str) -> dict[str, Any]:
        try:
            message = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise BrowserError(f"no answer from the browser to {waiting_for}") from None
        if message is None:
            raise BrowserError(f"the browser closed the connection while waiting for {waiting_for}")
        return message

    def close(self) -> None:
        for handle in (self._out, self._in):
            try:
                handle.close()
            except OSError:
                pass


_INSPECT = """JSON.stringify({
  title: document.title,
  images: Array.from(document.images).map(i => ({src: i.src.slice(0, 80), alt: i.alt, complete: i.complete,
    naturalWidth: i.naturalWidth, naturalHeight: i.naturalHeight})),
  counts: {tables: document.querySelectorAll('table').length,
    figures: document.querySelectorAll('figure').length,
    details: document.querySelectorAll('details').length,
    sections: document.querySelectorAll('section').length,
    navTracks: document.querySelectorAll('nav a.track').length,
    navLinks: document.querySelectorAll('nav a').length,
    collapsed: document.querySelectorAll('.long').length,
    hiddenRows: Array.from(document.querySelectorAll('tbody tr')).filter(r => r.offsetParent === null
      && !r.closest('details:not([open])')).length,
    bodyText: document.body.innerText.length},
  pageWidth: document.documentElement.scrollWidth,
  windowWidth: document.documentElement.clientWidth
})"""

_SHOW_ALL = """(() => { document.querySelectorAll('.long > .more').forEach(box => { box.checked = true; });
  return Array.from(document.querySelectorAll('tbody tr')).filter(r => r.offsetParent === null
    && !r.closest('details:not([open])')).length; })()"""

_OPEN_ALL = (
    """document.querySelectorAll('details').forEach(d => { d.open = true; }); document.body.offsetWidth"""
)

# Every rendered element that scrolls or clips sideways (its content wider than its box, overflow not
# visible), and the outermost ones that stick out past the window's right edge or out of <main>'s box
# (not inside a box that scrolls or clips: that box is the one named); a table row and its cells are
# looked at through their table.
_SIDEWAYS = """JSON.stringify((() => {
  const window_ = document.documentElement.clientWidth, main = document.querySelector('main');
  const inner = main ? main.getBoundingClientRect().right - parseFloat(getComputedStyle(main).paddingRight)
    : window_;
  const classes = el => typeof el.className === 'string'
    ? el.className.trim().split(/\\s+/).filter(Boolean) : [];
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
    + classes(el).map(c => '.' + c).join('')
    + ' "' + (el.innerText || el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 50) + '"';
  const found = [], out = new Set(), contained = new Set();  // contained: inside a box that scrolls or clips
  // a table's rows are its table's: not walked one by one (a Zoo page holds 200,000 cells); what a
  // closed <details> holds is not rendered until it opens
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT,
    {acceptNode: n => n.tagName === 'TR' || (n.parentElement.tagName === 'DETAILS' && !n.parentElement.open
      && n.tagName !== 'SUMMARY') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
  for (let el = walker.nextNode(); el; el = walker.nextNode()) {
    const style = getComputedStyle(el);
    if (style.display === 'none' || el.getClientRects().length === 0) continue;
    const inside = contained.has(el.parentElement);
    if (inside || style.overflowX !== 'visible') contained.add(el);
    if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) {
      const how = style.overflowX === 'hidden' || style.overflowX === 'clip' ? 'clips' : 'scrolls';
      found.push(`${name(el)} ${how} sideways (${el.scrollWidth} px of content in ${el.clientWidth} px)`);
    }
    const right = el.getBoundingClientRect().right;
    const limit = main && main.contains(el) && el !== main ? inner : window_;
    if (right > limit + 1 && !inside) {
      out.add(el);
      if (!out.has(el.parentElement)) {
        found.push(`${name(el)} sticks out ${Math.round(right - limit)} px past `
          + (limit === window_ ? `the window (${window_} px)` : `<main> (${Math.round(inner)} px)`));
      }
    }
  }
  return found;
})())"""


def _evaluate(pipe: _Pipe, session: str, expression: str, timeout: float) -> Any:
    """The JSON value an expression that ends in ``JSON.stringify`` returns in the page."""
    reply = pipe.send(
        "Runtime.evaluate",
        {"expression": expression, "returnByValue": True},
        session=session,
        timeout=timeout,
    )
    if "exceptionDetails" in reply:
        raise BrowserError(f"the page's check failed: {reply['exceptionDetails'].get('text', '')}")
    return json.loads(reply["result"]["value"])


def _pixels(png: bytes) -> tuple[int, float]:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        rgb = image.convert("RGB")
        colours: list[tuple[int, tuple[int, int, int]]] = rgb.getcolors(maxcolors=1 << 20) or []  # type: ignore[assignment]
        total = rgb.width * rgb.height
        white = sum(n for n, colour in colours if min(colour) >= 250)
    return len(colours), (total - white) / total if total else 0.0


def check_page(
    path: str | Path,
    *,
    chromium: str | None = None,
    width: int = 1280,
    height: int = 2400,
    timeout: float = 60.0,
) -> PageCheck:
    """Load ``path`` in a fresh headless Chromium profile and report what happened."""
    binary = chromium or find_chromium()
    if binary is None:
        raise BrowserError("no Chromium found (install Debian's chromium package or set ATLBENCH_CHROMIUM)")
    url = Path(path).resolve().as_uri()
    command_read, command_write = os.pipe()
    reply_read, reply_write = os.pipe()
    # move the child's ends above 3 and 4, so that the shell's redirections cannot clobber them
    command_read, reply_write = (_above_four(fd) for fd in (command_read, reply_write))
    with tempfile.TemporaryDirectory(prefix="atlbench-chromium-") as profile:
        # fds 3 and 4 are what --remote-debugging-pipe reads and writes; a tiny Python trampoline puts the
        # pipe ends exactly there, then becomes Chromium.
        process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                _TRAMPOLINE,
                str(command_read),
                str(reply_write),
                binary,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={profile}",
                "--remote-debugging-pipe",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            pass_fds=(command_read, reply_write),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        os.close(command_read)
        os.close(reply_write)
        pipe = _Pipe(command_write, reply_read)
        try:
            return _inspect(pipe, url, width, height, timeout)
        except BrowserError as error:
            raise BrowserError(f"{error}; chromium stderr: {_stderr_tail(process)}") from error
        finally:
            try:
                pipe.send("Browser.close", timeout=5)
            except BrowserError:
                pass
            pipe.close()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stderr:
                process.stderr.close()


def _above_four(fd: int) -> int:
    import fcntl

    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


def _stderr_tail(process: subprocess.Popen[bytes]) -> str:
    if process.poll() is None:
        process.kill()
        process.wait()
    text = process.stderr.read().decode("utf-8", "replace") if process.stderr else ""
    return text[-2000:]


def _inspect(pipe: _Pipe, url: str, width: int, height: int, timeout: float) -> PageCheck:
    target = pipe.send("Target.createTarget", {"url": "about:blank"}, timeout=timeout)["targetId"]
    session = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        pipe.send(f"{domain}.enable", session=session)
    pipe.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        session=session,
    )
    pipe.send("Page.navigate", {"url": url}, session=session, timeout=timeout)
    pipe.wait_for("Page.loadEventFired", timeout=timeout)
    pipe.drain(0.5)  # late console messages and image decoding
    state = _evaluate(pipe, session, _INSPECT, timeout)
    shot = base64.b64decode(
        pipe.send("Page.captureScreenshot", {"format": "png"}, session=session, timeout=timeout)["data"]
    )
    check = PageCheck(
        url=url,
        title=state["title"],
        images=state["images"],
        counts=state["counts"],
        screenshot=shot,
        page_width=state["pageWidth"],
        window_width=state["windowWidth"],
    )
    check.sideways = _evaluate(pipe, session, _SIDEWAYS, timeout)
    shown = pipe.send(
        "Runtime.evaluate", {"expression": _SHOW_ALL, "returnByValue": True}, session=session, timeout=timeout
    )
    check.counts["hiddenRowsWhenShown"] = shown["result"]["value"]
    pipe.send(
        "Runtime.evaluate", {"expression": _OPEN_ALL, "returnByValue": True}, session=session, timeout=timeout
    )
    unfolded = [f"{element} (every row shown, every <details> open)" for element in
                _evaluate(pipe, session, _SIDEWAYS, timeout) if element not in check.sideways]  # fmt: skip
    check.sideways += unfolded
    check.distinct_colours, check.non_white_fraction = _pixels(shot)
    for event in pipe.events:
        if event.get("sessionId") not in (None, session):
            continue
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            check.console_errors.append(
                " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
            )
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            check.console_errors.append(params["entry"].get("text", ""))
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            check.exceptions.append(details.get("exception", {}).get("description", details.get("text", "")))
        elif method == "Network.requestWillBeSent":
            check.requests.append(params["request"]["url"][:120])
        elif method == "Network.loadingFailed":
            check.failed_requests.append(f"{params.get('errorText', '')} ({params.get('requestId')})")
    return check


__all__ = ["CHROMIUM_FLAGS", "BrowserError", "PageCheck", "check_page", "find_chromium"]
