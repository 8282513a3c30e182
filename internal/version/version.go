// Package version is the one place the build's version lives. Release builds
// stamp it from git with
//
//	-ldflags "-X cubeworkbench/internal/version.version=0.1.0-dev.42+g1a2b3c4d5e
//	          -X cubeworkbench/internal/version.commit=1a2b3c4d5e…
//	          -X cubeworkbench/internal/version.date=2026-12-01"
//
// (scripts/release.sh computes the three). A plain `go build` or `go run`
// is not stamped and says so: Base + "-dev", so a report written by an
// unstamped binary can never pass for a release.
package version

import (
	"fmt"
	"runtime"
)

// Base is the release the tree is working towards; it must equal Version in
// FyneApp.toml (a test checks), which the installer and the .deb also read.
const Base = "0.1.0"

// Stamped by the linker; empty in an unstamped build.
var (
	version = ""
	commit  = ""
	date    = ""
)

// String is the version shown by `cube --version`, written into the
// report's footer and Method sheet and recorded with each run in the store.
func String() string {
	if version == "" {
		return Base + "-dev"
	}
	return version
}

// Commit is the full git commit the binary was built from, or "" if unstamped.
func Commit() string { return commit }

// Date is the commit date (YYYY-MM-DD) of that commit, or "" if unstamped.
// It is the commit's date, not the build's, so that rebuilding the same
// commit gives the same bytes.
func Date() string { return date }

// Long is String with the commit, its date and the platform, for --version
// output and bug reports.
func Long() string {
	s := String()
	if commit != "" {
		c := commit
		if len(c) > 12 {
			c = c[:12]
		}
		s += " (" + c
		if date != "" {
			s += ", " + date
		}
		s += ")"
	}
	return fmt.Sprintf("%s %s/%s %s", s, runtime.GOOS, runtime.GOARCH, runtime.Version())
}
