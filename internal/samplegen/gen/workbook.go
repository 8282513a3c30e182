package gen

import (
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// Sheet names (workbook.md, canonical English names).
const (
	SheetReadme = "README"
	SheetGuides = "guides"
	SheetQA     = "qa"
	SheetHuman  = "human"
)

// GuideHeaders are the guides sheet's columns, in order. They are the Chinese
// aliases officers use; the reader maps 事项编码 to doc_id and 事项名称 to title.
var GuideHeaders = []string{
	"事项编码", "事项名称", "行政区划", "实施主体", "受理条件", "设定依据",
	"法定办结时限", "承诺办结时限", "办理流程", "申请材料", "收费标准", "咨询电话",
}

// QAHeaders are the qa sheet's columns, in order.
var QAHeaders = []string{
	"编号", "问题", "问题类型", "类别", "标准文档", "检索文档", "回答", "回答:系统B",
	"零分答案", "满分答案", "参考答案", "粗粒度关键词", "细粒度关键词",
}

// HumanHeaders are the human sheet's columns, in order.
var HumanHeaders = []string{"编号", "维度", "评分", "评分人"}

// fixedTime stands in for every timestamp, so regenerating gives the same bytes.
const fixedTime = "2025-01-01T00:00:00Z"

// numbered renders a list as the province's guides do: "1. …；" per line.
func numbered(items []string) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteString("\n")
		}
		end := "；"
		if i == len(items)-1 {
			end = "。"
		}
		fmt.Fprintf(&b, "%d. %s%s", i+1, it, end)
	}
	return b.String()
}

func guideCells(g *guide) []string {
	return []string{
		g.ID, g.Title, region, g.Agency, numbered(g.Cond), g.Basis,
		g.Legal, g.Promise, numbered(g.Proc), numbered(g.Mat), g.Fee, g.Phone,
	}
}

func fineCell(groups [][]string) string {
	parts := make([]string, len(groups))
	for i, g := range groups {
		parts[i] = strings.Join(g, "|")
	}
	return strings.Join(parts, "\n")
}

func qaCells(rw *row) []string {
	return []string{
		rw.ID, rw.Q.Q, rw.Q.Type, rw.Gold.Category, rw.Gold.ID,
		strings.Join(rw.Retrieved, "\n"), rw.RAG, rw.B, rw.Zero, rw.Full, rw.Ref,
		strings.Join(rw.Q.Coarse, "|"), fineCell(rw.Q.Fine),
	}
}

// recall is the share of rows whose gold document was retrieved.
func recall(rows []row) float64 {
	hit := 0
	for _, rw := range rows {
		if rw.Rank > 0 {
			hit++
		}
	}
	return float64(hit) / float64(len(rows))
}

// guideRecallEN is the glossary's guide recall@k for k = topN, as a
// sentence begins: Guide recall@8.
func guideRecallEN(topN int) string {
	s := glossary.GuideRecallAt(topN, text.EN)
	return strings.ToUpper(s[:1]) + s[1:]
}

func readme(rows []row, ratings []rating, injectID string) [][2]string {
	return [][2]string{
		{"CuBE Workbench 示例工作簿", "CuBE Workbench sample workbook"},
		{"⚠ 虚构示例数据，并非真实政务信息", "Fictional sample data, not real government information"},
		{"“云川省”是虚构的省份。本工作簿中的事项、机构、办结时限、收费标准、电话号码、问题与答案均为虚构，仅用于演示和测试评估流程，不得作为办事依据。",
			"\"Yunchuan Province\" does not exist. Every service item, agency, deadline, fee, phone number, question and answer here is invented to demonstrate and test the evaluation; do not rely on it for real services."},
		{"场景：政务服务 RAG 助手根据省级办事指南回答群众提问。", "Scenario: a government-service RAG assistant answers citizens' questions from province-level service guides (办事指南)."},
		{"工作表 guides（办事指南）：每行一个事项，共 " + fmt.Sprint(len(guides)) + " 行。没有“正文”列，文档由每个非空单元格按“列名：值”逐行拼成。包含易混淆的近似事项（如新建/变更/延续），其时限、收费、材料各不相同。",
			fmt.Sprintf("Sheet guides: one service item per row, %d rows. No text column: each document is every non-empty cell as \"header：value\" lines. Near-duplicate families (new / change / renewal …) differ in deadlines, fees and materials.", len(guides))},
		{"工作表 qa（问答集）：共 " + fmt.Sprint(len(rows)) + " 个问题；“回答”为被测系统（rag）的答案，“回答:系统B”为另一版本系统的答案（A/B 对比），“零分答案”“满分答案”为 CuBE 的下界和上界，“检索文档”按名次每行一个编码。",
			fmt.Sprintf("Sheet qa: %d questions. 回答 is the system under test (set rag), 回答:系统B a second version for A/B, 零分答案/满分答案 the CuBE lower and upper bounds, 检索文档 the retrieved ids in rank order, one per line.", len(rows))},
		{fmt.Sprintf("%s = %.2f（%d 题中 %d 题检索到标准文档）。命中名次越靠前，回答越准确；未命中时系统会引用近似事项，给出错误细节或含糊其辞。",
			glossary.GuideRecallAt(topN, text.ZH), recall(rows), len(rows), int(recall(rows)*float64(len(rows))+0.5)),
			fmt.Sprintf("%s = %.2f. The better the gold document's rank, the better the answer; on a miss the system answers from a near-duplicate (wrong details) or hedges.", guideRecallEN(topN), recall(rows))},
		{"粗粒度关键词用“|”分隔；细粒度关键词每行一组，组内用“|”分隔，每个关键词都原样出现在标准文档中（CoFE-RAG）。",
			"Coarse keywords are separated by |; fine keywords are one group per line, keywords within a group separated by |; each appears verbatim in the gold document (CoFE-RAG)."},
		{fmt.Sprintf("工作表 human（人工评分）：%d 条，两位专家对部分题目在 relevance、specificity、completeness、quality 四个维度打 0–10 分。", len(ratings)),
			fmt.Sprintf("Sheet human: %d expert ratings, two raters, 0–10 on relevance, specificity, completeness and quality.", len(ratings))},
		{"工作表 scores（评分）不在此文件中：评估时自动生成。", "The scores sheet is absent on purpose: the evaluation writes it."},
		{"安全测试：题目 " + injectID + " 的“回答”以“=”开头，用于检验读写时不会被当作公式执行（公式注入）。",
			"Safety test: the answer of " + injectID + " starts with \"=\" to check that it is kept as text, never run as a formula (formula injection)."},
		{"重新生成：在仓库根目录运行 go generate ./assets/sample（内容固定，不含时间戳）。",
			"Regenerate: run go generate ./assets/sample from the repository root (deterministic, no timestamps)."},
	}
}

// Build returns the sample workbook's bytes. It is deterministic: the same
// code gives the same bytes.
func Build() ([]byte, error) {
	rows, err := plan()
	if err != nil {
		return nil, err
	}
	ratings := humanRatings(rows)
	injectID := ""
	for _, rw := range rows {
		if rw.RAG == injectionAnswer {
			injectID = rw.ID
		}
	}

	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetDocProps(&excelize.DocProperties{
		Title:          "CuBE Workbench 示例工作簿 / sample workbook (fictional)",
		Subject:        "虚构示例数据 / fictional sample data",
		Creator:        "CuBE Workbench samplegen",
		LastModifiedBy: "CuBE Workbench samplegen",
		Created:        fixedTime,
		Modified:       fixedTime,
		Language:       "zh-CN",
	}); err != nil {
		return nil, fmt.Errorf("samplegen: doc properties: %w", err)
	}
	if err := f.SetSheetName("Sheet1", SheetReadme); err != nil {
		return nil, fmt.Errorf("samplegen: rename sheet: %w", err)
	}
	for _, s := range []string{SheetGuides, SheetQA, SheetHuman} {
		if _, err := f.NewSheet(s); err != nil {
			return nil, fmt.Errorf("samplegen: new sheet %s: %w", s, err)
		}
	}
	st, err := newStyles(f)
	if err != nil {
		return nil, err
	}

	var readmeRows [][]string
	readmeRows = append(readmeRows, []string{"说明", "Description"})
	for _, p := range readme(rows, ratings, injectID) {
		readmeRows = append(readmeRows, []string{p[0], p[1]})
	}
	if err := writeSheet(f, st, SheetReadme, readmeRows, []float64{80, 80}, 0); err != nil {
		return nil, err
	}

	guideRows := [][]string{GuideHeaders}
	for i := range guides {
		guideRows = append(guideRows, guideCells(&guides[i]))
	}
	if err := writeSheet(f, st, SheetGuides, guideRows,
		[]float64{11, 26, 9, 22, 48, 36, 18, 20, 48, 48, 24, 14}, 260); err != nil {
		return nil, err
	}

	qaRows := [][]string{QAHeaders}
	for i := range rows {
		qaRows = append(qaRows, qaCells(&rows[i]))
	}
	if err := writeSheet(f, st, SheetQA, qaRows,
		[]float64{7, 34, 9, 9, 10, 10, 48, 48, 36, 48, 48, 18, 24}, 260); err != nil {
		return nil, err
	}

	humanRows := [][]string{HumanHeaders}
	for _, h := range ratings {
		humanRows = append(humanRows, []string{h.ID, h.Dimension, fmt.Sprint(h.Score), h.Rater})
	}
	if err := writeSheet(f, st, SheetHuman, humanRows, []float64{8, 14, 8, 10}, 0); err != nil {
		return nil, err
	}
	f.SetActiveSheet(0)

	buf, err := f.WriteToBuffer()
	if err != nil {
		return nil, fmt.Errorf("samplegen: write workbook: %w", err)
	}
	return buf.Bytes(), nil
}

type styles struct{ header, body int }

// lineHeight is one line of the default 11 pt font, in points.
const lineHeight = 14.5

// rowHeightFor estimates the height wrapped cells need. Spreadsheet programs
// do not reliably auto-fit rows of a generated file (LibreOffice draws them
// one line high, overlapping), so the generator sets heights itself. A column
// width counts Latin characters; a Han or full-width character takes two.
func rowHeightFor(cells []string, widths []float64, maxHeight float64) float64 {
	most := 1
	for c, v := range cells {
		if c >= len(widths) {
			break
		}
		per := widths[c] - 1 // padding
		lines := 0
		for _, ln := range strings.Split(v, "\n") {
			w := 0.0
			for _, r := range ln {
				if r >= 0x2E80 {
					w += 2
				} else {
					w++
				}
			}
			n := int(w/per) + 1
			if w > 0 && w/per == float64(int(w/per)) {
				n--
			}
			lines += n
		}
		if lines > most {
			most = lines
		}
	}
	if most == 1 {
		return 0 // the default height fits
	}
	h := float64(most)*lineHeight + 3
	if maxHeight > 0 && h > maxHeight {
		h = maxHeight
	}
	return h
}

func newStyles(f *excelize.File) (styles, error) {
	align := &excelize.Alignment{WrapText: true, Vertical: "top"}
	h, err := f.NewStyle(&excelize.Style{
		Font:      &excelize.Font{Bold: true},
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDEBF7"}},
		Alignment: align,
	})
	if err != nil {
		return styles{}, fmt.Errorf("samplegen: header style: %w", err)
	}
	b, err := f.NewStyle(&excelize.Style{Alignment: align})
	if err != nil {
		return styles{}, fmt.Errorf("samplegen: body style: %w", err)
	}
	return styles{header: h, body: b}, nil
}

// writeSheet writes rows (the first is the header) as text cells, with
// widths, wrap, a bold frozen header and body rows tall enough for their
// wrapped text (at most maxHeight points). Scores in the human sheet are
// written as numbers.
func writeSheet(f *excelize.File, st styles, sheet string, rows [][]string, widths []float64, maxHeight float64) error {
	for r, cells := range rows {
		vals := make([]any, len(cells))
		for c, v := range cells {
			vals[c] = v
			if sheet == SheetHuman && r > 0 && c == 2 {
				var n int
				if _, err := fmt.Sscan(v, &n); err == nil {
					vals[c] = n
				}
			}
		}
		cell, err := excelize.CoordinatesToCellName(1, r+1)
		if err != nil {
			return err
		}
		// SetSheetRow stores strings as text: a leading "=" stays text.
		if err := f.SetSheetRow(sheet, cell, &vals); err != nil {
			return fmt.Errorf("samplegen: %s row %d: %w", sheet, r+1, err)
		}
		if h := rowHeightFor(cells, widths, maxHeight); r > 0 && h > 0 {
			if err := f.SetRowHeight(sheet, r+1, h); err != nil {
				return fmt.Errorf("samplegen: %s row %d height: %w", sheet, r+1, err)
			}
		}
	}
	last, err := excelize.ColumnNumberToName(len(widths))
	if err != nil {
		return err
	}
	for c, w := range widths {
		col, _ := excelize.ColumnNumberToName(c + 1)
		if err := f.SetColWidth(sheet, col, col, w); err != nil {
			return fmt.Errorf("samplegen: %s column width: %w", sheet, err)
		}
	}
	if err := f.SetCellStyle(sheet, "A1", last+"1", st.header); err != nil {
		return fmt.Errorf("samplegen: %s header style: %w", sheet, err)
	}
	if len(rows) > 1 {
		if err := f.SetCellStyle(sheet, "A2", fmt.Sprintf("%s%d", last, len(rows)), st.body); err != nil {
			return fmt.Errorf("samplegen: %s body style: %w", sheet, err)
		}
	}
	return f.SetPanes(sheet, &excelize.Panes{
		Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
	})
}
