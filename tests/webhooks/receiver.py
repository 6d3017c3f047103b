"""A chat on this machine, for tests: an HTTPS server (a self-signed certificate that the sender
is told to trust through PUSH_CA_BUNDLE) that records each POST's JSON and answers each path as
told, one answer after the other (`answers["/hook"] = [503, 503, 204]`), 204 once told nothing.
An answer with `drip` sends its body without end, `drip` bytes at a time, until the sender hangs
up (a hostile receiver trying to hold a worker or fill its memory)."""

from __future__ import annotations

import json
import ssl
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.push.service import self_signed_certificate


@dataclass
class Received:
    path: str
    headers: dict
    body: dict


@dataclass(frozen=True)
class Answer:
    status: int
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    drip: int = 0  # bytes written at a time, without end, every `pause` seconds
    pause: float = 0.0


class Receiver:
    def __init__(self, folder: Path) -> None:
        self.cert, key = self_signed_certificate(folder)
        self.received: list[Received] = []
        self.answers: dict[str, list[int | Answer]] = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.dripped = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {name.lower(): value for name, value in self.headers.items()}
                with receiver.lock:
                    receiver.received.append(Received(self.path, headers, json.loads(raw)))
                    waiting = receiver.answers.get(self.path) or []
                    answer = waiting.pop(0) if waiting else 204
                if isinstance(answer, int):
                    answer = Answer(answer)
                self.send_response(answer.status)
                for name, value in answer.headers:
                    self.send_header(name, value)
                if answer.drip:
                    self.send_header("Content-Length", str(10**12))
                    self.end_headers()
                    self._drip(answer)
                    return
                self.send_header("Content-Length", str(len(answer.body)))
                self.end_headers()
                self.wfile.write(answer.body)

            def _drip(self, answer: Answer) -> None:
                try:
                    while not receiver.stopping.is_set():
                        self.wfile.write(b"x" * answer.drip)
                        self.wfile.flush()
                        receiver.dripped += answer.drip
                        time.sleep(answer.pause)
                except OSError:  # the sender hung up
                    pass

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert, key)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.origin = f"https://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()

    def url(self, path: str) -> str:
        return self.origin + path

    def to(self, path: str) -> list[Received]:
        with self.lock:
            return [r for r in self.received if r.path == path]
