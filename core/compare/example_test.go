package compare_test

import (
	"fmt"

	"cubeworkbench/core/compare"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
)

// Two answer sets of one workbook: four questions, one judge, one
// dimension; v2 is better on q4 only, which four questions cannot prove.
func ExampleCompare() {
	wb := &dataset.Workbook{}
	for i, id := range []string{"q1", "q2", "q3", "q4"} {
		wb.Items = append(wb.Items, dataset.Item{ID: id, Question: id, DocID: "d" + id, Retrieved: []string{"d" + id}})
		v2 := 5.0
		if i == 3 {
			v2 = 9
		}
		for set, s := range map[string]float64{"zero": 0, "full": 10, "rag": 5, "v2": v2} {
			wb.Scores.Add(dataset.Judgement{ItemID: id, Set: set, Judge: "j", Dimension: "d", Repeat: 1, Score: s, Status: dataset.StatusOK})
		}
	}
	cfg := cube.DefaultConfig()
	cfg.Trim, cfg.Dimensions, cfg.Weights = 0, []string{"d"}, cube.WeightsEqual
	a, b := compare.FromWorkbook(wb, "rag", "v2")
	r, err := compare.Compare(a, b, compare.Options{Config: cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Verdict, r.Better, r.Regressions)
	fmt.Println(r.Headline.ZH)
	fmt.Println(r.Headline.EN)
	// Output:
	// none 1 []
	// “v2”与“被测系统回答”没有可检测的差异：ΔCuBE +10.0（95 % 区间 0.0 至 30.0）；在 4 个问题上，可检测的最小差异约为 21.4 分。
	// No detectable difference between v2 and system answers: ΔCuBE +10.0 (95 % interval 0.0 to 30.0); with 4 questions the smallest detectable difference is about 21.4 points.
}
