/// Every subcommand's exit statuses: the one table each `--help` is written from (docs/CLI.md is made from
/// the help), and that `ExitStatusTests` runs every subcommand against.
enum ExitStatusTable {
    static let remodel = ExitStatuses(
        done: "done",
        refused: "refused, nothing written: errors found in the files, a store or a value refused",
        inputs: [.path, .version])

    static let validate = ExitStatuses(
        done: "no error (warnings are allowed unless --strict)",
        refused: "errors found (or warnings, with --strict)", inputs: [.path])

    static let diff = ExitStatuses(
        done: "every change can be migrated: inferred, or by a mapping file",
        refused: "a change needs a mapping file it does not have (an error line ending in [needs-mapping])",
        inputs: [.model, .version, .mappings])

    static let infer = ExitStatuses(
        done: "the mapping was written, and needs nothing more",
        refused: "it was written, but a change needs a value inference cannot give (named on standard error)",
        inputs: [.model, .version], otherwise: "an output that cannot be written")

    static let create = ExitStatuses(
        done: "the store was created",
        refused:
            "refused, nothing written: a file is already there, a model with errors, a seed value or link the model rejects",
        inputs: [.model, .version, .configuration, .jsonFile])

    static let importJSON = ExitStatuses(
        done: "every object was imported",
        refused:
            "refused, the store left as it was: a value or link the model rejects, a store not at the current version",
        inputs: [.model, .store, .jsonFile])

    static let export = ExitStatuses(
        done: "the export was written",
        refused: "refused: not a store of this model, a newer store, a store that drifted, a model with errors",
        inputs: [.model, .store], otherwise: "an output that cannot be written")

    static let status = ExitStatuses(
        done: "the store is missing, current, or older with a migration that can be planned",
        refused: "newer than the model, another model's, not a store, or older but not migratable yet",
        inputs: [.model, .mappings])

    static let migrate = ExitStatuses(
        done: "every store is at the target (migrated, or already there)",
        refused: "some store refused, nothing written in it: a retry will not fix it (data, model, newer store)",
        inputs: [.model, .store, .version, .mappings, .storeList],
        more: [
            ExitStatusLine(
                status: ExitStatus.transient,
                meaning:
                    "none refused (a refusal wins), some failed for a reason that may pass or were not started: run again with --resume"
            )
        ])

    static let rollback = ExitStatuses(
        done: "the backup was put back",
        refused: "refused, nothing changed: no backup, or the store was written since the migration",
        inputs: [.store])

    static let convertMapping = ExitStatuses(
        done: "the file was written with no error",
        refused: "it was written, but has errors (printed on standard error)",
        inputs: [.model, .mappingModel], otherwise: "an output that cannot be written")

    static let seed = ExitStatuses(
        done: "the data was written (warnings name the rules it could not satisfy)",
        refused: "nothing written: a model with errors",
        inputs: [.model, .version, .configuration], otherwise: "an output that cannot be written")

    static let importCoreData = ExitStatuses(
        done: "the store was imported",
        refused:
            "refused, nothing written: not a Core Data store, no version fits (or two do: give --version), a file at --into, a model with errors, missing external data, links to objects the store does not have",
        inputs: [.coreDataStore, .model, .version, .configuration])

    static let extractModel = ExitStatuses(
        done: "the bundle was written",
        refused: "nothing written: not a Core Data store, a store without its model, something at the output",
        inputs: [.coreDataStore])

    static let testMatrix = ExitStatuses(
        done: "every result is the one expected", refused: "a result is not the one expected",
        inputs: [.model, .version, .mappings, .fixtures])

    static let generate = ExitStatuses(
        done: "the files were written",
        refused: "nothing written: the model has errors (printed as `remodel validate` prints them)",
        inputs: [.model, .version, .configuration], otherwise: "a folder that cannot be written")

    static let addVersion = ExitStatuses(
        done: "the version was added and made current",
        refused: "nothing written: a version of that name exists, or the model is not a .xcdatamodeld bundle",
        inputs: [.model, .version], otherwise: "a bundle that cannot be written")

    static let demo = ExitStatuses(
        done: "the demo ran",
        refused: "it failed: the migration failed (the error says why)", inputs: [.model])
}
