"""Registry titles as plain text: markup (``<i>``, ``<sub>``, JATS, MathML) and character
references reduced to the words they hold (002 foreword, "DOI and Metadata").

Crossref and DataCite titles carry the markup their depositors sent: HTML-like face
markup, JATS elements, whole MathML formulas, entities such as ``&amp;`` or ``&#946;``,
and line breaks with indentation inside a title. :func:`plain_title` keeps the words and
the characters of formulas (``<mml:mi>x</mml:mi><mml:mn>2</mml:mn>`` reads ``x2``), drops
every tag, decodes every character reference once (then drops the tags that escaped
markup held) and folds runs of white space. It is
linear in the text and never raises.
"""

from __future__ import annotations

import html
import re

__all__ = ["plain_title"]

#: A tag: ``<name ...>``, ``</name>``, ``<name/>``, comments and processing instructions.
_TAG = re.compile(r"<!--.*?-->|<\?.*?\?>|<!\[CDATA\[|\]\]>|</?[A-Za-z][\w:.-]*(?:\s[^<>]*)?/?>",
                  re.DOTALL)
#: Block-level elements whose end separates words (a break, a paragraph, a table cell).
_BREAKS = re.compile(r"</?(?:br|p|div|title|subtitle|alt-title|mml:mtext)\b[^<>]*>",
                     re.IGNORECASE)
_SPACE = re.compile(r"\s+")


def plain_title(markup: str) -> str:
    """The text of a registry title: tags dropped (a break becomes a space), character
    references decoded, white space folded to single spaces and trimmed.

    ``"The <i>E. coli</i> genome &amp; H<sub>2</sub>O"`` reads ``"The E. coli genome &
    H2O"``. Text that merely looks like a comparison (``a < b``) is kept (002 foreword,
    "DOI and Metadata": the metadata that makes a DOI string meaningful).
    """
    if "<" in markup:
        markup = _BREAKS.sub(" ", markup)
        markup = _TAG.sub("", markup)
    if "&" in markup:
        markup = html.unescape(markup)
        if "<" in markup:  # markup escaped once more (``&lt;scp&gt;``): its tags go too
            markup = _TAG.sub("", _BREAKS.sub(" ", markup))
    return _SPACE.sub(" ", markup).strip()
