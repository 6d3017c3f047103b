"""What other apps may want to hear about an account, without accounts importing them."""

from django.dispatch import Signal

# Sent with `user` after their email preferences change (the profile form or an unsubscribe link),
# so that plans made with the old ones (a reminder's due time) can follow.
email_preferences_changed = Signal()

# Sent with `user`, `was_back` (when their clocks would have run again before the change: their
# return if they were away, else `now`) and `now`, inside the transaction that changed the player's
# return date, so that the time limits of the turns waiting for them move with it.
away_changed = Signal()

# Sent with `user` inside the transaction that confirms their email address. A receiver may return
# a list of (words, url) pairs: what now waits for them (an invitation to that address), which the
# confirmation page offers as the way on.
email_confirmed = Signal()
