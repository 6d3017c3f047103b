import pytest
from django.test import override_settings

from tests.webhooks.receiver import Receiver


@pytest.fixture
def receiver(tmp_path):
    with Receiver(tmp_path) as chat:
        yield chat


@pytest.fixture
def local_chat(receiver):
    """The local chat trusted (its certificate) and allowed (a loopback address): the only two
    settings that differ from production, shared with the push tests."""
    with override_settings(PUSH_ALLOW_PRIVATE_ENDPOINTS=True, PUSH_CA_BUNDLE=str(receiver.cert)):
        yield receiver
