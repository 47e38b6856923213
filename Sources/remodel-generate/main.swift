import Foundation
import RemodelGeneration
import RemodelModel

// The tool behind the package plugins (`RemodelRecords`, `generate-records`): `remodel generate` without the
// command-line tool's other commands and its argument parser, so a build that uses the plugin builds only
// Remodel and this file.
//
//   remodel-generate MODEL --output DIR [--file NAME.swift] [--version V] [--configuration C] [--access public|internal]
//                    [--settings remodel-records.json]
//
// With --file, everything goes into that one file (the build-tool plugin declares it as its output). With
// --configuration, the records of that configuration's entities only (`remodel generate --configuration`). With
// --settings, the model's entry in a target's `remodel-records.json` gives the version, configuration and access
// the command line does not (`RecordSettings`).

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var options: [String: String] = [:]
var model: String?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    if argument.hasPrefix("--") {
        guard !arguments.isEmpty else { fail("\(argument) needs a value", status: 64) }
        options[String(argument.dropFirst(2))] = arguments.removeFirst()
    } else if model == nil {
        model = argument
    } else {
        fail("unexpected argument \(argument)", status: 64)
    }
}
guard let model, let output = options["output"] else {
    fail(
        "usage: remodel-generate MODEL --output DIR [--file NAME.swift] [--version V] [--configuration C] [--access public|internal] [--settings FILE]",
        status: 64)
}
var settings = RecordSettings.Model()
if let file = options["settings"] {
    do {
        settings = try RecordSettings(contentsOf: file).model(at: model)
    } catch {
        fail(error.description, status: 1)
    }
}
let accessName = options["access"] ?? settings.access?.rawValue ?? RecordGenerator.Access.internal.rawValue
guard let access = RecordGenerator.Access(rawValue: accessName) else {
    fail("--access is public or internal", status: 64)
}

// A model that `validate` rejects is never used: its errors are printed as `remodel validate` prints them, which
// a build shows at their line. Only the model's own rules count: a step no mapping file maps is the migration's
// concern, not the records' (they are of one version), so the tool reads no mapping and plans no step.
do {
    let read = ModelReader.read(path: model)
    let errors = (read.diagnostics + (read.bundle.map(ModelValidator.validate) ?? [])).filter { $0.severity == .error }
    for diagnostic in errors.sorted() { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
    if !errors.isEmpty { fail("\(model) has errors; fix the model, then build again", status: 1) }
    guard let bundle = read.bundle else { fail("\(model) could not be read", status: 2) }
    let generator = try RecordGenerator(
        bundle: try bundle.restricted(toConfiguration: options["configuration"] ?? settings.configuration),
        version: options["version"] ?? settings.version,
        access: access)
    if let file = options["file"] {
        try generator.writeCombined(to: output + "/" + file)
    } else {
        try generator.write(to: output)
    }
} catch {
    fail(error.description, status: 2)
}
