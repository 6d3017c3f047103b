from django.urls import path

from . import friends_views, views

app_name = "records"

urlpatterns = [
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("history/", views.history, name="history"),
    path("players/<str:username>/", views.player, name="player"),
    path("friends/add/", friends_views.add_friend, name="friend_add"),
    path("friends/remove/", friends_views.remove_friend, name="friend_remove"),
    path("friends/suggest/", friends_views.suggest, name="friend_suggest"),
    path("games/<int:game_id>/sheet/", views.sheet, name="sheet"),
    path("games/<int:game_id>/replay/", views.replay, name="replay"),
    path("games/<int:game_id>/export.json", views.export, name="export"),
]
