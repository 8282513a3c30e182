package dataset

import "strings"

func lowerTrim(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
