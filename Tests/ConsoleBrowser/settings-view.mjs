// Drives the console's Settings view in headless Chromium at 360 px over the DevTools protocol (no
// package needed: node's WebSocket): signs in, opens Settings, saves countdown 99 (refused) then 5,
// takes a screenshot, and prints what the page showed as one JSON line.
// Usage: node --experimental-websocket settings-view.mjs URL PASSWORD SCREENSHOT PROFILE
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";

const [url, password, shot, profile] = process.argv.slice(2);
const chrome = spawn("/usr/bin/chromium", ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-port=0",
  "--user-data-dir=" + profile, "about:blank"], { stdio: ["ignore", "ignore", "pipe"] });
const fail = (why) => { console.log(JSON.stringify({ error: String(why) })); chrome.kill("SIGKILL"); process.exit(1); };
setTimeout(() => fail("no result within 90 s"), 90000).unref();
try {
  const endpoint = await new Promise((resolve, reject) => {
    let text = "";
    chrome.stderr.on("data", (d) => { text += d; const m = text.match(/DevTools listening on (ws:\/\/\S+)/); if (m) resolve(m[1]); });
    chrome.on("exit", () => reject(new Error("chromium ended: " + text)));
  });
  const ws = new WebSocket(endpoint);
  await new Promise((resolve) => { ws.onopen = resolve; });
  let last = 0;
  const waiting = new Map();
  ws.onmessage = (m) => { const msg = JSON.parse(m.data); if (waiting.has(msg.id)) { waiting.get(msg.id)(msg); waiting.delete(msg.id); } };
  const send = (method, params = {}, sessionId) => new Promise((resolve) => {
    const id = ++last;
    waiting.set(id, resolve);
    ws.send(JSON.stringify({ id, method, params, sessionId }));
  });
  const { result: { targetId } } = await send("Target.createTarget", { url: "about:blank" });
  const { result: { sessionId } } = await send("Target.attachToTarget", { targetId, flatten: true });
  const page = (method, params) => send(method, params, sessionId);
  await page("Emulation.setDeviceMetricsOverride", { width: 360, height: 800, deviceScaleFactor: 1, mobile: true });
  await page("Page.navigate", { url });
  const evaluate = async (expression) => (await page("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true })).result?.result?.value;
  // What the page shows, asked again until it holds (the page's own fetches take their time).
  const until = async (expression, what) => {
    for (const end = Date.now() + 30000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
      const value = await evaluate(expression);
      if (value) return value;
    }
    throw new Error("the page never showed " + what);
  };
  const text = (id) => `(document.getElementById(${JSON.stringify(id)}) || {}).textContent || ""`;
  const source = `(document.querySelector('[data-setting="countdown"]') || {}).textContent || ""`;
  // Its scripts run first (deferred): the form is there before them.
  await until(`document.readyState === "complete" && !!document.getElementById("sign-in")`, "the sign-in form");
  await evaluate(`document.getElementById("password").value = ${JSON.stringify(password)}; document.getElementById("sign-in").requestSubmit(); true`);
  await until(`!!document.getElementById("settings-open")`, "the Settings button");
  await evaluate(`document.getElementById("settings-open").click(); true`);
  await until(`!!document.getElementById("setting-countdown")`, "the countdown's input");
  const result = { sourceBefore: await evaluate(source), valueBefore: await evaluate(`document.getElementById("setting-countdown").value`),
                   type: await evaluate(`document.getElementById("setting-countdown").type`),
                   groups: await evaluate(`[...document.querySelectorAll("#settings-form summary")].map((s) => s.textContent)`) };
  const save = (value) => evaluate(`document.getElementById("setting-countdown").value = ${JSON.stringify(value)};
    document.getElementById("settings-message").textContent = ""; document.getElementById("settings-save").click(); true`);
  await save("99");
  result.refusal = await until(text("settings-message"), "the refusal");
  await save("5");
  result.saved = await until(text("settings-message"), "the save");
  result.sourceAfter = await until(`${source} === "set here" && ${source}`, "the new source");
  result.valueAfter = await evaluate(`document.getElementById("setting-countdown").value`);
  // Phone first: nothing wider than the screen.
  result.scrollWidth = await evaluate(`document.documentElement.scrollWidth`);
  // The picture: the countdown's group open, its row in view, the message above it.
  await evaluate(`const row = document.getElementById("setting-countdown"); row.closest("details").open = true;
    row.scrollIntoView({ block: "center" }); true`);
  const picture = await page("Page.captureScreenshot", { format: "png" });
  writeFileSync(shot, Buffer.from(picture.result.data, "base64"));
  console.log(JSON.stringify(result));
  chrome.kill("SIGKILL");
  process.exit(0);
} catch (error) {
  fail(error);
}
