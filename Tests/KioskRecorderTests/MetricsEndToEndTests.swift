// `--metrics-file` through the binary: Debian's node_exporter (prometheus-node-exporter), started on
// loopback with only its textfile collector on the booth's metrics folder, serves the figures the
// booth reported on stdout; a reader looping over the file during 50 takes never sees half of one;
// docs/deploy.md's "Watching a fleet" steps run as written (paths and the user swapped for the test's).
import Foundation
import KioskContract
import Testing
import KioskCore
import KioskSystem
import KioskTestSupport

/// Debian's node_exporter on a loopback port, only its textfile collector, reading `directory`.
final class NodeExporter: Sendable {
    let port: Int
    private let process: Process

    static let binary = "/usr/bin/prometheus-node-exporter"

    init(directory: String) throws {
        // A free port: node_exporter exits at once when the one tried is taken.
        let started = try startOnLoopback(Self.binary, base: 30000, step: 11, arguments: { port in
            ["--collector.disable-defaults", "--collector.textfile", "--collector.textfile.directory", directory,
             "--web.listen-address", "127.0.0.1:\(port)"]
        }, answers: { port in httpStatus("http://127.0.0.1:\(port)/metrics") == "200" })
        let (process, port) = try #require(started, "node_exporter did not start")
        self.process = process
        self.port = port
    }

    /// The samples of a scrape with curl: name with labels → value.
    func scrape() throws -> [String: Double] {
        let r = try runProgram(["curl", "-s", "http://127.0.0.1:\(port)/metrics"])
        return Exposition.samples(r.stdout) ?? [:]
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

/// Prometheus' text format, read strictly enough to see a torn file.
enum Exposition {
    /// Every sample (`name{labels}` → value), or nil when a line is neither a comment nor a sample
    /// or the text does not end in a newline.
    static func samples(_ text: String) -> [String: Double]? {
        guard text.hasSuffix("\n") else { return nil }
        var out: [String: Double] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") { continue }
            guard line.range(of: #"^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*")*\})? [^ ]+$"#,
                                    options: .regularExpression) != nil,
                  let space = line.lastIndex(of: " ") else { return nil }
            let value = String(line[line.index(after: space)...])
            guard let number = Double(value) ?? ["+Inf": .infinity, "-Inf": -.infinity, "NaN": .nan][value] else { return nil }
            out[String(line[..<space])] = number
        }
        return out
    }
}

@Suite("--metrics-file through the binary, node_exporter's textfile collector", .serialized)
struct MetricsEndToEndTests {
    static let version = "kiosk_build_info{version=\"\(KioskVersion.string)\"}"

    static func results(_ r: RecorderProcess) -> [RecordingResult] {
        r.events.compactMap { if case let .recordingFinished(result) = $0 { result } else { nil } }
    }

    /// Scrapes until `check` holds for the samples (the file follows within about a second), at most `timeout`.
    static func scrape(_ exporter: NodeExporter, timeout: Double = 5, until check: ([String: Double]) -> Bool) throws -> [String: Double] {
        var samples = try exporter.scrape(), failure: (any Error)?
        _ = eventually(timeout) {
            if check(samples) { return true }
            do { samples = try exporter.scrape() } catch { failure = error; return true }
            return false
        }
        if let failure { throw failure }
        return samples
    }

    @Test("node_exporter serves the booth's figures as stdout reported them: takes recorded, used, discarded, dropped pictures, the camera up, the level, the disk's seconds, a hook pending then done, takes shared, the last take's time, the version")
    func nodeExporter() throws {
        let folder = try testFolder("metrics-exporter")
        let metrics = folder.appendingPathComponent("metrics")
        try FileManager.default.createDirectory(at: metrics, withIntermediateDirectories: true)
        let exporter = try NodeExporter(directory: metrics.path)
        defer { exporter.stop() }
        let r = try RecorderProcess(booth + ["--output-dir", folder.appendingPathComponent("takes").path, "--session", "loop",
                                             "--metrics-file", metrics.appendingPathComponent("kiosk.prom").path, "--on-take", "sleep 3",
                                             "--share-dir", folder.appendingPathComponent("shares").path, "--share-url", "http://127.0.0.1/s/{token}/"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        var samples = try Self.scrape(exporter) { $0[Self.version] == 1 }
        #expect(samples["kiosk_takes_total"] == 0 && samples["kiosk_camera_up"] == 1, "\(samples)")
        #expect(samples["kiosk_last_take_timestamp_seconds"] == nil && samples["kiosk_disk_remaining_seconds"] == nil, "\(samples)")

        // A take long enough for a rate, used (its hook runs 3 s) and shared; a short one retaken; a
        // short one used and shared.
        _ = try ServiceEndToEndTests.take(r, seconds: 1.5, count: 1)
        r.command("useVideo")
        samples = try Self.scrape(exporter) { $0["kiosk_hooks_pending"] == 1 }
        #expect(samples["kiosk_hooks_pending"] == 1 && samples["kiosk_takes_used_total"] == 1, "\(samples)")
        #expect(r.events.allSatisfy { $0.name != "hookFinished" }, "the hook ended before the scrape saw it pending: \(r.rawLines)")
        try #require(r.wait(for: "takeShared", count: 1) != nil, "\(r.rawLines) \(r.stderr)")
        r.command("done")
        _ = try ServiceEndToEndTests.take(r, seconds: 0.5, count: 2)
        r.command("retake")
        _ = try ServiceEndToEndTests.take(r, seconds: 0.5, count: 3)
        r.command("useVideo")
        try #require(r.wait(for: "takeShared", count: 2) != nil, "\(r.rawLines) \(r.stderr)")
        r.command("done")
        try #require(r.wait(for: "hookFinished", count: 2, timeout: 15) != nil, "\(r.rawLines)")

        let results = Self.results(r)
        let recorded = Double(results.filter(\.success).count)
        let used = Double(r.names.filter { $0 == "videoRecorderDidFinishRecordingVideoWithOutputPath" }.count)
        let dropped = Double(results.map(\.droppedFrames).reduce(0, +))
        let shared = Double(r.names.filter { $0 == "takeShared" }.count)
        #expect(recorded == 3 && used == 2 && shared == 2, "\(r.rawLines)")
        for case let .takeShared(_, _, folder, _) in r.events { #expect(try PhoneFile.problems(folder + "/video.mp4", rotation: nil) == []) }
        samples = try Self.scrape(exporter) {
            $0["kiosk_takes_total"] == recorded && $0["kiosk_takes_used_total"] == used && $0["kiosk_takes_shared_total"] == shared
                && $0["kiosk_hooks_pending"] == 0
        }
        #expect(samples["kiosk_takes_total"] == recorded, "\(samples)")
        #expect(samples["kiosk_takes_used_total"] == used, "\(samples)")
        #expect(samples["kiosk_takes_discarded_total"] == 1, "\(samples)")
        #expect(samples["kiosk_takes_shared_total"] == shared, "\(samples)")
        #expect(samples["kiosk_frames_dropped_total"] == dropped, "\(samples)")
        #expect(samples["kiosk_camera_up"] == 1, "\(samples)")
        #expect(samples["kiosk_hooks_pending"] == 0, "\(samples)")
        #expect(samples[Self.version] == 1, "\(samples)")
        let level = try #require(samples["kiosk_microphone_level_dbfs"], "\(samples)")
        #expect(level >= -100 && level <= 0)
        // The disk's seconds: its free bytes at the first take's rate (bytes over seconds, within a factor of 2).
        let disk = try #require(samples["kiosk_disk_remaining_seconds"], "\(samples)")
        var fs = statvfs()
        try #require(statvfs(folder.path, &fs) == 0)
        let free = Double(fs.f_bavail) * Double(fs.f_frsize) - 1024 * 1024
        let rate = Double(results[0].bytes) / results[0].duration
        #expect(disk > free / rate / 2 && disk < free / rate * 2, "\(disk) s, \(free) bytes free at \(rate) bytes/s")
        let last = try #require(samples["kiosk_last_take_timestamp_seconds"], "\(samples)")
        #expect(abs(Date().timeIntervalSince1970 - last) < 30, "\(last)")
        // node_exporter read the file without complaint.
        let errors = try runProgram(["curl", "-s", "http://127.0.0.1:\(exporter.port)/metrics"]).stdout
        #expect(errors.contains("node_textfile_scrape_error 0"), "\(errors)")

        r.command("quit")
        #expect(r.exitStatus() == 0)
        // The file stays, with the last figures.
        let final = try Exposition.samples(String(contentsOf: metrics.appendingPathComponent("kiosk.prom"), encoding: .utf8))
        #expect(final?["kiosk_takes_total"] == recorded && final?["kiosk_takes_used_total"] == used, "\(String(describing: final))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: metrics.path) == ["kiosk.prom"])
    }

    @Test("the file is never seen half written: a reader looping over it while the booth makes 50 takes reads a whole exposition every time")
    func neverHalfWritten() throws {
        let folder = try testFolder("metrics-atomic")
        let path = folder.appendingPathComponent("kiosk.prom").path
        let r = try RecorderProcess(booth + ["--output-dir", folder.appendingPathComponent("takes").path, "--session", "loop",
                                             "--metrics-file", path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let stop = Locked(false)
        let reads = Locked((count: 0, distinct: Set<String>(), bad: [String]()))
        let reader = Thread {
            while !stop.withLock({ $0 }) {
                // Missing only before the first write; torn never.
                guard let data = FileManager.default.contents(atPath: path) else {
                    if reads.withLock({ $0.count }) > 0 { reads.withLock { $0.bad.append("<missing>") } }
                    continue
                }
                let text = String(decoding: data, as: UTF8.self)
                let whole = Exposition.samples(text).map { $0[Self.version] == 1 } ?? false
                reads.withLock { reads in
                    reads.count += 1
                    reads.distinct.insert(text)
                    if !whole && reads.bad.count < 5 { reads.bad.append(text) }
                }
            }
        }
        reader.start()
        let began = ProcessInfo.processInfo.systemUptime
        for n in 1...50 {
            r.command("start")
            try #require(r.wait(for: "recordingStarted", count: n) != nil, "\(r.rawLines.suffix(5)) \(r.stderr)")
            // Stopped once it has pictures (a fraction of a second).
            try #require(r.waitForPictures(), "\(r.rawLines.suffix(5))")
            r.command("stop")
            try #require(r.wait(for: "recordingFinished", count: n) != nil, "\(r.rawLines.suffix(5))")
            r.command(n % 2 == 0 ? "useVideo" : "retake")
        }
        let seconds = ProcessInfo.processInfo.systemUptime - began
        r.command("quit")
        #expect(r.exitStatus(timeout: 20) == 0)
        stop.withLock { $0 = true }
        #expect(eventually(10) { reader.isFinished })
        let (count, distinct, bad) = reads.withLock { ($0.count, $0.distinct.count, $0.bad) }
        #expect(bad.isEmpty, "\(bad)")
        // The file changed under the reader many times: written at most once a second while the
        // counts change, so a new one for (at least) every other second the 50 takes lasted.
        let expected = min(10, max(3, Int(seconds / 2)))
        #expect(count > 1000 && distinct >= expected, "\(count) reads, \(distinct) different files over \(Int(seconds)) s")
        let recorded = Double(Self.results(r).filter(\.success).count)
        let final = try #require(Exposition.samples(String(contentsOfFile: path, encoding: .utf8)))
        #expect(recorded == 50 && final["kiosk_takes_total"] == recorded, "\(final)")
        #expect(final["kiosk_takes_used_total"] == 25 && final["kiosk_takes_discarded_total"] == 25, "\(final)")
        #expect(r.events.allSatisfy { $0.name != "error" }, "\(r.rawLines.filter { $0.contains("error") })")
    }

    /// docs/deploy.md's "Watching a fleet".
    static var fleetSection: String {
        let text = DeployDocTests.text
        guard let start = text.range(of: "## Watching a fleet") else { return "" }
        let rest = text[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// The section's fenced blocks, in order.
    static func blocks(_ section: String) -> [String] {
        section.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map { block in
            block.element.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
        }
    }

    @Test("docs/deploy.md's fleet steps as written: the package is Debian's node_exporter; dpkg-statoverride gives the folder to the kiosk group (its own admin folder, the test's group and folder); the config line starts a booth whose figures the curl line prints",
          .enabled(if: getuid() == 0, "dpkg-statoverride sets an owner: root only"))
    func deployDocSteps() throws {
        let blocks = Self.blocks(Self.fleetSection)
        try #require(blocks.count == 3, "\(Self.fleetSection)")
        let steps = blocks[0].split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        try #require(steps.count == 2, "\(steps)")
        #expect(steps[0] == "sudo apt install prometheus-node-exporter")
        // The package it installs is the one whose binary the other tests run.
        let owner = try runProgram(["dpkg", "-S", NodeExporter.binary]).stdout
        #expect(owner.hasPrefix("prometheus-node-exporter:"), "\(owner)")
        let system = "/var/lib/prometheus/node-exporter"
        // Debian's node_exporter reads that folder unless told otherwise.
        let help = try runProgram([NodeExporter.binary, "--help"], stderr: .capture)
        #expect((help.stdout + help.stderr).contains("--collector.textfile.directory=\"\(system)\""))

        let folder = try testFolder("metrics-deploy")
        let metrics = folder.appendingPathComponent("node-exporter"), admin = folder.appendingPathComponent("dpkg")
        for made in [metrics, admin] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        let group = try runProgram(["id", "-gn"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(steps[1].hasPrefix("sudo dpkg-statoverride ") && steps[1].hasSuffix(" kiosk 2775 \(system)"), "\(steps[1])")
        let statoverride = steps[1].dropFirst("sudo ".count)
            .replacingOccurrences(of: "dpkg-statoverride ", with: "dpkg-statoverride --admindir \(admin.path) ")
            .replacingOccurrences(of: " kiosk ", with: " \(group) ").replacingOccurrences(of: system, with: metrics.path)
        let ran = try runProgram(["bash", "-c", statoverride])
        #expect(ran.status == 0, "\(statoverride): \(ran.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: metrics.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o2775 && (attributes[.groupOwnerAccountName] as? String) == group, "\(attributes)")
        #expect(try String(contentsOf: admin.appendingPathComponent("statoverride"), encoding: .utf8) == "root \(group) 2775 \(metrics.path)\n")

        // The config line, with the test's folder.
        let line = blocks[1].trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line == "metrics-file = \(system)/kiosk.prom")
        let config = folder.appendingPathComponent("kiosk.conf")
        try (line.replacingOccurrences(of: system, with: metrics.path) + "\n").write(to: config, atomically: true, encoding: .utf8)
        let exporter = try NodeExporter(directory: metrics.path)
        defer { exporter.stop() }
        let r = try RecorderProcess(booth + ["--output-dir", folder.appendingPathComponent("takes").path, "--config", config.path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        _ = try Self.scrape(exporter) { $0[Self.version] == 1 }

        // The check, against the test's node_exporter.
        let check = blocks[2].trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(check == "curl -s http://localhost:9100/metrics | grep '^kiosk_'")
        let printed = try runProgram(["bash", "-c", check.replacingOccurrences(of: "localhost:9100", with: "127.0.0.1:\(exporter.port)")])
        #expect(printed.status == 0)
        let lines = printed.stdout.split(separator: "\n")
        #expect(lines.contains("\(Self.version) 1") && lines.contains("kiosk_takes_total 0") && lines.contains("kiosk_camera_up 1"), "\(printed.stdout)")
        #expect(lines.allSatisfy { $0.hasPrefix("kiosk_") })
        r.command("cancel")
        #expect(r.exitStatus() == 0)
    }
}
