// `check`'s fetch of the share site: a page written into the share folder as the booth writes a
// take's (a folder named by a token, `--share-file-mode`), fetched back at the address its QR code
// would give (`--share-url`) with a plain HTTP GET, and removed. A web server that is not there,
// serves another folder, or cannot read this one is named, with its fix.
import FoundationEssentials
import Glibc
import KioskContract
import KioskOptions
import KioskStorage
import KioskSystem
import KioskUI

extension Preflight {
    /// The share site as a phone sees it: `folder`/<token>/index.html fetched at `template`'s address.
    static func shareProbe(folder: String, template: String, fileMode: Int) -> CheckItem {
        let name = "share site"
        let setup = setupCommand("share")
        let folderMode = ShareFiles.folderMode(for: fileMode)
        if access(folder, F_OK) != 0 {
            // The booth makes it so at its first share; made now, for the fetch.
            guard mkdir(folder, 0o700) == 0, chmod(folder, mode_t(folderMode)) == 0 else {
                return CheckItem(name: name, ok: false, detail: "\(folder) (--share-dir) does not exist and cannot be made: \(String(cString: strerror(errno)))",
                                 fix: "make it for the booth's user: sudo install -d -o \(userName) -m 0755 \(folder) (\(setup) makes /srv/kiosk-recorder/share)")
            }
        }
        guard let token = try? ShareToken.make() else { return CheckItem(name: name, ok: false, detail: "no random token for the probe", fix: "check /dev/urandom") }
        let page = folder + "/" + token
        let marker = "kiosk-recorder check \(token)\n"
        guard mkdir(page, mode_t(folderMode)) == 0 else {
            return CheckItem(name: name, ok: false, detail: "\(folder) (--share-dir) is not writable by \(userName): \(String(cString: strerror(errno)))",
                             fix: "give it to the booth's user: sudo chown \(userName) \(folder)")
        }
        defer {
            unlink(page + "/index.html")
            rmdir(page)
        }
        _ = chmod(page, mode_t(folderMode))
        guard let file = try? NewFile.create(page + "/index.html", mode: fileMode & 0o777, readable: true),
              write(file.rawValue, marker, marker.utf8.count) == marker.utf8.count else {
            return CheckItem(name: name, ok: false, detail: "writing a page into \(folder) failed: \(String(cString: strerror(errno)))", fix: "check the disk (df, dmesg)")
        }
        _ = consume file
        let url = ShareAddress.url(template: template, token: token)
        guard url.hasPrefix("http://") else {
            return CheckItem(name: name, ok: true, detail: "\(url) was not fetched: check fetches http:// addresses only",
                             fix: "open a take's share page in a phone's browser before the event", warning: true)
        }
        let got: HTTPAnswer
        switch httpGet(url) {
        case let .failure(reason):
            return CheckItem(name: name, ok: false, detail: "\(url) could not be fetched: \(reason)",
                             fix: "serve \(folder) at /s/ with a web server: \(setup) installs nginx and its site")
        case let .success(answer):
            got = answer
        }
        if got.status == 200, got.body == Array(marker.utf8) {
            return CheckItem(name: name, ok: true, detail: "a page written into \(folder) was fetched back at \(url)")
        }
        let detail = "a page written into \(folder) was fetched at \(url): the web server answered \(got.status)"
        switch got.status {
        case 200:
            return CheckItem(name: name, ok: false, detail: detail + " with another page (it serves another folder there)",
                             fix: "point the site at \(folder) (nginx: alias \(folder)/; in /etc/nginx/sites-available/kiosk-recorder-share) or set share-dir to the folder it serves")
        case 403:
            return CheckItem(name: name, ok: false, detail: detail + " (forbidden: its user cannot read the folder)",
                             fix: "let the web server's user (www-data) read it: sudo chmod o+x on \(folder)'s parents, share-file-mode 0644 or 0604")
        default:
            return CheckItem(name: name, ok: false, detail: detail + " (it does not serve \(folder) there)",
                             fix: "point the site at \(folder) (nginx: alias \(folder)/; in /etc/nginx/sites-available/kiosk-recorder-share) or set share-dir to the folder it serves")
        }
    }

    /// How to run the packaged set-up script's `part` (share, hotspot): the copy beside this
    /// binary's installation (`<bin>/../share/kiosk-recorder/setup`), else the package's.
    static func setupCommand(_ part: String) -> String {
        let bin = URL(fileURLWithPath: Assets.executablePath()).deletingLastPathComponent()
        let beside = bin.appendingPathComponent("../share/kiosk-recorder/setup").standardizedFileURL.path
        return "sudo \(access(beside, X_OK) == 0 ? beside : "/usr/share/kiosk-recorder/setup") \(part)"
    }

    /// A host a phone on the guests' network cannot reach: a loopback or link-local one; nil when
    /// it is not.
    public static func unreachableKind(host: String, resolved: [String]) -> String? {
        let addresses = resolved.isEmpty ? [host] : resolved
        func loopback(_ a: String) -> Bool { a.hasPrefix("127.") || a == "::1" || a.lowercased() == "localhost" }
        func linkLocal(_ a: String) -> Bool { a.hasPrefix("169.254.") || a.lowercased().hasPrefix("fe80:") }
        if host.lowercased() == "localhost" || addresses.allSatisfy(loopback) { return "loopback" }
        if addresses.allSatisfy({ loopback($0) || linkLocal($0) }) { return "link-local" }
        return nil
    }

    public struct HTTPAnswer: Sendable {
        public var status: Int
        public var body: [UInt8]
    }

    /// GET `url` (http only) over a plain socket: HTTP/1.0, the connection closed by the server,
    /// at most 3 s to connect and 3 s more for the answer, at most 64 KiB of it. (The console's
    /// probe of the share site too.)
    public static func httpGet(_ url: String) -> Result<HTTPAnswer, HTTPFailure> {
        guard url.hasPrefix("http://") else { return .failure(HTTPFailure("check fetches http:// addresses only; open it in a browser")) }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let path = rest.dropFirst(authority.count)
        var host = String(authority), port = "80"
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { port = String(after.dropFirst()) }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            port = String(authority[authority.index(after: colon)...])
        }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, port, &hints, &list) == 0 else { return .failure(HTTPFailure("\(host) does not resolve")) }
        defer { freeaddrinfo(list) }
        let request = "GET \(path.isEmpty ? "/" : String(path)) HTTP/1.0\r\nHost: \(authority)\r\nUser-Agent: kiosk-recorder-check\r\nConnection: close\r\n\r\n"
        var lastError = "nothing answered"
        var entry = list
        while let e = entry {
            entry = e.pointee.ai_next
            switch exchange(e.pointee, request: Array(request.utf8)) {
            case let .success(bytes): return parse(bytes)
            case let .failure(failure): lastError = failure.reason
            }
        }
        return .failure(HTTPFailure("\(host) port \(port): \(lastError)"))
    }

    public struct HTTPFailure: Error, Sendable {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// One connection to `address`: `request` sent, everything read until the server closes.
    private static func exchange(_ address: addrinfo, request: [UInt8]) -> Result<[UInt8], HTTPFailure> {
        guard let socket = try? FileDescriptor.socket(address.ai_family, address.ai_socktype | Int32(SOCK_NONBLOCK.rawValue), call: "socket") else {
            return .failure(HTTPFailure(String(cString: strerror(errno))))
        }
        return exchange(socket, address: address, request: request)
    }

    /// `exchange`'s work on its socket (closed when the caller's value goes).
    private static func exchange(_ socket: borrowing FileDescriptor, address: addrinfo, request: [UInt8]) -> Result<[UInt8], HTTPFailure> {
        let fd = socket.rawValue
        func waitFor(_ events: Int32, until deadline: Int64) -> Bool {
            var p = pollfd(fd: fd, events: Int16(events), revents: 0)
            while true {
                let left = Int32(max(0, (deadline - MonotonicClock.now()) / 1_000_000))
                let n = poll(&p, 1, left)
                if n < 0, errno == EINTR { continue }
                return n > 0
            }
        }
        var deadline = MonotonicClock.now() + 3_000_000_000
        if connect(fd, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { return .failure(HTTPFailure(String(cString: strerror(errno)))) }
            guard waitFor(Int32(POLLOUT), until: deadline) else { return .failure(HTTPFailure("no connection within 3 s")) }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else { return .failure(HTTPFailure(String(cString: strerror(error)))) }
        }
        deadline = MonotonicClock.now() + 3_000_000_000
        var sent = 0
        while sent < request.count {
            guard waitFor(Int32(POLLOUT), until: deadline) else { return .failure(HTTPFailure("the request could not be sent within 3 s")) }
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EAGAIN || errno == EINTR { continue }
            guard n > 0 else { return .failure(HTTPFailure(String(cString: strerror(errno)))) }
            sent += n
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while answer.count < 65536 {
            guard waitFor(Int32(POLLIN), until: deadline) else { return .failure(HTTPFailure("no whole answer within 3 s")) }
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0, errno == EAGAIN || errno == EINTR { continue }
            guard n >= 0 else { return .failure(HTTPFailure(String(cString: strerror(errno)))) }
            if n == 0 { break }
            answer += chunk[0..<n]
        }
        return .success(answer)
    }

    /// An HTTP/1.x answer's status and body.
    private static func parse(_ bytes: [UInt8]) -> Result<HTTPAnswer, HTTPFailure> {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else {
            return .failure(HTTPFailure("the answer is not HTTP"))
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let words = head.prefix { $0 != "\r" }.split(separator: " ")
        guard words.count >= 2, words[0].hasPrefix("HTTP/1."), let status = Int(words[1]) else { return .failure(HTTPFailure("the answer is not HTTP")) }
        return .success(HTTPAnswer(status: status, body: Array(bytes[(end + 4)...])))
    }
}
