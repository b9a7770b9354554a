"""What a reference says of the work it cites: its text, or a record's fields (BibTeX,
RIS, CSL-JSON, or named fields), brought to :class:`ReferenceEvidence` (002 foreword,
"DOI and Metadata").

A reference written as text (any citation style: APA, Vancouver, Harvard, a PDF's lines)
is kept whole: the comparison looks for the registry's title, names and numbers in it,
so no citation style has to be recognised. A record's fields are read by their names,
whichever format they come from (:data:`FIELD_NAMES`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from ..limits import REGISTRY_MAX_DEPTH, VERIFY_MAX_REFERENCE_CHARS
from ..resolver.body import load_json
from .normalise import GREEK, join_breaks

__all__ = ["FIELD_NAMES", "YEAR", "ReferenceEvidence", "first_author", "parse_record_fields",
           "reference_evidence", "unlatex"]

#: Greek letters' names, as LaTeX writes them (``\\alpha``).
GREEK_NAMES = frozenset(GREEK.values())

#: Field names of each part of a reference, in BibTeX, biblatex, RIS, MEDLINE, CSL-JSON, Crossref's
#: deposited references and PubMed-like forms, folded to lower case. A record with none
#: of them but an ``unstructured`` (Crossref) or ``note`` text is compared as that text.
FIELD_NAMES: dict[str, tuple[str, ...]] = {
    "title": ("title", "ti", "t1", "atitle", "article-title", "chapter"),
    "author": ("author", "authors", "au", "a1", "firstauthor", "first_author", "creator",
               "editor", "ed", "a2"),
    "year": ("year", "py", "y1", "da", "date", "issued", "publication_year", "dp"),
    "container": ("journal", "journaltitle", "jtitle", "booktitle", "container-title",
                  "journal-title", "volume-title", "series-title", "jo", "jf", "ja", "j2",
                  "t2", "series", "publisher", "jt"),
    "volume": ("volume", "vl", "vi"),
    "first_page": ("pages", "page", "sp", "firstpage", "first_page", "first-page", "fpage",
                   "article-number", "eid", "pg"),
}

#: A year in a date field (``2019/05/01``, ``May 2019``).
YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
#: A link or a DOI name in a reference's text: not part of what it says of the work
#: (its numbers are no volume or page).
_LINK = re.compile(r"(?:https?://|www\.)\S+|\b(?:doi:\s*)?10\.\d{3,9}/\S+", re.IGNORECASE)
#: LaTeX in a BibTeX value: an accent command on a letter (``{\\"u}``, ``\\'e``,
#: ``\\v{c}``), a letter command (``\\ss``, ``\\o``), a Greek letter (``$\\beta$``), any
#: other command (``\\textit``), math shifts.
_LATEX_ACCENT = re.compile(
    r"\\([\"'`^~=.])\s*(?:\{\s*([A-Za-z])\s*\}|([A-Za-z]))"  # \"u, \"{u}, \'e
    r"|\\([uvHcdbtkr])(?:\s*\{\s*([A-Za-z])\s*\}|\s+([A-Za-z]))")  # \v{c}, \c c
#: Each LaTeX accent command's combining mark (``\"u`` is u and U+0308: ü).
_LATEX_MARKS = {'"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303",
                "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
                "c": "\u0327", "d": "\u0323", "b": "\u0331", "t": "\u0361", "k": "\u0328",
                "r": "\u030a"}
_LATEX_LETTER = re.compile(r"\\(ss|o|O|aa|AA|ae|AE|oe|OE|l|L|i|j)(?![A-Za-z])")
_LATEX_COMMAND = re.compile(r"\\([A-Za-z]+)\s*")
_LATEX_LETTERS = {"ss": "ß", "o": "ø", "O": "Ø", "aa": "å", "AA": "Å", "ae": "æ", "AE": "Æ",
                  "oe": "œ", "OE": "Œ", "l": "ł", "L": "Ł", "i": "i", "j": "j"}
_BRACES = re.compile(r"[{}]")
_QUOTED = re.compile(r'[{}"]')
_BARE = re.compile(r"[^,}\s]*")
#: A BibTeX field's name and ``=``, and its value when that is ``{...}`` with no brace
#: inside (the commonest value: read with the name, :func:`_bibtex_value` reads the rest).
_BIBTEX_FIELD = re.compile(r"([A-Za-z][\w:-]*)\s*=\s*(?:\{([^{}]*)\})?")
_RIS_LINE = re.compile(r"^([A-Z][A-Z0-9])  -\s?(.*)$")
#: A field of a PubMed record in MEDLINE format: a tag of 2-4 letters padded to four
#: characters, "- ", the value (``TI  - Deep learning.``, ``PMID- 26017442``).
_MEDLINE_LINE = re.compile(r"^([A-Z][A-Z0-9]{1,3}) {0,2}- ?(.*)$")
#: A field of an EndNote record in the Refer format: ``%`` and a one-character tag, a space,
#: the value (``%T Deep learning``, ``%0 Journal Article``).
_REFER_LINE = re.compile(r"^%(\S) ?(.*)$")
#: The Refer tags of the parts of a reference, as the field names of :data:`FIELD_NAMES`.
_REFER_FIELDS = {"T": "title", "A": "author", "D": "year", "J": "journal", "B": "booktitle",
                 "V": "volume", "P": "pages"}
#: A field of a Web of Science record: a tag of two characters, a space, the value
#: (``TI Deep learning``, ``PY 2015``); its next lines are indented by three spaces.
_WOS_LINE = re.compile(r"^([A-Z][A-Z0-9]) (.*)$")
#: The Web of Science tags of the parts of a reference, as the field names of
#: :data:`FIELD_NAMES` (title, authors, year, source, volume, first page).
_WOS_FIELDS = {"TI": "title", "AU": "author", "PY": "year", "SO": "journal", "VL": "volume",
               "BP": "pages", "AR": "article-number"}
#: Web of Science fields that hold one item a line (authors, cited references).
_WOS_ONE_A_LINE = frozenset({"author", "af", "cr"})
#: Between two authors of an author field; a Vancouver name's initials (``Smith JA``).
_AUTHORS_SPLIT = re.compile(r"\s+and\s+|;|\n")
_INITIALS = re.compile(r"[A-Z]{1,3}\.?")


@dataclass(frozen=True, slots=True)
class ReferenceEvidence:
    """A reference as compared: ``text`` (the whole text, line breaks undone) and the
    parts its fields name (``""`` when not given). ``structured`` is true when the parts
    come from fields (a record), false for text. ``truncated`` says the text was cut at
    :data:`~doiname.limits.VERIFY_MAX_REFERENCE_CHARS`."""

    text: str
    title: str = ""
    first_author: str = ""
    year: str = ""
    container: str = ""
    volume: str = ""
    first_page: str = ""
    structured: bool = False
    truncated: bool = False


def _bibtex_value(text: str, at: int) -> tuple[str, int]:
    """A BibTeX value at ``at``: ``{...}`` (nested), ``"..."`` or a bare word/number."""
    if at >= len(text):
        return "", at
    opener = text[at]
    if opener == "{":
        close = text.find("}", at + 1)
        if close != -1 and text.find("{", at + 1, close) == -1:
            return text[at + 1:close], close + 1  # (no brace inside: the commonest value)
        depth = 0
        for m in _BRACES.finditer(text, at):
            if m.group() == "{":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return text[at + 1:m.start()], m.end()
        return text[at + 1:], len(text)
    if opener == '"':
        depth = 0
        for m in _QUOTED.finditer(text, at + 1):
            c = m.group()
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= depth > 0
            elif depth == 0:
                return text[at + 1:m.start()], m.end()
        return text[at + 1:], len(text)
    bare = _BARE.match(text, at)
    word = bare.group(0) if bare else ""
    return word, at + len(word)


def _accented(m: re.Match[str]) -> str:
    command, *letters = (g for g in m.groups() if g)
    return letters[0] + _LATEX_MARKS[command]


def unlatex(value: str) -> str:
    """A BibTeX value's LaTeX as text: accents on their letters (``M{\\"u}ller`` is
    Müller, as a person reads it; the comparison folds accents), letter commands as
    letters, Greek letter commands as their names, other commands and math shifts gone
    (``$\\beta$-catenin``)."""
    if "\\" not in value and "$" not in value:
        return value
    value = unicodedata.normalize("NFC", _LATEX_ACCENT.sub(_accented, value))
    value = _LATEX_LETTER.sub(lambda m: _LATEX_LETTERS[m.group(1)], value)
    value = _LATEX_COMMAND.sub(lambda m: f" {m.group(1)} " if m.group(1) in GREEK_NAMES
                               else "", value)
    return value.replace("$", "")


def parse_record_fields(text: str, kind: str, enough: tuple[str, ...] = ()) -> dict[str, str]:
    """The fields of a BibTeX entry, a RIS, MEDLINE, Refer or Web of Science record or a
    JSON object (the kinds of :class:`doiname.records.Record`), names in lower case,
    values as written (braces of BibTeX dropped; a tag given twice keeps its first value,
    the first author; Refer's and Web of Science's tags named as the fields they hold,
    ``%T`` and ``TI`` as ``title``).
    Any other text gives ``{}``.

    ``enough``: field names (in lower case) after which a BibTeX entry is read no
    further once each has a value that is not blank (a field given twice keeps its
    first value, so the fields after them change none of them): what a record's label
    needs (:func:`doiname.record_names.label_of`)."""
    out: dict[str, str] = {}
    if kind == "bibtex":
        start = text.find(",")
        at = start + 1 if start >= 0 else len(text)
        n = len(text)
        search = _BIBTEX_FIELD.search
        wanted = len(enough)  # (the names of enough still without a value)
        while at < n:
            m = search(text, at)
            if m is None:
                break
            end = m.end()
            value = m.group(2)
            if value is None:
                value, at = _bibtex_value(text, end)
                if at < end:
                    at = end
            else:
                at = end
            name = m.group(1).lower()
            if name not in out:  # (a field given twice keeps its first value)
                if "\\" in value or "$" in value or "{" in value or "}" in value:
                    value = unlatex(value).replace("{", "").replace("}", "")
                value = out[name] = value.strip()
                if value and name in enough:
                    wanted -= 1
                    if not wanted:
                        break
    elif kind == "ris":
        for line in text.splitlines():
            m = _RIS_LINE.match(line)
            if m is not None and m.group(2).strip():
                out.setdefault(m.group(1).lower(), m.group(2).strip())
    elif kind in _TAGGED:
        out = _tagged_fields(text, _TAGGED[kind])
    elif kind == "json":
        # nesting checked before parsing (Pyodide's stack is small: resolver.body)
        data, ok, _ = load_json(text.strip().rstrip(","), max_depth=REGISTRY_MAX_DEPTH)
        if not ok:
            return {}
        if isinstance(data, dict):
            for key, value in list(data.items())[:200]:
                got = _json_text(key, value)
                if got:
                    out[key.lower()] = got
    return out


class _Tagged(NamedTuple):
    """How a format of tagged lines writes a record's fields (MEDLINE, Refer, Web of
    Science): a field's first line (``line``: group 1 its tag, group 2 its value), the
    tags that hold the parts of a reference (``names``: as :data:`FIELD_NAMES` names them;
    any other tag in lower case after ``prefix``), what a line that goes on with the field
    starts with (``goes_on``; ``""``: any line without a tag), and the fields whose next
    lines are more items, one a line (``one_a_line``: the first is kept, the first
    author)."""

    line: re.Pattern[str]
    names: dict[str, str]
    prefix: str
    goes_on: str
    one_a_line: frozenset[str]


_TAGGED = {
    "medline": _Tagged(_MEDLINE_LINE, {}, "", "      ", frozenset()),
    "refer": _Tagged(_REFER_LINE, _REFER_FIELDS, "%", "", frozenset()),
    "wos": _Tagged(_WOS_LINE, _WOS_FIELDS, "", "   ", _WOS_ONE_A_LINE),
}


def _tagged_fields(text: str, tagged: _Tagged) -> dict[str, str]:
    """The fields of a record of tagged lines (:class:`_Tagged`): a tag given twice keeps
    its first value; a value goes on over the lines after its first."""
    out: dict[str, str] = {}
    name = ""  # the field the lines go on with
    for line in text.splitlines():
        m = tagged.line.match(line)
        if m is not None:
            tag = m.group(1)
            name = tagged.names.get(tag, tagged.prefix + tag.lower())
            if name in out:
                name = ""  # (a tag given twice keeps its first value)
            elif m.group(2).strip():
                out[name] = m.group(2).strip()
            else:
                name = ""
        elif name and line.startswith(tagged.goes_on) and line.strip():
            if name in tagged.one_a_line:
                name = ""  # (one author or one cited reference a line: the first kept)
            else:
                out[name] += " " + line.strip()
    return out


def _json_text(key: str, value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, list) and value:
        first = value[0]
        if isinstance(first, dict):  # CSL persons
            return str(first.get("family") or first.get("literal") or "")
        return _json_text(key, first)
    if isinstance(value, dict) and "date-parts" in value:
        parts = value["date-parts"]
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return str(parts[0][0])
    return ""


def first_author(value: str) -> str:
    """The first author's family name of an author field (``Smith, J. and Doe, K.``,
    ``J. Smith and K. Doe``, ``Smith J, Doe K``)."""
    first = _AUTHORS_SPLIT.split(value.strip(), maxsplit=1)[0].strip()
    if "," in first:
        return first.split(",", 1)[0].strip()
    parts = first.split()
    if len(parts) >= 2 and _INITIALS.fullmatch(parts[-1]):
        return " ".join(parts[:-1])  # Vancouver: Smith JA
    return parts[-1] if parts else ""


def reference_evidence(reference: str | Mapping[str, str]) -> ReferenceEvidence:
    """A reference as given to :func:`doiname.verify`: text (any citation style; its links
    and DOI names left out) or a mapping of field names (:data:`FIELD_NAMES`) to values
    (002 foreword, "DOI and Metadata")."""
    if isinstance(reference, str):
        cut = len(reference) > VERIFY_MAX_REFERENCE_CHARS
        text = join_breaks(reference[:VERIFY_MAX_REFERENCE_CHARS])
        return ReferenceEvidence(_LINK.sub(" ", text), truncated=cut)
    fields = {str(k).lower(): str(v) for k, v in reference.items()
              if isinstance(v, (str, int)) and not isinstance(v, bool) and str(v).strip()}
    if not any(n in fields for n in FIELD_NAMES["title"] + FIELD_NAMES["author"]):
        for name in ("unstructured", "reference", "citation", "note"):
            if name in fields:
                return reference_evidence(fields[name])
    found: dict[str, str] = {}
    for part, names in FIELD_NAMES.items():
        for name in names:
            if fields.get(name, "").strip():
                found[part] = join_breaks(fields[name].strip())[:VERIFY_MAX_REFERENCE_CHARS]
                break
    year = YEAR.search(found.get("year", ""))
    first_page = re.split(r"\s*[-\u2010-\u2015,]+\s*", found.get("first_page", ""))[0]
    text = " ".join(found.values())
    return ReferenceEvidence(
        text, found.get("title", ""), first_author(found.get("author", "")),
        year.group(1) if year else "", found.get("container", ""), found.get("volume", ""),
        first_page, structured=True)
