"use strict";
// The page's Film view: the hosts' film (`kiosk-recorder reel` of the booth's takes, the hidden
// ones left out) made from here. Its progress as a bar (api/film asked three times a second while
// it is made), then the film to play in the page and to download. A view of console.js's tabs,
// in the page's six languages.
(() => {
  const WORDS = {
    en: { tab: "Film", intro: "The hosts' film: every take kept, oldest first, each after a card with its question. Hidden takes stay out.", title: "Title (optional)", size: "Size", make: "Make the film", running: "Making the film: {done} of {total} takes", finished: "The film: {takes} takes, {duration}", skipped: "{n} left out: they could not be read", failed: "No film was made: ", download: "Download the film", none: "No film yet.", small: "small, made quickest", cancel: "Stop making the film", cancelled: "Stopped: no new film was made." },
    de: { tab: "Film", intro: "Der Film für die Gastgeber: alle behaltenen Aufnahmen, die älteste zuerst, jede nach einer Karte mit ihrer Frage. Ausgeblendete bleiben draußen.", title: "Titel (optional)", size: "Größe", make: "Film erstellen", running: "Der Film entsteht: {done} von {total} Aufnahmen", finished: "Der Film: {takes} Aufnahmen, {duration}", skipped: "{n} ausgelassen: nicht lesbar", failed: "Kein Film erstellt: ", download: "Film herunterladen", none: "Noch kein Film.", small: "klein, am schnellsten", cancel: "Film abbrechen", cancelled: "Abgebrochen: kein neuer Film erstellt." },
    fr: { tab: "Film", intro: "Le film des hôtes : toutes les prises gardées, de la plus ancienne à la plus récente, chacune après une carte avec sa question. Les prises masquées n’y sont pas.", title: "Titre (facultatif)", size: "Taille", make: "Faire le film", running: "Film en cours : {done} prises sur {total}", finished: "Le film : {takes} prises, {duration}", skipped: "{n} laissées de côté : illisibles", failed: "Aucun film : ", download: "Télécharger le film", none: "Pas encore de film.", small: "petit, le plus rapide", cancel: "Arrêter le film", cancelled: "Arrêté : aucun nouveau film." },
    es: { tab: "Película", intro: "La película de los anfitriones: todas las tomas guardadas, de la más antigua a la más reciente, cada una tras una tarjeta con su pregunta. Las ocultas quedan fuera.", title: "Título (opcional)", size: "Tamaño", make: "Hacer la película", running: "Haciendo la película: {done} de {total} tomas", finished: "La película: {takes} tomas, {duration}", skipped: "{n} omitidas: no se pudieron leer", failed: "No se hizo la película: ", download: "Descargar la película", none: "Aún no hay película.", small: "pequeña, la más rápida", cancel: "Detener la película", cancelled: "Detenida: no se hizo una nueva película." },
    ja: { tab: "ムービー", intro: "ホスト向けムービー：保存された撮影を古い順に、それぞれ質問のカードの後に並べます。非表示の撮影は入りません。", title: "タイトル（任意）", size: "サイズ", make: "ムービーを作成", running: "作成中：{total} 件中 {done} 件", finished: "ムービー：{takes} 件、{duration}", skipped: "{n} 件は読めないため除外", failed: "ムービーは作成されませんでした：", download: "ムービーをダウンロード", none: "まだムービーはありません。", small: "小さく最速", cancel: "作成を中止", cancelled: "中止しました：新しいムービーは作成されていません。" },
    "zh-Hans": { tab: "影片", intro: "主人的影片：保留的所有录像按时间先后排列，每段前有一张写着其问题的卡片。已隐藏的录像不会放入。", title: "标题（可选）", size: "尺寸", make: "制作影片", running: "正在制作：{total} 段中的第 {done} 段", finished: "影片：{takes} 段录像，{duration}", skipped: "{n} 段无法读取，已略过", failed: "未能制作影片：", download: "下载影片", none: "还没有影片。", small: "小尺寸，最快", cancel: "停止制作", cancelled: "已停止：没有制作新影片。" },
  };
  let W = WORDS.en;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const lower = tag.toLowerCase();
    const found = lower.startsWith("zh") ? WORDS["zh-Hans"] : WORDS[lower.slice(0, 2)];
    if (found) { W = found; break; }
  }
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, key) => String(values[key]));
  const minutes = (seconds) => {
    const whole = Math.round(seconds);
    return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
  };

  const filmView = {
    id: "film", title: W.tab,
    build(section) {
      const size = make("select", { id: "film-size" }, ...[["1280x720", "1280×720 HD"], ["1920x1080", "1920×1080 Full HD"],
        ["640x360", "640×360 · " + W.small]].map(([value, text]) => make("option", { value, textContent: text })));
      const start = make("button", { type: "button", id: "film-make", textContent: W.make });
      start.onclick = () => this.start();
      const cancel = make("button", { type: "button", id: "film-cancel", textContent: W.cancel, hidden: true });
      cancel.onclick = () => this.cancel();
      section.append(make("p", { textContent: W.intro }),
        make("label", { htmlFor: "film-title", textContent: W.title }), make("input", { id: "film-title", type: "text", maxLength: 200 }),
        make("label", { htmlFor: "film-size", textContent: W.size }), size, start, cancel,
        make("progress", { id: "film-progress", max: 1, value: 0, hidden: true }),
        make("p", { id: "film-state", role: "status" }), make("div", { id: "film-result" }));
    },
    enter() {
      // Entering the view again (the tabs let go of every video): the film's player made anew.
      this.shown = null;
      this.ask();
    },
    async ask() {
      clearTimeout(this.asking);
      const r = await api("api/film");
      if (r.status === 200) this.show(await r.json());
    },
    async start() {
      $("film-make").disabled = true;
      const r = await api("api/film", { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ title: $("film-title").value, size: $("film-size").value }) });
      const answer = await r.json().catch(() => ({}));
      // 409: one is being made already; its state follows as this one's would.
      if (r.status === 202 || r.status === 409) { this.show(answer.film || answer); return; }
      $("film-make").disabled = false;
      $("film-state").textContent = W.failed + (answer.message || "HTTP " + r.status);
    },
    async cancel() {
      $("film-cancel").disabled = true;
      const r = await api("api/film/cancel", { method: "POST", headers: { "X-CSRF-Token": csrf } });
      // 202: stopping (its end follows as the state); 409: none was running.
      if (r.status === 202 || r.status === 409) this.show(await r.json().catch(() => ({})));
    },
    show(film) {
      const bar = $("film-progress"), said = $("film-state");
      const running = film.state === "running";
      $("film-make").disabled = running;
      $("film-cancel").hidden = !running;
      if (!running) $("film-cancel").disabled = false;
      bar.hidden = film.state === "idle" || film.state === "failed" || film.state === "cancelled";
      if (running) {
        // Indeterminate until the reel has counted the takes.
        if (film.total > 0) bar.value = film.done / film.total; else bar.removeAttribute("value");
        said.textContent = fill(W.running, film);
        this.asking = setTimeout(() => this.ask(), 300);
      } else if (film.state === "finished") {
        bar.value = 1;
        said.textContent = fill(W.finished, { takes: film.takes, duration: minutes(film.duration) })
          + (film.skipped ? " · " + fill(W.skipped, { n: film.skipped }) : "");
      } else if (film.state === "cancelled") said.textContent = W.cancelled;
      else said.textContent = film.state === "failed" ? W.failed + film.message : W.none;
      // The film to play and download: made anew for each new film (its figures name it).
      const key = film.video && !running ? [film.state, film.duration, film.takes].join(" ") : null;
      if (key === this.shown) return;
      this.shown = key;
      $("film-result").replaceChildren(...(key ? [
        make("video", { id: "film-video", src: "api/film/video?" + Date.now(), controls: true, playsInline: true, preload: "metadata" }),
        make("a", { id: "film-download", className: "button", href: "api/film/download", download: "film.mp4", textContent: W.download })] : []));
    },
  };
  consoleViews.push(filmView);
})();
