package ui

import (
	"math"
	"math/bits"
	"slices"
	"strings"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/explain"
	"cubeworkbench/core/judge"
	"cubeworkbench/core/result"
)

// The question grid's data lives here, apart from its widgets: everything a
// cell, a sort or a filter reads is computed once per result, so that
// scrolling, sorting and filtering 10,000 questions touch flat slices only.

// gridColKind says what a grid column shows.
type gridColKind int

const (
	gcID gridColKind = iota
	gcQuestion
	gcScore   // one judge's rag score on one dimension
	gcRank    // the gold guide's rank among the retrieved
	gcOverall // mean rag score over judges and dimensions
	gcSD      // spread between judges
	gcFlags   // explain's weakness reasons
)

type gridCol struct {
	kind       gridColKind
	judge, dim int    // gcScore: indexes into Result.Judges and Result.Dimensions
	judgeName  string // gcScore
	dimName    string // gcScore
	lo, hi     float64
}

// Weakness reasons as bits, in explain's order (also the filters' order).
var gridReasons = []string{explain.ReasonNotRetrieved, explain.ReasonLowScore, explain.ReasonJudgesDisagree, explain.ReasonUnscorable}

func reasonBit(code string) uint8 {
	for i, r := range gridReasons {
		if r == code {
			return 1 << i
		}
	}
	return 0
}

// gridModel is one result's questions, ready for the grid. Rows are the
// result's item details in order (which is explain.Classify's order).
type gridModel struct {
	res     *result.Outcome
	cols    []gridCol
	ids     []string
	text    []string // the question on one line, cut short
	search  []string // lower-cased id and question, for the search box
	item    []int    // row → index in Workbook.Items, -1 when unknown
	reasons []uint8  // row → reason bits
	counts  []int    // per gridReasons entry: questions with it
	val     [][]float64
	ok      [][]bool
	key     [][]float64 // per column and row; ascending is worst first, ties by row
	overall int         // the overall score's column
	worst   []int       // every row by the overall score, worst first: the grid's first order, sorted with the model
}

func (m *gridModel) rows() int {
	if m == nil {
		return 0
	}
	return len(m.ids)
}

// newGridModel indexes res; nil when it has no CuBE result.
func newGridModel(res *result.Outcome) *gridModel {
	if res == nil || res.Summary == nil || res.Summary.Result == nil || res.Workbook == nil {
		return nil
	}
	r := res.Summary.Result
	wb := res.Workbook
	weak := explain.Classify(explain.Input{Result: r, Items: wb.Items, Scores: wb.Scores})
	n := len(r.ItemDetails)
	m := &gridModel{res: res, ids: make([]string, n), text: make([]string, n), search: make([]string, n),
		item: make([]int, n), reasons: make([]uint8, n), counts: make([]int, len(gridReasons))}
	m.cols = append(m.cols, gridCol{kind: gcID}, gridCol{kind: gcQuestion})
	for j, jr := range r.Judges {
		for k, d := range r.Dimensions {
			lo, hi := 0.0, 10.0
			if jd, ok := judge.Builtin(d); ok && jd.Max > jd.Min {
				lo, hi = float64(jd.Min), float64(jd.Max)
			}
			m.cols = append(m.cols, gridCol{kind: gcScore, judge: j, dim: k, judgeName: jr.Judge, dimName: d, lo: lo, hi: hi})
		}
	}
	m.cols = append(m.cols, gridCol{kind: gcRank}, gridCol{kind: gcOverall, hi: 10}, gridCol{kind: gcSD}, gridCol{kind: gcFlags})
	m.val, m.ok, m.key = make([][]float64, len(m.cols)), make([][]bool, len(m.cols)), make([][]float64, len(m.cols))
	for c := range m.cols {
		m.val[c], m.ok[c], m.key[c] = make([]float64, n), make([]bool, n), make([]float64, n)
	}
	for row, d := range r.ItemDetails {
		m.ids[row] = d.ID
		m.item[row] = -1
		if row < len(weak) {
			w := weak[row]
			if w.Index >= 0 && w.Index < len(wb.Items) && wb.Items[w.Index].ID == d.ID {
				m.item[row] = w.Index
				m.text[row] = oneLine(w.Question)
			}
			for _, code := range w.Reasons {
				m.reasons[row] |= reasonBit(code)
			}
		}
		m.search[row] = strings.ToLower(d.ID + " " + m.text[row])
		for i := range gridReasons {
			if m.reasons[row]&(1<<i) != 0 {
				m.counts[i]++
			}
		}
		for c, col := range m.cols {
			v, ok := 0.0, false
			switch col.kind {
			case gcScore:
				v, ok = r.RAGScores.At(d.ID, col.judge, col.dim)
			case gcRank:
				v, ok = float64(d.Rank), d.GoldKnown
			case gcOverall:
				if d.RAGOverall != nil {
					v, ok = *d.RAGOverall, true
				}
			case gcSD:
				if d.DisagreementOverall != nil {
					v, ok = *d.DisagreementOverall, true
				}
			case gcFlags:
				v, ok = float64(bits.OnesCount8(m.reasons[row])), true
			}
			m.val[c][row], m.ok[c][row] = v, ok
			m.key[c][row] = sortKey(col.kind, v, ok)
		}
	}
	for c, col := range m.cols {
		if col.kind == gcID || col.kind == gcQuestion {
			texts := m.text
			if col.kind == gcID {
				texts = m.ids
			}
			textKeys(m.key[c], texts)
		}
		if col.kind == gcOverall {
			m.overall = c
		}
	}
	m.worst = m.sorted(nil, m.overall, false)
	return m
}

// sortKey orders a value so that ascending is worst first: the lowest
// score, no score at all before any (nothing vouches for it, as explain's
// weakest list has it), a guide not retrieved before the worst rank, the
// widest disagreement, the most reasons; n/a ranks and spreads last.
func sortKey(kind gridColKind, v float64, ok bool) float64 {
	switch kind {
	case gcScore, gcOverall:
		if !ok {
			return math.Inf(-1)
		}
		return v
	case gcRank:
		switch {
		case !ok:
			return math.Inf(1)
		case v == 0:
			return math.Inf(-1)
		}
		return -v
	case gcSD:
		if !ok {
			return math.Inf(1)
		}
		return -v
	case gcFlags:
		return -v
	}
	return 0
}

// textKeys gives each row its position in the sorted texts.
func textKeys(key []float64, texts []string) {
	idx := make([]int, len(texts))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return strings.Compare(texts[a], texts[b]) })
	for pos, i := range idx {
		key[i] = float64(pos)
	}
}

// sorted fills order (reusing its storage) with every row by column c,
// worst first unless desc; ties keep the workbook's order.
func (m *gridModel) sorted(order []int, c int, desc bool) []int {
	order = order[:0]
	for i := range m.rows() {
		order = append(order, i)
	}
	key := m.key[c]
	slices.SortFunc(order, func(a, b int) int {
		ka, kb := key[a], key[b]
		if desc {
			ka, kb = kb, ka
		}
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return a - b
	})
	return order
}

// filter fills view (reusing its storage) with the rows of order that have
// any of the reasons in mask (every row when mask is 0) and whose id or
// question contains query (lower-cased already).
func (m *gridModel) filter(view, order []int, mask uint8, query string) []int {
	view = view[:0]
	for _, row := range order {
		if mask != 0 && m.reasons[row]&mask == 0 {
			continue
		}
		if query != "" && !strings.Contains(m.search[row], query) {
			continue
		}
		view = append(view, row)
	}
	return view
}

// detail is row's item detail.
func (m *gridModel) detail(row int) *cube.ItemDetail {
	return &m.res.Summary.ItemDetails[row]
}
