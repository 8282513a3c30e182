package ingest

import (
	"fmt"
	"strings"

	"cubeworkbench/core/dataset"
)

// guideReader turns guide rows into dataset.Guides. It is the hot path of a
// large knowledge base, so a row costs one string (the document) that the
// title, id and field values are slices of, plus one Fields slice.
type guideReader struct {
	l        *loader
	c        *collector
	h        *header
	idCol    int
	titleCol int
	textCol  int
	docCol   int    // the optional target_doc column
	spans    []span // reused per row: where each cell's value sits in the text
	fromTtl  int    // rows whose empty id was replaced by the title
	firstTtl int
}

type span struct{ start, end int }

func newGuideReader(l *loader, c *collector, h *header) *guideReader {
	return &guideReader{l: l, c: c, h: h, idCol: h.index(colDocID), titleCol: h.index(colTitle), textCol: h.index(colText), docCol: h.index(colTargetDoc)}
}

func (g *guideReader) row(row int, cells []string) {
	gd := dataset.Guide{Row: row}
	var (
		text  string
		spans []span
	)
	if t := cell(cells, g.textCol); t != "" {
		text = t
	} else {
		text, spans = g.keyValueText(cells)
	}
	value := func(i int) string {
		if spans != nil {
			if i < 0 || i >= len(spans) || spans[i].end == 0 {
				return ""
			}
			return text[spans[i].start:spans[i].end]
		}
		return cell(cells, i)
	}
	gd.Text = text
	gd.Title = value(g.titleCol)
	gd.ID = value(g.idCol)
	gd.TargetDoc = value(g.docCol)
	n := len(g.h.other)
	if len(cells) > len(g.h.names) {
		n += len(cells) - len(g.h.names)
	}
	gd.Fields = make([]dataset.Field, 0, n)
	for _, i := range g.h.other {
		gd.Fields = append(gd.Fields, dataset.Field{Name: g.h.name(i), Value: value(i)})
	}
	for i := len(g.h.names); i < len(cells); i++ {
		if v := value(i); v != "" {
			gd.Fields = append(gd.Fields, dataset.Field{Name: g.h.name(i), Value: v})
		}
	}

	if gd.Title == "" {
		g.c.rowProblem(row, g.h.label(colTitle), CodeMissingValue, SeverityError,
			"the guide has no title (item name), which is required.",
			"该指南缺少事项名称（标题），这是必填项。")
	}
	if gd.ID == "" && gd.Title != "" {
		if g.idCol >= 0 {
			if g.fromTtl == 0 {
				g.firstTtl = row
			}
			g.fromTtl++
		}
		gd.ID = gd.Title
	}
	if firstRow, dup := g.firstRow(gd.ID); dup && gd.ID != "" {
		col := g.h.label(colDocID)
		if g.idCol < 0 || cell(cells, g.idCol) == "" {
			col = g.h.label(colTitle)
		}
		g.c.rowProblem(row, col, CodeDuplicateID, SeverityError,
			fmt.Sprintf("the id %q is already used by row %d; every guide needs its own id.", gd.ID, firstRow),
			fmt.Sprintf("编号“%s”已被第 %d 行使用；每条指南的编号必须唯一。", gd.ID, firstRow))
	}
	if !g.c.endRow() {
		return
	}
	if sink := g.l.opt.GuideSink; sink != nil {
		g.l.sinkRows[idHash(gd.ID)] = int32(row)
		g.l.sinkCount++
		if err := sink(gd); err != nil {
			g.l.sinkErr = err
		}
		return
	}
	g.l.guideIDs[gd.ID] = len(g.l.wb.Guides)
	g.l.wb.Guides = append(g.l.wb.Guides, gd)
}

// firstRow returns the row of an earlier guide with the same id.
func (g *guideReader) firstRow(id string) (int, bool) {
	if g.l.opt.GuideSink != nil {
		row, ok := g.l.sinkRows[idHash(id)]
		return int(row), ok
	}
	first, ok := g.l.guideIDs[id]
	if !ok {
		return 0, false
	}
	return g.l.wb.Guides[first].Row, true
}

func (g *guideReader) finish() {
	if g.fromTtl > 0 {
		g.c.sheetProblem(0, g.h.label(colDocID), CodeIDFromTitle, SeverityWarning,
			fmt.Sprintf("%d guide(s) have an empty id (first at row %d); their title is used as the id.", g.fromTtl, g.firstTtl),
			fmt.Sprintf("有 %d 条指南编号为空（首条在第 %d 行），以其事项名称作为编号。", g.fromTtl, g.firstTtl))
	}
}

// keyValueText renders a row as `header：value` lines in column order (the
// paper's key–value TXT form) and records where each value sits, so the
// title, id and fields can share the text's memory.
func (g *guideReader) keyValueText(cells []string) (string, []span) {
	if cap(g.spans) < len(cells) {
		g.spans = make([]span, len(cells))
	}
	spans := g.spans[:len(cells)]
	size := 0
	for i, c := range cells {
		if v := strings.TrimSpace(c); v != "" {
			size += len(g.h.name(i)) + len("：") + len(v) + 1
		}
	}
	var b strings.Builder
	b.Grow(size)
	for i, c := range cells {
		v := strings.TrimSpace(c)
		if v == "" {
			spans[i] = span{}
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(g.h.name(i))
		b.WriteString("：")
		spans[i] = span{b.Len(), b.Len() + len(v)}
		b.WriteString(v)
	}
	return b.String(), spans
}

// idHash is FNV-1a over the id's bytes.
func idHash(id string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 1099511628211
	}
	return h
}
