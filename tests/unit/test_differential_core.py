"""The fast paths of the core give exactly what its general paths give (the oracles).

* :func:`doiname.parse` (the common forms read at once, :mod:`doiname.plain_forms`) against
  :func:`doiname.read`, which keeps spans and so always takes the general reader: the same
  ``Doi`` (prefix and suffix), or the same error (code, message, position, end);
* :func:`doiname.to_url` and :func:`doiname.to_uri` (which write a name the reader proved
  plain, ``Doi._plain``, as it is) against the name rebuilt from
  :func:`doiname.explain_url` and :func:`doiname.encoding.explain_component` (each
  character's rule, written by ``percent_encode_char``), at every level and through the
  general path of ``to_url`` (a resolver given);
* the encoder (``encode_component`` with its list table over UTF-8 bytes) against
  ``str.translate`` with the dict table, in every context;
* :func:`doiname.equivalence_key` against 003 ch. 3 as written (only A-Z folded);
* ``decode`` without spans (``decode_valid``, quoted-printable in C) against ``decode``
  with spans (one escape at a time);
* :func:`doiname.check` of a ``Doi`` (its reading without spans,
  ``syntax.name_reading``) against the same check on :func:`doiname.read`'s reading of
  the ``Doi`` (every span written out): the same findings, field for field.

Over generated names of every shape of ``bench/core.py`` and the hard cases (``#``,
``%`` good and bad, ``< >``, ``;``, spaces, non-ASCII, lookalike dashes, invisible and
control characters, lone surrogates, SICI), the benchmark's own names, every fixture line
and every form of the reference-text strategies.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from functools import partial
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

import doiname
from doiname import Doi, DoiError
from doiname import findings as findings_module
from doiname.encoding import _POLICIES, CONTEXTS, LEVELS, encode_component, explain_component
from doiname.percent import decode, decode_valid
from doiname.presentation import DEFAULT_RESOLVER

from .reference_text import FORMS, PREFIXES, ROOT, SUFFIXES, fixture_lines, names, written
from .strategies import SICI, dois

HEADS = ["", "", "doi:", "DOI:", "Doi:", "https://doi.org/", "http://doi.org/", "http://dx.doi.org/",
         "https://www.doi.org/", "https://hdl.handle.net/", "https://doi-org.ezproxy.example.edu/",
         "http://dx-doi-org.lib.x.edu/", "https://www-doi-org.x.edu/", "https://doi-org.x.edu:8080/",
         "HTTPS://DOI.ORG/", "doi.org/", "https://doi.org./", "https://doi.org.evil.com/",
         "urn:doi:", "info:doi/", "hdl:", "doi: ", "https://doi-org.x.edu/login?url=https://doi.org/",
         "https://doi.org/urn:doi:", "https://doi.org/api/handles/", " ", "\t"]
NAME_PREFIXES = ["10.1234", "10.1", "10.12345.6", "10.1002", "10", "10.", "10..1", "11.1",
                 "10.12a", "1O.1234", "10.1234%2F5", ""]
PIECES = ["a", "Z", "x", "0", "9", ".", "..", "/", "-", "_", "~", "#", "?", "%", "<", ">", ";",
          ":", "(", ")", " ", "=", "&", "+", "\\", "\"", "'", "`", "{", "|", "^", "[", ",", "@",
          "%23", "%2F", "%2f", "%25", "%20", "%3D", "%3F", "%C3%81", "%c3%81", "%E2%80%90",
          "%ZZ", "%C3", "%81", "%00", "%7F", "%FF", "%ED%A0%80", "\u00c1", "\u00c9", "\u2010",
          "\u2212", "\u0430", "\u200b", "\u00a0", "\u3000", "\u202e", "\t", "\n", "\x1f", "\x85",
          "\ufffd", "\U0001f600", "\ud800", "\u0301", "\u6771", SICI[8:]]

shapes = st.builds(
    lambda head, prefix, pieces, tail: head + prefix + "/" + "".join(pieces) + tail,
    st.sampled_from(HEADS), st.sampled_from(NAME_PREFIXES),
    st.lists(st.sampled_from(PIECES), min_size=0, max_size=8),
    st.sampled_from(["", "", "", " ", "\n", "?x=1", "#frag", "%"]),
)


def bench_core_names(n: int = 3000) -> list[str]:
    """The names of ``bench/core.py`` (its own generator, a seed of its own)."""
    spec = importlib.util.spec_from_file_location("bench_core", ROOT / "bench" / "core.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made: list[str] = module.mixed_names(n, seed=11)
    return made


def outcome(fn: Callable[[], Any]) -> Any:
    """What ``fn`` gives, or the error it raises as (code, message, position, end)."""
    try:
        return fn()
    except DoiError as err:
        return ("error", err.code, err.message, err.position, err.end)


def rebuilt(text: str, changes: list[doiname.Change], offset: int = 0) -> str:
    """``text`` with each explained change applied (the oracle of the encoders)."""
    out: list[str] = []
    at = 0
    for c in sorted(changes, key=lambda c: c.start):
        out.append(text[at:c.start - offset])
        out.append(c.encoded)
        at = c.end - offset
    out.append(text[at:])
    return "".join(out)


def url_oracle(doi: Doi, level: str) -> str:
    return DEFAULT_RESOLVER + rebuilt(str(doi), doiname.explain_url(doi, level))


def uri_oracle(doi: Doi) -> str:
    return ("doi:" + rebuilt(doi.prefix, explain_component(doi.prefix, 0, "uri", slash=True))
            + "/" + rebuilt(doi.suffix, explain_component(doi.suffix, 0, "uri", slash=True)))


def key_oracle(doi: Doi) -> str:
    """003 ch. 3 as written: only U+0041..U+005A become U+0061..U+007A."""
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in str(doi))


def assert_same_name(text: str) -> None:
    fast = outcome(lambda: doiname.parse(text))
    slow = outcome(lambda: doiname.read(text).doi)
    assert fast == slow, text
    if isinstance(fast, Doi):
        assert type(fast) is Doi and (fast.prefix, fast.suffix) == (slow.prefix, slow.suffix)
        assert_same_outputs(fast)


def assert_same_outputs(doi: Doi) -> None:
    assert_same_check(doi)
    # to_uri first, on a copy (nothing kept), then to_url twice (the second from what the
    # first kept, Doi._escaped) and to_uri again (from what to_url kept).
    fresh = Doi(doi.prefix, doi.suffix)
    assert outcome(lambda: doiname.to_uri(fresh)) == outcome(lambda: uri_oracle(doi))
    for _ in range(2):
        assert outcome(lambda: doiname.to_url(doi)) == \
            outcome(lambda: url_oracle(doi, "recommended"))
    for level in LEVELS:  # the general path of to_url (a resolver given), every level
        general = outcome(partial(doiname.to_url, doi, level=level, resolver="https://doi.org"))
        assert general == outcome(partial(url_oracle, doi, level)), (doi, level)
    assert outcome(lambda: doiname.to_uri(doi)) == outcome(lambda: uri_oracle(doi))
    assert doiname.equivalence_key(doi) == key_oracle(doi)
    assert outcome(lambda: doiname.equivalence_key(str(doi))) == \
        outcome(lambda: key_oracle(doiname.read(str(doi)).doi))


def assert_same_check(doi: Doi) -> None:
    """check() of a Doi (the rules whose preconditions hold, on name_reading, the findings
    kept by the name's shape where every rule that applies says so) against every rule on
    the reading of read()."""
    fast = findings_module._check(doi)
    every = [findings_module.NameCheck(c.code, c.run, re.compile(""))
             for c in findings_module.CHECKS]
    with mock.patch.object(findings_module, "name_reading", doiname.read), \
            mock.patch.object(findings_module, "CHECKS", every), \
            mock.patch.object(findings_module, "_APPLIES", lambda name: True), \
            mock.patch.object(findings_module, "_NOT_BY_SHAPE", lambda name: True):
        slow = findings_module._check(doi)
    assert fast == slow, doi
    assert [f.repair for f in fast] == [f.repair for f in slow]
    assert [f.source for f in fast] == [f.source for f in slow]


def assert_same_encoding(text: str) -> None:
    for context in CONTEXTS:
        for slash in (False, True):
            table = _POLICIES[(context, slash)].table
            assert outcome(partial(encode_component, text, context, slash=slash)) == \
                outcome(partial(text.translate, table)), (text, context, slash)


def assert_same_decoding(text: str) -> None:
    slow = outcome(lambda: decode(text, 0, len(text), True)[0])
    assert outcome(lambda: decode(text, 0, len(text), False)[0]) == slow
    assert decode_valid(text) == (None if isinstance(slow, tuple) else slow)


@settings(max_examples=1500)
@given(shapes)
def test_parse_and_presentations_of_every_shape(text: str) -> None:
    assert_same_name(text)
    assert_same_decoding(text)


@settings(max_examples=300)
@given(names())
def test_parse_of_the_reference_forms(text: str) -> None:
    assert_same_name(text)


@settings(max_examples=500)
@given(dois())
def test_presentations_of_any_valid_name(doi: Doi) -> None:
    assert_same_outputs(doi)
    assert_same_encoding(str(doi))


@settings(max_examples=500)
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.characters()), max_size=12).map("".join))
def test_encoding_and_decoding_of_any_text(text: str) -> None:
    assert_same_encoding(text)
    assert_same_decoding(text)


_CROSSREF = sorted(findings_module.CROSSREF_SET)
_OUTSIDE = [chr(i) for i in range(0x20, 0x7F) if chr(i) not in findings_module.CROSSREF_SET]


@settings(max_examples=1500)
@given(st.sampled_from(["10.1000", "10.123456789", "10.1000.5", "10.1/2", "11.1000", "10"]),
       st.lists(st.one_of(st.sampled_from(_CROSSREF), st.sampled_from(_OUTSIDE),
                          st.sampled_from(["%41", "%25", "x/", "##", "\u00e9", "\t", "\u00df",
                                           "\u0131", "\u017f", "\u00c6", "\u0430",
                                           "\u0301", "\u1ea1", "\u05d0"])),
                min_size=1, max_size=60).map("".join),
       st.integers(0, 70))
def test_check_of_plain_ascii_names(prefix: str, suffix: str, pad: int) -> None:
    """check() running the rules whose preconditions hold, against every rule run:
    characters in and outside the Crossref set, repeated, in runs, escapes and spaces,
    reserved starts, names around 100 characters, bad prefixes."""
    assert_same_check(Doi(prefix, suffix))
    assert_same_check(Doi(prefix, "a" * pad + suffix))


def test_check_of_names_with_each_latin_letter() -> None:
    """check() with the lookalike rules' precondition (plain Latin letters outside ASCII
    give them nothing to say) and the findings kept by shape, against every rule run:
    each letter of the Latin blocks alone, in an ASCII word, beside a Cyrillic or a
    combining letter, twice; two names of one shape (the second's findings kept)."""
    for cp in (*range(0x80, 0x250), *range(0x1E00, 0x1F00)):
        ch = chr(cp)
        if not ch.isprintable():
            continue
        for suffix in (ch, f"a{ch}b.1", f"Z{ch}(;.9", f"x.{ch}{ch}", f"{ch}\u0430",
                       f"e\u0301{ch}"):
            assert_same_check(Doi("10.1000", suffix))


def test_the_bench_names_fixtures_and_every_form() -> None:
    texts = bench_core_names() + fixture_lines()
    texts += [written(form, p + "/" + s) for form in FORMS for p in PREFIXES[:3] for s in SUFFIXES]
    texts += [h + p + "/" + x for h in HEADS for p in NAME_PREFIXES[:4] for x in PIECES]
    for text in texts:
        assert_same_name(text)


def test_names_made_directly_keep_their_errors() -> None:
    """A Doi made without parse may hold what parse rejects: a lone surrogate cannot be
    written in UTF-8 (the fast encoder gives the table's not-graphic error), a slash in
    the prefix is encoded in a URI like any other."""
    for doi in (Doi("10.1234", "a\ud800b"), Doi("10.1234", "\udfff"), Doi("10/1", "a/b"),
                Doi("", "."), Doi("10.1", ".."), Doi("10.1+2", "a#b"), Doi("10.1/2", "a#b"),
                Doi("10.1", "a+#b"), Doi("10.1", "a/#b"), Doi("10.1#", "\u00c1+"),
                Doi("10.1", "#/."), Doi("10.1", "..#")):
        assert_same_outputs(doi)
        assert_same_encoding(str(doi))
    err = outcome(lambda: doiname.to_url(Doi("10.1234", "a\ud800b")))
    assert err[:2] == ("error", "not-graphic")
