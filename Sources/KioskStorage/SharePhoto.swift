// A photo's share folder (with `--share-dir`): `DIR/<token>/` with photo.jpg and index.html
// (KioskCore's SharePage.photoHTML), made whole as a take's is (ShareFiles.publish: written in
// `.partial-<token>`, each file synced, the folder synced, renamed, DIR synced). photo.jpg is a copy
// of the photo's bytes, never a hard link: the share file must be readable by the web server
// (`--share-file-mode`, 0644) while the photo keeps its own mode (0600, `--file-mode`), and one
// inode has one mode; a copy also leaves retention of the photo and `--share-max-age` apart.
import FoundationEssentials
import KioskCore
import KioskScreenText
import KioskSystem

public enum SharePhoto {
    /// Writes `DIR/<token>/` for the JPEG `jpeg` (`size`, upright) taken at `request.now`; the
    /// photo itself (`request.take`) is only named. On failure nothing of it is left.
    public static func write(_ request: ShareRequest, jpeg: [UInt8], size: Size) throws(ShareError) -> ShareWritten {
        try ShareFiles.publish(request) { partial throws(ShareError) in
            var start = MonotonicClock.now()
            try ShareFiles.writeFile(partial + "/" + SharePage.photo, jpeg, mode: request.fileMode)
            let photoSeconds = ShareFiles.seconds(since: start)
            start = MonotonicClock.now()
            let page = Array(SharePage.photoHTML(title: request.title, language: request.language,
                                                 downloadName: "photo-" + ShareFiles.downloadStamp(request.now) + ".jpg",
                                                 width: size.width, height: size.height).utf8)
            try ShareFiles.writeFile(partial + "/index.html", page, mode: request.fileMode)
            // The picture stands where the poster is in a take's summary; no video.
            return ShareWritten(folder: partial, videoBytes: 0, posterBytes: jpeg.count, pageBytes: page.count, posterSize: size,
                                remuxSeconds: 0, videoSyncSeconds: 0, posterSeconds: photoSeconds,
                                pageSeconds: ShareFiles.seconds(since: start), publishSeconds: 0)
        }
    }
}
