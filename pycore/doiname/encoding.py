"""Character tables of the specs, written once, and the percent-encoders built from them.

Every set here cites the text it comes from. The presentation functions
(:mod:`doiname.presentation`), the 2003 canonical form (:mod:`doiname.canonical`) and the
explanations all read these tables; no other module lists characters to encode.

Sources:

* ``000`` DOI Handbook appendix "DOI Name Encoding Rules for URL Presentation":
  mandatory ``% " # SPACE ?``, recommended ``< > { } ^ [ ] ` | \\ +``, ``,`` only in a
  Which RA request, and the ``/./`` and ``/../`` note.
* ``001`` (2000) "Handling of Special Characters": control characters 00-1F and 7F must
  be encoded in URLs.
* WHATWG URL Standard, path state of the basic URL parser (what a browser rewrites in
  an ``https:`` path): the path percent-encode set (C0 controls, space, ``" # < > ? ` { }``
  and everything above U+007E), ``\\`` read as ``/``, and ``.``/``..`` segments removed;
  Chromium 156 also encodes ``^`` and ``|`` (measured).
* ``003`` (2024) "DOI URI Scheme" chapter 2: UTF-8, keep RFC 3986 unreserved,
  sub-delims, ``:`` and ``@``, percent-encode every other byte.
* The current DOI Handbook (2025) proxy/API encoding, summarised in the specs README:
  keep only letters, digits and ``- . _ ~ ! $ & ' ( ) * + ; = : @``.
* ``004`` (draft-paskin-doi-uri-04, 2003) relies on RFC 2396: unreserved
  (``alphanum`` and ``- _ . ! ~ * ' ( )``) and reserved ``; / ? : @ & = + $ ,``; the issue
  keeps ``;:@&=+$,/`` unescaped (``?`` would start a query).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .errors import DoiError

__all__ = [
    "BROWSER_PATH",
    "CONTEXTS",
    "CONTROL_001",
    "DOT_RULE",
    "LEVELS",
    "MANDATORY_000",
    "RECOMMENDED_000",
    "RFC2396_KEEP",
    "SPECS",
    "STRICT_KEEP",
    "URI_KEEP_003",
    "WHICH_RA_000",
    "Change",
    "Context",
    "Level",
    "Rule",
    "Spec",
    "dot_joiners",
    "encode_component",
    "escaper",
    "explain_component",
    "fix_dot_segments",
    "needs_escape",
    "percent_encode_char",
    "rule_for",
]

Level = Literal["mandatory", "recommended", "strict"]
LEVELS: tuple[Level, ...] = ("mandatory", "recommended", "strict")

_ALNUM = string.ascii_letters + string.digits

#: 000 Mandatory Rules (also 002 table 1 and 001's "must be encoded").
MANDATORY_000 = frozenset('%"# ?')
#: 000 Recommended Rules (002 table 2 adds nothing beyond these; its damaged rows are ` and |).
RECOMMENDED_000 = frozenset("<>{}^[]`|\\+")
#: 000: "," is only necessary in a Which RA service request context.
WHICH_RA_000 = frozenset(",")
#: 001: control = US-ASCII coded characters 00-1F and 7F.
CONTROL_001 = frozenset(chr(c) for c in [*range(0x20), 0x7F])
#: What a browser rewrites in an https path, beyond 000 mandatory: the WHATWG path
#: percent-encode set (``< > ` { }``), ``\\`` read as ``/``, and, measured in Chromium 156
#: (tests/e2e/test_url_invariant.py probes every ASCII character), ``^`` and ``|`` too.
BROWSER_PATH = frozenset("\\<>`{}^|")
#: 2025 Handbook strict proxy/API encoding: the only characters kept.
STRICT_KEEP = frozenset(_ALNUM + "-._~!$&'()*+;=:@")
#: 003 ch. 2: RFC 3986 unreserved + sub-delims + ":" + "@".
URI_KEEP_003 = frozenset(_ALNUM + "-._~" + "!$&'()*+,;=" + ":@")
#: 004 / RFC 2396: unreserved (alphanum, mark) and the reserved characters that need no escape.
RFC2396_KEEP = frozenset(_ALNUM + "-_.!~*'()" + ";:@&=+$,/")


@dataclass(frozen=True, slots=True)
class Rule:
    """Why a character is percent-encoded: a short rule name and the text it comes from."""

    rule: str
    source: str


@dataclass(frozen=True, slots=True)
class Change:
    """One character of a DOI name that a presentation changed (see ``explain_url``).

    ``start``/``end`` index the DOI name; ``char`` is the character, ``code_point`` its
    ``U+XXXX`` label, ``encoded`` what it became, ``rule``/``source`` why.
    """

    start: int
    end: int
    char: str
    code_point: str
    encoded: str
    rule: str
    source: str


_R_MANDATORY = Rule("mandatory", "000 mandatory")
_R_RECOMMENDED = Rule("recommended", "000 recommended")
_R_CONTROL = Rule("control character", "001 control")
_R_BROWSER = Rule("a browser would change it", "browser URL parser (WHATWG URL path state)")
_R_NON_ASCII = Rule("non-ASCII, written as UTF-8 escapes", "003 ch. 2 (UTF-8), 002 appendix E")
_R_STRICT = Rule("outside the strict proxy set", "DOI Handbook 2025 strict proxy encoding")
_R_SLASH = Rule("slash inside the suffix", "000 URN note / 003 ch. 2")
_R_COMMA = Rule("comma separates names", "000 (Which RA request)")
_R_URI = Rule("not unreserved, sub-delim, ':' or '@'", "003 ch. 2")
#: Why a ``/`` next to a ``.`` or ``..`` segment is encoded (000 note).
DOT_RULE = Rule("dot segment a browser would remove", "000 note on /./ and /../")


def percent_encode_char(ch: str) -> str:
    """Percent-encode one character as its UTF-8 bytes, uppercase hex (003 ch. 2 step 2b)."""
    try:
        data = ch.encode("utf-8")
    except UnicodeEncodeError:
        raise DoiError(
            "not-graphic",
            f"U+{ord(ch):04X} is a lone surrogate; it cannot be written in UTF-8.",
            source="003 ch. 2",
        ) from None
    return "".join(f"%{b:02X}" for b in data)


class _EscapeTable(dict[int, str]):
    """``str.translate`` table: ASCII preset, non-ASCII escaped on first use (bounded cache)."""

    def __missing__(self, key: int) -> str:
        value = percent_encode_char(chr(key))
        if len(self) < 4096:
            self[key] = value
        return value


#: Where a text is encoded: the three URL levels of :func:`doiname.to_url`, the URN form
#: (000), a Which RA request (000), a ``doi:`` URI (003), a query value of a handle API
#: request, and a whole URL as one query value (a proxy's ``qurl=``).
Context = Literal["mandatory", "recommended", "strict", "urn", "ra", "uri", "query",
                  "component"]
CONTEXTS: tuple[Context, ...] = ("mandatory", "recommended", "strict", "urn", "ra", "uri",
                                 "query", "component")


@dataclass(frozen=True, slots=True)
class Spec:
    """How one context encodes ASCII, as data: ``encode`` lists sets of characters with the
    rule that encodes them (the first set that holds a character decides); with
    ``keep_only``, every ASCII character outside it is encoded, by ``otherwise`` unless an
    ``encode`` set says more (control characters, 001)."""

    encode: tuple[tuple[frozenset[str], Rule], ...]
    keep_only: frozenset[str] | None = None
    otherwise: Rule | None = None


_BY_000 = ((CONTROL_001, _R_CONTROL), (MANDATORY_000, _R_MANDATORY),
           (RECOMMENDED_000, _R_RECOMMENDED))
#: Every context's policy, as the specs write it (whatwg-url writes its percent-encode
#: sets the same way: each set from the previous one and its extra characters).
SPECS: dict[Context, Spec] = {
    "mandatory": Spec(((CONTROL_001, _R_CONTROL), (MANDATORY_000, _R_MANDATORY),
                       (BROWSER_PATH, _R_BROWSER))),
    "recommended": Spec(_BY_000),
    "urn": Spec(_BY_000),
    "ra": Spec((*_BY_000, (WHICH_RA_000, _R_COMMA))),
    "uri": Spec(((CONTROL_001, _R_CONTROL),), URI_KEEP_003, _R_URI),
    "strict": Spec(((CONTROL_001, _R_CONTROL),), STRICT_KEEP, _R_STRICT),
    "query": Spec(((CONTROL_001, _R_CONTROL),),
                  (URI_KEEP_003 - frozenset("&=+,;#")) | frozenset("/"), _R_URI),
    "component": Spec(((CONTROL_001, _R_CONTROL),), frozenset(_ALNUM + "-._~"), _R_URI),
}


def rule_for(ch: str, context: Context) -> Rule | None:
    """The rule that makes ``ch`` encoded in ``context`` (:data:`SPECS`), or ``None`` when
    it is kept. Every character above U+007E is written as UTF-8 escapes (003 ch. 2)."""
    if ord(ch) > 0x7E:
        return _R_NON_ASCII
    spec = SPECS[context]
    for chars, rule in spec.encode:
        if ch in chars:
            return rule
    if spec.keep_only is not None and ch not in spec.keep_only:
        return spec.otherwise
    return None


@dataclass(frozen=True, slots=True)
class _Policy:
    table: _EscapeTable
    needs: re.Pattern[str]
    rules: dict[str, Rule]
    # The same table for the code points 0-255, as a list: what a byte of UTF-8 becomes
    # (every byte from 0x80 an escape), for text in which each code point is one byte.
    bytes: list[str]

    def escape(self, text: str) -> str:
        """What ``text.translate(self.table)`` gives (the oracle), faster: a list is looked
        up faster than a dict, and non-ASCII text is first made of its UTF-8 bytes, one code
        point per byte (Latin-1), each byte from 0x80 written as its escape by the list."""
        if not text.isascii():
            try:
                text = text.encode("utf-8").decode("latin-1")
            except UnicodeEncodeError:  # a lone surrogate: the table raises not-graphic
                return text.translate(self.table)
        return text.translate(self.bytes)


def _build(context: Context, slash: bool) -> _Policy:
    table = _EscapeTable()
    rules: dict[str, Rule] = {}
    for code in range(0x80):
        ch = chr(code)
        rule = rule_for(ch, context)
        if ch == "/":
            rule = _R_SLASH if slash else None
        if rule is None:
            table[code] = ch
        else:
            table[code] = f"%{code:02X}"
            rules[ch] = rule
    # "Needs an escape" = anything but the ASCII characters kept as they are. A negated
    # class of the kept characters compiles far faster than a class spanning U+0080..
    # U+10FFFF (it is built 16 times at import, which is on the browser's boot path).
    kept = "".join(re.escape(chr(c)) for c in range(0x80) if chr(c) not in rules)
    needs = re.compile(f"[^{kept}]")
    return _Policy(table, needs, rules, [table[code] for code in range(0x80)]
                   + [f"%{code:02X}" for code in range(0x80, 0x100)])


class _Policies(dict[tuple[Context, bool], _Policy]):
    """(context, encode "/"?) -> policy, each built the first time it is asked for: the
    browser imports this module on its way to ready, and an answer needs only some of the
    16 (each a table and a compiled pattern). Prefix and suffix share a policy."""

    def __missing__(self, key: tuple[Context, bool]) -> _Policy:
        context, slash = key
        if context not in CONTEXTS or not isinstance(slash, bool):
            raise KeyError(key)
        policy = self[key] = _build(context, slash)
        return policy


_POLICIES = _Policies()


def encode_component(text: str, context: Context, *, slash: bool = False) -> str:
    """Percent-encode ``text`` for ``context`` (:data:`SPECS`), UTF-8, uppercase hex.

    ``slash=True`` encodes ``/`` as ``%2F`` (a suffix slash in 003 ch. 2, in the 000 URN
    form, or in the 2025 strict proxy encoding).
    """
    policy = _POLICIES[(context, slash)]
    if policy.needs.search(text) is None:
        return text
    return policy.escape(text)


def escaper(context: Context, *, slash: bool = False) -> Callable[[str], str]:
    """:func:`encode_component` for a text known to need an escape (:func:`needs_escape`
    found one): the same result, without looking for one again (000, 003 ch. 2)."""
    return _POLICIES[(context, slash)].escape


def needs_escape(context: Context, *, slash: bool = False) -> Callable[[str], object | None]:
    """A test that finds a character :func:`encode_component` would escape in ``context``
    (``None``: the text stays as it is)."""
    return _POLICIES[(context, slash)].needs.search


def explain_component(text: str, offset: int, context: Context, *,
                      slash: bool = False) -> list[Change]:
    """List the characters of ``text`` that :func:`encode_component` changes, and why."""
    policy = _POLICIES[(context, slash)]
    out: list[Change] = []
    for i, ch in enumerate(text):
        rule = _R_NON_ASCII if ord(ch) > 0x7F else policy.rules.get(ch)
        if rule is not None:
            out.append(
                Change(offset + i, offset + i + 1, ch, f"U+{ord(ch):04X}",
                       percent_encode_char(ch), rule.rule, rule.source)
            )
    return out


def _is_dot(segment: str) -> bool:
    return segment in (".", "..")


def dot_joiners(segs: list[str]) -> list[int]:
    """Which ``/`` joiners must become ``%2F`` so no ``.``/``..`` segment remains (000 note).

    Returns indexes ``j``: the joiner between ``segs[j]`` and ``segs[j + 1]``. A dot
    segment with a following segment gets the slash after it encoded (``/./`` ->
    ``/.%2F``, as 000 shows); a dot segment at the end gets the slash before it
    (``/.`` -> ``%2F.``). Encoding the dot itself would not help: browsers read ``%2E``
    as a dot too (WHATWG URL, single-dot and double-dot path segments).
    """
    out: list[int] = []
    cur_dot = _is_dot(segs[0])
    cur_first = 0
    completed = False
    for i in range(1, len(segs)):
        if cur_dot:
            out.append(i - 1)
            cur_dot = False  # the merged segment is no longer exactly a dot
        else:
            completed = True
            cur_first = i
            cur_dot = _is_dot(segs[i])
    if cur_dot and completed:
        out.append(cur_first - 1)
    return out


def fix_dot_segments(path: str) -> str:
    """Protect ``.`` and ``..`` segments of an encoded, resolver-relative path (000 note).

    See :func:`dot_joiners` for the rule.
    """
    if "/." not in path and not path.startswith("."):
        return path
    segs = path.split("/")
    joiners = dot_joiners(segs)
    if not joiners:
        return path
    marks = set(joiners)
    parts = [segs[0]]
    for j in range(1, len(segs)):
        parts.append("%2F" if (j - 1) in marks else "/")
        parts.append(segs[j])
    return "".join(parts)

