"""Simulated students in headless chromium, many at once, through a :class:`LocalHub`.

Each student is a browser context of their own (their own cookies: their own login), with the
network cut to the hub's address (:class:`tests.browser.offline.OfflinePage`). Playwright's sync
API drives one page at a time, so nothing here blocks on one student: a student is started
(log in, follow the course link; start Run All), and :func:`wait_all` polls every student until
each is done, within a bound. The class check (``tests/hub``) and the capacity measurement
(``tools/benchmarks/hub_capacity.py``) share it.
"""
import contextlib
import signal
import time
import urllib.parse

from playwright.sync_api import Error as PlaywrightError

from tools.hub.local import REPO_NAME

from ..browser.lab import NOTEBOOK_OPEN, RUN_STATE, START_RUN_ALL
from ..browser.offline import OfflinePage

# Many students' pages in one headless chromium: chromium would throttle the pages behind the
# front one (timers, animation frames), and JupyterLab then never finishes opening the chapter
# there. Every student's page runs as if it were the only one, as on the students' own machines.
CLASS_ARGS = ["--disable-renderer-backgrounding", "--disable-background-timer-throttling",
              "--disable-backgrounding-occluded-windows"]

# JupyterLab's own cell toolbar trips over jupyterlab-myst's Markdown cells (test_download.py).
KNOWN_PAGE_ERROR = "_markdownOverlapsToolbar"

# anywidget 0.11's JupyterLab extension gives a widget's model a fixed 2 s (AbortSignal.timeout
# (2000) in its Runtime) to load the widget's module, and reports this when the page is slower.
# Here ten students' pages share the hub's two cores with every server and kernel of the class,
# which students' own browsers do not (a slow laptop can still hit it). The view does not wait on
# that timer: it draws when the module arrives. Only messages from the kernel to the figure after that are lost, and the
# chapters send none. So a student whose page reports it is counted apart (``slow_starts``), and
# the class check requires their figure to draw and to run, like everyone's.
ANYWIDGET_SLOW_START = "[anywidget] Failed to initialize model."


class Student:
    """One student: a login on the hub and a page in a browser context of their own."""

    def __init__(self, name, browser, hub):
        self.name, self.hub = name, hub
        self.view = OfflinePage(browser, hub.url)
        self.page = self.view.page
        self.errors = []
        self.slow_starts = []  # anywidget's 2 s model timer ran out (ANYWIDGET_SLOW_START)
        self.page.on("pageerror", self._page_error)
        self.marks = {}
        self.doing = None      # (the browser call in progress, since when): named if it hangs

    def _page_error(self, error):
        text = error.stack or str(error)
        if ANYWIDGET_SLOW_START in text:
            self.slow_starts.append(text)
        elif KNOWN_PAGE_ERROR not in text:
            self.errors.append(text)

    def mark(self, name):
        self.marks[name] = time.monotonic()

    def log_in(self, link):
        """The hub's login form (DummyAuthenticator: any password), then on to ``link``."""
        self.page.goto(f"{self.hub.url}/hub/login?next={urllib.parse.quote(link)}")
        self.page.fill("#username_input", self.name)
        self.page.fill("#password_input", "class")
        self.mark("click")
        self.page.click("#login_submit", no_wait_after=True)

    def follow(self, link):
        """Click a course link again (already logged in)."""
        self.mark("click")
        self.page.goto(f"{self.hub.url}{link}", wait_until="commit")

    def new_page(self):
        """A fresh tab in the student's context (the old one closed without a prompt)."""
        self.page.close()
        self.page = self.view.context.new_page()
        self.page.on("pageerror", self._page_error)

    def _evaluate(self, script):
        self.doing = (f"evaluate {script[:60]!r} at {self.page.url}", time.monotonic())
        try:
            return self.page.evaluate(script)
        except PlaywrightError:      # the page is between two addresses of the link's chain
            return None
        finally:
            self.doing = None

    def front(self):
        """Bring the student's page to the front. One page of a browser has the focus at a time,
        and JupyterLab's current widget follows focus events: in a page behind the others the
        chapter opens but never becomes the current widget."""
        self.doing = (f"bring_to_front at {self.page.url}", time.monotonic())
        try:
            self.page.bring_to_front()
        except PlaywrightError:
            pass
        finally:
            self.doing = None

    def open_notebook(self):
        """The path of the notebook open in JupyterLab, or None while there is none."""
        self.front()
        if not self._evaluate(NOTEBOOK_OPEN):
            return None
        return self._evaluate("() => jupyterapp.shell.currentWidget.context.path")

    def start_run_all(self):
        self.front()
        self.mark("run")
        self.page.evaluate(START_RUN_ALL)

    def run_state(self):
        """None while Run All runs, else ``{"result": ...}`` or ``{"error": ...}``."""
        state = self._evaluate(RUN_STATE)
        return state if state and ("result" in state or "error" in state) else None

    def where(self):
        """The page's address, what it shows and, in JupyterLab, its main area's tabs, the
        current widget and whether the page has the focus, for a failure's message."""
        text = self._evaluate("() => document.body ? document.body.innerText.slice(0, 300) : ''")
        lab = self._evaluate("""() => { const app = window.jupyterapp; if (!app) return null;
            const current = app.shell.currentWidget;
            return { tabs: [...app.shell.widgets('main')].map(w => w.title.label),
                     current: current ? current.title.label : null,
                     focus: document.hasFocus(), visibility: document.visibilityState }; }""")
        return f"{self.page.url} {' '.join((text or '').split())[:200]!r} lab: {lab}"

    def close(self):
        self.view.close()


class Hang(BaseException):
    """A browser call that never returned (Playwright's evaluate has no timeout of its own).
    Not an ``Exception``: raised by a signal handler wherever the main thread is, perhaps inside
    Playwright's event loop, whose callbacks log and swallow an ``Exception``; pytest still
    reports it as the test's failure."""


# A single browser call (an evaluate, bringing a page to the front) that has not returned after
# this long hangs: the slowest seen on the loaded machine take a few seconds.
CALL_TIMEOUT = 120


@contextlib.contextmanager
def watchdog(seconds, students, what, call_timeout=CALL_TIMEOUT, every=5):
    """Raise :class:`Hang` in the main thread after ``seconds``, or as soon as one browser call
    has run ``call_timeout`` seconds, naming each student's call in progress: a call that never
    returns must fail the check, not stall CI."""
    end = time.monotonic() + seconds

    def check(signum, frame):
        now = time.monotonic()
        stuck = [(s.name, text, now - since) for s in students if s.doing
                 for text, since in [s.doing]]
        if now > end or any(age > call_timeout for _, _, age in stuck):
            raise Hang(f"{what}: a browser call did not return (bound {call_timeout} s, "
                       f"whole wait {seconds} s); in progress: "
                       + ("; ".join(f"{name}: {text} for {age:.0f} s" for name, text, age in stuck)
                          or "none"))
    previous = signal.signal(signal.SIGALRM, check)
    signal.setitimer(signal.ITIMER_REAL, every, every)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def pause(students, seconds):
    """Wait ``seconds`` while Playwright goes on dispatching its events (the pages' routed
    requests are answered by this process: ``time.sleep`` would hold every page's loading)."""
    for student in students:
        try:
            student.page.wait_for_timeout(seconds * 1000)
            return
        except PlaywrightError:
            continue
    time.sleep(seconds)


def wait_all(students, done, timeout, what, poll=0.5):
    """Poll ``done(student)`` for every student until each has returned a truthy value; return
    {name: value}. Fails, naming the students left, after ``timeout`` seconds; a browser call
    that hangs fails it 60 s later (:func:`watchdog`)."""
    deadline = time.monotonic() + timeout
    values, pending = {}, list(students)
    with watchdog(timeout + 60, students, what):
        while pending:
            for student in list(pending):
                value = done(student)
                if value:
                    values[student.name] = value
                    pending.remove(student)
            if pending:
                if time.monotonic() > deadline:
                    raise AssertionError(f"{what}: not within {timeout} s for " + "; ".join(
                        f"{s.name} at {s.where()}" for s in pending))
                pause(pending, poll)
    return values


def chapter_file(name):
    """A chapter's path inside a student's server, as JupyterLab names it."""
    return f"{REPO_NAME}/chapters/{name}.ipynb"
