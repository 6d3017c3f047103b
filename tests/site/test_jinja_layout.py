"""The game page's layout is a Jinja2 copy of templates/base.html (games/jinja.py says
why): these tests keep the two drawing the same page around the same content."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import constants
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.template import engines
from django.test import RequestFactory
from django.urls import resolve

from games.jinja import page_context
from tests.factories import UserFactory

CONTENT = "<p>the page itself</p>"


def _request(user, path="/games/"):
    request = RequestFactory().get(path)
    request.user = user
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    request.resolver_match = resolve(path)
    request._messages.add(constants.SUCCESS, "Saved, Alice's way.")
    return request


def _django_page(request) -> str:
    template = engines["django"].from_string(
        '{% extends "base.html" %}{% block title %}T{% endblock %}'
        "{% block content %}" + CONTENT + "{% endblock %}"
    )
    return template.render({}, request)


def _jinja_page(request) -> str:
    template = engines["jinja2"].env.from_string(
        '{% extends "base.html" %}{% block title %}T{% endblock %}'
        "{% block content %}" + CONTENT + "{% endblock %}"
    )
    return template.render(page_context(request, {}))


def _same(html: str) -> str:
    """The page with what differs per render or per engine taken out: CSRF tokens (masked anew
    each time), the escaping of quotes, and whitespace between tags."""
    html = re.sub(r'(csrfmiddlewaretoken" value=")[^"]+', r"\1X", html)
    html = re.sub(r'("X-CSRFToken": ")[^"]+', r"\1X", html)
    html = html.replace("&#39;", "'").replace("&#x27;", "'")
    html = re.sub(r"\s+", " ", html)
    return re.sub(r">\s+<", "><", html).strip()


@pytest.mark.django_db
@pytest.mark.parametrize("confirmed", [True, False])
def test_the_jinja_layout_draws_what_base_html_draws(confirmed):
    user = UserFactory(username="alice", display_name="Alice")
    if not confirmed:
        user.email_confirmed_at = None
        user.save()
    page = _same(_jinja_page(_request(user)))
    assert page == _same(_django_page(_request(user)))
    assert 'aria-current="page">My games' in page and "Saved, Alice's way." in page
    assert ("Please confirm your email address" in page) is not confirmed


@pytest.mark.django_db
def test_the_jinja_layout_draws_what_base_html_draws_for_a_visitor():
    request, other = _request(AnonymousUser(), "/"), _request(AnonymousUser(), "/")
    assert _same(_jinja_page(request)) == _same(_django_page(other))


def test_an_action_form_opens_with_the_token_and_the_version_escaped():
    from django.template import engines

    template = engines["jinja2"].env.from_string(
        "{{ act_form() }}|{{ act_form('x', confirm='Start \"over\"?') }}|{{ oob_attr }}"
    )

    class Game:
        version = 7

    html = template.render(act_url="/games/1/act/", csrf_input="<i>", game=Game(), oob_attr="")
    plain, confirmed, oob = html.split("|")
    assert plain == (
        '<form method="post" action="/games/1/act/" hx-post="/games/1/act/" hx-target="#notice"'
        ' class="act-form"><i><input type="hidden" name="version" value="7">'
    )
    assert 'class="act-form x" hx-confirm="Start &#34;over&#34;?">' in confirmed
    assert oob == ""
