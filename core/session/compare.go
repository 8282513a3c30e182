package session

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"cubeworkbench/core/compare"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/mfss"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// StepCompare is the progress step of a comparison: evaluate side A, judge
// or evaluate side B, compare (Done of Total = 3).
const StepCompare = "compare"

// CompareOptions are what a comparison takes besides the profile.
type CompareOptions struct {
	EvalOptions
	// Tolerance is the per-question change that counts (0: compare's default).
	Tolerance float64
}

// CompareSide names one side of a comparison of two workbooks: the
// workbook (or CSV folder, JSONL set), the answer set of its system ("" is
// rag) and its run store ("" is the one beside the workbook). A run store
// with the workbook it evaluated is a run: evaluated offline, it yields the
// same judgements again without a call.
type CompareSide struct {
	Path  string
	Set   string
	Store string
}

// ErrSummaryOnly refuses a SUMMARY.json as a side: it holds each side's
// figures but not the per-question judgements a paired comparison needs.
var ErrSummaryOnly = &text.Error{Text: text.New("SUMMARY.json 不含逐题评分，无法配对比较；请给出生成它的工作簿（及其运行记录库）",
	"a SUMMARY.json holds no per-question judgements, so it cannot be paired; give the workbook it was made from (and its run store with --store)")}

// summaryOnly is ErrSummaryOnly naming the file.
func summaryOnly(path string) error {
	return text.NewError(text.New(ErrSummaryOnly.ZH+"（"+path+"）", ErrSummaryOnly.EN+" ("+path+")"), ErrSummaryOnly)
}

// OtherSystems lists the answer sets of wb that are systems besides rag
// (the bounds zero and full are not), in workbook order, each with at least
// one answer.
func OtherSystems(wb *dataset.Workbook) []string {
	var out []string
	seen := map[string]bool{dataset.SetRAG: true, dataset.SetZero: true, dataset.SetFull: true}
	add := func(s string) {
		if seen[s] {
			return
		}
		for i := range wb.Items {
			if wb.Items[i].Answer(s) != "" {
				seen[s] = true
				out = append(out, s)
				return
			}
		}
	}
	for _, s := range wb.Systems {
		add(s)
	}
	var rest []string
	for i := range wb.Items {
		for s := range wb.Items[i].Answers {
			if !seen[s] && !slices.Contains(rest, s) {
				rest = append(rest, s)
			}
		}
	}
	slices.Sort(rest)
	for _, s := range rest {
		add(s)
	}
	return out
}

// CompareSets compares two answer sets of this session's workbook (setB ""
// is the first of OtherSystems): the same questions and guides, so both
// sides share the zero and full bounds, judged once. The session is
// evaluated first when it has no result; a set other than rag is then
// judged in a run of its own with the bound judgements handed in, so only
// its answers are judged (and a judge's replies already in the run store
// are not paid again). The result is also kept in the summary
// (Summary.Comparison), so the report and SUMMARY.json carry it.
func (s *Session) CompareSets(ctx context.Context, p profile.Profile, setA, setB string, o CompareOptions) (*compare.Result, error) {
	if setA == "" {
		setA = dataset.SetRAG
	}
	if setB == "" {
		others := OtherSystems(s.Workbook)
		if len(others) == 0 {
			return nil, refusal(fmt.Sprintf("%s 中除%s外没有其他系统的回答可供比较", filepath.Base(s.Path), setName(dataset.SetRAG)),
				fmt.Sprintf("%s has no answer set besides rag to compare with", filepath.Base(s.Path)))
		}
		setB = others[0]
	}
	if setA == setB {
		return nil, refusal(fmt.Sprintf("两方是同一个答案集“%s”", setName(setA)), fmt.Sprintf("both sides are the answer set %q", setA))
	}
	for _, set := range []string{setA, setB} {
		if set != dataset.SetRAG && !slices.Contains(OtherSystems(s.Workbook), set) {
			others := strings.Join(OtherSystems(s.Workbook), " ")
			return nil, refusal(fmt.Sprintf("%s 中没有答案集“%s”的回答（现有：%s %s）", filepath.Base(s.Path), set, setName(dataset.SetRAG), others),
				fmt.Sprintf("%s has no answers of the set %q (its sets: rag %s)", filepath.Base(s.Path), set, others))
		}
	}
	prog := progressOf(o.Progress)
	step := func(done int, label string) {
		prog.Event(result.Event{Step: StepCompare, Label: label, Done: done, Total: 3, Finished: done == 3})
	}
	step(0, setA)
	res, err := s.evaluated(ctx, p, o.EvalOptions)
	if err != nil {
		return nil, err
	}
	step(1, setB)
	wb := Clone(res.Workbook)
	for _, set := range []string{setA, setB} {
		if set == dataset.SetRAG {
			continue
		}
		js, err := s.judgeSet(ctx, p, res.Workbook, set, o.EvalOptions)
		if err != nil {
			return nil, err
		}
		wb.Scores.DeleteFunc(func(j dataset.Judgement) bool { return j.Set == set })
		for _, j := range js {
			wb.Scores.Add(j)
		}
	}
	step(2, "")
	a, b := compare.FromWorkbook(wb, setA, setB)
	a.MFSS, b.MFSS = mfssTotals(res.Summary.MFSS, setA), mfssTotals(res.Summary.MFSS, setB)
	cfg, err := be().CubeConfig(p, wb)
	if err != nil {
		return nil, err
	}
	r, err := compare.Compare(a, b, compare.Options{Config: cfg, Tolerance: o.Tolerance})
	if err != nil {
		return nil, err
	}
	s.keepComparison(r)
	step(3, "")
	return r, nil
}

// Comparison is a comparison of two workbooks and the sessions it ran.
type Comparison struct {
	Result *compare.Result
	A, B   *Session // A holds the result in its summary (Summary.Comparison)
}

// CompareWorkbooks compares two evaluations: side B's workbook against side
// A's, paired by question id. Both are evaluated (offline they are read
// back from their run stores). Where a question of B has the same text and
// gold guide as in A, B is handed A's zero and full answers and their
// judgements before it is evaluated, so the bounds are not generated or
// judged a second time; when all do, the comparison shares A's bounds, and
// when any differs, each side uses its own and a warning names the ids.
func CompareWorkbooks(ctx context.Context, p profile.Profile, sa, sb CompareSide, o CompareOptions) (*Comparison, error) {
	for _, side := range []CompareSide{sa, sb} {
		if strings.EqualFold(filepath.Ext(side.Path), ".json") {
			return nil, summaryOnly(side.Path)
		}
	}
	if filepath.Clean(sa.Path) == filepath.Clean(sb.Path) && sa.Store == sb.Store {
		return nil, refusal(fmt.Sprintf("两方是同一个工作簿 %s；比较同一工作簿的两个答案集请用 --sets", sa.Path),
			fmt.Sprintf("both sides are %s; give --sets to compare two answer sets of one workbook", sa.Path))
	}
	a, err := Open(ctx, sa.Path, OpenOptions{StorePath: sa.Store})
	if err != nil {
		return nil, err
	}
	return a.CompareWith(ctx, p, sa.Set, sb, o)
}

// CompareWith compares this session (its answer set setA, "" rag) with
// another workbook's evaluation, as CompareWorkbooks does; the window calls
// it on the workbook it has open.
func (s *Session) CompareWith(ctx context.Context, p profile.Profile, setA string, sb CompareSide, o CompareOptions) (*Comparison, error) {
	if strings.EqualFold(filepath.Ext(sb.Path), ".json") {
		return nil, summaryOnly(sb.Path)
	}
	prog := progressOf(o.Progress)
	step := func(done int, label string) {
		prog.Event(result.Event{Step: StepCompare, Label: label, Done: done, Total: 3, Finished: done == 3})
	}
	step(0, filepath.Base(s.Path))
	resA, err := s.evaluated(ctx, p, o.EvalOptions)
	if err != nil {
		return nil, err
	}
	b, err := Open(ctx, sb.Path, OpenOptions{StorePath: sb.Store})
	if err != nil {
		return nil, err
	}
	if err := b.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", sb.Path, err)
	}
	step(1, filepath.Base(sb.Path))
	lent := lendBounds(resA.Workbook, b.Workbook, p.Judges)
	if lent > 0 {
		prog.Event(result.Event{Message: fmt.Sprintf("%s：%d 个问题与 %s 相同，沿用其零分、满分答案及评分，不再付费 / %d questions are the same as in %s: their zero and full answers and judgements are reused, not paid again",
			filepath.Base(sb.Path), lent, filepath.Base(s.Path), lent, filepath.Base(s.Path))})
	}
	resB, err := b.Evaluate(ctx, p, o.EvalOptions)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sb.Path, err)
	}
	wbA, wbB := Clone(resA.Workbook), Clone(resB.Workbook)
	setB := sb.Set
	if setA == "" {
		setA = dataset.SetRAG
	}
	if setB == "" {
		setB = dataset.SetRAG
	}
	if setA != dataset.SetRAG {
		js, err := s.judgeSet(ctx, p, resA.Workbook, setA, o.EvalOptions)
		if err != nil {
			return nil, err
		}
		for _, j := range js {
			wbA.Scores.Add(j)
		}
	}
	if setB != dataset.SetRAG {
		js, err := b.judgeSet(ctx, p, resB.Workbook, setB, o.EvalOptions)
		if err != nil {
			return nil, err
		}
		for _, j := range js {
			wbB.Scores.Add(j)
		}
	}
	step(2, "")
	side := func(sess *Session, wb *dataset.Workbook, set string, res *result.Outcome) compare.Side {
		name := strings.TrimSuffix(filepath.Base(sess.Path), filepath.Ext(sess.Path))
		if set != dataset.SetRAG {
			name += ":" + set
		}
		return compare.Side{Name: name, Set: set, Items: wb.Items, Judgements: wb.Scores, Guides: wb.Guides,
			DocKey: guideKey(wb), MFSS: mfssTotals(res.Summary.MFSS, set)}
	}
	A, B := side(s, wbA, setA, resA), side(b, wbB, setB, resB)
	if A.Name == B.Name {
		A.Name, B.Name = "A "+A.Name, "B "+B.Name
	}
	cfg, err := be().CubeConfig(p, wbA)
	if err != nil {
		return nil, err
	}
	r, err := compare.Compare(A, B, compare.Options{Config: cfg, Tolerance: o.Tolerance})
	if err != nil {
		return nil, err
	}
	s.keepComparison(r)
	step(3, "")
	return &Comparison{Result: r, A: s, B: b}, nil
}

// evaluated is the session's result, evaluating it first when it has none.
func (s *Session) evaluated(ctx context.Context, p profile.Profile, o EvalOptions) (*result.Outcome, error) {
	if res := s.Result(); res != nil {
		return res, nil
	}
	return s.Evaluate(ctx, p, o)
}

// keepComparison puts r into the last result's summary.
func (s *Session) keepComparison(r *compare.Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.result != nil {
		s.result.Summary.Comparison = r
	}
}

// Comparison is the comparison kept in the last result's summary; nil
// before one ran.
func (s *Session) Comparison() *compare.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.result == nil {
		return nil
	}
	return s.result.Summary.Comparison
}

// judgeSet judges the answers of one further system of an evaluated
// workbook and returns its judgements under its own set name. The run
// judges set itself (RunOptions.JudgeSets) over a copy holding only the
// questions that have an answer of set, with their bound answers, the
// bounds already judged and set's judgements already known, so nothing
// judged is judged again. No target is asked (set's answers are the ones
// compared, never another system's), no reranker is called, and no
// metrics are computed (MFSS and CoFE-RAG read rag; the first run has them).
func (s *Session) judgeSet(ctx context.Context, p profile.Profile, base *dataset.Workbook, set string, o EvalOptions) ([]dataset.Judgement, error) {
	wb := Clone(base)
	wb.Items = wb.Items[:0]
	for _, it := range base.Items {
		if it.Answer(set) == "" {
			continue
		}
		c := it
		c.Answers = map[string]string{}
		for _, k := range []string{dataset.SetZero, dataset.SetFull, set} {
			if v := it.Answer(k); v != "" {
				c.Answers[k] = v
			}
		}
		wb.Items = append(wb.Items, c)
	}
	if len(wb.Items) == 0 {
		return nil, refusal(fmt.Sprintf("没有任何问题有答案集“%s”的回答", setName(set)), fmt.Sprintf("no question has an answer of the set %q", set))
	}
	wb.Scores = dataset.Scores{}
	for j := range base.Scores.Values() {
		switch j.Set {
		case dataset.SetZero, dataset.SetFull, set:
			wb.Scores.Add(j)
		}
	}
	wb.Systems = []string{set, dataset.SetZero, dataset.SetFull}
	q := p
	q.Target, q.Reranker = nil, nil
	res, err := be().Run(ctx, wb, RunOptions{
		Profile: q, StorePath: s.StorePath, Offline: o.Offline, Progress: stepsOnly(o.Progress), Version: Version,
		WorkbookPath: s.Path, NewCompleter: o.NewCompleter, PartialGuides: true, HashedEmbedder: true,
		JudgeSets: []string{set},
	})
	if err != nil {
		return nil, fmt.Errorf("session: compare: judging %s: %w", set, err)
	}
	var out []dataset.Judgement
	for j := range res.Workbook.Scores.Values() {
		if j.Set == set {
			out = append(out, j)
		}
	}
	return out, nil
}

// lendBounds copies into b, for every question of b whose id, text and
// gold guide text are the same as in a, a's zero and full answers (where b
// has none) and a's judgements of them by the profile's judges (where b has
// no bound judgement of that question), so that evaluating b pays for no
// bound a already paid for. It returns how many questions were lent.
func lendBounds(a, b *dataset.Workbook, judges []profile.Endpoint) int {
	byID := make(map[string]int, len(a.Items))
	for i, it := range a.Items {
		byID[strings.TrimSpace(it.ID)] = i
	}
	guideA, guideB := guideTexts(a), guideTexts(b)
	names := map[string]bool{}
	for _, j := range judges {
		names[j.Name] = true
	}
	bounds := map[string][]dataset.Judgement{}
	for j := range a.Scores.Values() {
		if (j.Set == dataset.SetZero || j.Set == dataset.SetFull) && names[j.Judge] {
			id := strings.TrimSpace(j.ItemID)
			bounds[id] = append(bounds[id], j)
		}
	}
	hasBound := map[string]bool{}
	for j := range b.Scores.Values() {
		if j.Set == dataset.SetZero || j.Set == dataset.SetFull {
			hasBound[strings.TrimSpace(j.ItemID)] = true
		}
	}
	lent := 0
	for x := range b.Items {
		it := &b.Items[x]
		id := strings.TrimSpace(it.ID)
		i, ok := byID[id]
		if !ok {
			continue
		}
		src := a.Items[i]
		if strings.TrimSpace(src.Question) != strings.TrimSpace(it.Question) || guideA(src.DocID) != guideB(it.DocID) {
			continue
		}
		// Only when b's bound answers are absent or the same text: a bound
		// judgement judged another text than b's.
		same := true
		for _, set := range []string{dataset.SetZero, dataset.SetFull} {
			if v := it.Answer(set); v != "" && v != src.Answer(set) {
				same = false
			}
		}
		if !same {
			continue
		}
		for _, set := range []string{dataset.SetZero, dataset.SetFull} {
			if it.Answer(set) == "" && src.Answer(set) != "" {
				it.SetAnswer(set, src.Answer(set))
			}
		}
		if !hasBound[id] {
			for _, j := range bounds[id] {
				b.Scores.Add(j)
			}
		}
		lent++
	}
	return lent
}

// guideTexts maps a gold reference (id or title) to its guide's text; a
// reference to no guide maps to itself, marked so it equals no text.
func guideTexts(wb *dataset.Workbook) func(ref string) string {
	idx := wb.GuideIndex()
	return func(ref string) string {
		if i, ok := idx[strings.TrimSpace(ref)]; ok {
			return strings.TrimSpace(wb.Guides[i].Text)
		}
		return "\x00" + strings.TrimSpace(ref)
	}
}

// guideKey names documents by their guide's id (gold and retrieved may name
// a guide by id or title), as the engine's CuBE configuration does.
func guideKey(wb *dataset.Workbook) func(string) string {
	idx := wb.GuideIndex()
	return func(ref string) string {
		if i, ok := idx[ref]; ok {
			return wb.Guides[i].ID
		}
		return ref
	}
}

// mfssTotals is item id → MFSS total of one system's answers; nil when MFSS
// did not run or did not score that system.
func mfssTotals(res *mfss.Result, system string) map[string]float64 {
	if res == nil {
		return nil
	}
	var out map[string]float64
	for _, it := range res.Items {
		if it.System == system {
			if out == nil {
				out = map[string]float64{}
			}
			out[it.ItemID] = it.Factors.Total
		}
	}
	return out
}

func progressOf(p result.Progress) result.Progress {
	if p == nil {
		return result.NoProgress
	}
	return p
}

// stepsOnly passes a set's judging run's step events on and drops its
// free-standing messages: they are about that run's MFSS and CoFE figures,
// which are discarded (the "CoFE skipped" note would mislead).
func stepsOnly(p result.Progress) result.Progress {
	p = progressOf(p)
	return result.ProgressFunc(func(e result.Event) {
		if e.Message != "" && e.Total == 0 {
			return
		}
		p.Event(e)
	})
}
