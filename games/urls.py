from django.urls import path

from games.views import blocks, coaching, game, rematch, reports, tables, talk

app_name = "games"

urlpatterns = [
    path("", game.my_games, name="mine"),
    path("new/", game.new_game, name="new"),
    path("lobby/", game.lobby, name="lobby"),
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
    path("<int:game_id>/", game.game_detail, name="detail"),
    path("<int:game_id>/invite/", tables.invite_more, name="invite"),
    path("<int:game_id>/act/", game.act, name="act"),
    path("<int:game_id>/log/", game.move_log, name="log"),
    path("<int:game_id>/poll/", game.poll, name="poll"),
    path("<int:game_id>/talk/", talk.conversation, name="talk"),
    path("<int:game_id>/talk/mute/", talk.mute, name="talk-mute"),
    path("<int:game_id>/talk/<int:message_id>/delete/", talk.delete, name="talk-delete"),
    path("<int:game_id>/join/", tables.join, name="join"),
    path("<int:game_id>/review/", coaching.review, name="review"),
    path("<int:game_id>/hint/", coaching.hint, name="hint"),
    path("<int:game_id>/again/", rematch.play_again, name="again"),
    path("<int:game_id>/resign/", game.absent_player, {"verb": "resign"}, name="resign"),
    path("<int:game_id>/skip/", game.absent_player, {"verb": "skip"}, name="skip"),
    path("<int:game_id>/end/", game.absent_player, {"verb": "end"}, name="end"),
    path("<int:game_id>/leave/", tables.table_action, {"verb": "leave"}, name="leave"),
    path("<int:game_id>/cancel/", tables.table_action, {"verb": "cancel"}, name="cancel"),
    path("<int:game_id>/decline/", tables.table_action, {"verb": "decline"}, name="decline"),
]
