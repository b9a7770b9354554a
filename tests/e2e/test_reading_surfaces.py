"""The paste table (tests/fixtures/pastes.json) read in Chromium by every surface that
reads pasted text: the page's Inspect, the widget's lookup box and linkify. Each must
give the verdict, the selected name and the candidates that host Python gives (the same
table is checked in host Python and in Pyodide by tests/unit/test_reading_policy.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import doiname as d
from doiname.bridge import for_view
from doiname.inspection import Candidate, Inspection, inspect
from doiname.linkify import link_targets

from .site_page import page_address
from .test_widget import HostPages, page_html

TABLE: list[dict[str, Any]] = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "pastes.json").read_text(
        encoding="utf-8"))["rows"]


@pytest.fixture(scope="module")
def host() -> Any:
    pages = HostPages()
    yield pages
    pages.server.shutdown()


def selected(found: Inspection) -> Candidate | None:
    return None if found.selected is None else found.candidates[found.selected]


def shape(r: dict[str, Any]) -> list[list[Any]]:
    """The table's candidates as the surfaces show them: how, name, status."""
    return [[how, name, status] for how, name, status, _ in r["candidates"]]


def listed(r: dict[str, Any]) -> bool:
    """Whether the surfaces list the readings (several, or one not taken)."""
    return len(r["candidates"]) > 1 or (len(r["candidates"]) == 1 and r["selected"] is None)


def linkable(c: Candidate | None) -> bool:
    return c is not None and c.kind == "doi" and c.status != "error"


INSPECT_DRAWN = """() => {
  const results = document.getElementById("inspect-results");
  const text = (id) => document.getElementById(id)?.textContent ?? null;
  const task = document.getElementById("inspect-task");
  const block = task.hidden ? null : task;
  const sev = (el) => [...el.classList].find((c) => c.startsWith("sev-"))?.slice(4) ?? null;
  return {
    verdict: results.dataset.verdict ?? null,
    candidates: [...document.querySelectorAll("#candidates li")].map((li) =>
      [li.dataset.how, li.dataset.name, li.dataset.status]),
    picked: [...document.querySelectorAll("#candidates button.pick")].findIndex(
      (b) => b.getAttribute("aria-pressed") === "true"),
    name: block ? text("result-name") : null,
    nameHow: block?.dataset.how ?? null,
    nameStatus: block?.dataset.status ?? null,
    findings: [...document.querySelectorAll(".findings-block li.finding")].map((li) =>
      [li.dataset.code, sev(li)]),
    error: document.getElementById("inspect-error").hidden ? null : text("error-message"),
    errorCode: document.getElementById("inspect-error").hidden ? null
      : document.getElementById("error-message")?.dataset.code ?? null,
    short: text("shortdoi-message"),
  };
}"""


def test_the_page_inspects_every_paste_as_host_python(page: Page, site_url: str) -> None:
    page.goto(page_address(site_url))
    assert page.evaluate("() => window.doiname.ready.then(() => true)") is True
    summary = page.locator("#inspect-summary")
    for row in TABLE:
        text = row["text"]
        page.fill("#doi-input", "")
        expect(summary).to_have_text("")
        page.fill("#doi-input", text)
        found = for_view(inspect(text))
        if not text.strip():  # the page asks nothing of blank text
            expect(summary).to_have_text("Only spaces so far: type or paste a DOI name."
                                         if text else "")
            assert page.evaluate(INSPECT_DRAWN)["candidates"] == [], row
            continue
        expect(summary).to_have_text(found.message)
        got = page.evaluate(INSPECT_DRAWN)
        where = repr(text)
        assert got["verdict"] == row["verdict"], where
        c = selected(found)
        if listed(row):
            assert got["candidates"] == shape(row), where
            assert got["picked"] == (-1 if row["selected"] is None else row["selected"]), where
        else:
            assert got["candidates"] == [], where
        if linkable(c) and c is not None:
            assert (got["name"], got["nameHow"], got["nameStatus"]) == (
                str(c.doi), c.how, c.status), where
        else:
            assert got["name"] is None, where
        if c is not None and c.kind == "short-doi":
            assert got["short"] == found.message, where
        # The findings drawn (the error that makes the reading fail in its box, the rest
        # in the list) are those of the selected reading and the text's notes, in
        # Python's order.
        findings = list((c.findings if c else ()) + found.notes)
        failing = (c.findings if c.status == "error" else ()) if c else found.notes
        error = next((f for f in failing if f.severity == "error"), None)
        if error is not None:
            assert (got["errorCode"], got["error"]) == (error.code, error.message), where
        # (a finding the card's reading line says is drawn as a note: after the problems)
        explained = found.headline.explains if found.headline else ""
        shown = [[f.code, "info" if f.code == explained else f.severity]
                 for f in findings if f is not error]
        drawn = [x for x in shown if x[1] != "info"] + [x for x in shown if x[1] == "info"]
        assert got["findings"] == drawn, where
        if c is not None:
            codes = sorted({f.code for f in c.findings if f.severity != "info"})
            assert codes == row["candidates"][row["selected"]][3], where


BOX_DRAWN = """() => {
  const root = document.querySelector("doi-tool").shadowRoot;
  const box = root.querySelector(".box");
  const out = root.querySelector(".out");
  const link = out.querySelector("a");
  const readings = root.querySelector(".readings");
  return {
    verdict: box.dataset.verdict ?? null,
    link: out.hidden ? null : [link.textContent, link.getAttribute("href")],
    uri: out.hidden ? null : out.querySelector("code").textContent,
    readings: readings.hidden ? [] : [...readings.children].map((li) =>
      [li.dataset.how, li.dataset.name, li.dataset.status]),
    current: [...readings.children].findIndex((li) => li.getAttribute("aria-current") === "true"),
    status: root.querySelector("[role=status]").textContent,
  };
}"""


def box_message(found: Inspection, href: str | None) -> str:
    """What the box says (a shortDOI's message; else the selected reading's first warning
    or error that the reading line does not say, else that line, else the reply's message
    when there is nothing to link), from host Python's reading."""
    c = selected(found)
    if c is not None and c.kind == "short-doi":
        return found.message
    explained = found.headline.explains if found.headline else ""
    worst = next((f for f in ((c.findings if c else ()) + found.notes)
                  if f.severity != "info" and f.code != explained), None)
    if worst is not None:
        return worst.message
    if found.headline is not None and href:
        return found.headline.said
    return "" if href else found.message


def test_the_widget_box_reads_every_paste_as_host_python(
        page: Page, site_url: str, host: HostPages) -> None:
    page.goto(host.add("/box.html", page_html(site_url, "<doi-tool></doi-tool>")))
    box = page.locator("doi-tool textarea")
    verdict = page.locator("doi-tool .box")
    for row in TABLE:
        text = row["text"]
        box.fill("")
        expect(verdict).not_to_have_attribute("data-verdict", row["verdict"])
        box.fill(text)
        if not text.strip():
            page.wait_for_timeout(300)
            got = page.evaluate(BOX_DRAWN)
            assert got["verdict"] is None and got["link"] is None and got["readings"] == []
            continue
        expect(verdict).to_have_attribute("data-verdict", row["verdict"], timeout=60_000)
        got = page.evaluate(BOX_DRAWN)
        found = for_view(inspect(text, forms=False))
        c = selected(found)
        href = d.to_url(c.doi) if linkable(c) and c is not None else None
        where = repr(text)
        if href is not None and c is not None:
            assert got["link"] == [str(c.doi), href], where
            assert got["uri"] == d.to_uri(c.doi), where
        else:
            assert got["link"] is None, where
        if listed(row):
            assert got["readings"] == shape(row), where
            assert got["current"] == (-1 if row["selected"] is None else row["selected"]), where
        else:
            assert got["readings"] == [], where
        assert got["status"] == box_message(found, href), where


def test_linkify_links_every_paste_as_host_python(
        page: Page, site_url: str, host: HostPages) -> None:
    style = ("<style>#rows p { margin: 0; height: 2px; overflow: hidden; font: 1px/1px "
             "monospace; white-space: pre }</style>")
    page.goto(host.add("/linkify.html", page_html(site_url, '<div id="rows"></div>', style)))
    page.evaluate("""(texts) => {
      const rows = document.getElementById("rows");
      texts.forEach((text, i) => {
        const p = document.createElement("p");
        p.setAttribute("data-doiname-linkify", "");
        p.dataset.row = String(i);
        p.textContent = text;
        rows.append(p);
      });
    }""", [r["text"] for r in TABLE])
    want = [link_targets([r["text"]])[0] for r in TABLE]
    expect(page.locator("#rows [data-doiname-link]")).to_have_count(
        sum(len(w) for w in want), timeout=60_000)
    got = page.evaluate("""() => [...document.querySelectorAll("#rows p")].map((p) => ({
      text: p.textContent,
      links: [...p.querySelectorAll("a[data-doiname-link]")].map((a) =>
        [a.textContent, a.getAttribute("href"), a.title]),
    }))""")
    for row, targets, drawn in zip(TABLE, want, got, strict=True):
        text = row["text"]
        assert drawn["text"] == text  # the visible text is exactly as it was
        names = [c for c in inspect(text).candidates
                 if c.of is None and c.how != "whole" and linkable(c)]
        # (every place is a link; a name written twice is one name in Inspect)
        firsts: dict[str, str] = {}
        for t in targets:
            firsts.setdefault(d.equivalence_key(t.name), t.name)
        assert list(firsts.values()) == [str(c.doi) for c in names], repr(text)
        assert drawn["links"] == [[text[t.start:t.end], t.href, t.title] for t in targets], \
            repr(text)
