// `--check`'s look at sharing, with `--share-dir`: whether the booth's own Wi-Fi (the set-up
// script's `hotspot`) is installed and up, as NetworkManager says, whether the share URL's host is
// one of this machine's addresses (a QR code that names another machine sends every guest there) and
// one a phone can reach (not loopback, not link-local), and whether the web server there serves the
// share folder (Preflight+ShareProbe).
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskOptions
import KioskSystem

extension Preflight {
    static func share(_ config: Configuration, environment: KioskEnvironment) -> [CheckItem] {
        guard config.share.folder != nil, let template = config.share.urlTemplate else { return [] }
        var items: [CheckItem] = []
        let keyfile = environment.hotspotConnection
        var hotspotUp = false
        if FileManager.default.fileExists(atPath: keyfile) {
            if let active = activeConnections() {
                hotspotUp = active.contains("kiosk-hotspot")
                items.append(hotspotUp
                    ? CheckItem(name: "hotspot", ok: true, detail: "the booth's own Wi-Fi (kiosk-hotspot) is up, the booth at \(ShareAddress.hotspotAddress)")
                    : CheckItem(name: "hotspot", ok: false, detail: "the booth's own Wi-Fi (\(keyfile)) is installed but not up",
                                fix: "sudo nmcli connection up kiosk-hotspot (it needs a Wi-Fi device that can be an access point)"))
            } else {
                items.append(CheckItem(name: "hotspot", ok: false, detail: "\(keyfile) is installed, but NetworkManager does not say whether it is up (nmcli missing, or NetworkManager not running)",
                                       fix: "start NetworkManager (sudo systemctl enable --now NetworkManager), or bring the access point up with hostapd and dnsmasq (/usr/share/doc/kiosk-recorder/deploy.md)"))
            }
        } else {
            items.append(CheckItem(name: "hotspot", ok: true, detail: "no booth Wi-Fi installed (\(setupCommand("hotspot")) makes one): phones reach the share URL over the venue's network"))
        }
        guard let host = Self.host(of: template) else { return items }
        let mine = Self.localAddresses()
        let resolved = Self.addresses(of: host)
        let reachable = mine.filter { Self.unreachableKind(host: $0, resolved: [$0]) == nil }
        let elsewhere = reachable.first { !$0.contains(":") } ?? reachable.first.map { "[\($0)]" } ?? "<its address>"
        if !resolved.isEmpty, resolved.contains(where: mine.contains) {
            if let kind = Self.unreachableKind(host: host, resolved: resolved) {
                items.append(CheckItem(name: "share URL", ok: true, detail: "\(host), the share URL's host, is this machine's \(kind) address: no guest's phone can reach it",
                                       fix: "set share-url to the booth's address on the guests' network, e.g. http://\(elsewhere)/s/{token}/", warning: true))
            } else {
                items.append(CheckItem(name: "share URL", ok: true, detail: "\(host), the share URL's host, is this machine (\(resolved.joined(separator: ", ")))"))
            }
            if let folder = config.share.folder {
                items.append(Self.shareProbe(folder: folder, template: template, fileMode: config.share.fileMode))
            }
        } else {
            let fix = host == ShareAddress.hotspotAddress && !hotspotUp
                ? "bring the booth's own Wi-Fi up (sudo nmcli connection up kiosk-hotspot): the booth has \(host) there"
                : "set share-url to an address of this machine, e.g. http://\(elsewhere)/s/{token}/"
            items.append(CheckItem(name: "share URL", ok: false,
                                   detail: "\(host), the share URL's host, is not one of this machine's addresses (\(mine.joined(separator: ", ")))", fix: fix))
        }
        return items
    }

    /// The host of an http(s) URL template (an IPv6 address without its brackets); nil when none.
    static func host(of template: String) -> String? {
        let parts = template.split(separator: "://", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let rest = parts[1]
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") { return String(rest[rest.index(after: rest.startIndex)..<close]) }
        let host = rest.prefix { $0 != "/" && $0 != ":" && $0 != "?" }
        return host.isEmpty ? nil : String(host)
    }

    /// This machine's IPv4 and IPv6 addresses, as text (`getifaddrs`).
    static func localAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: [String] = []
        var entry = list
        while let e = entry {
            if let address = e.pointee.ifa_addr, let text = numeric(address) { found.append(text) }
            entry = e.pointee.ifa_next
        }
        return found
    }

    /// What `host` resolves to (`getaddrinfo`), as text.
    static func addresses(of host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var found: [String] = []
        var entry = list
        while let e = entry {
            if let address = e.pointee.ai_addr, let text = numeric(address), !found.contains(text) { found.append(text) }
            entry = e.pointee.ai_next
        }
        return found
    }

    private static func numeric(_ address: UnsafeMutablePointer<sockaddr>) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { a in
                var raw = a.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count)).map { _ in Self.text(buffer) }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { a in
                var raw = a.pointee.sin6_addr
                return inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)).map { _ in Self.text(buffer) }
            }
        default:
            return nil
        }
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// NetworkManager's active connections by name (`nmcli -t -f NAME connection show --active`);
    /// nil when nmcli is missing or NetworkManager does not answer.
    static func activeConnections() -> [String]? {
        guard let pipe = try? FileDescriptor.pipe() else { return nil }
        let reader = pipe.read, write = pipe.write
        let spawned = ShellCommand.spawn("exec nmcli -t -f NAME connection show --active 2>/dev/null", environment: [:], stdout: write.rawValue)
        // Ours closed at once, so the read below ends when nmcli's copy does.
        _ = consume write
        guard case let .success(pid) = spawned else { return nil }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(reader.rawValue, &chunk, chunk.count)
            if n > 0 { output += chunk[0..<n] } else if n < 0, errno == EINTR { continue } else { break }
        }
        guard ShellCommand.wait(pid) == 0 else { return nil }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
