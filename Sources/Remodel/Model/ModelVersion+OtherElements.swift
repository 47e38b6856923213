extension ModelVersion {
    /// An element of a model file the reader does not interpret: a model's `<fetchRequest>` template, or an element
    /// Remodel does not know, under the model, an entity, an attribute or a relationship. Kept with where it is
    /// written so that `validate` names it (docs/MODELS.md, "Model features"); Xcode's diagram layout
    /// (`<elements>`) is not one.
    package struct OtherElement: Sendable, Hashable {
        /// The element's name, such as `fetchRequest`.
        package var name: String
        /// What it is written in: `model`, or `entity Person`, `attribute Person.name`, ….
        package var parent: String
        /// Where it is written, with its XML attributes.
        package var source: ElementSource
    }
}
