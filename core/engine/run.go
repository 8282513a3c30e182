package engine

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"sort"
	"sync"
	"time"

	"cubeworkbench/core/cofe"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/docmatch"
	"cubeworkbench/core/embed"
	"cubeworkbench/core/embed/openaiembed"
	"cubeworkbench/core/httpsafe"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/mfss"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/rerank"
	"cubeworkbench/core/result"
	"cubeworkbench/core/secret"
	"cubeworkbench/core/store"
	"cubeworkbench/core/target"
	"cubeworkbench/core/text"
)

// Options configure one evaluation.
type Options struct {
	Profile      profile.Profile
	Store        *store.Store // every request and reply; required
	Offline      bool         // forbid every network call
	Progress     Progress
	Version      string
	WorkbookPath string

	// Injection points for tests and the window; nil means the real thing.
	NewCompleter func(ep profile.Endpoint) (llm.Completer, error)
	NewTarget    func(t profile.Target) (target.Target, error)
	Embedder     embed.Embedder
	// Deferred reports requests a batch recorder took instead of sending
	// (batch mode): their judgements are left for a later run, not counted
	// as unscorable.
	Deferred func(key string) bool
	// PartialGuides says Workbook.Guides holds only the guides the questions
	// name (a knowledge base streamed into the store): CoFE-RAG, which
	// retrieves over the whole corpus, is then skipped with a message.
	PartialGuides bool
	// ReaskUnscorable makes new attempts (new seeds, beyond the ones
	// stored) for judgements whose every stored attempt got a reply that
	// could not be read; without it a rerun replays the stored replies and
	// they stay unscorable. Judgements that were fine are served from the
	// store as always, so no paid call is repeated.
	ReaskUnscorable bool
	// JudgeSets are the answer sets judged besides the bounds zero and
	// full; nil is rag, the system under test. Compare hands in another
	// system's set so it is judged under its own name; such a run computes
	// no metrics (CuBE, MFSS, CoFE-RAG and the baselines read rag): its
	// summary holds the run record, and its workbook the judgements.
	JudgeSets []string
}

// Result is an evaluation's outcome (result.Outcome): the workbook with
// everything the run added (answers, judgements) and the summary.
type Result = result.Outcome

// ErrOffline marks a step that needs the network in an offline run.
var ErrOffline = result.ErrOffline

// LexicalJudge is the name of the offline baseline judge.
const LexicalJudge = result.LexicalJudge

// SemanticJudge is the name of the offline semantic baseline judge.
const SemanticJudge = result.SemanticJudge

// Run evaluates wb. It changes wb in place (answers and judgements are added)
// and returns the summary. It never writes into the array wb.Items holds on
// entry: it puts a copy there before it first changes an item, so a caller
// may share that array. A cancelled context stops the run; everything
// finished is in the store and a later Run resumes from there.
func Run(ctx context.Context, wb *dataset.Workbook, opt Options) (*Result, error) {
	if opt.Store == nil {
		return nil, errors.New("engine: no run store")
	}
	if opt.Progress == nil {
		opt.Progress = NoProgress
	}
	if opt.NewTarget == nil {
		opt.NewTarget = target.New
	}
	p := opt.Profile
	r := &runner{opt: opt, wb: wb, lang: text.Lang(p.Language), meter: &llm.Meter{}, pools: map[string]*llm.Pool{}}
	profileText, err := p.Encode()
	if err != nil {
		return nil, err
	}
	r.runID, err = opt.Store.StartRun(ctx, string(profileText), opt.Version)
	if err != nil {
		return nil, err
	}
	r.started = time.Now()

	sum, err := r.run(ctx)
	end := result.EndOf(err, errors.Is(ctx.Err(), context.Canceled))
	// Record the run even when it was interrupted, with a context of its own.
	finishCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if ferr := opt.Store.EndRun(finishCtx, r.runID, end.Status, end.Stored(), r.counts()); ferr != nil && err == nil {
		err = ferr
	}
	if err != nil {
		return nil, err
	}
	return &Result{Workbook: wb, Summary: sum}, nil
}

type runner struct {
	opt     Options
	wb      *dataset.Workbook
	lang    text.Lang
	runID   int64
	started time.Time

	mu       sync.Mutex
	calls    int
	cached   int
	failed   int
	unscor   int
	pTokens  int
	cTokens  int
	problems []result.Problem
	meter    *llm.Meter           // every real client's calls, tokens and cost
	pools    map[string]*llm.Pool // judges served by several replicas
	adapters []llm.Adapter        // live clients, for the parameters they adapted
	deferred int                  // requests left for a batch file
	ownItems bool                 // wb.Items is the run's own copy (steps.go: writeItems)
	warnings []result.Warning     // findings the summary lists
	mapping  *docmatch.Tally      // the target's documents matched to guides; nil when no target was asked
	target   targetTally          // what the system under test answered and failed
	stalls   sync.Map             // endpoint names already said to stall (stall.go)

	genOnce sync.Once
	genFP   generatorFP

	emb embed.Embedder  // built by prepare
	rr  rerank.Reranker // built by prepare; nil: CoFE keeps the retrieved order
}

func (r *runner) warn(w result.Warning) {
	r.mu.Lock()
	r.warnings = append(r.warnings, w)
	r.mu.Unlock()
}

func (r *runner) counts() store.Counts {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := store.Counts{Calls: r.calls, Cached: r.cached, Failed: r.failed, Unscorable: r.unscor,
		PromptTokens: r.pTokens, CompletionTokens: r.cTokens}
	st := r.meter.Stats() // the live clients' HTTP traffic: what the servers saw
	c.Attempts, c.Replies, c.Throttled = int(st.Attempts), int(st.Replies), int(st.Throttled)
	if st.Priced {
		cost := st.Cost
		c.Cost = &cost
	}
	return c
}

// adaptations lists the request parameters the live endpoints refused and
// the clients changed, for the report's method notes.
func (r *runner) adaptations() []result.Adaptation {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []result.Adaptation
	for _, a := range r.adapters {
		for _, x := range a.Adaptations() {
			out = append(out, result.Adaptation{Endpoint: x.Endpoint, Param: x.Param, Text: text.New(x.ZH, x.EN)})
		}
	}
	return out
}

func (r *runner) problem(p result.Problem) {
	r.mu.Lock()
	r.problems = append(r.problems, p)
	r.mu.Unlock()
}

// account adds one reply's cost to the run and returns calls, cached, tokens.
func (r *runner) account(rep llm.Reply, err error) (calls, cached, tokens int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case rep.Cached:
		r.cached++
		cached = 1
	case err != nil && rep.Content == "":
		r.calls++
		r.failed++
		calls = 1
	default:
		r.calls++
		calls = 1
	}
	if !rep.Cached {
		r.pTokens += rep.Usage.PromptTokens
		r.cTokens += rep.Usage.CompletionTokens
		tokens = rep.Usage.PromptTokens + rep.Usage.CompletionTokens
	}
	return calls, cached, tokens
}

func (r *runner) run(ctx context.Context) (*result.Summary, error) {
	p := r.opt.Profile
	if err := r.prepare(); err != nil {
		return nil, err
	}
	if err := r.applyStoredAnswers(ctx); err != nil {
		return nil, err
	}
	if err := r.questions(ctx); err != nil {
		return nil, err
	}
	if err := r.collect(ctx); err != nil {
		return nil, err
	}
	if err := r.bounds(ctx); err != nil {
		return nil, err
	}
	judges, err := r.judges()
	if err != nil {
		return nil, err
	}
	if err := r.judgeAll(ctx, judges); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// What the summary says of the judges is taken now, so the judges
	// themselves are not held through the metrics: the offline ones keep
	// memos of guides and questions (about 60 MB, issue 27).
	judgeInfo := judgeInfos(judges, r.wb)

	sum := &result.Summary{ToolVersion: r.opt.Version}
	if r.opt.JudgeSets == nil {
		if err := r.metrics(ctx, p, sum); err != nil {
			return nil, err
		}
	}
	emb := r.emb
	var c *float64
	if sum.Result != nil {
		c = sum.Aggregate.Cube.Mean
	}
	sum.Verdict = result.VerdictFor(c, p.Thresholds.Deployable, p.Thresholds.NeedsWork)
	sum.Verdict = result.NoQualifiedJudge(sum.Verdict, sum.Result)
	if why, few := tooFewQuestions(sum.Result, p.Thresholds.MinQuestions); few {
		sum.Verdict.Undetermine(why)
	}
	r.applyTargetFailed(sum)
	counts := r.counts()
	sum.Run = result.RunInfo{
		ID: r.runID, Started: r.started, Finished: time.Now(), Calls: counts.Calls, Cached: counts.Cached,
		Failed: counts.Failed, Unscorable: counts.Unscorable, Tokens: counts.PromptTokens + counts.CompletionTokens,
		Attempts: counts.Attempts, Replies: counts.Replies, Throttled: counts.Throttled, Adaptations: r.adaptations(),
		Judges: judgeInfo, Embedder: emb.Name(), Offline: r.opt.Offline,
		Workbook: r.opt.WorkbookPath, Store: r.opt.Store.Path(),
	}
	if counts.Cost != nil {
		sum.Run.Cost = *counts.Cost
	}
	sum.Run.Costs, sum.Run.Unpriced = r.meter.Spending()
	sum.Run.Deferred = r.deferred
	sum.Problems = r.problems
	r.mu.Lock()
	sum.Warnings = append(sum.Warnings, r.warnings...)
	r.mu.Unlock()
	if sum.Problems == nil {
		sum.Problems = []result.Problem{}
	}
	return sum, nil
}

// metrics computes CuBE, MFSS, CoFE-RAG and the baselines into sum.
//
// They are independent reads of the workbook, so with more than one core
// CuBE runs beside the rest (issue 27): each also uses every core inside,
// but each has stretches on one. MFSS, the baselines and CoFE-RAG stay one
// after another, so that their working memory is not held at once (CuBE's
// bootstrap allocates next to nothing) and an embedder endpoint sees
// MFSS's and CoFE-RAG's requests as before. What they find is put into
// sum, and their errors returned, in the order in which they all ran one
// after another before, so the summary, its warnings and the error are
// the same either way; the step's progress advances from this goroutine
// as each group ends.
func (r *runner) metrics(ctx context.Context, p profile.Profile, sum *result.Summary) error {
	return r.metricsWith(ctx, p, sum, runtime.GOMAXPROCS(0) > 1)
}

// metricsWith is metrics, the groups side by side when together.
func (r *runner) metricsWith(ctx context.Context, p profile.Profile, sum *result.Summary, together bool) error {
	metrics := newStepCounter(r.opt.Progress, StepMetrics, "", 3)
	var (
		cubeCfg cube.Config
		cubeRun = len(r.wb.Items) > 0 && r.wb.Scores.Len() > 0
		err     error
	)
	if cubeRun {
		if cubeCfg, err = cubeConfig(p, r.wb); err != nil {
			return err
		}
	}
	mcfg := mfss.DefaultConfig()
	if len(p.MFSS.Weights) > 0 {
		w, err := mfss.WeightsFromMap(p.MFSS.Weights)
		if err != nil {
			return fmt.Errorf("engine: MFSS weights: %w", err)
		}
		mcfg.Weights = w
	}
	emb := r.emb
	systems := answerSystems(r.wb)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		cubeRes *cube.Result
		mfssRes *mfss.Result
		base    *result.Baselines
		cofeRes *cofe.Result
		gen     *cofe.Generation
		errs    [3]error // CuBE, MFSS, CoFE-RAG
	)
	groups := []func(){
		func() {
			if cubeRun {
				if cubeRes, errs[0] = cube.Evaluate(r.wb.Items, r.wb.Scores, r.wb.Human, cubeCfg); errs[0] != nil {
					errs[0] = fmt.Errorf("engine: CuBE: %w", errs[0])
				}
			}
		},
		func() {
			if len(systems) > 0 {
				if mfssRes, errs[1] = mfss.Evaluate(ctx, emb, r.wb.Items, systems, mcfg, nil); errs[1] != nil {
					errs[1] = fmt.Errorf("engine: MFSS: %w", errs[1])
				}
			}
		},
		func() {
			base = computeBaselines(r.wb)
			cofeRes, errs[2] = r.cofe(ctx, emb)
			gen = cofe.EvaluateGeneration(r.wb.Items, r.wb.Scores, dataset.SetRAG)
		},
	}
	// Lanes of groups: CuBE beside MFSS then the baselines, which would
	// otherwise hold their working memory at the same time (CuBE's
	// bootstrap allocates next to nothing).
	lanes := [][]int{{0, 1, 2}}
	if together {
		lanes = [][]int{{0}, {1, 2}}
	}
	finished := make(chan struct{}, len(groups))
	var wg sync.WaitGroup
	for _, lane := range lanes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, g := range lane {
				if groups[g](); errs[g] != nil {
					cancel() // the other lane stops early; the first error in order is returned
					return
				}
				finished <- struct{}{}
			}
		}()
	}
	go func() { wg.Wait(); close(finished) }()
	for range finished {
		metrics.add(false, 0, 0, 0, 0)
	}
	if errs[0] != nil {
		return errs[0]
	}
	sum.Result = cubeRes
	r.applyMapping(sum)
	r.applyRetrievalRead(sum)
	if errs[1] != nil {
		return errs[1]
	}
	if mfssRes != nil && scoredAny(mfssRes.Scored) {
		sum.MFSS = mfssRes
		sum.Warnings = append(sum.Warnings, mfssWarnings(mfssRes)...)
	}
	if base != nil && base.Items > 0 {
		sum.Baselines = base
	}
	if errs[2] != nil {
		return errs[2]
	}
	if gen != nil {
		if cofeRes == nil {
			cofeRes = &cofe.Result{K: p.CoFE.K, ByQueryType: map[string]cofe.Metrics{}}
		}
		cofeRes.Generation = gen
	}
	sum.CoFE = cofeRes
	metrics.finish()
	return nil
}

// cubeConfig turns the profile into CuBE's configuration; documents are
// compared through the guide index so gold and retrieved may name a guide by
// id or title.
func cubeConfig(p profile.Profile, wb *dataset.Workbook) (cube.Config, error) {
	cfg := cube.DefaultConfig()
	cfg.TopN, cfg.Trim, cfg.Subset, cfg.Dimensions = p.TopN, p.Trim, p.Subset, p.Dimensions
	cfg.BootstrapB, cfg.Seed = p.Bootstrap, p.Seed
	mode, table, err := p.WeightMode()
	if err != nil {
		return cfg, err
	}
	cfg.Weights, cfg.HandWeights = mode, table
	for _, j := range p.Judges {
		if len(j.Weights) > 0 {
			if cfg.JudgeWeights == nil {
				cfg.JudgeWeights = map[string]map[string]float64{}
			}
			cfg.JudgeWeights[j.Name] = j.Weights
		}
	}
	q := p.Qualify
	cfg.Qualify = cube.QualifyConfig{MinReadable: q.MinReadable, MinGap: q.MinGap, BoundsTolerance: q.BoundsTolerance,
		MinConsistency: q.MinConsistency, MinHuman: q.MinHuman, MinUnits: q.MinUnits}
	t := p.Thresholds
	cfg.RecallLow, cfg.DimensionWeak, cfg.JudgeSDHigh, cfg.ZeroHighScore = t.RecallLow, t.DimensionWeak, t.JudgeSDHigh, t.ZeroHighScore
	idx := wb.GuideIndex()
	cfg.DocKey = func(ref string) string {
		if i, ok := idx[ref]; ok {
			return wb.Guides[i].ID
		}
		return ref
	}
	return cfg, nil
}

// answerSystems lists the answer sets MFSS compares: the system under test
// and every further system, in workbook order, then the bounds.
func answerSystems(wb *dataset.Workbook) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, s := range wb.Systems {
		add(s)
	}
	for _, it := range wb.Items {
		names := make([]string, 0, len(it.Answers))
		for s, a := range it.Answers {
			if a != "" {
				names = append(names, s)
			}
		}
		sort.Strings(names)
		for _, s := range names {
			add(s)
		}
	}
	return out
}

func (r *runner) embedder() (embed.Embedder, error) {
	ep := r.opt.Profile.Embedder
	if ep == nil || ep.BaseURL == "" {
		return embed.NewHashed(), nil
	}
	if r.opt.Offline {
		return nil, fmt.Errorf("%w: embedder %s", ErrOffline, ep.BaseURL)
	}
	key, err := endpointKey(secret.Embedder(ep.Name), ep.APIKeyEnv)
	if err != nil {
		return nil, err
	}
	return openaiembed.New(openaiembed.Config{BaseURL: ep.BaseURL, Model: ep.Model, APIKey: key})
}

// prepare builds, before any answer is asked or judged, what the later
// steps call and can fail on: the embedder and the reranker. A missing key
// or a bad [reranker] then stops the run before the first paid call, not
// after every judgement was paid for.
func (r *runner) prepare() error {
	if err := r.checkKeys(); err != nil {
		return err
	}
	r.emb = r.opt.Embedder
	if r.emb == nil {
		emb, err := r.embedder()
		if err != nil {
			return err
		}
		r.emb = emb
	}
	if r.opt.Profile.Reranker == nil || !r.cofeRuns() {
		return nil
	}
	rr, err := r.reranker()
	if err != nil {
		return fmt.Errorf("engine: CoFE reranker: %w", err)
	}
	r.rr = rr
	return nil
}

// reranker builds the [reranker] client with its key from core/secret.
func (r *runner) reranker() (rerank.Reranker, error) {
	p := r.opt.Profile.Reranker
	if r.opt.Offline {
		return nil, fmt.Errorf("%w: reranker %s", ErrOffline, httpsafe.SanitizeURL(p.BaseURL))
	}
	key, err := endpointKey(secret.Reranker("reranker"), p.APIKeyEnv)
	if err != nil {
		return nil, err
	}
	c, err := rerank.New(rerank.Config{BaseURL: p.BaseURL, Model: p.Model, Kind: p.Kind})
	if err != nil {
		return nil, err
	}
	c.APIKey = key
	return c, nil
}

// mfssWarnings turns MFSS's own doubts into the summary's warnings: each
// factor that could not tell this run's answers apart, and the texts the
// embedder could not embed (their factors are n/a, not 0).
func mfssWarnings(res *mfss.Result) []result.Warning {
	var out []result.Warning
	for _, f := range res.Uninformative {
		out = append(out, result.Warning{Source: "mfss", Code: "uninformative_factor", Where: f.Factor, Text: f.Reason})
	}
	if res.ZeroVectors.Texts > 0 {
		out = append(out, result.Warning{Source: "mfss", Code: "zero_vectors", Text: res.ZeroVectors.Message()})
	}
	return out
}

func hostOf(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	return u.Host
}

func scoredAny(m map[string]int) bool {
	for _, n := range m {
		if n > 0 {
			return true
		}
	}
	return false
}
