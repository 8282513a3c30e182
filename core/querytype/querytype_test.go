package querytype_test

import (
	"strings"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/querytype"
)

// TestRegistry: names are the dataset constants, every spelling maps to its
// type through dataset.CanonicalQueryType (as the importers call it), and no
// spelling is claimed twice.
func TestRegistry(t *testing.T) {
	want := []string{dataset.QueryFactual, dataset.QueryAnalytical, dataset.QueryComparative, dataset.QueryTutorial}
	all := querytype.All()
	if len(all) != len(want) {
		t.Fatalf("%d types, want %d", len(all), len(want))
	}
	claimed := map[string]string{}
	for i, qt := range all {
		if qt.Name != want[i] || qt.TitleZH == "" || qt.TitleEN == "" {
			t.Errorf("entry %d: %+v", i, qt)
		}
		for _, s := range append([]string{qt.Name}, qt.Aliases...) {
			if s != strings.ToLower(strings.TrimSpace(s)) {
				t.Errorf("%s: spelling %q is not trimmed lower case", qt.Name, s)
			}
			if other, dup := claimed[s]; dup {
				t.Errorf("%q claimed by %s and %s", s, other, qt.Name)
			}
			claimed[s] = qt.Name
			if got := dataset.CanonicalQueryType("  " + strings.ToUpper(s) + " "); got != qt.Name {
				t.Errorf("CanonicalQueryType(%q) = %q, want %q", s, got, qt.Name)
			}
		}
	}
	if got := dataset.CanonicalQueryType(" Procedural "); got != "procedural" {
		t.Errorf("unknown type: %q", got)
	}
	if qt, ok := querytype.Lookup("tutorial"); !ok || qt.Title("zh") != "教程类" || qt.Title("en") != "Tutorial" {
		t.Errorf("Lookup tutorial: %+v %v", qt, ok)
	}
}
