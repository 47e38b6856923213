import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lets one migration at a time work on a store, across processes and threads: an app and its
/// extension launching together, two server workers, a fleet given the same store twice.
///
/// The lock is `flock(2)` on a file beside the store (`<store>.remodel-lock`, beside the file the store
/// path's symbolic links lead to; the lock file itself must be one Remodel made,
/// ``/RemodelModel/FileSystem/openOwnFile(_:flags:mode:)``), never on the store itself: SQLite's locks on the store are
/// POSIX locks, which closing any descriptor of the store in this process would drop. A second migrator takes this lock
/// before it reads the store at all, so it holds no connection while it waits: the first one can take
/// SQLite's exclusive lock on a WAL store, which it needs to replace it, and then the second finds
/// the store current. The kernel lets go of the lock when its process ends, however it ends.
///
/// While it holds the lock, the migrator writes its process id, a heartbeat and its fraction done
/// into the file a few times a second; a waiter reports them (``MigrationProgress/Phase/waiting``)
/// and gives up, transiently, only when the heartbeat stopped for the bound it was given (a process
/// stopped or hung with the lock): never while the other migration is working.
///
/// The holder removes the file before it lets go; a waiter that then gets the lock on the removed
/// file sees that the path names another file (or none) and takes the lock again on the path.
final class MigrationLock {
    /// What the lock file's holder last wrote.
    struct Holder: Equatable {
        /// Its process id.
        var processID: Int32
        /// A counter it moves on a few times a second.
        var heartbeat: Int
        /// Its migration's fraction done, 0…1.
        var fraction: Double
    }

    private let path: String
    private var descriptor: Int32
    private let state: MigrationHeartbeat

    /// How often the holder writes its heartbeat.
    static let heartbeatInterval = 0.2
    /// How often a waiter tries the lock again.
    private static let pollInterval: useconds_t = 25_000

    /// Takes the lock on `lockPath`, waiting for another migration to finish.
    /// - Parameters:
    ///   - lockPath: The lock file (``StoreFiles/lockPath``).
    ///   - storePath: The store as the user named it, for messages.
    ///   - silenceMilliseconds: How long the holder's heartbeat may stop before the wait gives up (at least 2 s).
    ///   - heartbeat: What this migration tells waiters once it holds the lock.
    ///   - waiting: Called while waiting, about every 25 ms, with what the holder last wrote (`nil`
    ///     before it wrote anything); it may throw to stop waiting (a cancellation).
    /// - Returns: `nil` when no lock file can be made beside the store (a read-only folder or file
    ///   system): then nothing can migrate the store, and the store lock says why.
    /// - Throws: ``/RemodelModel/RemodelError/Code/locked`` when the holder's heartbeat stopped for
    ///   `silenceMilliseconds`; ``/RemodelModel/RemodelError/Code/io`` when the lock file cannot be used; what
    ///   `waiting` throws.
    static func acquire(
        _ lockPath: String, storePath: String, silenceMilliseconds: Int, heartbeat: MigrationHeartbeat,
        waiting: (Holder?) throws(RemodelError) -> Void
    ) throws(RemodelError) -> MigrationLock? {
        // A heartbeat every 0.2 s: a bound below 2 s could take a busy machine's pause for a stopped process.
        let silenceMilliseconds = max(silenceMilliseconds, 2_000)
        var lastHolder: Holder?
        var lastSign = MonotonicClock.seconds()
        while true {
            // A lock file another migrator holds is one Remodel made; anything else there (a link to a user's
            // file, a second name of one, a FIFO, a folder) is refused, never written through.
            let descriptor: Int32
            switch try FileSystem.openOwnFile(lockPath, flags: O_RDWR, mode: 0o644) {
            case .opened(let opened): descriptor = opened
            case .failed(let code):
                if [EACCES, EROFS, EPERM].contains(code) { return nil }
                errno = code
                throw StoreFiles.ioError("cannot open the migration lock file", lockPath)
            }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                if sameFile(descriptor, lockPath) {
                    return MigrationLock(path: lockPath, descriptor: descriptor, heartbeat: heartbeat)
                }
                // The holder removed the file as it let go: lock the file the path names now.
                close(descriptor)
                continue
            }
            let code = errno
            let holder = read(descriptor)
            close(descriptor)
            guard code == EWOULDBLOCK || code == EINTR else {
                throw RemodelError(
                    .io, "cannot lock \(lockPath): \(String(cString: strerror(code)))", path: storePath,
                    cause: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
            }
            if holder != lastHolder {
                lastHolder = holder
                lastSign = MonotonicClock.seconds()
            } else if (MonotonicClock.seconds() - lastSign) * 1000 > Double(silenceMilliseconds) {
                let who = holder.map { "process \($0.processID)" } ?? "another process"
                throw RemodelError(
                    .locked,
                    "\(who) is migrating the store but has given no sign of life for \(silenceMilliseconds) ms (stopped or hung?), so Remodel stopped waiting for it and changed nothing; let that process finish or end it, then migrate again",
                    path: storePath)
            }
            try waiting(holder)
            usleep(pollInterval)
        }
    }

    private init(path: String, descriptor: Int32, heartbeat: MigrationHeartbeat) {
        self.path = path
        self.descriptor = descriptor
        self.state = heartbeat
        Self.write(heartbeat.first(), to: descriptor)
        let state = self.state
        let descriptor = self.descriptor
        Thread {
            state.beatUntilStopped(every: Self.heartbeatInterval) { Self.write($0, to: descriptor) }
        }.start()
    }

    /// Removes the lock file and lets go of the lock.
    func release() {
        guard descriptor >= 0 else { return }
        state.stop()
        if Self.sameFile(descriptor, path) { unlink(path) }
        close(descriptor)
        descriptor = -1
    }

    deinit {
        release()
    }

    /// `pid heartbeat fraction`, fixed width, written over the file's start.
    private static func write(_ holder: Holder, to descriptor: Int32) {
        let fraction = (min(max(holder.fraction, 0), 1) * 10_000).rounded(.down) / 10_000
        let text = "\(holder.processID) \(holder.heartbeat) \(fraction)"
        // Padded to one width, so a shorter line never leaves the end of a longer one behind it.
        let bytes = Array(text.utf8) + [UInt8](repeating: UInt8(ascii: " "), count: max(0, 47 - text.utf8.count)) + [10]
        _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// What the holder wrote; `nil` before it wrote anything.
    static func read(_ descriptor: Int32) -> Holder? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let fields = String(decoding: buffer[..<count], as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard fields.count >= 3, let processID = Int32(fields[0]), let heartbeat = Int(fields[1]),
            let fraction = Double(fields[2])
        else { return nil }
        return Holder(processID: processID, heartbeat: heartbeat, fraction: fraction)
    }

    /// Whether the descriptor is the file the path names now.
    private static func sameFile(_ descriptor: Int32, _ path: String) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(descriptor, &open) == 0, stat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }
}

/// What a migration holding the lock tells waiters: a heartbeat and its fraction done, shared between the
/// migration's progress (``publish(fraction:)``) and the thread that writes them into the lock file.
final class MigrationHeartbeat: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = ThreadCondition()
    private var heartbeat = 0
    private var fraction = 0.0
    private var stopped = false

    /// Tells waiters how far the migration is.
    func publish(fraction: Double) {
        condition.lock()
        self.fraction = fraction
        condition.unlock()
    }

    /// The first beat, written as the lock is taken.
    func first() -> MigrationLock.Holder {
        condition.lock()
        defer { condition.unlock() }
        return MigrationLock.Holder(processID: getpid(), heartbeat: heartbeat, fraction: fraction)
    }

    /// Calls `write` with the next beat every `seconds` until stopped, holding the lock while it writes:
    /// once ``stop()`` returns, nothing writes to the lock file's descriptor any more, and it can be closed.
    func beatUntilStopped(every seconds: Double, write: (MigrationLock.Holder) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            condition.wait(seconds: seconds)
            guard !stopped else { break }
            heartbeat += 1
            write(MigrationLock.Holder(processID: getpid(), heartbeat: heartbeat, fraction: fraction))
        }
    }

    /// Stops the heartbeat: when it returns, no beat is being written, and none will be.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }
}
