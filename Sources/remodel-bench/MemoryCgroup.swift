import Foundation

/// A memory cgroup of its own for one child, nested in the cgroup the benchmark runs in, that limits the
/// memory — the page cache included — of the processes in it: the store larger than the file cache, at any
/// store size (`--memory-limit`). cgroup v1 (`memory.limit_in_bytes` under `/sys/fs/cgroup/memory`) and v2
/// (`memory.max` under `/sys/fs/cgroup`, where the parent delegates the memory controller) are both used as
/// the machine has them; where neither is writable the runs go unlimited, with a note.
///
/// The parent makes it; the child joins it first thing (``join(_:)``), so that its reads and writes are
/// charged to it from the start; the parent reads its peak and how often it hit the limit once the child is
/// done, and removes it.
struct MemoryCgroup {
    let path: String
    let version: Int

    /// A new cgroup limited to `limitBytes`, or why there can be none.
    static func make(name: String, limitBytes: Int) -> Result<MemoryCgroup, BenchError> {
        guard let (parent, version) = ownCgroup() else {
            return .failure(BenchError("no memory cgroup hierarchy is mounted (/proc/self/cgroup)"))
        }
        let path = parent + "/" + name
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            return .failure(BenchError("cannot create \(path): \(String(cString: strerror(errno)))"))
        }
        let cgroup = MemoryCgroup(path: path, version: version)
        let file = version == 1 ? "memory.limit_in_bytes" : "memory.max"
        guard cgroup.write("\(limitBytes)", to: file) else {
            let reason = String(cString: strerror(errno))
            cgroup.remove()
            return .failure(BenchError("cannot limit \(path)/\(file): \(reason)"))
        }
        return .success(cgroup)
    }

    /// The memory cgroup this process is in, as a folder, and the version of its hierarchy: v1's `memory`
    /// controller when mounted, else the v2 hierarchy.
    private static func ownCgroup() -> (String, Int)? {
        guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let path = String(fields[2]) == "/" ? "" : String(fields[2])
            if fields[1].split(separator: ",").contains("memory"),
                FileManager.default.fileExists(atPath: "/sys/fs/cgroup/memory/cgroup.procs")
            {
                return ("/sys/fs/cgroup/memory" + path, 1)
            }
        }
        for line in text.split(separator: "\n") where line.hasPrefix("0::") {
            let path = String(line.dropFirst(3)) == "/" ? "" : String(line.dropFirst(3))
            if FileManager.default.fileExists(atPath: "/sys/fs/cgroup/cgroup.controllers") {
                return ("/sys/fs/cgroup" + path, 2)
            }
        }
        return nil
    }

    /// Moves this process into the cgroup at `path` (what a child does before anything else).
    static func join(_ path: String) throws {
        guard MemoryCgroup(path: path, version: 0).write("\(getpid())", to: "cgroup.procs") else {
            throw BenchError("cannot join the cgroup \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// The largest memory its processes held, page cache included, bytes.
    var peakBytes: Int { read(version == 1 ? "memory.max_usage_in_bytes" : "memory.peak") }

    /// How many times its processes reached the limit (v1's `memory.failcnt`, v2's `max` event).
    var limitHits: Int {
        guard version == 2 else { return read("memory.failcnt") }
        let events = (try? String(contentsOfFile: path + "/memory.events", encoding: .utf8)) ?? ""
        let line = events.split(separator: "\n").first { $0.hasPrefix("max ") }
        return line.flatMap { Int($0.dropFirst(4)) } ?? 0
    }

    /// Removes the cgroup once its processes are gone (the kernel hands its page cache to the parent).
    func remove() {
        rmdir(path)
    }

    private func read(_ file: String) -> Int {
        let text = (try? String(contentsOfFile: path + "/" + file, encoding: .utf8)) ?? ""
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    private func write(_ value: String, to file: String) -> Bool {
        let descriptor = open(path + "/" + file, O_WRONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(value.utf8)
        return bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) } == bytes.count
    }
}
