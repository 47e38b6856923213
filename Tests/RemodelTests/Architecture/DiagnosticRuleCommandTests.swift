import Foundation
import Testing

@testable import Remodel
@testable import RemodelModel

/// Every rule the guides document is one a user can meet (issue 40 item 4): for each `DiagnosticRule` in
/// docs/VALIDATE.md or docs/EXPRESSIONS.md, a small model or mapping file that breaks it, and the line the
/// built `remodel` prints for it — `path:line:column: severity: … [rule]` from `remodel validate`, the rule at
/// the place the fixture marks; `severity: … [rule]` from `remodel diff` for what the comparison of two
/// versions finds, which names no place in a file. A rule added to the enum without a case here fails.
///
/// The model and mapping cases are checked by one `remodel validate` over a folder that holds them all (each in a
/// folder of its own, with a model name of its own); each Xcode mapping model case, and each diff case, by a
/// run of its own.
struct DiagnosticRuleCommandTests {
    /// A file of a case, its path relative to the case's folder.
    typealias File = (path: String, text: String)

    /// One rule, the files that break it, and where the diagnostic points: the file and the first occurrence of
    /// `at` in it (nil: the file alone, `path: severity: …`, as for a folder).
    struct Case {
        var rule: DiagnosticRule
        var severity: Severity
        var files: [File]
        var file: String
        var at: String?
    }

    // MARK: - Writing models

    static func contents(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        \(body)
        </model>

        """
    }

    /// A one-version model folder `name.xcdatamodel`.
    static func model(_ name: String, _ body: String) -> [File] {
        [("\(name).xcdatamodel/contents", contents(body))]
    }

    /// A bundle `name.xcdatamodeld` of the versions, current the last unless `current` says; `order` is its
    /// `.remodel-version-order`.
    static func bundle(_ name: String, _ versions: [(String, String)], current: String? = nil, order: String? = nil)
        -> [File]
    {
        var files = versions.map { ("\(name).xcdatamodeld/\($0.0).xcdatamodel/contents", contents($0.1)) }
        let currentName = current ?? versions.last?.0 ?? name
        files.append(
            (
                "\(name).xcdatamodeld/.xccurrentversion",
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(currentName).xcdatamodel</string></dict></plist>

                """
            ))
        if let order { files.append(("\(name).xcdatamodeld/.remodel-version-order", order)) }
        return files
    }

    static let person =
        #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/></entity>"#

    /// A bundle `name` of two versions, then a mapping file `name.xml` for the step between them with `entities`
    /// (the `<entity>` elements).
    static func mapped(_ name: String, from first: String, to second: String, _ entities: String) -> [File] {
        bundle(name, [(name, first), ("\(name) 2", second)])
            + [
                (
                    "\(name).xml",
                    """
                    <mapping model="\(name)" sourceVersion="\(name)" destinationVersion="\(name) 2">
                    \(entities)
                    </mapping>

                    """
                )
            ]
    }

    // MARK: - The cases of `remodel validate`

    static let validateCases: [Case] = {
        let pet = #"<entity name="Pet"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
        let withAge =
            #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><attribute name="age" optional="YES" attributeType="Integer 32"/><attribute name="phone" optional="YES" attributeType="String"/></entity>"#
        let withFullName =
            #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><attribute name="age" optional="YES" attributeType="Integer 32"/><attribute name="fullName" attributeType="String"/></entity>"#
        func link(_ attributes: String) -> String {
            #"<entity name="Owner"><attribute name="name" optional="YES" attributeType="String"/><relationship name="pets" optional="YES" toMany="YES" \#(attributes) destinationEntity="Pet"/></entity>"#
        }
        return [
            // Reading model files
            Case(
                rule: .malformedXML, severity: .error,
                files: [("Malformed.xcdatamodel/contents", "<model><entity name=\"A\"></model>\n")],
                file: "Malformed.xcdatamodel/contents", at: "\n"),
            Case(
                rule: .wrongRoot, severity: .error,
                files: [("WrongRoot.xcdatamodel/contents", "<?xml version=\"1.0\"?>\n<schema/>\n")],
                file: "WrongRoot.xcdatamodel/contents", at: "<schema"),
            Case(
                rule: .unreadableModel, severity: .error,
                files: [("Unreadable.xcdatamodeld/notes.txt", "no versions\n")],
                file: "Unreadable.xcdatamodeld", at: nil),
            Case(
                rule: .unsupportedLegacyModel, severity: .error,
                files: [("Legacy.xcdatamodeld/Legacy.xcdatamodel/elements", "binary\n")],
                file: "Legacy.xcdatamodeld/Legacy.xcdatamodel", at: nil),
            Case(
                rule: .missingCurrentVersion, severity: .error,
                files: bundle("MissingCurrent", [("MissingCurrent", person)], current: "Nowhere"),
                file: "MissingCurrent.xcdatamodeld/.xccurrentversion", at: "<string>"),
            Case(
                rule: .versionOrderUnknown, severity: .error,
                files: bundle("OrderUnknown", [("OrderUnknown", person)], order: "OrderUnknown\nOrderUnknown 9\n"),
                file: "OrderUnknown.xcdatamodeld/.remodel-version-order", at: "OrderUnknown 9"),
            Case(
                rule: .versionOrderIncomplete, severity: .error,
                files: bundle(
                    "OrderIncomplete", [("OrderIncomplete", person), ("OrderIncomplete 2", withAge)],
                    order: "OrderIncomplete\n"),
                file: "OrderIncomplete.xcdatamodeld/.remodel-version-order", at: "OrderIncomplete"),
            Case(
                rule: .versionOrderFormerName, severity: .error,
                files: bundle(
                    "Former", [("Former", person), ("Former 2", withAge)], order: "Former\nFormer 2 <- Former\n"),
                file: "Former.xcdatamodeld/.remodel-version-order", at: "Former 2 <-"),
            Case(
                rule: .currentVersionNotLast, severity: .warning,
                files: bundle("NotLast", [("NotLast", person), ("NotLast 2", withAge)], current: "NotLast"),
                file: "NotLast.xcdatamodeld/NotLast.xcdatamodel/contents", at: "<model"),
            // The model's rules
            Case(
                rule: .booleanWordForNumber, severity: .warning,
                files: model(
                    "BooleanWord",
                    #"<entity name="Counter"><attribute name="count" attributeType="Integer 16" defaultValueString="YES"/></entity>"#
                ), file: "BooleanWord.xcdatamodel/contents", at: "YES\"/>"),
            Case(
                rule: .denyWithoutInverse, severity: .warning,
                files: model("Deny", link(#"deletionRule="Deny""#) + pet), file: "Deny.xcdatamodel/contents",
                at: "Deny\""),
            Case(
                rule: .duplicateEntity, severity: .error, files: model("DuplicateEntity", pet + pet),
                file: "DuplicateEntity.xcdatamodel/contents",
                at: "Pet\"><attribute name=\"name\" optional=\"YES\" attributeType=\"String\"/></entity>\n"),
            Case(
                rule: .duplicateProperty, severity: .error,
                files: model(
                    "DuplicateProperty",
                    #"<entity name="Pet"><attribute name="name" optional="YES" attributeType="String"/><attribute name="name" optional="YES" attributeType="String"/></entity>"#
                ), file: "DuplicateProperty.xcdatamodel/contents",
                at: "name\" optional=\"YES\" attributeType=\"String\"/></entity>"),
            Case(
                rule: .entityNameCase, severity: .warning,
                files: model(
                    "EntityCase",
                    #"<entity name="pet"><attribute name="name" optional="YES" attributeType="String"/></entity>"#),
                file: "EntityCase.xcdatamodel/contents", at: "pet\""),
            Case(
                rule: .identicalVersionHash, severity: .warning,
                files: bundle("Twins", [("Twins", person), ("Twins 2", person)]),
                file: "Twins.xcdatamodeld/Twins 2.xcdatamodel/contents", at: "<model"),
            Case(
                rule: .inheritanceCycle, severity: .error,
                files: model("Cycle", #"<entity name="A" parentEntity="B"/><entity name="B" parentEntity="A"/>"#),
                file: "Cycle.xcdatamodel/contents", at: "B\"/>"),
            Case(
                rule: .invalidCount, severity: .error,
                files: model("Count", link(#"deletionRule="Nullify" minCount="many""#) + pet),
                file: "Count.xcdatamodel/contents", at: "many"),
            Case(
                rule: .invalidDefaultValue, severity: .error,
                files: model(
                    "Default",
                    #"<entity name="Counter"><attribute name="count" attributeType="Integer 16" defaultValueString="lots"/></entity>"#
                ), file: "Default.xcdatamodel/contents", at: "lots"),
            Case(
                rule: .invalidName, severity: .error,
                files: model(
                    "BadName",
                    #"<entity name="Pet"><attribute name="first-name" optional="YES" attributeType="String"/></entity>"#
                ),
                file: "BadName.xcdatamodel/contents", at: "first-name"),
            Case(
                rule: .invalidRegularExpression, severity: .error,
                files: model(
                    "Pattern",
                    #"<entity name="Pet"><attribute name="name" optional="YES" attributeType="String" regularExpressionString="[a-"/></entity>"#
                ), file: "Pattern.xcdatamodel/contents", at: "[a-"),
            Case(
                rule: .invalidValueBound, severity: .error,
                files: model(
                    "Bound",
                    #"<entity name="Counter"><attribute name="count" optional="YES" attributeType="Integer 16" minValueString="low"/></entity>"#
                ), file: "Bound.xcdatamodel/contents", at: "low"),
            Case(
                rule: .inverseEntityMismatch, severity: .error,
                files: model(
                    "InverseEntity",
                    #"<entity name="Owner"><relationship name="pet" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Owner"/></entity><entity name="Pet"><relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pet" inverseEntity="Owner"/></entity>"#
                ), file: "InverseEntity.xcdatamodel/contents", at: "Owner\"/></entity><entity"),
            Case(
                rule: .inverseMismatch, severity: .warning,
                files: model(
                    "InverseMismatch",
                    #"<entity name="Owner"><relationship name="pet" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/><relationship name="other" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/></entity><entity name="Pet"><relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pet" inverseEntity="Owner"/></entity>"#
                ), file: "InverseMismatch.xcdatamodel/contents", at: "owner\" inverseEntity=\"Pet\"/></entity>"),
            Case(
                rule: .minCountGreaterThanMaxCount, severity: .error,
                files: model("Counts", link(#"deletionRule="Nullify" minCount="3" maxCount="2""#) + pet),
                file: "Counts.xcdatamodel/contents", at: "3\""),
            Case(
                rule: .minGreaterThanMax, severity: .error,
                files: model(
                    "MinMax",
                    #"<entity name="Counter"><attribute name="count" optional="YES" attributeType="Integer 16" minValueString="5" maxValueString="1"/></entity>"#
                ), file: "MinMax.xcdatamodel/contents", at: "5\""),
            Case(
                rule: .missingDestination, severity: .error,
                files: model(
                    "Destination",
                    #"<entity name="Owner"><relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Ghost"/></entity>"#
                ), file: "Destination.xcdatamodel/contents", at: "Ghost"),
            Case(
                rule: .missingInverse, severity: .error,
                files: model("Inverse", link(#"deletionRule="Nullify" inverseName="owner" inverseEntity="Pet""#) + pet),
                file: "Inverse.xcdatamodel/contents", at: "owner\""),
            Case(
                rule: .missingParentEntity, severity: .error,
                files: model("Parent", #"<entity name="Dog" parentEntity="Animal"/>"#),
                file: "Parent.xcdatamodel/contents",
                at: "Animal"),
            Case(
                rule: .noInverse, severity: .warning, files: model("NoInverse", link(#"deletionRule="Nullify""#) + pet),
                file: "NoInverse.xcdatamodel/contents", at: "<relationship"),
            Case(
                rule: .propertyNameCase, severity: .warning,
                files: model(
                    "PropertyCase",
                    #"<entity name="Pet"><attribute name="Name" optional="YES" attributeType="String"/></entity>"#),
                file: "PropertyCase.xcdatamodel/contents", at: "Name\""),
            Case(
                rule: .propertyNameClash, severity: .error,
                files: model(
                    "Clash",
                    #"<entity name="Pet"><attribute name="owner" optional="YES" attributeType="String"/><relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Pet"/></entity>"#
                ), file: "Clash.xcdatamodel/contents", at: "owner\" optional=\"YES\" maxCount"),
            Case(
                rule: .reservedName, severity: .error,
                files: model(
                    "Reserved",
                    #"<entity name="Pet"><attribute name="_secret" optional="YES" attributeType="String"/></entity>"#),
                file: "Reserved.xcdatamodel/contents", at: "_secret"),
            Case(
                rule: .transformableWithoutTransformer, severity: .warning,
                files: model(
                    "Transformable",
                    #"<entity name="Pet"><attribute name="toys" optional="YES" attributeType="Transformable"/></entity>"#
                ),
                file: "Transformable.xcdatamodel/contents", at: "<attribute"),
            Case(
                rule: .unknownAttributeType, severity: .error,
                files: model(
                    "AttributeType",
                    #"<entity name="Pet"><attribute name="age" optional="YES" attributeType="Integer 12"/></entity>"#),
                file: "AttributeType.xcdatamodel/contents", at: "Integer 12"),
            Case(
                rule: .unknownComposite, severity: .error,
                files: model(
                    "Composite",
                    #"<entity name="Pet"><attribute name="address" optional="YES" attributeType="Composite" composite="Address"/></entity>"#
                ), file: "Composite.xcdatamodel/contents", at: "Address"),
            Case(
                rule: .compositeCycle, severity: .error,
                files: model(
                    "CompositeCycle",
                    #"<composite name="Place"><attribute name="inner" optional="YES" attributeType="Composite" composite="Place"/></composite><entity name="Pet"><attribute name="place" optional="YES" attributeType="Composite" composite="Place"/></entity>"#
                ), file: "CompositeCycle.xcdatamodel/contents", at: "Place"),
            Case(
                rule: .compositeMember, severity: .error,
                files: model(
                    "CompositeMember",
                    #"<composite name="Place"><attribute name="scratch" transient="YES" optional="YES" attributeType="String"/></composite><entity name="Pet"><attribute name="place" optional="YES" attributeType="Composite" composite="Place"/></entity>"#
                ), file: "CompositeMember.xcdatamodel/contents", at: "YES"),
            Case(
                rule: .unknownConstraintProperty, severity: .error,
                files: model(
                    "Constraint",
                    #"<entity name="Pet"><attribute name="name" optional="YES" attributeType="String"/><uniquenessConstraints><uniquenessConstraint><constraint value="nickname"/></uniquenessConstraint></uniquenessConstraints></entity>"#
                ), file: "Constraint.xcdatamodel/contents", at: "nickname"),
            Case(
                rule: .unknownDeletionRule, severity: .error,
                files: model("DeletionRule", link(#"deletionRule="Explode""#) + pet),
                file: "DeletionRule.xcdatamodel/contents",
                at: "Explode"),
            Case(
                rule: .unknownIndexProperty, severity: .error,
                files: model(
                    "FetchIndex",
                    #"<entity name="Pet"><attribute name="name" optional="YES" attributeType="String"/><fetchIndex name="byNickname"><fetchIndexElement property="nickname" type="Binary" order="ascending"/></fetchIndex></entity>"#
                ), file: "FetchIndex.xcdatamodel/contents", at: "nickname"),
            // What Remodel does not implement (MODELS.md, "Model features"): at the value, or the element
            Case(
                rule: .ignoredPlatformOption, severity: .warning,
                files: model(
                    "PlatformOption",
                    #"<entity name="Place"><attribute name="title" attributeType="String" spotlightIndexingEnabled="YES"/></entity>"#
                ), file: "PlatformOption.xcdatamodel/contents", at: "YES"),
            Case(
                rule: .unknownModelAttribute, severity: .warning,
                files: model(
                    "StrangeAttribute",
                    #"<entity name="Place"><attribute name="title" optional="YES" attributeType="String" sparkle="on"/></entity>"#
                ), file: "StrangeAttribute.xcdatamodel/contents", at: "on\"/>"),
            Case(
                rule: .unknownModelElement, severity: .warning,
                files: model(
                    "UnknownElement",
                    #"<entity name="Place"><attribute name="title" optional="YES" attributeType="String"/><hologram/></entity>"#
                ), file: "UnknownElement.xcdatamodel/contents", at: "<hologram"),
            Case(
                rule: .configurationUnknownEntity, severity: .error,
                files: model(
                    "ConfigurationUnknown",
                    #"<entity name="Place"><attribute name="title" optional="YES" attributeType="String"/></entity><configuration name="Cloud"><memberEntity name="Place"/><memberEntity name="Ghost"/></configuration>"#
                ), file: "ConfigurationUnknown.xcdatamodel/contents", at: "<memberEntity name=\"Ghost"),
            Case(
                rule: .configurationNotClosed, severity: .warning,
                files: model(
                    "ConfigurationNotClosed",
                    #"<entity name="Place"><relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="places" inverseEntity="Owner"/></entity><entity name="Owner"><relationship name="places" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Place" inverseName="owner" inverseEntity="Place"/></entity><configuration name="Cloud"><memberEntity name="Place"/></configuration>"#
                ), file: "ConfigurationNotClosed.xcdatamodel/contents", at: "<relationship name=\"owner"),
            Case(
                rule: .ignoredFetchedProperty, severity: .warning,
                files: model(
                    "FetchedProperty",
                    #"<entity name="Place"><attribute name="title" optional="YES" attributeType="String"/><fetchedProperty name="near" optional="YES"><fetchRequest name="fetchedPropertyFetchRequest" entity="Place"/></fetchedProperty></entity>"#
                ), file: "FetchedProperty.xcdatamodel/contents", at: "<fetchedProperty"),
            Case(
                rule: .ignoredFetchRequest, severity: .warning,
                files: model(
                    "FetchRequest",
                    #"<entity name="Place"><attribute name="title" optional="YES" attributeType="String"/></entity><fetchRequest name="Everywhere" entity="Place" predicateString="TRUEPREDICATE"/>"#
                ), file: "FetchRequest.xcdatamodel/contents", at: "<fetchRequest"),
            Case(
                rule: .ignoredFetchIndexElement, severity: .warning,
                files: model(
                    "ExpressionIndex",
                    #"<entity name="Place"><attribute name="title" optional="YES" attributeType="String"/><fetchIndex name="byLength"><fetchIndexElement expression="length:(title)" expressionType="Integer 64" type="Binary" order="ascending"/></fetchIndex></entity>"#
                ), file: "ExpressionIndex.xcdatamodel/contents", at: "length:(title)"),
            // Two names that look alike (NFD and NFC): at the sub-entity's, written first
            Case(
                rule: .equivalentNames, severity: .error,
                files: model(
                    "LookAlike",
                    "<entity name=\"Bar\" parentEntity=\"Shop\"><attribute name=\"cafe\u{301}\" optional=\"YES\" attributeType=\"String\"/></entity><entity name=\"Shop\"><attribute name=\"caf\u{E9}\" optional=\"YES\" attributeType=\"String\"/></entity>"
                ), file: "LookAlike.xcdatamodel/contents", at: "cafe\u{301}"),
            // Derivation expressions (MODELS.md, "Derived attributes"): at the character at fault inside the expression
            Case(
                rule: .derivationSyntax, severity: .error,
                files: model(
                    "DerivationSyntax",
                    #"<entity name="Person"><attribute name="first" optional="YES" attributeType="String"/><attribute name="label" optional="YES" attributeType="String" derived="YES" derivationExpression="first ++ first"/></entity>"#
                ), file: "DerivationSyntax.xcdatamodel/contents", at: "++"),
            Case(
                rule: .derivationInvalid, severity: .error,
                files: model(
                    "DerivationInvalid",
                    #"<entity name="Person"><attribute name="first" optional="YES" attributeType="String"/><attribute name="shout" optional="YES" attributeType="String" derived="YES" derivationExpression="uppercase:(frist)"/></entity>"#
                ), file: "DerivationInvalid.xcdatamodel/contents", at: "frist"),
            Case(
                rule: .derivationMissing, severity: .error,
                files: model(
                    "DerivationMissing",
                    #"<entity name="Person"><attribute name="label" optional="YES" attributeType="String" derived="YES"/></entity>"#
                ), file: "DerivationMissing.xcdatamodel/contents", at: "YES\"/>"),
            Case(
                rule: .derivationUnsupported, severity: .error,
                files: model(
                    "DerivationUnsupported",
                    pet.replacingOccurrences(
                        of: "</entity>",
                        with:
                            #"<relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/></entity>"#
                    )
                        + link(#"deletionRule="Nullify" inverseName="owner" inverseEntity="Pet""#).replacingOccurrences(
                            of: "</entity>",
                            with:
                                #"<attribute name="kinds" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="pets.@distinctUnionOfObjects"/></entity>"#
                        )), file: "DerivationUnsupported.xcdatamodel/contents", at: "@distinct"),
            Case(
                rule: .derivationIgnored, severity: .warning,
                files: model(
                    "DerivationIgnored",
                    #"<entity name="Person"><attribute name="first" optional="YES" attributeType="String"/><attribute name="plain" optional="YES" attributeType="String" derivationExpression="first"/></entity>"#
                ), file: "DerivationIgnored.xcdatamodel/contents", at: "first\"/>"),
            // Mapping files
            Case(
                rule: .mappingConflict, severity: .error,
                files: mapped(
                    "Conflict", from: withAge, to: withAge,
                    #"<entity source="Person" destination="Person"><attribute name="age" value="1"/></entity><entity source="Person" destination="Person"><attribute name="age" value="2"/></entity>"#
                ), file: "Conflict.xml",
                at: "<entity source=\"Person\" destination=\"Person\"><attribute name=\"age\" value=\"2\""),
            Case(
                rule: .mappingDerivedAttribute, severity: .error,
                files: mapped(
                    "DerivedKey",
                    from:
                        #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><attribute name="key" optional="YES" attributeType="String" derived="YES" derivationExpression="uppercase:(name)"/></entity>"#,
                    to:
                        #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><attribute name="key" optional="YES" attributeType="String" derived="YES" derivationExpression="lowercase:(name)"/></entity>"#,
                    #"<entity source="Person" destination="Person"><attribute name="key" value="$source.name"/></entity>"#
                ), file: "DerivedKey.xml", at: "key\" value"),
            Case(
                rule: .mappingDuplicateAttribute, severity: .error,
                files: mapped(
                    "TwiceAttribute", from: withAge, to: withAge,
                    #"<entity source="Person" destination="Person"><attribute name="age" value="1"/><attribute name="age" value="2"/></entity>"#
                ), file: "TwiceAttribute.xml", at: "age\" value=\"2\""),
            Case(
                rule: .mappingDuplicateStep, severity: .error,
                files: mapped(
                    "TwiceStep", from: person, to: withAge, #"<entity source="Person" destination="Person"/>"#)
                    + [
                        (
                            "TwiceStep again.xml",
                            #"<mapping model="TwiceStep" sourceVersion="TwiceStep" destinationVersion="TwiceStep 2"><entity source="Person" destination="Person"/></mapping>"#
                        )
                    ], file: "TwiceStep.xml", at: "<mapping"),
            Case(
                rule: .mappingFilterType, severity: .error,
                files: mapped(
                    "Filter", from: withAge, to: withAge,
                    #"<entity source="Person" destination="Person" filter="$source.age"/>"#),
                file: "Filter.xml", at: "$source.age"),
            Case(
                rule: .mappingIncomplete, severity: .error,
                files: mapped(
                    "Incomplete", from: withAge, to: withFullName, #"<entity source="Person" destination="Person"/>"#),
                file: "Incomplete.xml", at: "<entity"),
            Case(
                rule: .mappingMissingAttribute, severity: .error,
                files: bundle("MissingAttribute", [("MissingAttribute", person)])
                    + [
                        (
                            "MissingAttribute.xml",
                            #"<mapping model="MissingAttribute" sourceVersion="MissingAttribute"/>"#
                        )
                    ],
                file: "MissingAttribute.xml", at: "<mapping"),
            Case(
                rule: .mappingSourceObject, severity: .error,
                files: mapped(
                    "SourceObject", from: person + pet,
                    to:
                        #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><relationship name="pet" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Pet"/></entity>"#
                        + pet,
                    #"<entity source="Person" destination="Person"><relationship name="pet" source="$source"/></entity>"#
                ),
                file: "SourceObject.xml", at: "<relationship"),
            Case(
                rule: .mappingUnknownAttribute, severity: .error,
                files: mapped(
                    "UnknownAttribute", from: withAge, to: withAge,
                    #"<entity source="Person" destination="Person"><attribute name="agee" value="1"/></entity>"#),
                file: "UnknownAttribute.xml", at: "agee"),
            Case(
                rule: .mappingUnknownElement, severity: .error,
                files: mapped(
                    "UnknownElement", from: withAge, to: withAge,
                    #"<entity source="Person" destination="Person"><note/></entity>"#),
                file: "UnknownElement.xml", at: "<note"),
            Case(
                rule: .mappingUnknownEntity, severity: .error,
                files: mapped(
                    "UnknownEntity", from: withAge, to: withAge, #"<entity source="Persn" destination="Person"/>"#),
                file: "UnknownEntity.xml", at: "Persn"),
            Case(
                rule: .mappingUnknownModel, severity: .error,
                files: [
                    ("UnknownModel.xml", #"<mapping model="NoSuchModel" sourceVersion="A" destinationVersion="B"/>"#)
                ],
                file: "UnknownModel.xml", at: "NoSuchModel"),
            Case(
                rule: .mappingUnknownRelationship, severity: .error,
                files: mapped(
                    "UnknownRelationship", from: withAge, to: withAge,
                    #"<entity source="Person" destination="Person"><relationship name="friends"/></entity>"#),
                file: "UnknownRelationship.xml", at: "friends"),
            Case(
                rule: .mappingUnknownVersion, severity: .error,
                files: bundle("UnknownVersion", [("UnknownVersion", person)])
                    + [
                        (
                            "UnknownVersion.xml",
                            #"<mapping model="UnknownVersion" sourceVersion="UnknownVersion" destinationVersion="UnknownVersion 7"/>"#
                        )
                    ], file: "UnknownVersion.xml", at: "UnknownVersion 7"),
            Case(
                rule: .mappingWrongRoot, severity: .error, files: [("WrongRootMapping.xml", "<mappings/>\n")],
                file: "WrongRootMapping.xml", at: "<mappings"),
            Case(
                rule: .expressionTooDeep, severity: .error,
                files: mapped(
                    "TooDeep", from: withAge, to: withAge,
                    #"<entity source="Person" destination="Person"><attribute name="age" value="\#(String(repeating: "(", count: 40))$source.age\#(String(repeating: " + 1)", count: 40))"/></entity>"#
                ), file: "TooDeep.xml", at: "((("),
            // Expressions
            Case(
                rule: .expressionSyntax, severity: .error,
                files: mapped(
                    "Syntax", from: withAge, to: withAge,
                    #"<entity source="Person" destination="Person"><attribute name="age" value="$source.age +"/></entity>"#
                ),
                file: "Syntax.xml", at: "\"/></entity>"),
            Case(
                rule: .expressionType, severity: .error,
                files: mapped(
                    "Type", from: withAge, to: withAge,
                    #"<entity source="Person" destination="Person"><attribute name="age" value="$source.name * 2"/></entity>"#
                ),
                file: "Type.xml", at: "* 2"),
            Case(
                rule: .expressionOptional, severity: .warning,
                files: mapped(
                    "Optional", from: withAge, to: withFullName,
                    #"<entity source="Person" destination="Person"><attribute name="fullName" value="$source.phone"/></entity>"#
                ),
                file: "Optional.xml", at: "$source.phone"),
        ]
    }()

    /// The first line that is about `file` (a path under `folder`).
    static func lines(about file: String, in output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix(file + ":") }
    }

    /// `line:column` of the first occurrence of `needle` in `text`, 1-based, the column counted in characters.
    static func position(of needle: String, in text: String) -> String? {
        guard let range = text.range(of: needle) else { return nil }
        let before = text[..<range.lowerBound]
        let line = before.filter { $0 == "\n" }.count + 1
        let column =
            before.distance(
                from: before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex,
                to: before.endIndex) + 1
        return "\(line):\(column)"
    }

    @Test func everyModelAndMappingRuleIsPrintedByValidateAtItsPlace() throws {
        let folder = try TemporaryFolder()
        for testCase in Self.validateCases {
            for file in testCase.files {
                let path = folder.file(file.path)
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try file.text.write(toFile: path, atomically: true, encoding: .utf8)
            }
        }
        let result = try RemodelProcess.run(["validate", folder.path])
        #expect(result.status == 1, "\(result)")
        for testCase in Self.validateCases {
            let file = folder.file(testCase.file)
            let rule = "[\(testCase.rule.rawValue)]"
            let found = Self.lines(about: file, in: result.output).filter { $0.hasSuffix(rule) }
            var prefix = file + ": \(testCase.severity.rawValue): "
            if let at = testCase.at {
                let text = try #require(testCase.files.first { $0.path == testCase.file }?.text)
                let position = try #require(Self.position(of: at, in: text), "\(testCase.rule.rawValue): no \(at)")
                prefix = file + ":\(position): \(testCase.severity.rawValue): "
            }
            #expect(
                found.contains { $0.hasPrefix(prefix) },
                "\(testCase.rule.rawValue): expected a line starting \(prefix), found:\n\(Self.lines(about: file, in: result.output).joined(separator: "\n"))\n\(result.output.split(separator: "\n").filter { $0.contains(rule) }.joined(separator: "\n"))"
            )
        }
    }
}

// MARK: - Xcode mapping models

extension DiagnosticRuleCommandTests {
    typealias E = XcodeExpression

    /// A rule of Xcode mapping models: `write` puts a mapping model (and what else the case needs) into a project,
    /// and gives the file the diagnostic names, a text on its line, and the column when that text does not start it.
    struct XcodeCase {
        var rule: DiagnosticRule
        var severity: Severity
        var write: @Sendable (ShopProject) throws -> (file: String, needle: String, column: Int?)
    }

    private static func source(_ path: String) -> E { E(.keyPath(E(.variable("source")), path)) }

    /// Writes `fixture` (the complete mapping model, changed by `change`) into the project.
    private static func written(
        _ project: ShopProject, _ change: (inout XcodeMappingFixture) throws -> Void
    ) throws -> String {
        var fixture = try XcodeMappingValidationTests.complete(project)
        try change(&fixture)
        return try project.write(fixture)
    }

    static let xcodeCases: [XcodeCase] = [
        XcodeCase(rule: .xcodeMappingStructure, severity: .error) { project in
            let folder = project.mappings + "/Broken.xcmappingmodel"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try "<?xml version=\"1.0\"?>\n<notadatabase/>\n".write(
                toFile: folder + "/xcmapping.xml", atomically: true, encoding: .utf8)
            return (folder + "/xcmapping.xml", "<notadatabase", nil)
        },
        XcodeCase(rule: .xcodeMappingData, severity: .error) { project in
            let path = try written(project) {
                $0.entities[0].attributes[1] = .init("price", rawData: "bm90IGEgcGxpc3Q=")
            }
            return (path, "bm90IGEgcGxpc3Q=", 9)
        },
        XcodeCase(rule: .xcodeMappingUnknownVersion, severity: .error) { project in
            let path = try written(project) { fixture in
                fixture.destinationPath = "Shop.xcdatamodeld/Shop 3.xcdatamodel"
                var snapshot = try project.snapshot("Shop 2")
                snapshot.entities["Item"]?.insert("rating")
                fixture.destinationSnapshot = snapshot
            }
            return (path, "destinationmodelpath", 62)
        },
        XcodeCase(rule: .xcodeMappingSnapshotDiffers, severity: .warning) { project in
            let path = try written(project) { fixture in
                var snapshot = try project.snapshot("Shop")
                snapshot.entities["Gift"] = ["wrapping"]
                fixture.sourceSnapshot = snapshot
            }
            return (path, "sourcemodelpath", 57)
        },
        XcodeCase(rule: .xcodeMappingExpression, severity: .error) { project in
            let path = try written(project) { fixture in
                fixture.entities[0].attributes[4] = .init(
                    "code", E(.function(operand: source("name"), selector: "hash", arguments: [])))
            }
            let archive = ExpressionArchiver.archive(
                E(.function(operand: source("name"), selector: "hash", arguments: [])))
            return (path, XcodeMappingFixture.base64(archive), 9)
        },
        XcodeCase(rule: .xcodeMappingFilter, severity: .error) { project in
            let path = try written(project) { $0.entities[0].filter = "name BEGINSWITH 'x'" }
            return (path, "name BEGINSWITH", nil)
        },
        XcodeCase(rule: .xcodeMappingPolicy, severity: .warning) { project in
            let path = try written(project) { $0.entities[0].policy = "ShopKit.ItemPolicy" }
            return (path, "ShopKit.ItemPolicy", nil)
        },
        XcodeCase(rule: .xcodeMappingUnknownEntityMapping, severity: .warning) { project in
            let path = try written(project) { fixture in
                fixture.entities[0].relationships[0] = .init(
                    "labels",
                    E(
                        .function(
                            operand: E(.variable("manager")), selector: RelationshipTranslation.byEntityMapping,
                            arguments: [E(.constant(.string("LabelToLabel"))), source("tags")])))
            }
            let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
            let name = try #require(lines.firstIndex { $0.contains(">labels<") })
            let data = try #require(lines[..<name].lastIndex { $0.contains("valueexpressiondata") })
            return (path, lines[data].trimmingCharacters(in: .whitespaces), 9)
        },
        XcodeCase(rule: .xcodeMappingUnmappedEntity, severity: .warning) { project in
            // Tag, which Shop 2 still has, read by no entity mapping.
            let path = try written(project) { $0.entities.removeAll { $0.source == "Tag" } }
            return (path, "XDDEVMAPPINGMODEL\" id", 5)
        },
        XcodeCase(rule: .xcodeMappingDuplicate, severity: .warning) { project in
            let path = try written(project) { $0.entities.append($0.entities[1]) }
            // The second TagToTag, the fourth entity mapping by number, is the one ignored: its object is named.
            let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
            let number = try #require(lines.firstIndex { $0.contains("\"mappingnumber\" type=\"int16\">4<") })
            let object = try #require(lines[..<number].lastIndex { $0.contains("type=\"XDDEVENTITYMAPPING\"") })
            return (path, lines[object].trimmingCharacters(in: .whitespaces), nil)
        },
        XcodeCase(rule: .xcodeMappingBackwards, severity: .warning) { project in
            let path = try written(project) { fixture in
                swap(&fixture.sourcePath, &fixture.destinationPath)
                swap(&fixture.sourceSnapshot, &fixture.destinationSnapshot)
                fixture.entities = [
                    XcodeMappingFixture.EntityMapping(source: "Tag", destination: "Tag", attributes: [.init("label")])
                ]
            }
            return (path, "XDDEVMAPPINGMODEL\" id", 5)
        },
        XcodeCase(rule: .xcodeMappingSuperseded, severity: .warning) { project in
            let path = try written(project) { _ in }
            try
                #"<mapping model="Shop" sourceVersion="Shop" destinationVersion="Shop 2"><entity source="Item" destination="Item"><attribute name="title" value="$source.name"/><attribute name="price" value="decimal($source.price)"/><attribute name="active" value="int($source.active)"/></entity></mapping>"#
                .write(toFile: project.mappings + "/shop.xml", atomically: true, encoding: .utf8)
            return (path, "XDDEVMAPPINGMODEL\" id", 5)
        },
    ]

    @Test(arguments: xcodeCases.indices)
    func everyXcodeMappingRuleIsPrintedByValidateAtItsPlace(index: Int) throws {
        let testCase = Self.xcodeCases[index]
        let project = try ShopProject()
        let (file, needle, column) = try testCase.write(project)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let position = try #require(Self.position(of: needle, in: text), "\(testCase.rule.rawValue): no \(needle)")
        let at = column.map { "\(position.split(separator: ":")[0]):\($0)" } ?? position
        let result = try RemodelProcess.run(["validate", project.bundlePath, project.mappings])
        let rule = "[\(testCase.rule.rawValue)]"
        let prefix = "\(file):\(at): \(testCase.severity.rawValue): "
        #expect(
            result.output.split(separator: "\n").contains { $0.hasPrefix(prefix) && $0.hasSuffix(rule) },
            "\(testCase.rule.rawValue): expected a line starting \(prefix), found:\n\(result.output)")
    }
}

// MARK: - The difference between two versions

extension DiagnosticRuleCommandTests {
    /// What `remodel diff` finds comparing two versions names no place in a file: `severity: message [rule]`.
    static let diffRules: [(DiagnosticRule, Severity)] = [
        (.dataDropped, .warning), (.likelyRename, .warning), (.needsMapping, .error),
        (.newUniquenessConstraint, .warning), (.requiredLinkDropped, .warning),
    ]

    /// `Person.phone` removed and `mobile` (String) added, `age` String → Integer 32, `name` made unique, and the
    /// sub-entity `Gadget` of `Item`, which `Person.item` requires, removed.
    @Test func everyDiffRuleIsPrintedByDiff() throws {
        let folder = try TemporaryFolder()
        for (path, text) in Self.bundle(
            "Compared",
            [
                (
                    "Compared",
                    #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><attribute name="phone" optional="YES" attributeType="String"/><attribute name="age" optional="YES" attributeType="String"/><relationship name="item" maxCount="1" deletionRule="Nullify" destinationEntity="Item"/></entity><entity name="Item"><attribute name="label" optional="YES" attributeType="String"/></entity><entity name="Gadget" parentEntity="Item"><attribute name="volts" optional="YES" attributeType="Integer 16"/></entity>"#
                ),
                (
                    "Compared 2",
                    #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/><attribute name="mobile" optional="YES" attributeType="String"/><attribute name="age" optional="YES" attributeType="Integer 32"/><relationship name="item" maxCount="1" deletionRule="Nullify" destinationEntity="Item"/><uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints></entity><entity name="Item"><attribute name="label" optional="YES" attributeType="String"/></entity>"#
                ),
            ])
        {
            let file = folder.file(path)
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        }
        let result = try RemodelProcess.run(["diff", folder.file("Compared.xcdatamodeld")])
        #expect(result.status == 1, "\(result)")
        for (rule, severity) in Self.diffRules {
            #expect(
                result.output.split(separator: "\n").contains {
                    $0.hasPrefix("\(severity.rawValue): ") && $0.hasSuffix("[\(rule.rawValue)]")
                }, "\(rule.rawValue):\n\(result.output)")
        }
    }
}

// MARK: - Every documented rule has its case

extension DiagnosticRuleCommandTests {
    /// The rules docs/VALIDATE.md and docs/EXPRESSIONS.md document (their tables' `| `rule` |` rows).
    static func documentedRules() throws -> Set<String> {
        var rules: Set<String> = []
        for guide in ["VALIDATE.md", "EXPRESSIONS.md"] {
            let text = try String(contentsOfFile: MigrationFixtures.packageRoot + "/docs/" + guide, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("| `") {
                let name = line.dropFirst(3).prefix { $0 != "`" }
                if DiagnosticRule(rawValue: String(name)) != nil { rules.insert(String(name)) }
            }
        }
        return rules
    }

    @Test func everyDocumentedRuleAndEveryRuleOfTheEnumHasACase() throws {
        let covered = Set(
            Self.validateCases.map(\.rule.rawValue) + Self.xcodeCases.map(\.rule.rawValue)
                + Self.diffRules.map(\.0.rawValue))
        #expect(try Self.documentedRules().subtracting(covered).sorted() == [])
        #expect(Set(DiagnosticRule.allCases.map(\.rawValue)).subtracting(covered).sorted() == [])
    }
}
