"""The test client of one person: the same few lines were in fifteen test modules."""

from django.test import Client


def as_user(user) -> Client:
    """A browser logged in as `user`, or a visitor's when `user` is None."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client
