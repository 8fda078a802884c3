// Test helper: Debian's nginx on a loopback port, serving a share folder with the very site file
// the set-up script's `share` installs (kiosk/share/nginx-site.conf), its address and path swapped in;
// and Debian's headless Chromium loading pages from it.
import Foundation
import Synchronization
import Testing
import KioskTestSupport

/// A server program started on a free loopback port: tries up to 20 ports from `base`, running
/// `executable` with `arguments(port)` and waiting up to 5 s for `answers(port)`; one that exits at
/// once (its port taken) is passed over. The running process and its port, or nil.
func startOnLoopback(_ executable: String, base: Int, step: Int, arguments: (Int) throws -> [String],
                     answers: (Int) -> Bool) throws -> (process: Process, port: Int)? {
    // Each start in this process from a port of its own: two tests starting servers at the same
    // moment would otherwise try the same port, and the one whose server lost the race would find
    // the other's answering there.
    let first = loopbackStarts.add(1, ordering: .relaxed).oldValue * 20
    for attempt in first..<first + 20 {
        let port = base + Int(getpid() % 20000) + attempt * step
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = try arguments(port)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        var answered = false
        _ = eventually(5) {
            answered = answers(port)
            return answered || !p.isRunning
        }
        if answered { return (p, port) }
        if p.isRunning { p.terminate() }
    }
    return nil
}

/// How many servers this process has started (`startOnLoopback`).
private let loopbackStarts = Atomic<Int>(0)

/// The HTTP status `curl` gets for a URL ("000" when nothing answers).
func httpStatus(_ url: String) -> String {
    (try? runProgram(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url]))?.stdout ?? "000"
}

/// nginx serving `shares` at `http://127.0.0.1:<port>/s/`. Stopped by `stop()` (and at deinit).
final class ShareServer: Sendable {
    let port: Int
    let folder: URL
    private let process: Process

    var base: String { "http://127.0.0.1:\(port)" }
    var accessLog: String { (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? "" }
    var errorLog: String { (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? "" }

    /// The site file as installed, for `shares` on `port` (loopback only), proxying to the console
    /// listening at `console` (its Unix socket) when one is given.
    static func site(shares: String, port: Int, console: String? = nil) throws -> String {
        let site = try String(contentsOf: repositoryRoot.appendingPathComponent("kiosk/share/nginx-site.conf"), encoding: .utf8)
        let lines = site.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("listen [::]:80") }
        let text = lines.joined(separator: "\n")
        try #require(text.contains("listen 80 default_server;") && text.contains("alias /srv/kiosk-recorder/share/;"))
        return text.replacingOccurrences(of: "listen 80 default_server;", with: "listen 127.0.0.1:\(port);")
            .replacingOccurrences(of: "alias /srv/kiosk-recorder/share/;", with: "alias \(shares)/;")
            .replacingOccurrences(of: "unix:/run/kiosk-recorder/console.sock;", with: "unix:\(console ?? "/run/kiosk-recorder/console.sock");")
    }

    /// `console`: the console's Unix socket the site's proxies go to (its node must be open to
    /// nginx's worker, `nobody` under a root master).
    init(shares: String, folder: URL, console: String? = nil) throws {
        self.folder = folder
        let temp = folder.appendingPathComponent("temp").path
        try FileManager.default.createDirectory(atPath: temp, withIntermediateDirectories: true)
        // A free port: nginx says so at once when the one tried is taken.
        let started = try startOnLoopback("/usr/sbin/nginx", base: 20000, step: 7, arguments: { port in
            try Self.site(shares: shares, port: port, console: console).write(to: folder.appendingPathComponent("site.conf"), atomically: true, encoding: .utf8)
            try """
                daemon off;
                worker_processes 1;
                pid \(folder.path)/nginx.pid;
                error_log \(folder.path)/error.log;
                events { worker_connections 64; }
                http {
                    access_log \(folder.path)/access.log;
                    client_body_temp_path \(temp)/body;
                    proxy_temp_path \(temp)/proxy;
                    fastcgi_temp_path \(temp)/fastcgi;
                    uwsgi_temp_path \(temp)/uwsgi;
                    scgi_temp_path \(temp)/scgi;
                    include \(folder.path)/site.conf;
                }
                """.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
            return ["-c", folder.appendingPathComponent("nginx.conf").path, "-e", folder.appendingPathComponent("error.log").path]
        }, answers: { port in httpStatus("http://127.0.0.1:\(port)/") == "404" })
        let (process, port) = try #require(started, "nginx did not start: \((try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? "")")
        self.process = process
        self.port = port
    }

    /// `curl` the path: the status, the body's bytes and the headers.
    func get(_ path: String, range: String? = nil) throws -> (status: Int, body: Data, headers: String) {
        let body = folder.appendingPathComponent("body-\(UUID().uuidString)")
        let headers = folder.appendingPathComponent("headers-\(UUID().uuidString)")
        let r = try runProgram(["curl", "-s", "-o", body.path, "-D", headers.path, "-w", "%{http_code}"] + (range.map { ["-r", $0] } ?? []) + [base + path])
        return (Int(r.stdout) ?? 0, (try? Data(contentsOf: body)) ?? Data(), (try? String(contentsOf: headers, encoding: .utf8)) ?? "")
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

/// `file` in a folder of its own (`folder`/site) as `name`, readable by nginx, served on loopback:
/// the server (stop it) and the folder.
func servedSite(_ folder: URL, file: String, as name: String) throws -> (server: ShareServer, site: String) {
    let site = folder.appendingPathComponent("site").path
    try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: file, toPath: site + "/" + name)
    chmod(site, 0o755)
    chmod(site + "/" + name, 0o644)
    return (try ShareServer(shares: site, folder: folder), site)
}

/// What a page served by `server` saw in Chromium: the probe page (written at `site`/probe.html,
/// readable by nginx) holds `body` and runs `script`, which calls `report(s)` once with what it
/// saw; the report is the request `/s/probe-result?s` nginx logged. Chromium's profile in `folder`.
func browserReport(_ server: ShareServer, site: String, body: String, script: String, folder: URL,
                   sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    try """
        <!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
        \(body)
        <script>
        function report(s) { new Image().src = '/s/probe-result?' + s; }
        \(script)
        </script>
        """.write(toFile: site + "/probe.html", atomically: true, encoding: .utf8)
    chmod(site + "/probe.html", 0o644)
    var result: String?
    _ = try chromium(server.base + "/s/probe.html", folder: folder) {
        result = ShareEndToEndTests.requests(server.accessLog).first { $0.hasPrefix("/s/probe-result?") }
        return result != nil
    }
    return try #require(result, "no report from the browser: \(server.accessLog) \(server.errorLog)", sourceLocation: sourceLocation)
}

/// Debian's Chromium, headless, on `url` until `done` says the access log has what the test waits
/// for (or `timeout`); killed then. Its own profile in `folder`.
func chromium(_ url: String, folder: URL, timeout: Double = 60, done: () -> Bool) throws -> Bool {
    let profile = folder.appendingPathComponent("chromium-\(UUID().uuidString)").path
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
    // As root (the tests), Chromium needs --no-sandbox; no GPU here.
    p.arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--mute-audio",
                   "--autoplay-policy=no-user-gesture-required", "--user-data-dir=\(profile)", url]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    defer {
        if p.isRunning { p.terminate() }
        p.waitUntilExit()
        try? FileManager.default.removeItem(atPath: profile)
    }
    return eventually(timeout, done)
}
