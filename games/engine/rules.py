"""The turn (rules §6 to §8, §10, §11): what the player to move may do, and what it changes.

`apply` and `legal_actions` must agree exactly: `apply` accepts an action if and only if
`legal_actions` lists it. Both are on the hot path of simulations, hence the precomputed action
values and the cheap copies (`state.evolve`).
"""

from __future__ import annotations

from functools import cache

from .actions import (
    Action,
    ChooseSpirit,
    EndTurn,
    IllegalAction,
    InvalidAction,
    PlaceCube,
    PlaceToken,
    ResetTurn,
    TakeCard,
    TakeTokens,
)
from .cards import card
from .habitats import cube_targets
from .hexgrid import geometry
from .state import (
    CARD_LIMIT,
    TOKENS_PER_SPACE,
    GameState,
    PlayerState,
    TurnStart,
    evolve,
)
from .tokens import (
    COLOURS,
    LANDSCAPES,
    LEGAL_STACKS,
    Landscape,
    Stack,
    no_token_error,
    placement_error,
)
from .words import _

# For each colour, the stacks it may go on (§4.1): a set lookup per hex instead of a rule check.
_ACCEPTS: dict[str, frozenset[Stack]] = {
    colour: frozenset(s[:-1] for s in LEGAL_STACKS if s[-1] == colour) for colour in COLOURS
}
_TAKE = tuple(TakeTokens(i) for i in range(5))
_RESET = ResetTurn()
_END = EndTurn()


@cache
def _place_actions(side: str) -> dict[str, tuple[PlaceToken, ...]]:
    """PlaceToken values per colour, indexed by cell: built once, shared by every state."""
    names = geometry(side).names
    return {c: tuple(PlaceToken(c, n) for n in names) for c in COLOURS}


@cache
def _cube_actions(side: str, card_id: str) -> tuple[PlaceCube, ...]:
    return tuple(PlaceCube(card_id, n) for n in geometry(side).names)


def landscapes(player: PlayerState) -> tuple[Landscape, ...]:
    """What each hex of a board is, in cell order (habitat matching works on this)."""
    return tuple(map(LANDSCAPES.__getitem__, player.stacks))


def token_cells(player: PlayerState, colour: str) -> list[int]:
    """Cell indices where a token of `colour` may go now: legal stack below and no cube."""
    accepts = _ACCEPTS[colour]
    mask = player.cube_mask
    return [i for i, s in enumerate(player.stacks) if s in accepts and not mask >> i & 1]


def cube_cards(player: PlayerState) -> list[str]:
    """The cards whose next cube may be placed: uncompleted animals, then an unplaced spirit."""
    ids = [c for c, _ in player.cards]
    if player.spirit is not None and not player.spirit_placed:
        ids.append(player.spirit)
    return ids


def spirit_pending(state: GameState) -> bool:
    """The mover must still keep one of the two dealt Nature's Spirit cards (§10, §0 D7)."""
    return bool(state.players[state.current_seat].spirit_options)


def game_ends_after_turn(state: GameState) -> bool:
    """Solo: whether ending the turn now ends the game (§6.3, §0 D5); no discard is offered then."""
    return len(state.pouch) < TOKENS_PER_SPACE or state.mover.empty_hexes <= 2


def can_discard(state: GameState, card_id: str | None = None) -> str | None:
    """None if a solo display discard (of `card_id`, if given) is allowed, else why not."""
    if not state.config.solo:
        return _("display cards can only be discarded in solo games")
    if state.took_card:
        return _("you took an animal card this turn, so you cannot also discard one")
    if not state.deck:
        return _("the draw pile is empty: a discarded card could not be replaced")
    if game_ends_after_turn(state):
        return _("the game ends with this turn: there is no card to discard")
    if card_id is not None and card_id not in state.display:
        return _("that card is not in the display")
    return None


def legal_actions(state: GameState) -> list[Action]:
    """Everything the player to move may do now, in a stable order (never an empty list
    while the game is on: ending the turn or taking tokens is always possible)."""
    if state.finished:
        return []
    player = state.players[state.current_seat]
    if player.spirit_options:
        return [ChooseSpirit(c) for c in player.spirit_options]
    side = state.config.side
    out: list[Action] = []
    if state.taken_space is None:
        out.extend(_TAKE[i] for i, space in enumerate(state.central) if space)
    elif state.hand:
        places = _place_actions(side)
        for colour in COLOURS:
            if colour in state.hand:
                acts = places[colour]
                out.extend(acts[i] for i in token_cells(player, colour))
    if not state.took_card and player.cards_held < CARD_LIMIT:
        out.extend(TakeCard(c) for c in state.display)
    ids = cube_cards(player)
    if ids:
        lands = landscapes(player)
        for card_id in ids:
            targets = cube_targets(side, lands, player.cube_mask, card_id)
            if targets:
                acts = _cube_actions(side, card_id)
                out.extend(acts[i] for i in sorted(targets))
    if state.taken_space is not None and not state.hand:
        out.append(_END)
        if can_discard(state) is None:
            out.extend(EndTurn(c) for c in state.display)
    if state.turn_start is not None:
        out.append(_RESET)
    return out


def apply(state: GameState, action: Action) -> GameState:
    """The state after the player to move does `action`; IllegalAction says why not."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise InvalidAction(f"not an action: {action!r}")
    if state.finished:
        raise IllegalAction(_("the game is over"))
    if spirit_pending(state) and type(action) is not ChooseSpirit:
        raise IllegalAction(_("choose your Nature's Spirit card first"))
    return handler(state, action)


def _started(state: GameState) -> TurnStart:
    """The turn-start snapshot, taken at the turn's first action (copy-on-write: no copying)."""
    if state.turn_start is not None:
        return state.turn_start
    return TurnStart(state.mover, state.central, state.display)


def _with_mover(state: GameState, player: PlayerState) -> tuple[PlayerState, ...]:
    players = list(state.players)
    players[state.current_seat] = player
    return tuple(players)


def _choose_spirit(state: GameState, action: ChooseSpirit) -> GameState:
    player = state.mover
    if not state.config.spirits:
        raise IllegalAction(_("this game is played without Nature's Spirit cards"))
    if not player.spirit_options:
        raise IllegalAction(_("you already chose your Nature's Spirit card"))
    if action.card_id not in player.spirit_options:
        raise IllegalAction(_("that Nature's Spirit card was not dealt to you"))
    # The other card goes back to the box: it is not kept anywhere (nobody may see it).
    chosen = evolve(player, spirit=action.card_id, spirit_options=())
    return evolve(state, players=_with_mover(state, chosen), turn_start=_started(state))


def _take_tokens(state: GameState, action: TakeTokens) -> GameState:
    if state.taken_space is not None:
        raise IllegalAction(_("you already took tokens this turn"))
    space = action.space
    if not 0 <= space < len(state.central):
        raise IllegalAction(
            _("there is no central space %(space)s (they are 0 to %(last)d)")
            % {"space": space, "last": len(state.central) - 1}
        )
    if not state.central[space]:
        raise IllegalAction(_("that central space is empty"))
    central = list(state.central)
    central[space] = ()
    return evolve(
        state,
        central=tuple(central),
        hand=state.central[space],
        taken_space=space,
        turn_start=_started(state),
    )


def _cell_index(state: GameState, cell: str) -> int:
    index = geometry(state.config.side).index.get(cell)
    if index is None:
        raise IllegalAction(
            _("there is no hex %(cell)s on a side-%(side)s board")
            % {"cell": cell, "side": state.config.side}
        )
    return index


def _place_token(state: GameState, action: PlaceToken) -> GameState:
    colour = action.colour
    if colour not in state.hand:
        if state.taken_space is None:
            raise IllegalAction(_("take 3 tokens from the central board first"))
        if not state.hand:
            raise IllegalAction(_("you have placed all the tokens you took"))
        raise IllegalAction(no_token_error(colour))
    index = _cell_index(state, action.cell)
    player = state.mover
    if player.cube_mask >> index & 1:
        raise IllegalAction(_("a hex with a cube on it cannot take more tokens"))
    stack = player.stacks[index]
    error = placement_error(stack, colour)
    if error is not None:
        raise IllegalAction(error)
    stacks = list(player.stacks)
    stacks[index] = (*stack, colour)
    hand = list(state.hand)
    hand.remove(colour)
    return evolve(
        state,
        players=_with_mover(state, evolve(player, stacks=tuple(stacks))),
        hand=tuple(hand),
        turn_start=_started(state),
    )


def _take_card(state: GameState, action: TakeCard) -> GameState:
    if state.took_card:
        raise IllegalAction(_("you already took an animal card this turn"))
    if action.card_id not in state.display:
        raise IllegalAction(_("that card is not in the display"))
    player = state.mover
    if player.cards_held >= CARD_LIMIT:
        spirit = player.spirit is not None and not player.spirit_placed
        if spirit:
            raise IllegalAction(
                _(
                    "you already hold %(num)d cards (your Nature's Spirit card counts until its "
                    "cube is placed)"
                )
                % {"num": CARD_LIMIT}
            )
        raise IllegalAction(_("you already hold %(num)d cards") % {"num": CARD_LIMIT})
    display = tuple(c for c in state.display if c != action.card_id)
    held = evolve(player, cards=(*player.cards, (action.card_id, 0)))
    return evolve(
        state,
        players=_with_mover(state, held),
        display=display,
        took_card=True,
        turn_start=_started(state),
    )


def _place_cube(state: GameState, action: PlaceCube) -> GameState:
    player = state.mover
    card_id = action.card_id
    is_spirit = card_id == player.spirit and not player.spirit_placed
    if not is_spirit and all(c != card_id for c, _ in player.cards):
        if card_id in player.completed or card_id == player.spirit:
            raise IllegalAction(_("that card has no cube left"))
        raise IllegalAction(_("you do not hold that card"))
    index = _cell_index(state, action.cell)
    if player.cube_mask >> index & 1:
        raise IllegalAction(_("that hex already carries a cube"))
    targets = cube_targets(state.config.side, landscapes(player), player.cube_mask, card_id)
    if index not in targets:
        raise IllegalAction(
            _("the %(card)s habitat is not on your board with its cube hex on %(cell)s")
            % {"card": _(card(card_id).name), "cell": action.cell}
        )
    cube_mask = player.cube_mask | 1 << index
    if is_spirit:
        player = evolve(player, cube_mask=cube_mask, spirit_placed=True)
    else:
        cards = []
        completed = player.completed
        for c, k in player.cards:
            if c == card_id:
                k += 1
                if k == card(c).cube_count:
                    # Completed: set aside, no longer counting toward the 4-card limit (§7.2).
                    completed = (*completed, c)
                    continue
            cards.append((c, k))
        player = evolve(player, cube_mask=cube_mask, cards=tuple(cards), completed=completed)
    return evolve(state, players=_with_mover(state, player), turn_start=_started(state))


def _reset_turn(state: GameState, action: ResetTurn) -> GameState:
    start = state.turn_start
    if start is None:
        raise IllegalAction(_("nothing to undo: the turn has not started yet"))
    return evolve(
        state,
        players=_with_mover(state, start.player),
        central=start.central,
        display=start.display,
        hand=(),
        taken_space=None,
        took_card=False,
        turn_start=None,
    )


def _end_turn(state: GameState, action: EndTurn) -> GameState:
    if state.taken_space is None:
        raise IllegalAction(_("take 3 tokens from the central board first"))
    if state.hand:
        raise IllegalAction(_("place all the tokens you took before ending your turn"))
    if action.discard is not None:
        error = can_discard(state, action.discard)
        if error is not None:
            raise IllegalAction(error)
    return end_turn(state, action.discard)


def end_turn(state: GameState, discard: str | None) -> GameState:
    """Refills, the solo discard and the end triggers (§6.2, §6.3, §8); no legality checks."""
    config = state.config
    seat = state.current_seat
    player = state.mover
    player = evolve(player, turns=player.turns + 1)
    central = list(state.central)
    pouch = state.pouch
    discarded_tokens = state.discarded_tokens
    triggered = False
    if config.solo:
        # The leftover tokens go back to the box, then every space is refilled in order (§0 D5).
        discarded_tokens += sum(map(len, central))
        central = [()] * len(central)
        if len(pouch) < TOKENS_PER_SPACE:
            triggered = True
        else:
            for i in range(len(central)):
                central[i], pouch = pouch[:TOKENS_PER_SPACE], pouch[TOKENS_PER_SPACE:]
    elif pouch:
        space = state.taken_space
        central[space], pouch = pouch[:TOKENS_PER_SPACE], pouch[TOKENS_PER_SPACE:]
    else:
        triggered = True  # the pouch is empty when a space must be refilled (§8)

    display = state.display
    deck = state.deck
    missing = config.display_size - len(display)
    if missing > 0 and deck:
        display, deck = display + deck[:missing], deck[missing:]
    discarded_cards = state.discarded_cards
    if discard is not None:
        i = display.index(discard)
        display = (*display[:i], deck[0], *display[i + 1 :])
        deck = deck[1:]
        discarded_cards = (*discarded_cards, discard)

    if player.empty_hexes <= 2:
        triggered = True
    ending = state.ending or triggered
    # The round is completed: the game ends after the seat just before the first player (§8).
    finished = ending and seat == (state.first_seat - 1) % config.players
    return evolve(
        state,
        players=_with_mover(state, player),
        central=tuple(central),
        pouch=pouch,
        display=display,
        deck=deck,
        current_seat=seat if finished else (seat + 1) % config.players,
        turn=state.turn + 1,
        hand=(),
        taken_space=None,
        took_card=False,
        turn_start=None,
        discarded_tokens=discarded_tokens,
        discarded_cards=discarded_cards,
        ending=ending,
        finished=finished,
    )


_HANDLERS = {
    ChooseSpirit: _choose_spirit,
    TakeTokens: _take_tokens,
    PlaceToken: _place_token,
    TakeCard: _take_card,
    PlaceCube: _place_cube,
    ResetTurn: _reset_turn,
    EndTurn: _end_turn,
}
