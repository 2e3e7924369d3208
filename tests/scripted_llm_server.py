"""A real HTTP server on 127.0.0.1 that speaks OpenAI chat-completions with scripted answers.

Used by the translation tests: no network beyond the loopback interface. Each
document's script is chosen by a key that occurs in the prompt (e.g. a word of the
source text), so the order in which spacy-llm sends prompts does not matter.
A script step is the answer text, a function of the prompt giving the answer text,
an HTTP status code (int), or `Stall(seconds)`, which holds the connection open
without answering (a timeout for the client). The last step repeats.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Stall:
    """Answer nothing for `seconds` (longer than the client's timeout)."""

    seconds: float


class ScriptedLLMServer(ThreadingHTTPServer):
    """Serves `POST /v1/chat/completions`; records every request body and its headers."""

    daemon_threads = True

    def __init__(self, scripts: dict[str, list[object]]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.scripts = {key: list(steps) for key, steps in scripts.items()}
        self.requests: list[dict] = []
        self.headers: list[dict[str, str]] = []
        self.lock = threading.Lock()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def next_step(self, prompt: str) -> object:
        """The next scripted step for the document whose key occurs in `prompt`."""
        with self.lock:
            for key, steps in self.scripts.items():
                if key in prompt:
                    if not steps:
                        return 500
                    return steps.pop(0) if len(steps) > 1 else steps[0]
        return 404

    def prompts_for(self, key: str) -> list[str]:
        """The prompts received that contain `key`, in order."""
        return [body["messages"][-1]["content"] for body in self.requests
                if key in body["messages"][-1]["content"]]


class _Handler(BaseHTTPRequestHandler):
    server: ScriptedLLMServer

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        """Silence the default stderr logging."""

    def do_POST(self) -> None:  # noqa: N802 - stdlib name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with self.server.lock:
            self.server.requests.append(body)
            self.server.headers.append(dict(self.headers))
        if not self.path.endswith("/chat/completions"):
            self._send(404, {"error": {"message": "unknown path"}})
            return
        step = self.server.next_step(body["messages"][-1]["content"])
        if isinstance(step, Stall):
            time.sleep(step.seconds)
            return
        if isinstance(step, int):
            self._send(step, {"error": {"message": f"scripted status {step}"}})
            return
        if callable(step):
            step = step(body["messages"][-1]["content"])
        self._send(200, {"id": "x", "object": "chat.completion", "model": body.get("model"),
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": step}}]})

    def _send(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass


@contextmanager
def scripted_llm_server(scripts: dict[str, list[object]]) -> Iterator[ScriptedLLMServer]:
    """Run a `ScriptedLLMServer` on a free port in a thread for the duration of the block."""
    server = ScriptedLLMServer(scripts)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
