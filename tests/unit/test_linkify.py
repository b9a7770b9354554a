"""link_targets: what the widget's linkify turns into links."""

from __future__ import annotations

import pytest

import doiname
from doiname.linkify import link_targets

from .strategies import SICI


def test_spans_and_targets() -> None:
    text = f"See doi:10.1000/182. Also {SICI}, and (https://doi.org/10.1000/456%23789)."
    [targets] = link_targets([text])
    assert [text[t.start:t.end] for t in targets] == [
        "doi:10.1000/182", SICI, "https://doi.org/10.1000/456%23789"]
    assert [t.href for t in targets] == [
        "https://doi.org/10.1000/182",
        "https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O",
        "https://doi.org/10.1000/456%23789",
    ]
    assert targets[2].name == "10.1000/456#789"


def test_proxy_level_resolver() -> None:
    [[t]] = link_targets(["10.1000/456#789"],
                         proxy="https://login.ezproxy.example.edu/login?qurl=")
    assert t.href == ("https://login.ezproxy.example.edu/login?qurl="
                      "https%3A%2F%2Fdoi.org%2F10.1000%2F456%2523789")
    [[t]] = link_targets(["10.1000/456#789"], proxy="https://login.ezproxy.example.edu/login?url=")
    assert t.href == "https://login.ezproxy.example.edu/login?url=https://doi.org/10.1000/456%23789"
    [[t]] = link_targets(["doi:10.1000/x/y"], level="strict", resolver="https://dx.doi.org/")
    assert t.href == "https://dx.doi.org/10.1000/x%2Fy"


def test_bad_options_raise_once() -> None:
    with pytest.raises(doiname.DoiError):
        link_targets(["10.1000/182"], proxy="https://x.example.edu/no-url-param")
    with pytest.raises(doiname.DoiError):
        link_targets(["10.1000/182"], level="loose")


def test_texts_without_dois() -> None:
    assert link_targets(["", "no doi here", "10.5 percent", "ISBN 978-3-16-148410-0"]) == [
        [], [], [], []]


def test_utf16_offsets_after_astral_characters() -> None:
    text = "\U0001f600 see 10.1000/182 \U0001f4da doi:10.1000/xyz"
    a, b = link_targets([text])[0]
    assert (a.start, a.end, a.start16, a.end16) == (6, 17, 7, 18)
    assert text.encode("utf-16-le")[2 * b.start16:2 * b.end16].decode("utf-16-le") == (
        "doi:10.1000/xyz")
