#!/usr/bin/python3
# The operator's console driven in a real browser engine over WebDriver (the W3C protocol spoken
# directly, no client library): Chromium through Debian's chromedriver, headless, or WebKit
# (WebKitGTK's MiniBrowser) through WebKitWebDriver on a private Xvfb. The window is a phone's,
# 360 px wide. It signs in (a wrong password first; the form then in Japanese, as a phone set to
# Japanese shows it), reads Status's figures, follows a take on Status (shown within 1 s of the
# booth's event), closes and opens the booth and reloads its settings from Status (with
# --break-config, a reload refused: its message, and its warning on Status), makes the hosts' film on Film (its progress bar, then played and downloaded), plays, hides,
# shows and deletes the take on Takes, reads the Log, tries a page of another origin against the
# console, and signs out; then signs in again as a phone set to German and reads the Settings view;
# a screenshot of each view goes to --shots.
#
# With --no-password-page it reads the page of a console with no password set instead: how to set
# one, no form, in English and then in Spanish as the phone's languages change.
#
# With --scenario NAME it watches Status against a fault the caller makes at the lowest boundary,
# saying "cue: WHAT" when the caller is to act and reading a line on stdin once it has: "meter" (the
# meter loud and low with the fake microphone's tone and silence; then, in a take, Microphone silent
# and its clearing), "reconnect" (started before the booth: the banner; the booth started, its camera
# unplugged and back, killed, started again: the page follows without a reload) and "disk" (Disk slow
# and Disk full, each cleared once the booth says its cause is gone).
#
# With --share-page URL it drives a guest's share page instead: Delete my video, then the confirm
# step's button, as a person clicks them; the page the console answers must say the video was
# deleted (--expect-deleted yes), or that there is none (no: a booth that does not delete by token).
#
# The take is the caller's: at "cue: start" it starts one at the booth and answers on stdin with
# the Unix time in ms the booth wrote recordingStarted and, when it knows, the time it wrote start
# to the booth ("none" when it knows neither; the page must show the take within 1 s), then, once
# the take is handed over, with "taken NAME". Any base URL works (the console on loopback, or
# behind nginx at http://10.42.0.1 from a phone's network namespace).
#
# Output: "ok: ..." per check, "figure: ..." for what was measured, "FAIL: ..." and exit 1 when a
# check fails, exit 3 when a browser or its driver is missing, exit 2 for bad usage.
import argparse, base64, http.server, json, os, shutil, signal, socket, subprocess, sys, tempfile, threading, time
import urllib.error, urllib.parse, urllib.request

MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
ENGINES = {
    "chromium": {"driver": "/usr/bin/chromedriver", "browser": "/usr/bin/chromium"},
    "webkit": {"driver": "/usr/bin/WebKitWebDriver", "browser": MINIBROWSER},
}
WIDTH, HEIGHT = 360, 740


class Failure(Exception):
    pass


BEGUN = time.monotonic()


def say(kind, text):
    print(f"{kind}: {text}", flush=True)
    print(f"{time.monotonic() - BEGUN:6.1f} s  {kind}: {text}", file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    """One WebDriver session: the driver, the browser it starts, and (WebKit) a private Xvfb."""

    def __init__(self, engine, scratch):
        self.engine, self.children = engine, []
        env = dict(os.environ)
        port = free_port()
        if engine == "webkit":
            env["DISPLAY"] = self.xvfb()
            # MiniBrowser's toolbar holds its window at least 447 px wide; its private GTK style
            # shrinks the toolbar so the page gets a phone's 360 px.
            os.makedirs(scratch + "/gtk-3.0", exist_ok=True)
            with open(scratch + "/gtk-3.0/gtk.css", "w") as f:
                f.write("headerbar, toolbar, entry, button, headerbar * { min-width: 0; min-height: 0; padding: 0; margin: 0; font-size: 1px; }\n")
            env["XDG_CONFIG_HOME"] = scratch
            env["GDK_BACKEND"] = "x11"
            # No session bus (GTK would have dbus-launch start one that outlives the run) and no
            # accessibility bus.
            env["DBUS_SESSION_BUS_ADDRESS"] = "disabled:"
            env["NO_AT_BRIDGE"] = "1"
            caps = {"webkitgtk:browserOptions": {"binary": MINIBROWSER, "args": ["--automation", "--autoplay-policy=allow"]}}
            command = [ENGINES[engine]["driver"], f"--port={port}"]
        else:
            caps = {"goog:chromeOptions": {"binary": ENGINES[engine]["browser"], "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--mute-audio",
                f"--window-size={WIDTH},{HEIGHT}", "--user-data-dir=" + scratch + "/profile",
                "--autoplay-policy=no-user-gesture-required", "--lang=en-US"]}}
            command = [ENGINES[engine]["driver"], f"--port={port}"]
        caps["unhandledPromptBehavior"] = "ignore"
        self.children.append(subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=open(scratch + "/driver.log", "w"),
                                              start_new_session=True))
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(self.base + "/status", timeout=2).read()
                break
            except OSError:
                if time.time() > deadline:
                    raise Failure(f"{command[0]} did not answer on port {port}")
                time.sleep(0.1)
        self.session = ""
        self.session = self.call("POST", "/session", {"capabilities": {"alwaysMatch": caps}}, timeout=180)["sessionId"]

    def xvfb(self):
        read, write = os.pipe()
        self.children.append(subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                              start_new_session=True))
        os.close(write)
        number = b""
        while not number.endswith(b"\n"):
            chunk = os.read(read, 16)
            if not chunk:
                raise Failure("Xvfb did not start")
            number += chunk
        os.close(read)
        return ":" + number.decode().strip()

    def call(self, method, path, body=None, timeout=120):
        url = self.base + (f"/session/{self.session}" if self.session else "") + path
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, method=method, data=data, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return json.loads(answer.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:
            raise Failure(f"WebDriver {method} {path}: {e.code} {e.read()[:400]!r}")

    def js(self, script, *args):
        return self.call("POST", "/execute/sync", {"script": script, "args": list(args)})

    def js_async(self, script, *args):
        return self.call("POST", "/execute/async", {"script": script, "args": list(args)})

    def until(self, what, script, *args, timeout=60):
        """Waits until `script` returns something true; returns it. A try the page's own navigation
        cut short (a sign-out loads the page again: WebKit's driver answers "no such frame ... before
        the unload event" for a script that was running as the page went) counts as not yet."""
        deadline = time.time() + timeout
        while True:
            try:
                value = self.js(script, *args)
            except Failure as failure:
                if "unload event" not in str(failure):
                    raise
                value = None
            if value:
                return value
            if time.time() > deadline:
                raise Failure(f"{what}: not within {timeout} s")
            time.sleep(0.05)

    def element(self, css):
        found = self.call("POST", "/element", {"using": "css selector", "value": css})
        return next(iter(found.values()))

    def click(self, css):
        """A pointer's click on `css`, once it has stood still in view for half a second: the page
        moves as Status fills in above it (a reload's question, the booth's buttons, a state asked
        0.3 s after a burst of events), and a click aimed at where it was lands on another."""
        where = ("const e = document.querySelector(arguments[0]); e.scrollIntoView({block: 'center'});"
                 " const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]")
        deadline, was, since = time.time() + 30, None, time.time()
        while time.time() < deadline:
            now = self.js(where, css)
            if now != was:
                was, since = now, time.time()
            elif time.time() - since >= 0.5:
                break
            time.sleep(0.1)
        self.call("POST", f"/element/{self.element(css)}/click", {})

    def type(self, css, text):
        element = self.element(css)
        self.call("POST", f"/element/{element}/clear", {})
        self.call("POST", f"/element/{element}/value", {"text": text})

    def shot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.call("GET", "/screenshot")))
        say("shot", path)

    def cpu(self):
        """CPU seconds of every process in the driver's and Xvfb's sessions now (the browser and its
        helpers too, and what they reaped), read from /proc before they go: an orphan reaped by
        init would be missed by getrusage."""
        sessions, total = {child.pid for child in self.children}, 0
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) in sessions:
                total += sum(int(v) for v in fields[11:15])
        return total / os.sysconf("SC_CLK_TCK")

    def close(self):
        try:
            if self.session:
                self.call("DELETE", "", timeout=10)
        except (Failure, OSError):
            pass
        for child in reversed(self.children):
            try:
                os.killpg(child.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()


EVIL = """<!doctype html><meta charset="utf-8"><title>not the console</title>
<body><p id="out">trying</p>
<form id="forged" method="post" enctype="text/plain" action="%(console)sapi/command">
<input name='{"command":"start","pad":"' value='"}'></form>
<script>
const console_ = %(consoleJSON)s, out = [];
async function attempt(name, run) {
  try { out.push(name + "=" + await run()); } catch (e) { out.push(name + "=blocked"); }
}
(async () => {
  // Reading the console's state from here: CORS lets no answer through.
  await attempt("read", async () => (await fetch(console_ + "api/state", { credentials: "include" })).status);
  // A forged token in a header: the preflight is refused, so the POST is never sent.
  await attempt("forgedHeader", async () => (await fetch(console_ + "api/command", { method: "POST", credentials: "include",
    headers: { "X-CSRF-Token": "guess", "Content-Type": "application/json" }, body: '{"command":"start"}' })).status);
  // A simple POST the browser does send (with the cookie, same site): the answer is opaque here.
  await attempt("simplePost", async () => (await fetch(console_ + "api/command", { method: "POST", mode: "no-cors", credentials: "include",
    headers: { "Content-Type": "text/plain" }, body: '{"command":"start"}' })).type);
  document.getElementById("out").textContent = out.join(" ");
  document.title = "done";
})();
</script>
"""


def other_origin(host, console):
    """A page of another origin (the console's host, another port) served by http.server."""
    page = (EVIL % {"console": console, "consoleJSON": json.dumps(console)}).encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    # A thread a connection: Chromium opens a spare connection it may leave unused for a minute,
    # and one thread reading it would hold up the shutdown (the "about 60 s" Chromium runs lost).
    server = http.server.ThreadingHTTPServer((host, 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://{host}:{server.server_address[1]}/evil.html"


def run(b, args):
    console = args.base.rstrip("/") + "/console/"
    shots = lambda name: os.path.join(args.shots, f"console-{name}-{args.engine}.png")
    b.call("POST", "/window/rect", {"width": WIDTH, "height": HEIGHT})
    b.call("POST", "/url", {"url": console})
    width = b.until("the page", "return document.readyState === 'complete' && window.innerWidth")
    if width != WIDTH:
        raise Failure(f"the page is {width} px wide, not {WIDTH}")
    say("ok", f"the page is {width} px wide")

    # Before sign-in: the form and nothing else.
    page = b.js("return [document.forms.length, !!document.getElementById('sign-in') && !document.getElementById('sign-in').hidden,"
                " !!document.getElementById('console'), document.body.innerText]")
    if page[0] != 1 or not page[1] or page[2] or "Mode" in page[3]:
        raise Failure(f"before sign-in the page shows more than the sign-in form: {page}")
    say("ok", "before sign-in: only the sign-in form")
    closed = b.js_async("Promise.all(['api/session', 'api/state', 'api/events', 'api/log', 'api/takes', 'api/audit']"
                        ".map((p) => fetch(p).then((r) => p + ' ' + r.status))).then(arguments[0])")
    if any(not line.endswith(" 401") for line in closed):
        raise Failure(f"before sign-in the API answers the page: {closed}")
    say("ok", "before sign-in: every API answers the page 401")
    b.type("#password", "not the password")
    b.click("#sign-in button")
    message = b.until("the wrong password's message", "return document.getElementById('message').textContent")
    if "wrong" not in message.lower():
        raise Failure(f"a wrong password shows {message!r}")
    say("ok", f"a wrong password: {message!r}")
    b.shot(shots("sign-in"))
    # The page before sign-in follows the browser's languages (navigator.languages, as the rest of
    # the console): a phone set to Japanese gets the form and the wrong password's message in
    # Japanese, at once when its languages change.
    b.js("Object.defineProperty(navigator, 'languages', { configurable: true, get: () => ['ja-JP', 'ja', 'en'] });"
         " window.dispatchEvent(new Event('languagechange'))")
    words = b.until("the sign-in form in Japanese", "return document.documentElement.lang === 'ja' && [document.title, document.querySelector('h1').textContent,"
                    " document.querySelector('label[for=password]').textContent, document.querySelector('#sign-in button').textContent,"
                    " document.getElementById('message').textContent]")
    if words != ["ブースのコンソール", "ブースのコンソール", "オペレーターのパスワード", "サインイン", "パスワードが違います"]:
        raise Failure(f"the sign-in form in Japanese shows {words}")
    say("ok", f"sign-in in Japanese: {words}")
    b.shot(shots("sign-in-ja"))
    b.js("delete navigator.languages; window.dispatchEvent(new Event('languagechange'))")
    b.until("the sign-in form in the browser's own language again", "return document.documentElement.lang !== 'ja'")
    b.type("#password", args.password)
    b.click("#sign-in button")
    b.until("signed in", "const c = document.getElementById('console'); return c && !c.hidden && document.getElementById('sign-in').hidden")
    mode = b.until("the booth's mode", "const m = document.getElementById('mode').textContent; return m !== '…' && m")
    if not mode.startswith("ready"):
        raise Failure(f"Status shows mode {mode!r}, not ready")
    say("ok", f"signed in; Status shows the booth's mode: {mode!r}")
    # The rows state fills: the uploads owed ("—": this booth has no --on-take), the microphone's meter.
    uploads = b.js("return document.getElementById('uploads').textContent")
    meter = b.until("the microphone's meter", "const m = document.getElementById('microphone-meter'); return m && String(m.value)")
    if uploads != "—":
        raise Failure(f"Status shows {uploads!r} uploads owed for a booth without a hook")
    say("ok", f"Status: uploads owed {uploads}, the microphone's meter at {meter} dBFS")
    # The meter follows the booth's microphone: the test tone's 100 ms beeps (16384 of 32768, -6 dBFS)
    # each second, held 1.5 s by the booth as its screen's meter holds them.
    heard = b.until("the meter at the test tone's level", "const m = document.getElementById('microphone-meter');"
                    " return m && m.value > -9 && m.value", timeout=30)
    say("ok", f"the meter hears the test tone: {heard} dBFS")
    # The machine's rows (api/figures) and the camera as state's figures give it.
    rows = b.until("the figures' rows", "const t = (id) => document.getElementById(id).textContent;"
                   " return ['disk-minutes', 'share-site', 'temperature', 'uptime', 'camera'].every((id) => t(id) !== '…')"
                   " && t('camera').includes('measured') && Object.fromEntries(['disk-minutes', 'share-site', 'temperature', 'uptime', 'camera'].map((id) => [id, t(id)]))",
                   timeout=30)
    if "GB free" not in rows["disk-minutes"] or "machine " not in rows["uptime"] or " booth " not in rows["uptime"] or rows["share-site"] != "no share site":
        raise Failure(f"Status's figures: {rows}")
    say("ok", f"Status's figures: disk {rows['disk-minutes']!r}, share site {rows['share-site']!r}, temperature {rows['temperature']!r}, uptime {rows['uptime']!r}, camera {rows['camera']!r}")


    # Live: a take started at the booth shows as recording; when, measured in the page.
    b.until("the event stream", "return typeof live === 'object' && live.source && live.source.readyState === 1")
    b.js("""
      window.seen = {};
      live.source.addEventListener('message', (m) => { if (m.data.startsWith('{"event":"recordingStarted"')) seen.arrived = Date.now(); });
      const mode = document.getElementById('mode');
      new MutationObserver(() => { if (!seen.shown && mode.textContent.startsWith('recording')) seen.shown = Date.now(); })
        .observe(mode, { childList: true, characterData: true, subtree: true });""")
    say("cue", "start")
    # "WROTE [ASKED]": when the booth wrote recordingStarted (its line's arrival at the caller) and,
    # when the caller knows it, when it wrote start to the booth, as Unix ms; "none" when it cannot know.
    stamps = [int(x) for x in sys.stdin.readline().split() if x.lstrip("-").isdigit()]
    seen = b.until("recording on Status", "return seen.shown && seen", timeout=60)
    parts = [f"{seen['shown'] - stamps[1]} ms after start was written"] if len(stamps) > 1 else []
    parts += [f"{seen['shown'] - stamps[0]} ms after the booth wrote it"] if stamps else []
    parts += [f"{seen['shown'] - seen['arrived']} ms after its line reached the page"] if seen.get("arrived") else []
    shown = "shown " + ", ".join(parts)
    # At most 1 s, counted from start written when the caller says when (the booth is recording from
    # then on, and the page may show it from the state it asks twice a second before the event's line
    # comes, which the booth writes once the disk has the take's file: then the figures after are
    # negative), else from the event. What ran before the cue (this run's start, the browser's) is in
    # neither.
    if stamps and seen["shown"] - stamps[-1] > 1000:
        raise Failure(f"recordingStarted {shown}: more than 1 s")
    say("ok", "Status shows recording")
    say("figure", f"{args.engine}: recordingStarted {shown}")
    taken = sys.stdin.readline().split()
    if len(taken) != 2 or taken[0] != "taken":
        raise Failure(f"the caller said {taken!r}, not 'taken NAME'")
    name = taken[1]
    b.until("ready again, the take as the last", "return document.getElementById('mode').textContent.startsWith('ready')"
            " && [...document.querySelectorAll('#last-take img')].some((i) => i.complete && i.naturalWidth > 0)", timeout=60)
    say("ok", "Status: ready again, the last take's thumbnail")
    minutes = b.until("the disk in minutes of video", "const d = document.getElementById('disk-minutes').textContent; return d.includes('min of video') && d", timeout=30)
    say("ok", f"Status: free disk {minutes!r} at the take's rate")
    booth_control(b, args)
    # Status's lower half: the booth's control and its last answer, the last take, the warnings.
    b.js("document.getElementById('booth-control').scrollIntoView(); window.scrollBy(0, -12)")
    b.shot(shots("status-control"))
    b.js("window.scrollTo(0, 0)")
    b.shot(shots("status"))

    film(b, args, shots)

    # Takes: listed, played, hidden, shown, deleted.
    box = "[...document.querySelectorAll('.take')].find((t) => t.querySelector('strong').textContent === arguments[0])"
    b.click("#tab-takes")
    b.until("the take listed", f"return !!{box}", name)
    say("ok", f"Takes lists {name}")
    b.js(f"{box}.querySelector('.actions button').click()", name)
    video = f"{box}.querySelector('video')"
    state = b.until("the video playable", f"const v = {video}; return v && v.readyState >= 2 && [v.readyState, v.duration]", name, timeout=60)
    say("ok", f"the take plays in the page (readyState {state[0]}, {state[1]:.2f} s)")
    if args.engine == "chromium":
        end = b.until("played to its end", f"const v = {video}; return v.ended && [v.currentTime, v.duration]", name, timeout=60)
        say("ok", f"played to its end ({end[0]:.2f} of {end[1]:.2f} s)")
    else:
        b.until("the video plays", f"const v = {video}; return v.currentTime > 0", name, timeout=60)
        say("ok", "the video's time moves")
    if args.consented:
        consent_check(b, args.consented, name)
    b.shot(shots("takes"))
    listed = "return fetch('api/takes').then((r) => r.json()).then((l) => arguments[1](l.find((t) => t.name === arguments[0])))"
    b.js(f"{box}.querySelectorAll('.actions button')[1].click()", name)
    b.until("hidden", f"const t = {box}; return t && t.classList.contains('hidden-take')", name)
    if not (b.js_async(listed, name) or {}).get("hidden"):
        raise Failure("the take is shown hidden, the API says otherwise")
    say("ok", "hidden (marked on the page and in api/takes)")
    b.js(f"{box}.querySelectorAll('.actions button')[1].click()", name)
    b.until("shown", f"const t = {box}; return t && !t.classList.contains('hidden-take')", name)
    if (b.js_async(listed, name) or {}).get("hidden") is not False:
        raise Failure("the take is shown again on the page, the API says otherwise")
    say("ok", "shown again")
    remove = f"{box}.querySelector('.actions .danger').click()"
    b.js(remove, name)
    text = b.call("GET", "/alert/text")
    if "Delete" not in text:
        raise Failure(f"the delete's confirm says {text!r}")
    b.call("POST", "/alert/dismiss", {})
    # (The caller also finds a single deleteTake in the audit log: a cancelled one sent nothing.)
    if not b.js(f"return !!{box}", name) or not b.js_async(listed, name):
        raise Failure("the take went although the confirm was cancelled")
    say("ok", f"delete asks first ({text!r}); cancelled, the take stays")
    b.js(remove, name)
    b.call("POST", "/alert/accept", {})
    b.until("deleted", f"return !{box}", name)
    say("ok", "deleted once confirmed")

    # Another origin against the console: nothing gets through.
    server, url = other_origin(args.other_host or urllib.parse.urlsplit(console).hostname, console)
    try:
        b.call("POST", "/url", {"url": url})
        b.until("the other origin's page", "return document.title === 'done'")
        tried = b.js("return document.getElementById('out').textContent")
        if "read=blocked" not in tried or "forgedHeader=blocked" not in tried:
            raise Failure(f"a page of another origin got through: {tried}")
        say("ok", f"a page of another origin ({url}): {tried}")
        b.js("document.getElementById('forged').submit()")
        answer = b.until("the forged form's answer", "return location.href.endsWith('api/command') && document.body.innerText")
        # Same site (another port of the console's host): the cookie goes along and the Origin is
        # refused (403, audited). Another site (a phone's own address on the Wi-Fi): SameSite=Strict keeps
        # the cookie back, so the console sees no session (401).
        refused = "foreignOrigin" in answer
        if not refused and "signIn" not in answer and "401" not in answer:
            raise Failure(f"a forged form from another origin: {answer}")
        say("ok", f"a forged form from another origin is refused: {answer.strip()}")
    finally:
        server.shutdown()
        server.server_close()
    b.call("POST", "/url", {"url": console})
    b.until("signed in still", "const c = document.getElementById('console'); return c && !c.hidden")

    # Log: the events and the audit log.
    b.click("#tab-log")
    b.until("the events", "return [...document.querySelectorAll('#events li')].some((l) => l.textContent.includes('\"recordingStarted\"'))")
    audit = b.until("the audit log", "const a = [...document.querySelectorAll('#audit li')].map((l) => l.textContent);"
                    " return a.some((l) => l.includes('deleteTake ' + arguments[0] + ': ok')) && a", name)
    if not any("signIn: wrongPassword" in line for line in audit) or refused and not any("refused 403" in line for line in audit):
        raise Failure(f"the audit log lacks the wrong password or the refusals: {audit}")
    say("ok", f"Log: the events and {len(audit)} audit entries (the wrong password, the refusals, the delete)")
    b.shot(shots("log"))

    # Devices: the lists drawn, and the booth's screen as a picture, a newer one each second.
    b.click("#tab-devices")
    b.until("the devices listed", "return document.querySelectorAll('#camera-list li').length > 0"
            " && document.querySelectorAll('#microphone-list li').length > 0")
    picture = ("const i = document.getElementById('screen-picture'); return i.complete && i.naturalWidth > 0"
               " && Number(i.dataset.count) >= arguments[0] && [Number(i.dataset.count), i.naturalWidth, i.naturalHeight, i.src]")
    first = b.until("the booth's screen", picture, 1)
    later = b.until("the booth's screen refreshed", picture, first[0] + 2, timeout=30)
    if later[3] == first[3]:
        raise Failure(f"the screen picture was not fetched again: {later}")
    say("ok", f"Devices: the booth's screen {later[1]}x{later[2]}, refreshed ({later[0]} pictures)")
    b.shot(shots("devices"))
    # The 3 s test take: its figures and its first frame on the page.
    b.click("#trial")
    result = b.until("the test take's frame", "const f = document.getElementById('trial-frame');"
                     " return f && f.complete && f.naturalWidth > 0 && document.getElementById('trial-result').textContent", timeout=60)
    if "dBFS" not in result or "LUFS" not in result:
        raise Failure(f"the test take shows {result!r}")
    say("ok", f"Devices: a test take: {result}")
    # Calibrate: the booth's calibrate carried out (its answer on the page), its measure in the events.
    b.click("#calibrate")
    b.until("calibrate answered", "return document.getElementById('devices-message').textContent.length > 0"
            " && [...document.querySelectorAll('#events li')].some((l) => l.textContent.includes('\"keyCalibrated\"'))", timeout=30)
    say("ok", "Devices: Calibrate: the booth's keyCalibrated")

    # Sign out: the form again, and the API closed.
    b.click("#sign-out")
    b.until("signed out", "const f = document.getElementById('sign-in'); return document.readyState === 'complete' && f && !f.hidden"
            " && !document.getElementById('console')")
    status = b.js_async("fetch('api/state').then((r) => arguments[0](r.status))")
    if status != 401:
        raise Failure(f"after sign-out api/state answers {status}")
    say("ok", "signed out: the form again, api/state 401")

    # Signed in again on a phone whose languages are German first: the signed-in part, made at
    # sign-in, picks its words from navigator.languages then. Settings: its heading, its save
    # button, where a value comes from, an upload's label.
    b.js("Object.defineProperty(navigator, 'languages', { get: () => ['de-DE', 'de', 'en'] })")
    b.type("#password", args.password)
    b.click("#sign-in button")
    b.until("signed in again", "const c = document.getElementById('console'); return c && !c.hidden")
    # (Clicked in the page: Status still fills in above it, and a pointer aimed at where it was
    # could land on the machine's buttons.)
    b.until("Settings' button", "const o = document.getElementById('settings-open'); return o && (o.click(), true)")
    words = b.until("the German Settings view", "const v = document.getElementById('settings');"
                    " return !v.hidden && v.querySelector('.source-default') && [v.querySelector('h2').textContent,"
                    " document.getElementById('settings-save').textContent, v.querySelector('.source-default').textContent,"
                    " document.querySelector('#settings-files label').textContent]", timeout=30)
    if words != ["Einstellungen", "Speichern und neu laden", "Standard", "Overlay (PNG mit Alpha)"]:
        raise Failure(f"the Settings view in German shows {words}")
    say("ok", f"Settings in German: {words}")
    b.js("document.getElementById('settings').scrollIntoView()")
    b.shot(shots("settings-de"))
    b.click("#sign-out")
    b.until("signed out again", "const f = document.getElementById('sign-in'); return document.readyState === 'complete' && f && !f.hidden"
            " && !document.getElementById('console')")


def booth_control(b, args):
    """Status's control of the booth: Close asks first (dismissed, nothing is sent), then closes it
    (the booth's state and the page say closed), Open brings ready back; Reload settings reads them
    again. With --break-config FILE (the booth's config), a bad line is added first: the reload is
    refused, the page says why and Status's warnings list it as it comes; then the file is put back."""
    toggle = "const t = document.getElementById('booth-toggle');"
    mode = "const m = document.getElementById('mode').textContent;"
    state = "fetch('api/state').then((r) => r.json()).then((s) => arguments[0](s.mode))"
    b.click("#booth-toggle")
    question = b.call("GET", "/alert/text")
    b.call("POST", "/alert/dismiss", {})
    if b.js(mode + " return m").startswith("closed") or b.js_async(state) != "ready":
        raise Failure("the booth closed although the confirm was dismissed")
    b.click("#booth-toggle")
    b.call("POST", "/alert/accept", {})
    # (Closed as the booth's state says, too: none of its buttons left on the page.)
    label = b.until("closed on Status", mode + toggle + " return m.startsWith('closed') && t.dataset.command === 'openBooth'"
                    " && document.getElementById('status').classList.contains('closed')"
                    " && document.getElementById('buttons').children.length === 0 && t.textContent")
    if b.js_async(state) != "closed":
        raise Failure("the page says closed, the booth's state does not")
    say("ok", f"Close the booth asks first ({question!r}); then the booth's state and Status say closed, and the button is {label!r}")
    b.click("#booth-toggle")
    try:
        b.until("ready on Status", mode + toggle + " return m.startsWith('ready') && t.dataset.command === 'closeBooth'")
    except Failure as failure:
        page = b.js(mode + toggle + " return [m, t.dataset.command, t.textContent, document.getElementById('booth-message').textContent]")
        raise Failure(f"{failure}: the page shows {page}, the booth's state says {b.js_async(state)}")
    if b.js_async(state) != "ready":
        raise Failure("the page says ready, the booth's state does not")
    say("ok", "Open the booth: the booth's state and Status say ready again")
    reloaded = ("const m = document.getElementById('booth-message'); return m.textContent.includes(arguments[0])"
                " && m.className !== 'bad' && m.textContent")
    b.js("document.getElementById('booth-message').textContent = ''")
    b.click("#booth-reload")
    said = b.until("the settings reloaded", reloaded, "reloaded")
    say("ok", f"Reload settings: {said!r}")
    if not args.break_config:
        return
    with open(args.break_config) as f:
        kept = f.read()
    try:
        with open(args.break_config, "a") as f:
            f.write("fps = many\n")
        b.click("#booth-reload")
        said = b.until("the refused reload's message", "const m = document.getElementById('booth-message'); return m.className === 'bad' && m.textContent")
        warning = b.until("the refusal among Status's warnings", "const w = document.querySelector('#warnings li[data-kind=badConfig]'); return w && w.textContent")
    finally:
        with open(args.break_config, "w") as f:
            f.write(kept)
    if "many" not in said or "Settings refused" not in warning or "many" not in warning:
        raise Failure(f"a refused reload: the page says {said!r}, its warnings {warning!r}")
    say("ok", f"a refused reload: {said!r}; Status's warnings: {warning!r}")
    b.click("#booth-reload")
    said = b.until("the settings put back reloaded", reloaded, "reloaded")
    say("ok", f"the settings put back, reloaded: {said!r}")


def film(b, args, shots):
    """The Film view: the hosts' film made from the page (the caller's takes, --film-takes of them, small and quick),
    its progress as a bar, then played in the page (to its end in Chromium) and downloaded."""
    b.click("#tab-film")
    b.until("the Film view", "return !document.getElementById('film').hidden && !!document.getElementById('film-make')")
    b.js("document.getElementById('film-size').value = '640x360'; document.getElementById('film-title').value = 'Anna & Tom';"
         """
      window.filmSeen = [];
      const bar = document.getElementById('film-progress');
      const note = () => { const v = bar.hidden ? 'hidden' : bar.hasAttribute('value') ? bar.value : 'indeterminate';
        if (filmSeen[filmSeen.length - 1] !== v) filmSeen.push(v); };
      new MutationObserver(note).observe(bar, { attributes: true });
      window.filmNoting = setInterval(note, 20);""")
    b.click("#film-make")
    # Made once the bar, having left where it stood (an earlier film's finish, on a console another
    # engine used first), is full again.
    said = b.until("the film made", "const v = document.getElementById('film-video');"
                   " return v && filmSeen.slice(1).some((x) => x === 'indeterminate' || x < 1)"
                   " && document.getElementById('film-progress').value === 1 && document.getElementById('film-state').textContent", timeout=400)
    seen = b.js("clearInterval(filmNoting); return filmSeen")
    shown = [v for v in seen if v != "hidden"]
    if not shown or shown[-1] != 1 or not any(v == "indeterminate" or v < 1 for v in shown):
        raise Failure(f"the film's progress bar showed {seen}")
    say("ok", f"the film's progress bar: {seen}; then {said!r}")
    state = b.js_async("fetch('api/film').then((r) => r.json()).then(arguments[0])")
    if state.get("state") != "finished" or state.get("takes") != args.film_takes:
        raise Failure(f"the page says the film is made, api/film says {state}")
    link = b.js_async("const a = document.getElementById('film-download');"
                      " fetch(a.href).then(async (r) => arguments[0]([a.getAttribute('download'), r.status, r.headers.get('content-disposition'),"
                      " (await r.arrayBuffer()).byteLength]))")
    if link[1] != 200 or not (link[2] or "").startswith("attachment") or link[0] != "film.mp4":
        raise Failure(f"the film's download link: {link}")
    say("ok", f"the film downloads from the page's link: {link[3]} bytes, {link[2]}")
    b.js("document.getElementById('film-video').play()")
    video = "const v = document.getElementById('film-video');"
    ready = b.until("the film playable", video + " return v.readyState >= 2 && [v.readyState, v.duration]", timeout=60)
    if abs(ready[1] - state["duration"]) > 0.2:
        raise Failure(f"the film plays {ready[1]} s, api/film says {state['duration']} s")
    say("ok", f"the film plays in the page (readyState {ready[0]}, {ready[1]:.2f} s)")
    b.js("document.getElementById('film-state').scrollIntoView()")
    b.shot(shots("film"))
    if args.engine == "chromium":
        end = b.until("the film played to its end", video + " return v.ended && [v.currentTime, v.duration]", timeout=120)
        say("ok", f"the film played to its end ({end[0]:.2f} of {end[1]:.2f} s)")
    else:
        b.until("the film plays", video + " return v.currentTime > 0", timeout=60)
        say("ok", "the film's time moves")


NO_PASSWORD_ES = ["Consola de la cabina", "No hay contraseña de consola, así que la consola no abre nada.",
                  "En la cabina, ejecuta sudo -u kiosk kiosk-recorder console password y escribe la contraseña dos veces; luego recarga esta página."]


def no_password_page(b, args):
    """A console with no password set: its page says how to set one and holds no form, in the
    browser's language (English, then Spanish as the phone's languages change)."""
    b.call("POST", "/window/rect", {"width": WIDTH, "height": HEIGHT})
    b.call("POST", "/url", {"url": args.base.rstrip("/") + "/console/"})
    read = ("return document.readyState === 'complete' && document.getElementById('no-password') && [document.forms.length, document.documentElement.lang,"
            " document.title, document.getElementById('no-password').textContent, document.getElementById('no-password-how').textContent]")
    page = b.until("the no-password page", read)
    if page[0] != 0 or page[3] != "No console password is set, so the console opens nothing.":
        raise Failure(f"with no password set, the page shows {page}")
    say("ok", f"no password: the page says {page[3]!r} and holds no form")
    b.js("Object.defineProperty(navigator, 'languages', { configurable: true, get: () => ['es-ES', 'es'] });"
         " window.dispatchEvent(new Event('languagechange'))")
    page = b.until("the no-password page in Spanish", read.replace("document.readyState === 'complete'", "document.documentElement.lang === 'es'"))
    if page[2:] != NO_PASSWORD_ES:
        raise Failure(f"the no-password page in Spanish shows {page}")
    say("ok", f"no password, in Spanish: {page[2:]}")
    b.shot(os.path.join(args.shots, f"console-no-password-es-{args.engine}.png"))


def share_delete(b, args):
    """A guest's delete from the share page at args.share_page: the button, the confirm step, the answer."""
    b.call("POST", "/url", {"url": args.share_page})
    b.until("the share page", "return document.querySelector('video') && document.querySelector('details.delete summary')")
    # The confirm step is closed: its button is not on screen until Delete is pressed.
    # (A closed <details> keeps its content laid out but not rendered: checkVisibility, not client rects.)
    if b.js("const d = document.querySelector('details.delete'), c = d.querySelector('button');"
            " return d.open || (c.checkVisibility ? c.checkVisibility() : c.getClientRects().length > 0)"):
        raise Failure("the share page's confirm button shows before Delete is pressed")
    b.click("details.delete summary")
    b.until("the confirm step", "return document.querySelector('details.delete').open")
    say("ok", "the share page's Delete opens its confirm step")
    b.shot(os.path.join(args.shots, f"share-delete-confirm-{args.engine}.png"))
    b.click("details.delete button")
    want = "Deleted" if args.expect_deleted == "yes" else "There is no video here (any more)."
    script = ("return document.querySelector('h1') && document.querySelector('h1').textContent === arguments[0]" if args.expect_deleted == "yes"
              else "return document.querySelector('p.answer') && document.querySelector('p.answer').textContent === arguments[0]")
    b.until(f"the answer '{want}'", script, want)
    b.shot(os.path.join(args.shots, f"share-delete-answer-{args.engine}.png"))
    say("ok", "the page says deleted" if args.expect_deleted == "yes" else "the page says there is no video (the booth refused the token)")


# The Takes page's consent beside a take, "Consent: film" in the page's language (the booth's six).
CONSENT_FILM = ["Consent: film", "Einwilligung: Film", "Consentement: film", "Consentimiento: película", "同意: 映像作品", "同意: 影片"]
CONSENT_WORDS = ["Consent", "Einwilligung", "Consentement", "Consentimiento", "同意"]


def consent_check(b, consented, other):
    """Takes: the take a guest agreed to with film only says so beside it; a take recorded without
    the consent screen says nothing of consent."""
    text = "const t = [...document.querySelectorAll('.take')].find((t) => t.querySelector('strong').textContent === arguments[0]); return t && t.textContent"
    facts = b.until("the consented take listed", text, consented)
    if not any(words in facts for words in CONSENT_FILM):
        raise Failure(f"the consented take {consented} does not show its consent (film): {facts!r}")
    plain = b.js(text, other) or ""
    if any(word in plain for word in CONSENT_WORDS):
        raise Failure(f"the take {other}, recorded without the consent screen, shows a consent: {plain!r}")
    say("ok", f"Takes shows {consented}'s consent: film only, and none beside {other}")


# Status against real faults (--scenario), beside a test that acts on each "cue: NAME" and answers
# on stdin once its act is done: the page is watched, never reloaded, and the checks read the DOM.
def signed_in_status(b, args):
    """Signed in on Status, with a record of every warning's life (shown, then cleared) kept by the
    page itself (window.warningLog), so that one shown and cleared between two looks is not missed."""
    b.call("POST", "/window/rect", {"width": WIDTH, "height": HEIGHT})
    b.call("POST", "/url", {"url": args.base.rstrip("/") + "/console/"})
    # Generous: beside CI's wide pass (eight tests at once, other browsers among them) WebKit's
    # sign-in once took over 60 s (ci45); the test's own waits allow 300 s for a cue.
    b.until("the sign-in form", "return document.readyState === 'complete' && !!document.getElementById('password')", timeout=180)
    b.type("#password", args.password)
    b.click("#sign-in button")
    b.until("signed in", "const c = document.getElementById('console'); return c && !c.hidden && document.getElementById('sign-in').hidden"
            " && !!document.getElementById('warnings')", timeout=180)
    b.js("""
      window.warningLog = [];
      const states = new Map();
      const look = () => { for (const li of document.querySelectorAll('#warnings li')) {
        const state = li.classList.contains('cleared') ? 'cleared' : 'shown';
        if (!states.has(li)) li.dataset.seen = String(states.size);
        if (states.get(li) !== state) { states.set(li, state); warningLog.push({ n: li.dataset.seen, kind: li.dataset.kind, state, text: li.textContent, at: Date.now() }); }
      } };
      new MutationObserver(look).observe(document.getElementById('warnings'), { childList: true, subtree: true, attributes: true, characterData: true });
      look();""")


def go_on(what):
    """Tells the caller to act (`cue: what`) and waits for its answer."""
    say("cue", what)
    answer = sys.stdin.readline().strip()
    if not answer:
        raise Failure(f"the caller ended instead of acting on {what!r}")
    return answer


def warning_shown(b, kind, words, timeout=90):
    """The first warning of `kind` shown (not yet cleared) whose text has `words`: its log entry."""
    return b.until(f"the warning {words!r}", "return warningLog.find((w) => w.kind === arguments[0] && w.state === 'shown' && w.text.includes(arguments[1]))",
                   kind, words, timeout=timeout)


def warning_cleared(b, shown, timeout=90):
    """The warning `shown` marked cleared: its log entry."""
    entry = b.until(f"the warning {shown['text']!r} cleared", "return warningLog.find((w) => w.n === arguments[0] && w.state === 'cleared')",
                    shown["n"], timeout=timeout)
    if "cleared" not in entry["text"] or not entry["text"].startswith(shown["text"]):
        raise Failure(f"the warning {shown['text']!r}, cleared, says {entry['text']!r}")
    return entry


def meter_scenario(b, args, shots):
    """The meter follows the fake microphone's loop of a tone (-6 dBFS) and silence: loud, low, loud,
    low, as the page's own look every 50 ms at its meter sees it; then, in a take the caller starts,
    the silence is Microphone silent, cleared once the tone is heard again."""
    signed_in_status(b, args)
    b.until("the microphone's meter", "return !!document.getElementById('microphone-meter')", timeout=60)
    b.js("""
      window.meterPhases = [];
      setInterval(() => { const m = document.getElementById('microphone-meter'); if (!m) return;
        const phase = m.value >= -12 ? 'loud' : m.value <= -50 ? 'low' : null;
        if (phase && (!meterPhases.length || meterPhases[meterPhases.length - 1].phase !== phase))
          meterPhases.push({ phase, value: m.value, text: document.getElementById('microphone').textContent, at: Date.now() }); }, 50);""")
    phases = b.until("the meter loud, low, loud and low", "const i = meterPhases.findIndex((p) => p.phase === 'loud');"
                     " return i >= 0 && meterPhases.length - i >= 4 && meterPhases.slice(i, i + 4)", timeout=120)
    spans = [f"{p['phase']} {p['value']:.0f} ({p['text'].strip()})" for p in phases]
    gaps = [f"{(later['at'] - p['at']) / 1000:.1f} s" for p, later in zip(phases, phases[1:])]
    say("ok", f"the meter follows the fake microphone: {', '.join(spans)}; each after {', '.join(gaps)}")
    go_on("take")
    shown = warning_shown(b, "microphoneSilent", "Microphone silent")
    b.js("window.scrollTo(0, document.getElementById('warnings').getBoundingClientRect().top + window.scrollY - 300)")
    cleared = warning_cleared(b, shown)
    b.shot(shots("status-meter"))
    say("ok", f"Microphone silent, then cleared: {shown['text']!r}, then {cleared['text']!r} {(cleared['at'] - shown['at']) / 1000:.1f} s later")


def reconnect_scenario(b, args, shots):
    """Started before the booth: the banner; the booth started: gone, Status filled in (its camera
    then unplugged: Camera lost, cleared once it is back); the booth killed: the banner again; a new
    booth: gone again. The page is never reloaded (a mark left in it stays)."""
    signed_in_status(b, args)
    b.js("window.neverReloaded = true")
    banner = ("const l = document.getElementById('link'); return !!l && !l.hidden && document.getElementById('mode').textContent === '—'"
              " && [l.textContent, document.getElementById('mode').textContent]")
    filled = ("const l = document.getElementById('link'), m = document.getElementById('mode').textContent; return l.hidden && m.startsWith('ready')"
              " && !document.querySelector('#warnings li[data-kind=boothUnreachable]:not(.cleared)') && [m, document.getElementById('camera').textContent]")
    said = b.until("the banner before the booth", banner, timeout=60)
    if said[0] != "The booth does not answer; trying again.":
        raise Failure(f"with no booth, the banner says {said[0]!r}")
    say("ok", f"before the booth: the banner says {said[0]!r}, the mode {said[1]!r}")
    b.shot(shots("status-no-booth"))
    go_on("booth")
    page = b.until("the banner gone, Status filled in", filled, timeout=60)
    say("ok", f"the booth came: the banner gone, Status filled in (mode {page[0]!r}, camera {page[1]!r}), the unreachable warnings cleared")
    shown = warning_shown(b, "cameraLost", "Camera lost")
    b.js("window.scrollTo(0, document.getElementById('warnings').getBoundingClientRect().top + window.scrollY - 300)")
    b.shot(shots("status-camera-lost"))
    cleared = warning_cleared(b, shown)
    say("ok", f"Camera lost, then cleared: {shown['text']!r}, then {cleared['text']!r} {(cleared['at'] - shown['at']) / 1000:.1f} s later")
    b.js("window.scrollTo(0, 0)")
    go_on("kill")
    said = b.until("the banner again", banner, timeout=60)
    say("ok", f"the booth killed: the banner again ({said[0]!r})")
    go_on("booth again")
    page = b.until("the banner gone again", filled, timeout=60)
    if b.js("return window.neverReloaded") is not True:
        raise Failure("the page was reloaded")
    say("ok", f"a new booth: the banner gone, Status filled in, the page never reloaded (mode {page[0]!r})")


def disk_scenario(b, args, shots):
    """A slow disk (the caller stalls its syncs for a take): Disk slow, cleared after a take the disk
    kept up with; a full one (the caller fills it): Disk full, cleared once a take starts."""
    signed_in_status(b, args)
    b.until("ready on Status", "return document.getElementById('mode').textContent.startsWith('ready')", timeout=60)
    go_on("slow")
    slow = warning_shown(b, "storageSlow", "Disk slow")
    if b.js("return warningLog.some((w) => w.n === arguments[0] && w.state === 'cleared')", slow["n"]):
        raise Failure(f"{slow['text']!r} was cleared by the slow take itself")
    go_on("fast")
    cleared = warning_cleared(b, slow)
    say("ok", f"Disk slow, then cleared: {slow['text']!r}, then {cleared['text']!r}")
    go_on("full")
    full = warning_shown(b, "diskFull", "Disk full")
    b.js("window.scrollTo(0, document.getElementById('warnings').getBoundingClientRect().top + window.scrollY - 300)")
    b.shot(shots("status-disk"))
    go_on("room")
    cleared = warning_cleared(b, full)
    say("ok", f"Disk full, then cleared: {full['text']!r}, then {cleared['text']!r}")


SCENARIOS = {"meter": meter_scenario, "reconnect": reconnect_scenario, "disk": disk_scenario}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--engine", choices=sorted(ENGINES), required=True)
    parser.add_argument("--base", required=True, help="the console's site, e.g. http://127.0.0.1:8080 (the page is BASE/console/)")
    parser.add_argument("--password", help="the operator's password (needed but with --share-page)")
    parser.add_argument("--share-page", help="a guest's share page: its Delete is driven instead of the console")
    parser.add_argument("--expect-deleted", choices=["yes", "no"], default="yes", help="with --share-page: what the answer says")
    parser.add_argument("--shots", required=True, help="folder for the screenshots")
    parser.add_argument("--film-takes", type=int, default=2, help="the takes the booth has when the film is made (default 2)")
    parser.add_argument("--consented", help="a take a guest agreed to with film only: Takes must show that consent beside it")
    parser.add_argument("--no-password-page", action="store_true", help="the page of a console with no password set, in Spanish, instead")
    parser.add_argument("--break-config", help="the booth's config file: a bad line is added for a reload the booth refuses, then taken out")
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), help="Status against a fault the caller makes on each cue, instead")
    parser.add_argument("--other-host", help="the address the page of another origin is served on (default: the console's host)")
    args = parser.parse_args()
    if not args.share_page and not args.no_password_page and not args.password:
        parser.error("--password is needed (but with --share-page or --no-password-page)")
    # Ended by the caller (a test that failed): the browser, its driver and display go too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    engine = ENGINES[args.engine]
    needed = [engine["driver"], engine["browser"]] + (["Xvfb"] if args.engine == "webkit" else [])
    missing = [p for p in needed if not shutil.which(p)]
    if missing:
        say("missing", " ".join(missing))
        return 3
    os.makedirs(args.shots, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix=f"console-browser-{args.engine}-")
    started, clock = time.monotonic(), time.process_time()
    b = None
    try:
        b = Browser(args.engine, scratch)
        if args.share_page:
            share_delete(b, args)
        elif args.no_password_page:
            no_password_page(b, args)
        elif args.scenario:
            SCENARIOS[args.scenario](b, args, lambda name: os.path.join(args.shots, f"console-{name}-{args.engine}.png"))
        else:
            run(b, args)
        status = 0
    except Failure as failure:
        say("FAIL", str(failure))
        if b:
            try:
                b.shot(os.path.join(args.shots, f"failed-{args.engine}.png"))
            except (Failure, OSError):
                pass
        status = 1
    finally:
        browsers = b.cpu() if b else 0
        if b:
            b.close()
            say("closed", f"{args.engine} and its driver")
        shutil.rmtree(scratch, ignore_errors=True)
    cpu = time.process_time() - clock + browsers
    say("figure", f"{args.engine}: {time.monotonic() - started:.1f} s, CPU {cpu:.1f} s (the driver, the browser and its display)")
    return status


if __name__ == "__main__":
    sys.exit(main())
