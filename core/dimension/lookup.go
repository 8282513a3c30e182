package dimension

import "cubeworkbench/core/text"

// All returns every built-in dimension, CuBE's in report order, then CoFE's.
func All() []Dimension { return append([]Dimension(nil), builtins...) }

// Lookup returns the built-in dimension called name.
func Lookup(name string) (Dimension, bool) {
	for _, d := range builtins {
		if d.Name == name {
			return d, true
		}
	}
	return Dimension{}, false
}

// Names lists the built-in dimensions of method (CuBE or CoFE) in order.
func Names(method string) []string {
	var out []string
	for _, d := range builtins {
		if d.Method == method {
			out = append(out, d.Name)
		}
	}
	return out
}

// Defaults lists CuBE's default rubric in report order: what a profile
// judges unless it names its dimensions.
func Defaults() []string {
	var out []string
	for _, d := range builtins {
		if d.Method == CuBE && d.Default {
			out = append(out, d.Name)
		}
	}
	return out
}

// Title is the display name of a dimension in lang; ok is false for a
// dimension that is not built in.
func Title(name string, lang text.Lang) (string, bool) {
	d, ok := Lookup(name)
	if !ok {
		return "", false
	}
	return d.Title(lang), true
}
