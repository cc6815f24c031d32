#!/usr/bin/env python3
"""Opens a SpotCheck HTML report (index.html) in headless Chromium and checks it (issue 6 §4,
issue 15 §6).

Drives Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe; standard library
only) and fails when:
  - the page logs a console error, throws, or reports a Content-Security-Policy violation;
  - any script runs besides the report's own: a dialog opens (alert/confirm/prompt), the marker
    the wrapped dialog functions would set is present, the title changed, an element carries an
    on* attribute, an href/src/action/formaction holds a javascript: or data: URL, there is more
    than one <script>, an <iframe>/<object>/<embed> exists;
  - an in-report link (#...) has no element with that id, or a page's anchor is not p-<the number
    shown for it>;
  - loading the overview makes any request that is not the file itself (the report is offline);
  - the page list is not most severe first, or its script does not filter (by severity, and by a
    "Fix first" rule's link: as many pages as the item states) or sort (by URL, back by findings).
With --hostile URL-PART it also requires that page to be in the report and checks its details
opened. Prints the load time (navigation to the load event), the size, and how long the filter
and the sorts took (from the change to the next frame); with --screenshots DIR writes
overview.png (the top of the report) and detail.png (the details of --detail URL-PART); with
--simulate deuteranopia (Chromium's vision-deficiency emulation) they are rendered as a reader
with that colour blindness sees them and named overview-deuteranopia.png, detail-deuteranopia.png.

  Scripts/html_report_browser.py REPORT_DIR/index.html [--screenshots DIR] [--hostile hostile.html]
      [--detail colleagues/office.html] [--images-from Fixtures/html] [--simulate deuteranopia]
      [--chromium chromium]
"""
import argparse, base64, json, os, pathlib, subprocess, sys, tempfile, time

MARKER_SCRIPT = """
(() => {
  const mark = (name) => function () {
    document.documentElement.setAttribute('data-hostile-script-ran', name);
  };
  window.alert = mark('alert'); window.confirm = mark('confirm'); window.prompt = mark('prompt');
})();
"""

# Evaluated in the page after load: everything that would show a script ran or could run.
INSPECT = r"""
(() => {
  const problems = [];
  const marker = document.documentElement.getAttribute('data-hostile-script-ran');
  if (marker) problems.push('a hostile script ran: ' + marker + '() was called');
  if (!document.title.startsWith('SpotCheck report')) problems.push('the title changed: ' + document.title);
  const scripts = document.querySelectorAll('script');
  if (scripts.length !== 1) problems.push(scripts.length + ' <script> elements, expected the report\'s own only');
  for (const tag of ['iframe', 'object', 'embed', 'base', 'form[action]', 'meta[http-equiv=refresh]']) {
    const found = document.querySelectorAll(tag).length;
    if (found) problems.push(found + ' ' + tag + ' element(s)');
  }
  let handlers = 0, badURLs = [];
  for (const element of document.querySelectorAll('*')) {
    for (const attribute of element.attributes) {
      if (attribute.name.startsWith('on')) handlers++;
      if (['href', 'src', 'action', 'formaction', 'xlink:href', 'srcset', 'poster'].includes(attribute.name)) {
        const value = attribute.value.trim().toLowerCase();
        if (!(value.startsWith('#') || value.startsWith('https://') || value.startsWith('http://')))
          badURLs.push(element.tagName + ' ' + attribute.name + '=' + attribute.value.slice(0, 80));
      }
    }
  }
  if (handlers) problems.push(handlers + ' inline event handler attribute(s)');
  if (badURLs.length) problems.push('non-http(s) URLs: ' + badURLs.slice(0, 5).join(' | '));
  const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]');
  if (!csp || !/script-src 'sha256-/.test(csp.content)) problems.push('no hash-based Content-Security-Policy');
  // Every in-report link resolves, and each page's anchor is the number shown for it.
  const missing = [];
  for (const link of document.querySelectorAll('a[href^="#"]')) {
    const id = decodeURIComponent(link.getAttribute('href').slice(1));
    if (id && !document.getElementById(id)) missing.push('#' + id);
  }
  if (missing.length) problems.push(missing.length + ' link(s) to missing anchors: ' + missing.slice(0, 5).join(' '));
  const pages = Array.from(document.querySelectorAll('#page-list details.page'));
  const misnumbered = pages.filter(p => p.id !== 'p-' + p.querySelector('summary .c-n').textContent.trim());
  if (misnumbered.length) problems.push(misnumbered.length + ' page(s) whose anchor is not the number shown');
  return {problems, pages: pages.length, elements: document.getElementsByTagName('*').length};
})()
"""

# Exercises the page list's script: the default order (most severe first), filter by severity,
# a "Fix first" rule's "show them in the page list" link (the pages shown must be the number the
# item states), sort by URL and back by findings. Each step is timed from the change to the next
# frame (the script's work plus style, layout and paint).
EXERCISE = r"""
(async () => {
  const form = document.getElementById('filters');
  const pages = () => Array.from(document.querySelectorAll('#page-list details.page'));
  if (!form || form.hidden) return {error: 'the filter form is still hidden: the report script did not run'};
  const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  const timed = async (action) => { const started = performance.now(); action(); await frame();
                                    return performance.now() - started; };
  const change = (name, value) => { form.elements[name].value = value;
                                    form.elements[name].dispatchEvent(new Event('change', {bubbles: true})); };
  const key = p => [+p.dataset.e, +p.dataset.w, +p.dataset.i];
  const worseOrSame = (a, b) => { for (let k = 0; k < 3; k++) if (a[k] !== b[k]) return a[k] > b[k]; return true; };
  const mostSevereFirst = list => list.every((p, i) => i === 0 || worseOrSame(key(list[i - 1]), key(p)));
  const all = pages().length;
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const defaultOrder = mostSevereFirst(pages());
  const filterMs = await timed(() => change('severity', 'error'));
  const withErrors = pages().filter(r => !r.hidden).length;
  const expected = pages().filter(r => (' ' + r.dataset.severities + ' ').includes(' error ')).length;
  const shownText = document.getElementById('shown').textContent;
  change('severity', '');
  let rule = null;
  const link = document.querySelector('#fix-first a[data-rule]');
  if (link) {
    const stated = parseInt(link.textContent, 10);
    const ruleMs = await timed(() => link.click());
    const shown = pages().filter(p => !p.hidden);
    rule = {rule: link.dataset.rule, stated, shown: shown.length, ruleMs,
            allHaveIt: shown.every(p => (' ' + p.dataset.rules + ' ').includes(' ' + link.dataset.rule + ' '))};
    change('rule', '');
  }
  const sortMs = await timed(() => document.querySelector('#page-list button[data-sort=url]').click());
  const urls = pages().map(p => p.dataset.url);
  const byURL = urls.every((u, i) => i === 0 || urls[i - 1] <= u);
  const sortBackMs = await timed(() => document.querySelector('#page-list button[data-sort=findings]').click());
  return {all, withErrors, expected, shownText, defaultOrder, rule, byURL, sorted: mostSevereFirst(pages()),
          firstPaintMs: paint ? paint.startTime : null, filterMs, sortMs, sortBackMs,
          restored: pages().filter(r => !r.hidden).length};
})()
"""


class Browser:
    """Chromium with the DevTools protocol on fds 3 (commands in) and 4 (replies out)."""

    def __init__(self, chromium):
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()
        self.profile = tempfile.mkdtemp(prefix="spotcheck-chromium-")
        arguments = [chromium, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
                     "--disable-extensions", "--disable-background-networking", "--disable-sync",
                     "--remote-debugging-pipe", f"--user-data-dir={self.profile}", "about:blank"]

        def redirect():
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        self.process = subprocess.Popen(arguments, pass_fds=(3, 4), preexec_fn=redirect,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None
        self.images_from = None
        self.intercepted = []
        self.unanswered = set()

    def close(self):
        try:
            self.command("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def _read_message(self):
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_browser, 1 << 16)
                if not chunk:
                    raise RuntimeError("Chromium closed the DevTools pipe")
                self.buffer += chunk
            message, self.buffer = self.buffer.split(b"\0", 1)
            message = json.loads(message)
            if message.get("id") in self.unanswered:
                self.unanswered.discard(message["id"])
                continue
            if message.get("method") != "Fetch.requestPaused":
                return message
            self._answer_request(message)

    def _send(self, method, params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params, "sessionId": self.session}
        self.unanswered.add(self.next_id)
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")

    def _answer_request(self, event):
        """With --images-from: https://www.example.com/PATH answered from FOLDER/PATH (the fixture
        site's own files), file: URLs let through, anything else failed as blocked."""
        params = event["params"]
        url = params["request"]["url"]
        if url.startswith("file:"):
            self._send("Fetch.continueRequest", {"requestId": params["requestId"]})
            return
        self.intercepted.append(url)
        path = None
        prefix = "https://www.example.com/"
        if self.images_from and url.startswith(prefix):
            candidate = (self.images_from / url[len(prefix):].split("?")[0]).resolve()
            if candidate.is_file() and self.images_from in candidate.parents:
                path = candidate
        if path is None:
            self._send("Fetch.failRequest", {"requestId": params["requestId"], "errorReason": "BlockedByClient"})
            return
        kind = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp"}.get(
            path.suffix.lower(), "application/octet-stream")
        self._send("Fetch.fulfillRequest", {
            "requestId": params["requestId"], "responseCode": 200,
            "responseHeaders": [{"name": "Content-Type", "value": kind}],
            "body": base64.b64encode(path.read_bytes()).decode()})

    def command(self, method, params=None, session=True):
        self.next_id += 1
        identifier = self.next_id  # answering intercepted requests below takes further ids
        message = {"id": identifier, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read_message()
            if reply.get("id") == identifier:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method, timeout):
        deadline = time.monotonic() + timeout
        for index, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(index)
        while time.monotonic() < deadline:
            event = self._read_message()
            if event.get("method") == method:
                return event
            self.events.append(event)
        raise RuntimeError(f"no {method} within {timeout} s")

    def evaluate(self, expression):
        result = self.command("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                   "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"evaluation failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open_page(self, width, height):
        target = self.command("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.command("Target.attachToTarget", {"targetId": target, "flatten": True},
                                    session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.command(f"{domain}.enable")
        self.command("Emulation.setDeviceMetricsOverride",
                     {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.command("Page.addScriptToEvaluateOnNewDocument", {"source": MARKER_SCRIPT})

    def navigate(self, url, timeout=120):
        self.events.clear()
        started = time.monotonic()
        self.command("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired", timeout)
        return time.monotonic() - started

    def screenshot(self, path, clip):
        data = self.command("Page.captureScreenshot",
                            {"format": "png", "clip": dict(clip, scale=1), "captureBeyondViewport": True})["data"]
        pathlib.Path(path).write_bytes(base64.b64decode(data))


def problems_in(events, allow_image_failures):
    """Console errors, exceptions, CSP reports, dialogs and requests other than file: ones."""
    problems = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            problems.append("exception: " + json.dumps(params.get("exceptionDetails", {}))[:300])
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            problems.append("console error: " + json.dumps(params.get("args", []))[:300])
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            entry = params["entry"]
            if allow_image_failures and entry.get("source") == "network":
                continue
            problems.append(f"console {entry.get('source')} error: {entry.get('text', '')[:300]}")
        elif method == "Page.javascriptDialogOpening":
            problems.append("a dialog opened: " + params.get("message", "")[:200])
        elif method == "Network.requestWillBeSent":
            url = params["request"]["url"]
            if url.startswith("file:") or url.startswith("data:"):
                continue
            if allow_image_failures and params.get("type") == "Image" and url.startswith(("http://", "https://")):
                continue
            problems.append(f"network request: {params.get('type')} {url[:200]}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("report", help="the report's index.html")
    parser.add_argument("--screenshots", help="folder for overview.png and detail.png")
    parser.add_argument("--hostile", help="part of the URL of a page whose payloads must not run")
    parser.add_argument("--detail", help="part of the URL of the page shown in detail.png")
    parser.add_argument("--images-from", help="answer https://www.example.com/PATH with this folder's PATH")
    parser.add_argument("--simulate", choices=["deuteranopia", "protanopia", "tritanopia", "achromatopsia"],
                        help="render as a reader with this colour vision deficiency would see it (Chromium's "
                             "simulation); screenshot names get the deficiency as a suffix")
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--width", type=int, default=1280)
    arguments = parser.parse_args()

    report = pathlib.Path(arguments.report).resolve()
    url = report.as_uri()
    failures = []
    browser = Browser(arguments.chromium)
    try:
        browser.open_page(arguments.width, 900)
        # Offline: every http(s) request is failed (the overview must make none anyway); with
        # --images-from, the fixture's images answer for https://www.example.com/ (screenshots).
        if arguments.images_from:
            browser.images_from = pathlib.Path(arguments.images_from).resolve()
        browser.command("Fetch.enable", {"patterns": [{"urlPattern": "*"}]})
        suffix = ""
        if arguments.simulate:
            browser.command("Emulation.setEmulatedVisionDeficiency", {"type": arguments.simulate})
            suffix = f"-{arguments.simulate}"
        seconds = browser.navigate(url)
        inspection = browser.evaluate(INSPECT)
        failures += inspection["problems"]
        exercise = browser.evaluate(EXERCISE)
        if "error" in exercise:
            failures.append(exercise["error"])
        else:
            rule = exercise["rule"]
            if exercise["withErrors"] != exercise["expected"] or not exercise["sorted"] \
                    or not exercise["defaultOrder"] or not exercise["byURL"] \
                    or exercise["restored"] != exercise["all"] \
                    or (rule and (rule["shown"] != rule["stated"] or not rule["allHaveIt"])):
                failures.append(f"the page list's order, filter or sort misbehaved: {exercise}")
        failures += problems_in(browser.events, allow_image_failures=False)
        size = report.stat().st_size
        print(f"{report}: {size} bytes ({size / 1e6:.1f} MB), {inspection['pages']} pages, "
              f"{inspection['elements']} elements; loaded in {seconds:.2f} s "
              f"(navigation to the load event, headless Chromium)")
        if "error" not in exercise:
            paint = exercise["firstPaintMs"]
            print(f"first contentful paint {paint / 1000:.2f} s; " if paint is not None else "", end="")
            print(f"page list most severe first: {exercise['defaultOrder']}; severity=error shows "
                  f"{exercise['withErrors']} of {exercise['all']} pages (filtered in {exercise['filterMs']:.0f} ms); "
                  f"sorted by URL in {exercise['sortMs']:.0f} ms, back by findings in {exercise['sortBackMs']:.0f} ms")
            if exercise["rule"]:
                rule = exercise["rule"]
                print(f"fix first: {rule['rule']} states {rule['stated']} pages, its link shows {rule['shown']} "
                      f"(in {rule['ruleMs']:.0f} ms)")

        if arguments.screenshots:
            folder = pathlib.Path(arguments.screenshots)
            folder.mkdir(parents=True, exist_ok=True)
            browser.evaluate("window.scrollTo(0, 0)")
            overview = folder / f"overview{suffix}.png"
            browser.screenshot(overview, {"x": 0, "y": 0, "width": arguments.width, "height": 1000})
            print(f"wrote {overview}")

        for label, part in (("hostile", arguments.hostile), ("detail", arguments.detail)):
            if not part:
                continue
            anchor = browser.evaluate(
                "(() => { const page = Array.from(document.querySelectorAll('#page-list details.page'))"
                f".find(p => p.dataset.url.includes({json.dumps(part.lower())}));"
                " return page ? '#' + page.id : null; })()")
            if not anchor:
                failures.append(f"no page whose URL contains {part!r} in the report")
                continue
            browser.navigate("about:blank")  # a fragment-only change would not load the document again
            browser.events.clear()
            browser.navigate(f"{url}{anchor}")
            opened = browser.evaluate(
                f"(() => {{ const d = document.getElementById({json.dumps(anchor[1:])});"
                " if (!d || !d.open) return null; d.scrollIntoView(); const r = d.getBoundingClientRect();"
                " return {y: r.top + window.scrollY, height: r.height}; })()")
            if not opened:
                failures.append(f"{anchor}: the page's details did not open from the fragment")
                continue
            # Two frames, so content-visibility has rendered the details now in view.
            browser.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            failures += [f"{label} page: {p}" for p in browser.evaluate(INSPECT)["problems"]]
            failures += [f"{label} page: {p}" for p in problems_in(browser.events, allow_image_failures=True)]
            print(f"{label} page {part}: details open at {anchor}, {int(opened['height'])} px tall")
            if arguments.screenshots and label == "detail":
                # Where the details are now that the pages above them are laid out.
                opened = browser.evaluate(
                    f"(() => {{ const d = document.getElementById({json.dumps(anchor[1:])}); d.scrollIntoView();"
                    " const r = d.getBoundingClientRect(); return {y: r.top + window.scrollY, height: r.height}; })()")
                browser.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
                folder = pathlib.Path(arguments.screenshots)
                clip = {"x": 0, "y": max(opened["y"] - 8, 0), "width": arguments.width,
                        "height": min(opened["height"] + 16, 1400)}
                detail = folder / f"detail{suffix}.png"
                browser.screenshot(detail, clip)
                print(f"wrote {detail}")
    finally:
        browser.close()

    if failures:
        for failure in failures:
            print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    print("OK: no console errors, no script but the report's own, anchors resolve, filter and sort work")
    return 0


if __name__ == "__main__":
    sys.exit(main())
