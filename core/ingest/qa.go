package ingest

import (
	"fmt"
	"strconv"
	"strings"

	"cubeworkbench/core/dataset"
)

// QA fields a record carries besides answers, in a fixed order so a row is
// an array rather than a map.
const (
	qaID = iota
	qaQuestion
	qaDocID
	qaRetrieved
	qaContexts
	qaReference
	qaQueryType
	qaCategory
	qaCoarse
	qaFine
	qaFields
)

var qaKeys = [qaFields]string{colID, colQuestion, colDocID, colRetrieved, colContexts, colReference, colQueryType, colCategory, colCoarse, colFine}

// qaRecord is one question as read from a sheet row or a JSON object.
type qaRecord struct {
	row     int
	v       [qaFields]string
	label   [qaFields]string // column header or JSON key, for problems
	answers []answerValue
	cut     []string // JSON keys whose value was cut at MaxCellChars
}

type answerValue struct{ set, label, text string }

// qaBuilder turns records into dataset.Items; sheets and JSON share it.
type qaBuilder struct {
	l       *loader
	c       *collector
	ordinal int               // data records seen, for generated ids
	ids     map[string]int    // explicit id → row
	idSheet map[string]string // explicit id → its sheet (questions may span sheets)
	pending []pendingID       // items without an id
	systems []string          // answer sets in column order
	sysSeen map[string]bool

	unknownRetrieved, unknownRows, firstUnknownRow int
	firstUnknown                                   string

	typedN, typedRow    int // retrieved entries read after normalising or splitting
	typedFirst, typedAs string
}

type pendingID struct{ item, ordinal int }

func newQABuilder(l *loader, c *collector) *qaBuilder {
	return &qaBuilder{l: l, c: c, ids: map[string]int{}, idSheet: map[string]string{}, sysSeen: map[string]bool{}}
}

// system records that an answer set is present.
func (q *qaBuilder) system(set string) {
	if !q.sysSeen[set] {
		q.sysSeen[set] = true
		q.systems = append(q.systems, set)
	}
}

func (q *qaBuilder) add(rec *qaRecord) {
	q.ordinal++
	row := rec.row
	it := dataset.Item{Row: row, ID: rec.v[qaID], Question: rec.v[qaQuestion]}
	for _, key := range rec.cut {
		is := tooLongIssue(0, "")
		q.c.rowProblem(row, key, is.code, is.severity,
			strings.Replace(is.en, "the cell", "the value", 1), strings.Replace(is.zh, "该单元格", "该值", 1))
	}
	if it.ID != "" {
		if first, dup := q.ids[it.ID]; dup {
			where, whereZH := fmt.Sprintf("row %d", first), fmt.Sprintf("第 %d 行", first)
			if sh := q.idSheet[it.ID]; sh != q.c.sheet { // questions split over several sheets
				where, whereZH = fmt.Sprintf("sheet %q row %d", sh, first), fmt.Sprintf("工作表“%s”第 %d 行", sh, first)
			}
			q.c.rowProblem(row, rec.label[qaID], CodeDuplicateID, SeverityError,
				fmt.Sprintf("the id %q is already used by %s; every question needs its own id.", it.ID, where),
				fmt.Sprintf("编号“%s”已被%s使用；每个问题的编号必须唯一。", it.ID, whereZH))
		}
	}
	if it.Question == "" {
		q.c.rowProblem(row, rec.label[qaQuestion], CodeMissingValue, SeverityError,
			"the question is empty; it is required.",
			"问题为空，这是必填项。")
	}
	if doc := rec.v[qaDocID]; doc != "" {
		if id, ok, have, shared := q.l.resolveGuide(doc); !have {
			it.DocID = doc
		} else if ok {
			it.DocID = id
		} else if len(shared) > 0 {
			q.sharedTitle(row, rec.label[qaDocID], "gold document", "标准文档", doc, shared)
		} else {
			q.c.rowProblem(row, rec.label[qaDocID], CodeUnknownGoldDoc, SeverityError,
				fmt.Sprintf("the gold document %q is neither the id nor the title of any guide.", doc),
				fmt.Sprintf("标准文档“%s”既不是任何指南的编号，也不是其名称。", doc))
		}
	}
	list := func(k int) []string {
		l, err := parseList(rec.v[k])
		if err != nil {
			q.badList(row, rec.label[k])
		}
		return l
	}
	it.Retrieved = q.retrieved(row, rec.label[qaRetrieved], list(qaRetrieved))
	it.Contexts = list(qaContexts)
	it.Coarse = list(qaCoarse)
	fine, err := parseGroups(rec.v[qaFine])
	if err != nil {
		q.badList(row, rec.label[qaFine])
	}
	it.Fine = fine
	it.Reference = rec.v[qaReference]
	it.QueryType = dataset.CanonicalQueryType(rec.v[qaQueryType])
	it.Category = rec.v[qaCategory]
	for _, a := range rec.answers {
		q.system(a.set)
		if a.text == "" {
			continue
		}
		if it.Answers == nil { // one map an item, not one for each answer SetAnswer adds
			it.Answers = make(map[string]string, len(rec.answers))
		}
		it.Answers[a.set] = a.text
	}
	if !q.c.endRow() {
		if it.ID != "" {
			q.l.droppedItems[it.ID] = true
		}
		return
	}
	if it.ID == "" {
		q.pending = append(q.pending, pendingID{item: len(q.l.wb.Items), ordinal: q.ordinal})
	} else if _, dup := q.ids[it.ID]; !dup {
		q.ids[it.ID] = row
		q.idSheet[it.ID] = q.c.sheet
	}
	q.l.wb.Items = append(q.l.wb.Items, it)
}

// retrieved resolves a retrieved list's entries to guide ids: as written,
// normalised (Ｇ７ is G7), or split where an officer typed other
// separators (G3、G4). A title several guides share is an error naming
// them; entries naming no guide are kept as given and counted.
func (q *qaBuilder) retrieved(row int, label string, in []string) []string {
	if _, _, have, _ := q.l.resolveGuide(""); !have || len(in) == 0 {
		return in
	}
	out := make([]string, 0, len(in))
	unknown := 0
	for _, r := range in {
		id, ok, _, shared := q.l.resolveGuide(r)
		switch {
		case ok:
			if _, exact := q.l.index[r]; !exact && q.l.index != nil {
				q.typed(row, r, id)
			}
			out = append(out, id)
		case len(shared) > 0:
			q.sharedTitle(row, label, "retrieved entry", "检索文档", r, shared)
			out = append(out, r)
		default:
			if ids, split := q.l.splitEntry(r); split {
				q.typed(row, r, strings.Join(ids, "|"))
				out = append(out, ids...)
				continue
			}
			if q.unknownRetrieved+unknown == 0 {
				q.firstUnknown, q.firstUnknownRow = r, row
			}
			unknown++
			out = append(out, r)
		}
	}
	if unknown > 0 {
		q.unknownRetrieved += unknown
		q.unknownRows++
	}
	return out
}

// typed counts a retrieved entry read only after normalising it (Ｇ７ for
// G7) or splitting it (G3、G4), so validate can name the doubt it resolved.
func (q *qaBuilder) typed(row int, entry, read string) {
	if q.typedN == 0 {
		q.typedFirst, q.typedAs, q.typedRow = entry, read, row
	}
	q.typedN++
}

func (q *qaBuilder) badList(row int, label string) {
	q.c.rowProblem(row, label, CodeBadList, SeverityError,
		"the list is malformed JSON; write a JSON array (e.g. [\"a\",\"b\"]) or separate entries by line breaks, | or ;.",
		"列表的 JSON 格式有误；请写成 JSON 数组（如 [\"a\",\"b\"]），或用换行、| 或 ; 分隔各项。")
}

// finish gives ids to questions without one ("q" and the record's ordinal,
// so ids stay put when bad rows are skipped), reports unknown retrieved
// documents once, and records the answer sets.
func (q *qaBuilder) finish() {
	for _, p := range q.pending {
		id := "q" + strconv.Itoa(p.ordinal)
		for n := 2; ; n++ {
			if _, taken := q.ids[id]; !taken {
				break
			}
			id = "q" + strconv.Itoa(p.ordinal) + "_" + strconv.Itoa(n)
		}
		q.ids[id] = q.l.wb.Items[p.item].Row
		q.l.wb.Items[p.item].ID = id
	}
	if q.typedN > 0 {
		q.c.sheetProblem(0, "", CodeTypedList, SeverityWarning,
			fmt.Sprintf("%d retrieved entries were read after splitting them at 、，; or spaces, or folding full-width forms (first: %q at row %d, read as %s).", q.typedN, q.typedFirst, q.typedRow, q.typedAs),
			fmt.Sprintf("有 %d 个检索文档在按“、，；”或空格拆分、或统一全角半角后读取（首个：第 %d 行的“%s”，读作 %s）。", q.typedN, q.typedRow, q.typedFirst, q.typedAs))
	}
	if q.unknownRetrieved > 0 {
		near, nearZH := "", ""
		if g := q.l.nearestGuide(q.firstUnknown); g != "" {
			near, nearZH = fmt.Sprintf(", nearest guide: %s", g), fmt.Sprintf("，最接近的指南：%s", g)
		}
		q.c.sheetProblem(0, "", CodeUnknownRetrievedDoc, SeverityWarning,
			fmt.Sprintf("%d retrieved entries in %d rows name no guide, even with separators (、，；|) and widths normalised (first: %q at row %d%s); they count as misses in guide recall, since retrieval may return documents outside the sheet. Correct them if they mean a guide.",
				q.unknownRetrieved, q.unknownRows, q.firstUnknown, q.firstUnknownRow, near),
			fmt.Sprintf("有 %d 个检索文档（共 %d 行）在统一分隔符（、，；|）和全角半角后仍不是任何指南（首个：第 %d 行的“%s”%s）；检索可能返回表外文档，这些按未命中计入指南召回率。如其实指某条指南，请更正。",
				q.unknownRetrieved, q.unknownRows, q.firstUnknownRow, q.firstUnknown, nearZH))
	}
	for _, set := range []string{dataset.SetRAG, dataset.SetZero, dataset.SetFull} {
		if q.sysSeen[set] {
			q.l.addSystem(set)
		}
	}
	for _, set := range q.systems {
		q.l.addSystem(set)
	}
	for id := range q.ids {
		q.l.itemIDs[id] = true
	}
}

// qaSheet reads QA rows of a sheet or CSV file into the shared builder.
type qaSheet struct {
	b   *qaBuilder
	h   *header
	idx [qaFields]int
}

func newQASheet(b *qaBuilder, h *header) *qaSheet {
	s := &qaSheet{b: b, h: h}
	for k, key := range qaKeys {
		s.idx[k] = h.index(key)
	}
	for _, a := range h.answers {
		b.system(a.set)
	}
	return s
}

func (s *qaSheet) row(row int, cells []string) {
	rec := qaRecord{row: row, answers: make([]answerValue, 0, len(s.h.answers))}
	for k, i := range s.idx {
		rec.v[k] = cell(cells, i)
		if i >= 0 {
			rec.label[k] = s.h.names[i]
		} else {
			rec.label[k] = qaKeys[k]
		}
	}
	for _, a := range s.h.answers {
		rec.answers = append(rec.answers, answerValue{set: a.set, label: a.name, text: cell(cells, a.idx)})
	}
	s.b.add(&rec)
}
