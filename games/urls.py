from django.urls import path, re_path

from games.views import (
    blocks,
    coaching,
    game,
    guide,
    lists,
    next_game,
    plans,
    rematch,
    reports,
    tables,
    talk,
    watching,
    weekly,
)

app_name = "games"

urlpatterns = [
    path("", lists.my_games, name="mine"),
    path("new/", lists.new_game, name="new"),
    path("lobby/", lists.lobby, name="lobby"),
    # The oldest game waiting for the player's move (?after=<id> leaves out the one just played).
    path("next/", next_game.next_game, name="next"),
    # Tokens are secrets.token_urlsafe: a slug. Anything else (a NUL byte, which PostgreSQL
    # refuses in a query) is a 404 before the database is asked.
    path("invitation/<slug:token>/", tables.invitation_link, name="invitation"),
    path("pictures/sprite-<slug:digest>.svg", game.sprite, name="sprite"),
    # One invitation's signed link (emailed); a signature is URL-safe base64 with ":" separators.
    path("invited/<str:token>/", tables.invited, name="invited"),
    # A talk message, a player or a display name, reported to staff (kind: message, player, name).
    path("report/<str:kind>/<int:target_id>/", reports.report, name="report"),
    # Block a player (its confirmation page, then the POST), and undo one of one's own blocks.
    path("block/<str:username>/", blocks.block, name="block"),
    path("unblock/", blocks.unblock, name="unblock"),
    # The guided first game: start or resume it (POST), or find it (GET).
    path("guide/", guide.start, name="guide"),
    path("<int:game_id>/", game.game_detail, name="detail"),
    path("<int:game_id>/invite/", tables.invite_more, name="invite"),
    path("<int:game_id>/act/", game.act, name="act"),
    path("<int:game_id>/log/", game.move_log, name="log"),
    path("<int:game_id>/poll/", game.poll, name="poll"),
    # The player's private plan: the pad, its notes and pencil (games/views/plans.py).
    path("<int:game_id>/plan/", plans.plan_pad, name="plan"),
    path("<int:game_id>/plan/notes/", plans.save_notes, name="plan-notes"),
    path("<int:game_id>/plan/pencil/", plans.pencil, name="plan-pencil"),
    path("<int:game_id>/plan/erase/", plans.erase, name="plan-erase"),
    path("<int:game_id>/plan/clear/", plans.clear, name="plan-clear"),
    # Watching: an open table, a shared read-only link (a token_urlsafe slug), and the players'
    # form that shares, revokes or opens.
    path("<int:game_id>/watch/", watching.watch, name="watch"),
    path("<int:game_id>/watch/<slug:token>/", watching.watch, name="watch-link"),
    path("<int:game_id>/watchers/", watching.share, name="watchers"),
    path("<int:game_id>/talk/", talk.conversation, name="talk"),
    path("<int:game_id>/talk/mute/", talk.mute, name="talk-mute"),
    path("<int:game_id>/talk/<int:message_id>/delete/", talk.delete, name="talk-delete"),
    path("<int:game_id>/join/", tables.join, name="join"),
    path("<int:game_id>/review/", coaching.review, name="review"),
    path("<int:game_id>/hint/", coaching.hint, name="hint"),
    path("<int:game_id>/again/", rematch.play_again, name="again"),
    path("<int:game_id>/guide/finish/", guide.finish, name="guide-finish"),
    path("<int:game_id>/resign/", game.absent_player, {"verb": "resign"}, name="resign"),
    path("<int:game_id>/skip/", game.absent_player, {"verb": "skip"}, name="skip"),
    path("<int:game_id>/end/", game.absent_player, {"verb": "end"}, name="end"),
    path("<int:game_id>/leave/", tables.table_action, {"verb": "leave"}, name="leave"),
    path("<int:game_id>/cancel/", tables.table_action, {"verb": "cancel"}, name="cancel"),
    path("<int:game_id>/decline/", tables.table_action, {"verb": "decline"}, name="decline"),
]

# The deal of the week, mounted at /weekly/ by harmonies_site.urls (namespace "weekly"). A week is
# named by its Monday, yyyy-mm-dd; anything else is a 404 before a view is asked.
WEEK = r"(?P<week>[0-9]{4}-[0-9]{2}-[0-9]{2})"
weekly_patterns = [
    path("", weekly.this_week, name="this"),
    path("play/", weekly.play, name="play"),
    re_path(rf"^{WEEK}/$", weekly.past_week, name="week"),
    re_path(rf"^{WEEK}/compare/$", weekly.compare, name="compare"),
]
