//go:build !windows

package userdirs

// knownDocuments is only meaningful on Windows.
func knownDocuments() (string, error) { return "", nil }
