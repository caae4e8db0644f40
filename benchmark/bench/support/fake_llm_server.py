"""A real HTTP server on 127.0.0.1 that speaks just enough of the OpenAI and Anthropic APIs for the tests and
the LLM runner's speed benchmark.

Endpoints: ``POST /v1/chat/completions``, ``POST /v1/messages`` (direct answers); OpenAI's batch flow
(``POST /v1/files``, ``POST /v1/batches``, ``GET /v1/batches/{id}``, ``GET /v1/files/{id}/content``) and
Anthropic's Message Batches (``POST /v1/messages/batches``, ``GET /v1/messages/batches/{id}``,
``GET /v1/messages/batches/{id}/results``). Every request is recorded (method, path, headers, JSON
body), so tests can count what was sent and read the prompts.

Answers come from a script (a queue of :class:`Reply`, consumed in order by the direct endpoints) or,
when the queue is empty, from ``responder(prompt) -> str``, which makes answers depend on the prompt so
that concurrent requests get deterministic answers. ``answer_delay`` slows every answer down (a study
long enough to be interrupted); ``hold_after(n)`` lets the first ``n`` answer requests through and holds
every later one until :meth:`FakeLLMServer.release` (a study interrupted at a known point, whatever the
machine's load); ``peak_in_flight`` is the most answer requests it ever held at once.
"""

from __future__ import annotations

import email.parser
import email.policy
import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted HTTP reply. ``text`` set: a successful answer with that text (wrapped in the shape of
    the endpoint). Otherwise ``status`` with ``body`` (JSON) and ``headers``. ``delay``: sleep first."""

    text: str | None = None
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any

    @property
    def prompt(self) -> str:
        """The user message text of a chat-completions or messages request."""
        messages = self.body.get("messages", []) if isinstance(self.body, dict) else []
        return "\n".join(str(m.get("content")) for m in messages if m.get("role") == "user")


def chat_completion(text: str, *, model: str, request_id: str) -> dict[str, Any]:
    return {
        "id": request_id,
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
    }


def forced_tool(params: Any) -> str | None:
    """The tool a Messages request forces (``tool_choice`` of type ``tool``), or ``None``."""
    choice = params.get("tool_choice") if isinstance(params, dict) else None
    return choice.get("name") if isinstance(choice, dict) and choice.get("type") == "tool" else None


def anthropic_message(text: str, *, model: str, request_id: str, tool: str | None = None) -> dict[str, Any]:
    """A Messages answer: a text block, or, when the request forced ``tool``, a ``tool_use`` block whose
    input is ``text`` read as a JSON object (as the API returns it; a text that is not one comes back as
    ``{"text": ...}``, an input that the answer's schema will not accept)."""
    content: dict[str, Any] = {"type": "text", "text": text}
    if tool is not None:
        try:
            given = json.loads(text)
        except ValueError:
            given = None
        content = {
            "type": "tool_use",
            "id": f"toolu_{request_id}",
            "name": tool,
            "input": given if isinstance(given, dict) else {"text": text},
        }
    return {
        "id": request_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [content],
        "stop_reason": "end_turn" if tool is None else "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 200, "output_tokens": 40},
    }


class FakeLLMServer:
    def __init__(self, responder: Callable[[str], str] | None = None, *, polls_until_done: int = 2) -> None:
        self.responder = responder or (lambda prompt: "[]")
        self.answer_delay = 0.0
        self.in_flight = 0
        self.peak_in_flight = 0
        self.script: deque[Reply] = deque()
        self.requests: list[Recorded] = []
        self.polls_until_done = polls_until_done
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self.files: dict[str, bytes] = {}
        self.openai_batches: dict[str, dict[str, Any]] = {}
        self.anthropic_batches: dict[str, dict[str, Any]] = {}
        self._answered = 0  # answer requests that arrived, for hold_after
        self._hold_after: int | None = None
        self._released = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-llm", daemon=True
        )

    # -- lifecycle ------------------------------------------------------------------------------

    def start(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    # -- holding answers -------------------------------------------------------------------------

    def hold_after(self, count: int) -> None:
        """Answer the first ``count`` answer requests (counted from now) as usual and hold every later one
        (unanswered, its connection open) until :meth:`release`: a client interrupted after ``count``
        answers cannot have received more, however slowly the test that interrupts it runs."""
        with self._lock:
            self._answered, self._hold_after = 0, count
        self._released.clear()

    def release(self) -> None:
        """Let the held answer requests (and every later one) through."""
        self._released.set()

    def _wait_if_held(self) -> None:
        with self._lock:
            self._answered += 1
            held = self._hold_after is not None and self._answered > self._hold_after
        if held:
            self._released.wait(timeout=120)  # a test that never releases does not hang forever

    # -- script ---------------------------------------------------------------------------------

    def enqueue(self, *replies: Reply | str) -> None:
        for reply in replies:
            self.script.append(Reply(text=reply) if isinstance(reply, str) else reply)

    def count(self, path_prefix: str = "/") -> int:
        with self._lock:
            return sum(1 for r in self.requests if r.path.startswith(path_prefix))

    def answer_requests(self) -> list[Recorded]:
        with self._lock:
            return [r for r in self.requests if r.path in ("/v1/chat/completions", "/v1/messages")]

    def _next_id(self, prefix: str) -> str:
        return f"{prefix}_{next(self._ids):04d}"

    def _next_reply(self, prompt: str) -> Reply:
        with self._lock:
            if self.script:
                return self.script.popleft()
        return Reply(text=self.responder(prompt))

    # -- routing --------------------------------------------------------------------------------

    def handle(
        self, method: str, path: str, headers: dict[str, str], raw: bytes
    ) -> tuple[int, dict[str, str], bytes, float]:
        body: Any = None
        content_type = headers.get("content-type", "")
        if raw and content_type.startswith("application/json"):
            body = json.loads(raw)
        recorded = Recorded(method, path, headers, body)
        with self._lock:
            self.requests.append(recorded)
        if method == "POST" and path == "/v1/chat/completions":
            reply = self._next_reply(recorded.prompt)
            return self._answer(
                reply, lambda text, rid: chat_completion(text, model=body["model"], request_id=rid)
            )
        if method == "POST" and path == "/v1/messages":
            reply = self._next_reply(recorded.prompt)
            return self._answer(
                reply,
                lambda text, rid: anthropic_message(
                    text, model=body["model"], request_id=rid, tool=forced_tool(body)
                ),
            )
        if method == "POST" and path == "/v1/files":
            return self._json(200, self._upload(content_type, raw))
        if method == "POST" and path == "/v1/batches":
            return self._json(200, self._create_openai_batch(body))
        if method == "GET" and path.startswith("/v1/batches/"):
            batch_id = path.rsplit("/", 1)[1]
            if batch_id not in self.openai_batches:
                return self._json(404, {"error": {"message": f"No batch found with id '{batch_id}'."}})
            return self._json(200, self._poll_openai_batch(batch_id))
        if method == "GET" and path.startswith("/v1/files/") and path.endswith("/content"):
            file_id = path.split("/")[3]
            return 200, {"content-type": "application/octet-stream"}, self.files[file_id], 0.0
        if method == "POST" and path == "/v1/messages/batches":
            return self._json(200, self._create_anthropic_batch(body))
        if method == "GET" and path.startswith("/v1/messages/batches/") and path.endswith("/results"):
            return (
                200,
                {"content-type": "application/binary"},
                self._anthropic_results(path.split("/")[4]),
                0.0,
            )
        if method == "GET" and path.startswith("/v1/messages/batches/"):
            return self._json(200, self._poll_anthropic_batch(path.rsplit("/", 1)[1]))
        return self._json(404, {"error": {"type": "not_found_error", "message": f"no route {method} {path}"}})

    def _answer(
        self, reply: Reply, wrap: Callable[[str, str], dict[str, Any]]
    ) -> tuple[int, dict[str, str], bytes, float]:
        if reply.text is not None:
            status, payload = 200, wrap(reply.text, self._next_id("resp"))
            reply = Reply(text=reply.text, headers=reply.headers, delay=reply.delay or self.answer_delay)
        else:
            status, payload = (
                reply.status,
                reply.body if reply.body is not None else {"error": {"message": "scripted"}},
            )
        code, headers, data, _ = self._json(status, payload)
        return code, {**headers, **reply.headers}, data, reply.delay

    @staticmethod
    def _json(status: int, payload: Any) -> tuple[int, dict[str, str], bytes, float]:
        return status, {"content-type": "application/json"}, json.dumps(payload).encode(), 0.0

    # -- OpenAI batch flow ------------------------------------------------------------------------

    def _upload(self, content_type: str, raw: bytes) -> dict[str, Any]:
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + raw
        )
        content = b""
        purpose = None
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            if name == "file":
                content = part.get_payload(decode=True)
            elif name == "purpose":
                purpose = part.get_payload(decode=True).decode()
        file_id = self._next_id("file")
        self.files[file_id] = content
        return {
            "id": file_id,
            "object": "file",
            "bytes": len(content),
            "created_at": 1_700_000_000,
            "filename": "upload.jsonl",
            "purpose": purpose,
            "status": "processed",
        }

    def _openai_batch_json(self, batch: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": batch["id"],
            "object": "batch",
            "endpoint": batch["endpoint"],
            "input_file_id": batch["input_file_id"],
            "completion_window": "24h",
            "created_at": 1_700_000_000,
            "status": batch["status"],
            "output_file_id": batch.get("output_file_id"),
            "error_file_id": None,
            "request_counts": {"total": batch["total"], "completed": batch["completed"], "failed": 0},
        }

    def _create_openai_batch(self, body: dict[str, Any]) -> dict[str, Any]:
        batch = {
            "id": self._next_id("batch"),
            "endpoint": body["endpoint"],
            "input_file_id": body["input_file_id"],
            "status": "validating",
            "polls": 0,
            "total": len(self.files[body["input_file_id"]].splitlines()),
            "completed": 0,
        }
        self.openai_batches[batch["id"]] = batch
        return self._openai_batch_json(batch)

    def _poll_openai_batch(self, batch_id: str) -> dict[str, Any]:
        batch = self.openai_batches[batch_id]
        batch["polls"] += 1
        if batch["polls"] >= self.polls_until_done and batch["status"] != "completed":
            lines = []
            for line in self.files[batch["input_file_id"]].decode().splitlines():
                item = json.loads(line)
                prompt = "\n".join(m["content"] for m in item["body"]["messages"] if m["role"] == "user")
                text = self.responder(prompt)
                completion = chat_completion(
                    text, model=item["body"]["model"], request_id=self._next_id("resp")
                )
                lines.append(
                    json.dumps(
                        {
                            "id": self._next_id("batch_req"),
                            "custom_id": item["custom_id"],
                            "response": {"status_code": 200, "request_id": "r", "body": completion},
                            "error": None,
                        }
                    )
                )
            output_id = self._next_id("file")
            self.files[output_id] = ("\n".join(lines) + "\n").encode()
            batch.update(status="completed", output_file_id=output_id, completed=len(lines))
        elif batch["status"] == "validating":
            batch["status"] = "in_progress"
        return self._openai_batch_json(batch)

    # -- Anthropic Message Batches -----------------------------------------------------------------

    def _anthropic_batch_json(self, batch: dict[str, Any]) -> dict[str, Any]:
        ended = batch["status"] == "ended"
        total = len(batch["requests"])
        return {
            "id": batch["id"],
            "type": "message_batch",
            "processing_status": batch["status"],
            "request_counts": {
                "processing": 0 if ended else total,
                "succeeded": total if ended else 0,
                "errored": 0,
                "canceled": 0,
                "expired": 0,
            },
            "created_at": "2024-01-01T00:00:00Z",
            "expires_at": "2024-01-02T00:00:00Z",
            "ended_at": "2024-01-01T01:00:00Z" if ended else None,
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": f"{self.url}/v1/messages/batches/{batch['id']}/results" if ended else None,
        }

    def _create_anthropic_batch(self, body: dict[str, Any]) -> dict[str, Any]:
        batch = {
            "id": self._next_id("msgbatch"),
            "status": "in_progress",
            "polls": 0,
            "requests": body["requests"],
        }
        self.anthropic_batches[batch["id"]] = batch
        return self._anthropic_batch_json(batch)

    def _poll_anthropic_batch(self, batch_id: str) -> dict[str, Any]:
        batch = self.anthropic_batches[batch_id]
        batch["polls"] += 1
        if batch["polls"] >= self.polls_until_done:
            batch["status"] = "ended"
        return self._anthropic_batch_json(batch)

    def _anthropic_results(self, batch_id: str) -> bytes:
        lines = []
        for item in self.anthropic_batches[batch_id]["requests"]:
            params = item["params"]
            prompt = "\n".join(m["content"] for m in params["messages"] if m["role"] == "user")
            message = anthropic_message(
                self.responder(prompt),
                model=params["model"],
                request_id=self._next_id("msg"),
                tool=forced_tool(params),
            )
            lines.append(
                json.dumps(
                    {"custom_id": item["custom_id"], "result": {"type": "succeeded", "message": message}}
                )
            )
        return ("\n".join(lines) + "\n").encode()

    # -- HTTP plumbing ----------------------------------------------------------------------------

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
                pass

            def _serve(self, method: str) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                headers = {k.lower(): v for k, v in self.headers.items()}
                path = self.path.split("?", 1)[0]
                answering = path in ("/v1/chat/completions", "/v1/messages")
                if answering:
                    with server._lock:
                        server.in_flight += 1
                        server.peak_in_flight = max(server.peak_in_flight, server.in_flight)
                try:
                    status, reply_headers, data, delay = server.handle(method, path, headers, raw)
                    if answering:  # recorded (handle), then held, as a request the server is working on
                        server._wait_if_held()
                    if delay:
                        time.sleep(delay)
                finally:
                    if answering:
                        with server._lock:
                            server.in_flight -= 1
                try:
                    self.send_response(status)
                    for name, value in reply_headers.items():
                        self.send_header(name, value)
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                self._serve("GET")

            def do_POST(self) -> None:  # noqa: N802
                self._serve("POST")

        return Handler
