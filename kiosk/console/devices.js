"use strict";
// The Devices view: the cameras (`list-cameras`) and microphones (ALSA) there are, each one set as
// the booth's through the settings (the booth's parser checks it, then it reloads); a 3 s test
// take with its level and its first frame; the booth's screen as a picture, once a second while
// the view is shown; Calibrate, the booth's `calibrate` (`--key auto`: the backdrop measured again). It joins console.js's views (its globals: consoleViews, T, make, api, csrf).
(() => {
  const WORDS = {
    en: ["Devices", "Screen", "Cameras", "Microphones", "Use", "in use", "Test take (3 s)", "Level", "Loudness", "Peak", "No sound",
      "Applies after the booth restarts (Restart the booth, below).", "Set; the booth reloaded.", "Recording 3 s…", "None found.",
      "Calibrate the key", "Measuring the empty backdrop: keep it clear for a moment."],
    de: ["Geräte", "Bildschirm", "Kameras", "Mikrofone", "Verwenden", "in Gebrauch", "Testaufnahme (3 s)", "Pegel", "Lautheit", "Spitze", "Kein Ton",
      "Gilt nach einem Neustart der Kabine (Kabine neu starten, unten).", "Gesetzt; die Kabine hat neu geladen.", "Aufnahme 3 s…", "Keine gefunden.",
      "Key kalibrieren", "Der leere Hintergrund wird gemessen: kurz frei lassen."],
    fr: ["Appareils", "Écran", "Caméras", "Micros", "Utiliser", "utilisé", "Prise d’essai (3 s)", "Niveau", "Sonie", "Crête", "Pas de son",
      "S’applique après un redémarrage de la cabine (Redémarrer la cabine, plus bas).", "Réglé ; la cabine a rechargé.", "Enregistrement 3 s…", "Aucun trouvé.",
      "Calibrer l’incrustation", "Mesure du fond vide : laissez-le dégagé un instant."],
    es: ["Dispositivos", "Pantalla", "Cámaras", "Micrófonos", "Usar", "en uso", "Toma de prueba (3 s)", "Nivel", "Sonoridad", "Pico", "Sin sonido",
      "Se aplica al reiniciar la cabina (Reiniciar la cabina, abajo).", "Hecho; la cabina recargó.", "Grabando 3 s…", "No se encontró ninguno.",
      "Calibrar el croma", "Midiendo el fondo vacío: déjelo despejado un momento."],
    ja: ["デバイス", "画面", "カメラ", "マイク", "使用", "使用中", "テスト撮影（3秒）", "レベル", "ラウドネス", "ピーク", "音なし",
      "ブースの再起動後に反映されます（下の「ブースを再起動」）。", "設定しました。ブースが再読み込みしました。", "3秒録画中…", "見つかりません。",
      "キーを調整", "空の背景を測定中です。しばらく何も置かないでください。"],
    "zh-Hans": ["设备", "屏幕", "摄像头", "麦克风", "使用", "使用中", "测试录像（3 秒）", "电平", "响度", "峰值", "无声音",
      "重启拍摄亭后生效（见下方“重启拍摄亭”）。", "已设置；拍摄亭已重新加载。", "正在录制 3 秒…", "未找到。",
      "校准抠像", "正在测量空背景：请让背景保持空白片刻。"],
  };
  let W = WORDS.en;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const lower = tag.toLowerCase();
    const found = lower.startsWith("zh") ? WORDS["zh-Hans"] : WORDS[lower.slice(0, 2)];
    if (found) { W = found; break; }
  }
  const [title, screenWord, camerasWord, micsWord, useWord, inUse, trialWord, levelWord, loudnessWord, peakWord, noSound,
    afterRestart, setWord, recordingWord, noneFound, calibrateWord, measuringWord] = W;
  const $ = (id) => document.getElementById(id);
  const dB = (v, unit) => (typeof v === "number" ? v.toFixed(1) + " " + unit : noSound);

  const devicesView = {
    id: "devices", title,
    build(section) {
      const screen = make("img", { id: "screen-picture", alt: screenWord });
      screen.dataset.count = "0";
      const trial = make("button", { type: "button", id: "trial", textContent: trialWord });
      trial.onclick = () => this.trial();
      const calibrate = make("button", { type: "button", id: "calibrate", textContent: calibrateWord });
      calibrate.onclick = () => this.calibrate();
      section.append(make("h2", { textContent: screenWord }), screen, calibrate,
        make("p", { id: "devices-message", role: "status" }),
        make("h2", { textContent: camerasWord }), make("ul", { id: "camera-list", className: "devices" }),
        make("h2", { textContent: micsWord }), make("ul", { id: "microphone-list", className: "devices" }),
        trial, make("div", { id: "trial-result" }));
      // The next picture is asked one second after the last one came (or failed): never two at once.
      const again = () => { clearTimeout(this.timer); this.timer = setTimeout(() => this.refresh(), 1000); };
      screen.onload = () => { screen.dataset.count = String(Number(screen.dataset.count) + 1); again(); };
      screen.onerror = again;
    },
    refresh() {
      if ($("devices").hidden) return;
      $("screen-picture").src = "api/screen?n=" + Date.now();
    },
    async enter() {
      this.refresh();
      const [devices, settings] = await Promise.all([api("api/devices"), api("api/settings")]);
      const listing = devices.status === 200 ? await devices.json() : { cameras: [], microphones: [] };
      const current = {};
      if (settings.status === 200) for (const s of (await settings.json()).settings) current[s.name] = s;
      this.list("camera-list", "camera", listing.cameras.map((c) => [c.path, c.name + " · " + c.path + " · "
        + c.formats.map((f) => f.fourcc + " " + f.sizes.map((s) => s.width + "×" + s.height).slice(0, 3).join(" ")).join(", ")]), current.camera);
      this.list("microphone-list", "microphone", listing.microphones.map((m) => [m.name, m.name + (m.description ? " · " + m.description : "")]), current.microphone);
      if (listing.camerasError) $("devices-message").textContent = listing.camerasError;
    },
    // One device a row; its button sets it as the booth's `setting`.
    list(id, setting, rows, now) {
      const value = now && now.value;
      $(id).replaceChildren(...(rows.length ? rows.map(([name, text]) => {
        const use = make("button", { type: "button", className: "use", textContent: name === value ? inUse : useWord, disabled: name === value });
        use.dataset.device = name;
        use.onclick = () => this.use(setting, name, now);
        return make("li", {}, make("span", { textContent: text }), use);
      }) : [make("li", { textContent: noneFound })]));
    },
    async use(setting, name, now) {
      const r = await api("api/settings", { method: "PUT", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ [setting]: name }) });
      const answer = await r.json().catch(() => ({}));
      $("devices-message").textContent = r.status !== 200 ? (answer.message || "HTTP " + r.status)
        : !answer.reloaded ? answer.message : now && now.applies === "restart" ? afterRestart : setWord;
      this.enter();
    },
    // The booth's `calibrate`: its refusal said here; the measure comes as `keyCalibrated` (the log).
    async calibrate() {
      const r = await api("api/command", { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ command: "calibrate" }) });
      const answer = await r.json().catch(() => ({}));
      $("devices-message").textContent = r.status === 200 ? measuringWord : (answer.message || "HTTP " + r.status);
    },
    async trial() {
      $("trial").disabled = true;
      $("trial-result").textContent = recordingWord;
      const r = await api("api/devices/trial", { method: "POST", headers: { "X-CSRF-Token": csrf } });
      const answer = await r.json().catch(() => ({}));
      $("trial").disabled = false;
      if (!answer.ok) { $("trial-result").textContent = answer.message || "HTTP " + r.status; return; }
      $("trial-result").replaceChildren(
        make("p", { textContent: levelWord + ": " + dB(answer.level, "dBFS") + " · " + loudnessWord + ": " + dB(answer.loudness, "LUFS")
          + " · " + peakWord + ": " + dB(answer.peak, "dBTP") + " · " + (answer.duration || 0).toFixed(1) + " s" }),
        ...(answer.frame ? [make("img", { id: "trial-frame", src: "api/devices/trial/frame?n=" + Date.now(), alt: trialWord })] : []));
    },
  };
  consoleViews.push(devicesView);
})();
