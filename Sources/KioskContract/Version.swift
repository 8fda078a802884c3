// The program's version, shown by --version and in logs.
public enum KioskVersion {
    public static let string = "0.2.0"
}
