"""Headless Debian chromium with the network cut, for every browser check.

Every request that is not to the page's own base URL (or a data: or blob: URL) is aborted and
recorded, so a test can assert that a page fetched nothing from outside; failed requests and
JavaScript errors are recorded too.
"""
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class OfflinePage:
    """A page whose requests outside ``base`` are blocked, with every failure recorded."""

    def __init__(self, browser, base):
        self.context = browser.new_context(viewport={"width": 1280, "height": 800})
        self.page = self.context.new_page()
        self.external, self.failed, self.errors = [], [], []
        self.context.route("**/*", self._route(base))
        self.page.on("requestfailed", lambda r: self.failed.append(r.url))
        self.page.on("response", lambda r: r.status >= 400 and self.failed.append(
            f"{r.status} {r.url}"))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _route(self, base):
        def handle(route):
            url = route.request.url
            if url.startswith(base) or url.startswith("data:") or url.startswith("blob:"):
                route.continue_()
            else:
                self.external.append(url)
                route.abort()
        return handle

    def close(self):
        self.context.close()
