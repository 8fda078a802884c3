// The hostile-timestamp corpus (issue 12, Tests/KioskTestSupport/HostileMovies.swift) through the
// real binary: `--play` on each file, and Start over one left beside a take's marker (MovieProbe).
import Foundation
import KioskContract
import KioskCore
import KioskSystem
import KioskTestSupport
import Testing

@Suite("kiosk-recorder and hostile files")
struct HostileFilesEndToEndTests {
    /// How one `--play` went.
    struct Played: Sendable {
        var status: Int32?
        var events: [KioskEvent]
        /// Seconds from playbackStarted to playbackFinished (nil: one of them did not come).
        var playing: Double?
        var stderr: String
    }

    @Test("--play on the hostile-timestamp corpus: each ends by itself within its length + 5 s, exit 0 (1 when there is nothing to play), playbackFinished last; none traps or hangs")
    func playCorpus() throws {
        let files = try HostileMovies.make(in: try testFolder("hostile"))
        let results = Locked<[String: Played]>([:])
        // Two at a time (one per core).
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for (movie, path) in files.enumerated().filter({ $0.offset % 2 == lane }).map(\.element) {
                guard let r = try? RecorderProcess(["--play", path, "--windowed", "640x480"]) else { continue }
                let started = r.wait(for: "playbackStarted", timeout: 5)
                let finished = r.wait(for: "playbackFinished", timeout: movie.content + 5)
                let status = r.exitStatus(timeout: 3)
                if status == nil { r.kill(SIGKILL) }
                let playing = started.flatMap { s in finished.map { $0 - s } }
                results.withLock { $0[movie.name] = Played(status: status, events: r.events, playing: playing, stderr: r.stderr) }
            }
        }
        let all = results.withLock { $0 }
        for (movie, path) in files {
            guard let played = all[movie.name] else { Issue.record("\(movie) was not played"); continue }
            let crash = played.stderr.components(separatedBy: "\n").first { $0.contains("runtime failure") } ?? ""
            print("hostile --play: \(movie): exit \(played.status.map(String.init) ?? "none (hung)"), "
                  + "\(played.events.map(\.name)), \(played.playing.map { "\($0) s" } ?? "-") \(crash)")
            #expect(played.playing != nil, "\(movie) did not end within \(movie.content + 5) s: \(played.events) \(crash)")
            #expect(played.events.first == .playbackStarted(path: path), "\(movie): \(played.events)")
            if movie.plays {
                #expect(played.status == 0, "\(movie): exit \(String(describing: played.status)) \(crash)")
                #expect(played.events.last == .playbackFinished(reason: .end), "\(movie): \(played.events)")
                #expect(!played.events.contains { $0.name == "error" }, "\(movie): \(played.events)")
            } else {
                #expect(played.status == 1, "\(movie): exit \(String(describing: played.status)) \(crash)")
                #expect(played.events.last == .playbackFinished(reason: .error), "\(movie): \(played.events)")
            }
        }
    }

    @Test("Start over a hostile file left beside a take's marker: it is probed without a trap, reported recovered with its real length, and the take starts")
    func recoverHostileFile() throws {
        let folder = try testFolder("hostile-recover")
        let names: Set = ["offset-max.mkv", "jump-forward.mkv", "jump-to-max.mkv"]
        let files = try HostileMovies.make(in: folder, HostileMovies.all.filter { names.contains($0.name) })
        let output = folder.appendingPathComponent("take.mov").path
        for (movie, path) in files {
            try FileManager.default.copyItem(atPath: path, toPath: output)
            try Data().write(to: URL(fileURLWithPath: folder.appendingPathComponent(".take.mov.recording").path))
            let r = try RecorderProcess(booth + ["--output", output])
            #expect(r.wait(for: "ready") != nil, "\(movie): \(r.stderr)")
            r.command("start")
            #expect(r.wait(for: "recordingStarted") != nil, "\(movie): \(r.names) \(r.stderr)")
            r.command("quit")
            #expect(r.exitStatus() == 0, "\(movie): \(r.stderr)")
            let recovered = r.events.compactMap { e -> (String, Double)? in
                if case let .recordingRecovered(path, duration) = e { (path, duration) } else { nil }
            }
            #expect(recovered.count == 1, "\(movie): \(r.names)")
            if let (kept, duration) = recovered.first {
                #expect(duration > 0 && duration <= movie.content + 5, "\(movie): recovered as \(duration) s")
                try? FileManager.default.removeItem(atPath: kept)
            }
            try? FileManager.default.removeItem(atPath: output)
        }
    }
}
