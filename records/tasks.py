"""Celery tasks of the results tables. Each takes ids, keeps no result, and is safe to run twice."""

from datetime import timedelta

from celery import shared_task
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import Game
from records import services
from records.models import GameRecord

# A game whose record task was lost is recorded by the sweep within this window of its
# finalize; older ones only by `manage.py rebuild_records`. The sweep reads recent games only.
LOST_RECORD_WINDOW = timedelta(days=2)
LOST_RECORD_AFTER = timedelta(minutes=5)
SWEEP_BATCH = 500


@shared_task(name="records.record_game", ignore_result=True)
def record_game(game_id: int) -> bool:
    """Score sheets and ratings of a finalized game; a second run finds the game recorded."""
    return services.record_game(game_id)


@shared_task(name="records.sweep_unrecorded", ignore_result=True)
def sweep_unrecorded() -> int:
    """Games finalized lately whose record task was lost (a worker down, a broker restart):
    recorded now, each by its own idempotent task, so the tables catch up without a rebuild."""
    now = timezone.now()
    lost = (
        Game.objects.finalized()
        .filter(guided=False)  # never recorded (records.services._recordable)
        .filter(finalized_at__range=(now - LOST_RECORD_WINDOW, now - LOST_RECORD_AFTER))
        .filter(~Exists(GameRecord.objects.filter(game=OuterRef("pk"))))
        .order_by("finalized_at")
        .values_list("pk", flat=True)
    )
    found = list(lost[:SWEEP_BATCH])
    for game_id in found:
        record_game.delay(game_id)
    return len(found)


@shared_task(name="records.rebuild_records", ignore_result=True)
def rebuild_records() -> dict[str, int]:
    """Every derived table again from the games: maintenance (after a scoring fix), never on a
    schedule, since it reads the whole history."""
    return services.rebuild()
