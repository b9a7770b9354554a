"""The worker protocol (doiname.bridge.OPERATIONS through request_json): one operation per
user action, exact names in and out, findings in the order a page shows them, the batch's
end as data."""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest

import doiname as d
from doiname import bridge
from doiname.batch.status import STATUS_NAMES, Status
from doiname.inspection import inspect
from doiname.jsonable import to_jsonable
from doiname.model import SEVERITIES


def request(op: str, **params: Any) -> dict[str, Any]:
    data = json.loads(bridge.request_json(op, json.dumps(params)))
    assert isinstance(data, dict) and set(data) in ({"ok"}, {"error"}), data
    return data


def ok(op: str, **params: Any) -> Any:
    data = request(op, **params)
    assert "ok" in data, data
    return data["ok"]


def refused(op: str, **params: Any) -> dict[str, Any]:
    data = request(op, **params)
    assert "error" in data, data
    assert set(data["error"]) - {"source"} == {"code", "message", "position", "end"}
    assert isinstance(data["error"].get("source", ""), str)  # a DoiError's source
    return dict(data["error"])


def test_unknown_operations_and_bad_params_are_refused_plainly() -> None:
    assert json.loads(bridge.request_json("nope", "{}"))["error"]["code"] == "unknown-operation"
    assert json.loads(bridge.request_json("inspect", "[1]"))["error"]["code"] == "bad-arguments"
    assert json.loads(bridge.request_json("inspect", "{oops"))["error"]["code"] == "bad-arguments"
    missing = refused("compare", a="10.1000/1")
    assert missing["code"] == "bad-arguments" and "needs b" in missing["message"]
    assert refused("inspect", text=3)["code"] == "bad-arguments"
    assert refused("read", kind="handle", status="200", body="{}", failure=None)["code"] == \
        "bad-arguments"
    assert refused("batch_step", job=1, max_lines="x")["code"] == "bad-arguments"


def test_inspect_is_one_reading_with_findings_most_severe_first() -> None:
    text = "https://doi.org/10.1000/x%2523y."
    got = ok("inspect", text=text)
    want = json.loads(json.dumps(to_jsonable(inspect(text))))
    rank = {s: i for i, s in enumerate(SEVERITIES)}
    for mine, theirs in zip(got["candidates"], want["candidates"], strict=True):
        assert sorted(map(json.dumps, mine["findings"])) == \
            sorted(map(json.dumps, theirs["findings"]))
        ranks = [rank[f["severity"]] for f in mine["findings"]]
        assert ranks == sorted(ranks)
        assert {**mine, "findings": []} == {**theirs, "findings": []}
    first = [f["severity"] for f in want["candidates"][0]["findings"]]
    assert first.index("info") < first.index("warning")  # so the order above is the bridge's
    assert len(got["candidates"]) > 1
    assert ok("inspect", text=text, pick=1)["selected"] == 1


def test_candidates_say_in_words_what_they_were_read_from() -> None:
    got = ok("inspect", text="https://doi.org/10.1000/182")
    assert got["candidates"][0]["form_label"] == "a resolver link"
    assert ok("inspect", text="10.1000/182")["candidates"][0]["form_label"] == "a bare DOI name"


def test_compare_reads_both_sides_with_the_policy() -> None:
    got = ok("compare", a="doi: 10.1000/ABC.", b="https://doi.org/10.1000/abc")
    assert got["verdict"] == "basic-latin-case" and got["equivalent"] is True
    assert got == json.loads(json.dumps(to_jsonable(d.compare("doi: 10.1000/ABC.",
                                                              "https://doi.org/10.1000/abc"))))


@pytest.mark.parametrize(("options", "href"), [
    ({}, "https://doi.org/10.1000/456%23789"),
    ({"level": "strict"}, "https://doi.org/10.1000/456%23789"),
    ({"proxy": "https://login.ezproxy.example.edu/login?qurl="},
     "https://login.ezproxy.example.edu/login?qurl=https%3A%2F%2Fdoi.org%2F10.1000%2F456%2523789"),
    ({"resolver": "https://hdl.handle.net/"}, "https://hdl.handle.net/10.1000/456%23789"),
])
def test_the_widget_box_reads_once_and_links_with_its_options(
    options: dict[str, str], href: str
) -> None:
    got = ok("box", text="doi: 10.1000/456#789.", options=options)
    assert got["href"] == href
    assert got["uri"] == d.to_uri("10.1000/456#789")
    assert got["inspection"]["verdict"] == "name" and got["inspection"]["forms"] is None
    names = [c["doi"]["name"] for c in got["inspection"]["candidates"]]
    assert names == [str(c.doi) for c in inspect("doi: 10.1000/456#789.").candidates]


def test_the_widget_box_says_why_there_is_no_link() -> None:
    got = ok("box", text="no name here")
    assert got["href"] is None and got["uri"] is None and got["inspection"]["verdict"] == "none"
    bad = refused("box", text="10.1000/1", options={"resolver": "javascript:alert(1)"})
    assert bad["code"] and "resolver" in bad["message"].lower()
    assert refused("box", text="10.1000/1", options={"colour": "red"})["code"] == "bad-arguments"


def test_lookup_takes_exact_names_and_never_decodes_them() -> None:
    for suffix, path in (("a%41", "a%2541"), ("x%23y", "x%2523y"), ("a/b", "a%2Fb"),
                         ("x#y", "x%23y")):
        got = ok("lookup", kind="handle", target={"prefix": "10.1000", "suffix": suffix})
        assert got["url"] == f"https://doi.org/api/handles/10.1000/{path}"
    ra = ok("lookup", kind="which-ra", target=[{"prefix": "10.1000", "suffix": "a%41"}])
    assert ra["url"] == d.to_which_ra_url(d.Doi("10.1000", "a%41"))
    assert ok("lookup", kind="alias", target={"short": "10/abcde"})["url"] == \
        d.short_doi_api_url("10/abcde")
    assert refused("lookup", kind="handle", target="10.1000/182")["code"] == "bad-name"
    assert refused("lookup", kind="handle",
                   target={"prefix": "10.1000/x", "suffix": "y"})["code"] == "bad-name"


def test_link_targets_and_code_points_are_operations() -> None:
    (targets,) = ok("link_targets", texts=["see 10.1000/182."], options={"level": "strict"})
    assert [(t["name"], t["href"]) for t in targets] == [("10.1000/182",
                                                          "https://doi.org/10.1000/182")]
    cps = ok("code_points", text="10.1000/\u0430")
    assert cps == json.loads(json.dumps(to_jsonable(d.describe_code_points("10.1000/\u0430"))))


def test_code_points_are_bounded_like_inspect() -> None:
    """One row per character: at most INSPECT_MAX_CHARS of them, a plain refusal above."""
    from doiname.limits import INSPECT_MAX_CHARS

    assert len(ok("code_points", text="a" * INSPECT_MAX_CHARS)) == INSPECT_MAX_CHARS
    err = refused("code_points", text="a" * (INSPECT_MAX_CHARS + 1))
    assert err["code"] == "too-long" and f"{INSPECT_MAX_CHARS + 1:,} characters" in err["message"]


def test_call_runs_public_functions_only() -> None:
    assert ok("call", name="to_url", args=["10.1000/a b"], kwargs={"level": "strict"}) == \
        d.to_url("10.1000/a b", level="strict")
    assert refused("call", name="__import__", args=["os"])["code"] == "unknown-function"
    assert refused("call", name="parse", args="10.1000/1")["code"] == "bad-arguments"


def test_a_batch_is_stepped_until_a_step_says_done() -> None:
    opened = ok("batch_open", text="10.1000/a\n10.1000/A\nnothing")
    assert [s["status"] for s in bridge.BATCH_STATUSES][:2] == ["error", "not-found"]
    assert [s["status"] for s in bridge.BATCH_STATUSES] == list(STATUS_NAMES)
    assert set(STATUS_NAMES) == set(get_args(Status)) and len(STATUS_NAMES) == len(
        get_args(Status)), "doiname.batch.status: STATUSES and Status name other statuses"
    rows: list[dict[str, Any]] = []
    steps = 0
    while True:
        step = ok("batch_step", job=opened["job"], max_lines=1, budget_ms=1000)
        steps += 1
        assert step["first_row"] == len(rows)
        rows.extend(step["rows"])
        if step["done"]:
            break
    assert steps == 3 and [r["status"] for r in rows] == ["ok", "duplicate", "no-doi"]
    text = ok("batch_export", job=opened["job"], format="json", order=[1],
              resolved={"0": {"outcome": "ok", "url": "https://example.org/"}})
    assert [r["line"] for r in json.loads(text)] == [2]
    assert ok("batch_close", job=opened["job"]) is True
    assert refused("batch_step", job=opened["job"])["code"] == "unknown-job"
