"""Answers are gzipped at a fast level, padded against BREACH as Django pads them."""

import gzip

from django.http import HttpResponse, StreamingHttpResponse
from django.test import RequestFactory

from harmonies_site.compression import GZipMiddleware

PAGE = ("<p>" + "a game page, in words and pictures " * 200 + "</p>").encode()


def answer(content=PAGE, accept="gzip, deflate", response=None):
    request = RequestFactory().get("/", headers={"Accept-Encoding": accept})
    middleware = GZipMiddleware(lambda request: response or HttpResponse(content))
    return middleware(request)


def test_a_page_comes_back_whole_and_marked():
    response = answer()

    assert response["Content-Encoding"] == "gzip"
    assert response["Vary"] == "Accept-Encoding"
    assert int(response["Content-Length"]) == len(response.content) < len(PAGE)
    assert gzip.decompress(response.content) == PAGE


def test_the_compressed_length_varies_from_one_answer_to_the_next():
    lengths = {len(answer().content) for _ in range(30)}

    assert len(lengths) > 5  # the random file name in the header, as Django's padding


def test_short_answers_and_browsers_without_gzip_get_plain_text():
    assert not answer(content=b"<p>short</p>").has_header("Content-Encoding")
    plain = answer(accept="identity")
    assert not plain.has_header("Content-Encoding")
    assert plain.content == PAGE
    assert plain["Vary"] == "Accept-Encoding"


def test_a_strong_etag_becomes_weak_and_streams_are_left_to_django():
    tagged = HttpResponse(PAGE)
    tagged["ETag"] = '"v1"'
    assert answer(response=tagged)["ETag"] == 'W/"v1"'

    streamed = answer(response=StreamingHttpResponse(iter([PAGE, PAGE])))
    assert streamed["Content-Encoding"] == "gzip"
    assert gzip.decompress(b"".join(streamed.streaming_content)) == PAGE + PAGE
