"""Celery tasks of the results tables. Each takes ids, keeps no result, and is safe to run twice."""

from celery import shared_task

from records import services


@shared_task(name="records.record_game", ignore_result=True)
def record_game(game_id: int) -> bool:
    """Score sheets and ratings of a finalized game; a second run finds the game recorded."""
    return services.record_game(game_id)


@shared_task(name="records.rebuild_records", ignore_result=True)
def rebuild_records() -> dict[str, int]:
    """The nightly sweep: every derived table again from the games, catching up lost tasks."""
    return services.rebuild()
