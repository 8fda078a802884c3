"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const where = { default: "default", config: "kiosk.conf", console: "set here" };
  const el = (tag, props, ...children) => {
    const e = Object.assign(document.createElement(tag), props || {});
    e.append(...children);
    return e;
  };
  async function token() {
    const r = await fetch("api/session", { credentials: "same-origin" });
    return r.status === 200 ? (await r.json()).csrf : null;
  }
  function say(text, bad) {
    $("settings-message").textContent = text;
    $("settings-message").className = bad ? "bad" : "good";
  }
  // One setting's input, by its kind.
  function input(s) {
    let i;
    if (s.type === "flag" || s.type === "choice") {
      i = el("select");
      const words = s.type === "flag" ? ["yes", "no"] : s.choices;
      if (s.value === null) i.append(el("option", { value: "", textContent: "(" + s.default + ")" }));
      for (const w of words) i.append(el("option", { value: w, textContent: w }));
    } else {
      i = el("input", { type: s.type === "integer" ? "number" : "text" });
      if (s.type === "integer") { i.min = s.min; i.max = s.max; i.inputMode = "numeric"; }
      if (s.value === null) i.placeholder = s.default || "";
    }
    i.id = "setting-" + s.name;
    i.name = s.name;
    i.value = s.value === null ? "" : s.value;
    i.dataset.was = i.value;
    i.disabled = !!s.fixed;
    return i;
  }
  function render(listing) {
    const form = $("settings-form");
    form.replaceChildren();
    let group = null, box = null;
    for (const s of listing.settings) {
      if (s.group !== group) {
        group = s.group;
        box = el("details", {}, el("summary", { textContent: group }));
        form.append(box);
      }
      const range = s.type === "integer" ? " " + s.min + "–" + s.max + (s.unit ? " " + s.unit : "") : "";
      const label = el("label", { htmlFor: "setting-" + s.name }, el("strong", { textContent: s.name }), range);
      const from = el("span", { className: "source source-" + s.source, textContent: where[s.source] });
      from.dataset.setting = s.name;
      const notes = el("small", { textContent: s.help + (s.defaultIsValue ? " (default " + s.default + ")" : "")
        + (s.applies === "restart" ? " Applies after a restart." : " Applies in ready: the next take.") + (s.fixed ? " " + s.fixed : "") });
      const row = el("div", { className: "setting" }, label, " ", from, input(s), notes);
      if (s.source === "console") {
        const back = el("button", { type: "button", className: "unset", textContent: "Back to kiosk.conf or the default" });
        back.onclick = () => save({ [s.name]: null });
        row.append(back);
      }
      box.append(row);
    }
  }
  async function load() {
    const r = await fetch("api/settings", { credentials: "same-origin" });
    const listing = await r.json();
    if (r.status !== 200) { say(listing.message, true); return; }
    render(listing);
  }
  async function save(changes) {
    const r = await fetch("api/settings", { method: "PUT", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": await token() }, body: JSON.stringify(changes) });
    const answer = await r.json();
    if (r.status !== 200) { say(answer.message, true); return; }
    render(answer);
    say(answer.reloaded ? "Saved; the booth reloaded its settings." : answer.message, !answer.reloaded);
  }
  async function upload(name, file) {
    if (!file) { say("Choose a file first.", true); return; }
    const r = await fetch("api/files/" + name, { method: "PUT", credentials: "same-origin",
      headers: { "Content-Type": "application/octet-stream", "X-CSRF-Token": await token() }, body: file });
    const answer = await r.json();
    if (r.status !== 200) { say(answer.message, true); return; }
    render(answer);
    say(answer.reloaded ? "Uploaded; the booth uses it from the next take." : answer.message, !answer.reloaded);
  }
  function section() {
    const open = el("button", { type: "button", id: "settings-open", textContent: "Settings" });
    // The booth's parser judges every value (its message shown), not the browser's checks.
    const form = el("form", { id: "settings-form", noValidate: true });
    const saveButton = el("button", { type: "submit", id: "settings-save", textContent: "Save and reload" });
    const files = el("div", { id: "settings-files" });
    for (const [name, accept, title] of [["overlay", "image/png", "Overlay (PNG with alpha)"], ["questions", "text/plain,.txt", "Questions (one a line)"]]) {
      const pick = el("input", { type: "file", id: "upload-" + name, accept: accept });
      const send = el("button", { type: "button", id: "upload-" + name + "-send", textContent: "Upload " + name });
      send.onclick = () => upload(name, pick.files[0]);
      files.append(el("label", { htmlFor: "upload-" + name, textContent: title }), pick, send);
    }
    const view = el("section", { id: "settings", hidden: true }, el("h2", { textContent: "Settings" }),
      el("p", { id: "settings-message", role: "alert" }), files, form, saveButton);
    saveButton.onclick = (e) => { e.preventDefault(); form.requestSubmit(); };
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const changes = {};
      for (const i of form.querySelectorAll("input, select")) if (!i.disabled && i.value !== i.dataset.was) changes[i.name] = i.value === "" ? null : i.value;
      if (Object.keys(changes).length === 0) { say("Nothing changed.", false); return; }
      save(changes);
    });
    open.onclick = () => { view.hidden = !view.hidden; if (!view.hidden) load(); };
    $("console").append(open, view);
  }
  // The signed-in part is made by console.js after sign-in: the view joins it then.
  new MutationObserver(() => { if ($("console") && !$("settings-open")) section(); })
    .observe(document.querySelector("main"), { childList: true });
})();
