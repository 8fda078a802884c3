// `kiosk-recorder --check` through the binary: passing on the test and fake devices, failing with
// named problems and their fixes.
import Foundation
import KioskContract
import Testing
import KioskCore
import KioskTestSupport

@Suite("kiosk-recorder --check", .serialized)
struct CheckEndToEndTests {
    /// Runs `--check` with `arguments`: its exit status, the `check` event's items, stderr.
    /// `group`: a CPU cgroup's folder (`cpuGroup`) the recorder runs in.
    static func check(_ arguments: [String], environment: [String: String] = [:], group: String? = nil) throws -> (status: Int32, ok: Bool, items: [CheckItem], stderr: String) {
        let r = try group.map {
            try runProgram(["sh", "-c", "echo $$ > '\($0)/cgroup.procs' && exec \"$0\" \"$@\"", recorderPath, "--check"] + arguments,
                           environment: recorderEnvironment(environment), directory: repositoryRoot)
        } ?? run(["--check"] + arguments, environment: environment)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 1, "stdout carries only the check event: \(r.stdout)")
        guard let line = lines.first, case let .check(ok, items) = try EventEncoder().decode(line: String(line)) else {
            throw CheckFailure(description: "no check event: \(r.stdout) \(r.stderr)")
        }
        return (r.status, ok, items, r.stderr)
    }

    struct CheckFailure: Error, CustomStringConvertible { let description: String }

    static func item(_ name: String, in items: [CheckItem]) throws -> CheckItem {
        try #require(items.first { $0.name == name }, "no '\(name)' in \(items.map(\.name))")
    }

    @Test("passes on the fake V4L2 camera (a frame streamed) and the fake ALSA microphone (a second of sound)", needsFakeCamera)
    func passesOnFakeDevices() throws {
        let folder = try testFolder("check-pass")
        let device = try fakeCamera(in: folder, "card=Booth Cam\nformat=MJPG 640x480@30\n")
        let plugin = TestEnvironment.fakeMicrophonePlugin
        try """
            pcm_type.kiosk_fake_microphone { lib "\(plugin)" }
            pcm.kiosk_fake_mic { type kiosk_fake_microphone  beep 1 }
            """.write(to: folder.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let c = try Self.check(["--camera", device, "--microphone", "kiosk_fake_mic", "--size", "640x480",
                                "--output-dir", folder.appendingPathComponent("takes").path], environment: ["HOME": folder.path])
        #expect(c.status == 0 && c.ok, "\(c.stderr)")
        let failed = c.items.filter { !$0.ok }
        #expect(failed.isEmpty, "\(failed)")
        let camera = try Self.item("camera", in: c.items), microphone = try Self.item("microphone", in: c.items)
        #expect(camera.detail.contains("streams 640x480"))
        // The beep reaches full scale: the level is measured, not assumed.
        #expect(microphone.detail.contains("peak -6 dBFS"), "\(c.items)")
        #expect(c.stderr.contains("The booth can run."))
    }

    @Test("encodes a second of pictures with a camera's detail at the configured size and rate through libx264, each effort's time a picture, and its verdict is the one those times give (which effort this machine reaches is bench/'s, not a test's)")
    func encodingTrial() throws {
        let c = try Self.check(["--camera", "test", "--microphone", "test", "--size", "352x288", "--fps", "30"])
        let encoding = try Self.item("encoding", in: c.items)
        let detail = encoding.detail
        #expect(detail.contains("a second of 352x288 at 30 fps with a camera's detail through libx264: "), "\(detail)")
        // "veryfast 2 ms, superfast 2 ms, superfast at crf +3 1 ms a picture": each effort, in order.
        let list = try #require(detail.split(separator: "libx264: ").last?.split(separator: " a picture").first, "\(detail)")
        let measured = list.components(separatedBy: ", ").map { item -> (name: String, ms: Double) in
            let words = item.split(separator: " ")
            return (words.dropLast(2).joined(separator: " "), Double(words.dropLast().last ?? "") ?? -1)
        }
        #expect(measured.map(\.name) == ["veryfast", "superfast", "superfast at crf +3"], "\(detail)")
        #expect(measured.allSatisfy { $0.ms >= 0 }, "\(detail)")
        // The verdict from those times (each rounded to the millisecond: one either side of a bound
        // reads either way): the first effort whose picture fits in half the 33 ms between
        // pictures, else every 2nd or 3rd picture at the cheapest, else none.
        let bound = 1000.0 / 30 * 0.5
        func fits(_ ms: Double, keep: Double = 1) -> Bool? { ms <= bound * keep - 1 ? true : ms > bound * keep + 1 ? false : nil }
        if detail.hasPrefix("this machine sustains 352x288 at 30 fps at ") {
            #expect(encoding.ok && !encoding.warning, "\(encoding)")
            let chosen = try #require(measured.firstIndex { detail.hasPrefix("this machine sustains 352x288 at 30 fps at \($0.name) (") }, "\(detail)")
            #expect(fits(measured[chosen].ms) != false && measured[..<chosen].allSatisfy { fits($0.ms) != true }, "\(detail)")
        } else if detail.hasPrefix("this machine sustains 352x288 only at ") {
            #expect(encoding.ok && encoding.warning, "\(encoding)")
            let keep: Double = detail.contains("(every 2nd picture)") ? 2 : 3
            #expect(measured.allSatisfy { fits($0.ms) != true } && fits(measured.last!.ms, keep: keep) != false, "\(detail)")
        } else {
            #expect(!encoding.ok && detail.hasPrefix("this machine does not sustain 352x288"), "\(encoding)")
            #expect(fits(measured.last!.ms, keep: 3) != true, "\(detail)")
        }
    }

    @Test("with a background, a keying item: pictures of the configured size keyed with the configured key, their time a picture and the rate this machine sustains with the key agreeing, and its verdict against the camera's 30 the one that rate gives (how fast this machine keys is bench/'s); a key made too slow (KIOSK_TEST_SLOW_KEY=40) is below it, a warning that takes will step down; no background, no item")
    func keyingTrial() throws {
        let folder = try testFolder("check-keying")
        let background = folder.appendingPathComponent("background.png").path
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x203048:s=640x360", "-frames:v", "1", background], stdout: .discard)
        try #require(made.status == 0, "ffmpeg: \(made.stderr)")
        let arguments = ["--camera", "test", "--microphone", "test", "--size", "352x288", "--fps", "30"]
        for slow in [nil, "40"] {
            let c = try Self.check(arguments + ["--background", background], environment: slow.map { ["KIOSK_TEST_SLOW_KEY": $0] } ?? [:])
            let keying = try Self.item("keying", in: c.items), detail = keying.detail
            let head = "15 pictures of 352x288 keyed with --key green (despill on) in "
            #expect(detail.hasPrefix(head), "\(detail)")
            let ms = Double(detail.dropFirst(head.count).prefix { $0 != " " }) ?? -1
            let sustained = detail.components(separatedBy: "it sustains ").dropFirst().first.flatMap { Double($0.prefix { $0 != " " }) } ?? -1
            // The rate from the time (the booth keeps up while the key takes 85 % of the time between
            // pictures), each rounded to a tenth.
            #expect(ms > 0 && sustained >= 850 / (ms + 0.05) - 0.05 && sustained <= 850 / max(ms - 0.05, 0.01) + 0.05, "\(detail)")
            if detail.contains("at or above the camera's 30: every picture keyed") {
                #expect(keying.ok && !keying.warning && sustained >= 29.9, "\(keying)")
            } else if detail.contains("below the camera's 30: takes will step down to every ") {
                let every = detail.contains("every 2nd picture (15 a second)") ? 2.0 : detail.contains("every 3rd picture (10 a second)") ? 3 : 0
                #expect(keying.ok && keying.warning && keying.fix != nil && sustained < 30.1 && every * sustained >= 29.9
                        && (every == 2 || 2 * sustained < 30.1), "\(keying)")
            } else {
                #expect(!keying.ok && detail.contains("below the camera's 30 even at every 3rd picture") && 3 * sustained < 30.1, "\(keying)")
            }
            if slow != nil { #expect(ms >= 40 && !detail.contains("every picture keyed"), "\(detail)") }
            print("--check keying\(slow.map { " (KIOSK_TEST_SLOW_KEY=\($0))" } ?? ""): \(detail)")
        }
        let plain = try Self.check(arguments)
        #expect(!plain.items.contains { $0.name == "keying" }, "\(plain.items.map(\.name))")
    }

    /// A CPU cgroup holding what runs in it to `cores` of one core (v1's cpu.cfs_quota_us, v2's
    /// cpu.max, as bench/weak-machine makes it), removed after `body`; nil when this machine does
    /// not let the test make one (not root, no CPU controller).
    static func cpuGroup<T>(cores: Double, _ body: (String) throws -> T) throws -> T? {
        let manager = FileManager.default
        let (v1, v2) = ("/sys/fs/cgroup/cpu", "/sys/fs/cgroup")
        let group: String
        if manager.fileExists(atPath: v1 + "/cpu.cfs_quota_us") {
            group = v1 + "/kiosk-check-\(getpid())"
            guard (try? manager.createDirectory(atPath: group, withIntermediateDirectories: false)) != nil else { return nil }
            try "100000".write(toFile: group + "/cpu.cfs_period_us", atomically: false, encoding: .utf8)
            try "\(Int(cores * 100_000))".write(toFile: group + "/cpu.cfs_quota_us", atomically: false, encoding: .utf8)
        } else if let controllers = try? String(contentsOfFile: v2 + "/cgroup.subtree_control", encoding: .utf8), controllers.contains("cpu") {
            group = v2 + "/kiosk-check-\(getpid())"
            guard (try? manager.createDirectory(atPath: group, withIntermediateDirectories: false)) != nil else { return nil }
            try "\(Int(cores * 100_000)) 100000".write(toFile: group + "/cpu.max", atomically: false, encoding: .utf8)
        } else {
            return nil
        }
        // The recorder has exited by then: its group is empty.
        defer { rmdir(group) }
        return try body(group)
    }

    /// The encoding item's ms a picture at each effort, in its order.
    static func milliseconds(_ detail: String) -> [Int] {
        detail.split(separator: ",").compactMap { part in
            part.range(of: " ms").flatMap { Int(part[..<$0.lowerBound].split(separator: " ").last ?? "") }
        }
    }

    @Test("under a CPU quota (a cgroup of 0.2 of a core, when this machine lets the test make one) the trial judges a picture by the CPU time against the quota and says so: a picture at each effort at least 3 times as dear as against a quota of 0.99 (its CPU time, five times over)")
    func encodingTrialUnderQuota() throws {
        let arguments = ["--camera", "test", "--microphone", "none", "--size", "640x360", "--fps", "30"]
        let free = try Self.item("encoding", in: try Self.check(arguments).items)
        guard let held = try Self.cpuGroup(cores: 0.2, { try Self.check(arguments, group: $0) }) else {
            // This machine lets no test make a CPU cgroup (bench/weak-machine needs the same).
            print("EncodingTrialUnderQuota: no CPU cgroup could be made here; skipped")
            return
        }
        let encoding = try Self.item("encoding", in: held.items)
        #expect(encoding.detail.contains("(CPU time against a quota of 0.20 of a core)"), "\(encoding.detail)")
        #expect(!free.detail.contains("quota"), "\(free.detail)")
        // The same trial against (nearly) a whole core: the CPU time itself, with the same threads.
        // (Against the free machine's wall time the ratio swung with the load beside the test: a
        // CPU hog made the free pictures 2.5 times dearer and the ratio 1.8.)
        let whole = try #require(try Self.cpuGroup(cores: 0.99, { try Self.check(arguments, group: $0) }))
        let reference = try Self.item("encoding", in: whole.items)
        #expect(reference.detail.contains("(CPU time against a quota of 0.99 of a core)"), "\(reference.detail)")
        let (heldCosts, cpuCosts) = (Self.milliseconds(encoding.detail), Self.milliseconds(reference.detail))
        #expect(heldCosts.count == 3 && cpuCosts.count == 3, "\(encoding.detail)\n\(reference.detail)")
        #expect(zip(heldCosts, cpuCosts).allSatisfy { $0 >= 3 * max($1, 1) }, "under 0.2 \(heldCosts) ms, under 0.99 \(cpuCosts) ms")
    }

    @Test("each failure is one line with its fix: no raw XDG_RUNTIME_DIR error from the display's probe (no SDL_VIDEODRIVER, no XDG_RUNTIME_DIR, as a system service or root has it), and a microphone ALSA cannot open named in one short line (alsa-lib's first and last words, not each step of its config)")
    func oneLineFailures() throws {
        let folder = try testFolder("check-one-line")
        // A card found through a chain of config functions, the last of which finds nothing: alsa-lib
        // says a word at each step (Debian's `default` with no sound card said eight, 600 characters).
        try #"pcm.kiosk_chain { type hw card { @func card_inum card { @func concat strings [ "kiosk_" { @func refer name "defaults.kiosk_missing" } ] } } }"#
            .write(to: folder.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let r = try runProgram(["env", "-u", "SDL_VIDEODRIVER", "-u", "XDG_RUNTIME_DIR", "-u", "WAYLAND_DISPLAY", "-u", "DISPLAY", recorderPath, "check",
                                "--camera", "test", "--microphone", "kiosk_chain"],
                               environment: recorderEnvironment(["HOME": folder.path]), directory: repositoryRoot)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(r.status == 1 && !r.stderr.contains("XDG_RUNTIME_DIR"), "\(r.stderr)")
        let microphone = try #require(lines.first { $0.hasPrefix("[FAIL] microphone: ") }, "\(r.stderr)")
        #expect(microphone.count <= 200 && microphone.contains("defaults.kiosk_missing' … ") && microphone.contains("Unknown PCM kiosk_chain"),
                "\(microphone)")
        // Every failure: its line, then its fix's line.
        for (i, line) in lines.enumerated() where line.hasPrefix("[FAIL] ") {
            #expect(i + 1 < lines.count && lines[i + 1].hasPrefix("       fix: "), "\(line) has no fix under it: \(r.stderr)")
        }
        // Nothing before the report but the booth's own log lines.
        let before = lines.prefix { !$0.hasPrefix("[") }
        #expect(before.allSatisfy { $0.hasPrefix("kiosk-recorder: ") }, "\(before)")
    }

    @Test("fails on a missing camera, naming it with the fix; the rest still checked")
    func missingCamera() throws {
        let c = try Self.check(["--camera", "/dev/video-missing", "--microphone", "test"])
        #expect(c.status == 1 && !c.ok)
        let camera = try Self.item("camera", in: c.items)
        #expect(!camera.ok && camera.detail.contains("/dev/video-missing does not exist") && camera.fix != nil, "\(camera)")
        let microphone = try Self.item("microphone", in: c.items)
        #expect(microphone.ok)
        #expect(c.stderr.contains("[FAIL] camera") && c.stderr.contains("fix: "), "\(c.stderr)")
    }

    @Test("fails on an output folder on a read-only file system, and names a booth already running on the output by its pid")
    func unwritableFolderAndRunningBooth() throws {
        let folder = try testFolder("check-ro")
        let mount = try runProgram(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", folder.path], stdout: .inherit, stderr: .inherit)
        try #require(mount.status == 0, "mounting a read-only tmpfs needs root")
        defer { _ = try? runProgram(["umount", folder.path], stdout: .inherit, stderr: .inherit) }
        let c = try Self.check(["--camera", "test", "--microphone", "test", "--output", folder.appendingPathComponent("take.mov").path])
        #expect(c.status == 1 && !c.ok)
        let output = try Self.item("output", in: c.items)
        #expect(!output.ok && output.detail.contains("read-only"), "\(output)")
        #expect(output.fix?.contains("read-write") == true && output.fix?.contains("chown") == false, "\(output)")

        let takes = try testFolder("check-running")
        let r = try RecorderProcess(booth + ["--output-dir", takes.path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let busy = try Self.check(["--camera", "test", "--microphone", "test", "--output-dir", takes.path])
        #expect(busy.status == 1)
        let running = try Self.item("running", in: busy.items)
        #expect(!running.ok && running.detail.contains("pid \(r.process.processIdentifier)"), "\(running)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("storage: a fragment's worth of bytes synced four times in the output folder, timed; a disk whose syncs take 0.6 s is a warning with the fix; nothing is left in the folder")
    func storage() throws {
        let folder = try testFolder("check-storage")
        let slow = folder.appendingPathComponent("slow-now").path
        let arguments = ["--camera", "test", "--microphone", "none", "--size", "1280x720",
                         "--output", folder.appendingPathComponent("takes/take.mov").path]
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("takes"), withIntermediateDirectories: true)
        let quick = try Self.item("storage", in: Self.check(arguments).items)
        // 1280x720 at 30 fps: about 0.1 bit a pixel and 128 kbit/s of sound, half a second of it (180,800 bytes).
        #expect(quick.ok && !quick.warning && quick.detail.contains("4 syncs of a fragment's 176 KiB"), "\(quick)")
        #expect(FileManager.default.createFile(atPath: slow, contents: Data()))
        let c = try Self.check(arguments, environment: [
            "LD_PRELOAD": failingSyscallsShim, "KIOSK_SLOW_CALLS": "fdatasync", "KIOSK_SLOW_TRIGGER": slow, "KIOSK_SLOW_MS": "600",
        ])
        let slowItem = try Self.item("storage", in: c.items)
        #expect(slowItem.ok && slowItem.warning && slowItem.fix?.contains("SSD") == true, "\(slowItem)")
        let worst = slowItem.detail.split(separator: " ").firstIndex(of: "worst").map { slowItem.detail.split(separator: " ")[$0 + 1] }
        #expect(worst.flatMap { Int($0) }.map { $0 >= 600 && $0 < 1500 } == true, "\(slowItem.detail)")
        #expect(c.stderr.contains("[warn] storage"), "\(c.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("takes").path).isEmpty, "no probe left")
    }

    /// Input devices only their group may read (input, as on Debian), checked by a user outside it
    /// (root reads anything): the item fails naming the group and the user; with one device
    /// readable by all it passes.
    @Test("input devices the user cannot read: the input item fails naming the group to join")
    func unreadableInput() throws {
        let folder = try testFolder("check-input")
        let devices = folder.appendingPathComponent("input")
        try FileManager.default.createDirectory(at: devices, withIntermediateDirectories: true)
        // Debian's input group where it exists (a container may lack it: video stands in).
        let group = try #require(getgrnam("input") ?? getgrnam("video"), "no input or video group")
        let groupName = String(cString: group.pointee.gr_name), gid = group.pointee.gr_gid
        for name in ["event0", "event1"] {
            let path = devices.appendingPathComponent(name).path
            try Data().write(to: URL(fileURLWithPath: path))
            #expect(chmod(path, 0o660) == 0)
            #expect(chown(path, 0, gid) == 0)
        }
        #expect(chmod(folder.path, 0o755) == 0 && chmod(devices.path, 0o755) == 0)
        func checkAsNobody() throws -> CheckItem {
            let r = try runProgram(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", recorderPath, "--check",
                                    "--camera", "test", "--microphone", "test", "--output", "/tmp/kiosk-check-input-\(getpid()).mov"],
                                   environment: recorderEnvironment(["KIOSK_INPUT_DIR": devices.path, "HOME": "/nonexistent"]),
                                   directory: repositoryRoot)
            let line = try #require(r.stdout.split(separator: "\n").first, "\(r.stderr)")
            guard case let .check(_, items) = try EventEncoder().decode(line: String(line)) else {
                throw CheckFailure(description: "no check event: \(r.stdout) \(r.stderr)")
            }
            return try Self.item("input", in: items)
        }
        let closed = try checkAsNobody()
        #expect(!closed.ok && closed.detail == "none of the 2 input devices is readable by this user", "\(closed)")
        #expect(closed.fix?.contains("sudo usermod -aG \(groupName) nobody") == true, "\(closed)")
        #expect(chmod(devices.appendingPathComponent("event1").path, 0o664) == 0)
        let open = try checkAsNobody()
        #expect(open.ok && open.detail == "1 of 2 input devices readable", "\(open)")
    }

    @Test("with --share-dir: the booth's own Wi-Fi, not installed (fine: the venue's network) or installed (then its share URL is 10.42.0.1's, and --check says it is not up here); the share URL's host one of this machine's addresses or named as not")
    func share() throws {
        let folder = try testFolder("check-share")
        let shares = folder.appendingPathComponent("share").path
        let local = try Self.check(["--camera", "test", "--microphone", "test", "--share-dir", shares, "--share-url", "http://127.0.0.1/s/{token}/"])
        let none = try Self.item("hotspot", in: local.items), here = try Self.item("share URL", in: local.items)
        #expect(none.ok && none.detail.contains("no booth Wi-Fi installed (sudo /usr/share/kiosk-recorder/setup hotspot makes one)"), "\(none)")
        #expect(here.ok && here.warning && here.detail.contains("127.0.0.1, the share URL's host, is this machine's loopback address"), "\(here)")
        // The hotspot's keyfile installed (no NetworkManager runs here): --share-url defaults to its address.
        let nm = folder.appendingPathComponent("NetworkManager")
        try FileManager.default.createDirectory(at: nm.appendingPathComponent("system-connections"), withIntermediateDirectories: true)
        try Data("[connection]\nid=kiosk-hotspot\n".utf8).write(to: nm.appendingPathComponent("system-connections/kiosk-hotspot.nmconnection"))
        let hotspot = try Self.check(["--camera", "test", "--microphone", "test", "--share-dir", shares], environment: ["KIOSK_NM_DIR": nm.path])
        let installed = try Self.item("hotspot", in: hotspot.items), away = try Self.item("share URL", in: hotspot.items)
        #expect(!hotspot.ok && hotspot.status == 1)
        #expect(!installed.ok && installed.detail.contains("is installed, but NetworkManager does not say whether it is up"), "\(installed)")
        #expect(!away.ok && away.detail.hasPrefix("10.42.0.1, the share URL's host, is not one of this machine's addresses")
                && away.fix?.contains("nmcli connection up kiosk-hotspot") == true, "\(away)")
    }

    @Test("with --share-dir: check writes a page into the share folder and fetches it back through --share-url (nginx with the shipped site on loopback): fetched, or a 404 (another folder served) or nothing answering fails with the fix, https is not fetched (a warning); the probe is removed; a loopback or link-local host is a one-line warning with the fix")
    func shareProbe() throws {
        let folder = try testFolder("check-share-probe")
        let shares = folder.appendingPathComponent("share").path, other = folder.appendingPathComponent("other").path
        try FileManager.default.createDirectory(atPath: shares, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        chmod(shares, 0o755)
        chmod(other, 0o755)
        let server = try ShareServer(shares: shares, folder: folder.appendingPathComponent("nginx"))
        defer { server.stop() }
        let template = "\(server.base)/s/{token}/"
        let served = try Self.check(["--camera", "test", "--microphone", "none", "--share-dir", shares, "--share-url", template])
        let site = try Self.item("share site", in: served.items), url = try Self.item("share URL", in: served.items)
        #expect(site.ok && site.detail.hasPrefix("a page written into \(shares) was fetched back at \(server.base)/s/"), "\(site)")
        // nginx's log has the fetch of the page (the token's folder), with a 200.
        #expect(server.accessLog.contains("kiosk-recorder-check") && server.accessLog.contains("\" 200 "), "\(server.accessLog)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shares).isEmpty, "the probe is removed")
        #expect(url.ok && url.warning && url.detail == "127.0.0.1, the share URL's host, is this machine's loopback address: no guest's phone can reach it", "\(url)")
        #expect(url.fix?.hasPrefix("set share-url to the booth's address on the guests' network, e.g. http://") == true, "\(url)")
        #expect(served.stderr.contains("[warn] share URL: 127.0.0.1, the share URL's host, is this machine's loopback address"), "\(served.stderr)")
        // The site serves another folder: 404, named, with the alias to fix.
        let elsewhere = try Self.check(["--camera", "test", "--microphone", "none", "--share-dir", other, "--share-url", template])
        let wrong = try Self.item("share site", in: elsewhere.items)
        #expect(!wrong.ok && !elsewhere.ok && elsewhere.status == 1)
        #expect(wrong.detail.hasSuffix("the web server answered 404 (it does not serve \(other) there)"), "\(wrong)")
        #expect(wrong.fix?.contains("alias \(other)/;") == true, "\(wrong)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: other).isEmpty, "the probe is removed")
        // An https:// address is not fetched: a warning, not a failure.
        let secure = try Self.check(["--camera", "test", "--microphone", "none", "--share-dir", shares, "--share-url", "https://127.0.0.1/s/{token}/"])
        let unfetched = try Self.item("share site", in: secure.items)
        #expect(unfetched.ok && unfetched.warning && unfetched.detail.hasSuffix("was not fetched: check fetches http:// addresses only"), "\(unfetched)")
        // Nothing answers there: fails with the set-up script's command.
        server.stop()
        let gone = try Self.check(["--camera", "test", "--microphone", "none", "--share-dir", shares, "--share-url", template])
        let down = try Self.item("share site", in: gone.items)
        #expect(!down.ok && down.detail.contains("could not be fetched") && down.detail.contains("Connection refused"), "\(down)")
        #expect(down.fix == "serve \(shares) at /s/ with a web server: sudo /usr/share/kiosk-recorder/setup share installs nginx and its site", "\(down)")
    }
}
