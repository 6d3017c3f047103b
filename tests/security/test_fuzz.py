"""Forged and malformed requests against every endpoint that takes input.

Every request below is forged in at least one way that makes it inapplicable: sent by a visitor,
a stranger or the waiting player, without a CSRF token, from a stale page, with a malformed or
illegal action, with a junk or foreign token. The rules, per endpoint, say what each must be
answered; on top of them, for every request:

- never a 5xx;
- a refusal (4xx) carries a message: the site's refusal, Django's CSRF, 404 or 405 page (a 405
  with its Allow header); the game poll alone answers bare statuses other than 405, as htmx
  reads them, not people;
- nothing changes: games (state, version, status...), moves, seats, invitations, users (their
  email switches) and the results tables are compared with a snapshot every BATCH requests and
  at the end of each test.

The generator is seeded (FUZZ_SEED, 7 by default), so a failure replays exactly. The suite sends
4,960 requests: every endpoint, and every kind of forgery and of answer that the full volume of
10,820 sends for the default seed (each kind by who sends it, how, and what must come back).
`make bench` sends the full volume (FUZZ_FULL=1). The number of requests and the time taken are
printed at the end of the run.
"""

from __future__ import annotations

import random

import pytest

from games import presence
from tests.security.forged_requests import (
    forged_actions,
    forged_edges,
    forged_invitations,
    forged_new_games,
    forged_polls,
    forged_results,
    forged_unsubscribes,
    forged_verbs,
    forged_views,
)
from tests.security.forgery import (
    SEED,
    Forger,
    volume,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def forger(world, request) -> Forger:
    return Forger(world, request.node)


def test_forged_actions_are_refused_and_change_nothing(world, forger):
    rng, n = random.Random(SEED), volume(1200, 2400)
    assert forger.run("act", forged_actions(world, forger, rng, n)) == n


def test_junk_selections_and_fragments_are_ignored(world, forger):
    rng = random.Random(SEED + 1)
    assert forger.run("detail", forged_views(world, forger, rng, 400)) == 400


def test_forged_polls_answer_a_status_and_mark_nobody_present(world, forger):
    rng, n = random.Random(SEED + 2), volume(400, 3600)
    assert forger.run("poll", forged_polls(world, forger, rng, n)) == n
    for game in world.games:
        for user in (world.alice, world.bob, world.carol, world.mallory):
            assert not presence.is_looking(game.pk, user.pk), "a forged token marked presence"


def test_forged_table_actions_are_refused_and_change_nothing(world, forger):
    rng = random.Random(SEED + 3)
    assert forger.run("table actions", forged_verbs(world, forger, rng, 1300)) == 1300


def test_forged_invitation_links_are_not_found(world, forger):
    rng, n = random.Random(SEED + 4), volume(260, 520)
    assert forger.run("invitation", forged_invitations(world, forger, rng, n)) >= n - n // 26


def test_junk_new_games_are_refused_with_the_reasons(world, forger):
    rng = random.Random(SEED + 5)
    assert forger.run("new game", forged_new_games(world, forger, rng, 100)) == 100


def test_forged_unsubscribe_links_switch_nothing_off(world, forger):
    rng, n = random.Random(SEED + 6), volume(600, 1800)
    assert forger.run("unsubscribe", forged_unsubscribes(world, forger, rng, n)) == n


def test_junk_in_the_results_pages_is_ignored_or_refused(world, forger):
    rng = random.Random(SEED + 7)
    assert forger.run("results", forged_results(world, forger, rng, 400)) == 400


def test_forged_edges_are_answered_in_words(world, forger, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    rng = random.Random(SEED + 8)
    assert forger.run("edges", forged_edges(world, forger, rng, 300)) >= 250
