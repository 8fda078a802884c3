#!/usr/bin/env python3
"""Drives the console's Settings view in Debian's headless Chromium at 360 px over the DevTools
protocol on a pipe (--remote-debugging-pipe: nothing but Python's standard library): signs in, opens
Settings, saves countdown 99 (refused) then 5, takes a screenshot, and prints what the page showed as
one JSON line.

Usage: settings-view.py URL PASSWORD SCREENSHOT PROFILE
"""
import base64
import json
import os
import subprocess
import sys
import time

url, password, shot, profile = sys.argv[1:5]
# Chromium reads the protocol's messages on fd 3 and writes its own on fd 4, each ending in NUL.
commands_in, commands_out = os.pipe()
replies_in, replies_out = os.pipe()
# 8 and 9 (above 4, one digit for sh): making them 3 and 4 in the child never overwrites one with the other.
for low, high in ((commands_in, 8), (replies_out, 9)):
    os.dup2(low, high, inheritable=False)
    os.close(low)
commands_in, replies_out = 8, 9
chrome = subprocess.Popen(
    ["sh", "-c", f'exec /usr/bin/chromium "$@" 3<&{commands_in} 4>&{replies_out}', "sh",
     "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-pipe", "--user-data-dir=" + profile,
     "about:blank"],
    pass_fds=(commands_in, replies_out), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
os.close(commands_in)
os.close(replies_out)
to_chrome = os.fdopen(commands_out, "wb", buffering=0)
from_chrome = os.fdopen(replies_in, "rb", buffering=0)
pending = b""
last = 0


def send(method, params=None, session=None):
    """One command, and its reply (events on the way are passed over)."""
    global last, pending
    last += 1
    message = {"id": last, "method": method, "params": params or {}}
    if session:
        message["sessionId"] = session
    to_chrome.write(json.dumps(message).encode() + b"\0")
    while True:
        while b"\0" not in pending:
            chunk = from_chrome.read(1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            pending += chunk
        raw, pending = pending.split(b"\0", 1)
        reply = json.loads(raw)
        if reply.get("id") == last:
            if "error" in reply:
                raise RuntimeError(f"{method}: {reply['error']}")
            return reply.get("result", {})


def main():
    target = send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]

    def page(method, params=None):
        return send(method, params, session)

    def evaluate(expression):
        return page("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True}).get("result", {}).get("value")

    def until(expression, what):
        """What the page shows, asked again until it holds (its own fetches take their time)."""
        end = time.monotonic() + 30
        while time.monotonic() < end:
            value = evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        raise RuntimeError("the page never showed " + what)

    page("Emulation.setDeviceMetricsOverride", {"width": 360, "height": 800, "deviceScaleFactor": 1, "mobile": True})
    page("Page.navigate", {"url": url})
    text = lambda id: f'(document.getElementById({json.dumps(id)}) || {{}}).textContent || ""'
    source = '(document.querySelector(\'[data-setting="countdown"]\') || {}).textContent || ""'
    # Its scripts run first (deferred): the form is there before them.
    until('document.readyState === "complete" && !!document.getElementById("sign-in")', "the sign-in form")
    evaluate(f'document.getElementById("password").value = {json.dumps(password)}; document.getElementById("sign-in").requestSubmit(); true')
    until('!!document.getElementById("settings-open")', "the Settings button")
    evaluate('document.getElementById("settings-open").click(); true')
    until('!!document.getElementById("setting-countdown")', "the countdown's input")
    result = {"sourceBefore": evaluate(source), "valueBefore": evaluate('document.getElementById("setting-countdown").value'),
              "type": evaluate('document.getElementById("setting-countdown").type'),
              "groups": evaluate('[...document.querySelectorAll("#settings-form summary")].map((s) => s.textContent)')}

    def save(value):
        evaluate(f'document.getElementById("setting-countdown").value = {json.dumps(value)};'
                 ' document.getElementById("settings-message").textContent = ""; document.getElementById("settings-save").click(); true')

    save("99")
    result["refusal"] = until(text("settings-message"), "the refusal")
    save("5")
    result["saved"] = until(text("settings-message"), "the save")
    result["sourceAfter"] = until(f'{source} === "set here" && {source}', "the new source")
    result["valueAfter"] = evaluate('document.getElementById("setting-countdown").value')
    # Phone first: nothing wider than the screen.
    result["scrollWidth"] = evaluate("document.documentElement.scrollWidth")
    # The picture: the countdown's group open, its row in view.
    evaluate('const row = document.getElementById("setting-countdown"); row.closest("details").open = true;'
             ' row.scrollIntoView({ block: "center" }); true')
    with open(shot, "wb") as file:
        file.write(base64.b64decode(page("Page.captureScreenshot", {"format": "png"})["data"]))
    return result


try:
    print(json.dumps(main()))
    status = 0
except Exception as error:  # what went wrong, as the one line the test reads
    print(json.dumps({"error": str(error)}))
    status = 1
finally:
    # Chromium and every process it started (its own session).
    try:
        os.killpg(chrome.pid, 9)
    except ProcessLookupError:
        pass
    chrome.wait()
sys.exit(status)
