"""The core's wheel, as the site hosts it, installs with micropip into any Pyodide page.

What README's "Python in the browser" shows a Pyodide, JupyterLite or PyScript user, done
exactly so in a bare Pyodide page (no doiname script, no worker) served at the site's
origin from the site's own files: Pyodide from its ``pyodide/``, micropip from there
(``loadPackage``, the lock file's hash), then
``await micropip.install("<site>/wheels/doiname-...whl")`` and ``doiname.to_url``.
The expected answer comes from the core on the host.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Request

import doiname as d
from doiname_build import paths as build_paths
from doiname_build import wheel as build_wheel

pytestmark = pytest.mark.e2e

#: A page with nothing but Pyodide from the site's files; ``window.runPython(code)`` runs
#: code as a user's notebook cell would (top-level await allowed).
BARE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pyodide</title>
<link rel="icon" href="data:,">
<script type="module">
  import { loadPyodide } from "./pyodide/pyodide.mjs";
  const indexURL = new URL("./pyodide/", import.meta.url).href;
  const pyodide = loadPyodide({ indexURL });
  window.runPython = async (code) => {
    const py = await pyodide;
    await py.loadPackage("micropip");
    return String(await py.runPythonAsync(code));
  };
</script></head><body><p>Pyodide</p></body></html>
"""

#: README's lines, with the site's address in place of ``<site>``.
USER_CODE = """
import micropip
await micropip.install("{site}wheels/{wheel}")
import doiname
doiname.to_url("10.1000/456#789")
"""


def test_micropip_installs_the_sites_wheel_in_a_bare_pyodide_page(page: Page,
                                                                  site_url: str) -> None:
    requests: list[Request] = []
    page.on("request", lambda r: requests.append(r))
    page.route(site_url + "pyodide-user.html", lambda route: route.fulfill(
        status=200, content_type="text/html", body=BARE_PAGE))
    page.goto(site_url + "pyodide-user.html")
    page.wait_for_function("() => typeof window.runPython === 'function'")
    wheel = build_wheel.wheel_name()
    got = page.evaluate("(code) => window.runPython(code)",
                        USER_CODE.format(site=site_url, wheel=wheel))
    assert got == d.to_url("10.1000/456#789") == "https://doi.org/10.1000/456%23789"
    # Installed from the wheel (micropip wrote its metadata), not from the page's own
    # compiled files, which this page never asked for.
    installer = page.evaluate("(code) => window.runPython(code)", (
        "import importlib.metadata\n"
        "importlib.metadata.distribution('doiname').read_text('INSTALLER').strip()"))
    assert installer == "micropip"
    paths = {r.url[len(site_url):] for r in requests if r.url.startswith(site_url)}
    assert f"wheels/{wheel}" in paths
    assert f"pyodide/{build_paths.MICROPIP_WHEEL}" in paths
    assert f"pyodide/{build_paths.CORE_FILES}" not in paths
