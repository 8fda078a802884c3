// The operator's say over the takes through the binary and its control socket: `hideTake` takes a
// take out of the slideshow's and the library's listing and out of `reel`'s film, and its share
// page (Debian's nginx with the shipped site) answers 404; `showTake` brings them back; `deleteTake`
// takes the file, its thumbnail, its share folder and its line away, so `reel` and the library no
// longer list it; each survives a restart of the booth. Paths that are not its takes are refused.
import Foundation
import Testing
import KioskContract
import KioskCore
import KioskTestSupport

@Suite("the operator's takes, end to end", .serialized)
struct OperatorTakesEndToEndTests {
    typealias Closed = ClosedBoothEndToEndTests

    /// The takes `reel --json` would put in its film (its reelFinished's count) and the names it
    /// skipped, by running it.
    static func filmed(_ takes: String, _ folder: URL) throws -> Int {
        let output = folder.appendingPathComponent("film-\(UUID().uuidString.prefix(8)).mp4").path
        let r = try RecorderProcess(["reel", takes, "--output", output, "--json", "--size", "320x180"])
        let status = r.exitStatus(timeout: 120)
        // None left to film: reel says so and exits 1.
        if status == 1, r.stderr.contains("no takes in \(takes)") { return 0 }
        #expect(status == 0, "\(r.stderr)")
        guard case let .reelFinished(_, _, count)? = r.events.last(where: { $0.name == "reelFinished" }) else { return -1 }
        return count
    }

    /// The booth on `takes` with sharing and the library, its socket, ready.
    static func started(_ folder: URL, takes: String, shares: String) throws -> (RecorderProcess, String) {
        let socket = folder.appendingPathComponent("booth-\(UUID().uuidString.prefix(6)).sock").path
        let r = try RecorderProcess(booth + ["--output-dir", takes, "--session", "loop", "--library", "--share-dir", shares,
                                             "--share-url", ShareEndToEndTests.template, "--control-socket", socket])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        return (r, socket)
    }

    /// Whether the library's `state` comes to list exactly `paths` (newest first).
    static func library(_ r: RecorderProcess, shows paths: [String]) -> Bool {
        r.askState(timeout: 10) { reply in
            if case let .state(mode, _, _, _, _, _, _, _, library?, _, _) = reply, mode == "library", library.map(\.path) == paths { true } else { nil }
        }
    }

    /// `send` a JSON command line: its exit status and output.
    static func send(_ line: String, _ socket: String) throws -> (status: Int32, stdout: String) {
        let sent = try run(["send", line, "--control-socket", socket])
        return (sent.status, sent.stdout)
    }

    @Test("hideTake: out of the library, reel's film and its share page (404), across a restart; showTake brings them back; deleteTake: the file, thumbnail, share folder and line gone, reel and the library without it, across a restart; other paths refused (badCommand), a bad reason too")
    func hideShowDelete() throws {
        let folder = try testFolder("operator-takes")
        let takes = folder.appendingPathComponent("takes").path, shares = folder.appendingPathComponent("share").path
        let nginx = folder.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: nginx, withIntermediateDirectories: true)
        let server = try ShareServer(shares: shares, folder: nginx)
        defer { server.stop() }
        var (r, socket) = try Self.started(folder, takes: takes, shares: shares)
        let (first, second) = try ShareEndToEndTests.twoSharedTakes(r)
        #expect(try server.get("/s/\(first.token)/").status == 200)
        #expect(try Self.filmed(takes, folder) == 2)

        // Refused: not one of its takes, and nothing touched. (The refusal comes from the file worker,
        // before or after send's answer, the state reply, as the two meet in the booth's inbox: it is
        // the booth's next error either way.)
        let paths = ["/etc/passwd", takes + "/../takes/" + URL(fileURLWithPath: first.take).lastPathComponent, takes + "/.kiosk-recorder.takes"]
        for (n, path) in paths.enumerated() {
            _ = try Self.send(#"{"command":"hideTake","path":"\#(path)"}"#, socket)
            #expect(r.wait(for: "error", count: n + 1) != nil, "\(path): \(r.names)")
        }
        let refusals = r.events.compactMap { if case let .error(code, message) = $0 { (code, message) } else { nil } }
        #expect(refusals.count == 3 && refusals.allSatisfy { $0.0 == .badCommand && $0.1.hasPrefix("'hideTake': ") }, "\(refusals)")
        #expect(!r.names.contains("takeHidden") && Closed.listed(takes).count == 2)
        let badReason = try run(["send", #"{"command":"deleteTake","path":"\#(first.take)","reason":"bored"}"#, "--control-socket", socket])
        #expect(badReason.status == 2, "\(badReason.stderr)")

        // Hide the first: its page 404, out of the library and the film.
        let hidden = try Self.send(#"{"command":"hideTake","path":"\#(first.take)"}"#, socket)
        #expect(hidden.status == 0, "\(hidden.stdout)")
        #expect(r.wait(for: "takeHidden") != nil, "\(r.names)")
        #expect(try server.get("/s/\(first.token)/").status == 404)
        #expect(try server.get("/s/\(second.token)/").status == 200)
        r.command("openLibrary")
        #expect(Self.library(r, shows: [second.take]))
        r.command("back")
        #expect(try Self.filmed(takes, folder) == 1)

        // Delete the second (a guest's request): every file of it gone.
        #expect(try Self.send(#"{"command":"deleteTake","path":"\#(second.take)","reason":"guest"}"#, socket).status == 0)
        #expect(r.wait(for: "takeDeleted") != nil, "\(r.names)")
        #expect(r.events.contains(.takeDeleted(path: second.take, reason: .guest)))
        let secondName = URL(fileURLWithPath: second.take).lastPathComponent
        for gone in [second.take, takes + "/." + secondName + ".thumb.jpg", second.folder] {
            #expect(!FileManager.default.fileExists(atPath: gone), "\(gone)")
        }
        #expect(try server.get("/s/\(second.token)/").status == 404)

        // A restart: still hidden, still deleted.
        r.command("quit")
        #expect(r.exitStatus() == 0)
        (r, socket) = try Self.started(folder, takes: takes, shares: shares)
        #expect(try server.get("/s/\(first.token)/").status == 404)
        #expect(try Self.filmed(takes, folder) == 0)
        #expect(Closed.listed(takes) == [URL(fileURLWithPath: first.take).lastPathComponent])

        // Shown again: its page, the library and the film have it.
        #expect(try Self.send(#"{"command":"showTake","path":"\#(first.take)"}"#, socket).status == 0)
        #expect(r.wait(for: "takeShown") != nil)
        #expect(try server.get("/s/\(first.token)/").status == 200)
        #expect(try Self.filmed(takes, folder) == 1)
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}
