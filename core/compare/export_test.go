package compare

// HasWarning lets the external sample test (package compare_test, which
// imports the engine: the engine's results hold a compare.Result, so an
// internal test importing it would be a cycle) use the helper.
var HasWarning = hasWarning
