import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The width of the terminal standard error is on, in columns: `COLUMNS` when set (so a user or a
/// test can choose), else the terminal's own (`ioctl` `TIOCGWINSZ`), else 80. Both progress bars (one
/// store's, a fleet's) ask it at each redraw, so a resized window is followed.
enum TerminalWidth {
    static var current: Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 {
            return columns
        }
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
