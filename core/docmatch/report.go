package docmatch

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/target"
	"cubeworkbench/core/text"
)

// LoudShare is the resolved share below which the mapping report is a loud
// warning: when most retrieved documents match no guide, Recall@k measures
// the naming, not the retrieval.
const LoudShare = 0.5

// Unresolved is one distinct reference that matched no guide.
type Unresolved struct {
	ID        string   `json:"id,omitempty"`
	Name      string   `json:"name,omitempty"`
	Count     int      `json:"count"`               // times it was retrieved
	Ambiguous []string `json:"ambiguous,omitempty"` // guide ids it could mean, when it names several
}

// Report is the mapping report: how the retrieved documents of a run (or of
// one answer) resolved to guides. The CLI, the window and the report show
// it; Loud says it must be shown as a warning.
type Report struct {
	Answers   int            `json:"answers"`    // answers seen
	NoDocs    int            `json:"no_docs"`    // answers that carried no retrieved documents
	Retrieved int            `json:"retrieved"`  // document references seen (with repeats across answers)
	Resolved  int            `json:"resolved"`   // of which matched a guide
	ByMethod  map[Method]int `json:"by_method"`  // resolved references per method
	Unmatched []Unresolved   `json:"unresolved"` // distinct references that matched no guide, most frequent first
	// Warnings are the target's own warnings (quote/citations off), once per code.
	Warnings []target.Warning `json:"warnings,omitempty"`
	// WarningCounts counts answers per warning code.
	WarningCounts map[string]int `json:"warning_counts,omitempty"`
}

// Share is Resolved/Retrieved; nil (n/a) when nothing was retrieved.
func (r Report) Share() *float64 {
	if r.Retrieved == 0 {
		return nil
	}
	v := float64(r.Resolved) / float64(r.Retrieved)
	return &v
}

// Loud reports that Recall@k from these answers is not a measurement: most
// references match no guide, or no answer carried documents at all.
func (r Report) Loud() bool {
	if r.Answers > 0 && r.NoDocs == r.Answers {
		return true
	}
	s := r.Share()
	return s != nil && *s < LoudShare
}

// RecallMissing reports that no answer carried documents because the
// target does not return them (every answer warned no_reference: RAGFlow's
// quote or Dify's citations off): Recall@k is undefined, not 0.
func (r Report) RecallMissing() bool {
	return r.Answers > 0 && r.NoDocs == r.Answers && r.WarningCounts[target.WarnNoReference] == r.Answers
}

// Messages are the report's lines for people in lang: the summary, then
// each warning, then up to limit unresolved names (limit ≤ 0: all of
// them). The metric is named as the glossary names it (指南召回率@k).
func (r Report) Messages(lang text.Lang, limit int) []string {
	recall := glossary.Text(glossary.GuideRecall)
	var out []text.Text
	switch {
	case r.Answers == 0 && r.Retrieved == 0:
		return nil
	case r.RecallMissing():
		out = append(out, text.New(
			fmt.Sprintf("警告：系统的 %d 个回答都没有返回检索到的文档，%s 无法计算（不是 0）。", r.Answers, recall.ZH),
			fmt.Sprintf("Warning: none of the system's %d answers carried retrieved documents; %s cannot be computed (it is not 0).", r.Answers, recall.EN)))
	case r.NoDocs == r.Answers:
		out = append(out, text.New(
			fmt.Sprintf("警告：系统的 %d 个回答都没有检索到任何文档，%s 为 0。请确认聊天助理/应用已关联知识库，且文档已解析完成。", r.Answers, recall.ZH),
			fmt.Sprintf("Warning: none of the system's %d answers retrieved any document, so %s is 0. Check that the assistant or app has a knowledge base attached and its documents are parsed.", r.Answers, recall.EN)))
	default:
		share := 100 * *r.Share()
		line := text.New(
			fmt.Sprintf("文档对应：检索到的 %d 个文档中 %d 个（%.1f%%）对应到了办事指南，%d 个未对应。", r.Retrieved, r.Resolved, share, r.Retrieved-r.Resolved),
			fmt.Sprintf("Document mapping: %d of %d retrieved documents (%.1f %%) matched a guide, %d did not.", r.Resolved, r.Retrieved, share, r.Retrieved-r.Resolved))
		if r.Loud() {
			line = text.JoinWith([]text.Text{text.New(
				fmt.Sprintf("警告：大多数检索到的文档对应不到办事指南，%s 反映的是文档命名而不是检索效果。请在办事指南表加“知识库文件名”（target_doc）列填写系统中的文件名或文档 ID，或用 cubectl kb export 导出指南后上传到知识库。", recall.ZH),
				fmt.Sprintf("Warning: most retrieved documents match no guide, so %s measures the naming, not the retrieval. Add a target_doc column (知识库文件名) to the guides with the system's file name or document id, or upload the guides written by cubectl kb export.", recall.EN)),
				line}, text.New(" ", " "))
		}
		out = append(out, line)
	}
	for _, w := range r.Warnings {
		out = append(out, w.Message)
	}
	for i, u := range r.Unmatched {
		if limit > 0 && i == limit {
			out = append(out, text.New(fmt.Sprintf("……另有 %d 个未对应的文档。", len(r.Unmatched)-limit),
				fmt.Sprintf("… and %d more unmatched documents.", len(r.Unmatched)-limit)))
			break
		}
		name := strings.TrimSpace(strings.Join(nonEmpty(u.Name, u.ID), " / "))
		if len(u.Ambiguous) > 0 {
			out = append(out, text.New(
				fmt.Sprintf("  有歧义：%s（%d 次）可对应多条指南：%s", name, u.Count, strings.Join(u.Ambiguous, "、")),
				fmt.Sprintf("  ambiguous: %s (%d×) could be any of the guides %s", name, u.Count, strings.Join(u.Ambiguous, ", "))))
			continue
		}
		out = append(out, text.New(fmt.Sprintf("  未对应：%s（%d 次）", name, u.Count), fmt.Sprintf("  unmatched: %s (%d×)", name, u.Count)))
	}
	lines := make([]string, len(out))
	for i, t := range out {
		lines[i] = t.In(lang)
	}
	return lines
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, v := range s {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// Tally accumulates a Report over many answers; safe for concurrent use.
type Tally struct {
	m      *Matcher
	mu     sync.Mutex
	rep    Report
	unres  map[string]*Unresolved
	onWarn func(target.Warning)
}

// NewTally counts against m. onWarning, when not nil, is called once per
// warning code, the first time an answer carries it (so the CLI and the
// window can say it at once rather than after the run).
func NewTally(m *Matcher, onWarning func(target.Warning)) *Tally {
	return &Tally{m: m, unres: map[string]*Unresolved{}, onWarn: onWarning,
		rep: Report{ByMethod: map[Method]int{}, WarningCounts: map[string]int{}}}
}

// Map resolves an answer's documents, counts them, and returns the answer
// with each resolved document's ID replaced by its guide id (Name kept), so
// a consumer that matches by id finds the guide. Unresolved documents are
// left as they came.
func (t *Tally) Map(ans target.Answer) target.Answer {
	out := ans
	out.Retrieved = make([]target.Doc, len(ans.Retrieved))
	var fresh []target.Warning
	t.mu.Lock()
	t.rep.Answers++
	if len(ans.Retrieved) == 0 {
		t.rep.NoDocs++
	}
	for i, d := range ans.Retrieved {
		out.Retrieved[i] = d
		t.rep.Retrieved++
		res := t.m.Resolve(d)
		if res.GuideID != "" {
			t.rep.Resolved++
			t.rep.ByMethod[res.Method]++
			out.Retrieved[i].ID = res.GuideID
			continue
		}
		key := d.ID + "\x00" + d.Name
		u := t.unres[key]
		if u == nil {
			u = &Unresolved{ID: d.ID, Name: d.Name, Ambiguous: res.Ambiguous}
			t.unres[key] = u
		}
		u.Count++
	}
	for _, w := range ans.Warnings {
		if t.rep.WarningCounts[w.Code] == 0 {
			t.rep.Warnings = append(t.rep.Warnings, w)
			fresh = append(fresh, w)
		}
		t.rep.WarningCounts[w.Code]++
	}
	t.mu.Unlock()
	if t.onWarn != nil {
		for _, w := range fresh {
			t.onWarn(w)
		}
	}
	return out
}

// Report returns a copy of the report so far, unresolved names most
// frequent first.
func (t *Tally) Report() Report {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.rep
	r.ByMethod = make(map[Method]int, len(t.rep.ByMethod))
	for k, v := range t.rep.ByMethod {
		r.ByMethod[k] = v
	}
	r.WarningCounts = make(map[string]int, len(t.rep.WarningCounts))
	for k, v := range t.rep.WarningCounts {
		r.WarningCounts[k] = v
	}
	r.Warnings = append([]target.Warning(nil), t.rep.Warnings...)
	r.Unmatched = make([]Unresolved, 0, len(t.unres))
	for _, u := range t.unres {
		r.Unmatched = append(r.Unmatched, *u)
	}
	sort.Slice(r.Unmatched, func(i, j int) bool {
		a, b := r.Unmatched[i], r.Unmatched[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Name+a.ID < b.Name+b.ID
	})
	return r
}

// ReportFor is the mapping report of one answer (Test connection).
func ReportFor(m *Matcher, ans target.Answer) Report {
	t := NewTally(m, nil)
	t.Map(ans)
	return t.Report()
}

// ForItems is the mapping report of the retrieved lists a workbook already
// holds (its retrieved column): each entry is taken as an id or a name.
func ForItems(m *Matcher, items []dataset.Item) Report {
	t := NewTally(m, nil)
	for _, it := range items {
		ans := target.Answer{}
		for _, ref := range it.Retrieved {
			ans.Retrieved = append(ans.Retrieved, target.Doc{ID: ref, Name: ref})
		}
		t.Map(ans)
	}
	return t.Report()
}
