import Foundation
import Remodel
import RemodelGeneration

// The tool behind the package plugins (`RemodelRecords`, `generate-records`): `remodel generate` without the
// command-line tool's other commands and its argument parser, so a build that uses the plugin builds only
// Remodel and this file.
//
//   remodel-generate MODEL --output DIR [--file NAME.swift] [--version V] [--access public|internal]
//
// With --file, everything goes into that one file (the build-tool plugin declares it as its output).

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
        "usage: remodel-generate MODEL --output DIR [--file NAME.swift] [--version V] [--access public|internal]",
        status: 64)
}
guard let access = RecordGenerator.Access(rawValue: options["access"] ?? "internal") else {
    fail("--access is public or internal", status: 64)
}

// A model that `validate` rejects is never used: its errors are printed as `remodel validate` prints them, which
// a build shows at their line.
do {
    // A step no mapping file maps is the migration's concern, not the records': they are of one version.
    let errors = try ProjectValidation.validate(paths: [model]).diagnostics.filter {
        $0.severity == .error && $0.rule != DiagnosticRule.needsMapping.rawValue
    }
    for diagnostic in errors { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
    if !errors.isEmpty { fail("\(model) has errors; fix the model, then build again", status: 1) }
    let bundle = try ModelBundle(contentsOf: model)
    let generator = try RecordGenerator(bundle: bundle, version: options["version"], access: access)
    if let file = options["file"] {
        try generator.writeCombined(to: output + "/" + file)
    } else {
        try generator.write(to: output)
    }
} catch {
    fail(error.description, status: 2)
}
