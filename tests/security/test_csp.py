"""The Content-Security-Policy (issue 12, point 9): enforced on every page, and every page the
site draws satisfies it: no style= attributes, no on...= handlers or hx-on, no inline <script> or
<style> without the response's nonce. The browser tests also fail on any violation the browser
reports (tests/browser/conftest.py)."""

from __future__ import annotations

import json
import logging
import re
from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from tests.security.conftest import World, client_for

pytestmark = pytest.mark.django_db


def nonce_of(response) -> str | None:
    """The response's nonce: in the policy only when the page used one."""
    match = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"])
    return match.group(1) if match else None


class InlineCode(HTMLParser):
    """Collects what a strict policy refuses: style= attributes, on...= handlers, hx-on, inline
    <script> and <style> without the response's nonce, javascript: links."""

    def __init__(self, nonce: str | None) -> None:
        super().__init__()
        self.nonce = nonce
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        for name, value in attrs:
            if name == "style" or name.startswith(("on", "hx-on", "data-hx-on")):
                self.found.append(f"<{tag} {name}={value!r}>")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.found.append(f"<{tag} {name}={value!r}>")
        inline_script = tag == "script" and "src" not in names
        if (inline_script or tag == "style") and (
            self.nonce is None or names.get("nonce") != self.nonce
        ):
            self.found.append(f"<{tag}> without the nonce")


def inline_code(html: str, nonce: str | None) -> list[str]:
    parser = InlineCode(nonce)
    parser.feed(html)
    return parser.found


def pages(world: World) -> list[tuple[str, str, dict]]:
    """(who, address, headers): every kind of page and fragment the site draws."""
    active, finished, table = world.active.pk, world.finished.pk, world.open.pk
    htmx = {"HX-Request": "true"}
    return [
        ("anon", "/", {}),
        ("anon", reverse("login"), {}),
        ("anon", reverse("signup"), {}),
        ("anon", reverse("password_reset"), {}),
        ("anon", reverse("rules"), {}),
        ("alice", reverse("rules"), {}),
        ("anon", "/nowhere/", {}),
        ("alice", reverse("games:mine"), {}),
        ("alice", reverse("games:new"), {}),
        ("alice", reverse("games:lobby"), {}),
        ("alice", reverse("games:detail", args=[active]), {}),
        ("bob", reverse("games:detail", args=[active]), {}),
        ("alice", reverse("games:detail", args=[active]) + "?fragment=game", htmx),
        ("alice", reverse("games:detail", args=[world.timed_out.pk]), {}),
        ("alice", reverse("games:detail", args=[finished]), {}),
        ("alice", reverse("games:detail", args=[table]), {}),  # the table page, with its poll
        ("carol", reverse("games:detail", args=[table]), {}),
        ("alice", reverse("games:log", args=[active]), {}),
        ("mallory", reverse("games:detail", args=[active]), {}),  # refused
        ("alice", reverse("records:leaderboards"), {}),
        ("alice", reverse("records:history"), {}),
        ("alice", reverse("records:player", args=["bob"]), {}),
        ("alice", reverse("records:sheet", args=[finished]), {}),
        ("alice", reverse("records:replay", args=[finished]) + "?move=5", {}),
        ("alice", reverse("profile"), {}),
        ("alice", reverse("email_preferences"), {}),
        ("alice", reverse("password_change"), {}),
        ("alice", reverse("games:mine"), {"HX-Request": "true"}),
        ("alice", reverse("logout"), {}),  # 405 page
        ("root", "/admin/", {}),
        ("root", "/admin/games/game/", {}),
        ("root", f"/admin/games/game/{active}/change/", {}),
        ("root", "/admin/accounts/user/", {}),
        ("root", f"/admin/accounts/user/{world.alice.pk}/change/", {}),
        ("root", "/admin/records/seatresult/", {}),
    ]


def test_every_page_carries_an_enforced_policy_it_satisfies(world):
    clients = {
        "anon": client_for(None),
        "alice": client_for(world.alice),
        "bob": client_for(world.bob),
        "carol": client_for(world.carol),
        "mallory": client_for(world.mallory),
        "root": client_for(world.staff),
    }
    for who, address, headers in pages(world):
        response = clients[who].get(address, headers=headers)
        assert response.status_code < 500, (who, address)
        policy = response["Content-Security-Policy"]  # enforced, not report-only
        assert re.search(r"script-src 'self'[ ;]", policy) or "script-src 'self' 'nonce-" in policy
        assert re.search(r"style-src 'self'[ ;]", policy) or "style-src 'self' 'nonce-" in policy
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
        html = response.content.decode()
        found = inline_code(html, nonce_of(response))
        assert not found, f"{who} {address}: {found}"


def test_the_server_error_page_needs_no_inline_style():
    assert inline_code(render_to_string("500.html"), None) == []


def test_htmx_is_told_not_to_inject_its_style_nor_to_eval(world):
    html = client_for(world.alice).get(reverse("games:detail", args=[world.active.pk])).content
    config = re.findall(rb'<meta name="htmx-config" content=\'([^\']*)\'', html)
    assert config, "no htmx-config"
    first = config[0]  # htmx reads the first one
    for setting in (b'"includeIndicatorStyles":false', b'"allowEval":false'):
        assert setting in first
    # htmx copies settled attributes with setAttribute: a style= copied that way is refused.
    assert b'"attributesToSettle":["class","width","height"]' in first
    assert b'"responseHandling"' in first  # the game page's own settings still apply


def test_the_signup_script_carries_the_nonce(client):
    response = client.get(reverse("signup"))
    assert f'<script nonce="{nonce_of(response)}">' in response.content.decode()


def test_a_violation_report_is_logged(client, caplog):
    report = {
        "csp-report": {
            "document-uri": "https://harmonies.example/games/1/",
            "violated-directive": "style-src-attr",
            "blocked-uri": "inline",
        }
    }
    with caplog.at_level(logging.WARNING, logger="harmonies_site.csp"):
        response = client.post(
            reverse("csp_report"), json.dumps(report), content_type="application/csp-report"
        )
    assert response.status_code == 204
    assert "style-src-attr" in caplog.text


LINE_BREAKS = ("\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029")


def test_a_stranger_cannot_forge_a_log_line_through_a_violation_report(client, caplog):
    forged = "\n".join(["x", "CRITICAL django.security admin logged in from 10.0.0.1"])
    report = {
        "csp-report": {
            "document-uri": "https://harmonies.example/\r\nERROR payment failed",
            "violated-directive": "style-src\x1b[2J\x1b[31m\u2028WARNING spoofed",
            "blocked-uri": forged,
        }
    }
    with caplog.at_level(logging.WARNING, logger="harmonies_site.csp"):
        response = client.post(
            reverse("csp_report"), json.dumps(report), content_type="application/csp-report"
        )
    assert response.status_code == 204
    [record] = [r for r in caplog.records if r.name == "harmonies_site.csp"]
    line = record.getMessage()
    assert len(line.splitlines()) == 1
    assert not any(c in line for c in (*LINE_BREAKS, "\x1b"))
    assert "\\nCRITICAL" in line and "\\r\\nERROR" in line  # shown escaped, still readable


def test_the_fields_logged_from_a_report_are_capped(client, caplog):
    report = {
        "csp-report": {
            "document-uri": "https://harmonies.example/" + "a" * 3_000,
            "violated-directive": "\u2028" * 500,  # each one logged as six characters
            "blocked-uri": "b" * 3_000,
        }
    }
    with caplog.at_level(logging.WARNING, logger="harmonies_site.csp"):
        response = client.post(
            reverse("csp_report"), json.dumps(report), content_type="application/csp-report"
        )
    assert response.status_code == 204
    [record] = [r for r in caplog.records if r.name == "harmonies_site.csp"]
    assert len(record.getMessage()) < 1_200


@pytest.mark.parametrize("body", [b"", b"junk", b"[]", b'{"csp-report": 3}', b"x" * 20_000])
def test_a_junk_violation_report_is_refused_in_words(client, body):
    response = client.post(reverse("csp_report"), body, content_type="application/csp-report")
    assert response.status_code in (400, 413)
    assert response.content


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 5_000 + b"]" * 5_000,
        b'{"csp-report": {"blocked-uri": ' + b"[" * 3_000 + b"]" * 3_000 + b"}}",
    ],
)
def test_a_deeply_nested_report_is_refused_or_logged_not_a_server_error(client, body):
    """Small enough to be read, too deep for the decoder (a RecursionError answered 500)."""
    response = client.post(reverse("csp_report"), body, content_type="application/csp-report")
    assert response.status_code in (204, 400)


def test_violation_reports_take_only_posts(client):
    response = client.get(reverse("csp_report"))
    assert response.status_code == 405
    assert response["Allow"] == "POST"


def test_the_poll_carries_no_policy(world):
    # A status for htmx, never a document: the policy would double the site's most frequent answer.
    response = client_for(world.bob).get(
        reverse("games:poll", args=[world.active.pk]), {"v": world.active.version}
    )
    assert response.status_code == 204
    assert "Content-Security-Policy" not in response
