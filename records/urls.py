from django.urls import path

from . import views

app_name = "records"

urlpatterns = [
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("history/", views.history, name="history"),
    path("players/<str:username>/", views.player, name="player"),
    path("games/<int:game_id>/sheet/", views.sheet, name="sheet"),
    path("games/<int:game_id>/replay/", views.replay, name="replay"),
    path("games/<int:game_id>/export.json", views.export, name="export"),
]
