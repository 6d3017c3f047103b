"""What other apps may want to hear about an account, without accounts importing them."""

from django.dispatch import Signal

# Sent with `user` after their email preferences change (the profile form or an unsubscribe link),
# so that plans made with the old ones (a reminder's due time) can follow.
email_preferences_changed = Signal()
