package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/simplifiedchinese"

	"cubeworkbench/core/dataset"
)

// sheet is one sheet of a test workbook: a name and its rows.
type sheet struct {
	name string
	rows [][]string
}

// writeXLSX builds a workbook of the given sheets in t.TempDir().
func writeXLSX(t testing.TB, sheets ...sheet) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, s := range sheets {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", s.name); err != nil {
				t.Fatal(err)
			}
		} else if _, err := f.NewSheet(s.name); err != nil {
			t.Fatal(err)
		}
		for r, row := range s.rows {
			cells := make([]any, len(row))
			for c, v := range row {
				cells[c] = v
			}
			ref, _ := excelize.CoordinatesToCellName(1, r+1)
			if err := f.SetSheetRow(s.name, ref, &cells); err != nil {
				t.Fatal(err)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "book.xlsx")
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeCSV writes rows as CSV in an encoding: "utf8", "bom" or "gb18030".
func writeCSV(t testing.TB, dir, name, enc string, rows [][]string) {
	t.Helper()
	var b strings.Builder
	for _, row := range rows {
		for i, c := range row {
			if i > 0 {
				b.WriteByte(',')
			}
			if strings.ContainsAny(c, ",\"\n") {
				c = `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
			}
			b.WriteString(c)
		}
		b.WriteString("\r\n")
	}
	data := []byte(b.String())
	switch enc {
	case "bom":
		data = append([]byte{0xef, 0xbb, 0xbf}, data...)
	case "gb18030":
		var err error
		if data, err = simplifiedchinese.GB18030.NewEncoder().Bytes(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func open(t testing.TB, path string, opt Options) (*dataset.Workbook, *Report) {
	t.Helper()
	wb, rep, err := Open(context.Background(), path, opt)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	return wb, rep
}

// find returns the first problem with a code, or fails.
func find(t testing.TB, ps []Problem, code string) Problem {
	t.Helper()
	for _, p := range ps {
		if p.Code == code {
			return p
		}
	}
	t.Fatalf("no %s problem among %v", code, codes(ps))
	return Problem{}
}

func codes(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Code+"@"+p.Sheet+":"+strconv.Itoa(p.Row)+":"+p.Column)
	}
	return out
}

// Shared fixtures: a small knowledge base and QA set in Chinese headers.
var (
	guidesRows = [][]string{
		{"事项编码", "事项名称", "行政区划", "受理条件"},
		{"G1", "居民身份证申领", "北京市", "年满十六周岁"},
		{"G2", "护照办理", "上海市", ""},
		{"G3", "驾驶证换证", "", "有效期满"},
	}
	qaRows = [][]string{
		{"编号", "问题", "标准文档", "回答", "answer:v2", "检索文档", "参考答案", "问题类型", "粗粒度关键词", "细粒度关键词", "满分答案"},
		{"a", "怎么办身份证？", "居民身份证申领", "去派出所", "去公安局", "G1|护照办理|外部文档", "到户籍地派出所办理", "事实类", "身份证;派出所", "户籍地|派出所\n十六周岁", "满分"},
		{"b", "护照多久能办好？", "G2", "七个工作日", "", `["G2","G3"]`, "", "分析类", `["护照"]`, `[["七个","工作日"],"加急"]`, ""},
	}
)

func strconvItoa(n int) string { return strconv.Itoa(n) }

func asProblem(err error, p *Problem) bool { return errors.As(err, p) }
