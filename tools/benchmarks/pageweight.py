"""Benchmark (not a test): what each page of the built website costs a student's phone.

Every page of the built site (the toc's pages, search, the general index, and the decks under
``slides/``) is served by ``python -m http.server``'s handler (no compression, as the README
serves it) and opened in Debian's chromium through Playwright at 390 x 844 (a common phone),
each in a fresh browser context, so from an empty cache. Two loads per page:

1. **weight**, unthrottled: every response, as transferred (CDP's ``encodedDataLength``,
   headers included), by kind (document, script, CSS, image, font, other), with the requests
   counted and the biggest resources named; after ``load`` the page is scrolled to its end, so
   whatever loads lazily (the live figures' bundle, images) is counted too;
2. **speed**, under Chrome DevTools' "Fast 3G" as the issue states it (1.6 Mbit/s down,
   0.75 Mbit/s up, 150 ms latency) with the CPU slowed 4 times: the time to first contentful
   paint and to the ``load`` event, as the page's own ``performance`` entries give them.

Timings depend on the machine (and on what else runs on it), bytes do not: the test that holds
the budgets (``tests/browser/test_pageweight.py``) checks only bytes. With ``--before DIR``
a second build (for example the previous commit's, copied aside) is measured in the same run,
and the report shows both side by side.

Usage: python -m tools.benchmarks.pageweight [--site DIR] [--before DIR] [--out DIR]
                                             [--pages GLOB ...] [--no-speed]
Writes ``pageweight.md`` (the tables) and ``pageweight.json`` (every response) to ``--out``
(default ``_build/reports``). ``make pageweight`` runs it on ``_build/html``.
"""
import argparse
import fnmatch
import functools
import http.server
import json
import statistics
import threading
from pathlib import Path

from ..toc import ROOT

SITE = ROOT / "_build" / "html"
OUT = ROOT / "_build" / "reports"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 3}
# Chrome DevTools' "Fast 3G" as the issue gives it, and a mid-range phone's CPU.
FAST_3G = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8,
           "uploadThroughput": 0.75e6 / 8}
CPU_SLOWDOWN = 4
KINDS = {"Document": "html", "Script": "script", "Stylesheet": "css", "Image": "image",
         "Font": "font"}
KIND_ORDER = ("html", "script", "css", "image", "font", "other")
# Scripts the issue wants gone from every page (a math typesetter, an icon font in JavaScript).
MATH_SCRIPT = "mathjax"
ICON_SCRIPT = "fontawesome"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    """Serve ``directory`` on 127.0.0.1 in a thread; return (server, base URL)."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def site_pages(site, decks=True):
    """Every HTML page the build wrote (not its static files, sources, or the top folder's
    redirect to the landing page), and, with ``decks``, the lecture decks under ``slides/``."""
    skip = {"_static", "_sources", "_images", "download", "slides"}
    pages = []
    for path in sorted(Path(site).rglob("*.html")):
        parts = path.relative_to(site).parts
        if skip & set(parts[:-1]) and not (decks and parts[0] == "slides" and len(parts) == 2):
            continue
        if 'http-equiv="Refresh"' in path.read_text(encoding="utf-8", errors="replace")[:2000]:
            continue
        pages.append(path.relative_to(site).as_posix())
    return pages


SCROLL_TO_END = """async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
        scrollTo(0, y);
        await new Promise(r => setTimeout(r, 30));
    }
    scrollTo(0, document.documentElement.scrollHeight);
}"""

TIMINGS = """() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return {fcp_ms: fcp ? fcp.startTime : null, load_ms: nav ? nav.loadEventEnd : null};
}"""


def open_page(browser, url, throttle, timeout_ms):
    """Open ``url`` in a fresh context with a CDP session recording every response."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    responses = {}
    cdp.on("Network.responseReceived", lambda e: responses.setdefault(e["requestId"], {}).update(
        url=e["response"]["url"], kind=KINDS.get(e["type"], "other"),
        status=e["response"]["status"]))
    cdp.on("Network.loadingFinished", lambda e: responses.setdefault(e["requestId"], {}).update(
        bytes=e["encodedDataLength"]))
    # The requests in flight, as CDP sees them (quiet() waits for none): Chromium's own
    # "networkidle" lifecycle event did not always come for a page with the Network domain on.
    pending = set()
    context.pending_requests = pending
    cdp.on("Network.requestWillBeSent", lambda e: pending.add(e["requestId"]))
    cdp.on("Network.loadingFinished", lambda e: pending.discard(e["requestId"]))
    cdp.on("Network.loadingFailed", lambda e: pending.discard(e["requestId"]))
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if throttle:
        cdp.send("Network.emulateNetworkConditions", FAST_3G)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.set_default_timeout(timeout_ms)
    page.goto(url, wait_until="load", timeout=timeout_ms)
    return context, page, responses


def quiet(context, page, timeout_ms, idle_ms=500):
    """Wait until no request has been in flight for ``idle_ms``; fail after ``timeout_ms``."""
    waited = idle = 0
    while idle < idle_ms:
        if waited > timeout_ms:
            raise TimeoutError(f"requests still in flight after {timeout_ms} ms: "
                               f"{len(context.pending_requests)}")
        page.wait_for_timeout(100)
        waited += 100
        idle = idle + 100 if not context.pending_requests else 0


def weigh(browser, url, timeout_ms=60_000):
    """Every response of one page, loaded and scrolled to its end, unthrottled."""
    context, page, responses = open_page(browser, url, throttle=False, timeout_ms=timeout_ms)
    try:
        quiet(context, page, timeout_ms)
        page.evaluate(SCROLL_TO_END)
        quiet(context, page, timeout_ms)
        page.wait_for_timeout(300)   # a script that starts a download after idle
        quiet(context, page, timeout_ms)
    finally:
        context.close()
    # Not the page's: the browser asks for /favicon.ico by itself (the book has none).
    return [r for r in responses.values()
            if "url" in r and not r["url"].startswith(("data:", "blob:"))
            and not r["url"].endswith("/favicon.ico")]


def speed(browser, url, timeout_ms=180_000):
    """First contentful paint and load (ms) under Fast 3G and a 4x slower CPU."""
    context, page, _ = open_page(browser, url, throttle=True, timeout_ms=timeout_ms)
    try:
        try:   # a deck paints its first slide only after the load event, once reveal.js is ready
            page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length"
                                   " > 0", timeout=60_000)
        except Exception:
            pass   # no contentful paint within a minute: reported as none
        return page.evaluate(TIMINGS)
    finally:
        context.close()


def summary(responses, base):
    """Bytes by kind, requests, the three biggest resources, and the math and icon scripts."""
    by_kind = dict.fromkeys(KIND_ORDER, 0)
    for r in responses:
        by_kind[r["kind"]] += r.get("bytes", 0)
    biggest = sorted(responses, key=lambda r: -r.get("bytes", 0))[:3]
    scripts = [r["url"].lower() for r in responses if r["kind"] == "script"]
    return {"bytes": sum(by_kind.values()), "requests": len(responses), "by_kind": by_kind,
            "biggest": [(r["url"].removeprefix(base + "/").split("?")[0], r.get("bytes", 0))
                        for r in biggest],
            "math_script": any(MATH_SCRIPT in s for s in scripts),
            "icon_script": any(ICON_SCRIPT in s for s in scripts),
            "failed": [r["url"] for r in responses if r.get("status", 200) >= 400]}


def measure_site(browser, site, patterns, with_speed):
    server, base = serve(site)
    results = {}
    try:
        for path in site_pages(site):
            if patterns and not any(fnmatch.fnmatch(path, p) for p in patterns):
                continue
            url = f"{base}/{path}"
            responses = weigh(browser, url)
            result = summary(responses, base)
            if with_speed:
                try:
                    result.update(speed(browser, url))
                except Exception as error:   # a page that never loads under the profile
                    result.update(fcp_ms=None, load_ms=None, error=str(error).splitlines()[0])
            result["responses"] = [{**r, "url": r["url"].removeprefix(base + "/")}
                                   for r in responses]
            results[path] = result
            print(f"{path}: {result['bytes'] / 1e6:.2f} MB, {result['requests']} requests, "
                  f"FCP {result.get('fcp_ms')}, load {result.get('load_ms')}", flush=True)
    finally:
        server.shutdown()
    return results


def mb(n):
    return f"{n / 1e6:.2f}" if n is not None else "-"


def seconds(ms):
    return f"{ms / 1000:.1f}" if ms is not None else "-"


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def detail_table(results):
    lines = ["| page | MB | requests | " + " | ".join(KIND_ORDER) + " | FCP s | load s | "
             "math script | icon script | biggest (kB) |",
             "|---" * (len(KIND_ORDER) + 8) + "|"]
    for path, r in results.items():
        biggest = ", ".join(f"{name} {size // 1000}" for name, size in r["biggest"])
        lines.append(f"| {path} | {mb(r['bytes'])} | {r['requests']} | "
                     + " | ".join(mb(r["by_kind"][k]) for k in KIND_ORDER)
                     + f" | {seconds(r.get('fcp_ms'))} | {seconds(r.get('load_ms'))} | "
                     f"{'yes' if r['math_script'] else 'no'} | "
                     f"{'yes' if r['icon_script'] else 'no'} | {biggest} |")
    return lines


def totals(results, pages):
    rows = [results[p] for p in pages if p in results]
    return {"median_mb": mb(median([r["bytes"] for r in rows])),
            "max_mb": mb(max((r["bytes"] for r in rows), default=None)),
            "median_requests": median([r["requests"] for r in rows]),
            "median_fcp_s": seconds(median([r.get("fcp_ms") for r in rows])),
            "median_load_s": seconds(median([r.get("load_ms") for r in rows]))}


def report(sites):
    """The Markdown report: a summary per build (book pages and decks apart), then details."""
    lines = ["# Page weight and speed on a phone", "",
             "Chromium at 390 x 844, empty cache, no compression. Speed under Fast 3G "
             "(1.6 Mbit/s, 150 ms) with the CPU slowed 4x; bytes as transferred.", "",
             "| build | pages | median MB | largest MB | median requests | median FCP s | "
             "median load s |", "|---|---|---|---|---|---|---|"]
    for name, results in sites.items():
        for label, pages in (("book pages", [p for p in results if not p.startswith("slides/")]),
                             ("decks", [p for p in results if p.startswith("slides/")])):
            if pages:
                t = totals(results, pages)
                lines.append(f"| {name} | {label} ({len(pages)}) | {t['median_mb']} | "
                             f"{t['max_mb']} | {t['median_requests']} | {t['median_fcp_s']} | "
                             f"{t['median_load_s']} |")
    if len(sites) == 2:
        (old_name, old), (new_name, new) = sites.items()
        lines += ["", f"## Per page: {old_name} -> {new_name}", "",
                  "| page | MB | requests | FCP s | load s |", "|---|---|---|---|---|"]
        for path in new:
            if path in old:
                a, b = old[path], new[path]
                lines.append(f"| {path} | {mb(a['bytes'])} -> {mb(b['bytes'])} | "
                             f"{a['requests']} -> {b['requests']} | "
                             f"{seconds(a.get('fcp_ms'))} -> {seconds(b.get('fcp_ms'))} | "
                             f"{seconds(a.get('load_ms'))} -> {seconds(b.get('load_ms'))} |")
    for name, results in sites.items():
        lines += ["", f"## {name}: every page (MB by kind)", "", *detail_table(results)]
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=SITE, help="the built site (default _build/html)")
    parser.add_argument("--before", type=Path, help="an older build, measured in the same run")
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the report")
    parser.add_argument("--pages", nargs="*", default=[], help="only pages matching these globs")
    parser.add_argument("--no-speed", action="store_true", help="bytes only, no throttled loads")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright
    builds = ([("before", args.before)] if args.before else []) + [("after" if args.before
                                                                    else "this build", args.site)]
    for _, site in builds:
        if not (site / "index.html").exists():
            parser.error(f"no built site in {site}: run `make book` first")
    sites = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            for name, site in builds:
                print(f"== {name}: {site}", flush=True)
                sites[name] = measure_site(browser, site, args.pages, not args.no_speed)
        finally:
            browser.close()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "pageweight.json").write_text(json.dumps(sites, indent=1), encoding="utf-8")
    (args.out / "pageweight.md").write_text(report(sites), encoding="utf-8")
    print(report(sites))
    print(f"Wrote {args.out / 'pageweight.md'} and pageweight.json")


if __name__ == "__main__":
    main()
