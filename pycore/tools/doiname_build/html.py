"""The few HTML edits the build makes: reading an attribute of a start tag, the tags it
takes out or rewrites, non-ASCII text written as references."""

from __future__ import annotations

import re

#: A ``<link ...>`` tag and the space after it.
LINK = re.compile(r"<link\b[^>]*>\s*", re.IGNORECASE)
#: A ``<script src=...></script>`` element and the space after it.
SCRIPT_SRC = re.compile(r"<script\b[^>]*\bsrc=[^>]*>\s*</script>\s*", re.IGNORECASE)
#: An inline import map (its JSON text is group 1).
IMPORTMAP = re.compile(r'<script type="importmap">(.*?)</script>\s*', re.DOTALL)


def attr(tag: str, name: str) -> str | None:
    """The value of attribute ``name`` in an HTML start tag (quoted or not), or None."""
    m = re.search(rf"""\b{name}\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", tag,
                  re.IGNORECASE)
    return None if m is None else next(g for g in m.groups() if g is not None)


def ascii_html(html: str) -> str:
    """HTML text with every non-ASCII character as a character reference."""
    return html.encode("ascii", "xmlcharrefreplace").decode("ascii")


def ascii_css(css: str) -> str:
    """CSS with every non-ASCII character as a CSS escape (six hex digits, no space)."""
    return re.sub(r"[^\x00-\x7f]", lambda m: f"\\{ord(m.group(0)):06X}", css)
