"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  // The view's words in the booth's six languages, picked as the rest of the page picks them
  // (English for any other). The settings' own names, help and groups are the options table's.
  const WORDS = {
    en: { title: "Settings", save: "Save and reload", fromDefault: "default", fromConsole: "set here", back: "Back to kiosk.conf or the default", defaultIs: "default", restart: "Applies after a restart.", nextTake: "Applies in ready: the next take.", saved: "Saved; the booth reloaded its settings.", chooseFile: "Choose a file first.", uploaded: "Uploaded; the booth uses it from the next take.", nothing: "Nothing changed.", overlay: "Overlay (PNG with alpha)", questions: "Questions (one a line)", upload: "Upload", yes: "yes", no: "no", notSent: "Not sent: the console could not be reached; try again.", notAnswered: "No answer from the console; try again." },
    de: { title: "Einstellungen", save: "Speichern und neu laden", fromDefault: "Standard", fromConsole: "hier gesetzt", back: "Zurück zu kiosk.conf oder zum Standard", defaultIs: "Standard", restart: "Gilt nach einem Neustart.", nextTake: "Gilt in „bereit“: ab der nächsten Aufnahme.", saved: "Gespeichert; die Kabine hat ihre Einstellungen neu geladen.", chooseFile: "Bitte zuerst eine Datei wählen.", uploaded: "Hochgeladen; die Kabine nutzt sie ab der nächsten Aufnahme.", nothing: "Nichts geändert.", overlay: "Overlay (PNG mit Alpha)", questions: "Fragen (eine pro Zeile)", upload: "Hochladen", yes: "ja", no: "nein", notSent: "Nicht gesendet: die Konsole war nicht erreichbar; bitte erneut versuchen.", notAnswered: "Keine Antwort von der Konsole; bitte erneut versuchen." },
    fr: { title: "Réglages", save: "Enregistrer et recharger", fromDefault: "par défaut", fromConsole: "réglé ici", back: "Revenir à kiosk.conf ou à la valeur par défaut", defaultIs: "par défaut", restart: "S’applique après un redémarrage.", nextTake: "S’applique en attente : à la prochaine prise.", saved: "Enregistré ; la cabine a rechargé ses réglages.", chooseFile: "Choisissez d’abord un fichier.", uploaded: "Envoyé ; la cabine l’utilise dès la prochaine prise.", nothing: "Rien n’a changé.", overlay: "Calque (PNG avec transparence)", questions: "Questions (une par ligne)", upload: "Envoyer", yes: "oui", no: "non", notSent: "Non envoyé : la console est injoignable ; réessayez.", notAnswered: "Pas de réponse de la console ; réessayez." },
    es: { title: "Ajustes", save: "Guardar y recargar", fromDefault: "predeterminado", fromConsole: "fijado aquí", back: "Volver a kiosk.conf o al valor predeterminado", defaultIs: "predeterminado", restart: "Se aplica tras reiniciar.", nextTake: "Se aplica en espera: en la próxima toma.", saved: "Guardado; la cabina recargó sus ajustes.", chooseFile: "Elige primero un archivo.", uploaded: "Subido; la cabina lo usa desde la próxima toma.", nothing: "No ha cambiado nada.", overlay: "Superposición (PNG con alfa)", questions: "Preguntas (una por línea)", upload: "Subir", yes: "sí", no: "no", notSent: "No enviado: no se pudo contactar con la consola; inténtalo de nuevo.", notAnswered: "La consola no respondió; inténtalo de nuevo." },
    ja: { title: "設定", save: "保存して再読み込み", fromDefault: "既定値", fromConsole: "ここで設定", back: "kiosk.conf または既定値に戻す", defaultIs: "既定値", restart: "再起動後に反映されます。", nextTake: "待機中に反映：次の撮影から。", saved: "保存しました。ブースが設定を再読み込みしました。", chooseFile: "先にファイルを選んでください。", uploaded: "アップロードしました。次の撮影から使われます。", nothing: "変更はありません。", overlay: "オーバーレイ（アルファ付き PNG）", questions: "質問（1 行に 1 つ）", upload: "アップロード", yes: "はい", no: "いいえ", notSent: "送信できませんでした：コンソールに接続できません。もう一度お試しください。", notAnswered: "コンソールから応答がありません。もう一度お試しください。" },
    "zh-Hans": { title: "设置", save: "保存并重新加载", fromDefault: "默认", fromConsole: "在此设置", back: "恢复为 kiosk.conf 或默认值", defaultIs: "默认", restart: "重启后生效。", nextTake: "在待机时生效：从下一段录像开始。", saved: "已保存；录像亭已重新加载设置。", chooseFile: "请先选择文件。", uploaded: "已上传；录像亭从下一段录像开始使用。", nothing: "没有更改。", overlay: "叠加图（带透明通道的 PNG）", questions: "问题（每行一个）", upload: "上传", yes: "是", no: "否", notSent: "未发送：无法连接控制台，请重试。", notAnswered: "控制台没有响应，请重试。" },
  };
  // Picked when the view is made (after sign-in), as console.js picks its own.
  let W = WORDS.en;
  function pickWords() {
    for (const tag of navigator.languages || [navigator.language || "en"]) {
      const lower = tag.toLowerCase();
      const found = lower.startsWith("zh") ? WORDS["zh-Hans"] : WORDS[lower.slice(0, 2)];
      if (found) return found;
    }
    return WORDS.en;
  }
  const where = (source) => ({ default: W.fromDefault, config: "kiosk.conf", console: W.fromConsole })[source];
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
      for (const w of words) i.append(el("option", { value: w, textContent: s.type === "flag" ? W[w] : w }));
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
      const from = el("span", { className: "source source-" + s.source, textContent: where(s.source) });
      from.dataset.setting = s.name;
      const notes = el("small", { textContent: s.help + (s.defaultIsValue ? " (" + W.defaultIs + " " + s.default + ")" : "")
        + " " + (s.applies === "restart" ? W.restart : W.nextTake) + (s.fixed ? " " + s.fixed : "") });
      const row = el("div", { className: "setting" }, label, " ", from, input(s), notes);
      if (s.source === "console") {
        const back = el("button", { type: "button", className: "unset", textContent: W.back });
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
  // A change sent (the settings, or a file): the booth's answer shown, or why none came (the
  // request lost on the way, or an answer that is not the console's, e.g. a proxy's error page).
  async function change(path, type, body, done) {
    let r, answer;
    try {
      r = await fetch(path, { method: "PUT", credentials: "same-origin",
        headers: { "Content-Type": type, "X-CSRF-Token": await token() }, body: body });
      answer = await r.json().catch(() => ({ message: W.notAnswered + " (HTTP " + r.status + ")" }));
    } catch (e) {
      say(W.notSent + " (" + e.message + ")", true);
      return;
    }
    if (r.status !== 200) { say(answer.message, true); return; }
    render(answer);
    say(answer.reloaded ? done : answer.message, !answer.reloaded);
  }
  const save = (changes) => change("api/settings", "application/json", JSON.stringify(changes), W.saved);
  function upload(name, file) {
    if (!file) { say(W.chooseFile, true); return; }
    change("api/files/" + name, "application/octet-stream", file, W.uploaded);
  }
  function section() {
    W = pickWords();
    const open = el("button", { type: "button", id: "settings-open", textContent: W.title });
    // The booth's parser judges every value (its message shown), not the browser's checks.
    const form = el("form", { id: "settings-form", noValidate: true });
    const saveButton = el("button", { type: "submit", id: "settings-save", textContent: W.save });
    const files = el("div", { id: "settings-files" });
    for (const [name, accept, title] of [["overlay", "image/png", W.overlay], ["questions", "text/plain,.txt", W.questions]]) {
      const pick = el("input", { type: "file", id: "upload-" + name, accept: accept });
      const send = el("button", { type: "button", id: "upload-" + name + "-send", textContent: W.upload });
      send.onclick = () => upload(name, pick.files[0]);
      files.append(el("label", { htmlFor: "upload-" + name, textContent: title }), pick, send);
    }
    const view = el("section", { id: "settings", hidden: true }, el("h2", { textContent: W.title }),
      el("p", { id: "settings-message", role: "alert" }), files, form, saveButton);
    saveButton.onclick = (e) => { e.preventDefault(); form.requestSubmit(); };
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const changes = {};
      for (const i of form.querySelectorAll("input, select")) if (!i.disabled && i.value !== i.dataset.was) changes[i.name] = i.value === "" ? null : i.value;
      if (Object.keys(changes).length === 0) { say(W.nothing, false); return; }
      save(changes);
    });
    open.onclick = () => { view.hidden = !view.hidden; if (!view.hidden) load(); };
    $("console").append(open, view);
  }
  // The signed-in part is made by console.js after sign-in: the view joins it then.
  new MutationObserver(() => { if ($("console") && !$("settings-open")) section(); })
    .observe(document.querySelector("main"), { childList: true });
})();
