"""The guide beside the board of a guided first game: which step the player is on, in words.

Nothing of the guide is stored. The step is read from the game's state each time the page is
drawn (the board, the cards and the turns played only grow, and a reset of the turn takes the
state back with the guide), so a reload, a second tab or a step done out of order all agree:
the guide names the first step not yet done, and says which later ones were done ahead of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import engine
from games.engine.explain import explain_board
from games.engine.names import card_name
from games.engine.queries import scored_cards
from games.models import Game, Seat
from games.narration import cell_words
from harmonies_site.addresses import url


@dataclass(frozen=True)
class Step:
    """One step of the lesson: what to do, why, and the page's part it means (`target`, the
    id of a section or a named control that guide.css outlines)."""

    key: str
    title: str
    phrase: str  # the title inside a sentence ("take a space"): some languages keep capitals
    todo: str
    why: str
    target: str
    anchor: str  # the rules page's section about it


STEPS = (
    Step(
        "space",
        gettext_lazy("Take a space"),
        gettext_lazy("take a space"),
        gettext_lazy(
            "Press one of the three spaces of the central board (Take space 1, 2 or 3) to take its"
            " 3 tokens."
        ),
        gettext_lazy(
            "Every turn starts this way: the tokens are what you build your landscape with."
        ),
        "central",
        "turn",
    ),
    Step(
        "place",
        gettext_lazy("Place a token"),
        gettext_lazy("place a token"),
        gettext_lazy(
            "Choose a token under Tokens in hand, then a highlighted hex of your board (without "
            "JavaScript, pick the hex in the list and press Place)."
        ),
        gettext_lazy(
            "Each colour is a landscape: blue water, yellow fields, gray mountains, green trees, "
            "brown trunks, red buildings."
        ),
        "hand",
        "stacking",
    ),
    Step(
        "stack",
        gettext_lazy("Stack a token"),
        gettext_lazy("stack a token"),
        gettext_lazy(
            "Place a token on top of one already on your board: green on brown makes a tree, gray "
            "on gray a mountain, red on brown, gray or red a building."
        ),
        gettext_lazy("Taller trees and mountains score more, and many animals need them."),
        "hand",
        "stacking",
    ),
    Step(
        "card",
        gettext_lazy("Take an animal card"),
        gettext_lazy("take an animal card"),
        gettext_lazy("Press Take under one of the animal cards."),
        gettext_lazy(
            "Each card shows a habitat: once your board has it, you move one of the card's cubes "
            "onto it, and the card scores the points the cube uncovered."
        ),
        "display",
        "cards",
    ),
    Step(
        "cube",
        gettext_lazy("Place an animal cube"),
        gettext_lazy("place an animal cube"),
        gettext_lazy(
            "When your board has the habitat drawn on your card, press Place a cube under the "
            "card, then the outlined hex of your board (without JavaScript, press Place beside the"
            " list)."
        ),
        gettext_lazy(
            "A cube sits on the hex the card marks, which can take no more tokens; the more cubes "
            "you place, the more the card is worth."
        ),
        "my-cards",
        "cards",
    ),
    Step(
        "end",
        gettext_lazy("End your turn"),
        gettext_lazy("end your turn"),
        gettext_lazy(
            "Press End my turn. In solo, on a turn when you took no animal card, you may first "
            "choose a card of the display to discard."
        ),
        gettext_lazy(
            "In solo the tokens left on the central board go back in the box and its 3 spaces are "
            "refilled for the next turn; until you end it, Reset my turn takes the turn back."
        ),
        "end-turn",
        "turn",
    ),
    Step(
        "scores",
        gettext_lazy("Read the scores"),
        gettext_lazy("read the scores"),
        gettext_lazy(
            "Look at Scores so far: it adds up your board as it stands. Play on to the end of the "
            "game, or press Finish the lesson to see your score sheet explained."
        ),
        gettext_lazy(
            "Every landscape scores its own way at the end of the game; the table shows how your "
            "board would score now."
        ),
        "scores",
        "end",
    ),
)
STEP_KEYS = tuple(step.key for step in STEPS)


def steps_done(state: engine.GameState) -> dict[str, bool]:
    """Which steps the solo player's board shows done. Tokens, cards, cubes and turns are never
    taken back once a turn ends, and a reset within the turn takes the state back with them."""
    player = state.players[0]
    return {
        "space": player.turns > 0 or state.taken_space is not None,
        "place": any(player.stacks),
        "stack": any(len(stack) >= 2 for stack in player.stacks),
        "card": bool(player.cards or player.completed),
        "cube": player.cube_mask != 0,
        "end": player.turns > 0,
        "scores": False,  # read, not done: the lesson ends when the game does
    }


def current_step(state: engine.GameState) -> tuple[Step, list[Step]]:
    """The first step not yet done, and the later steps already done ahead of it."""
    done = steps_done(state)
    index = next(i for i, step in enumerate(STEPS) if not done[step.key])
    return STEPS[index], [step for step in STEPS[index + 1 :] if done[step.key]]


@dataclass
class Guide:
    """What the guide panel shows."""

    game_id: int
    version: int
    finished: bool
    step: Step | None = None
    number: int = 0
    total: int = len(STEPS)
    ahead: list[Step] = field(default_factory=list)
    note: str = ""
    target: str = ""
    steps: list[dict[str, Any]] = field(default_factory=list)
    sheet_lines: list[dict[str, Any]] = field(default_factory=list)
    score: int = 0
    suns: int = 0  # what the score would make in a real solo game on the same settings
    rules_url: str = ""


def guide_panel(game: Game, viewer_seat: Seat | None) -> Guide | None:
    """The guide for the player of a guided game; None for any other game or viewer."""
    if not game.guided or viewer_seat is None:
        return None
    state = game.engine_state()
    sheet = game.score_sheets()[0]
    guide = Guide(
        game_id=game.pk,
        version=game.version,
        finished=game.status == Game.Status.FINISHED,
        score=sheet.total,
        rules_url=rules_url(),
    )
    if guide.finished:
        guide.sheet_lines = sheet_lines(game.side, sheet, state.players[0], spirits=game.spirits)
        guide.suns = engine.suns(state, sheet.total) or 0
        guide.target = "final"
        return guide
    step, ahead = current_step(state)
    done = steps_done(state)
    guide.step, guide.ahead = step, ahead
    guide.number = STEP_KEYS.index(step.key) + 1
    guide.note, guide.target = _situation(state, step)
    guide.steps = [
        {"title": str(s.title), "done": done[s.key], "current": s is step} for s in STEPS
    ]
    return guide


def _situation(state: engine.GameState, step: Step) -> tuple[str, str]:
    """A sentence for where the player stands when the step cannot be done right now, and the
    control the guide points at then (the step's own when it can)."""
    taken = state.taken_space is not None
    if step.key in ("place", "stack") and not state.hand:
        if not taken:
            return _("First take 3 tokens: press a space of the central board."), "central"
        return (
            _(
                "Every token you took this turn is placed: end your turn, then take new tokens "
                "(or press Reset my turn to start this turn again)."
            ),
            "end-turn",
        )
    if step.key == "place" and state.hand:
        tip = _stacking_tip(state.hand)
        return tip, step.target
    if step.key == "stack" and state.hand:
        stackable = _stackable(state)
        if stackable:
            sentence = _and(stackable)
            return f"{sentence[0].upper()}{sentence[1:]}.", step.target
        return (
            _(
                "None of the tokens in your hand can go on top of the ones on your board: place "
                "them, end your turn and take tokens that stack next turn, or press Reset my turn."
            ),
            step.target,
        )
    if step.key == "cube":
        options = engine.cube_options(state, 0)
        matched = [card_name(card_id) for card_id, cells in options.items() if cells]
        if matched:
            return (
                _("Your board has the %(cards)s habitat: the card shows Place a cube.")
                % {"cards": _and(matched)},
                step.target,
            )
        if state.hand:
            names = _and([card_name(card_id) for card_id in options])
            return (
                _(
                    "Build the habitat drawn on your %(cards)s card with the tokens in your "
                    "hand; the cube goes on the hex drawn with a cube."
                )
                % {"cards": names},
                "hand",
            )
        if not taken:
            return _("Take 3 tokens first, to build the habitat your card shows."), "central"
        return (
            _(
                "Your board does not have the habitat yet and your tokens are placed: end your "
                "turn and build it next turn."
            ),
            "end-turn",
        )
    if step.key == "end" and (not taken or state.hand):
        if not taken:
            return _("Take 3 tokens first: a turn ends once they are all placed."), "central"
        return _("Place every token in your hand first: then End my turn appears."), "hand"
    return "", step.target


# Which token to put down first so the next can go on it, a whole sentence for each pair
# (colour words agree with their noun in many languages).
_TIPS = (
    (
        "brown",
        "green",
        gettext_lazy(
            "Tip: put the brown token down first; next step, the green one can go on top of it."
        ),
    ),
    (
        "gray",
        "gray",
        gettext_lazy(
            "Tip: put the gray token down first; next step, the gray one can go on top of it."
        ),
    ),
    (
        "brown",
        "red",
        gettext_lazy(
            "Tip: put the brown token down first; next step, the red one can go on top of it."
        ),
    ),
    (
        "gray",
        "red",
        gettext_lazy(
            "Tip: put the gray token down first; next step, the red one can go on top of it."
        ),
    ),
)


def _stacking_tip(hand: tuple[str, ...]) -> str:
    """On the first placement: which token to put down so the next can be stacked on it."""
    for base, top, tip in _TIPS:
        others = list(hand)
        if base in others:
            others.remove(base)
            if top in others:
                return str(tip)
    return ""


def _stack_words(colour: str, base: str, cell: str) -> str:
    """ "the green token can go on your brown token in column 3, 3rd from the top": one sentence
    for each legal pair (top token, top of the stack), so colour words can agree."""
    where = {"cell": cell_words(cell)}
    sentences = {
        ("green", "brown"): _("the green token can go on your brown token in %(cell)s"),
        ("brown", "brown"): _("the brown token can go on your brown token in %(cell)s"),
        ("gray", "gray"): _("the gray token can go on your gray token in %(cell)s"),
        ("red", "brown"): _("the red token can go on your brown token in %(cell)s"),
        ("red", "gray"): _("the red token can go on your gray token in %(cell)s"),
        ("red", "red"): _("the red token can go on your red token in %(cell)s"),
    }
    sentence = sentences.get((colour, base))
    if sentence is None:  # no other pair stacks; kept plain should the rules grow
        return f"the {colour} token can go on your {base} token in {where['cell']}"
    return sentence % where


def _stackable(state: engine.GameState) -> list[str]:
    """Where a token in hand can go on top of one already on the board, in the words of the
    list of hexes (without JavaScript nothing else points at them): "the green token can go on
    your brown token in column 3, 3rd from the top"."""
    index = engine.geometry(state.config.side).index
    stacks = state.players[0].stacks
    found = [
        _stack_words(colour, stacks[index[cell]][-1], cell)
        for colour in sorted(set(state.hand))
        for cell in engine.token_targets(state, colour)
        if stacks[index[cell]]
    ]
    return found[:3]  # a few are enough to show the way


# What each line of the sheet rewards, said once under the player's own figures.
RULE_WORDS = {
    "trees": gettext_lazy(
        "A tree scores by its height: 1, 3 or 7 points; a brown trunk alone scores nothing."
    ),
    "mountains": gettext_lazy(
        "A mountain scores 1, 3 or 7 by its height, but only beside another mountain."
    ),
    "fields": gettext_lazy(
        "Each group of 2 or more yellow tokens touching scores 5, whatever its size."
    ),
    "buildings": gettext_lazy(
        "A building (red on brown, gray or red) scores 5 with 3 different colours "
        "among its neighbours."
    ),
    "water": gettext_lazy(
        "On side A only the longest river scores: 2, 5, 8, 11 and 15 points for 2 to 6 "
        "tokens, then 4 more for each token."
    ),
    "animals": gettext_lazy(
        "Each card scores the points printed in the highest space its cubes uncovered."
    ),
    "spirit": gettext_lazy("A Nature's Spirit scores its own rule once its cube is on the board."),
}


def sheet_lines(
    side: str, sheet: engine.ScoreSheet, player: engine.PlayerState, *, spirits: bool
) -> list[dict[str, Any]]:
    """The score sheet line by line: each category with the player's figures (the engine's
    explanation, whose parts add up to the sheet) and what the category rewards."""
    held = scored_cards(player)
    cubes = [
        ngettext(  # counted on the cubes placed ("1 cube placé sur 4"); English says "cubes"
            "%(card)s has %(num)s of %(total)s cubes placed",
            "%(card)s has %(num)s of %(total)s cubes placed",
            placed,
        )
        % {"card": card_name(card_id), "num": placed, "total": engine.card(card_id).cube_count}
        for card_id, placed in held
        if engine.card(card_id).kind == "animal"
    ]
    lines = []
    for line in explain_board(side, player.stacks, held, sheet):
        if line.category == "spirit" and not spirits:
            continue  # a game without the module has no such line
        words = [f"{line.text}."]
        if line.category == "animals" and cubes:
            words.append(f"{_and(cubes)}.")
        words.append(str(RULE_WORDS[line.category]))
        lines.append(
            {
                "label": line.label,
                "points": line.total,
                "anchor": line.rules_anchor,
                "words": " ".join(words),
            }
        )
    return lines


def rules_url() -> str:
    """The rules page; its sections (#turn, #trees...) are what each step and line links to."""
    return url("rules")


def _and(words: list[str]) -> str:
    """ "a, b and c" in the reader's language."""
    if len(words) <= 1:
        return "".join(words)
    return _("%(items)s and %(last)s") % {"items": ", ".join(words[:-1]), "last": words[-1]}
