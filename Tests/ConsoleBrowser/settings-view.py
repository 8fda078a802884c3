#!/usr/bin/env python3
"""Drives the console's Settings view at a phone's 360 px in a real browser engine over WebDriver,
Chromium (chromedriver, headless) or WebKit (WebKitWebDriver and MiniBrowser on a private Xvfb), as
Tests/Browsers/console_browser.py starts them: signs in, opens Settings, types countdown 99 and
saves (refused), then 5 (saved); with OVERLAY and QUESTIONS, picks each file in its file input (the
path sent to the <input type=file>, as a person's file chooser fills it) and presses its Upload;
takes a screenshot and prints what the page showed as one JSON line.

Usage: settings-view.py ENGINE URL PASSWORD SCREENSHOT SCRATCH [OVERLAY QUESTIONS]
"""
import json
import os
import sys
import time

sys.dont_write_bytecode = True  # nothing left in the checkout
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Browsers"))
from console_browser import WIDTH, HEIGHT, Browser  # noqa: E402

engine, url, password, shot, scratch = sys.argv[1:6]
overlay, questions = (sys.argv[6:8] + [None, None])[:2]


result = {}  # what the page showed so far: printed with the error when a step fails


def main(b):
    b.call("POST", "/window/rect", {"width": WIDTH, "height": HEIGHT})
    b.call("POST", "/url", {"url": url})
    b.until("the sign-in form", "return document.readyState === 'complete' && !!document.getElementById('sign-in')")
    b.type("#password", password)
    b.click("#sign-in button")
    b.until("signed in", "const c = document.getElementById('console'); return c && !c.hidden")
    # (Clicked in the page: Status still fills in above it, and a pointer aimed at where the button
    # was could land on another.)
    b.until("the Settings button", "const o = document.getElementById('settings-open'); return o && (o.click(), true)")
    b.until("the countdown's input", "return !!document.getElementById('setting-countdown')", timeout=30)
    source = "return (document.querySelector('[data-setting=\"countdown\"]') || {}).textContent || ''"
    message = "return document.getElementById('settings-message').textContent"
    result.update({"sourceBefore": b.js(source), "valueBefore": b.js("return document.getElementById('setting-countdown').value"),
                   "type": b.js("return document.getElementById('setting-countdown').type"),
                   "groups": b.js("return [...document.querySelectorAll('#settings-form summary')].map((s) => s.textContent)")})

    def save(value):
        # The countdown's group opened (its summary, as a person taps it), the value typed, Save pressed.
        b.js("document.getElementById('settings-message').textContent = '';"
             " const d = document.getElementById('setting-countdown').closest('details'); if (!d.open) d.querySelector('summary').click();")
        b.type("#setting-countdown", value)
        b.click("#settings-save")
        return b.until(f"the answer to countdown {value}", message, timeout=30)

    result["refusal"] = save("99")
    result["saved"] = save("5")
    result["sourceAfter"] = b.until("the new source", source + " === 'set here' && 'set here'", timeout=30)
    result["valueAfter"] = b.js("return document.getElementById('setting-countdown').value")
    # The files, picked in their inputs and uploaded with their buttons.
    for name, path in (("questions", questions), ("overlay", overlay)):
        if path:
            b.js("document.getElementById('settings-message').textContent = ''")
            b.call("POST", f"/element/{b.element('#upload-' + name)}/value", {"text": path})
            result[name + "Picked"] = b.js(f"const f = document.getElementById('upload-{name}').files[0]; return f ? f.name + ' ' + f.size : ''")
            b.click(f"#upload-{name}-send")
            result[name + "Uploaded"] = b.until(f"the {name} upload's answer", message, timeout=30)
    # Phone first: nothing wider than the screen.
    result["innerWidth"] = b.js("return window.innerWidth")
    result["scrollWidth"] = b.js("return document.documentElement.scrollWidth")
    # The picture: the countdown's group open (the save drew the form again, closed), its row in view.
    b.js("const row = document.getElementById('setting-countdown'); row.closest('details').open = true;"
         " row.scrollIntoView({ block: 'center' })")
    b.shot(shot)
    return result


b = None
try:
    os.makedirs(scratch, exist_ok=True)
    b = Browser(engine, scratch)
    print(json.dumps(main(b)), flush=True)
    status = 0
except Exception as error:  # what went wrong, as the one line the test reads
    print(json.dumps({**result, "error": f"{type(error).__name__}: {error}"}), flush=True)
    status = 1
finally:
    if b:
        b.close()
sys.exit(status)
