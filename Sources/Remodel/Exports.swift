// `import Remodel` gives an app the model, its files, rules and store layout too, as before they were a module of
// their own below this one.
@_exported public import RemodelModel
