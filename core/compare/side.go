package compare

import (
	"strconv"
	"strings"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/text"
)

// Side is one of the two evaluations compared.
type Side struct {
	// Name is what the sentences call this side ("rag", "系统B", a run's
	// name); "" means Set.
	Name string
	// Set is the answer set of this side's system in Judgements and in the
	// items' Answers; "" means rag. Its judgements are read as CuBE's rag
	// set; the zero and full sets are the bounds.
	Set        string
	Items      []dataset.Item
	Judgements dataset.Scores
	// Guides, when both sides have them, let the comparison check that a
	// question's gold guide text is the same on both sides.
	Guides []dataset.Guide
	// DocKey overrides Options.Config.DocKey for this side (two workbooks
	// may name documents differently).
	DocKey func(ref string) string
	// MFSS is item id → MFSS total (0–1) of this side's answer, e.g. the
	// Factors.Total of the mfss.Result.Items whose System is Set; nil when
	// MFSS was not run.
	MFSS map[string]float64
}

func (s Side) set() string {
	if s.Set == "" {
		return dataset.SetRAG
	}
	return s.Set
}

func (s Side) name() string {
	if s.Name == "" {
		return s.set()
	}
	return s.Name
}

// label is what people read for this side: the glossary's name of an
// answer set named by its code (rag → 被测系统回答 / system answers), the
// user's own name (系统B, a workbook's name) otherwise.
func (s Side) label() text.Text { return sideLabel(s.name()) }

func sideLabel(name string) text.Text {
	if id, ok := glossary.SetID(name); ok {
		return text.New(glossary.Term(id, "zh"), glossary.Term(id, "en"))
	}
	return text.New(name, name)
}

// FromWorkbook makes the two sides of an A/B comparison of two answer sets
// of one workbook (e.g. rag and 系统B): same items, same guides, same
// bounds; each side reads the judgements of its own set.
func FromWorkbook(wb *dataset.Workbook, setA, setB string) (Side, Side) {
	side := func(set string) Side {
		return Side{Name: set, Set: set, Items: wb.Items, Judgements: wb.Scores, Guides: wb.Guides}
	}
	return side(setA), side(setB)
}

// CoFE-RAG's generation dimensions and pass mark (core/cofe, whose
// constants these must equal — a test checks). Copied so that this package
// does not pull in cofe's retrievers and their HTTP clients.
var cofeDimensions = []string{"correctness", "faithfulness", "relevancy"}

const (
	cofeCorrectness = "correctness"
	cofePass        = 4.0
)

// pairing matches the two sides' items by id, in A's order.
type pairing struct {
	ids                    []string
	ia, ib                 []int
	unmatchedA, unmatchedB []string
	// differ lists the paired ids whose question text or gold guide differ.
	differ []string
}

func indexByID(side text.Text, items []dataset.Item) (map[string]int, error) {
	by := make(map[string]int, len(items))
	for i, it := range items {
		id := strings.TrimSpace(it.ID)
		if id == "" {
			return nil, fail(CodeMissingID,
				"“"+side.ZH+"”一方：第 "+itoa(i+1)+" 个问题（第 "+itoa(it.Row)+" 行）没有编号，无法配对",
				"side "+side.EN+": item "+itoa(i+1)+" (row "+itoa(it.Row)+") has no id, so it cannot be paired")
		}
		if _, dup := by[id]; dup {
			return nil, fail(CodeDuplicateID,
				"“"+side.ZH+"”一方：问题编号“"+id+"”重复出现（第 "+itoa(it.Row)+" 行），配对会有歧义",
				"side "+side.EN+": question id "+strconv.Quote(id)+" appears twice (row "+itoa(it.Row)+"), so pairing would be ambiguous")
		}
		by[id] = i
	}
	return by, nil
}

func pair(a, b Side, cfgKey func(string) string) (*pairing, error) {
	byA, err := indexByID(a.label(), a.Items)
	if err != nil {
		return nil, err
	}
	byB, err := indexByID(b.label(), b.Items)
	if err != nil {
		return nil, err
	}
	keyA, keyB := docKey(a.DocKey, cfgKey), docKey(b.DocKey, cfgKey)
	textA, textB := guideTexts(a.Guides, keyA), guideTexts(b.Guides, keyB)
	p := &pairing{}
	for i, it := range a.Items {
		id := strings.TrimSpace(it.ID)
		j, ok := byB[id]
		if !ok {
			p.unmatchedA = append(p.unmatchedA, id)
			continue
		}
		p.ids, p.ia, p.ib = append(p.ids, id), append(p.ia, i), append(p.ib, j)
		bt := b.Items[j]
		same := strings.TrimSpace(it.Question) == strings.TrimSpace(bt.Question) &&
			keyA(it.DocID) == keyB(bt.DocID)
		if same && textA != nil && textB != nil {
			same = textA[keyA(it.DocID)] == textB[keyB(bt.DocID)]
		}
		if !same {
			p.differ = append(p.differ, id)
		}
	}
	for _, it := range b.Items {
		if _, ok := byA[strings.TrimSpace(it.ID)]; !ok {
			p.unmatchedB = append(p.unmatchedB, strings.TrimSpace(it.ID))
		}
	}
	return p, nil
}

func docKey(side, cfg func(string) string) func(string) string {
	switch {
	case side != nil:
		return func(s string) string { return side(strings.TrimSpace(s)) }
	case cfg != nil:
		return func(s string) string { return cfg(strings.TrimSpace(s)) }
	}
	return strings.TrimSpace
}

// guideTexts maps a guide's key (of its id and of its title) to its text;
// nil without guides.
func guideTexts(guides []dataset.Guide, key func(string) string) map[string]string {
	if len(guides) == 0 {
		return nil
	}
	out := make(map[string]string, 2*len(guides))
	for _, g := range guides {
		for _, ref := range []string{g.Title, g.ID} { // ids win over titles
			if k := key(ref); k != "" {
				out[k] = strings.TrimSpace(g.Text)
			}
		}
	}
	return out
}

// cubeInput is one side's items (the paired ones, in pairing order) and
// the judgements CuBE reads: the side's own set relabelled rag, and the
// bounds — shared from side A when the questions and guides are the same.
func cubeInput(s Side, idx []int, bounds dataset.Scores, ownBounds bool, dims []string) ([]dataset.Item, dataset.Scores) {
	items := make([]dataset.Item, len(idx))
	for x, i := range idx {
		items[x] = s.Items[i]
		items[x].ID = strings.TrimSpace(items[x].ID)
	}
	set := s.set()
	skip := map[string]bool{}
	if len(dims) == 0 { // CuBE would take every dimension it sees
		for _, d := range cofeDimensions {
			skip[d] = true
		}
	}
	// Sized once: at 6,000 questions the judgements are hundreds of MB when grown by append.
	n := bounds.Len()
	for j := range s.Judgements.Values() {
		if j.Set == set || ownBounds && (j.Set == dataset.SetZero || j.Set == dataset.SetFull) {
			n++
		}
	}
	var js dataset.Scores
	js.Grow(n)
	for j := range s.Judgements.Values() {
		if skip[j.Dimension] {
			continue
		}
		switch {
		case j.Set == set:
			j.Set = dataset.SetRAG
			js.Add(j)
		case ownBounds && (j.Set == dataset.SetZero || j.Set == dataset.SetFull):
			js.Add(j)
		}
	}
	if !ownBounds {
		for j := range bounds.Values() {
			if !skip[j.Dimension] {
				js.Add(j)
			}
		}
	}
	return items, js
}

// boundJudgements are a side's zero and full judgements.
func boundJudgements(s Side) dataset.Scores {
	var out dataset.Scores
	for j := range s.Judgements.Values() {
		if j.Set == dataset.SetZero || j.Set == dataset.SetFull {
			out.Add(j)
		}
	}
	return out
}

// cofePasses is judge → per paired item: 1 pass, 0 fail, −1 no correctness
// score (cofePass on the mean of the ok repeats).
func cofePasses(s Side, ids []string) map[string][]int8 {
	pos := make(map[string]int, len(ids))
	for x, id := range ids {
		pos[id] = x
	}
	type acc struct {
		sum float64
		n   int
	}
	by := map[string][]acc{}
	set := s.set()
	for j := range s.Judgements.Values() {
		x, ok := pos[strings.TrimSpace(j.ItemID)]
		if j.Set != set || j.Dimension != cofeCorrectness || !ok || !j.OK() {
			continue
		}
		if by[j.Judge] == nil {
			by[j.Judge] = make([]acc, len(ids))
		}
		by[j.Judge][x].sum += j.Score
		by[j.Judge][x].n++
	}
	out := map[string][]int8{}
	for judge, accs := range by {
		v := make([]int8, len(ids))
		for x, a := range accs {
			switch {
			case a.n == 0:
				v[x] = -1
			case a.sum/float64(a.n) >= cofePass:
				v[x] = 1
			}
		}
		out[judge] = v
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
