"""What a request was answered with, as the player's browser takes it."""


def answered(response) -> int:
    """The status of an answer. A refusal to htmx comes as 200 with its status in
    `X-Refused-Status` (harmonies_site.middleware.HtmxRefusalsMiddleware): that status, once the
    answer is checked to be a 200 the browser will not log as a failure."""
    refused = response.get("X-Refused-Status")
    if refused is None:
        return response.status_code
    assert response.status_code == 200, "a refusal to htmx answers 200"
    return int(refused)
