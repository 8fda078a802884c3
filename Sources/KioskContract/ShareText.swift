// The share flow's pure parts: the link to a share folder and the address it gets, and the standard
// `WIFI:` payload a phone's camera reads to join the booth's hotspot.

/// Where an accepted take (or a photo) can be fetched: the address in its QR code, its token and its folder.
public struct ShareLink: Equatable, Sendable {
    public var url: String
    public var token: String
    public var folder: String
    /// A photo's share folder (`photo.jpg`): the photo's path. nil: the take's (`video.mp4`).
    public var photo: String?

    public init(url: String, token: String, folder: String, photo: String? = nil) {
        self.url = url
        self.token = token
        self.folder = folder
        self.photo = photo
    }
}

/// The address of a take's share folder: `--share-url` with its token in place of `{token}`.
public enum ShareAddress {
    public static func url(template: String, token: String) -> String {
        template.replacing("{token}", with: token)
    }

    /// The booth's address on its own Wi-Fi (`kiosk/install --hotspot`: NetworkManager's shared
    /// mode, 10.42.0.1/24), and the share URL there.
    public static let hotspotAddress = "10.42.0.1"
    public static let hotspotTemplate = "http://\(hotspotAddress)/s/{token}/"
}

/// The `WIFI:` payload of a QR code that joins a network (ZXing's format, which iOS's and Android's
/// cameras read): `WIFI:T:WPA;S:<ssid>;P:<password>;;`, or `T:nopass` for an open network, with
/// `\`, `;`, `,`, `:` and `"` escaped by a backslash in the name and the password.
public enum WiFiPayload {
    public static func make(ssid: String, password: String?) -> String {
        guard let password else { return "WIFI:T:nopass;S:\(escape(ssid));;" }
        return "WIFI:T:WPA;S:\(escape(ssid));P:\(escape(password));;"
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for c in text {
            if "\\;,:\"".contains(c) { escaped.append("\\") }
            escaped.append(c)
        }
        return escaped
    }
}
