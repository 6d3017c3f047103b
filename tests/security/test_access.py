"""Who may do what: every address, read (GET) and written (POST), for every role.

The table is the specification. Each cell is the answer a role gets:

    200 204 400 403 404 405 409   that status
    login, admin              a redirect to log in, to the admin's log-in (index: the admin's index)
    game, mine, home, sent    a redirect to the game's page, My games, the home page, "reset sent"
    prof                      a redirect to the profile
    ...!                      and it happens: the game (or the account) changes

A POST whose cell has no "!" must change nothing. Roles, in the columns:

    anon      a visitor, not logged in
    stranger  mallory, seated nowhere and invited nowhere
    other     the other seat: bob, waiting for alice (active, timed-out and finished games);
              on the open table, carol, who is invited but has no seat yet
    mover     the player to move: alice (the creator of every table), seated at all of them
    staff     the site's administrator, seated nowhere: no more rights in games than a stranger

The world is tests/security/conftest.py: `active` (alice to move, holding tokens), `timed_out`
(alice to move, her time is up), `finished`, `open` (alice's private table, carol invited) and
`cancelled`. Rows whose method is hGET or hPOST are sent as htmx requests (HX-Request: true).
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from accounts import unsubscribe
from tests.answers import answered
from tests.games.helpers import first_legal
from tests.security.conftest import World, fingerprint

pytestmark = pytest.mark.django_db

ROLES = ("anon", "stranger", "other", "mover", "staff")
REDIRECTS = {
    "login": "/accounts/login/",
    "admin": "/admin/login/",
    "index": "/admin/",
    "mine": "/games/",
    "home": "/",
    "sent": "/accounts/password/reset/sent/",
    "prof": "/accounts/profile/",
}

# method: GET or POST, hGET or hPOST as htmx. {G} is /games/<id> of the row's game, {pk} its id.
# fmt: off
MATRIX = """
method address                             game      data    anon    stranger other   mover   staff
# --- Site and accounts
GET   /                                    -         -       200     mine     mine    mine    mine
GET   /accounts/signup/                    -         -       200     home     home    home    home
POST  /accounts/signup/                    -         junk    200     home     home    home    home
GET   /accounts/login/                     -         -       200     home     home    home    home
GET   /accounts/logout/                    -         -       405     405      405     405     405
POST  /accounts/logout/                    -         -       home    home     home    home    home
GET   /accounts/profile/                   -         -       login   200      200     200     200
POST  /accounts/profile/                   -         junk    login   200      200     200     200
GET   /accounts/profile/emails/            -         -       405     405      405     405     405
POST  /accounts/profile/emails/            -         junk    login   200      200     200     200
GET   /accounts/profile/data/              -         -       405     405      405     405     405
POST  /accounts/profile/data/              -         -       login   200      200     200     200
GET   /accounts/password/change/           -         -       login   200      200     200     200
POST  /accounts/password/change/           -         junk    login   200      200     200     200
GET   /accounts/password/change/done/      -         -       login   200      200     200     200
GET   /accounts/password/reset/            -         -       200     200      200     200     200
POST  /accounts/password/reset/            -         nobody  sent    sent     sent    sent    sent
GET   /accounts/password/reset/sent/       -         -       200     200      200     200     200
GET   /accounts/password/reset/MQ/x-y/     -         -       200     200      200     200     200
GET   /accounts/password/reset/done/       -         -       200     200      200     200     200
GET   /rules/                              -         -       200     200      200     200     200
POST  /rules/                              -         -       405     405      405     405     405
# An unsubscribe link is the proof, whoever holds it (RFC 8058 one-click: no login, no CSRF);
# alice's link for "your turn" emails does not switch off her digest.
GET   /accounts/unsubscribe/turn/{link}/   -         -       200     200      200     200     200
POST  /accounts/unsubscribe/turn/{link}/   -         -       200!    200!     200!    200!    200!
POST  /accounts/unsubscribe/digest/{link}/ -         -       400     400      400     400     400
# --- Admin: staff only
GET   /admin/                              -         -       admin   admin    admin   admin   200
GET   /admin/login/                        -         -       200     200      200     200     index
GET   /admin/accounts/user/                -         -       admin   admin    admin   admin   200
GET   /admin/accounts/user/{alice}/change/ -         -       admin   admin    admin   admin   200
POST  /admin/accounts/user/{alice}/change/ -         junk    admin   admin    admin   admin   200
GET   /admin/records/seatresult/           -         -       admin   admin    admin   admin   200
GET   /admin/games/game/                   -         -       admin   admin    admin   admin   200
GET   /admin/games/game/{pk}/change/       active    -       admin   admin    admin   admin   200
POST  /admin/games/game/{pk}/change/       active    junk    admin   admin    admin   admin   403
GET   /admin/records/rating/               -         -       admin   admin    admin   admin   200
GET   /admin/records/gamerecord/           -         -       admin   admin    admin   admin   200
# --- Games, not one in particular
GET   /games/                              -         -       login   200      200     200     200
GET   /games/new/                          -         -       login   200      200     200     200
POST  /games/new/                          -         junk    login   200      200     200     200
GET   /games/lobby/                        -         -       login   200      200     200     200
POST  /games/lobby/                        -         -       login   405      405     405     405
# --- A game in progress: alice to move, bob waiting
GET   {G}/                                 active    -       login   403      200     200     403
hGET  {G}/?fragment=game                   active    -       login   403      200     200     403
hGET  {G}/?fragment=select&token={colour}  active    -       login   403      200     200     403
GET   {G}/log/                             active    -       login   403      200     200     403
# The poll says "changed or not" to the game's players only; to anyone else, what a missing game
# gets (no presence token here: the session decides).
GET   {G}/poll/?v={version}                active    -       404     404      204     204     404
POST  {G}/poll/                            active    -       405     405      405     405     405
POST  {G}/act/                             active    move    login   403      409     game!   403
hPOST {G}/act/                             active    move    login   403      409     200!    403
GET   {G}/act/                             active    -       login   405      405     405     405
POST  {G}/join/                            active    -       login   409      game    game    409
POST  {G}/join/                            active    token   login   409      game    game    409
POST  {G}/leave/                           active    -       login   409      409     409     409
POST  {G}/cancel/                          active    -       login   403      403     409     403
POST  {G}/decline/                         active    -       login   403      409     409     403
POST  {G}/resign/                          active    -       login   403      game!   game!   403
GET   {G}/resign/                          active    -       login   405      405     405     405
POST  {G}/skip/                            active    version login   403      409     409     403
POST  {G}/end/                             active    version login   403      409     409     403
GET   {G}/sheet/                           active    -       login   403      403     403     403
GET   {G}/replay/                          active    -       login   403      403     403     403
# Table talk: the players of a game in progress read and write; nobody else reads it
GET   {G}/talk/                            active    -       login   403      200     200     403
hGET  {G}/talk/                            active    -       login   403      200     200     403
POST  {G}/talk/                            active    talk    login   403      game!   game!   403
hPOST {G}/talk/                            active    talk    login   403      200!    200!    403
hPOST {G}/talk/                            active    junk    login   403      400     400     403
POST  {G}/talk/mute/                       active    -       login   403      game    game    403
GET   {G}/talk/mute/                       active    -       login   405      405     405     405
POST  {G}/talk/999999/delete/              active    -       login   404      404     404     404
GET   /games/invitation/{token}/           active    -       login   game     game    game    game
# Each player's private plan: their own to read and write, nobody else's; it is not a move
GET   {G}/plan/                            active    -       login   403      200     200     403
hGET  {G}/plan/?colour=blue                active    -       login   403      200     200     403
POST  {G}/plan/notes/                      active    notes   login   403      game!   game!   403
hPOST {G}/plan/notes/                      active    notes   login   403      200!    200!    403
POST  {G}/plan/notes/                      active    novel   login   403      400     400     403
POST  {G}/plan/pencil/                     active    forged  login   403      400     400     403
POST  {G}/plan/erase/                      active    forged  login   403      400     400     403
POST  {G}/plan/clear/                      active    -       login   403      game!   game!   403
GET   {G}/plan/clear/                      active    -       login   405      405     405     405
# Watching: a closed table without its link is a game that does not exist, for anyone
GET   {G}/watch/                           active    -       404     404      404     404     404
GET   {G}/watch/forged-token-0123456789/   active    -       404     404      404     404     404
POST  {G}/watchers/                        active    share   login   403      game!   game!   403
POST  {G}/watchers/                        active    open    login   403      403     game!   403
POST  {G}/watchers/                        active    junk    login   400      400     400     400
GET   {G}/watchers/                        active    -       login   405      405     405     405
# --- Out of time: the others may move the game on, not the player who is late
POST  {G}/skip/                            timed_out version login   403      game!   409     403
hPOST {G}/skip/                            timed_out version login   403      game!   409     403
POST  {G}/skip/                            timed_out stale   login   403      409     409     403
POST  {G}/end/                             timed_out version login   403      game!   409     403
GET   {G}/                                 timed_out -       login   403      200     200     403
# --- A finished game: its page for its players; its sheet and replay for anyone logged in
GET   {G}/                                 finished  -       login   403      200     200     403
hGET  {G}/?fragment=game                   finished  -       login   403      200     200     403
GET   {G}/log/                             finished  -       login   403      200     200     403
POST  {G}/act/                             finished  end     login   403      409     409     403
hPOST {G}/act/                             finished  end     login   403      409     409     403
POST  {G}/join/                            finished  -       login   409      game    game    409
POST  {G}/resign/                          finished  -       login   403      409     409     403
POST  {G}/end/                             finished  version login   403      409     409     403
GET   {G}/sheet/                           finished  -       login   200      200     200     200
hGET  {G}/sheet/                           finished  -       login   200      200     200     200
GET   {G}/replay/?move=3                   finished  -       login   200      200     200     200
hGET  {G}/replay/?move=3                   finished  -       login   200      200     200     200
POST  {G}/replay/                          finished  -       login   405      405     405     405
# Its table talk: read-only, and still for its players alone (a private table's)
GET   {G}/talk/                            finished  -       login   403      200     200     403
hGET  {G}/talk/                            finished  -       login   403      200     200     403
POST  {G}/talk/                            finished  talk    login   403      409     409     403
# Its plans are over, and so is watching it
GET   {G}/plan/                            finished  -       login   403      409     409     403
POST  {G}/plan/notes/                      finished  notes   login   403      409     409     403
GET   {G}/watch/                           finished  -       404     404      404     404     404
POST  {G}/watchers/                        finished  share   login   403      409     409     403
# --- alice's open private table, carol invited: seen by its players, the invited, link holders
GET   {G}/                                 open      -       login   403      200     200     403
hGET  {G}/                                 open      -       login   403      200     200     403
GET   {G}/log/                             open      -       login   403      403     200     403
GET   /games/invitation/{token}/           open      -       login   200      200     game    200
POST  {G}/act/                             open      take    login   403      403     409     403
hPOST {G}/act/                             open      take    login   403      403     409     403
POST  {G}/join/                            open      -       login   403      game!   game    403
POST  {G}/join/                            open      token   login   game!    game!   game    game!
# Another table's link opens only that table.
POST  {G}/join/                            open      foreign login   403      game!   game    403
POST  {G}/leave/                           open      -       login   403      403     400     403
POST  {G}/cancel/                          open      -       login   403      403     mine!   403
POST  {G}/decline/                         open      -       login   403      mine!   409     403
POST  {G}/resign/                          open      -       login   403      403     409     403
POST  {G}/skip/                            open      version login   403      403     409     403
GET   {G}/sheet/                           open      -       login   403      403     403     403
GET   {G}/talk/                            open      -       login   403      403     200     403
POST  {G}/talk/                            open      talk    login   403      403     409     403
# --- A cancelled table
GET   {G}/                                 cancelled -       login   403      403     200     403
POST  {G}/act/                             cancelled take    login   403      403     409     403
POST  {G}/join/                            cancelled token   login   409      409     409     409
POST  {G}/cancel/                          cancelled -       login   409      409     409     409
POST  {G}/leave/                           cancelled -       login   409      409     409     409
POST  {G}/decline/                         cancelled -       login   409      409     409     409
GET   {G}/sheet/                           cancelled -       login   409      409     409     409
GET   {G}/replay/                          cancelled -       login   409      409     409     409
GET   /games/invitation/{token}/           cancelled -       login   409      409     409     409
# --- The lesson, the deal of the week and chat channels (creating a lesson or a weekly game
# is tested in their own files: the redirect names a game made by the request). A refused
# channel form without htmx goes back to its page with the reason as a message.
GET   /games/guide/                        -         -       login   mine     mine    mine    mine
POST  {G}/guide/finish/                    active    version login   403      403     403     403
GET   {G}/guide/finish/                    active    -       login   405      405     405     405
GET   /weekly/                             -         -       login   200      200     200     200
GET   /weekly/play/                        -         -       login   405      405     405     405
GET   /weekly/2020-01-07/                  -         -       login   404      404     404     404
GET   /webhooks/channels/                  -         -       login   200      200     200     200
POST  /webhooks/channels/                  -         junk    login   400      400     400     400
POST  /webhooks/tables/{pk}/               active    junk    login   403      game    game    403
POST  /webhooks/tables/{pk}/               finished  junk    login   403      game    game    403
POST  /webhooks/channels/999999/test/      -         -       login   prof     prof    prof    prof
POST  /webhooks/channels/999999/remove/    -         -       login   prof     prof    prof    prof
hPOST /webhooks/channels/999999/remove/    -         -       login   404      404     404     404
GET   /webhooks/boards/forged-token.png    -         -       404     404      404     404     404
# --- Results
GET   /leaderboards/                       -         -       login   200      200     200     200
hGET  /leaderboards/?board=wins            -         -       login   200      200     200     200
GET   /history/                            -         -       login   200      200     200     200
POST  /history/                            -         -       login   405      405     405     405
GET   /players/{alice}/                    -         -       login   200      200     200     200
GET   /players/nobody-at-all/              -         -       login   404      404     404     404
"""
# fmt: on
JUNK_FORM = {
    "username": "",
    "email": "not-an-email",
    "password1": "x",
    "password2": "y",
    "old_password": "wrong",
    "new_password1": "a",
    "new_password2": "b",
    "remind_every_hours": "7",
    "players": "9",
    "time_zone": "Mars/Olympus_Mons",
    "display_name": "x" * 500,
}


def cases():
    rows = [line.split() for line in MATRIX.strip().splitlines()[1:]]
    for method, address, game, data, *cells in (r for r in rows if r[0] != "#"):
        for role, cell in zip(ROLES, cells, strict=True):
            name = f"{method} {address} {game} {data} as {role}"
            yield pytest.param(method, address, game, data, role, cell, id=name)


def user_for(world: World, role: str, game: str):
    if role == "other":
        return world.carol if game == "open" else world.bob
    users = {"anon": None, "stranger": world.mallory, "mover": world.alice, "staff": world.staff}
    return users[role]


def post_data(world: World, game, data: str) -> dict:
    if data == "junk":
        return dict(JUNK_FORM)
    if data == "nobody":
        return {"email": "nobody@example.com"}
    if data == "move":
        return {**first_legal(game), "version": game.version}
    if data == "take":
        return {"type": "take_tokens", "space": "0", "version": game.version}
    if data == "end":
        return {"type": "end_turn", "version": game.version}
    if data == "talk":
        return {"text": "Hello, table!"}
    if data == "version":
        return {"version": game.version}
    if data == "stale":
        return {"version": game.version - 1}
    if data == "token":
        return {"token": game.invite_token}
    if data == "foreign":
        return {"token": world.other_open.invite_token}
    if data == "notes":
        return {"notes": "Take the bears' fields first."}
    if data == "novel":
        return {"notes": "x" * 100_000}
    if data == "forged":
        return {"cell": "99,99", "colour": "purple"}
    if data in ("share", "open"):
        return {"do": data}
    return {}


def expected(cell: str, game) -> tuple[int, str | None, bool]:
    """(status, where a redirect leads, whether it changes something) from a cell."""
    changes = cell.endswith("!")
    cell = cell.removesuffix("!")
    if cell.isdigit():
        return int(cell), None, changes
    return 302, f"/games/{game.pk}/" if cell == "game" else REDIRECTS[cell], changes


TEMPLATE_SYNTAX = (b"{#", b"#}", b"{%", b"%}")  # braces alone are JSON in attributes


@pytest.mark.parametrize(("method", "address", "game_name", "data", "role", "cell"), list(cases()))
def test_access(world, sessions, method, address, game_name, data, role, cell):
    game = world.fresh(getattr(world, game_name)) if game_name != "-" else None
    path = address.format(
        G=f"/games/{game.pk}" if game else "",
        token=game.invite_token if game else "",
        version=game.version if game else "",
        colour=game.engine_state().hand[0] if game_name == "active" else "",
        alice=world.alice.pk if address.startswith("/admin/") else world.alice.username,
        link=unsubscribe.token_for(world.alice, "turn"),
        pk=game.pk if game else "",
    )
    client = Client()
    user = user_for(world, role, game_name)
    if user is not None:
        client.cookies[settings.SESSION_COOKIE_NAME] = sessions[user.pk]
    headers = {"HX-Request": "true"} if method.startswith("h") else {}
    before = fingerprint() if method.endswith("POST") else None

    if method.endswith("GET"):
        response = client.get(path, headers=headers)
    else:
        response = client.post(path, post_data(world, game, data), headers=headers)

    status, where, changes = expected(cell, game)
    shown = f"{method} {path} as {role}: {answered(response)} {response.content[:300]!r}"
    assert answered(response) == status, shown
    for syntax in TEMPLATE_SYNTAX:  # a broken comment or tag shows as text on the page
        assert syntax not in response.content, f"{syntax!r} in the page: {shown}"
    if where is not None:
        assert response["Location"].split("?")[0].split("#")[0] == where, (
            shown + response["Location"]
        )
    if status >= 400:
        assert response.content.strip(), f"a refusal says why: {shown}"
    if status == 405:
        assert response["Allow"], shown
    if before is not None:
        assert (fingerprint() != before) == changes, ("did not change: " if changes else "") + shown
