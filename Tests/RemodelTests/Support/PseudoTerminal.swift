import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `remodel` with a pseudo-terminal of a given width as its standard output and error,
/// as a user's terminal window would be, and replays what it wrote on a model of that screen.
enum PseudoTerminal {
    /// What the screen shows once the command is done, and how it got there.
    struct Screen {
        /// The lines left on the screen, trailing spaces removed.
        var lines: [String]
        /// Whether a character was ever written past the last column (the terminal wrapped the line).
        var wrapped: Bool
        /// The widest line ever drawn, in characters.
        var widest: Int
        /// How many characters were drawn in all.
        var drawn = 0
        /// How many times a line was cleared to be drawn again.
        var redraws: Int
        /// Each line as it was when it was cleared to be drawn again (the frames of a progress bar), in order.
        var frames: [String] = []
        /// Escape sequences the model does not know (it knows `ESC [ 2K`, clear the line).
        var unknownEscapes: [String]
        var status: Int32
        var output = ""
    }

    /// Runs `remodel arguments…` in the package's root folder with a terminal `columns` wide as its
    /// standard error (where progress goes); standard output goes to a pipe and is returned as it is.
    static func run(_ arguments: [String], columns: Int) throws -> Screen {
        let executable: URL = try #require(RemodelProcess.executable, "build the remodel product first")
        let (master, name) = try openPseudoTerminal()
        defer { close(master) }
        var size = winsize(ws_row: 24, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        // The platform module's `ioctl(_:_:_:)` takes the pointer without C's variadic call.
        try #require(ioctl(master, UInt(TIOCSWINSZ), &size) == 0)
        let terminal = try #require(FileHandle(forUpdatingAtPath: name))

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = ValidationSupport.packageRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardError = terminal
        try process.run()
        try terminal.close()
        let outputData = Collector<Data>()
        let reader = Thread { outputData.append(output.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        // Read until the last holder of the terminal is gone (the read then fails with EIO).
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &chunk, chunk.count)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        process.waitUntilExit()
        while outputData.values.isEmpty { Thread.sleep(forTimeInterval: 0.001) }
        var screen = replay(String(decoding: bytes, as: UTF8.self), columns: columns)
        screen.status = process.terminationStatus
        screen.output = String(decoding: outputData.values[0], as: UTF8.self)
        return screen
    }

    /// Opens a pseudo-terminal's master side and names its terminal device.
    private static func openPseudoTerminal() throws -> (Int32, String) {
        #if os(Linux)
            // Glibc's module leaves out posix_openpt, grantpt, unlockpt and ptsname (they need
            // _XOPEN_SOURCE): on Linux they are an open of /dev/ptmx and two ioctls, made here.
            let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            try #require(master >= 0, "no pseudo-terminal: \(String(cString: strerror(errno)))")
            let unlockRequest: UInt = 0x4004_5431  // TIOCSPTLCK, _IOW('T', 0x31, int)
            let numberRequest: UInt = 0x8004_5430  // TIOCGPTN, _IOR('T', 0x30, unsigned int)
            var unlock: Int32 = 0
            var number: UInt32 = 0
            try #require(ioctl(master, unlockRequest, &unlock) == 0 && ioctl(master, numberRequest, &number) == 0)
            return (master, "/dev/pts/\(number)")
        #else
            let master = posix_openpt(O_RDWR | O_NOCTTY)
            try #require(master >= 0, "no pseudo-terminal: \(String(cString: strerror(errno)))")
            try #require(grantpt(master) == 0 && unlockpt(master) == 0)
            return (master, String(cString: try #require(ptsname(master))))
        #endif
    }

    /// Replays terminal output on a screen `columns` wide that wraps at its right edge, as terminals do.
    static func replay(_ text: String, columns: Int) -> Screen {
        var rows: [[Character]] = [[]]
        var row = 0
        var column = 0
        var screen = Screen(lines: [], wrapped: false, widest: 0, redraws: 0, unknownEscapes: [], status: 0)
        var scalars = text.unicodeScalars.makeIterator()
        func put(_ character: Character) {
            if column >= columns {
                screen.wrapped = true
                row += 1
                column = 0
            }
            while rows.count <= row { rows.append([]) }
            while rows[row].count <= column { rows[row].append(" ") }
            rows[row][column] = character
            column += 1
            screen.drawn += 1
            screen.widest = max(screen.widest, column)
        }
        while let scalar = scalars.next() {
            switch scalar {
            case "\r":
                column = 0
            case "\n":
                row += 1
                column = 0
                while rows.count <= row { rows.append([]) }
            case "\u{1B}":
                var sequence = ""
                while let next = scalars.next() {
                    sequence.unicodeScalars.append(next)
                    if next.properties.isAlphabetic { break }
                }
                if sequence == "[2K" {
                    if !rows[row].isEmpty { screen.frames.append(String(rows[row])) }
                    rows[row] = []
                    screen.redraws += 1
                } else {
                    screen.unknownEscapes.append(sequence)
                }
            default:
                put(Character(scalar))
            }
        }
        screen.lines = rows.map { String($0).replacingOccurrences(of: " +$", with: "", options: .regularExpression) }
        while screen.lines.last == "" { screen.lines.removeLast() }
        return screen
    }
}
