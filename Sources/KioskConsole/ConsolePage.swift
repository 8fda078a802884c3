// The console's page: plain HTML, CSS and JavaScript, no build step, nothing fetched from elsewhere.
// Until a password is set it only says how to set one. The sign-in form is all it shows until the
// operator signs in; what comes after asks the API, which answers nothing before (401). The same
// texts are the files nginx serves (kiosk/console, installed in /usr/share/kiosk-recorder/console):
// there the page learns from `GET api/session` that no password is set.

enum ConsolePage {
    /// The page's files as the package installs them, by name: what the console serves itself at
    /// /console/, /console/console.css, /console/console.js and /console/settings.js (a test holds
    /// kiosk/console to them).
    static let files: [(name: String, text: String)] = [("index.html", signIn), ("console.css", style), ("console.js", script),
                                                          ("settings.js", settingsScript)]

    /// How the operator sets the password (the page and the sign-in's 503 say it).
    static let setPasswordHint = "No console password is set. On the booth, run: sudo -u kiosk kiosk-recorder console password"

    static let noPassword = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Booth console</title><link rel="stylesheet" href="console.css"></head>
    <body><main><h1>Booth console</h1>
    <p id="no-password">No console password is set, so the console opens nothing.</p>
    <p>On the booth, run <code>sudo -u kiosk kiosk-recorder console password</code> and type the password twice; then reload this page.</p>
    </main></body></html>

    """

    static let signIn = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Booth console</title><link rel="stylesheet" href="console.css"><script src="console.js" defer></script><script src="settings.js" defer></script></head>
    <body><main><h1>Booth console</h1>
    <form id="sign-in" method="post" action="api/session">
    <label for="password">Operator password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required minlength="8">
    <button type="submit">Sign in</button>
    <p id="message" role="alert"></p>
    </form>
    </main></body></html>

    """

    static let style = """
    body { font: 18px/1.4 system-ui, sans-serif; margin: 0; background: #111; color: #eee; }
    main { max-width: 30rem; margin: 0 auto; padding: 1rem; }
    input, button { font: inherit; width: 100%; min-height: 3rem; margin: .4rem 0; box-sizing: border-box; }
    button { background: #2a6; color: #fff; border: 0; border-radius: .4rem; }
    #sign-out { background: #555; }
    #machine { margin-top: 1.5rem; padding-top: .6rem; border-top: 1px solid #444; }
    #machine button { background: #844; }
    #message { color: #f88; min-height: 1.4em; }
    code { background: #333; padding: .1rem .3rem; }

    """ + ConsoleLivePage.style

    /// console.js: the sign-in, then a tab for each view (ConsoleLivePage adds its own to `consoleViews`).
    static let script = head + ConsoleLivePage.script + tail

    static let head = """
    "use strict";
    let csrf = null;
    const $ = (id) => document.getElementById(id);
    // The signed-in page's views: { id, title, build(section), enter() }, a tab each.
    const consoleViews = [];
    async function command(name) {
      await fetch("api/command", { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify({ command: name }) });
    }

    """

    static let tail = """
    // The signed-in part is made here, after sign-in: the page itself holds only the form.
    function consoleSection() {
      if ($("console")) return;
      const section = document.createElement("section");
      section.id = "console";
      section.hidden = true;
      const nav = document.createElement("nav");
      section.append(nav);
      for (const view of consoleViews) {
        const tab = document.createElement("button");
        tab.type = "button";
        tab.id = "tab-" + view.id;
        tab.textContent = view.title;
        tab.onclick = () => open(view);
        nav.append(tab);
        const part = document.createElement("div");
        part.id = view.id;
        part.hidden = true;
        view.build(part);
        section.append(part);
      }
      const out = document.createElement("button");
      out.id = "sign-out";
      out.type = "button";
      out.textContent = typeof T === "object" ? T.signOut : "Sign out";
      out.addEventListener("click", async () => {
        await fetch("api/session", { method: "DELETE", credentials: "same-origin", headers: { "X-CSRF-Token": csrf } });
        location.reload();
      });
      section.append(machineButtons(), out);
      document.querySelector("main").append(section);
    }
    // The machine: the booth's service restarted, a reboot, a power off, each asked once more first.
    const MACHINE_WORDS = {
      en: ["Restart the booth", "Restart the booth? A take in progress is finished first.", "Reboot", "Reboot the booth's computer?",
        "Power off", "Power the booth off? It stays off until someone switches it on.", "done"],
      de: ["Kabine neu starten", "Die Kabine neu starten? Eine laufende Aufnahme wird zuerst beendet.", "Neustart",
        "Den Rechner der Kabine neu starten?", "Ausschalten", "Die Kabine ausschalten? Sie bleibt aus, bis jemand sie einschaltet.", "erledigt"],
      fr: ["Redémarrer la cabine", "Redémarrer la cabine ? Une prise en cours est d'abord terminée.", "Redémarrer",
        "Redémarrer l'ordinateur de la cabine ?", "Éteindre", "Éteindre la cabine ? Elle reste éteinte jusqu'à ce qu'on la rallume.", "fait"],
      es: ["Reiniciar la cabina", "¿Reiniciar la cabina? Una toma en curso se termina primero.", "Reiniciar",
        "¿Reiniciar el ordenador de la cabina?", "Apagar", "¿Apagar la cabina? Seguirá apagada hasta que alguien la encienda.", "hecho"],
      ja: ["ブースを再起動", "ブースを再起動しますか？撮影中の録画は先に保存されます。", "再起動", "ブースのコンピューターを再起動しますか？",
        "電源を切る", "ブースの電源を切りますか？誰かが電源を入れるまでオフのままです。", "完了"],
      "zh-Hans": ["重启拍摄亭", "重启拍摄亭？正在进行的录像会先完成。", "重启", "重启拍摄亭的电脑？",
        "关机", "关闭拍摄亭？在有人开机之前它会保持关闭。", "完成"],
    };
    function machineButtons() {
      let words = MACHINE_WORDS.en;
      for (const tag of navigator.languages || [navigator.language || "en"]) {
        const lower = tag.toLowerCase();
        const found = lower.startsWith("zh") ? MACHINE_WORDS["zh-Hans"] : MACHINE_WORDS[lower.slice(0, 2)];
        if (found) { words = found; break; }
      }
      const box = document.createElement("div");
      box.id = "machine";
      const message = document.createElement("p");
      message.id = "machine-message";
      message.setAttribute("role", "status");
      for (const [label, question, path, action] of [[words[0], words[1], "api/service", "restart"],
        [words[2], words[3], "api/power", "reboot"], [words[4], words[5], "api/power", "poweroff"]]) {
        const b = document.createElement("button");
        b.type = "button";
        b.id = action;
        b.textContent = label;
        b.addEventListener("click", async () => {
          if (!confirm(question)) return;
          const r = await fetch(path, { method: "POST", credentials: "same-origin",
            headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify({ action }) });
          const answer = await r.json().catch(() => ({}));
          message.textContent = r.status === 202 ? label + ": " + words[6] : (answer.message || "HTTP " + r.status);
        });
        box.append(b);
      }
      box.append(message);
      return box;
    }
    function open(view) {
      for (const other of consoleViews) {
        $(other.id).hidden = other !== view;
        $("tab-" + other.id).setAttribute("aria-selected", String(other === view));
      }
      view.enter();
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
      if (on && consoleViews.length) open(consoleViews[0]);
    }
    $("sign-in").addEventListener("submit", async (e) => {
      e.preventDefault();
      const r = await fetch("api/session", { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify({ password: $("password").value }) });
      $("password").value = "";
      if (r.status === 204) { $("message").textContent = ""; show(); return; }
      $("message").textContent = (await r.json()).message;
    });
    show();

    """
}
