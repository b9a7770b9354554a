"""The canonical form of a ``doi:`` URI in draft-paskin-doi-uri-04 (2003), spec 004.

Steps (004): 1. lowercase the ``doi:`` token; 2. unescape every escape that needs no
escape under RFC 2396 (letters, digits, ``-_.!~*'()`` and ``;:@&=+$,/``); keep or make
escapes for everything else; 3. uppercase the scheme-specific part, escape hex included.
All five forms of 004 give ``doi:DK/P%C3%A6DAGOGI%2037(2),%20562``.
"""

from __future__ import annotations

import re

from .encoding import RFC2396_KEEP, percent_encode_char
from .errors import DoiError
from .model import Doi
from .percent import bad_escape_at
from .syntax import parse

__all__ = ["canonical_uri_2003"]

_DOI = re.compile(r"doi:[ \t]*", re.IGNORECASE | re.ASCII)


def canonical_uri_2003(text: str | Doi) -> str:
    """The 2003 canonical ``doi:`` URI (004, draft-paskin-doi-uri-04 normalization).

    ``text`` is a ``doi:`` URI (any case of ``doi:``; prefixes other than ``10.`` are
    accepted, as the draft's own ``dk/...`` example), or anything :func:`~doiname.parse`
    reads. ``%`` must start a valid escape (``bad-percent`` otherwise).
    """
    if isinstance(text, Doi):
        ssp, base = str(text), 0
        raw_name = True
    else:
        stripped = text.strip()
        base = len(text) - len(text.lstrip())
        m = _DOI.match(stripped)
        if m is not None:
            ssp, base, raw_name = stripped[m.end():], base + m.end(), False
        else:
            try:
                ssp, base, raw_name = str(parse(text)), 0, True
            except DoiError as err:
                if err.code not in ("bad-prefix", "short-doi", "not-a-doi-link"):
                    raise
                # The 2003 draft is not limited to 10. prefixes (its example is dk/...):
                # take the text as the scheme-specific part of a doi: URI.
                ssp, raw_name = stripped, False
    if not ssp:
        raise DoiError("empty", "There is nothing after “doi:”.", base)
    _require_prefix_and_suffix(ssp, base, raw_name)
    if not raw_name:
        bad = bad_escape_at(ssp)
        if bad != -1:  # the one rule of escapes (001), checked where every reader checks it
            raise DoiError.at(
                "bad-percent", "“%” at character {at} is not followed by two hexadecimal "
                "digits; a literal “%” is written %25.", base + bad, base + bad + 1)
    out: list[str] = []
    i = 0
    n = len(ssp)
    while i < n:
        ch = ssp[i]
        if ch == "%" and not raw_name:
            # Step 2 works on escapes one by one (each byte kept escaped or not), so the
            # UTF-8 decoding of doiname.percent is not wanted here.
            h = ssp[i + 1:i + 3]
            c = chr(int(h, 16))
            out.append(c if c in RFC2396_KEEP else "%" + h)
            i += 3
            continue
        if ch in RFC2396_KEEP:
            out.append(ch)
        else:
            out.append(percent_encode_char(ch))
        i += 1
    result = "".join(out)
    # Step 3: uppercase the scheme-specific part. Only ASCII is left at this point.
    return "doi:" + result.upper()


def _require_prefix_and_suffix(ssp: str, base: int, raw_name: bool) -> None:
    """A DOI name URI has a prefix, a ``/`` (possibly escaped as ``%2F``) and a suffix (004)."""
    decoded = ssp if raw_name else re.sub(r"%2[fF]", "/", ssp)
    slash = decoded.find("/")
    if slash <= 0 or slash == len(decoded) - 1:
        raise DoiError(
            "no-slash" if slash == -1 else ("bad-prefix" if slash == 0 else "empty-suffix"),
            "A doi: URI needs a prefix, a “/” and a suffix, such as doi:10.1000/182.",
            base, source="004",
        )
