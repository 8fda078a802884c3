// The one way the booth makes a file: new (O_EXCL: never over an existing file, a FIFO or a device,
// and with O_NOFOLLOW never through a symbolic link), close-on-exec (a hook or a camera program
// inherits none of them), and with exactly the mode asked for whatever the umask (fchmod). The take,
// its marker, the folder's counter and list, a screenshot and `--check`'s probe all use it.
import Glibc

public enum NewFile {
    /// Creates `path` and returns its descriptor, closed when the value goes; `readable` opens it
    /// for reading too (the take's file, which the muxer reads back).
    public static func create(_ path: String, mode: Int = 0o600, readable: Bool = false) throws(SystemError) -> FileDescriptor {
        let fd = try FileDescriptor.open(path, (readable ? O_RDWR : O_WRONLY) | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode: mode_t(mode))
        _ = fchmod(fd.rawValue, mode_t(mode))
        return fd
    }
}
