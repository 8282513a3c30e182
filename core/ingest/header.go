package ingest

import (
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"

	"cubeworkbench/core/dataset"
)

// answerCol is one column holding answers of an answer set.
type answerCol struct {
	set  string
	idx  int
	name string // header as written
}

// header is the meaning of a sheet's header row.
type header struct {
	row     int
	names   []string       // header cells as written (trimmed)
	display []string       // names, with the column letter for an empty header
	col     map[string]int // canonical column → index (first occurrence)
	answers []answerCol    // answer, answer_zero, answer_full and answer:NAME columns, in column order
	other   []int          // every other column, in column order
}

// readHeader maps a header row for a sheet kind, reporting duplicate
// columns (warning, the first wins) and missing required columns (error).
// ok is false when the sheet cannot be read.
func readHeader(kind string, row int, cells []string, c *collector) (*header, bool) {
	h := &header{row: row, names: make([]string, len(cells)), display: make([]string, len(cells)), col: map[string]int{}}
	for i, cell := range cells {
		name := strings.TrimSpace(cell)
		h.names[i] = name
		h.display[i] = name
		if name == "" {
			h.display[i], _ = excelize.ColumnNumberToName(i + 1)
			h.other = append(h.other, i)
			continue
		}
		if kind == SheetQA {
			if set, ok := answerSystem(name); ok {
				h.answers = append(h.answers, answerCol{set: set, idx: i, name: name})
				continue
			}
		}
		key := columnKey(kind, name)
		if kind == SheetQA {
			if set := answerSet(key); set != "" {
				h.answers = append(h.answers, answerCol{set: set, idx: i, name: name})
				continue
			}
		}
		if key == "" {
			h.other = append(h.other, i)
			continue
		}
		if first, dup := h.col[key]; dup {
			c.sheetProblem(row, name, CodeDuplicateColumn, SeverityWarning,
				fmt.Sprintf("this column means the same as column %q (%s); only the first is read.", h.names[first], key),
				fmt.Sprintf("该列与“%s”列含义相同（%s），只读取前者。", h.names[first], key))
			h.other = append(h.other, i)
			continue
		}
		h.col[key] = i
	}
	// A repeated answer set: keep the first column.
	seen := map[string]string{}
	kept := h.answers[:0]
	for _, a := range h.answers {
		if first, dup := seen[a.set]; dup {
			c.sheetProblem(row, a.name, CodeDuplicateColumn, SeverityWarning,
				fmt.Sprintf("this column holds answers of set %q like column %q; only the first is read.", a.set, first),
				fmt.Sprintf("该列与“%s”列同为答案集“%s”的回答，只读取前者。", first, a.set))
			continue
		}
		seen[a.set] = a.name
		kept = append(kept, a)
	}
	h.answers = kept
	if kind != SheetGuides { // a guide's other columns are its fields
		for _, i := range h.other {
			if alias, key := likelyColumn(kind, h.names[i], h.col); alias != "" {
				c.sheetProblem(row, h.names[i], CodeLikelyColumn, SeverityWarning,
					fmt.Sprintf("the column %q was not read; did you mean %q (%s)? Rename the header if it holds that.", h.names[i], alias, key),
					fmt.Sprintf("“%s”列未被读取；是否应为“%s”？如该列正是此内容，请修改表头。", h.names[i], alias))
			}
		}
	}
	ok := true
	for _, req := range requiredColumns[kind] {
		if _, has := h.col[req]; !has {
			ok = false
			c.sheetProblem(row, req, CodeMissingColumn, SeverityError,
				fmt.Sprintf("the required column %q is missing (accepted names: %s); the sheet is not read.", req, aliasList(kind, req)),
				fmt.Sprintf("缺少必需的列“%s”（可用列名：%s），该表未被读取。", req, aliasList(kind, req)))
		}
	}
	return h, ok
}

// index returns a canonical column's index, -1 when absent.
func (h *header) index(key string) int {
	if i, ok := h.col[key]; ok {
		return i
	}
	return -1
}

// name returns the header of column i, or its letter when the header cell
// is empty or the row is longer than the header.
func (h *header) name(i int) string {
	if i < len(h.display) {
		return h.display[i]
	}
	letter, _ := excelize.ColumnNumberToName(i + 1)
	return letter
}

// label names a canonical column in a problem: as written when present.
func (h *header) label(key string) string {
	if i := h.index(key); i >= 0 {
		return h.names[i]
	}
	return key
}

// cell returns cell i trimmed, "" when the row is shorter.
func cell(cells []string, i int) string {
	if i < 0 || i >= len(cells) {
		return ""
	}
	return strings.TrimSpace(cells[i])
}

// answerSet names the answer set a canonical QA column holds: the system's
// answer is rag, the bound columns zero and full; "" for other columns.
func answerSet(col string) string {
	switch col {
	case colAnswer:
		return dataset.SetRAG
	case colZero:
		return dataset.SetZero
	case colFull:
		return dataset.SetFull
	}
	return ""
}
