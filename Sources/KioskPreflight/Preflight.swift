// `kiosk-recorder --check`: what an operator runs before the event. Each part of the booth is tried
// the way the booth will use it (the camera streams a frame, the microphone a second of sound, SDL
// picks a display driver, the output folder takes a file), and every problem comes with its fix in
// one line. The booth can run when no check failed; warnings (a silent microphone) do not count.
import Dispatch
import FoundationEssentials
import Glibc
import KioskCapture
import KioskContract
import KioskCore
import KioskOptions
import KioskMedia
import KioskStorage
import KioskSystem
import KioskUI
import Synchronization

public enum Preflight {
    /// Runs every check for `config`. `makeMJPEG` is the camera's MJPEG decoder (KioskMedia's).
    /// `environment` says where the cameras and input devices are and whether SDL's driver was chosen.
    public static func run(_ config: Configuration, mjpeg: @escaping FrameDecoderFactory, environment: KioskEnvironment) -> [CheckItem] {
        var items: [CheckItem] = []
        items.append(contentsOf: camera(config, mjpeg: mjpeg, videoDevices: environment.videoDeviceFolder))
        items.append(microphone(config))
        items.append(display(requestedDriver: environment.videoDriver))
        items.append(text(config, environment: environment))
        items.append(input(folder: environment.inputFolder))
        items.append(contentsOf: output(config))
        items.append(encoding(config))
        if let keying = keying(config, slower: environment.slowKey) { items.append(keying) }
        if let hooks = hooks(config) { items.append(hooks) }
        items.append(contentsOf: share(config, environment: environment))
        items.append(user())
        return items
    }

    // MARK: - Camera

    static func camera(_ config: Configuration, mjpeg: @escaping FrameDecoderFactory, videoDevices: String) -> [CheckItem] {
        let found = CameraFactory.usable(CameraDirectory.cameras(in: videoDevices))
        let list = found.map { "\($0.path) (\($0.name))" }.joined(separator: ", ")
        var items = [CheckItem(name: "cameras", ok: true, detail: found.isEmpty ? "no V4L2 camera found" : "found \(list)")]
        let choice: CameraChoice
        switch config.capture.camera {
        case .test:
            items.append(CheckItem(name: "camera", ok: true, detail: "the built-in test pattern"))
            return items
        case .auto:
            guard let first = found.first else {
                items.append(CheckItem(name: "camera", ok: false, detail: "--camera auto found no camera (the booth would show the test pattern)",
                                       fix: "plug in a UVC camera, or name its device with --camera /dev/v4l/by-id/…"))
                return items
            }
            choice = .device(first.path)
        case let .device(path):
            guard FileManager.default.fileExists(atPath: path) else {
                let hint = found.first.map { "; found: \($0.path)" } ?? ""
                items.append(CheckItem(name: "camera", ok: false, detail: "\(path) does not exist\(hint)",
                                       fix: "plug the camera in, or set --camera to one of the cameras found (stable names: ls /dev/v4l/by-id/)"))
                return items
            }
            guard access(path, R_OK | W_OK) == 0 else {
                items.append(CheckItem(name: "camera", ok: false, detail: "\(path) is not readable by this user",
                                       fix: "add the booth's user to the video group: sudo usermod -aG video \(userName)"))
                return items
            }
            choice = config.capture.camera
        case .exec:
            choice = config.capture.camera
        }
        let exec = ExecCameraSettings(format: config.capture.cameraFormat, delayMilliseconds: config.capture.cameraDelay)
        let source = CameraFactory.make(choice, size: config.capture.size, fps: Double(config.capture.fps), exec: exec, mjpeg: mjpeg,
                                        videoDevices: videoDevices).source
        let first = Locked<VideoFrame?>(nil)
        let lost = Locked<String?>(nil)
        let got = DispatchSemaphore(value: 0)
        // `--key auto`: the backdrop measured as the booth measures it in ready.
        let backdrop = config.video.keyInForce == .auto ? BackdropTrial() : nil
        do {
            // An exec camera's start waits for its first picture (at most 10 s), or its failure.
            try source.start(frames: { frame in
                if first.withLock({ f in defer { f = f ?? frame }; return f == nil }) { got.signal() }
                backdrop?.offer(frame)
            }, events: { event in
                if case let .cameraLost(reason) = event { lost.withLock { $0 = $0 ?? reason } }
            })
        } catch {
            items.append(CheckItem(name: "camera", ok: false, detail: "\(error)",
                                   fix: "check the camera's cable and that no other program (another booth, a browser) holds it"))
            return items
        }
        let streamed = got.wait(timeout: .now() + 5) == .success
        let measured = streamed ? backdrop?.wait() : nil
        source.stop()
        let info = source.info
        if streamed {
            items.append(CheckItem(name: "camera", ok: true,
                                   detail: "\(info.name) streams \(info.size.width)x\(info.size.height) at \(KioskEvent.milliseconds(info.fps)) fps"))
            if let backdrop { items.append(backdrop.item(measured)) }
        } else if case .exec = choice {
            items.append(CheckItem(name: "camera", ok: false, detail: lost.withLock { $0 } ?? "\(info.name) sent no picture",
                                   fix: "run the command by hand and check that it writes \(config.capture.cameraFormat.rawValue) to stdout (/usr/share/doc/kiosk-recorder/deploy.md has recipes)"))
        } else {
            items.append(CheckItem(name: "camera", ok: false, detail: "\(info.name) opened but sent no frame in 5 s",
                                   fix: "try another USB port or cable (a USB 2 port may lack bandwidth), or a smaller --size"))
        }
        return items
    }

    // MARK: - Microphone

    static func microphone(_ config: Configuration) -> CheckItem {
        let source: any AudioSource
        switch config.capture.microphone {
        case .none: return CheckItem(name: "microphone", ok: true, detail: "none (takes have no sound)")
        case .test: source = TestTone()
        case let .pcm(name): source = ALSAMicrophone(name: name)
        }
        let peak = Locked<Int>(0)
        let frames = Locked<Int>(0)
        do {
            try source.start(chunks: { chunk in
                let loudest = chunk.samples.reduce(0) { max($0, abs(Int($1))) }
                peak.withLock { $0 = max($0, loudest) }
                frames.withLock { $0 += chunk.frameCount }
            }, events: { _ in })
        } catch {
            let fix = "name a capture device with --microphone (arecord -L lists them; on a Raspberry Pi use plughw:CARD=…, ALSA's default there is an output), or --microphone none"
            return CheckItem(name: "microphone", ok: false, detail: "\(error)", fix: fix)
        }
        usleep(1_000_000)
        source.stop()
        let info = source.info
        let level = peak.withLock { $0 }
        let dBFS = level > 0 ? max(-100, 20 * log10(Double(level) / 32768)) : -100
        let heard = frames.withLock { $0 }
        guard heard > 0 else {
            return CheckItem(name: "microphone", ok: false, detail: "\(info.name) opened but delivered no sound in 1 s",
                             fix: "check the device with: arecord -D \(info.name) -d 2 /tmp/test.wav")
        }
        let detail = "\(info.name): \(info.sampleRate) Hz, \(info.channels) channel(s), peak \(Int(dBFS.rounded())) dBFS over 1 s"
        if dBFS < -60 {
            return CheckItem(name: "microphone", ok: true, detail: detail + " (silent: muted, or nobody spoke?)",
                             fix: "unmute and raise the capture level: alsamixer -c CARD (F4: capture)", warning: true)
        }
        return CheckItem(name: "microphone", ok: true, detail: detail)
    }

    // MARK: - Display and input

    /// `requestedDriver`: `SDL_VIDEODRIVER`, when the operator set it.
    static func display(requestedDriver: String?) -> CheckItem {
        do {
            let context = try SDLContext()
            let driver = context.videoDriver
            if ["offscreen", "dummy"].contains(driver), requestedDriver == nil {
                return CheckItem(name: "display", ok: false, detail: "no display: SDL fell back to its '\(driver)' driver",
                                 fix: "run inside the desktop session, or stop the desktop so KMSDRM can have the screen (sudo systemctl stop display-manager)")
            }
            return CheckItem(name: "display", ok: true, detail: "SDL video driver \(driver)")
        } catch {
            return CheckItem(name: "display", ok: false, detail: "\(error)",
                             fix: "on a bare device the booth's user needs the video and render groups and nothing else holding the screen")
        }
    }

    /// What stands between the booth and its touches at start (nil: nothing): no input device it
    /// can read, naming the group that can. `folder`: /dev/input, or `KIOSK_INPUT_DIR`
    /// (`KioskEnvironment.inputFolder`).
    public static func inputProblem(folder: String) -> String? {
        let devices = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix("event") }.sorted()
        guard !devices.isEmpty, !devices.contains(where: { access(folder + "/" + $0, R_OK) == 0 }) else { return nil }
        let group = inputGroup(folder + "/" + devices[0]) ?? "input"
        return "none of the \(devices.count) devices in \(folder) is readable by this user, so no touch will arrive: "
            + "add it to the \(group) group (sudo usermod -aG \(group) \(userName)) and restart"
    }

    /// The group that owns an input device (`stat`, `getgrgid`).
    static func inputGroup(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, let group = getgrgid(info.st_gid), let name = group.pointee.gr_name else { return nil }
        return String(cString: name)
    }

    /// The input devices in `folder` (as for `inputProblem`).
    static func input(folder: String) -> CheckItem {
        let devices = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix("event") }.sorted()
        guard !devices.isEmpty else {
            return CheckItem(name: "input", ok: true, detail: "no input devices in \(folder) (a touch screen under a desktop session reaches SDL through it)")
        }
        let readable = devices.filter { access(folder + "/" + $0, R_OK) == 0 }
        if readable.isEmpty {
            let group = inputGroup(folder + "/" + devices[0]) ?? "input"
            return CheckItem(name: "input", ok: false, detail: "none of the \(devices.count) input devices is readable by this user",
                             fix: "on a bare device (KMSDRM) touches come through evdev: sudo usermod -aG \(group) \(userName)")
        }
        return CheckItem(name: "input", ok: true, detail: "\(readable.count) of \(devices.count) input devices readable")
    }

    // MARK: - Output

    static func output(_ config: Configuration) -> [CheckItem] {
        let folder: String, option: String
        var items: [CheckItem] = []
        if let directory = config.storage.outputDirectory {
            (folder, option) = (directory, "--output-dir")
            if !FileManager.default.fileExists(atPath: directory) {
                let parent = URL(fileURLWithPath: directory).deletingLastPathComponent().path
                guard access(parent, W_OK | X_OK) == 0 else {
                    return [CheckItem(name: "output", ok: false, detail: "\(directory) does not exist and \(parent) is not writable",
                                      fix: "make it for the booth's user: sudo install -d -o \(userName) \(directory) (the installed service uses StateDirectory)")]
                }
                items.append(CheckItem(name: "output", ok: true, detail: "\(directory) will be made at launch"))
            }
        } else if let output = config.storage.output {
            (folder, option) = (URL(fileURLWithPath: output).deletingLastPathComponent().path, "--output")
        } else {
            (folder, option) = (PathText.temporaryFolder, "the temporary folder")
        }
        if FileManager.default.fileExists(atPath: folder) {
            var isDirectory = false
            _ = FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory)
            guard isDirectory else {
                return [CheckItem(name: "output", ok: false, detail: "\(option): \(folder) is not a folder", fix: "name a folder")]
            }
            guard access(folder, W_OK | X_OK) == 0 else {
                if errno == EROFS {
                    return [CheckItem(name: "output", ok: false, detail: "\(option): \(folder) is on a read-only file system",
                                      fix: "mount it read-write (sudo mount -o remount,rw on its disk) or pick a folder on a writable disk")]
                }
                return [CheckItem(name: "output", ok: false, detail: "\(option): \(folder) is not writable by this user",
                                  fix: "give the folder to the booth's user (sudo chown \(userName) \(folder)) or pick a writable one")]
            }
            items.append(CheckItem(name: "output", ok: true, detail: "\(option): \(folder) is writable"))
            if let storage = storage(folder, fragmentBytes: Int(estimatedBytesPerSecond(config) * MovieSettings.defaultFragmentSeconds)) {
                items.append(storage)
            }
        }
        // How much fits: the free space above the reserve, at the configured quality's rate.
        let probe = FileManager.default.fileExists(atPath: folder) ? folder : URL(fileURLWithPath: folder).deletingLastPathComponent().path
        if let free = DiskSpace.available(at: probe + "/x") {
            let usable = max(free - max(config.limits.minFreeDisk, config.storage.keepFree ?? 0), 0)
            let minutes = Double(usable) / estimatedBytesPerSecond(config) / 60
            let size = config.capture.size.planned
            let detail = "\(free / 1_048_576) MiB free: about \(Int(minutes)) minutes of takes at \(size.width)x\(size.height)"
            if minutes < 5 {
                items.append(CheckItem(name: "disk", ok: false, detail: detail, fix: "free some space or use a larger disk (or a smaller --size)"))
            } else {
                items.append(CheckItem(name: "disk", ok: true, detail: detail))
            }
        }
        // Another booth on the same output.
        let lockPath = config.storage.outputDirectory.map { $0 + "/.kiosk-recorder.lock" } ?? config.storage.output.map(OutputLock.path(for:))
        if let lockPath, FileManager.default.fileExists(atPath: lockPath) {
            do {
                _ = try OutputLock(file: lockPath)
            } catch {
                if case let .held(pid) = error {
                    items.append(CheckItem(name: "running", ok: false, detail: "a booth is running on this output\(pid.map { " (pid \($0))" } ?? "")",
                                           fix: "stop it first (sudo systemctl stop kiosk-recorder) or check another output"))
                }
            }
        }
        return items
    }

    /// The `--on-take` hooks and `--on-delete` tombstones still owed in the output (HookQueueFile), a
    /// warning when there are some: with a hook set, or when a run left some.
    static func hooks(_ config: Configuration) -> CheckItem? {
        let file = config.storage.outputDirectory.map(HookQueueFile.path(folder:)) ?? config.storage.output.map(HookQueueFile.path(output:))
        let (saved, unreadable) = file.map(HookQueueFile.read) ?? ([], 0)
        let aside = file.map(HookQueueFile.keptAside) ?? []
        guard config.service.hooks || !saved.isEmpty || unreadable > 0 || !aside.isEmpty else { return nil }
        // What the booth will refuse to run, and what it found damaged, said before anything else.
        let takeFolder = file.map { PathText.folder(of: $0) } ?? ""
        let refused = saved.compactMap { $0.problem(takeFolder: takeFolder, shareFolder: config.share.folder) }
        let owed = saved.filter { $0.problem(takeFolder: takeFolder, shareFolder: config.share.folder) == nil }
        if let file, unreadable > 0 || !refused.isEmpty || !aside.isEmpty {
            var said: [String] = []
            if unreadable > 0 { said.append("\(unreadable) line\(unreadable == 1 ? "" : "s") of \(file) cannot be read (the booth keeps the file aside and runs the \(owed.count) that can)") }
            said += refused.map { "the booth refuses a hook in \(file): \($0)" }
            if let last = aside.last { said.append("a damaged queue was kept aside as \(last)\(aside.count > 1 ? " (and \(aside.count - 1) older)" : "")") }
            return CheckItem(name: "hooks", ok: true, detail: said.joined(separator: "; "),
                             fix: "look there for uploads owed that were lost and run them by hand, then remove the copies", warning: true)
        }
        guard let oldest = owed.first, let file else { return CheckItem(name: "hooks", ok: true, detail: "no --on-take or --on-delete hook pending") }
        let spent = config.service.hookAttempts.map { limit in owed.filter { $0.kind == .take && $0.attempts >= limit }.count } ?? 0
        let tombstones = owed.filter { $0.kind == .delete }
        let detail = "\(owed.count) hook\(owed.count == 1 ? "" : "s") pending (the oldest for \(oldest.path), tried \(oldest.attempts) times)"
            + (spent > 0 ? "; \(spent) out of tries (--hook-attempts)" : "")
            + (tombstones.isEmpty ? "" : "; \(tombstones.count) of them a deleted take's --on-delete (\(tombstones.map { PathText.name(of: $0.path) }.joined(separator: ", "))), its copies elsewhere not yet deleted")
        let unset = [config.service.onTake == nil && owed.contains { $0.kind == .take } ? "--on-take" : nil,
                     config.service.onDelete == nil && !tombstones.isEmpty ? "--on-delete" : nil].compactMap { $0 }
        let fix = !unset.isEmpty ? "set \(unset.joined(separator: " and ")) to run them, or remove \(file) to give them up"
            : "they run when the booth starts; check the hook's network and command (its output is in the booth's log)"
        return CheckItem(name: "hooks", ok: true, detail: detail, fix: fix, warning: true)
    }

    /// How fast the disk makes a take safe: a probe file in the output folder takes four fragments'
    /// worth of bytes, each synced as the writer syncs a fragment (fdatasync), and is removed.
    static func storage(_ folder: String, fragmentBytes: Int) -> CheckItem? {
        let path = PathText.joining(folder, ".kiosk-check-\(getpid()).probe")
        guard let file = try? NewFile.create(path) else { return nil }
        let item = storage(probe: file.rawValue, folder: folder, fragmentBytes: fragmentBytes)
        // Closed, then removed.
        _ = consume file
        unlink(path)
        return item
    }

    /// The probe's four fragments written into `fd` and synced.
    private static func storage(probe fd: Int32, folder: String, fragmentBytes: Int) -> CheckItem {
        let bytes = [UInt8](repeating: 0x5A, count: min(max(fragmentBytes, 64 * 1024), 4 * 1024 * 1024))
        var syncs: [Double] = []
        for round in 0..<4 {
            guard pwrite(fd, bytes, bytes.count, off_t(round * bytes.count)) == bytes.count else {
                return CheckItem(name: "storage", ok: false, detail: "writing a fragment's \(bytes.count / 1024) KiB into \(folder) failed: \(String(cString: strerror(errno)))",
                                 fix: "check the disk (dmesg, df) or use another one")
            }
            let took = Stopwatch()
            guard fdatasync(fd) == 0 else {
                return CheckItem(name: "storage", ok: false, detail: "syncing a fragment into \(folder) failed: \(String(cString: strerror(errno)))",
                                 fix: "check the disk (dmesg) or use another one")
            }
            syncs.append(took.seconds)
        }
        return storageItem(syncs: syncs, bytes: bytes.count)
    }

    /// The storage item for syncs of `bytes` that took `syncs` seconds: slow (failed) when one
    /// waited `SyncClock.slowAfter`, as the booth's `storageSlow`; a warning when one took longer
    /// than a fragment lasts, so the syncs fall behind the take and a power cut may lose more.
    public static func storageItem(syncs: [Double], bytes: Int) -> CheckItem {
        let sorted = syncs.sorted()
        let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2], worst = sorted.last ?? 0
        func ms(_ s: Double) -> String { s < 0.01 ? String(printf: "%.1f ms", s * 1000) : "\(Int((s * 1000).rounded())) ms" }
        let detail = "\(syncs.count) syncs of a fragment's \(bytes / 1024) KiB: median \(ms(median)), worst \(ms(worst))"
        let fix = "a faster disk: an A1/A2 SD card, or a USB SSD (each half second of a take is synced as it is recorded)"
        if worst >= SyncClock.slowAfter { return CheckItem(name: "storage", ok: false, detail: detail + ": too slow for a booth", fix: fix) }
        if worst > MovieSettings.defaultFragmentSeconds {
            return CheckItem(name: "storage", ok: true, detail: detail + ": slower than the takes' fragments come", fix: fix, warning: true)
        }
        return CheckItem(name: "storage", ok: true, detail: detail)
    }

    /// A rough rate for the estimate: the bit rate asked for, else what libx264 at crf 23 makes of a
    /// busy booth picture (about 0.1 bit per pixel), plus 128 kbit/s of sound.
    static func estimatedBytesPerSecond(_ config: Configuration) -> Double {
        let capture = config.capture
        let video = config.video.bitrate.map(Double.init) ?? Double(capture.size.planned.width * capture.size.planned.height) * Double(capture.fps) * 0.1
        return (video + 128_000) / 8
    }

    // MARK: - User

    static var userName: String {
        if let pw = getpwuid(geteuid()), let name = pw.pointee.pw_name { return String(cString: name) }
        return "uid \(geteuid())"
    }

    static func user() -> CheckItem {
        var count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
        count = getgroups(count, &groups)
        let names = groups.prefix(Int(max(count, 0))).compactMap { gid -> String? in
            guard let g = getgrgid(gid), let name = g.pointee.gr_name else { return nil }
            return String(cString: name)
        }
        let wanted = ["video", "audio", "input", "render"]
        let missing = geteuid() == 0 ? [] : wanted.filter { !names.contains($0) }
        let detail = "running as \(userName); groups: \(names.isEmpty ? "(none besides its own)" : names.sorted().joined(separator: ", "))"
        if missing.isEmpty { return CheckItem(name: "user", ok: true, detail: detail) }
        return CheckItem(name: "user", ok: true, detail: detail + "; not in \(missing.joined(separator: ", "))",
                         fix: "a booth on a bare device needs them: sudo usermod -aG \(missing.joined(separator: ",")) \(userName)", warning: true)
    }

    /// The readable report for stderr.
    public static func report(_ items: [CheckItem]) -> String {
        var lines = items.map { item in
            let mark = !item.ok ? "FAIL" : item.warning ? "warn" : " ok "
            var line = "[\(mark)] \(item.name): \(item.detail)"
            if let fix = item.fix, !item.ok || item.warning { line += "\n       fix: \(fix)" }
            return line
        }
        let failed = items.filter { !$0.ok }.count
        lines.append(failed == 0 ? "The booth can run." : "\(failed) problem(s): the booth cannot run until they are fixed.")
        return lines.joined(separator: "\n") + "\n"
    }
}
