// libv4l2 and ALSA link and answer: a missing device is ENOENT, the "null" PCM opens.
import Foundation
import Testing
@testable import KioskCapture

@Suite("V4L2 and ALSA (real libraries)")
struct DeviceSmokeTests {
    @Test("opening a missing device gives ENOENT and a message that says what to do")
    func missingCamera() {
        do {
            _ = try V4L2Device(path: "/nonexistent/video9")
            Issue.record("opened a device that does not exist")
        } catch {
            #expect(error.errno == ENOENT)
            #expect(error.call == "open(/nonexistent/video9)")
            #expect(error.description.contains("No such file or directory"))
            #expect(error.description.contains("--list-cameras"))
        }
    }

    @Test("a file that is not a camera is refused by libv4l2 (its own VIDIOC_QUERYCAP) with ENOTTY")
    func notACamera() {
        #expect(throws: V4L2Error(errno: ENOTTY, call: "v4l2_fd_open(/dev/null)")) { try V4L2Device(path: "/dev/null") }
    }

    @Test("snd_pcm_open of the null PCM works for capture")
    func nullPCM() throws {
        let pcm = try ALSAPCM(name: "null", direction: .capture)
        #expect(pcm.typeName == "NULL")
    }

    @Test("an unknown PCM name fails with ALSA's error text, and alsa-lib's own words in it (not raw on stderr)")
    func unknownPCM() {
        do {
            _ = try ALSAPCM(name: "kiosk_no_such_pcm", direction: .capture)
            Issue.record("opened a PCM that does not exist")
        } catch {
            #expect(error.code < 0)
            #expect(error.description.hasPrefix("snd_pcm_open(kiosk_no_such_pcm) (ALSA: "), "\(error)")
            #expect(error.description.contains("Unknown PCM kiosk_no_such_pcm") && error.description.hasSuffix(": No such file or directory"),
                    "\(error)")
            // One line a person reads: alsa-lib's first and last words, not each step between.
            #expect(error.description.count < 200 && !error.description.contains("\n"), "\(error)")
        }
    }

    @Test("opens on several threads at once each keep alsa-lib's words about their own PCM")
    func unknownPCMsAtOnce() async {
        let words = await withTaskGroup(of: [String].self) { group in
            for n in 0..<4 {
                group.addTask {
                    // A thread of its own (not the cooperative pool's, where tasks share threads).
                    await withCheckedContinuation { (done: CheckedContinuation<[String], Never>) in
                        Thread.detachNewThread {
                            done.resume(returning: (0..<20).map { _ in
                                do {
                                    _ = try ALSAPCM(name: "kiosk_no_such_pcm_\(n)", direction: .capture)
                                    return "opened"
                                } catch {
                                    let said = String(describing: error)
                                    return said.contains("Unknown PCM kiosk_no_such_pcm_\(n)") ? "" : said
                                }
                            })
                        }
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(words.count == 80 && words.allSatisfy { $0.isEmpty }, "\(words.filter { !$0.isEmpty }.prefix(3))")
    }
}
