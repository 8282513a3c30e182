package version

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Base must match FyneApp.toml's Version: the installer, the .deb and the
// window's About read that file, --version and the report read Base.
func TestBaseMatchesFyneApp(t *testing.T) {
	b, err := os.ReadFile("../../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^Version\s*=\s*"([^"]+)"`).FindSubmatch(b)
	if m == nil {
		t.Fatal("FyneApp.toml has no Version")
	}
	if got := string(m[1]); got != Base {
		t.Fatalf("FyneApp.toml Version %q, version.Base %q: keep them equal", got, Base)
	}
}

func TestString(t *testing.T) {
	defer func(v, c, d string) { version, commit, date = v, c, d }(version, commit, date)
	cases := []struct {
		name, version, commit, date string
		want, longHas, longNot      string
	}{
		{"unstamped", "", "", "", Base + "-dev", Base + "-dev ", "("},
		{"stamped", "0.1.0-dev.7+g1a2b3c4d5e", "1a2b3c4d5e6f7a8b9c0d", "2026-12-01",
			"0.1.0-dev.7+g1a2b3c4d5e", "0.1.0-dev.7+g1a2b3c4d5e (1a2b3c4d5e6f, 2026-12-01) ", "9c0d"},
		{"release", "0.1.0", "abc", "", "0.1.0", "0.1.0 (abc) ", ","},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			version, commit, date = c.version, c.commit, c.date
			if got := String(); got != c.want {
				t.Fatalf("String() = %q, want %q", got, c.want)
			}
			l := Long()
			if !strings.HasPrefix(l, c.longHas) || strings.Contains(l, c.longNot) {
				t.Fatalf("Long() = %q, want prefix %q and no %q", l, c.longHas, c.longNot)
			}
		})
	}
}
