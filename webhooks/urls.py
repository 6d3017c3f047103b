from django.urls import path

from . import views

app_name = "webhooks"

urlpatterns = [
    path("channels/", views.channels_page, name="channels"),
    path("channels/<int:hook_id>/test/", views.send_test, name="test"),
    path("channels/<int:hook_id>/remove/", views.remove, name="remove"),
    path("tables/<int:game_id>/", views.table_channel, name="table"),
    path("boards/<str:token>.png", views.board, name="board"),
]
