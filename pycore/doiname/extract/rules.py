"""The rules of :func:`doiname.extract`, numbered: the reading policy for pasted text.

``RULES`` maps each rule number to what it decides and where that comes from; the
functions that implement a rule are named after it (``r5_left_boundary``,
``r13_trailing``, ...) in :mod:`.clean`, :mod:`.starts`, :mod:`.scan`, :mod:`.ends`,
:mod:`.make`, :mod:`.breaks`, :mod:`.split` and :mod:`.merge`, and the tests name the rule
they pin. The specs (000-004) say what a DOI
name is; most of these rules decide what they leave open: where a name starts and ends
in running text. Those are marked "policy".
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["RULES", "Rule"]


class Rule(NamedTuple):
    """One rule of the scanner: its number, a title, what it does, and its source."""

    number: str
    title: str
    summary: str
    source: str


RULES: dict[str, Rule] = {r.number: r for r in map(Rule._make, (
    ("R1", "invisible characters dropped",
     "U+200B, U+200C, U+200D, U+2060, U+FEFF, the soft hyphen and <wbr> are dropped before "
     "scanning (warning zero-width-dropped; info wbr-dropped): they are not graphic, so "
     "they cannot be part of a name; pasted names carry them by accident.",
     "003 ch. 2, 002 §4.1"),
    ("R2", "HTML character references",
     "&lt; &gt; &amp; &quot;, every named reference written with its ';' and numeric "
     "references are unescaped (info html-entity); &nbsp; becomes a space.", "policy"),
    ("R3", "backslash and LaTeX escapes",
     "\\/ (JSON), \\_ \\& \\% \\# \\$ (LaTeX), braced forms such as {\\_} and the text "
     "commands {\\textunderscore}, {\\textless}, {\\textgreater}, {\\textasciitilde} stand "
     "for their character (info backslash-escape, latex-escape). A link wrapped by "
     "Proofpoint URL Defense (https://urldefense.com/v3/__<link>__;...$) is read as the "
     "link inside it, its characters written '*' as those the wrapper gives; in version 2 "
     "(.../v2/url?u=<link>&d=...) its '_' as '/' and its -XX as the escaped characters "
     "(info link-wrapper).", "policy"),
    ("R4", "anchor",
     "10. followed by digit groups, then /, %2F, or : right after urn:doi:.",
     "002 §4, appendix A; 000 (URN form)"),
    ("R5", "left boundary",
     "No letter, digit, '.', '-', '_', '+' or currency sign right before 10. (110.5/x, "
     "v2.10.1/x, $10.99/month), except an encoded link, a dropped invisible character, a "
     "glued doi10.1000/x (PDF text), a Han, kana, Hangul, Thai, Lao, Khmer or Myanmar "
     "letter (詳細は10.1000/182: such text has no spaces between words), or a page number "
     "and '-' before a prefix of "
     "four or more digits (BioMed Central's references: 14: 564-10.1186/1471-2164-14-564).",
     "policy"),
    ("R6", "form by looking back",
     "At most 400 characters back, never into the previous match: a link on doi.org, "
     "another resolver or a proxy host (the match starts at the link), urn:doi:, info:doi/, "
     "hdl:, a doi: URI (no space: the 003 rules hold, a '#' or '?' is an error with a "
     "repair), a label (doi: or DOI followed by a space: a bare name follows), a name "
     "inside another site's link (it ends at ?/# in a path, &/# in a query; a link printed "
     "without its scheme, www. or a host name and a path, is one), or a bare name.",
     "003 ch. 2; 000; RFC 4452; specs README (EZproxy)"),
    ("R7", "bare names look like DOIs",
     "Without a label or a link: the first registrant group has two digits or more, the "
     "prefix is not a dotted IPv4 address, and a registrant with fewer than four digits in "
     "all its groups needs a suffix whose first run holds a letter and a digit (10.25/100 mg "
     "is a ratio; 10.978.8898392/315, an ISBN-A, is a name). Such a number alone on its "
     "line is read as a name, with a warning (looks-like-a-number); an IPv4 address never.",
     "policy; 002 §4.2"),
    ("R8", "whitespace ends a name",
     "Any space, line break or control character ends it, and so does East Asian "
     "punctuation or a bracket (。、，（）【】 and their kin: such text has no spaces); so does "
     "a run of letters of those scripts (R5) written against a suffix of other characters, "
     "outside its brackets (10.1000/182を参照): info glued-text, the literal reading kept "
     "as an alternative. Names broken over two lines are not joined (R21 and R22 say when "
     "one probably was).",
     "policy"),
    ("R9", "quotes end a name",
     "\", the backtick and typographic quotes (East Asian 「」『』 included) end it; ' ends "
     "it when the match was opened by ' (href='...').", "policy"),
    ("R10", "brackets balance",
     "( [ { < are kept; a closer is kept only when it closes one opened inside the name, "
     "so SICI names keep <693::AID-ASI4> and (see 10.1000/182) does not keep ')'.",
     "policy"),
    ("R11", "HTML tags end a name",
     "'<' followed by '/', '!', '?' or a tag name and a space, '/' or '>' ends it.",
     "policy"),
    ("R12", "separators",
     "Outside brackets ',' ends it, and so does ';' (10.1000/182;2020;Title reads "
     "10.1000/182) but in a SICI's control segment (two digits and two letters before it, "
     "a digit after: 3.0.CO;2-O); ',', ';' or '|' before another 10.<digit> always ends it; "
     "'|' before a template parameter (|pmid=) or '}}' ends it (wiki citation templates).",
     "policy"),
    ("R13", "trailing punctuation",
     "Trailing . , ; : ! ? ' * / and invisible format characters are left out, the literal "
     "reading kept as an alternative (a name may end in them): info trailing-punctuation "
     "in the words every surface shows ('The final . was left out: it ends the "
     "sentence'), a warning only when no literal reading can be kept; a bare "
     "name that is the whole "
     "text keeps its final dots (registered names such as 10.1124/mol...), with the "
     "shorter reading as the alternative (warning ends-with-dot).", "policy"),
    ("R14", "unbalanced closer",
     "A closing bracket that ends a name is reported (info unbalanced-closer) and the "
     "literal reading kept as an alternative, unless the match is wrapped in that pair.",
     "policy"),
    ("R15", "link text repeating its link",
     "Two neighbouring equivalent matches with only markup between them (an <a href> and "
     "its text, a Markdown link) are reported once, the link form kept (info "
     "duplicate-link-text).", "003 ch. 3 (equivalence)"),
    ("R16", "nothing found is lost",
     "A match the reader rejects is still returned with the reader's error (ok is False).",
     "policy"),
    ("R17", "shortDOIs",
     "10/abcde after a doi.org link or a doi: label, a doi.org link to the code alone "
     "(https://doi.org/abcde, where shortDOIs resolve), or 10/abcde as the whole text, is "
     "a match of kind short-doi: an alias to expand through doi.org, never a DOI name. "
     "The code holds a letter, so a date or a fraction (10/2021) is not one.",
     "specs README (shortDOI)"),
    ("R18", "labelled names that cannot be read",
     "A doi: or DOI label, or a doi.org link, followed by something starting with a digit "
     "that is not a DOI name (DOI: 10.abc/123) is an error match, not text without a DOI.",
     "002 §4; policy"),
    ("R19", "publisher viewer tails",
     "A final /full, /fulltext, /abstract, /abs, /epdf, /pdf, /pdfdirect, /figures, "
     "/summary, /references, /citedby or /suppinfo is a publisher's page, left out "
     "(warning viewer-tail), the literal reading kept as an alternative. In a bioRxiv or "
     "medRxiv link (/content/10.1101/...), the version and page the server adds to the "
     "name (v2, v2.full, v1.full.pdf) are left out in the same way, and so is a final "
     ".pdf in another link to a publisher's page (link.springer.com/content/pdf/"
     "10.1007/...-4.pdf: the file it sends); not in text or a resolver's link, where "
     "some names end in .pdf.", "policy"),
    ("R20", "debris",
     "A final '…' (the name was cut short for display) is left out (warning "
     "truncated-name), the literal reading kept as an alternative; U+FFFD REPLACEMENT "
     "CHARACTER in a name is a warning (replacement-character): the text was damaged by a "
     "wrong character encoding.", "policy"),
    ("R21", "names cut by a line break",
     "A name ending in '-', '.', '/' or '_' right before a space or line break, followed by "
     "one more run of name characters holding a digit that ends the line (closing brackets "
     "and punctuation after it allowed), or such a run that starts with one of them "
     "(10.2217/fca + no-break space + .14.82), was probably cut there (PDF, typesetting): "
     "warning line-break, the joined reading as an alternative and as the repair. A cut right "
     "after the '/', or after the '10.' of a labelled name or a link, leaves no name as "
     "written: the name is read joined, with the warning line-break.", "policy"),
    ("R22", "names cut between digits",
     "A name ending in a digit, followed by one space (or one line break) and a run of "
     "digits that ends the line (nature14 539, anie.2020 / 12345), was probably cut there: "
     "warning split-name, the joined reading as an alternative and as the repair; Resolve "
     "settles which is registered.", "policy"),
))}
