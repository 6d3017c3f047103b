"""The game page's "Table channel" section asks `table_channel(game, seat)` for what to show; the
function is handed to every template and reads only when a page calls it."""

from django.http import HttpRequest

from webhooks.channels import for_viewer


def table_channel(request: HttpRequest) -> dict:
    return {"table_channel": for_viewer}
