import Foundation
import Remodel

/// Notes when a library migration's copy of the store appears beside it (`<store>.remodel-migrating`), with the
/// kernel's I/O counters then: the byte copy starts there, and ends at the next SQL statement or connection the
/// trace sees (``SQLiteTrace/ioEvents``), since the migration looks at the rows it reads again only once the
/// copy is made. Polls every millisecond on a thread of its own until it sees the file or is stopped.
final class CopyWatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var seen: (time: Double, io: IOCounters)?

    init(store: String) {
        let path = store + ".remodel-migrating"
        Thread { [self] in
            var info = stat()
            while isRunning {
                if stat(path, &info) == 0 {
                    let event = (time: Measure.now(), io: IOCounters.now())
                    lock.locked { seen = event }
                    return
                }
                usleep(1_000)
            }
        }.start()
    }

    private var isRunning: Bool { lock.locked { running } }

    /// Stops watching; when the copy appeared, with the counters then.
    func stop() -> (time: Double, io: IOCounters)? {
        lock.locked {
            running = false
            return seen
        }
    }
}
