package report

import (
	"cubeworkbench/core/glossary"
)

// The words of report.go, Chinese first.
var (
	wordNA = glossaryTerm(glossary.NotApplicable)
)
