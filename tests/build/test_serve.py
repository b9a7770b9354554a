"""build.py serve answers as a real static host: precompressed files with Content-Encoding,
Vary and an ETag per representation, 304 on If-None-Match, extensionless paths, and the
site's ``_headers`` rules by pattern (joined as Cloudflare Pages joins them)."""

from __future__ import annotations

import gzip
import shutil
import subprocess
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from doiname_build import compress, integrity, paths, serve

PAGE = "<!doctype html><title>t</title>" + "<p>doiname</p>" * 100


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "widget-frame.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "app.js").write_text("export const a = 1;\n" * 200, encoding="utf-8")
    (tmp_path / "tiny.js").write_text("1", encoding="utf-8")
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "pyodide" / "python_stdlib.zip").write_bytes(b"PK\x05\x06" + bytes(18) * 50)
    (tmp_path / "pyodide" / "snapshot.bin.gz").write_bytes(gzip.compress(b"x" * 4000))
    (tmp_path / "_headers").write_text(integrity.static_headers(), encoding="utf-8")
    compress.precompress(tmp_path)
    return tmp_path


@pytest.fixture
def base(site: Path) -> Iterator[str]:
    server = serve.make_server(site, 0, quiet=True, host_headers=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


def get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request) as resp:
            return resp.status, {k.lower(): v for k, v in resp.headers.items()}, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, err.read()


def brotli_decode(data: bytes) -> bytes:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = ("const z=require('zlib');const c=[];process.stdin.on('data',d=>c.push(d));"
              "process.stdin.on('end',()=>process.stdout.write(z.brotliDecompressSync("
              "Buffer.concat(c))))")
    return subprocess.run([node, "-e", script], input=data, capture_output=True,
                          check=True).stdout


def test_precompressed_copies_decode_to_the_file(site: Path) -> None:
    for name in ("index.html", "app.js", "widget-frame.html", "_headers"):
        path = site / name
        if not compress.compressible(path):
            continue
        assert gzip.decompress((site / f"{name}.gz").read_bytes()) == path.read_bytes()
        assert brotli_decode((site / f"{name}.br").read_bytes()) == path.read_bytes()
    # Already compressed or too small: left alone.
    for name in ("tiny.js", "pyodide/python_stdlib.zip", "pyodide/snapshot.bin.gz"):
        assert not (site / f"{name}.gz").exists() and not (site / f"{name}.br").exists()


@pytest.mark.parametrize(("accept", "coding"), [
    ("gzip, deflate, br, zstd", "br"), ("gzip", "gzip"), ("br;q=0, gzip", "gzip"),
    ("identity", None), ("", None), ("br;q=0, gzip;q=0", None)])
def test_content_negotiation(base: str, site: Path, accept: str, coding: str | None) -> None:
    status, headers, body = get(f"{base}/app.js", **{"Accept-Encoding": accept})
    assert status == 200 and headers["content-type"] == "text/javascript"
    assert headers.get("content-encoding") == coding
    assert headers["vary"] == "Accept-Encoding"
    suffix = {"br": ".br", "gzip": ".gz", None: ""}[coding]
    assert body == (site / f"app.js{suffix}").read_bytes()
    assert int(headers["content-length"]) == len(body)


def test_etag_per_representation_and_304(base: str) -> None:
    _, br, _ = get(f"{base}/index.html", **{"Accept-Encoding": "br"})
    _, gz, _ = get(f"{base}/index.html", **{"Accept-Encoding": "gzip"})
    assert br["etag"] != gz["etag"]
    status, headers, body = get(f"{base}/index.html", **{"Accept-Encoding": "br",
                                                          "If-None-Match": br["etag"]})
    assert status == 304 and body == b"" and headers["etag"] == br["etag"]
    status, _, _ = get(f"{base}/index.html", **{"Accept-Encoding": "gzip",
                                                 "If-None-Match": br["etag"]})
    assert status == 200


def test_a_gzip_file_is_not_content_encoded(base: str, site: Path) -> None:
    status, headers, body = get(f"{base}/pyodide/snapshot.bin.gz", **{"Accept-Encoding": "gzip"})
    assert status == 200 and "content-encoding" not in headers
    assert body == (site / "pyodide" / "snapshot.bin.gz").read_bytes()


def test_every_path_has_a_policy(base: str) -> None:
    """Pages, scripts, extensionless and unknown paths: never without a policy."""
    for path in ("/", "/index.html", "/index", "/app.js", "/widget-frame.html",
                 "/widget-frame", "/no/such/page"):
        status, headers, _ = get(base + path)
        policy = headers.get("content-security-policy", "")
        assert "default-src 'none'" in policy, path
        assert headers["x-content-type-options"] == "nosniff", path
        framed = "frame-ancestors 'self'" in policy
        assert framed == (not path.startswith("/widget-frame")), path
        assert status == (404 if path == "/no/such/page" else 200), path


@pytest.mark.parametrize("path", ["/%69ndex.html", "/%69ndex", "/./index.html", "//index.html",
                                  "/index.html?x=1", "/widget-demo", "/%77idget-frame/../index"])
def test_no_path_serves_a_page_of_the_app_frameable(base: str, site: Path, path: str) -> None:
    """Only the widget's frame may be framed by other sites: however the path of a page
    is written (percent-encoded, dot segments), its answer says ``frame-ancestors 'self'``."""
    (site / "widget-demo.html").write_text(PAGE, encoding="utf-8")
    status, headers, _ = get(base + path)
    policies = [p.strip() for p in headers.get("content-security-policy", "").split(",")]
    assert any("frame-ancestors 'self'" in p for p in policies), (path, status, policies)


@pytest.mark.parametrize("path", ["/widget-frame.html", "/widget-frame", "/widget-frame.html?x",
                                  "/%77idget-frame.html"])
def test_the_widget_frame_may_be_framed_by_any_site(base: str, path: str) -> None:
    status, headers, _ = get(base + path)
    policy = headers.get("content-security-policy", "")
    assert status == 200 and "default-src 'none'" in policy, (path, policy)
    assert "frame-ancestors" not in policy, (path, policy)


def test_every_page_carries_a_meta_policy() -> None:
    """For hosts that send no headers: each page of the built site carries its own
    policy in the page; bare.html (a bench page with an inline script) is not shipped."""
    site = paths.SITE
    if not (site / "index.html").is_file():
        pytest.skip("the site is not built (python3 build.py build)")
    pages = sorted(site.glob("*.html"))
    assert {p.name for p in pages} >= {"index.html", "widget-demo.html", "widget-frame.html"}
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert html.count('http-equiv="Content-Security-Policy"') == 1, page.name
        if page.name != "widget-frame.html":
            assert integrity.site_csp(frame_ancestors=None) in html, page.name
    assert not (site / "bare.html").exists()
    single = paths.SINGLE_FILE
    if single.is_file():  # its own policy only (the site's would refuse its inline script)
        assert single.read_bytes().count(b'http-equiv="Content-Security-Policy"') == 1


def test_extensionless_path_answers_the_page(base: str, site: Path) -> None:
    status, _, body = get(f"{base}/index")
    assert status == 200 and body == (site / "index.html").read_bytes()


def test_headers_file_rules(tmp_path: Path) -> None:
    path = tmp_path / "_headers"
    path.write_text("# c\n/*\n  A: 1\n/x*\n  A: 2\n  B: 3\n", encoding="utf-8")
    rules = serve.read_headers_file(path)
    assert [(r.pattern, h) for r, h in rules] == [
        (r"/.*\Z", [("A", "1")]), (r"/x.*\Z", [("A", "2"), ("B", "3")])]
