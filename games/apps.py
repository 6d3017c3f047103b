from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from django.utils import translation

        from accounts.signals import away_changed, email_confirmed, email_preferences_changed
        from games.engine import words

        # The engine's words in the language of each request and email (games/engine/words.py).
        from games.jinja import remembered_gettext

        words.install(remembered_gettext, translation.ngettext, translation.pgettext)
        from games import reminders
        from harmonies_site import checks  # noqa: F401  (registers the site's system checks)

        email_preferences_changed.connect(
            reminders.on_email_preferences_changed, dispatch_uid="games.replan_reminders"
        )
        away_changed.connect(on_away_changed, dispatch_uid="games.move_turn_clocks")
        email_confirmed.connect(on_email_confirmed, dispatch_uid="games.claim_invitations")


def on_email_confirmed(sender, user, **kwargs) -> list[tuple[str, str]]:
    """The invitations sent to the address just confirmed become the account's: the way on from
    the confirmation page is each one's table."""
    from django.utils.translation import gettext as _

    from games import services

    return [
        (
            _("%(name)s invites you to %(game)s")
            % {"name": i.invited_by.public_name, "game": i.game.title},
            i.game.get_absolute_url(),
        )
        for i in services.claim_invitations(user)
    ]


def on_away_changed(sender, user, was_back, now, **kwargs) -> None:
    """A player's return date changed: the clocks of the turns waiting for them move, and back
    early, the turn emails held while they were away go out."""
    from games.mail.returns import tell_of_waiting_turns
    from games.services.away import move_turn_clocks

    move_turn_clocks(user, was_back, now)
    if not user.is_away_at(now):
        tell_of_waiting_turns(user, now)
