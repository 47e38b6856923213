import Foundation
import Testing

@testable import Remodel

/// `remodel add-version`: a new version of a bundle without Xcode, a copy made current, the order kept; every
/// refusal leaves the bundle byte for byte as it was, and nothing is ever written through a file already there.
struct AddVersionCommandTests {
    /// A copy of the sample bundle (`Library`, `Library 2`, `Library 3`, current `Library 3`) in a new folder.
    private static func sampleCopy(order: String? = nil) throws -> (folder: TemporaryFolder, bundle: String) {
        let folder = try TemporaryFolder()
        let bundle = folder.file("Library.xcdatamodeld")
        try FileManager.default.copyItem(atPath: Reliability.modelPath, toPath: bundle)
        if let order { try Data(order.utf8).write(to: URL(fileURLWithPath: bundle + "/.remodel-version-order")) }
        return (folder, bundle)
    }

    /// Every file under `folder` with its bytes, by path relative to it.
    private static func files(under folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder)
            files[name] = isFolder.boolValue ? Data() : try fileBytes(folder + "/" + name)
        }
        return files
    }

    @Test func theNextNumberAsXcodeNamesItACopyOfTheCurrentVersionMadeCurrent() throws {
        let sample = try Self.sampleCopy()
        let bundle = sample.bundle
        defer { withExtendedLifetime(sample.folder) {} }
        let before = try Self.files(under: bundle)
        let result = try RemodelProcess.run(["add-version", bundle])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.output == """
                Added version "Library 4" to \(bundle), a copy of "Library 3", and made it current.
                Next: edit \(bundle)/Library 4.xcdatamodel/contents, then check it:
                  remodel validate \(bundle)
                  remodel diff \(bundle)

                """)
        let after = try Self.files(under: bundle)
        // Only the new version's folder and contents were made, and only .xccurrentversion changed.
        #expect(
            Set(after.keys).subtracting(before.keys) == ["Library 4.xcdatamodel", "Library 4.xcdatamodel/contents"])
        #expect(after["Library 4.xcdatamodel/contents"] == before["Library 3.xcdatamodel/contents"])
        #expect(
            after.filter { before[$0.key] != nil && before[$0.key] != $0.value }.keys.sorted() == [".xccurrentversion"])
        let read = try ModelBundle(contentsOf: bundle)
        #expect(read.versionNames == ["Library", "Library 2", "Library 3", "Library 4"])
        #expect(read.currentVersionName == "Library 4")
        #expect(read.currentVersion.entityHashes == read.version(named: "Library 3")?.entityHashes)
    }

    @Test func aNameAndASourceGoRightAfterTheSourceInTheOrderFile() throws {
        let sample = try Self.sampleCopy(order: "# oldest first\nLibrary\nLibrary 2 <- Library two\nLibrary 3\n")
        let bundle = sample.bundle
        defer { withExtendedLifetime(sample.folder) {} }
        let result = try RemodelProcess.run(["add-version", bundle, "--name", "Library 2 fix", "--from", "Library 2"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.output.hasPrefix(
                #"Added version "Library 2 fix" to \#(bundle), a copy of "Library 2", listed after it in .remodel-version-order, and made it current."#
            ))
        #expect(
            try String(contentsOfFile: bundle + "/.remodel-version-order", encoding: .utf8)
                == "# oldest first\nLibrary\nLibrary 2 <- Library two\nLibrary 2 fix\nLibrary 3\n")
        #expect(
            try fileBytes(bundle + "/Library 2 fix.xcdatamodel/contents")
                == fileBytes(bundle + "/Library 2.xcdatamodel/contents"))
        let read = try ModelBundle(contentsOf: bundle)
        #expect(read.versionNames == ["Library", "Library 2", "Library 2 fix", "Library 3"])
        #expect(read.currentVersionName == "Library 2 fix")
        #expect(read.formerVersionNames == ["Library two": "Library 2"])
        // The model as a whole still validates: the new version differs from its source in no hash yet, a warning.
        let validated = try RemodelProcess.run(["validate", bundle, "--strict"])
        #expect(validated.output.contains("[identical-version-hash]"), "\(validated)")
        #expect(!validated.output.contains("error:"), "\(validated)")
    }

    /// Every refusal: its status, its sentence, and the bundle (or file) exactly as it was.
    @Test(arguments: [
        (["--name", "Library 2"], 1, #"the bundle already has a version "Library 2"; give another --name"#),
        (["--name", "Library two"], 1, #""Library two" is a former name of version "Library 2""#),
        (["--name", "Aardvark"], 1, #""Aardvark" would come before "Library 3" in the version order"#),
        (["--name", "a/b"], 1, #""a/b" cannot name a version"#),
        (["--name", ".hidden"], 1, #"".hidden" cannot name a version"#),
        (["--from", "Library 9"], 2, #"model "Library" has no version "Library 9"; its versions are"#),
        (["--bogus"], 64, "Unknown option '--bogus'"),
    ])
    func aRefusalLeavesTheBundleAsItWas(arguments: [String], status: Int32, message: String) throws {
        let sample = try Self.sampleCopy(
            order: arguments.contains("Library two") ? "Library\nLibrary 2 <- Library two\nLibrary 3\n" : nil)
        let bundle = sample.bundle
        defer { withExtendedLifetime(sample.folder) {} }
        let before = try Self.files(under: bundle)
        let result = try RemodelProcess.run(["add-version", bundle] + arguments)
        #expect(result.status == status, "\(result)")
        #expect(result.error.contains(message), "\(result)")
        #expect(try Self.files(under: bundle) == before)
    }

    @Test func aSingleVersionOrAContentsFileIsRefused() throws {
        let (folder, bundle) = try Self.sampleCopy()
        let before = try Self.files(under: folder.path)
        for model in [bundle + "/Library.xcdatamodel", bundle + "/Library.xcdatamodel/contents"] {
            let result = try RemodelProcess.run(["add-version", model])
            #expect(result.status == 1, "\(result)")
            #expect(
                result.error
                    == "error: \(model): a version can be added only to a .xcdatamodeld bundle, and this is a single version; put it in a folder NAME.xcdatamodeld first (its one version stays as it is)\n"
            )
        }
        #expect(try Self.files(under: folder.path) == before)
        let missing = try RemodelProcess.run(["add-version", folder.file("Nope.xcdatamodeld")])
        #expect(missing.status == 2, "\(missing)")
    }

    /// A file already at the name the new `.xccurrentversion` is written to first (here a link to a user's file) is
    /// never written through: the call fails naming it, the user's file keeps its bytes, and the version's folder
    /// it had made is gone again.
    @Test func itWritesOnlyFilesItMakes() throws {
        let (folder, bundle) = try Self.sampleCopy()
        let victim = try folder.write("the user's own file\n", to: "victim.txt")
        let temporary = bundle + "/.xccurrentversion.remodel-\(getpid())"
        try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: victim)
        let before = try Self.files(under: bundle)
        #expect {
            try BundleVersionAdder.add(to: try ModelBundle(contentsOf: bundle), name: nil, from: nil)
        } throws: { error in
            (error as? RemodelError)?.code == .io && (error as? RemodelError)?.path == temporary
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "the user's own file\n")
        #expect(try Self.files(under: bundle).keys.sorted() == before.keys.sorted())
        #expect(try ModelBundle(contentsOf: bundle).currentVersionName == "Library 3")
    }

    /// The name Xcode proposes: the bundle's name and the number after the highest (as the corpus's bundles are
    /// numbered: mastodon's `CoreData 9` then `CoreData 10`, dashsync's `DashSync 1` … `DashSync 21`).
    @Test func theNextNameIsTheNumberAfterTheHighest() {
        func next(_ name: String, _ versions: [String]) -> String {
            BundleVersionAdder.nextName(
                for: ModelBundle(name: name, versions: versions.map { ModelVersion(name: $0, entities: []) }))
        }
        #expect(next("Library", ["Library"]) == "Library 2")
        #expect(next("CoreData", ["CoreData"] + (2...9).map { "CoreData \($0)" }) == "CoreData 10")
        #expect(next("DashSync", (1...21).map { "DashSync \($0)" }) == "DashSync 22")
        #expect(next("Kiwix", ["1.5", "1.7", "1.8", "Kiwix"]) == "Kiwix 2")
        #expect(next("Model", ["Model", "Model 3"]) == "Model 4")
    }
}
