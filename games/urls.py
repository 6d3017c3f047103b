from django.urls import path

from . import rematch_views, views, views_coaching, views_tables, views_talk

app_name = "games"

urlpatterns = [
    path("", views.my_games, name="mine"),
    path("new/", views.new_game, name="new"),
    path("lobby/", views.lobby, name="lobby"),
    # Tokens are secrets.token_urlsafe: a slug. Anything else (a NUL byte, which PostgreSQL
    # refuses in a query) is a 404 before the database is asked.
    path("invitation/<slug:token>/", views_tables.invitation_link, name="invitation"),
    path("pictures/sprite-<slug:digest>.svg", views.sprite, name="sprite"),
    # One invitation's signed link (emailed); a signature is URL-safe base64 with ":" separators.
    path("invited/<str:token>/", views_tables.invited, name="invited"),
    path("<int:game_id>/", views.game_detail, name="detail"),
    path("<int:game_id>/invite/", views_tables.invite_more, name="invite"),
    path("<int:game_id>/act/", views.act, name="act"),
    path("<int:game_id>/log/", views.move_log, name="log"),
    path("<int:game_id>/poll/", views.poll, name="poll"),
    path("<int:game_id>/talk/", views_talk.conversation, name="talk"),
    path("<int:game_id>/talk/mute/", views_talk.mute, name="talk-mute"),
    path("<int:game_id>/talk/<int:message_id>/delete/", views_talk.delete, name="talk-delete"),
    path("<int:game_id>/join/", views_tables.join, name="join"),
    path("<int:game_id>/review/", views_coaching.review, name="review"),
    path("<int:game_id>/hint/", views_coaching.hint, name="hint"),
    path("<int:game_id>/again/", rematch_views.play_again, name="again"),
    path("<int:game_id>/resign/", views.absent_player, {"verb": "resign"}, name="resign"),
    path("<int:game_id>/skip/", views.absent_player, {"verb": "skip"}, name="skip"),
    path("<int:game_id>/end/", views.absent_player, {"verb": "end"}, name="end"),
    path("<int:game_id>/leave/", views_tables.table_action, {"verb": "leave"}, name="leave"),
    path("<int:game_id>/cancel/", views_tables.table_action, {"verb": "cancel"}, name="cancel"),
    path("<int:game_id>/decline/", views_tables.table_action, {"verb": "decline"}, name="decline"),
]
