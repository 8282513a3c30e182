package sample

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/internal/samplegen/gen"
)

// These checks read the embedded file as a user's tool would, independently
// of how the generator holds its data.

func open(t *testing.T) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(Workbook()))
	if err != nil {
		t.Fatalf("open embedded workbook: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// table returns a sheet's rows as header → value maps, plus the header.
func table(t *testing.T, f *excelize.File, sheet string) ([]string, []map[string]string, [][]string) {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatalf("sheet %s: %v", sheet, err)
	}
	if len(rows) == 0 {
		t.Fatalf("sheet %s is empty", sheet)
	}
	head := rows[0]
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, h := range head {
			if i < len(r) {
				m[h] = r[i]
			}
		}
		out = append(out, m)
	}
	return head, out, rows[1:]
}

func splitLines(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func TestSheets(t *testing.T) {
	f := open(t)
	got := f.GetSheetList()
	want := []string{"README", "guides", "qa", "human"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("sheets = %v, want %v", got, want)
	}
	if n := len(Workbook()); n > 200<<10 {
		t.Errorf("workbook is %d bytes, want under 200 KiB", n)
	}
	if FileName != "cube-sample.xlsx" {
		t.Errorf("FileName = %q", FileName)
	}
	rows, err := f.GetRows("README")
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, r := range rows {
		all.WriteString(strings.Join(r, " "))
	}
	for _, must := range []string{"虚构示例数据", "fictional sample data, not real government information", "公式注入"} {
		if !strings.Contains(strings.ToLower(all.String()), strings.ToLower(must)) {
			t.Errorf("README lacks %q", must)
		}
	}
}

func TestContent(t *testing.T) {
	f := open(t)
	gHead, guides, gRaw := table(t, f, "guides")
	if len(guides) < 55 {
		t.Fatalf("%d guides, want ≥ 55", len(guides))
	}
	// The document as workbook.md builds it without a text column: every
	// non-empty cell as "header：value" lines in column order.
	docs := map[string]string{}
	for i, r := range gRaw {
		var lines []string
		for c, v := range r {
			if strings.TrimSpace(v) != "" {
				lines = append(lines, gHead[c]+"："+v)
			}
		}
		id := guides[i]["事项编码"]
		if id == "" || guides[i]["事项名称"] == "" {
			t.Errorf("guides row %d lacks 事项编码 or 事项名称", i+2)
		}
		if _, dup := docs[id]; dup {
			t.Errorf("duplicate guide id %s", id)
		}
		docs[id] = strings.Join(lines, "\n")
	}

	_, qa, _ := table(t, f, "qa")
	if len(qa) < 55 {
		t.Fatalf("%d qa rows, want ≥ 55", len(qa))
	}
	types := map[string]int{}
	hits := 0
	injection := 0
	for i, r := range qa {
		id, gold := r["编号"], r["标准文档"]
		doc, ok := docs[gold]
		if !ok {
			t.Errorf("%s: gold %q not in guides", id, gold)
			continue
		}
		types[r["问题类型"]]++
		for _, col := range []string{"问题", "回答", "回答:系统B", "零分答案", "满分答案", "参考答案"} {
			if strings.TrimSpace(r[col]) == "" {
				t.Errorf("%s: empty %s", id, col)
			}
		}
		ret := splitLines(r["检索文档"])
		if len(ret) == 0 || len(ret) > 8 {
			t.Errorf("%s: %d retrieved, want 1–8", id, len(ret))
		}
		for k, d := range ret {
			if _, ok := docs[d]; !ok {
				t.Errorf("%s: retrieved %q not in guides", id, d)
			}
			if d == gold && k < 8 {
				hits++
			}
		}
		coarse := strings.Split(r["粗粒度关键词"], "|")
		if len(coarse) < 1 || len(coarse) > 4 {
			t.Errorf("%s: %d coarse keywords, want 1–4", id, len(coarse))
		}
		for _, k := range coarse {
			if !strings.Contains(doc, k) {
				t.Errorf("%s: coarse keyword %q not in %s", id, k, gold)
			}
		}
		groups := splitLines(r["细粒度关键词"])
		if len(groups) == 0 {
			t.Errorf("%s: no fine keywords", id)
		}
		for _, grp := range groups {
			for _, k := range strings.Split(grp, "|") {
				if !strings.Contains(doc, k) {
					t.Errorf("%s: fine keyword %q not in %s", id, k, gold)
				}
			}
		}
		if strings.HasPrefix(r["回答"], "=") {
			injection++
			cell, _ := excelize.CoordinatesToCellName(7, i+2)
			if formula, err := f.GetCellFormula("qa", cell); err != nil || formula != "" {
				t.Errorf("%s: answer stored as formula %q (%v), want text", id, formula, err)
			}
		}
	}
	for _, ty := range []string{"事实类", "分析类", "比较类", "教程类"} {
		if types[ty] == 0 {
			t.Errorf("no %s question", ty)
		}
	}
	if injection != 1 {
		t.Errorf("%d answers start with \"=\", want 1", injection)
	}
	recall := float64(hits) / float64(len(qa))
	t.Logf("guides %d, qa %d, recall@8 %.4f", len(guides), len(qa), recall)
	if recall < 0.7 || recall > 0.9 {
		t.Errorf("recall@8 = %.4f, want within [0.7, 0.9]", recall)
	}

	_, human, _ := table(t, f, "human")
	if len(human) < 15*4*2 {
		t.Errorf("%d human ratings, want ≥ 120", len(human))
	}
	ids := map[string]bool{}
	for _, r := range qa {
		ids[r["编号"]] = true
	}
	dims := map[string]bool{"relevance": true, "specificity": true, "completeness": true, "quality": true}
	for i, r := range human {
		s, err := strconv.Atoi(r["评分"])
		if err != nil || s < 0 || s > 10 {
			t.Errorf("human row %d: score %q, want an integer 0–10", i+2, r["评分"])
		}
		if !ids[r["编号"]] || !dims[r["维度"]] || r["评分人"] == "" {
			t.Errorf("human row %d: bad id, dimension or rater: %v", i+2, r)
		}
	}
}

// The embedded file must be what the generator writes now: run
// `go generate ./assets/sample` after changing internal/samplegen.
func TestUpToDate(t *testing.T) {
	b, err := gen.Build()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, Workbook()) {
		t.Fatal("cube-sample.xlsx is stale: run go generate ./assets/sample")
	}
}
