"use strict";
let csrf = null;
const $ = (id) => document.getElementById(id);
// The signed-in page's views: { id, title, build(section), enter() }, a tab each.
const consoleViews = [];
// A command for the booth's control socket (its answer: 200, or 409 with the booth's error).
function command(name) {
  return fetch("api/command", { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify({ command: name }) });
}
// The page's words, in the booth's six languages (a line each); English for any other.
const WORDS = {
  en: { uploads: "Uploads owed", microphone: "Microphone", signOut: "Sign out", status: "Status", takes: "Takes", log: "Log", mode: "Mode", question: "Question", takesToday: "Takes today", lastTake: "Last take", camera: "Camera", warnings: "Warnings", unreachable: "The booth does not answer; trying again.", none: "none", play: "Play", hide: "Hide", show: "Show", remove: "Delete", download: "Download", confirmDelete: "Delete this take for good (its file, its share page, its thumbnail)?", hidden: "hidden", shared: "shared", noTakes: "No takes yet.", events: "Last events", audit: "Audit log", video: "video", boomerang: "boomerang", photo: "photo", consent: "Consent", consentNothing: "nothing", choiceShare: "share", choiceSlideshow: "slideshow", choiceFilm: "film", exportConsent: "Consent log (CSV)" },
  de: { uploads: "Offene Uploads", microphone: "Mikrofon", signOut: "Abmelden", status: "Status", takes: "Aufnahmen", log: "Protokoll", mode: "Modus", question: "Frage", takesToday: "Aufnahmen heute", lastTake: "Letzte Aufnahme", camera: "Kamera", warnings: "Warnungen", unreachable: "Die Kabine antwortet nicht; neuer Versuch läuft.", none: "keine", play: "Abspielen", hide: "Ausblenden", show: "Einblenden", remove: "Löschen", download: "Herunterladen", confirmDelete: "Diese Aufnahme endgültig löschen (Datei, Teilen-Seite, Vorschaubild)?", hidden: "ausgeblendet", shared: "geteilt", noTakes: "Noch keine Aufnahmen.", events: "Letzte Ereignisse", audit: "Prüfprotokoll", video: "Video", boomerang: "Boomerang", photo: "Foto", consent: "Einwilligung", consentNothing: "nichts", choiceShare: "Teilen", choiceSlideshow: "Diashow", choiceFilm: "Film", exportConsent: "Einwilligungen (CSV)" },
  fr: { uploads: "Envois en attente", microphone: "Micro", signOut: "Se déconnecter", status: "État", takes: "Prises", log: "Journal", mode: "Mode", question: "Question", takesToday: "Prises du jour", lastTake: "Dernière prise", camera: "Caméra", warnings: "Alertes", unreachable: "La cabine ne répond pas ; nouvel essai en cours.", none: "aucune", play: "Lire", hide: "Masquer", show: "Afficher", remove: "Supprimer", download: "Télécharger", confirmDelete: "Supprimer définitivement cette prise (fichier, page de partage, vignette) ?", hidden: "masquée", shared: "partagée", noTakes: "Aucune prise pour l’instant.", events: "Derniers événements", audit: "Journal d’audit", video: "vidéo", boomerang: "boomerang", photo: "photo", consent: "Consentement", consentNothing: "rien", choiceShare: "partage", choiceSlideshow: "diaporama", choiceFilm: "film", exportConsent: "Journal des consentements (CSV)" },
  es: { uploads: "Subidas pendientes", microphone: "Micrófono", signOut: "Cerrar sesión", status: "Estado", takes: "Tomas", log: "Registro", mode: "Modo", question: "Pregunta", takesToday: "Tomas de hoy", lastTake: "Última toma", camera: "Cámara", warnings: "Avisos", unreachable: "La cabina no responde; se vuelve a intentar.", none: "ninguna", play: "Reproducir", hide: "Ocultar", show: "Mostrar", remove: "Borrar", download: "Descargar", confirmDelete: "¿Borrar esta toma para siempre (archivo, página para compartir, miniatura)?", hidden: "oculta", shared: "compartida", noTakes: "Aún no hay tomas.", events: "Últimos eventos", audit: "Registro de auditoría", video: "vídeo", boomerang: "bumerán", photo: "foto", consent: "Consentimiento", consentNothing: "nada", choiceShare: "compartir", choiceSlideshow: "pase de diapositivas", choiceFilm: "película", exportConsent: "Registro de consentimientos (CSV)" },
  ja: { uploads: "未完了のアップロード", microphone: "マイク", signOut: "サインアウト", status: "状態", takes: "撮影", log: "記録", mode: "モード", question: "質問", takesToday: "今日の撮影", lastTake: "最新の撮影", camera: "カメラ", warnings: "警告", unreachable: "ブースが応答しません。再試行中です。", none: "なし", play: "再生", hide: "非表示", show: "表示", remove: "削除", download: "ダウンロード", confirmDelete: "この撮影を完全に削除しますか（ファイル、共有ページ、サムネイル）？", hidden: "非表示", shared: "共有済み", noTakes: "まだ撮影はありません。", events: "最近のイベント", audit: "監査記録", video: "動画", boomerang: "ブーメラン", photo: "写真", consent: "同意", consentNothing: "なし", choiceShare: "共有", choiceSlideshow: "スライドショー", choiceFilm: "映像作品", exportConsent: "同意の記録（CSV）" },
  "zh-Hans": { uploads: "待上传", microphone: "麦克风", signOut: "退出登录", status: "状态", takes: "录像", log: "日志", mode: "模式", question: "问题", takesToday: "今日录像", lastTake: "最新录像", camera: "摄像头", warnings: "警告", unreachable: "录像亭没有响应，正在重试。", none: "无", play: "播放", hide: "隐藏", show: "显示", remove: "删除", download: "下载", confirmDelete: "永久删除这段录像（文件、分享页面、缩略图）？", hidden: "已隐藏", shared: "已分享", noTakes: "还没有录像。", events: "最近事件", audit: "审计日志", video: "视频", boomerang: "回旋视频", photo: "照片", consent: "同意", consentNothing: "无", choiceShare: "分享", choiceSlideshow: "幻灯片", choiceFilm: "影片", exportConsent: "同意记录（CSV）" },
};
// Status's control of the booth (closing it to guests, opening it, its settings read again) and
// its warnings' names; the sign-in form's and the no-password page's words, picked again when the
// browser's languages change (the page before sign-in follows them at once).
const BOOTH_WORDS = {
  en: { closeBooth: "Close the booth", openBooth: "Open the booth", confirmClose: "Close the booth to guests? Its screen says “back soon”; a take in progress is finished and kept first.", reload: "Reload settings", reloaded: "Settings reloaded.", closedNote: "Closed: guests see “back soon”.", cameraLost: "Camera lost", badConfig: "Settings refused", storageSlow: "Disk slow", diskFull: "Disk full", cleared: "cleared", microphoneSilent: "Microphone silent", boothUnreachable: "Booth unreachable", terminated: "Booth stopped", error: "Error" },
  de: { closeBooth: "Kabine schließen", openBooth: "Kabine öffnen", confirmClose: "Die Kabine für Gäste schließen? Ihr Bildschirm sagt „Gleich geht es weiter“; eine laufende Aufnahme wird zuerst beendet und behalten.", reload: "Einstellungen neu laden", reloaded: "Einstellungen neu geladen.", closedNote: "Geschlossen: Gäste sehen „Gleich geht es weiter“.", cameraLost: "Kamera verloren", badConfig: "Einstellungen abgelehnt", storageSlow: "Speicher langsam", diskFull: "Speicher voll", cleared: "behoben", microphoneSilent: "Mikrofon stumm", boothUnreachable: "Kabine nicht erreichbar", terminated: "Kabine beendet", error: "Fehler" },
  fr: { closeBooth: "Fermer la cabine", openBooth: "Ouvrir la cabine", confirmClose: "Fermer la cabine aux invités ? Son écran dit « de retour bientôt » ; une prise en cours est d’abord terminée et gardée.", reload: "Recharger les réglages", reloaded: "Réglages rechargés.", closedNote: "Fermée : les invités voient « de retour bientôt ».", cameraLost: "Caméra perdue", badConfig: "Réglages refusés", storageSlow: "Disque lent", diskFull: "Disque plein", cleared: "résolu", microphoneSilent: "Micro muet", boothUnreachable: "Cabine injoignable", terminated: "Cabine arrêtée", error: "Erreur" },
  es: { closeBooth: "Cerrar la cabina", openBooth: "Abrir la cabina", confirmClose: "¿Cerrar la cabina a los invitados? Su pantalla dice «volvemos enseguida»; una toma en curso se termina y se guarda primero.", reload: "Recargar ajustes", reloaded: "Ajustes recargados.", closedNote: "Cerrada: los invitados ven «volvemos enseguida».", cameraLost: "Cámara perdida", badConfig: "Ajustes rechazados", storageSlow: "Disco lento", diskFull: "Disco lleno", cleared: "resuelto", microphoneSilent: "Micrófono en silencio", boothUnreachable: "Cabina inaccesible", terminated: "Cabina detenida", error: "Error" },
  ja: { closeBooth: "ブースを休止", openBooth: "ブースを再開", confirmClose: "ゲストに対してブースを休止しますか？画面に「まもなく再開します」と表示されます。撮影中の録画は先に終了して保存されます。", reload: "設定を再読み込み", reloaded: "設定を再読み込みしました。", closedNote: "休止中：ゲストには「まもなく再開します」と表示されています。", cameraLost: "カメラが切断されました", badConfig: "設定が拒否されました", storageSlow: "ディスクが遅い", diskFull: "ディスクがいっぱい", cleared: "解消", microphoneSilent: "マイクが無音", boothUnreachable: "ブースに接続できません", terminated: "ブースが停止しました", error: "エラー" },
  "zh-Hans": { closeBooth: "暂停录像亭", openBooth: "开放录像亭", confirmClose: "对来宾暂停录像亭？屏幕会显示“马上回来”；正在进行的录像会先完成并保留。", reload: "重新加载设置", reloaded: "设置已重新加载。", closedNote: "已暂停：来宾看到“马上回来”。", cameraLost: "摄像头丢失", badConfig: "设置被拒绝", storageSlow: "磁盘缓慢", diskFull: "磁盘已满", cleared: "已解除", microphoneSilent: "麦克风无声", boothUnreachable: "无法连接录像亭", terminated: "录像亭已停止", error: "错误" },
};
// {command} in noPasswordHow is the command, drawn as code.
const SIGN_IN_WORDS = {
  en: { title: "Booth console", password: "Operator password", signIn: "Sign in", wrongPassword: "wrong password", tooManyTries: "Too many wrong passwords: wait a minute.", noPassword: "No console password is set, so the console opens nothing.", noPasswordHow: "On the booth, run {command} and type the password twice; then reload this page.", noAnswer: "The console does not answer (HTTP {status}): is kiosk-recorder-console running?" },
  de: { title: "Kabinen-Konsole", password: "Passwort des Betreibers", signIn: "Anmelden", wrongPassword: "Falsches Passwort", tooManyTries: "Zu viele falsche Passwörter: bitte eine Minute warten.", noPassword: "Es ist kein Konsolen-Passwort gesetzt, daher öffnet die Konsole nichts.", noPasswordHow: "Auf der Kabine {command} ausführen und das Passwort zweimal eingeben; dann diese Seite neu laden.", noAnswer: "Die Konsole antwortet nicht (HTTP {status}): läuft kiosk-recorder-console?" },
  fr: { title: "Console de la cabine", password: "Mot de passe de l’opérateur", signIn: "Se connecter", wrongPassword: "Mot de passe erroné", tooManyTries: "Trop de mots de passe erronés : attendez une minute.", noPassword: "Aucun mot de passe n’est défini pour la console : elle n’ouvre rien.", noPasswordHow: "Sur la cabine, lancez {command} et tapez le mot de passe deux fois ; puis rechargez cette page.", noAnswer: "La console ne répond pas (HTTP {status}) : kiosk-recorder-console tourne-t-il ?" },
  es: { title: "Consola de la cabina", password: "Contraseña del operador", signIn: "Iniciar sesión", wrongPassword: "Contraseña incorrecta", tooManyTries: "Demasiadas contraseñas incorrectas: espera un minuto.", noPassword: "No hay contraseña de consola, así que la consola no abre nada.", noPasswordHow: "En la cabina, ejecuta {command} y escribe la contraseña dos veces; luego recarga esta página.", noAnswer: "La consola no responde (HTTP {status}): ¿está en marcha kiosk-recorder-console?" },
  ja: { title: "ブースのコンソール", password: "オペレーターのパスワード", signIn: "サインイン", wrongPassword: "パスワードが違います", tooManyTries: "パスワードの誤りが多すぎます。1 分待ってください。", noPassword: "コンソールのパスワードが設定されていないため、コンソールは何も開きません。", noPasswordHow: "ブースで {command} を実行し、パスワードを 2 回入力してから、このページを再読み込みしてください。", noAnswer: "コンソールが応答しません（HTTP {status}）。kiosk-recorder-console は動いていますか？" },
  "zh-Hans": { title: "录像亭控制台", password: "操作员密码", signIn: "登录", wrongPassword: "密码错误", tooManyTries: "密码错误次数过多：请等一分钟。", noPassword: "尚未设置控制台密码，因此控制台不开放任何内容。", noPasswordHow: "在录像亭上运行 {command} 并输入两次密码，然后重新加载此页面。", noAnswer: "控制台没有响应（HTTP {status}）：kiosk-recorder-console 在运行吗？" },
};
const B = pickFrom(BOOTH_WORDS);
function pickWords() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const lower = tag.toLowerCase();
    if (lower.startsWith("zh")) return WORDS["zh-Hans"];
    if (WORDS[lower.slice(0, 2)]) return WORDS[lower.slice(0, 2)];
  }
  return WORDS.en;
}
const T = pickWords();
const make = (tag, props, ...children) => {
  const e = document.createElement(tag);
  Object.assign(e, props || {});
  e.append(...children);
  return e;
};
const api = (path, options) => fetch(path, Object.assign({ credentials: "same-origin" }, options || {}));
const change = (path, method) => api(path, { method, headers: { "X-CSRF-Token": csrf } });
const takeURL = (name) => "api/takes/" + encodeURIComponent(name);
const isToday = (seconds) => seconds && new Date(seconds * 1000).toDateString() === new Date().toDateString();
// The warnings Status lists as they come, by the kind it names them with (null: no warning): the
// camera lost (its error, or a take it ended), settings a reload refused, a slow disk, a full disk
// (a start refused, or a take it ended), any other error.
function warningKind(event) {
  if (event.event === "error") return { cameraUnavailable: "cameraLost", badConfig: "badConfig", storageSlow: "storageSlow", diskFull: "diskFull" }[event.code] || "error";
  if (event.event === "recordingFinished" && event.reason === "deviceDisconnected") return "cameraLost";
  if (event.event === "recordingFinished" && event.reason === "diskFull") return "diskFull";
  return ["microphoneSilent", "boothUnreachable", "terminated"].includes(event.event) ? event.event : null;
}

// One stream for every view: each event line goes to every listener.
const live = { listeners: [], source: null };
// Every video on the page stopped and emptied: its connection to the console let go.
function releaseVideos() {
  for (const video of document.querySelectorAll("video")) { video.pause(); video.removeAttribute("src"); video.load(); }
}
function listen(fn) { live.listeners.push(fn); }
function follow() {
  if (live.source) return;
  live.source = new EventSource("api/events");
  live.source.onmessage = (m) => {
    let event;
    try { event = JSON.parse(m.data); } catch (e) { return; }
    for (const fn of live.listeners) fn(event, m.data);
  };
}

const statusView = {
  id: "status", title: T.status,
  build(section) {
    const rows = [["mode", T.mode], ["question", T.question], ["takes-today", T.takesToday], ["camera", T.camera], ["microphone", T.microphone], ["uploads", T.uploads]];
    section.append(make("p", { id: "link", hidden: true, textContent: T.unreachable }),
      make("dl", {}, ...rows.flatMap(([id, label]) => [make("dt", { textContent: label }), make("dd", { id, textContent: "…" })])),
      // The control above the booth's own buttons: those come and go with its mode (none while
      // closed), and a button under the finger must not move when they do.
      this.control(), make("div", { id: "buttons" }),
      make("h2", { textContent: T.lastTake }), make("div", { id: "last-take" }),
      make("h2", { textContent: T.warnings }), make("ul", { id: "warnings" }));
    statusFigures.build(section.querySelector("dl"));
    listen((event, line) => {
      if (event.event === "boothUnreachable") { this.gone(); this.note(event, line); return; }
      $("link").hidden = true;
      if (event.event === "boothReachable") { this.note(event, line); this.enter(); return; }
      if (event.event === "state") { this.state(event); return; }
      this.note(event, line);
      // What an event says of the mode is shown as it comes; the state asked after fills the rest.
      const mode = { recordingStarted: "recording", boothClosed: "closed", boothOpened: "ready" }[event.event];
      if (mode) { $("mode").textContent = mode; this.closed(mode === "closed"); }
      if (/^(takeHidden|takeShown|takeDeleted|videoRecorderDid|recordingRecovered|photoTaken)/.test(event.event)) this.takes();
      // The mode changes with the events: the booth's state asked again, once for a burst of them.
      clearTimeout(this.asking);
      this.asking = setTimeout(() => this.ask(), 300);
    });
  },
  async ask() {
    // Counted: a warning is cleared by a state asked after it came (see clear).
    const asked = this.asks = (this.asks || 0) + 1;
    const r = await api("api/state");
    const state = await r.json();
    if (r.status === 200) { $("link").hidden = true; this.state(state, asked); } else this.gone();
  },
  // No booth: the banner says so, and nothing is offered to press.
  gone() {
    $("link").hidden = false;
    $("mode").textContent = "—";
    $("microphone").textContent = "—";
    $("uploads").textContent = "—";
    $("buttons").replaceChildren();
    $("buttons").dataset.names = "";
  },
  // An event's mark on the view: the camera it names, a warning it ends (see clear), or a warning
  // (its name, then what it says).
  note(event, line, when) {
    if (event.event === "ready" || event.event === "cameraChanged") $("camera").textContent = event.camera + " " + event.width + "×" + event.height + " @ " + event.fps;
    // The booth answers again; a take started (there was room for it); a take ended with no slow
    // sync said since the one before (the booth says storageSlow once a take, before its end).
    if (event.event === "boothReachable") this.clear("boothUnreachable");
    if (event.event === "recordingStarted") this.clear("diskFull");
    if (event.event === "recordingFinished") { if (!this.slowTake) this.clear("storageSlow"); this.slowTake = false; }
    const kind = warningKind(event);
    if (!kind) return;
    if (kind === "storageSlow") this.slowTake = true;
    // (A take a fault ended is named by its file.)
    const said = event.message || (kind === "error" ? event.code : "") || (event.outputPath || "").split("/").pop();
    const item = make("li", { textContent: (when || new Date().toLocaleTimeString()) + " " + B[kind] + (said ? ": " + said : "") });
    item.dataset.kind = kind;
    item.dataset.asked = String(this.asks || 0);
    $("warnings").prepend(item);
    while ($("warnings").children.length > 50) $("warnings").lastChild.remove();
  },
  // A warning whose cause the booth says is gone is marked cleared, with when (kept in the list,
  // greyed): by an event (note), or by a state (`before`: its ask's count; only warnings that came
  // before that ask was sent, so a state the booth gave before the warning clears nothing; none: a
  // state on the event stream, which comes after the warnings before it).
  clear(kind, before) {
    for (const item of $("warnings").querySelectorAll("li[data-kind=" + kind + "]:not(.cleared)")) {
      if (before !== undefined && Number(item.dataset.asked) >= before) continue;
      item.classList.add("cleared");
      item.append(" · " + B.cleared + " " + new Date().toLocaleTimeString());
    }
  },
  // The booth closed to guests or opened (closeBooth, openBooth: a confirm first for closing), and
  // its settings read again (reload); the booth's answer, or its refusal, said below them.
  control() {
    const toggle = make("button", { type: "button", id: "booth-toggle", textContent: B.closeBooth });
    const reload = make("button", { type: "button", id: "booth-reload", textContent: B.reload });
    const said = make("p", { id: "booth-message" });
    said.setAttribute("role", "status");
    // Only the newest command's answer is said: an earlier one answered late (Open, then Reload at
    // once) does not cover the newer one's.
    let sent = 0;
    const send = async (name, done) => {
      const mine = ++sent;
      const r = await command(name);
      const answer = await r.json().catch(() => ({}));
      if (mine === sent) {
        said.textContent = r.status === 200 ? done : answer.message || "HTTP " + r.status;
        said.className = r.status === 200 ? "" : "bad";
      }
      this.ask();
    };
    toggle.onclick = () => {
      const closing = toggle.dataset.command !== "openBooth";
      if (closing && !confirm(B.confirmClose)) return;
      send(closing ? "closeBooth" : "openBooth", closing ? B.closedNote : "");
    };
    reload.onclick = () => send("reload", B.reloaded);
    return make("div", { id: "booth-control" }, toggle, reload, said);
  },
  // The control's button as the booth is: Open when closed, else Close.
  closed(closed) {
    const toggle = $("booth-toggle");
    toggle.dataset.command = closed ? "openBooth" : "closeBooth";
    toggle.textContent = closed ? B.openBooth : B.closeBooth;
    $("status").classList.toggle("closed", closed);
  },
  state(state, asked) {
    $("mode").textContent = state.mode + " " + (state.timer || "");
    // The camera back (cameraUp), the microphone heard again (its held peak above -60 dBFS, where
    // the booth's silence ends): their warnings cleared.
    const figures = state.figures || {};
    if (figures.cameraUp === true) this.clear("cameraLost", asked);
    if (typeof figures.microphonePeak === "number" && figures.microphonePeak > -60) this.clear("microphoneSilent", asked);
    this.closed(state.mode === "closed");
    $("question").textContent = state.question || T.none;
    // The microphone's peak held over the last 1.5 s (figures' microphonePeak, as the booth's own
    // meter holds it: asked twice a second, the last 100 ms alone would miss a short sound), as a
    // meter from -60 dBFS to 0; a booth without the figure gives its last 100 ms.
    const held = state.figures && state.figures.microphonePeak;
    const level = typeof held === "number" ? held : state.microphoneLevel;
    if (typeof level === "number") {
      const meter = $("microphone-meter") || make("meter", { id: "microphone-meter", min: -60, max: 0, low: -40, high: -6, optimum: -20 });
      meter.value = Math.max(-60, Math.min(0, level));
      $("microphone").replaceChildren(meter, make("span", { textContent: " " + Math.round(level) + " dBFS" }));
    } else $("microphone").textContent = "—";
    // The takes whose hook (--on-take: an upload) is still owed; "—" without a hook.
    $("uploads").textContent = typeof state.hooksPending === "number" ? String(state.hooksPending) : "—";
    statusFigures.state(state);
    // The buttons drawn again only when they change: a tap between two answers is not lost.
    const names = (state.buttons || []).join(" ");
    const buttons = $("buttons");
    if (buttons.dataset.names === names) return;
    buttons.dataset.names = names;
    buttons.replaceChildren(...(state.buttons || []).map((name) => {
      const b = make("button", { type: "button", textContent: name });
      b.onclick = () => command(name);
      return b;
    }));
  },
  async enter() {
    // The meter's pace: the booth's state twice a second while this view is shown (a page in the
    // background has its timers slowed by the browser itself).
    if (!this.metering) this.metering = setInterval(() => { if (!$("status").hidden) this.ask(); }, 500);
    statusFigures.enter();
    // What came before the page: the camera and the warnings among the console's last events.
    if (!live.source) {
      const r = await api("api/log");
      if (r.status === 200) for (const event of await r.json()) this.note(event, JSON.stringify(event), "…");
    }
    follow();
    this.ask();
    this.takes();
  },
  async takes() {
    const r = await api("api/takes");
    const list = r.status === 200 ? await r.json() : [];
    $("takes-today").textContent = String(list.filter((t) => isToday(t.acceptedAt || t.modifiedAt)).length);
    const last = list[0];
    $("last-take").replaceChildren(...(last ? [make("img", { src: takeURL(last.name) + "/thumbnail", alt: last.name }),
      make("p", { textContent: last.name + (last.duration ? " · " + last.duration.toFixed(1) + " s" : "") })] : [T.none]));
  },
};

// The Status page's figures beyond the screen's: the camera as state's figures give it (its size,
// the rate asked and the rate measured), and api/figures every 5 s while Status is shown: the disk
// as minutes of video at the last take's rate, the share site, the temperatures, the uptimes.
const FIGURE_WORDS = {
  en: { disk: "Free disk", share: "Share site", temperature: "Temperature", uptime: "Uptime", minutes: "min of video", free: "free", afterTake: "minutes known after the first take", up: "up", down: "down", noShare: "no share site", noSensor: "no sensor", machine: "machine", booth: "booth", measured: "measured" },
  de: { disk: "Freier Speicher", share: "Teilen-Seite", temperature: "Temperatur", uptime: "Laufzeit", minutes: "Min. Video", free: "frei", afterTake: "Minuten nach der ersten Aufnahme bekannt", up: "erreichbar", down: "nicht erreichbar", noShare: "keine Teilen-Seite", noSensor: "kein Sensor", machine: "Rechner", booth: "Kabine", measured: "gemessen" },
  fr: { disk: "Disque libre", share: "Site de partage", temperature: "Température", uptime: "En marche depuis", minutes: "min de vidéo", free: "libres", afterTake: "minutes connues après la première prise", up: "en ligne", down: "hors ligne", noShare: "pas de site de partage", noSensor: "aucun capteur", machine: "machine", booth: "cabine", measured: "mesurées" },
  es: { disk: "Disco libre", share: "Sitio para compartir", temperature: "Temperatura", uptime: "Tiempo encendido", minutes: "min de vídeo", free: "libres", afterTake: "minutos conocidos tras la primera toma", up: "activo", down: "caído", noShare: "sin sitio para compartir", noSensor: "sin sensor", machine: "equipo", booth: "cabina", measured: "medidos" },
  ja: { disk: "空きディスク", share: "共有サイト", temperature: "温度", uptime: "稼働時間", minutes: "分の動画", free: "空き", afterTake: "最初の撮影後に分数がわかります", up: "稼働中", down: "停止", noShare: "共有サイトなし", noSensor: "センサーなし", machine: "本体", booth: "ブース", measured: "実測" },
  "zh-Hans": { disk: "可用磁盘", share: "分享网站", temperature: "温度", uptime: "运行时间", minutes: "分钟视频", free: "可用", afterTake: "第一段录像后可知分钟数", up: "正常", down: "无法访问", noShare: "没有分享网站", noSensor: "没有传感器", machine: "主机", booth: "录像亭", measured: "实测" },
};
function pickFrom(table) {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const lower = tag.toLowerCase();
    const found = lower.startsWith("zh") ? table["zh-Hans"] : table[lower.slice(0, 2)];
    if (found) return found;
  }
  return table.en;
}
const F = pickFrom(FIGURE_WORDS);
const statusFigures = {
  build(list) {
    for (const [id, label] of [["disk-minutes", F.disk], ["share-site", F.share], ["temperature", F.temperature], ["uptime", F.uptime]]) {
      list.append(make("dt", { textContent: label }), make("dd", { id, textContent: "…" }));
    }
  },
  // Seconds as "3 h 12 min", "25 min", "40 s".
  span(seconds) {
    const s = Math.round(seconds);
    return s >= 3600 ? Math.floor(s / 3600) + " h " + Math.floor(s % 3600 / 60) + " min" : s >= 60 ? Math.floor(s / 60) + " min" : s + " s";
  },
  state(state) {
    const camera = state.figures && state.figures.camera;
    if (!camera) return;
    const measured = typeof camera.measuredFps === "number" ? " (" + F.measured + " " + camera.measuredFps.toFixed(1) + ")" : "";
    $("camera").textContent = camera.name + " " + camera.width + "×" + camera.height + " @ " + camera.fps + measured + (state.figures.cameraUp ? "" : " ✕");
    this.boothUptime = state.figures.uptime;
  },
  enter() {
    if (!this.asking) this.asking = setInterval(() => { if (!$("status").hidden) this.ask(); }, 5000);
    this.ask();
  },
  async ask() {
    const r = await api("api/figures");
    if (r.status !== 200) return;
    const f = await r.json();
    const gb = typeof f.disk.freeBytes === "number" ? (f.disk.freeBytes / 1e9).toFixed(1) + " GB " + F.free : "—";
    $("disk-minutes").textContent = typeof f.disk.seconds === "number" ? Math.floor(f.disk.seconds / 60) + " " + F.minutes + " (" + gb + ")" : gb + "; " + F.afterTake;
    $("share-site").textContent = !f.share ? F.noShare : f.share.up === true ? F.up : f.share.up === false ? F.down + " (" + f.share.detail + ")" : "…";
    $("share-site").dataset.up = f.share ? String(f.share.up) : "none";
    $("temperature").textContent = f.temperatures.length ? f.temperatures.map((t) => t.celsius.toFixed(1) + " °C" + (t.type ? " " + t.type : "")).join(", ") : F.noSensor;
    const booth = f.booth ? f.booth.uptime : this.boothUptime;
    $("uptime").textContent = [typeof f.uptime === "number" ? F.machine + " " + this.span(f.uptime) : "", typeof booth === "number" ? F.booth + " " + this.span(booth) : ""]
      .filter((t) => t).join(" · ") || "—";
  },
};

const takesView = {
  id: "takes", title: T.takes,
  build(section) {
    // The consent log as a file to keep (signed in only: the console's own route).
    section.append(make("a", { className: "button", id: "consent-csv", href: "api/consent.csv", download: "consent.csv", textContent: T.exportConsent }),
      make("div", { id: "take-list" }));
    listen((event) => { if (/^take(Hidden|Shown|Deleted)$/.test(event.event) && !$("takes").hidden) this.enter(); });
  },
  async enter() {
    const r = await api("api/takes");
    const list = r.status === 200 ? await r.json() : [];
    $("take-list").replaceChildren(...(list.length ? list.map((t) => this.take(t)) : [make("p", { textContent: T.noTakes })]));
  },
  take(t) {
    const url = takeURL(t.name);
    // The guest's choices on the consent screen (none: recorded without one, everything allowed).
    const choice = { share: T.choiceShare, slideshow: T.choiceSlideshow, film: T.choiceFilm };
    const consent = Array.isArray(t.consent) ? T.consent + ": " + (t.consent.length ? t.consent.map((c) => choice[c] || c).join(", ") : T.consentNothing) : "";
    const facts = [T[t.kind] || t.kind, t.duration ? t.duration.toFixed(1) + " s" : "", t.shared ? T.shared : "", t.hidden ? T.hidden : "", consent];
    const box = make("div", { className: "take" + (t.hidden ? " hidden-take" : "") },
      make("img", { src: url + "/thumbnail", alt: t.name, loading: "lazy" }),
      make("p", {}, make("strong", { textContent: t.name }), make("br"), facts.filter((f) => f).join(" · ")),
      ...(t.question ? [make("p", { textContent: t.question })] : []));
    const play = make("button", { type: "button", textContent: T.play });
    play.onclick = () => {
      const player = t.kind === "photo" ? make("img", { src: url + "/video", alt: t.name })
        : make("video", { src: url + "/video", controls: true, autoplay: true, playsInline: true });
      box.querySelector("img").replaceWith(player);
      play.disabled = true;
    };
    const toggle = make("button", { type: "button", textContent: t.hidden ? T.show : T.hide });
    toggle.onclick = async () => { await change(url + (t.hidden ? "/show" : "/hide"), "POST"); this.enter(); };
    const remove = make("button", { type: "button", className: "danger", textContent: T.remove });
    remove.onclick = async () => { if (confirm(T.confirmDelete)) { await change(url, "DELETE"); this.enter(); } };
    const download = make("a", { className: "button", href: url + "/video", download: t.name, textContent: T.download });
    box.append(make("div", { className: "actions" }, play, toggle, download, remove));
    return box;
  },
};

const logView = {
  id: "log", title: T.log,
  build(section) {
    section.append(make("h2", { textContent: T.events }), make("ul", { id: "events" }),
      make("h2", { textContent: T.audit }), make("ul", { id: "audit" }));
    listen((event, line) => {
      const list = $("events");
      list.prepend(make("li", { textContent: line }));
      while (list.children.length > 200) list.lastChild.remove();
    });
  },
  async enter() {
    const [events, audit] = await Promise.all([api("api/log"), api("api/audit")]);
    if (events.status === 200) $("events").replaceChildren(...(await events.json()).reverse().map((e) => make("li", { textContent: JSON.stringify(e) })));
    if (audit.status === 200) $("audit").replaceChildren(...(await audit.json()).reverse().map((e) =>
      make("li", { textContent: new Date(e.time * 1000).toLocaleString() + " " + e.address + " " + e.action + ": " + e.result })));
  },
};

consoleViews.push(statusView, takesView, logView);
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
    // The event stream and any video let go first: a browser keeps six connections to a host, and
    // held ones made the sign-out wait for the server to time them out.
    if (live.source) { live.source.close(); live.source = null; }
    releaseVideos();
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
  releaseVideos();
  for (const other of consoleViews) {
    $(other.id).hidden = other !== view;
    $("tab-" + other.id).setAttribute("aria-selected", String(other === view));
  }
  view.enter();
}
// The page before sign-in in the browser's language: the form (index.html) or the no-password page,
// and the sign-in's message, kept as its cause (an error's code, or no answer) so that a change of
// language says it again.
const signInMessage = { code: "", status: 0, text: "" };
function translateSignIn() {
  const W = pickFrom(SIGN_IN_WORDS);
  document.documentElement.lang = Object.keys(SIGN_IN_WORDS).find((tag) => SIGN_IN_WORDS[tag] === W);
  document.title = W.title;
  for (const [selector, word] of [["h1", "title"], ["label[for=password]", "password"], ["#sign-in button", "signIn"], ["#no-password", "noPassword"]]) {
    const e = document.querySelector(selector);
    if (e) e.textContent = W[word];
  }
  const how = $("no-password-how");
  if (how) {
    const [before, after] = W.noPasswordHow.split("{command}");
    how.replaceChildren(before, make("code", { textContent: "sudo -u kiosk kiosk-recorder console password" }), after);
  }
  const message = $("message");
  if (!message) return;
  const { code, status, text } = signInMessage;
  message.textContent = code === "noAnswer" ? W.noAnswer.replace("{status}", status)
    : code === "noPassword" ? W.noPassword + " " + W.noPasswordHow.replace("{command}", "sudo -u kiosk kiosk-recorder console password")
    : ["wrongPassword", "tooManyTries"].includes(code) ? W[code] : text;
  message.dataset.code = code;
}
function sayAtSignIn(code, status, text) {
  Object.assign(signInMessage, { code, status, text: text || "" });
  translateSignIn();
}
async function signedIn() {
  const r = await fetch("api/session", { credentials: "same-origin" });
  const answer = await r.json().catch(() => null);
  if (r.status === 200 && answer) { csrf = answer.csrf; return true; }
  // No password set yet (the console says how to set one), or no console behind nginx.
  sayAtSignIn(!answer ? "noAnswer" : answer.error === "noPassword" ? "noPassword" : "", r.status);
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
translateSignIn();
window.addEventListener("languagechange", translateSignIn);
// The sign-in form's page (the no-password page loads this file for its words alone).
if ($("sign-in")) {
  $("sign-in").addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await fetch("api/session", { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ password: $("password").value }) });
    $("password").value = "";
    if (r.status === 204) { sayAtSignIn("", 0); show(); return; }
    // The console's error (wrongPassword, tooManyTries, noPassword) in the page's words; its own
    // message for any other.
    const answer = await r.json().catch(() => ({}));
    sayAtSignIn(answer.error || "", r.status, answer.message || "HTTP " + r.status);
  });
  // After every deferred script of the page has run (a view in a file of its own joins consoleViews
  // first): DOMContentLoaded comes after them all.
  document.addEventListener("DOMContentLoaded", show);
}
