package generate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"cubeworkbench/core/aspect"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/querytype"
	"cubeworkbench/core/text"
)

// Where a question of a test set comes from (the qa sheet's origin column).
const (
	OriginGenerated = "generated" // 生成: as the generator wrote it
	OriginEdited    = "edited"    // 修改: generated, then changed by the officer
	OriginManual    = "manual"    // 人工: written by a person
)

// OriginTitle is an origin's display name in lang.
func OriginTitle(origin string, lang text.Lang) string {
	zh := map[string]string{OriginGenerated: "生成", OriginEdited: "修改", OriginManual: "人工"}[origin]
	return text.New(zh, origin).In(lang)
}

// Review decisions on a candidate question.
const (
	Pending  = ""
	Accepted = "accepted"
	Rejected = "rejected"
)

// Candidate is one generated question on its way through filter and review.
type Candidate struct {
	ID         string
	Question   string
	Original   string // as generated, kept when the officer edits it
	GuideID    string
	GuideTitle string
	QueryType  string // canonical (core/querytype)
	Aspect     string // canonical (core/aspect), "" when none was asked for
	Model      string // the generator model
	Origin     string
	Flags      []Flag // why a filter doubts it; empty when it passed them all
	Decision   string // Pending, Accepted or Rejected
}

// Flagged says a filter doubts the question.
func (c Candidate) Flagged() bool { return len(c.Flags) > 0 }

// Edit replaces the question text; a generated question becomes edited.
func (c *Candidate) Edit(text string) {
	text = strings.TrimSpace(text)
	if text == c.Question {
		return
	}
	if c.Origin == OriginGenerated {
		c.Original = c.Question
		c.Origin = OriginEdited
	}
	c.Question = text
}

// Selection says which guides to write questions for.
type Selection struct {
	Column string   // a guide column (a department or region) to filter on; "" for every guide
	Values []string // the values of Column to keep
	Sample int      // > 0: a random sample of this many of the guides kept
	Seed   int64
}

// Select applies a selection to the guides, keeping their order. An
// unknown column or a value no guide has is an error, not an empty set.
func Select(guides []dataset.Guide, s Selection) ([]dataset.Guide, error) {
	out := guides
	if s.Column != "" {
		out = nil
		found := false
		for _, g := range guides {
			v, ok := fieldValue(g, s.Column)
			found = found || ok
			if ok && slices.Contains(s.Values, strings.TrimSpace(v)) {
				out = append(out, g)
			}
		}
		if !found {
			return nil, text.NewError(text.New(fmt.Sprintf("办事指南没有“%s”列", s.Column), fmt.Sprintf("generate: the guides have no column %q", s.Column)), nil)
		}
		if len(out) == 0 {
			return nil, text.NewError(text.New(fmt.Sprintf("没有办事指南的“%s”为 %s", s.Column, strings.Join(s.Values, "、")),
				fmt.Sprintf("generate: no guide has %s = %s", s.Column, strings.Join(s.Values, ", "))), nil)
		}
	}
	if s.Sample > 0 && s.Sample < len(out) {
		rng := rand.New(rand.NewPCG(uint64(s.Seed), 0x6a09e667))
		idx := rng.Perm(len(out))[:s.Sample]
		slices.Sort(idx)
		picked := make([]dataset.Guide, len(idx))
		for i, k := range idx {
			picked[i] = out[k]
		}
		out = picked
	}
	return out, nil
}

func fieldValue(g dataset.Guide, column string) (string, bool) {
	for _, f := range g.Fields {
		if f.Name == column {
			return f.Value, true
		}
	}
	return "", false
}

// ColumnValues lists a guide column's distinct values in first-seen order,
// for a chooser.
func ColumnValues(guides []dataset.Guide, column string) []string {
	var out []string
	for _, g := range guides {
		if v, ok := fieldValue(g, column); ok && strings.TrimSpace(v) != "" && !slices.Contains(out, strings.TrimSpace(v)) {
			out = append(out, strings.TrimSpace(v))
		}
	}
	return out
}

// Spec is what to write for each guide.
type Spec struct {
	PerGuide int      // questions per guide, ≥ 1
	Types    []string // query types (canonical); nil is all four
	Aspects  []string // aspects (canonical); nil asks for none in particular
}

// Problem is a question that could not be written: the guide, and why.
type Problem struct {
	GuideID string
	Err     error
}

// combos are the (query type, aspect) pairs a guide's questions cycle
// through; aspects the guide cannot answer are left out.
func (s Spec) combos(g dataset.Guide) [][2]string {
	types := s.Types
	if len(types) == 0 {
		for _, t := range querytype.All() {
			types = append(types, t.Name)
		}
	}
	var names []string
	for _, f := range g.Fields {
		names = append(names, f.Name)
	}
	aspects := []string{""}
	if len(s.Aspects) > 0 {
		aspects = nil
		for _, a := range s.Aspects {
			if x, ok := aspect.Lookup(a); ok && x.Covers(names, g.Text) {
				aspects = append(aspects, x.Name)
			}
		}
		if len(aspects) == 0 { // none covered: ask without one rather than invent
			aspects = []string{""}
		}
	}
	var out [][2]string
	for _, a := range aspects {
		for _, t := range types {
			out = append(out, [2]string{t, a})
		}
	}
	return out
}

// errPerGuide refuses a test set of no questions per guide.
var errPerGuide = text.NewError(text.New("每条指南的问题数至少为 1", "generate: questions per guide must be at least 1"), nil)

// TestSet writes spec.PerGuide questions for each guide, cycling through
// the query types and aspects the guide can answer. A question whose call
// fails is listed in the problems and left out; a cancelled context stops
// the whole set. progress, when set, hears questions done and in all.
func (g *Generator) TestSet(ctx context.Context, guides []dataset.Guide, spec Spec, concurrency int, progress func(done, total int)) ([]Candidate, []Problem, error) {
	if spec.PerGuide < 1 {
		return nil, nil, errPerGuide
	}
	total := len(guides) * spec.PerGuide
	cands := make([]Candidate, total)
	ok := make([]bool, total)
	var (
		mu       sync.Mutex
		problems []Problem
		done     int
	)
	eg, ectx := errgroup.WithContext(ctx)
	eg.SetLimit(max(1, concurrency))
	for gi, guide := range guides {
		combos := spec.combos(guide)
		eg.Go(func() error {
			var asked []string
			for q := range spec.PerGuide {
				c := combos[(gi*spec.PerGuide+q)%len(combos)]
				k := gi*spec.PerGuide + q
				one := *g
				one.Seed = g.Seed + k // each question its own draw, reproducible
				text, rep, err := one.testQuestion(ectx, guide.Text, c[0], c[1], asked)
				mu.Lock()
				done++
				if progress != nil {
					progress(done, total)
				}
				if err != nil {
					problems = append(problems, Problem{GuideID: guide.ID, Err: err})
				}
				mu.Unlock()
				if ectx.Err() != nil {
					return ectx.Err()
				}
				if err != nil {
					continue
				}
				asked = append(asked, text)
				cands[k] = Candidate{Question: text, GuideID: guide.ID, GuideTitle: guide.Title, QueryType: c[0], Aspect: c[1],
					Model: modelOf(g.C, rep), Origin: OriginGenerated}
				ok[k] = true
			}
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		return nil, problems, err
	}
	var out []Candidate
	for k := range cands {
		if ok[k] {
			cands[k].ID = fmt.Sprintf("gen%04d", len(out)+1)
			out = append(out, cands[k])
		}
	}
	return out, problems, nil
}

func modelOf(c llm.Completer, rep llm.Reply) string {
	if rep.Model != "" {
		return rep.Model
	}
	if m, ok := c.(interface{ Model() string }); ok {
		return m.Model()
	}
	return ""
}

// testQuestion writes one question of a query type and aspect, told the
// questions already asked of the guide so it does not repeat them.
func (g *Generator) testQuestion(ctx context.Context, document, queryType, aspectName string, asked []string) (string, llm.Reply, error) {
	lang := g.lang()
	f := fields{Document: document, QueryType: queryType}
	if t, ok := querytype.Lookup(queryType); ok && lang != text.EN {
		f.QueryType = t.TitleZH
	}
	if a, ok := aspect.Lookup(aspectName); ok {
		f.Aspect = a.Title(lang)
	}
	f.Avoid = strings.Join(asked, "\n")
	msgs, err := g.render("testquestion", f)
	if err != nil {
		return "", llm.Reply{}, err
	}
	rep, err := g.ask(ctx, msgs, 0.7, false)
	if err != nil {
		return "", rep, err
	}
	q := firstLine(rep.Content)
	if q == "" {
		return "", rep, ErrEmpty
	}
	return q, rep, nil
}
