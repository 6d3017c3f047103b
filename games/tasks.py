"""Celery tasks. Each takes ids, keeps no result, and is safe to run twice."""

from celery import shared_task

from games import services


@shared_task(name="games.finalize_game", ignore_result=True)
def finalize_game(game_id: int) -> bool:
    """Final scores and ranks for a finished game; a second run finds nothing to claim."""
    return services.finalize(game_id)
