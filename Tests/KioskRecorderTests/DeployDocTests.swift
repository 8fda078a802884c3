// docs/deploy.md against the binary it deploys: the runtime packages it lists are the ones the
// recorder links, and the commands it gives for checking a booth by hand end by themselves.
import Foundation
import Testing
import KioskTestSupport

@Suite("docs/deploy.md, as written")
struct DeployDocTests {
    static var text: String { (try? String(contentsOf: repositoryRoot.appendingPathComponent("docs/deploy.md"), encoding: .utf8)) ?? "" }

    /// The packages the runtime paragraph names (each in backquotes), from "needs just Debian's" to
    /// the end of its paragraph.
    static func listedPackages(_ text: String) -> Set<String> {
        guard let start = text.range(of: "needs just Debian's") else { return [] }
        let paragraph = String(text[start.lowerBound...]).components(separatedBy: "\n\n").first ?? ""
        return Set(paragraph.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element))
    }

    /// The Debian package holding `path` (usrmerge: /lib is /usr/lib), or nil.
    static func package(of path: String) -> String? {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        for candidate in [path, resolved, "/usr" + path, "/usr" + resolved] {
            if let run = try? runProgram(["dpkg", "-S", candidate], stderr: .discard), run.status == 0,
               let line = run.stdout.split(separator: "\n").first, let colon = line.firstIndex(of: ":") {
                return String(line[..<colon])
            }
        }
        return nil
    }

    /// Essential on every Debian system (priority required), so not listed.
    static let everywhere: Set<String> = ["libc6", "libgcc-s1", "libstdc++6", "zlib1g"]

    @Test("the runtime packages listed are the binary's own needs: each library it links (readelf's NEEDED, the Swift runtime aside: the release build links it in) or opens on demand (libavfilter) comes from a listed package or one every Debian system has")
    func runtimePackages() throws {
        let needed = try runProgram(["readelf", "-d", recorderPath]).stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        try #require(needed.contains("libavcodec.so.59"), "\(needed)")
        let resolved = try runProgram(["ldd", recorderPath]).stdout.split(separator: "\n")
        let listed = Self.listedPackages(Self.text)
        var missing: [String] = []
        for library in needed {
            guard let line = resolved.first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(library + " ") }),
                  let path = line.split(separator: " ").first(where: { $0.hasPrefix("/") }).map(String.init) else { continue }
            // The debug build links Swift's runtime from the toolchain; the installed one has it inside.
            if path.hasPrefix("/opt/swift/") || path.contains("/swift/linux/") { continue }
            let package = try #require(Self.package(of: path), "no package holds \(path)")
            if !listed.contains(package) && !Self.everywhere.contains(package) { missing.append("\(library) (\(package))") }
        }
        // A library the binary opens itself when first needed (libavfilter, with the first filter
        // graph) is in no NEEDED: its soname is a string in the binary, found where ldconfig says.
        let binary = try Data(contentsOf: URL(fileURLWithPath: recorderPath))
        let onDemand = try #require(binary.range(of: Data("libavfilter.so.".utf8)).map { range in
            "libavfilter.so." + String(decoding: binary[range.upperBound...].prefix { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)
        }, "the binary names no libavfilter to open")
        let cache = try runProgram(["ldconfig", "-p"]).stdout.split(separator: "\n")
        let onDemandPath = try #require(cache.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(onDemand + " ") }?
            .components(separatedBy: " => ").last, "ldconfig knows no \(onDemand)")
        let onDemandPackage = try #require(Self.package(of: onDemandPath), "no package holds \(onDemandPath)")
        if !listed.contains(onDemandPackage) { missing.append("\(onDemand) (\(onDemandPackage), opened on demand)") }
        #expect(missing.isEmpty, "docs/deploy.md does not list: \(missing); it lists \(listed.sorted())")
        // The words in Japanese and Chinese need a face DejaVu lacks: the list says where it comes from.
        #expect(listed.contains("fonts-noto-cjk"), "\(listed.sorted())")
        // Emoji in colour on screen need the colour face, in one colour on the film's cards Symbola.
        #expect(listed.contains("fonts-noto-color-emoji") && listed.contains("fonts-symbola"), "\(listed.sorted())")
    }

    @Test("the command that shows the encoder auto picks runs as written and ends by itself, saying which")
    func encoderAutoCommand() throws {
        let row = try #require(Self.text.split(separator: "\n").first { $0.hasPrefix("| the encoder `auto` picks |") })
        let command = try #require(row.components(separatedBy: "`").dropFirst(3).first?.replacingOccurrences(of: "\\|", with: "|"), "\(row)")
        let bin = URL(fileURLWithPath: recorderPath).deletingLastPathComponent().path
        let started = ProcessInfo.processInfo.systemUptime
        let run = try runProgram(["bash", "-c", command],
                                 environment: recorderEnvironment(["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]))
        #expect(ProcessInfo.processInfo.systemUptime - started < 15, "\(command)")
        #expect(run.stdout.contains("video encoder auto: libx264"), "\(command): \(run.stdout)")
    }

    @Test("a booth checked by hand: every command line of the table that starts the recorder (not --check) ends by itself: a timeout, or a command it is given")
    func handCommandsEnd() {
        let rows = Self.text.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains("kiosk-recorder --camera") }
        #expect(!rows.isEmpty)
        for row in rows {
            #expect(row.contains("timeout "), "a command that may never return: \(row)")
        }
        // The first steps: the takes' folder exists before --check looks at it.
        let steps = Self.text.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first ?? ""
        let folder = steps.range(of: "/var/lib/kiosk-recorder"), check = steps.range(of: "--check")
        #expect(folder != nil && check != nil && folder!.lowerBound < check!.lowerBound, "\(steps)")
    }
}
