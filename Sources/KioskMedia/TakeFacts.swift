// What the operator's console lists of a take, read from its file alone: its length and its
// question from libavformat's header (not its packets: a listing of a hundred takes opens a hundred
// headers), and its library thumbnail when the library has not made one.
import CFFmpeg
import FoundationEssentials
import KioskContract
import KioskStorage

public enum TakeFacts {
    /// The take's seconds (the header's, else its packets') and its question (its `title` tag);
    /// nil when the file does not open as a movie.
    public static func read(_ path: String) -> (duration: Double?, question: String?)? {
        guard let demuxer = try? Demuxer(path: path, interruption: Interruption(), timeout: MovieProbe.readTimeout) else { return nil }
        let stated = demuxer.format.pointee.duration
        let duration = stated > 0 && stated != kiosk_AV_NOPTS_VALUE() ? Double(stated) / Double(AV_TIME_BASE) : MovieProbe.playableDuration(path)
        return (duration.map { ($0 * 1000).rounded() / 1000 }, demuxer.tag("title"))
    }

    /// The choices the take's guest allowed (`--consent`), as its `comment` tag says them; nil: none said
    /// (made without consent), or the file does not open.
    public static func consent(of path: String) -> [ConsentChoice]? {
        guard let demuxer = try? Demuxer(path: path, interruption: Interruption(), timeout: MovieProbe.readTimeout) else { return nil }
        return Consent.choices(inTag: demuxer.tag("comment"))
    }

    /// The JPEG of the take's first key frame, as the library's thumbnail is made (nil: it does not decode).
    public static func thumbnail(of path: String) -> [UInt8]? {
        try? TakeLibrary.thumbnailJPEG(of: path)
    }
}

extension Demuxer {
    /// The file's tag `key` (`title`, `comment`), trimmed; nil when it has none.
    func tag(_ key: String) -> String? {
        guard let entry = av_dict_get(format.pointee.metadata, key, nil, 0), let value = entry.pointee.value else { return nil }
        let text = String(cString: value).trimmingWhitespace
        return text.isEmpty ? nil : text
    }
}
