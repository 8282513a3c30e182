package sample

import _ "embed"

//go:generate go run ../../internal/samplegen -out cube-sample.xlsx

// FileName is the name to offer when the sample is saved or opened.
const FileName = "cube-sample.xlsx"

//go:embed cube-sample.xlsx
var workbook []byte

// Workbook returns the bytes of the sample workbook. The slice is shared:
// callers must not modify it.
func Workbook() []byte { return workbook }
