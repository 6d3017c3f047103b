"""Server CPU, queries and bytes per request, measured inside the bench's gunicorn workers.

A gunicorn configuration file (`gunicorn -c bench/load/meter.py`), used only by
bench/load/run.py: its hooks time each request with the worker's own CPU clock
(`time.thread_time`, user and system, from before the WSGI call to the last byte written), count
the queries it sent (a `connection.execute_wrapper`), and add the bytes it sent (status line,
headers and the body as compressed). Client-side latency says little about cost on a machine
shared with the load generator; the worker's CPU clock does not care who else is running.

Each worker adds its figures, by request class, to its own slot of a small file shared through
mmap (no lock, no round trip per request); the runner reads the file between scenarios and
subtracts. Production never loads this file.
"""

from __future__ import annotations

import math
import mmap
import os
import re
import struct
import time
from pathlib import Path

CLASSES = ("floor", "game page", "poll", "move (htmx)", "move (no JS)", "other")
FIELDS = ("requests", "cpu", "queries", "bytes")
# Requests by CPU time, in buckets 5% apart from 0.1 ms to 1 s (the last takes anything longer):
# medians for a run on a busy machine, where a few requests the kernel slowed down skew a mean.
BUCKET_LOW, BUCKET_STEP, BUCKETS = 1e-4, 1.05, 190
SLOTS = 16  # worker ages wrap around this; a bench run restarts no worker
_CELLS = len(FIELDS) + BUCKETS  # per worker and class
METER_FILE = Path(os.environ.get("BENCH_METER", "var/bench/meter.bin"))
_SIZE = SLOTS * len(CLASSES) * _CELLS * 8

_GAME = re.compile(r"^/games/\d+/$")
_POLL = re.compile(r"^/games/\d+/poll/$")
_ACT = re.compile(r"^/games/\d+/act/$")

_state = {"queries": 0, "started": 0.0, "cells": None, "base": 0}


def classify(method: str, path: str, htmx: bool) -> int:
    """Index in CLASSES of a request: the scenarios' addresses, anything else is "other"."""
    if path == "/bench/floor/":
        name = "floor"
    elif method == "GET" and _GAME.match(path):
        name = "game page"
    elif method == "GET" and _POLL.match(path):
        name = "poll"
    elif method == "POST" and _ACT.match(path):
        name = "move (htmx)" if htmx else "move (no JS)"
    else:
        name = "other"
    return CLASSES.index(name)


def bucket(cpu: float) -> int:
    if cpu <= BUCKET_LOW:
        return 0
    return min(BUCKETS - 1, int(math.log(cpu / BUCKET_LOW, BUCKET_STEP)))


def read_totals(path: Path = METER_FILE) -> dict[str, dict]:
    """Every class's totals over all workers so far (zeros before the first request), with
    "buckets": the count of requests in each CPU time bucket."""
    data = path.read_bytes() if path.exists() else b""
    values = struct.unpack(f"{_SIZE // 8}d", data) if len(data) == _SIZE else (0.0,) * (_SIZE // 8)
    totals = {name: {**dict.fromkeys(FIELDS, 0.0), "buckets": [0.0] * BUCKETS} for name in CLASSES}
    for slot in range(SLOTS):
        for c, name in enumerate(CLASSES):
            base = (slot * len(CLASSES) + c) * _CELLS
            for f, field in enumerate(FIELDS):
                totals[name][field] += values[base + f]
            for b in range(BUCKETS):
                totals[name]["buckets"][b] += values[base + len(FIELDS) + b]
    return totals


def difference(after: dict, before: dict) -> dict:
    """What one class did between two readings of read_totals."""
    delta = {field: after[field] - before[field] for field in FIELDS}
    delta["buckets"] = [a - b for a, b in zip(after["buckets"], before["buckets"], strict=True)]
    return delta


def median(buckets: list[float]) -> float:
    """The median CPU time in seconds, interpolated inside its bucket (0 without requests)."""
    half, seen = sum(buckets) / 2, 0.0
    for b, count in enumerate(buckets):
        if count and seen + count >= half:
            low = BUCKET_LOW * BUCKET_STEP**b if b else 0.0
            high = BUCKET_LOW * BUCKET_STEP ** (b + 1)
            return low + (high - low) * (half - seen) / count
        seen += count
    return 0.0


def _count_query(execute, sql, params, many, context):
    _state["queries"] += 1
    return execute(sql, params, many, context)


# --- gunicorn hooks (names gunicorn looks for in a configuration file) ---------------------------


def on_starting(server) -> None:
    """In the master, before any worker: a zeroed file for this run."""
    METER_FILE.parent.mkdir(parents=True, exist_ok=True)
    METER_FILE.write_bytes(bytes(_SIZE))


def post_worker_init(worker) -> None:
    """In each worker once the site is loaded: map its slot, count the queries of its thread."""
    from django.db import connection  # Django is set up by now (the WSGI module was imported)

    with open(METER_FILE, "r+b") as f:
        shared = mmap.mmap(f.fileno(), _SIZE)
    _state["cells"] = memoryview(shared).cast("d")
    _state["base"] = (worker.age % SLOTS) * len(CLASSES) * _CELLS
    # A sync worker serves every request on this thread, so this one wrapper sees every query.
    connection.execute_wrappers.append(_count_query)


def pre_request(worker, req) -> None:
    _state["queries"] = 0
    _state["started"] = time.thread_time()


def post_request(worker, req, environ, resp) -> None:
    cpu = time.thread_time() - _state["started"]
    cells = _state["cells"]
    if cells is None:
        return
    sent = 0
    if resp is not None:
        status_and_headers = [*resp.default_headers(), *(f"{k}: {v}\r\n" for k, v in resp.headers)]
        sent = len("".join(status_and_headers)) + 2 + resp.sent
    htmx = environ.get("HTTP_HX_REQUEST") == "true"
    c = classify(req.method, req.path, htmx)
    base = _state["base"] + c * _CELLS
    cells[base] += 1
    cells[base + 1] += cpu
    cells[base + 2] += _state["queries"]
    cells[base + 3] += sent
    cells[base + len(FIELDS) + bucket(cpu)] += 1
