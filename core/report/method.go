package report

import (
	"fmt"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/glossary"
	"cubeworkbench/core/mfss"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
	"cubeworkbench/prompts"
)

func (w *writer) methodSheet() error { return w.writePage(w.methodPage()) }

// methodPage is how the evaluation was made: the profile, what the
// Summary's numbers mean, the judges, dimensions and prompts, the run
// record, what the endpoints refused, the advice the Summary had no room
// for and the method notes.
func (w *writer) methodPage() *sheetPage {
	g := w.newPage(SheetMethod, 30, 22, 28, 28, 10, 60)
	g.title(w.say(methodHowEvaluationMade))
	g.skip(1)

	w.methodProfile(g)
	w.methodMeanings(g)
	w.methodJudges(g)
	w.methodDimensions(g)
	w.methodRun(g)
	w.methodFindings(g)
	w.methodAdviceLeft(g)
	w.methodNotes(g)
	return g
}

// methodProfile writes the evaluation profile's settings.
func (w *writer) methodProfile(g *sheetPage) {
	p := w.in.Profile
	g.block()
	g.label(w.say(methodEvaluationProfile))
	weights := w.weightsWords(p)
	kv := [][2]any{
		{w.say(methodReportLanguage), w.languageWords()},
		{"TOP-N", p.TopN},
		{w.say(methodTrimProportion), p.Trim},
		{w.say(methodAnalysisSubset), w.subsetWords(p.Subset)},
		{w.say(methodWeights), weights},
		{w.say(methodDimensions), w.dimensionList(p.Dimensions)},
		{w.say(methodResamplesBehind95), p.Bootstrap},
		{w.say(methodSeed), int(p.Seed)},
		{w.say(methodDeployableCuBEMin), p.Thresholds.Deployable},
		{w.say(methodNeedsWorkCuBE), p.Thresholds.NeedsWork},
		{w.say(methodRecallAtKAdvice), pct{&p.Thresholds.RecallLow}},
		{w.say(methodWeakDimensionBelow), p.Thresholds.DimensionWeak},
		{w.say(methodJudgeDisagreementAbove), p.Thresholds.JudgeSDHigh},
		{w.say(methodOwnKnowledgeScore), p.Thresholds.ZeroHighScore},
		{w.say(methodFewestQuestionsVerdict), p.Thresholds.MinQuestions},
		{w.say(methodCoFERAG), fmt.Sprintf("k = %d, recall_n = %d, %s %d/%d, %s", p.CoFE.K, p.CoFE.RecallN, p.CoFE.Chunker, p.CoFE.ChunkSize, p.CoFE.Overlap, p.CoFE.Retriever)},
	}
	if len(p.MFSS.Weights) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(p.MFSS.Weights)) {
			parts = append(parts, fmt.Sprintf("%s = %g", k, p.MFSS.Weights[k]))
		}
		kv = append(kv, [2]any{w.say(methodMFSSWeights), strings.Join(parts, ", ")})
	}
	if p.BudgetUSD > 0 {
		kv = append(kv, [2]any{w.say(methodBudgetUSD), p.BudgetUSD})
	}
	if p.PromptDir != "" {
		kv = append(kv, [2]any{w.say(methodEditedPrompts), filepath.Base(p.PromptDir)})
	}
	for _, x := range kv {
		g.line(styled{x[0], w.st.label}, x[1])
	}
	g.skip(1)
}

// methodMeanings writes what the Summary's key numbers mean.
func (w *writer) methodMeanings(g *sheetPage) {
	// Judges: name, model and host only — never a key or its variable.
	// What the Summary's key numbers mean, in the words the page leaves
	// out for room.
	g.block()
	g.label(w.say(methodWhatNumbersSummary))
	g.header(w.say(methodNumber), w.say(methodWhatMeans))
	g.wrap = true
	for _, fig := range w.page().Figures {
		row := g.line(fig.Label, fig.Meaning)
		g.merge(row, "B", "F")
		g.height(row, max(rowHeight(fig.Label, 30), rowHeight(fig.Meaning, 150)))
	}
	g.wrap = false
	g.skip(1)
}

// methodJudges writes the judges, the generator, the embedder and the system under test: name, model and host only — never a key or its variable.
func (w *writer) methodJudges(g *sheetPage) {
	p := w.in.Profile
	g.block()
	g.label(w.say(methodJudges))
	g.header(w.say(methodName), w.say(txtKind), w.say(methodModel), w.say(methodEndpointHost), w.say(methodRepeats), w.say(txtNote))
	for _, j := range w.judgeInfos() {
		note := ""
		switch j.Kind {
		case "lexical":
			note = w.say(methodLexicalBaselineWord)
		case "semantic":
			note = w.say(methodSemanticBaselineSimilarity)
		case "imported":
			note = w.say(methodScoresImportedWorkbook)
		}
		g.wrap = true
		g.line(w.judgeName(j.Name), w.kindName(j.Kind), j.Model, j.Host, j.Repeats, note)
		g.wrap = false
	}
	for _, e := range []struct {
		label string
		ep    *profile.Endpoint
	}{{w.say(methodAnswerGeneratorZero), p.Generator}, {w.say(txtEmbedder), p.Embedder}} {
		if e.ep != nil {
			g.line(styled{e.label, w.st.label}, "", e.ep.Model, host(e.ep.BaseURL, e.ep.BaseURLs))
		}
	}
	if p.Target != nil {
		g.line(styled{w.say(methodSystemUnderTest), w.st.label}, p.Target.Kind, p.Target.Model, host(p.Target.BaseURL, nil))
	}
	g.skip(1)
}

// languageWords names the report's language in itself.
func (w *writer) languageWords() string {
	if w.lang == text.ZH {
		return w.say(methodLanguageZH)
	}
	return w.say(methodLanguageEN)
}

// subsetWords says which questions the analysis read; a subset the
// product does not know is shown as written.
func (w *writer) subsetWords(subset string) string {
	switch subset {
	case cube.SubsetRetrieved:
		return w.say(methodSubsetRetrieved)
	case cube.SubsetAll:
		return w.say(methodSubsetAll)
	}
	return subset
}

// weightsWords says how the dimensions were weighted: the glossary's
// correlation weights, equal weights, or the weights set in the profile
// by dimension name.
func (w *writer) weightsWords(p profile.Profile) string {
	mode, table, _ := p.WeightMode()
	switch {
	case len(table) > 0:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(table)) {
			parts = append(parts, fmt.Sprintf("%s = %g", w.dimensionName(k), table[k]))
		}
		return w.say(methodSetWeights) + w.say(methodOpenParen) + strings.Join(parts, w.say(methodListSep)) + w.say(methodCloseParen)
	case mode == "correlation":
		return w.term(glossary.CorrelationWeights)
	case mode == "equal":
		return w.say(methodEqualWeights)
	}
	return mode
}

// dimensionName is a dimension's glossary name (a user's own keeps its name).
func (w *writer) dimensionName(d string) string {
	return glossary.Name(glossary.DimensionID, d, w.lang)
}

// dimensionList names dimensions as a list in the report's language.
func (w *writer) dimensionList(dims []string) string {
	names := make([]string, len(dims))
	for i, d := range dims {
		names[i] = w.dimensionName(d)
	}
	return strings.Join(names, w.say(methodListSep))
}

// methodDimensions writes the dimensions and the prompts that judged them.
func (w *writer) methodDimensions(g *sheetPage) {
	p := w.in.Profile
	g.block()
	g.label(w.say(methodDimensions))
	g.header(w.say(txtDimension), w.say(methodTitle), w.say(methodPrompt), w.say(methodWhatJudgeAsked))
	source := w.say(methodBuiltIn)
	if p.PromptDir != "" {
		source = w.say(methodEditedCopy) + filepath.Base(p.PromptDir) + " / "
	}
	for _, d := range w.dimsOrProfile() {
		title, line := w.promptInfo(p.PromptDir, d)
		g.wrap = true
		row := g.line(w.dimensionName(d), title, source+"prompts/cube/"+prompts.File(d, w.lang), line)
		g.wrap = false
		g.merge(row, "D", "F")
		g.height(row, rowHeight(line, 110))
	}
	g.skip(1)
}

// methodRun writes the run record.
func (w *writer) methodRun(g *sheetPage) {
	s := w.s
	g.block()
	g.label(w.say(methodRun))
	r := s.Run
	runKV := [][2]any{
		{w.say(methodToolVersion), s.ToolVersion},
		{w.say(methodRunID), int(r.ID)},
		{w.say(methodStarted), timeText(r.Started)},
		{w.say(methodFinished), timeText(r.Finished)},
		{w.say(methodModelCalls), r.Calls},
		{w.say(methodHTTPRequestsEndpoints), r.Attempts},
		{w.say(methodRepliesAnyStatus), r.Replies},
		{w.say(methodThrottledHTTP429), r.Throttled},
		{w.say(methodAnsweredCache), r.Cached},
		{w.say(methodFailedCalls), r.Failed},
		{w.say(methodUnscorableReplies), r.Unscorable},
		{w.say(methodTokens), r.Tokens},
		{w.say(methodMoneySpent), w.spent(r)},
		{w.say(txtEmbedder), r.Embedder},
		{w.say(methodOfflineRun), w.say(yesNo(r.Offline))},
	}
	if r.Workbook != "" {
		runKV = append(runKV, [2]any{w.say(methodWorkbook), filepath.Base(r.Workbook)})
		if fp := r.WorkbookFile; fp != nil {
			runKV = append(runKV,
				[2]any{w.say(methodWorkbookSHA256), fp.SHA256},
				[2]any{w.say(methodWorkbookSizeBytes), int(fp.Bytes)},
				[2]any{w.say(methodWorkbookModifiedUTC), fp.Modified.UTC().Format("2006-01-02 15:04:05")})
		}
	}
	if r.Store != "" {
		runKV = append(runKV, [2]any{w.say(methodRunStore), filepath.Base(r.Store)})
	}
	for _, x := range runKV {
		g.line(styled{x[0], w.st.label}, x[1])
	}
	g.skip(1)
}

// methodFindings writes what the endpoints refused, how retrieved documents were matched and what MFSS could not tell apart.
func (w *writer) methodFindings(g *sheetPage) {
	s := w.s
	r := s.Run
	g.block()
	if len(r.Adaptations) > 0 {
		g.block()
		g.label(w.say(methodRequestParametersEndpoint))
		g.header(w.say(methodEndpoint), w.say(methodParameter), w.say(methodWhatChanged))
		g.wrap = true
		for _, a := range r.Adaptations {
			row := g.line(host(a.Endpoint, nil), a.Param, w.say(text.New(a.ZH, a.EN)))
			g.merge(row, "C", "F")
			g.height(row, rowHeight(w.say(text.New(a.ZH, a.EN)), 130))
		}
		g.wrap = false
		g.skip(1)
	}
	if dm := s.DocMapping; dm != nil {
		if msgs := dm.Messages(w.lang, 20); len(msgs) > 0 {
			g.block()
			g.label(w.say(methodHowRetrievedDocuments))
			w.noteLines(g, msgs)
			g.skip(1)
		}
	}
	if m := s.MFSS; m != nil {
		g.block()
		g.label(w.say(methodMFSSFactorsWhat))
		g.header(w.say(methodFactor), w.say(methodMeasures), w.say(methodCanTell), w.say(methodCannotTell))
		g.wrap = true
		for _, n := range mfss.FactorNotes(w.lang) {
			row := g.line(n.Name, n.Measures, n.Can, n.Cannot)
			g.merge(row, "D", "F")
			g.height(row, max(rowHeight(n.Measures, 40), rowHeight(n.Can, 50), rowHeight(n.Cannot, 120)))
		}
		g.wrap = false
		var lines []string
		for _, u := range m.Uninformative {
			lines = append(lines, u.Reason.In(w.lang))
		}
		if zv := m.ZeroVectors.Message(); zv.EN != "" {
			lines = append(lines, zv.In(w.lang))
		}
		if len(lines) > 0 {
			g.label(w.say(methodWhatMFSSCould))
			w.noteLines(g, lines)
		}
		g.skip(1)
	}
}

// methodAdviceLeft writes the recommendations the Summary had no room for.
func (w *writer) methodAdviceLeft(g *sheetPage) {
	if left := w.summaryAdviceLeft; len(left) > 0 {
		g.block()
		g.label(w.say(methodRecommendationsSummaryHad))
		g.header(w.say(methodPriority), w.say(methodRecommendation))
		g.wrap = true
		for _, a := range left {
			row := g.line(a.Priority, a.Text)
			g.merge(row, "B", "F")
			g.height(row, rowHeight(a.Text, 150))
		}
		g.wrap = false
		g.skip(1)
	}
}

// methodNotes writes the method notes.
func (w *writer) methodNotes(g *sheetPage) {
	s := w.s
	g.block()
	g.label(w.say(methodMethodNotes))
	var notes []string
	if s.Result != nil {
		notes = s.MethodNotes(w.lang)
	}
	notes = append(notes,
		w.say(methodLexicalJudgeBaseline),
		w.say(methodBLEUROUGEL),
		w.say(methodTextLongerThan),
		w.say(methodSheetsGuidesQa),
	)
	g.wrap = true
	for i, n := range notes {
		row := g.line(i+1, n)
		g.merge(row, "B", "F")
		g.height(row, rowHeight(n, 150))
	}
	g.wrap = false
}

// noteLines writes one wrapped note per row, merged across the sheet.
func (w *writer) noteLines(g *sheetPage, lines []string) {
	g.wrap = true
	for _, l := range lines {
		row := g.line(l)
		g.merge(row, "A", "F")
		g.height(row, rowHeight(l, 170))
	}
	g.wrap = false
}

// promptInfo reads a dimension's title and one-line definition from its
// rubric prompt (front matter title_zh/title_en, the "Dimension:" line);
// without a prompt the built-in title table is used.
func (w *writer) promptInfo(dir, dim string) (title, line string) {
	title = w.dimTitle(dim)
	text, err := prompts.Load(dir, "cube/"+dim, w.lang)
	if err != nil {
		return title, ""
	}
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "title_"+string(w.lang)+":"):
			if t := strings.TrimSpace(strings.TrimPrefix(l, "title_"+string(w.lang)+":")); t != "" {
				title = t
			}
		case line == "" && (strings.HasPrefix(l, "评价维度：") || strings.HasPrefix(l, "Dimension:")):
			line = l
		}
	}
	return title, line
}

// judgeInfos are the judges as the run recorded them (the engine's
// RunInfo.Judges), with hosts, never URLs.
func (w *writer) judgeInfos() []result.JudgeInfo {
	out := slices.Clone(w.s.Run.Judges)
	for i := range out {
		out[i].Host = host(out[i].Host, nil) // a host, even if a URL was recorded
	}
	return out
}

func (w *writer) kindName(k string) string {
	switch k {
	case "llm":
		return w.say(methodLLM)
	case "lexical":
		return w.say(methodLexicalBaseline)
	case "semantic":
		return w.say(methodSemanticBaseline)
	case "imported":
		return w.say(txtImported)
	}
	return k
}

func (w *writer) dimsOrProfile() []string {
	if len(w.dims) > 0 {
		return w.dims
	}
	return w.in.Profile.Dimensions
}

// host reduces an endpoint address to its host (and port): paths, query
// strings and user information — where a key could hide — are dropped.
func host(base string, more []string) string {
	var hosts []string
	for _, b := range append([]string{base}, more...) {
		if b == "" {
			continue
		}
		h := b
		if u, err := url.Parse(b); err == nil && u.Host != "" {
			h = u.Host
		} else if u, err := url.Parse("//" + b); err == nil && u.Host != "" {
			h = u.Host
		} else {
			h = "?"
		}
		if !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	return strings.Join(hosts, ", ")
}

func yesNo(b bool) text.Text {
	if b {
		return wordYes
	}
	return wordNo
}

// spent is what the run's calls cost, each currency apart, unknown for an
// endpoint without a price (never 0); a run without paid calls says none.
func (w *writer) spent(r result.RunInfo) string {
	if m := r.Spent(w.lang); m != "" {
		return m
	}
	return w.say(methodNoneNoPaid)
}
