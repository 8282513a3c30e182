package engine

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/generate"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/secret"
	"cubeworkbench/core/store"
	"cubeworkbench/core/target"
	"cubeworkbench/core/text"
)

// defaultCompleter builds the client for an endpoint; an endpoint with
// several base URLs (replicas of one model) gets a pool that balances by
// outstanding requests and fails over when a replica is down. Each replica
// keeps the endpoint's own concurrency and rate limits. ref names the
// endpoint's key in core/secret (a key typed in the window wins).
func defaultCompleter(ep profile.Endpoint, ref secret.Ref, opts ...llm.Option) (llm.Completer, error) {
	key, err := endpointKey(ref, ep.APIKeyEnv)
	if err != nil {
		return nil, err
	}
	opts = append(opts, llm.WithAPIKey(key))
	bases := endpointURLs(ep)
	var clients []llm.Completer
	for i, base := range bases {
		name := ep.Name
		if len(bases) > 1 {
			name = fmt.Sprintf("%s#%d", ep.Name, i+1)
		}
		c, err := llm.New(LLMEndpoint(ep, name, base), opts...)
		if err != nil {
			return nil, err
		}
		clients = append(clients, c)
	}
	if len(clients) == 1 {
		return clients[0], nil
	}
	names := make([]string, len(bases))
	for i, b := range bases {
		names[i] = hostOf(b)
	}
	return llm.NewPool(clients, names, 0)
}

// endpointURLs lists an endpoint's base URLs: base_url first, then the
// replicas of base_urls, each once.
func endpointURLs(ep profile.Endpoint) []string {
	var out []string
	seen := map[string]bool{}
	for _, u := range append([]string{ep.BaseURL}, ep.BaseURLs...) {
		if u != "" && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}

// completer builds an endpoint's client wrapped by the store, so every reply
// is durable the moment it arrives and is never paid for twice.
// ref names its key in core/secret.
func (r *runner) completer(ep profile.Endpoint, ref secret.Ref) (llm.Completer, error) {
	if r.opt.Offline {
		// Offline, replies already in the store (an earlier run, a batch
		// import) still serve; anything else stops the run.
		return r.opt.Store.Cache(offlineCompleter{model: ep.Model, name: ep.Name}), nil
	}
	var c llm.Completer
	var err error
	if r.opt.NewCompleter != nil {
		c, err = r.opt.NewCompleter(ep)
	} else {
		// One meter for the whole run: the summary's cost, and a budget
		// that covers every judge and the generator together.
		c, err = defaultCompleter(ep, ref, llm.WithMeter(r.meter), llm.WithBudget(r.opt.Profile.BudgetUSD))
	}
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	if pool, ok := c.(*llm.Pool); ok {
		r.pools[ep.Name] = pool
	}
	if a, ok := c.(llm.Adapter); ok { // read before the store wraps it
		r.adapters = append(r.adapters, a)
	}
	r.mu.Unlock()
	return r.opt.Store.Cache(c), nil
}

// writeItems makes the items' array the run's own before the run first
// writes into an item (an answer read back from the store, collected or
// generated; a generated question appended): the session hands Run its
// workbook's array, shared, since a copy is 0.2 KB a question (20 MB at
// 100,000) and an offline run over a workbook's own answers writes none.
// Call it before taking a pointer into wb.Items.
func (r *runner) writeItems() {
	if !r.ownItems {
		r.wb.Items = slices.Clone(r.wb.Items)
		r.ownItems = true
	}
}

// applyStoredAnswers fills answers an earlier (perhaps killed) run already
// generated or collected. Text in the workbook wins over the store. A stored
// answer is reused only when its fingerprint is the request this run would
// make (the same question, guide, target, generator and prompt); any other
// is stale and is asked again, and a warning says how many and why.
func (r *runner) applyStoredAnswers(ctx context.Context) error {
	stored, err := r.opt.Store.Answers(ctx)
	if err != nil {
		return err
	}
	if len(stored) == 0 {
		return nil
	}
	r.writeItems()
	byID := make(map[string]int, len(r.wb.Items))
	for i, it := range r.wb.Items {
		byID[it.ID] = i
	}
	idx := r.wb.GuideIndex()
	var st staleCount
	for _, a := range stored {
		if a.Set == setQuestion {
			continue // questions are applied by the questions step
		}
		i, ok := byID[a.ItemID]
		if !ok {
			continue
		}
		it := &r.wb.Items[i]
		if it.Answer(a.Set) != "" {
			continue // the workbook's own answer wins
		}
		want, ok := r.expectedFingerprint(it, a.Set, idx)
		switch {
		case !ok:
			continue // nothing in this run could have produced it
		case a.Fingerprint == "":
			st.add(a.Set, true)
			continue
		case a.Fingerprint != want:
			st.add(a.Set, false)
			continue
		}
		it.SetAnswer(a.Set, a.Text)
		if a.Set == dataset.SetRAG && len(it.Retrieved) == 0 && len(a.Retrieved) > 0 {
			it.Retrieved = a.Retrieved
			it.Contexts = a.Contexts
		}
	}
	for _, w := range st.warnings() {
		r.warn(w)
		r.opt.Progress.Event(Event{Message: w.In(r.lang)})
	}
	return nil
}

// staleCount counts stored answers not reused, per set, apart for stores
// written before fingerprints (legacy).
type staleCount struct {
	changed, legacy map[string]int
}

func (s *staleCount) add(set string, legacy bool) {
	m := &s.changed
	if legacy {
		m = &s.legacy
	}
	if *m == nil {
		*m = map[string]int{}
	}
	(*m)[set]++
}

// warnings says what is asked again: one warning per set and cause.
func (s staleCount) warnings() []result.Warning {
	var out []result.Warning
	for _, set := range judgedSets {
		if n := s.changed[set]; n > 0 {
			out = append(out, staleWarning(set, n, false))
		}
		if n := s.legacy[set]; n > 0 {
			out = append(out, staleWarning(set, n, true))
		}
	}
	return out
}

func staleWarning(set string, n int, legacy bool) result.Warning {
	w := result.Warning{Source: "engine", Code: "stale_answers", Where: set}
	what := map[string]text.Text{
		dataset.SetRAG:  text.New("被测系统的回答", "answers of the system under test"),
		dataset.SetZero: text.New("零上下文下界回答（zero）", "zero-set bound answers"),
		dataset.SetFull: text.New("金标文档上界回答（full）", "full-set bound answers"),
	}[set]
	redo := text.New("已重新生成", "are generated again")
	if set == dataset.SetRAG {
		redo = text.New("已重新向被测系统提问", "are asked of the system again")
	}
	if legacy {
		w.Code = "stale_answers_legacy"
		w.ZH = fmt.Sprintf("运行记录库中有 %d 条%s来自旧版本，没有记录产生它们的请求，无法确认仍与当前问题、指南和配置一致，%s（生成的回答在请求相同时从响应缓存取回，不再付费）。", n, what.ZH, redo.ZH)
		w.EN = fmt.Sprintf("%d stored %s come from an older store that did not record the request behind them, so they cannot be shown to match today's questions, guides and profile; they %s (generated ones come back from the response cache at no cost when the request is the same).", n, what.EN, redo.EN)
		return w
	}
	w.ZH = fmt.Sprintf("运行记录库中有 %d 条%s是针对已改动的问题、指南、被测系统或生成模型/提示词产生的，不再沿用，%s。", n, what.ZH, redo.ZH)
	w.EN = fmt.Sprintf("%d stored %s were made for a question, guide, target or generator/prompt that has since changed; they are not reused and %s.", n, what.EN, redo.EN)
	return w
}

// setQuestion stores generated questions in the answers table under the
// guide's id.
const setQuestion = "question"

// questions writes one question per guide when the workbook has guides and
// no questions, and a generator is configured.
func (r *runner) questions(ctx context.Context) error {
	gen := r.opt.Profile.Generator
	if len(r.wb.Items) > 0 || len(r.wb.Guides) == 0 || gen == nil || gen.BaseURL == "" {
		return nil
	}
	c, err := r.completer(*gen, secret.Generator(gen.Name))
	if err != nil {
		return err
	}
	g := &generate.Generator{C: c, Lang: r.lang, PromptDir: r.opt.Profile.PromptDir, Seed: int(r.opt.Profile.Seed)}
	counter := newStepCounter(r.opt.Progress, StepQuestions, gen.Name, len(r.wb.Guides))
	items := make([]dataset.Item, len(r.wb.Guides))
	ok := make([]bool, len(r.wb.Guides))
	eg, ectx := errgroup.WithContext(ctx)
	eg.SetLimit(concurrency(*gen))
	for i, guide := range r.wb.Guides {
		eg.Go(func() error {
			qt := generate.QueryTypeFor(i)
			q, rep, err := g.Question(ectx, guide.Text, qt)
			done, err := r.generated(ectx, counter, result.Problem{Step: StepQuestions, ItemID: guide.ID}, rep, err)
			if !done {
				return err
			}
			items[i] = dataset.Item{ID: fmt.Sprintf("q%d", i+1), Question: q, DocID: guide.ID, QueryType: qt}
			ok[i] = true
			return r.opt.Store.PutAnswer(ectx, store.Answer{ItemID: guide.ID, Set: setQuestion, Source: c.Model(), Text: q,
				Fingerprint: r.generatorFP().generatedQuestion(qt, guide.Text)})
		})
	}
	if err := eg.Wait(); err != nil {
		return err
	}
	counter.finish()
	r.writeItems()
	for i := range items {
		if ok[i] {
			r.wb.Items = append(r.wb.Items, items[i])
		}
	}
	return nil
}

// collect asks the system under test for the items that have no rag answer.
// A question the system fails is reported and left unanswered; the next run
// asks it again.
func (r *runner) collect(ctx context.Context) error {
	t := r.opt.Profile.Target
	if t == nil {
		return nil
	}
	var todo []int
	for i, it := range r.wb.Items {
		if it.Answer(dataset.SetRAG) == "" {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	if r.opt.Offline {
		return fmt.Errorf("%w: target %s", ErrOffline, t.Kind)
	}
	tg, err := r.opt.NewTarget(*t)
	if err != nil {
		return err
	}
	if tg, err = r.trackTarget(ctx, tg); err != nil {
		return err
	}
	r.writeItems()
	idx := r.wb.GuideIndex()
	r.mu.Lock()
	r.target.total = len(r.wb.Items)
	r.mu.Unlock()
	counter := newStepCounter(r.opt.Progress, StepCollect, t.Kind, len(todo))
	eg, ectx := errgroup.WithContext(ctx)
	eg.SetLimit(max(t.Concurrency, 1))
	var downMu sync.Mutex
	fails, answered := 0, false // a target that never answers stops the step
	for _, i := range todo {
		if ectx.Err() != nil {
			break
		}
		it := &r.wb.Items[i]
		eg.Go(func() error {
			if ectx.Err() != nil {
				return nil // the step is stopping; this question stays unasked
			}
			ans, err := tg.Ask(ectx, it.Question)
			r.mu.Lock()
			r.calls++
			if err != nil {
				r.failed++
			}
			if err != nil && ectx.Err() == nil {
				r.target.failed++
				if r.target.first == "" {
					r.target.first = err.Error()
				}
			}
			r.mu.Unlock()
			downMu.Lock()
			if err == nil {
				answered = true
			} else if !answered {
				fails++
			}
			stop := !answered && fails >= breakerMin
			downMu.Unlock()
			if err != nil {
				if ectx.Err() != nil {
					return ectx.Err()
				}
				if stop {
					return fmt.Errorf("%w: %w: the %s target failed %d times in a row without a single answer (last: %v)", ErrTargetDown, ErrEndpointDown, t.Kind, breakerMin, err)
				}
				r.problem(result.Problem{Step: StepCollect, ItemID: it.ID, Set: dataset.SetRAG, Reason: err.Error()})
				counter.add(true, 1, 0, 0, 0)
				return nil
			}
			retrieved := resolveDocs(ans.Retrieved, idx, r.wb.Guides)
			a := store.Answer{ItemID: it.ID, Set: dataset.SetRAG, Source: tg.Kind(), Text: ans.Text, Retrieved: retrieved, Contexts: ans.Contexts,
				Fingerprint: targetFingerprint(*t, it.Question)}
			if err := r.opt.Store.PutAnswer(ectx, a); err != nil {
				return err
			}
			r.mu.Lock()
			it.SetAnswer(dataset.SetRAG, ans.Text)
			if len(it.Retrieved) == 0 {
				it.Retrieved, it.Contexts = retrieved, ans.Contexts
			}
			r.mu.Unlock()
			counter.add(false, 1, 0, 0, 0)
			return nil
		})
	}
	err = eg.Wait()
	counter.finish()
	return err
}

// resolveDocs maps the system's document references to guide ids: by id,
// by name, or by name without its file extension ("YC-0001.txt").
func resolveDocs(docs []target.Doc, idx map[string]int, guides []dataset.Guide) []string {
	out := make([]string, 0, len(docs))
	for _, d := range docs {
		candidates := []string{d.ID, d.Name, strings.TrimSuffix(d.Name, path.Ext(d.Name))}
		resolved := ""
		for _, c := range candidates {
			if i, ok := idx[c]; ok && c != "" {
				resolved = guides[i].ID
				break
			}
		}
		if resolved == "" {
			resolved = d.ID
			if resolved == "" {
				resolved = d.Name
			}
		}
		out = append(out, resolved)
	}
	return out
}

// bounds generates the zero set (no context) and the full set (only the
// gold document) for items that lack them.
func (r *runner) bounds(ctx context.Context) error {
	gen := r.opt.Profile.Generator
	if gen == nil || gen.BaseURL == "" {
		return nil
	}
	idx := r.wb.GuideIndex()
	type job struct {
		item int
		set  string
	}
	var todo []job
	for i, it := range r.wb.Items {
		if it.Answer(dataset.SetZero) == "" {
			todo = append(todo, job{i, dataset.SetZero})
		}
		if _, ok := idx[it.DocID]; ok && it.Answer(dataset.SetFull) == "" {
			todo = append(todo, job{i, dataset.SetFull})
		}
	}
	if len(todo) == 0 {
		return nil
	}
	c, err := r.completer(*gen, secret.Generator(gen.Name))
	if err != nil {
		return err
	}
	r.writeItems()
	g := &generate.Generator{C: c, Lang: r.lang, PromptDir: r.opt.Profile.PromptDir, Seed: int(r.opt.Profile.Seed)}
	counter := newStepCounter(r.opt.Progress, StepBounds, gen.Name, len(todo))
	eg, ectx := errgroup.WithContext(ctx)
	eg.SetLimit(concurrency(*gen))
	for _, j := range todo {
		it := &r.wb.Items[j.item]
		doc := ""
		if j.set == dataset.SetFull {
			doc = r.wb.Guides[idx[it.DocID]].Text
		}
		eg.Go(func() error {
			text, rep, err := g.Answer(ectx, it.Question, doc)
			done, err := r.generated(ectx, counter, result.Problem{Step: StepBounds, ItemID: it.ID, Set: j.set}, rep, err)
			if !done {
				return err
			}
			fp := r.generatorFP().bound(j.set, it.Question, doc)
			if err := r.opt.Store.PutAnswer(ectx, store.Answer{ItemID: it.ID, Set: j.set, Source: c.Model(), Text: text, Fingerprint: fp}); err != nil {
				return err
			}
			r.mu.Lock()
			it.SetAnswer(j.set, text)
			r.mu.Unlock()
			return nil
		})
	}
	err = eg.Wait()
	counter.finish()
	return err
}

// generated accounts for one generator reply (a question or a bound
// answer), the one path both steps share: a deferred request (batch mode) is
// neither a call nor a failure; an offline miss stops the run; any other
// error is a problem on the item. done says the reply is usable; otherwise
// err is what the worker returns (nil to go on with the next).
func (r *runner) generated(ctx context.Context, counter *stepCounter, p result.Problem, rep llm.Reply, err error) (done bool, _ error) {
	switch {
	case errors.Is(err, llm.ErrDeferred):
		r.mu.Lock()
		r.deferred++
		r.mu.Unlock()
		counter.add(false, 0, 0, 0, 0)
		return false, nil
	case errors.Is(err, ErrOffline):
		return false, err
	}
	calls, cached, tokens := r.account(rep, err)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		p.Reason = err.Error()
		r.problem(p)
		counter.add(true, calls, cached, tokens, 0)
		return false, nil
	}
	counter.add(false, calls, cached, tokens, 0)
	return true, nil
}

func concurrency(ep profile.Endpoint) int {
	if ep.Concurrency > 0 {
		return ep.Concurrency
	}
	return 4
}

// offlineCompleter stands in for an endpoint in an offline run.
type offlineCompleter struct{ model, name string }

func (o offlineCompleter) Model() string { return o.model }

func (o offlineCompleter) Complete(context.Context, llm.Request) (llm.Reply, error) {
	return llm.Reply{}, fmt.Errorf("%w: %s has no stored reply for this request", ErrOffline, o.name)
}
