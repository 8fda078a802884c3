import Foundation

/// A path for a fake device's file that lives in memory (tmpfs, `/dev/shm`), as the fake camera's
/// buffers do: SDL's disk audio driver writes the sound it plays there a buffer at a time, and a
/// device's writes should not wait on a disk another test (a package installed beside it) keeps
/// busy. Removed by the caller.
public func memoryDeviceFile(_ name: String) -> String {
    var status = stat()
    let folder = stat("/dev/shm", &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR ? "/dev/shm/" : NSTemporaryDirectory()
    return folder + "kiosk-\(name)-\(getpid())"
}
