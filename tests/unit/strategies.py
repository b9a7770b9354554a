"""Hypothesis strategies shared by the property tests: valid DOI names, made of Unicode
Graphic characters (003 ch. 2: categories L, M, N, P, S and Zs); and the nastiest real
name the tests share (SICI)."""

from __future__ import annotations

from hypothesis import strategies as st

import doiname as d

#: A real SICI-based DOI name: parentheses, ``<>``, ``:`` and ``;`` in one suffix.
SICI = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"

GRAPHIC = st.characters(
    categories=["L", "M", "N", "P", "S", "Zs"],  # Unicode's Graphic type
)
# Characters the specs single out, weighted so that every run meets them.
NASTY = st.sampled_from([*list("#%?<>{}^[]`|\\+,;:/. \"'()&=@!$*~_-"), "..", "./", "/.", "%2F"])

prefixes = st.builds(
    lambda groups: "10." + ".".join(groups),
    st.lists(st.from_regex(r"[0-9]{1,6}", fullmatch=True), min_size=1, max_size=3),
)
suffixes = st.lists(st.one_of(GRAPHIC, NASTY), min_size=1, max_size=24).map("".join)


@st.composite
def dois(draw: st.DrawFn) -> d.Doi:
    """A valid DOI name (any Graphic code points, the characters of 000/001 included)."""
    suffix = draw(suffixes)
    prefix = draw(prefixes)
    return d.Doi(prefix, suffix)
