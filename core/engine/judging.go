package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"cubeworkbench/core/cofe"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/judge"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/secret"
	"cubeworkbench/core/text"
)

// scorer is what a judge does for the engine: the LLM judge and the
// offline lexical judge both score one answer on one dimension.
type scorer = judge.Scorer

// activeJudge is a judge that scores in this run.
type activeJudge struct {
	ep      profile.Endpoint
	kind    string // llm | lexical | semantic
	s       scorer
	repeats int
	limit   int
}

// judges builds the judges that score in this run. Imported judges (no
// endpoint) only contribute the workbook's scores. With no judge anywhere,
// the offline lexical judge scores so that the run still says something,
// and a message says so.
func (r *runner) judges() ([]activeJudge, error) {
	p := r.opt.Profile
	var out []activeJudge
	for _, ep := range p.Judges {
		repeats := max(ep.Repeats, 1)
		switch {
		case ep.Lexical || ep.Name == LexicalJudge && ep.Imported():
			out = append(out, activeJudge{ep: ep, kind: "lexical", s: judge.NewLexical(), repeats: 1, limit: 2})
		case ep.Semantic || ep.Name == SemanticJudge && ep.Imported():
			out = append(out, activeJudge{ep: ep, kind: "semantic", s: judge.NewSemantic(), repeats: 1, limit: 2})
		case ep.Imported():
			continue
		default:
			c, err := r.completer(ep, secret.Judge(ep.Name))
			if err != nil {
				return nil, err
			}
			j := &judge.Judge{Name: ep.Name, C: c, Lang: r.lang, Repeats: repeats, ParseRetries: parseRetries, Seed: int(p.Seed)}
			out = append(out, activeJudge{ep: ep, kind: "llm", s: j, repeats: repeats, limit: concurrency(ep)})
		}
	}
	if len(out) == 0 && r.wb.Scores.Len() == 0 {
		out = append(out, activeJudge{ep: profile.Endpoint{Name: LexicalJudge, Lexical: true}, kind: "lexical", s: judge.NewLexical(), repeats: 1, limit: 2})
		r.opt.Progress.Event(Event{Message: text.New(
			"未配置评审模型，工作簿中也没有评分：本次由词汇基线评审（离线，不是大模型）评分。",
			"No judge configured and no scores in the workbook: the offline lexical judge (a baseline, not an LLM) scores this run.").In(r.lang)})
	}
	return out, nil
}

// dimensions resolves the profile's dimension names to rubrics: built-in
// ones, or a file NAME.md in the profile's prompt directory.
func (r *runner) dimensions() ([]judge.Dimension, error) {
	var dims []judge.Dimension
	for _, name := range r.opt.Profile.Dimensions {
		if dir := r.opt.Profile.PromptDir; dir != "" {
			if d, err := judge.LoadDimension(filepath.Join(dir, name+".md")); err == nil {
				dims = append(dims, d)
				continue
			}
		}
		d, err := r.builtin(name)
		if err != nil {
			return nil, err
		}
		dims = append(dims, d)
	}
	return dims, nil
}

// builtin returns a built-in rubric, from the user's edited copy in the
// prompt directory when there is one.
func (r *runner) builtin(name string) (judge.Dimension, error) {
	if dir := r.opt.Profile.PromptDir; dir != "" {
		d, err := judge.BuiltinFrom(dir, name)
		if err != nil {
			return judge.Dimension{}, fmt.Errorf("engine: dimension %q: %w", name, err)
		}
		return d, nil
	}
	d, ok := judge.Builtin(name)
	if !ok {
		return judge.Dimension{}, fmt.Errorf("engine: dimension %q is neither built in nor a file %s.md in the prompt directory", name, name)
	}
	return d, nil
}

// judgeTask is one judgement owed: 12 bytes, since a judge's list holds
// one per judgement (1.2 million at 100,000 questions).
type judgeTask struct {
	item   int32  // index in Workbook.Items
	repeat int32  // 1-based
	dim    uint16 // index in the run's dimensions
	set    uint16 // index in the run's judged sets
}

// judgeAll has every judge score every answer of the three CuBE sets on
// every dimension. Judgements already in the workbook are not made again;
// the store's cache makes judgements of an earlier run free.
func (r *runner) judgeAll(ctx context.Context, judges []activeJudge) error {
	if len(judges) == 0 || len(r.wb.Items) == 0 {
		return nil
	}
	dims, err := r.dimensions()
	if err != nil {
		return err
	}
	names, cubeDims := judgingDims(r.opt.Profile, r.wb.Items)
	for _, name := range names[cubeDims:] {
		d, err := r.builtin(name)
		if err != nil {
			return err
		}
		dims = append(dims, d)
	}
	for k := range dims {
		names[k] = dims[k].Name // a rubric file may name its dimension itself
	}
	if r.opt.ReaskUnscorable {
		dropUnscorable(&r.wb.Scores, judges)
	}
	have := haveJudgements(&r.wb.Scores)
	idx := r.wb.GuideIndex()
	// Room for every judgement owed, made once: growing the scores judge
	// by judge held the old array, the new one and a judge's results at
	// once (650 MB at 100,000 questions and two offline judges).
	sets := r.judgedSets()
	owed, total := make([]int, len(judges)), 0
	for k, aj := range judges {
		owedJudgements(r.wb.Items, sets, names, cubeDims, aj.repeats,
			func(it *dataset.Item, set string) bool { return it.Answer(set) != "" },
			func(id, set, dim string, rep int) bool { return have.has(id, set, aj.ep.Name, dim, rep) },
			func(int, string, int, int) { owed[k]++ })
		total += owed[k]
	}
	r.wb.Scores.Grow(total)
	for k, aj := range judges {
		setIndex := make(map[string]uint16, len(sets))
		for s, set := range sets {
			setIndex[set] = uint16(s)
		}
		tasks := make([]judgeTask, 0, owed[k])
		owedJudgements(r.wb.Items, sets, names, cubeDims, aj.repeats,
			func(it *dataset.Item, set string) bool { return it.Answer(set) != "" },
			func(id, set, dim string, rep int) bool { return have.has(id, set, aj.ep.Name, dim, rep) },
			func(i int, set string, d, rep int) {
				tasks = append(tasks, judgeTask{item: int32(i), repeat: int32(rep), dim: uint16(d), set: setIndex[set]})
			})
		if len(tasks) == 0 {
			continue
		}
		if err := r.judgeTasks(ctx, aj, dims, sets, tasks, idx); err != nil {
			return err
		}
		if aj.kind != "llm" {
			// An offline judge's memos of guides and questions (tens of
			// MB) are not needed past its own judgements; only its name,
			// kind and repeats are read later (judgeInfos).
			judges[k].s = nil
		}
	}
	r.wb.Scores.SortByJudge()
	return nil
}

func (r *runner) judgeTasks(ctx context.Context, aj activeJudge, dims []judge.Dimension, sets []string, tasks []judgeTask, idx map[string]int) error {
	if b, ok := aj.s.(judge.Batcher); ok && aj.kind != "llm" {
		return r.judgeOffline(ctx, aj.ep.Name, b, dims, sets, tasks, idx)
	}
	counter := newStepCounter(r.opt.Progress, StepJudge, aj.ep.Name, len(tasks))
	if aj.kind == "llm" {
		counter.price(aj.ep.Currency, aj.ep.PriceIn > 0 || aj.ep.PriceOut > 0)
	}
	defer counter.finish()
	r.mu.Lock()
	if pool := r.pools[aj.ep.Name]; pool != nil {
		counter.detail = func() string { return replicaLine(pool.Stats()) }
	}
	r.mu.Unlock()
	// The judgements as they come, in task order: columns, not a
	// []dataset.Judgement (136 bytes a task, 163 MB for an LLM judge of
	// 100,000 questions), filled under r.mu.
	var results dataset.Scores
	results.Extend(len(tasks))
	done := make([]bool, len(tasks))
	down := &breaker{limit: max(breakerMin, 2*aj.limit)}
	eg, ectx := errgroup.WithContext(ctx)
	eg.SetLimit(llm.Workers(aj.limit)) // callers wait for slots in the client, not in the errgroup
	// A budget stop starts no new judgement but lets the calls already on
	// the wire finish and reach the store: cancelling them would throw away
	// replies the endpoint has already been paid for, and the resumed run
	// would pay for them again.
	var budgetStop atomic.Pointer[error]
	for n, t := range tasks {
		if ectx.Err() != nil || budgetStop.Load() != nil {
			break
		}
		it := &r.wb.Items[t.item]
		set, repeat := sets[t.set], int(t.repeat)
		doc := ""
		if i, ok := idx[it.DocID]; ok {
			doc = r.wb.Guides[i].Text
		}
		in := judge.Inputs{Question: it.Question, Answer: it.Answer(set), Document: doc, Reference: it.Reference, Contexts: r.contexts(it, idx)}
		eg.Go(func() error {
			out, err := aj.s.Score(ectx, dims[t.dim], in, repeat)
			if err != nil {
				return err
			}
			if r.opt.ReaskUnscorable {
				if out, err = reask(ectx, aj.s, dims[t.dim], in, repeat, out); err != nil {
					return err
				}
			}
			if ectx.Err() != nil {
				return ectx.Err()
			}
			if !out.OK && strings.Contains(out.Reason, ErrOffline.Error()) {
				return fmt.Errorf("%w (%s)", ErrOffline, aj.ep.Name)
			}
			if !out.OK && strings.Contains(out.Reason, llm.ErrBudgetExceeded.Error()) {
				err := fmt.Errorf("%w: %s", ErrBudget, out.Reason)
				budgetStop.CompareAndSwap(nil, &err)
				return nil
			}
			if !out.OK && r.opt.Deferred != nil && r.opt.Deferred(out.Key) {
				r.mu.Lock()
				r.deferred++
				r.mu.Unlock()
				counter.add(false, 0, out.Cached, 0, 0)
				return nil
			}
			r.noteStall(StepJudge, aj.ep.Name, out.OK, out.Reason)
			j := dataset.Judgement{ItemID: it.ID, Set: set, Judge: aj.ep.Name, Dimension: dims[t.dim].Name,
				Repeat: repeat, Raw: out.Raw}
			if out.OK {
				j.Score, j.Status = out.Score, dataset.StatusOK
			} else {
				j.Status, j.Reason = dataset.StatusUnscorable, out.Reason
				r.problem(result.Problem{Step: StepJudge, ItemID: it.ID, Set: set, Judge: aj.ep.Name, Dim: j.Dimension, Reason: out.Reason})
			}
			// A reply that arrived is stored even when the run is stopping
			// (the breaker tripped in another goroutine): the store is
			// local and quick, and what the endpoint said is the evidence
			// of why the run stopped.
			if err := r.opt.Store.PutJudgement(context.WithoutCancel(ectx), j, out.Key); err != nil {
				return err
			}
			r.mu.Lock()
			r.calls += out.Calls
			r.cached += out.Cached
			r.pTokens += out.Usage.PromptTokens
			r.cTokens += out.Usage.CompletionTokens
			if !out.OK {
				r.unscor++
			}
			results.Set(n, j)
			done[n] = true
			r.mu.Unlock()
			counter.add(!out.OK, out.Calls, out.Cached, out.Usage.PromptTokens+out.Usage.CompletionTokens,
				(float64(out.Usage.PromptTokens)*aj.ep.PriceIn+float64(out.Usage.CompletionTokens)*aj.ep.PriceOut)/1e6)
			// The breaker counts a failure once it is stored: with more
			// callers in flight than its limit, tripping first could stop
			// the run with none of the failures it saw on record.
			if n, tripped := down.record(out); tripped {
				return fmt.Errorf("%w: judge %s failed %d times in a row without a single answer (last: %s)", ErrEndpointDown, aj.ep.Name, n, out.Reason)
			}
			return nil
		})
	}
	err := eg.Wait()
	for n, ok := range done {
		if ok {
			r.wb.Scores.Add(results.At(n))
		}
	}
	if err != nil {
		return err
	}
	if stop := budgetStop.Load(); stop != nil {
		return *stop
	}
	return ctx.Err()
}

// judgingDims names the dimensions judges score, in task order: the
// profile's CuBE dimensions (the first cube of them), then CoFE-RAG's
// generation dimensions when the run evaluates generation: when the profile
// allows it and the workbook asks for CoFE (keywords on its questions, or a
// corpus) and has reference answers. Run and Plan both read it.
func judgingDims(p profile.Profile, items []dataset.Item) (names []string, cube int) {
	names = append([]string(nil), p.Dimensions...)
	if !p.CoFE.Generation {
		return names, len(names)
	}
	ref, kw := false, p.CoFE.Corpus != ""
	for _, it := range items {
		ref = ref || it.Reference != ""
		kw = kw || len(it.Coarse) > 0
	}
	if ref && kw {
		return append(names, cofe.GenerationDimensions...), len(p.Dimensions)
	}
	return names, len(names)
}

// had is the judgements a workbook already holds (item, set, judge,
// dimension, repeat), each a key of numbers in a sorted list: 20 bytes
// where a map keyed by the four texts took about 100 (2.4 million
// judgements read back from a report's scores sheet: 230 MB while judging).
type had struct {
	keys  []hadKey
	names map[string]uint32 // every id and name in keys → its number
}

type hadKey struct {
	item, set, judge, dim uint32
	repeat                int32
}

func (a hadKey) compare(b hadKey) int {
	return cmp.Or(cmp.Compare(a.item, b.item), cmp.Compare(a.set, b.set), cmp.Compare(a.judge, b.judge),
		cmp.Compare(a.dim, b.dim), cmp.Compare(a.repeat, b.repeat))
}

func haveJudgements(scores *dataset.Scores) *had {
	h := &had{names: map[string]uint32{}}
	h.keys = make([]hadKey, 0, scores.Len())
	for j := range scores.Values() {
		rep := max(j.Repeat, 1)
		if rep > math.MaxInt32 {
			continue // no run owes such a repeat
		}
		h.keys = append(h.keys, hadKey{h.code(j.ItemID), h.code(j.Set), h.code(j.Judge), h.code(j.Dimension), int32(rep)})
	}
	slices.SortFunc(h.keys, hadKey.compare)
	h.keys = slices.Clip(slices.CompactFunc(h.keys, func(a, b hadKey) bool { return a == b }))
	return h
}

func (h *had) code(s string) uint32 {
	c, ok := h.names[s]
	if !ok {
		c = uint32(len(h.names))
		h.names[s] = c
	}
	return c
}

// has reports whether the workbook holds the judgement.
func (h *had) has(id, set, judge, dim string, repeat int) bool {
	if len(h.keys) == 0 || repeat > math.MaxInt32 {
		return false
	}
	k := hadKey{repeat: int32(repeat)}
	var ok [4]bool
	k.item, ok[0] = h.names[id]
	k.set, ok[1] = h.names[set]
	k.judge, ok[2] = h.names[judge]
	k.dim, ok[3] = h.names[dim]
	if ok != [4]bool{true, true, true, true} {
		return false
	}
	_, held := slices.BinarySearchFunc(h.keys, k, hadKey.compare)
	return held
}

// owedJudgements is the one enumeration of judging tasks, for the run and
// its estimate: every item, every CuBE set whose answer exists (answered
// says, so the estimate may count answers still to come), every dimension,
// every repeat, less the judgements had. CoFE's generation dimensions (index
// cube and up) judge the system's answer against a reference answer: rag
// only, with a reference.
func owedJudgements(items []dataset.Item, sets, dims []string, cube, repeats int, answered func(it *dataset.Item, set string) bool,
	had func(id, set, dim string, rep int) bool, yield func(item int, set string, dim, rep int)) {
	for i := range items {
		it := &items[i]
		for _, set := range sets {
			if !answered(it, set) {
				continue
			}
			for d, dim := range dims {
				if d >= cube && (set != dataset.SetRAG || it.Reference == "") {
					continue
				}
				for rep := 1; rep <= repeats; rep++ {
					if !had(it.ID, set, dim, rep) {
						yield(i, set, d, rep)
					}
				}
			}
		}
	}
}

// judgedSets are the answer sets judges score, in task order.
var judgedSets = []string{dataset.SetRAG, dataset.SetZero, dataset.SetFull}

// judgedSets are the sets this run judges: Options.JudgeSets (then the
// bounds), or judgedSets.
func (r *runner) judgedSets() []string {
	if r.opt.JudgeSets == nil {
		return judgedSets
	}
	return append(slices.Clone(r.opt.JudgeSets), dataset.SetZero, dataset.SetFull)
}

// contextsShown is how many retrieved guides stand in for the retrieved
// chunk texts when the workbook has none (CoFE faithfulness needs them).
const contextsShown = 3

// contexts returns the texts the system retrieved: the workbook's contexts,
// else the first retrieved guides' texts.
func (r *runner) contexts(it *dataset.Item, idx map[string]int) []string {
	if len(it.Contexts) > 0 {
		return it.Contexts
	}
	var out []string
	for _, id := range it.Retrieved {
		if i, ok := idx[id]; ok {
			out = append(out, r.wb.Guides[i].Text)
			if len(out) == contextsShown {
				break
			}
		}
	}
	return out
}

func judgeInfos(judges []activeJudge, wb *dataset.Workbook) []result.JudgeInfo {
	var out []result.JudgeInfo
	seen := map[string]bool{}
	for _, aj := range judges {
		seen[aj.ep.Name] = true
		info := result.JudgeInfo{Name: aj.ep.Name, Kind: aj.kind, Repeats: aj.repeats}
		if aj.kind == "llm" {
			info.Model, info.Host = aj.ep.Model, hostOf(aj.ep.BaseURL)
		}
		out = append(out, info)
	}
	var imported []string
	for j := range wb.Scores.Values() {
		if !seen[j.Judge] {
			seen[j.Judge] = true
			imported = append(imported, j.Judge)
		}
	}
	sort.Strings(imported)
	for _, name := range imported {
		out = append(out, result.JudgeInfo{Name: name, Kind: "imported", Repeats: 1})
	}
	return out
}

// ErrBudget stops a run whose cost reached the profile's budget; what was
// finished is in the store, so raising the budget resumes it.
var ErrBudget = result.ErrBudget

// replicaLine summarises a pool for the progress line:
// "10.0.0.5:8000 3 in flight 120 done · 10.0.0.6:8000 down (2 failures)".
func replicaLine(stats []llm.ReplicaStats) string {
	parts := make([]string, len(stats))
	for i, s := range stats {
		if s.Down {
			parts[i] = fmt.Sprintf("%s down (%d failures)", s.Name, s.Failures)
		} else {
			parts[i] = fmt.Sprintf("%s %d in flight %d done", s.Name, s.Outstanding, s.Served)
		}
	}
	return strings.Join(parts, " · ")
}

// ErrEndpointDown stops a run whose judge never answers: a wrong base URL,
// model name or key would otherwise cost every judgement its full retries
// and fill the report with unscorable rows. What finished is kept.
var ErrEndpointDown = result.ErrEndpointDown

// breakerMin is the fewest consecutive endpoint failures, with no answer
// at all yet, that stop a judge.
const breakerMin = 8

// breaker counts endpoint failures until the endpoint first answers; after
// one answer it never trips, and the failures that follow are unscorable
// judgements like any other.
type breaker struct {
	mu       sync.Mutex
	limit    int
	fails    int
	answered bool
}

func (b *breaker) record(out judge.Outcome) (int, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if out.OK || judge.ReasonCode(out.Reason) != judge.ReasonEndpoint {
		b.answered = true
		return b.fails, false
	}
	if b.answered {
		return b.fails, false
	}
	b.fails++
	return b.fails, b.fails >= b.limit
}

// reask gives a judgement that is unscorable only from stored replies (no
// call was made: every attempt was served from the run store and none could
// be read) new attempts with seeds after the stored ones, a round of
// ParseRetries+1 at a time, until one round makes a real call. Each round
// replays the earlier rounds from the store for free, so a second re-ask
// goes on where the first stopped. Endpoint failures are never stored and
// need no re-ask; the offline judge has no seeds.
func reask(ctx context.Context, s scorer, d judge.Dimension, in judge.Inputs, repeat int, out judge.Outcome) (judge.Outcome, error) {
	j, ok := s.(*judge.Judge)
	if !ok {
		return out, nil
	}
	per := max(0, j.ParseRetries) + 1
	for round := 2; !out.OK && out.Calls == 0 && out.Cached > 0 && judge.ReasonCode(out.Reason) != judge.ReasonEndpoint && per*round <= seedStride; round++ {
		more := *j
		more.ParseRetries = per*round - 1
		o, err := more.Score(ctx, d, in, repeat)
		if err != nil {
			return out, err
		}
		out = o
	}
	return out, nil
}

// seedStride is judge's distance between the seeds of two repeats: new
// attempts must stay below it or they would share a request with the next
// repeat.
const seedStride = 1000

// dropUnscorable removes the workbook's unscorable judgements by judges
// that score in this run (an earlier report's scores sheet read back), so
// a re-ask asks them again; imported judges' rows stay as they are.
func dropUnscorable(scores *dataset.Scores, judges []activeJudge) {
	active := map[string]bool{}
	for _, aj := range judges {
		if aj.kind == "llm" {
			active[aj.ep.Name] = true
		}
	}
	scores.DeleteFunc(func(j dataset.Judgement) bool {
		return j.Status == dataset.StatusUnscorable && active[j.Judge]
	})
}
