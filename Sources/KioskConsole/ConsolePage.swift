// The console's page: plain HTML, CSS and JavaScript, no build step, nothing fetched from elsewhere.
// Until a password is set it only says how to set one. The sign-in form is all it shows until the
// operator signs in; what comes after asks the API, which answers nothing before (401).

enum ConsolePage {
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
      section.append(out);
      document.querySelector("main").append(section);
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
      if (r.status !== 200) return false;
      csrf = (await r.json()).csrf;
      return true;
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
