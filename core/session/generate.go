package session

import (
	"context"
	"fmt"
	"strings"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/generate"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/text"
)

// ErrNoGenerator refuses to write questions without a generator model.
var ErrNoGenerator error = text.NewError(text.New("评估配置中没有生成模型", "no generator model in the profile"), nil)

// GenerateOptions say which guides, how many questions of which kinds, and
// whether the critic checks them.
type GenerateOptions struct {
	Select generate.Selection
	Spec   generate.Spec
	// NoCritic skips the critic call (one per question) that checks each
	// question against its guide; the other filters always run.
	NoCritic bool
	Filter   generate.FilterOptions
	Progress func(done, total int)
	// NewCompleter replaces the LLM client (tests); nil is the real thing.
	NewCompleter func(profile.Endpoint) (llm.Completer, error)
}

// TestSet is a generated set on its way through review: the candidates
// with their filters' flags, the guides they came from, and what failed.
type TestSet struct {
	Candidates []generate.Candidate
	Guides     []dataset.Guide // the guides chosen
	Problems   []generate.Problem
	Model      string
}

// Counts are the candidates per query type and aspect ("" = none asked),
// counted over those whose decision is one of decisions (all when none).
func (t *TestSet) Counts(decisions ...string) (byType, byAspect map[string]int) {
	byType, byAspect = map[string]int{}, map[string]int{}
	for _, c := range t.Candidates {
		if len(decisions) > 0 && !contains(decisions, c.Decision) {
			continue
		}
		byType[c.QueryType]++
		byAspect[c.Aspect]++
	}
	return byType, byAspect
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Generate writes a test set from the workbook's guides with the profile's
// generator and runs the filters (the critic unless o.NoCritic). Every
// reply goes into the run store as it arrives, so running the same set
// again pays nothing. Nothing is decided: each candidate is pending until
// the officer accepts or rejects it (AcceptUnflagged for the CLI).
func (s *Session) Generate(ctx context.Context, p profile.Profile, o GenerateOptions) (*TestSet, error) {
	if p.Generator == nil || p.Generator.BaseURL == "" && len(p.Generator.BaseURLs) == 0 {
		return nil, ErrNoGenerator
	}
	if s.Streamed > 0 {
		// Only the guides the questions name are in memory: a set written
		// from them, and saved beside them, would silently miss the rest.
		return nil, refusal(fmt.Sprintf("有 %d 条指南保存在运行记录库而不在内存中：请以载入全部指南的方式打开工作簿（cubectl generate 即如此）", s.Streamed),
			fmt.Sprintf("%d guides are in the run store, not in memory; open the workbook with every guide (cubectl generate does)", s.Streamed))
	}
	guides, err := generate.Select(s.Workbook.Guides, o.Select)
	if err != nil {
		return nil, err
	}
	if len(guides) == 0 {
		return nil, refusal("工作簿中没有办事指南", "the workbook has no guides")
	}
	b, err := people()
	if err != nil {
		return nil, err
	}
	c, release, err := b.CachedCompleter(s.StorePath, *p.Generator, o.NewCompleter)
	if err != nil {
		return nil, err
	}
	defer release()
	g := &generate.Generator{C: c, Lang: text.Lang(p.Language), PromptDir: p.PromptDir, Seed: int(p.Seed)}
	conc := p.Generator.Concurrency
	if conc <= 0 {
		conc = 4
	}
	cands, problems, err := g.TestSet(ctx, guides, o.Spec, conc, o.Progress)
	if err != nil {
		return nil, err
	}
	ts := &TestSet{Candidates: cands, Guides: guides, Problems: problems, Model: c.Model()}
	if len(cands) == 0 {
		return ts, refusal(fmt.Sprintf("未能生成任何问题（失败 %d 次）", len(problems)), fmt.Sprintf("no question could be written (%d failed)", len(problems)))
	}
	o.Filter.Lang = text.Lang(p.Language)
	for _, it := range s.Workbook.Items {
		o.Filter.Existing = append(o.Filter.Existing, it.Question)
	}
	if err := generate.Filter(ctx, ts.Candidates, guides, o.Filter); err != nil {
		return ts, err
	}
	if !o.NoCritic {
		if err := g.Critic(ctx, ts.Candidates, guides); err != nil {
			return ts, err
		}
	}
	return ts, nil
}

// Refilter runs the filters that need no model again, after edits.
func (s *Session) Refilter(ctx context.Context, ts *TestSet, lang text.Lang) error {
	o := generate.FilterOptions{Lang: text.LangOf(lang.String())}
	for _, it := range s.Workbook.Items {
		o.Existing = append(o.Existing, it.Question)
	}
	return generate.Filter(ctx, ts.Candidates, ts.Guides, o)
}

// AcceptUnflagged accepts every pending candidate no filter doubts and
// rejects the flagged ones: the CLI's review, which has no officer.
func (t *TestSet) AcceptUnflagged() (accepted, rejected int) {
	for i := range t.Candidates {
		c := &t.Candidates[i]
		if c.Decision != generate.Pending {
			continue
		}
		if c.Flagged() {
			c.Decision = generate.Rejected
			rejected++
		} else {
			c.Decision = generate.Accepted
			accepted++
		}
	}
	return accepted, rejected
}

// SaveTestSet writes the accepted questions beside every guide of the
// workbook (the knowledge base they are evaluated against) as a new
// workbook that opens like any other; it refuses a set nobody accepted.
func (s *Session) SaveTestSet(path string, ts *TestSet, lang text.Lang) (int, error) {
	n := 0
	for _, c := range ts.Candidates {
		if c.Decision == generate.Accepted {
			if strings.TrimSpace(c.Question) == "" {
				return 0, refusal(fmt.Sprintf("问题 %s 为空", c.ID), fmt.Sprintf("question %s is empty", c.ID))
			}
			n++
		}
	}
	if n == 0 {
		return 0, refusal("没有已采用的问题，无可保存", "no question accepted; nothing to save")
	}
	if err := CheckOutputs(File(path)); err != nil {
		return 0, err
	}
	return generate.WriteTestSet(path, s.Workbook.Guides, ts.Candidates, text.LangOf(lang.String()))
}
