package report

import "cubeworkbench/core/text"

// The words of printsetup.go, Chinese first.
var (
	printCuBEEvaluationReport = text.New("CuBE 评估报告", "CuBE evaluation report")
	printMethodEveryJudge     = text.New("方法、各评审模型、逐题结果（最差的在前）和问题见后续各表；灰色标签的数据表供重新打开报告使用。", "Method, every judge, every question (worst first) and the problems follow on the next sheets; the grey data sheets are for re-opening the report.")
	printDataSheetRe          = text.New("数据表：供重新打开报告（cubectl evaluate）使用，打印时只打印表头行。", "Data sheet for re-opening the report (cubectl evaluate); only its header row prints.")
)
