/// Named places in a migration where a test can make the process die (`SIGKILL`),
/// to prove that a crash at any moment leaves the old store or the new one, whole.
///
/// Set `REMODEL_FAULT_POINT` to a point's name (and optionally `REMODEL_FAULT_HIT`
/// to the 1-based time it is reached, default 1) in the environment of a
/// `remodel migrate` child process. Not public API; when the variable is unset,
/// reaching a point costs one comparison of a constant.
enum FaultPoint: String, CaseIterable {
    /// The plan is made and the lock is held; nothing written yet.
    case planned
    /// The step's copy of its source store is written; nothing of it changed yet.
    case afterCopy = "after-copy"
    /// A later step of a pass renamed aside the tables it rebuilds or drops, in the pass's copy.
    case afterSetAside = "after-set-aside"
    /// The copy has the destination's schema: carried tables altered, rebuilt ones empty.
    case afterSchema = "after-schema"
    /// A batch of phase 1 was committed to the step's store.
    case afterBatch = "after-batch"
    /// Phase 1 of a step is done.
    case afterInstances = "after-instances"
    /// Phase 2 of a step is done.
    case afterRelationships = "after-relationships"
    /// Phase 3 of a step passed.
    case afterValidation = "after-validation"
    /// The pass's store has its metadata and the app's objects.
    case afterMetadata = "after-metadata"
    /// A whole pass is done (its store closed).
    case afterStep = "after-step"
    /// A WAL original left WAL mode (its log checkpointed into the file), just before it is replaced.
    /// Reached by WAL stores only.
    case leftWAL = "left-wal"
    /// The `-wal`/`-shm` the original no longer uses were being removed (before the rename).
    case duringSidecarCleanup = "during-sidecar-cleanup"
    /// The temporary store is durable; the rename is next.
    case beforeRename = "before-rename"
    /// The rename happened; the folder is not yet flushed.
    case afterRename = "after-rename"

    /// Kills the process here if this point is armed and reached for the armed time.
    func reach() { FaultInjection.reach(rawValue) }
}
