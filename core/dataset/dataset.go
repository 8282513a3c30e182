package dataset

import "cubeworkbench/core/querytype"

// Answer-set names used by CuBE (formulas.md §1). Any other name is a further
// system or model to compare (the `answer:NAME` columns of workbook.md).
const (
	SetRAG  = "rag"  // the system under test
	SetZero = "zero" // the bare LLM, no context: the lower bound
	SetFull = "full" // the LLM given only the gold document: the upper bound
)

// Judgement statuses.
const (
	StatusOK         = "ok"
	StatusUnscorable = "unscorable"
)

// Field is one named cell of a guide row, kept in column order.
type Field struct {
	Name  string
	Value string
}

// Guide is one service item of the knowledge base (办事指南).
type Guide struct {
	ID     string
	Title  string
	Text   string  // the document as judges and retrievers see it
	Fields []Field // every other column, in column order
	Row    int     // 1-based source row (0 when not from a sheet)
	// TargetDoc is how the system under test names this guide: its document
	// id or uploaded file name (several separated by ";"), from the optional
	// target_doc column. "" when the guide's id or title is what it uses.
	TargetDoc string
}

// Item is one question of the QA set with everything known about it.
type Item struct {
	ID        string
	Question  string
	DocID     string            // gold document id ("" when unknown)
	Answers   map[string]string // set name (rag, zero, full, NAME) → answer text; may be shared, never written into (SetAnswer)
	Retrieved []string          // retrieved document ids in rank order
	Contexts  []string          // retrieved chunk texts, optional
	Reference string            // reference answer (MFSS, CoFE correctness)
	QueryType string            // canonical: factual | analytical | comparative | tutorial | ""
	Category  string
	Coarse    []string   // CoFE coarse keywords
	Fine      [][]string // CoFE fine keyword groups
	Row       int        // 1-based source row (0 when not from a sheet)
}

// Answer returns the item's answer for a set, "" when absent.
func (it *Item) Answer(set string) string {
	if it.Answers == nil {
		return ""
	}
	return it.Answers[set]
}

// SetAnswer records an answer for a set. It never writes into the map
// Answers held: it puts a new map there, the old one's answers and this
// one, so items may share an answers map (session.Clone copies a
// workbook's items without their maps: 0.3 KB a question, 30 MB at
// 100,000) and an answer added to one item is never seen by another.
// Items have a few answers each; copying them is cheap.
func (it *Item) SetAnswer(set, text string) {
	m := make(map[string]string, len(it.Answers)+1)
	for k, v := range it.Answers {
		m[k] = v
	}
	m[set] = text
	it.Answers = m
}

// Judgement is one judge's reading of one answer on one dimension.
// Score is meaningful only when Status is StatusOK; an unscorable judgement
// keeps its raw reply and reason and is left out of every mean.
type Judgement struct {
	ItemID    string
	Set       string
	Judge     string
	Dimension string
	Repeat    int // 1-based
	Score     float64
	Raw       string
	Status    string // StatusOK or StatusUnscorable
	Reason    string // why unscorable
	Row       int    // 1-based source row when read from a scores sheet
}

// OK reports whether the judgement carries a usable score.
func (j Judgement) OK() bool { return j.Status == StatusOK }

// HumanRating is one expert's 0–10 score of an item's rag answer on a dimension.
type HumanRating struct {
	ItemID    string
	Dimension string
	Score     float64
	Rater     string
	Row       int
}

// Workbook is everything a user brings and an evaluation produces.
type Workbook struct {
	Source  string // path it was read from
	Guides  []Guide
	Items   []Item
	Scores  Scores // the judgements, in columns (Scores)
	Human   []HumanRating
	Systems []string // answer set names present in the QA set, in column order
}

// GuideIndex maps both ids and titles to the index of the guide in Guides,
// so gold and retrieved references may name either (workbook.md).
func (w *Workbook) GuideIndex() map[string]int {
	idx := make(map[string]int, 2*len(w.Guides))
	for i, g := range w.Guides {
		if g.Title != "" {
			if _, taken := idx[g.Title]; !taken {
				idx[g.Title] = i
			}
		}
	}
	for i, g := range w.Guides { // ids win over titles
		idx[g.ID] = i
	}
	return idx
}

// Query types (formulas.md §3), canonical English names.
const (
	QueryFactual     = "factual"
	QueryAnalytical  = "analytical"
	QueryComparative = "comparative"
	QueryTutorial    = "tutorial"
)

// CanonicalQueryType maps English or Chinese query-type names to the
// canonical English name; unknown names are returned trimmed and lowercased.
func CanonicalQueryType(s string) string {
	normalized := lowerTrim(s)
	if name, ok := querytype.Canonical(normalized); ok { // the spellings are core/querytype's
		return name
	}
	return normalized
}
