"use strict";
let csrf = null;
const $ = (id) => document.getElementById(id);
// The signed-in part is made here, after sign-in: the page itself holds only the form.
function consoleSection() {
  if ($("console")) return;
  const section = document.createElement("section");
  section.id = "console";
  section.hidden = true;
  const line = document.createElement("p");
  const mode = document.createElement("strong");
  mode.id = "mode";
  const timer = document.createElement("span");
  timer.id = "timer";
  line.append("Mode: ", mode, " ", timer);
  const buttons = document.createElement("div");
  buttons.id = "buttons";
  const out = document.createElement("button");
  out.id = "sign-out";
  out.type = "button";
  out.textContent = "Sign out";
  out.addEventListener("click", async () => {
    await fetch("api/session", { method: "DELETE", credentials: "same-origin", headers: { "X-CSRF-Token": csrf } });
    show();
  });
  section.append(line, buttons, machineButtons(), out);
  document.querySelector("main").append(section);
}
// The machine: the booth's service restarted, a reboot, a power off, each asked once more first.
function machineButtons() {
  const box = document.createElement("div");
  box.id = "machine";
  const message = document.createElement("p");
  message.id = "machine-message";
  message.setAttribute("role", "status");
  for (const [label, path, action, question] of [
    ["Restart the booth", "api/service", "restart", "Restart the booth? A take in progress is finished first."],
    ["Reboot", "api/power", "reboot", "Reboot the booth's computer?"],
    ["Power off", "api/power", "poweroff", "Power the booth off? It stays off until someone switches it on."]]) {
    const b = document.createElement("button");
    b.type = "button";
    b.id = action;
    b.textContent = label;
    b.addEventListener("click", async () => {
      if (!confirm(question)) return;
      const r = await fetch(path, { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify({ action }) });
      const answer = await r.json().catch(() => ({}));
      message.textContent = r.status === 202 ? label + ": done" : (answer.message || "HTTP " + r.status);
    });
    box.append(b);
  }
  box.append(message);
  return box;
}
async function signedIn() {
  const r = await fetch("api/session", { credentials: "same-origin" });
  const answer = await r.json().catch(() => null);
  if (r.status === 200 && answer) { csrf = answer.csrf; return true; }
  // No password set yet (the console says how to set one), or no console behind nginx.
  $("message").textContent = !answer ? "The console does not answer (HTTP " + r.status + "): is kiosk-recorder-console running?"
    : answer.error === "noPassword" ? answer.message : "";
  return false;
}
async function show() {
  const on = await signedIn();
  if (on) consoleSection();
  $("sign-in").hidden = on;
  if (!$("console")) return;
  $("console").hidden = !on;
  if (on) refresh();
}
async function refresh() {
  const r = await fetch("api/state", { credentials: "same-origin" });
  const state = await r.json();
  if (r.status !== 200) { $("mode").textContent = state.message; return; }
  $("mode").textContent = state.mode;
  $("timer").textContent = state.timer || "";
  const buttons = $("buttons");
  buttons.replaceChildren();
  for (const name of state.buttons || []) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = name;
    b.onclick = () => command(name);
    buttons.append(b);
  }
}
async function command(name) {
  await fetch("api/command", { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify({ command: name }) });
  refresh();
}
$("sign-in").addEventListener("submit", async (e) => {
  e.preventDefault();
  const r = await fetch("api/session", { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify({ password: $("password").value }) });
  $("password").value = "";
  if (r.status === 204) { $("message").textContent = ""; show(); return; }
  $("message").textContent = (await r.json()).message;
});
setInterval(() => { if ($("console") && !$("console").hidden) refresh(); }, 2000);
show();
