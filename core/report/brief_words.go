package report

import "cubeworkbench/core/text"

// The words of brief.go, Chinese first.
var (
	briefAnswersWorkbook = text.New("工作簿中的回答", "answers in the workbook")
)
