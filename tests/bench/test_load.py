"""The load bench's instrument: the floor page, the meter in the gunicorn workers, the table."""

from types import SimpleNamespace

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from bench.load import meter, report
from bench.load import settings as bench_settings
from tests.factories import UserFactory

bench_site = override_settings(ROOT_URLCONF="bench.load.urls", TEMPLATES=bench_settings.TEMPLATES)


@pytest.mark.django_db
@bench_site
def test_the_floor_is_a_small_logged_in_page_with_one_query_of_its_own(client):
    user = UserFactory(display_name="Ada")
    client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/bench/floor/")
    assert response.status_code == 200
    assert b'id="floor"' in response.content and b"Ada" in response.content
    assert b"0 games waiting" in response.content
    assert len(queries) == 3  # the session, the user, the count of games waiting
    assert response["Cache-Control"] == "private, no-store"


@pytest.mark.django_db
@bench_site
def test_the_floor_sends_a_visitor_to_log_in(client):
    response = client.get("/bench/floor/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
@bench_site
def test_the_bench_urlconf_keeps_the_site(client):
    assert client.get("/accounts/login/").status_code == 200


@pytest.mark.django_db
def test_the_site_itself_has_no_floor(client):
    client.force_login(UserFactory())
    assert client.get("/bench/floor/").status_code == 404


def test_it_classifies_requests_by_scenario():
    def name(method, path, htmx=False):
        return meter.CLASSES[meter.classify(method, path, htmx)]

    assert name("GET", "/bench/floor/") == "floor"
    assert name("GET", "/games/12/") == "game page"
    assert name("GET", "/games/12/poll/") == "poll"
    assert name("POST", "/games/12/act/", htmx=True) == "move (htmx)"
    assert name("POST", "/games/12/act/") == "move (no JS)"
    assert name("GET", "/games/12/act/") == "other"
    assert name("GET", "/games/") == "other"
    assert name("GET", "/games/12/log/") == "other"


class FakeResponse:
    headers = [("Content-Type", "text/html"), ("Content-Length", "100")]
    sent = 100

    def default_headers(self) -> list[str]:
        return ["HTTP/1.1 200 OK\r\n", "Connection: close\r\n"]


@pytest.mark.django_db
def test_the_hooks_add_each_request_to_its_class(tmp_path, monkeypatch):
    path = tmp_path / "meter.bin"
    monkeypatch.setattr(meter, "METER_FILE", path)
    meter.on_starting(server=None)
    assert meter.read_totals(path)["poll"]["requests"] == 0
    monkeypatch.setitem(meter._state, "cells", None)
    wrappers = list(connection.execute_wrappers)
    try:
        meter.post_worker_init(SimpleNamespace(age=3))
        for _ in range(2):
            meter.pre_request(None, None)
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
            request = SimpleNamespace(method="GET", path="/games/5/")
            meter.post_request(None, request, {}, FakeResponse())
        meter.pre_request(None, None)
        move = SimpleNamespace(method="POST", path="/games/5/act/")
        meter.post_request(None, move, {"HTTP_HX_REQUEST": "true"}, None)
    finally:
        connection.execute_wrappers[:] = wrappers
    totals = meter.read_totals(path)
    page = totals["game page"]
    assert page["requests"] == 2 and page["queries"] == 2
    head = len("HTTP/1.1 200 OK\r\nConnection: close\r\n")
    head += len("Content-Type: text/html\r\nContent-Length: 100\r\n\r\n")
    assert page["bytes"] == 2 * (head + 100)
    assert 0 <= page["cpu"] < 1
    assert totals["move (htmx)"]["requests"] == 1 and totals["move (htmx)"]["bytes"] == 0
    assert totals["floor"]["requests"] == 0
    assert sum(page["buckets"]) == 2


def result(**figures) -> dict:
    base = {"scenario": "game page", "clients": 10, "requests": 500, "failures": 0, "rps": 50,
            "p50": 40, "p95": 90, "p99": 120, "cpu_ms": 9.0, "cpu_median_ms": 8.5,
            "floor_ms": 5.0, "ratio": 1.8, "queries": 6.0, "bytes": 9000}  # fmt: skip
    return {**base, **figures}


def test_a_target_met_is_a_tick_and_a_miss_says_by_how_much():
    targets = {"ratio": 2.0, "p95": 100, "bytes": 20_000}
    met = result(targets=targets, missed=report.misses(result(), targets))
    assert met["missed"] == []
    missed = report.misses(result(ratio=2.31, p95=140, failures=2), targets)
    assert missed == ["ratio 2.31x", "p95 140 ms", "2 failed"]
    assert report.misses(result(queries=0.01), {"queries": 0}) == ["queries 0.01"]
    text = report.table([met])
    assert "9.00 (8.50)" in text and "1.80x" in text
    assert "≤ 2.0x floor, p95 ≤ 100 ms, ≤ 20,000 B" in text
    assert text.splitlines()[-1].endswith("| ✓")


def test_the_median_reads_the_buckets_within_their_width():
    buckets = [0.0] * meter.BUCKETS
    buckets[meter.bucket(0.002)] = 3
    buckets[meter.bucket(0.004)] = 5
    buckets[meter.bucket(0.5)] = 3
    assert abs(meter.median(buckets) - 0.004) < 0.004 * (meter.BUCKET_STEP - 1)
    assert meter.bucket(0) == 0 and meter.bucket(60) == meter.BUCKETS - 1
    assert meter.median([0.0] * meter.BUCKETS) == 0.0
