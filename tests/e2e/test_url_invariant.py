"""The browser invariant of the presentation rules, judged by Chromium's own URL parser.

For every valid name d and every level: ``new URL(to_url(d)).href === to_url(d)`` and
``decodeURIComponent(new URL(to_url(d)).pathname.slice(1)) === str(d)``; the URN URL,
the API URL, the Which RA URL and the proxy URLs keep ``href`` unchanged too. The URLs
are computed on the host; the browser only judges them.
"""

from __future__ import annotations

import random
import unicodedata

import pytest
from playwright.sync_api import Page

import doiname as d

pytestmark = pytest.mark.e2e

GRAPHIC = ("L", "M", "N", "P", "S", "Zs")
NASTY = [*"#%?<>{}^[]`|\\+,;:/. \"'()&=@!$*~_-",
         "/./", "/../", "/.", "/..", "//", "%2F", "%25", "\u00a0", "\u3000"]


def _graphic_char(rng: random.Random) -> str:
    while True:
        cp = rng.choice([rng.randrange(0x20, 0x7F), rng.randrange(0xA0, 0x3000),
                         rng.randrange(0x3000, 0x10000), rng.randrange(0x10000, 0x30000)])
        ch = chr(cp)
        if unicodedata.category(ch)[0] in "LMNPS" or unicodedata.category(ch) == "Zs":
            return ch


def generated_names(count: int, seed: int = 20241113) -> list[d.Doi]:
    rng = random.Random(seed)
    names = [
        d.Doi("10.1000", "456#789"), d.Doi("10.1000", "."), d.Doi("10.1000", ".."),
        d.Doi("10.1000", "a/./b"), d.Doi("10.1000", "a/../b"), d.Doi("10.1000", "a/."),
        d.Doi("10.1000", "a/.."), d.Doi("10.1000", "./."), d.Doi("10.1000", "../../x"),
        d.Doi("10.1000", "a\\b"), d.Doi("10.1000", "//x"), d.Doi("10.1000", "x/"),
        d.Doi("10.1002", "(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"),
        d.Doi("10.26321", "\u00c1.GUTI\u00c9RREZ.ZARZA.02.2018.03"),
        d.Doi("10.1000", " lead and trail "), d.Doi("10.1000", "%2e%2E"),
    ]
    while len(names) < count:
        parts = [rng.choice(NASTY) if rng.random() < 0.4 else _graphic_char(rng)
                 for _ in range(rng.randrange(1, 16))]
        suffix = "".join(parts) or "x"
        prefix = "10." + ".".join(str(rng.randrange(0, 100000)) for _ in range(rng.randrange(1, 3)))
        names.append(d.Doi(prefix, suffix))
    return names


JUDGE = """(cases) => cases.map(([name, url, decode]) => {
  try {
    const u = new URL(url);
    const back = decode ? decodeURIComponent(u.pathname.slice(1)) : null;
    return [u.href === url, decode ? back === name : true, u.href, back];
  } catch (e) { return [false, false, String(e), null]; }
})"""


def test_browser_invariant_on_generated_names(page: Page) -> None:
    names = generated_names(400)
    cases: list[tuple[str, str, bool]] = []
    for doi in names:
        for level in ("mandatory", "recommended", "strict"):
            cases.append((str(doi), d.to_url(doi, level=level), True))
        cases.append((str(doi), d.to_urn_url(doi), False))
        cases.append((str(doi), d.to_handles_api_url(doi, types=["URL"]), False))
        cases.append((str(doi), d.to_proxy_url(doi, "https://x.example.edu/login?qurl="), False))
    cases.append(("", d.to_which_ra_url(names[:50]), False))
    page.goto("about:blank")
    results = page.evaluate(JUDGE, cases)
    bad = [(c, r) for c, r in zip(cases, results, strict=True) if not (r[0] and r[1])]
    assert not bad, bad[:5]
    # The href the browser settled on still reads back as the same name.
    for (name, _url, _decode), r in zip(cases, results, strict=True):
        if name:
            assert str(d.parse(r[2])) == name


PROBE = """() => { const out = [];
  for (let c = 0x20; c < 0x7f; c++) {
    const ch = String.fromCharCode(c);
    const u = 'https://doi.org/10.1/a' + ch + 'b';
    let h; try { h = new URL(u).href; } catch (e) { h = 'error'; }
    if (h !== u) out.push(ch);
  }
  return out; }"""


def test_mandatory_level_covers_everything_this_browser_rewrites(page: Page) -> None:
    """Probe every printable ASCII character: what the browser changes, mandatory encodes."""
    page.goto("about:blank")
    rewritten = page.evaluate(PROBE)
    assert {" ", "\\", "<"} <= set(rewritten)
    for ch in rewritten:
        assert ch not in d.to_url(d.Doi("10.1", f"a{ch}b"), level="mandatory")[16:], ch
