import pytest


@pytest.fixture
def post(django_capture_on_commit_callbacks):
    """A POST whose work after the commit (the emails) runs as it would after a real one."""

    def post(client, path: str, data: dict | None = None, **extra):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(path, data or {}, **extra)

    return post
