"""Keeps the Card table in agreement with the engine's card data (the engine is the source)."""

from games import engine


def sync_cards(card_model) -> int:
    """Insert or update every card; `card_model` may be a historical model from a migration."""
    for card_id in (*engine.ANIMAL_CARD_IDS, *engine.SPIRIT_CARD_IDS):
        card = engine.card(card_id)
        card_model.objects.update_or_create(
            id=card.id,
            defaults={
                "kind": card.kind,
                "number": card.number,
                "name": card.name,
                "stripe": card.stripe,
                "cube_count": card.cube_count,
                "points": list(card.points_top_to_bottom),
            },
        )
    return len(engine.ANIMAL_CARD_IDS) + len(engine.SPIRIT_CARD_IDS)
