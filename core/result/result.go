package result

import (
	"time"

	"cubeworkbench/core/glossary"

	"cubeworkbench/core/cofe"
	"cubeworkbench/core/compare"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/docmatch"
	"cubeworkbench/core/explain"
	"cubeworkbench/core/humancheck"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/mfss"
	"cubeworkbench/core/text"
)

// Summary is what an evaluation produces, written as SUMMARY.json. Its
// JSON is not its fields' tags but SummaryJSON (contract.go), which
// MarshalJSON maps it onto: the CuBE fields sit at the top level as the
// contract shows them; MFSS and CoFE are parts of their own.
type Summary struct {
	ToolVersion string `json:"tool_version"`
	*cube.Result
	MFSS *mfss.Result `json:"mfss,omitempty"`
	// CoFE is CoFE-RAG's keyword evaluation and, in Generation, its
	// generation half; nil when neither ran.
	CoFE *cofe.Result `json:"cofe,omitempty"`
	// Sweep is a chunking × retriever comparison, when one ran beside the
	// evaluation (the report's CoFE sheet shows it).
	Sweep     *cofe.SweepResult `json:"cofe_sweep,omitempty"`
	Baselines *Baselines        `json:"baselines,omitempty"`
	Verdict   Verdict           `json:"verdict"`
	Run       RunInfo           `json:"run"`
	Problems  []Problem         `json:"problems"`
	// Skipped lists the workbook rows left out because they had errors and
	// the user chose to evaluate without them, as messages in the run's
	// language naming file, sheet and row.
	Skipped []string `json:"skipped_rows,omitempty"`
	// Warnings are findings about the input that did not stop the run.
	Warnings []Warning `json:"warnings,omitempty"`
	// DocMapping says how the documents the system under test retrieved
	// were matched to the workbook's guides (nil when no target was asked
	// this run). When it is Loud, Recall@k measures naming, not retrieval,
	// and a Warning says so; when no answer carried documents, Recall@k is
	// null, never 0.
	DocMapping *docmatch.Report `json:"doc_mapping,omitempty"`
	// Explanation is the why of the verdict: plain bullets, the weakest
	// questions, system-side recommendations, banners (baseline judge,
	// bundled sample). One source for the window, the CLI and the report.
	Explanation *explain.Explanation `json:"explanation,omitempty"`
	// Comparison is a before/after comparison run beside this evaluation
	// (cubectl compare, the window's Compare view); nil otherwise.
	Comparison *compare.Result `json:"comparison,omitempty"`
	// SpotCheck sets people's ratings (the run store's spot check, else the
	// workbook's human sheet) beside the judges; nil without ratings.
	SpotCheck *humancheck.Result `json:"spot_check,omitempty"`
}

// SummaryVersion is the version of SUMMARY.json's contract this program
// writes (SummaryJSON.Version). Version 2 made the top-level
// "recommendations" the one list and keeps "explanation.recommendations"
// as a copy of it for this version only (docs/summary.md).
const SummaryVersion = 2

// Recommendations is the one list of recommendations every front end and
// SUMMARY.json show: the explanation's, or, for a summary made without one
// (no workbook to explain), explain's recommendations of the CuBE result.
// Nil when no CuBE ran.
func (s *Summary) Recommendations() []explain.Recommendation {
	if s.Explanation != nil {
		return s.Explanation.Recommendations
	}
	if s.Result == nil {
		return nil
	}
	return explain.Recommend(explain.Input{Result: s.Result, Verdict: explain.Verdict{Code: s.Verdict.Code,
		Cube: s.Verdict.Cube, DeployableAt: s.Verdict.Deployable, NeedsWorkAt: s.Verdict.NeedsWork}})
}

// HasCoFERetrieval says the summary holds CoFE-RAG's keyword retrieval
// figures (or a sweep of them), not only its generation half.
func (s *Summary) HasCoFERetrieval() bool {
	c := s.CoFE
	return c != nil && (c.Queries > 0 || len(c.ByQueryType) > 0) || s.Sweep != nil && len(s.Sweep.Rows) > 0
}

// Verdict answers "can we deploy?" against the profile's thresholds.
// Its JSON is VerdictJSON (contract.go).
type Verdict struct {
	Code VerdictCode // deployable | needs_work | not_ready | undetermined
	// Text is the verdict in words: the glossary's, and why when it is
	// undetermined.
	Text       text.Text
	Cube       *float64
	Deployable float64
	NeedsWork  float64
	// Reasons say why a verdict the score alone would give is undetermined
	// (too few questions, …), each in both languages; empty otherwise.
	Reasons []Reason
}

// Reason is one reason a verdict is undetermined: a few words for the
// verdict itself (the window's banner does not wrap), and the full reason
// that leads the why of the verdict, the report and the brief.
// Its JSON is ReasonJSON (contract.go).
type Reason struct {
	Code   string
	Text   text.Text // the few words
	Detail text.Text // the full reason
}

// Undetermine makes the verdict undetermined (无法判定, the glossary's
// words) for a reason: the score stays in the summary, but no deployment
// verdict is read from it, and the verdict's words say why.
func (v *Verdict) Undetermine(r Reason) {
	v.Reasons = append(v.Reasons, r)
	v.Code, v.Cube = Undetermined, nil
	why := make([]text.Text, len(v.Reasons))
	for i, x := range v.Reasons {
		why[i] = x.Text
	}
	v.Text = text.JoinWith([]text.Text{v.Code.Text(), text.JoinWith(why, text.New("；", "; "))}, text.New("：", ": "))
}

// RunInfo names exactly what produced a summary.
type RunInfo struct {
	ID       int64     `json:"id"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	Calls    int       `json:"calls"`
	// Attempts are the HTTP requests the endpoints saw (retries and
	// re-sends included), Replies the responses of any status, Throttled
	// the 429s among them: Calls alone understates the servers' load.
	Attempts   int     `json:"attempts"`
	Replies    int     `json:"replies"`
	Throttled  int     `json:"throttled"`
	Cached     int     `json:"cached"`
	Failed     int     `json:"failed"`
	Unscorable int     `json:"unscorable"`
	Deferred   int     `json:"deferred"` // requests left for a batch file (batch mode)
	Tokens     int     `json:"tokens"`
	Cost       float64 `json:"cost"` // every priced endpoint's cost, whatever its currency: see Costs
	// Costs is the cost per currency of the prices ("" = not stated);
	// Unpriced names the endpoints called without a price, whose cost is
	// unknown, never zero.
	Costs    map[string]float64 `json:"costs,omitempty"`
	Unpriced []string           `json:"unpriced_endpoints,omitempty"`
	Judges   []JudgeInfo        `json:"judge_endpoints"`
	// Adaptations are request parameters an endpoint refused and the client
	// changed (Ollama's think switch, OpenAI's max_completion_tokens), for
	// the report's method notes.
	Adaptations []Adaptation `json:"adaptations,omitempty"`
	Embedder    string       `json:"embedder"`
	Offline     bool         `json:"offline"`
	Workbook    string       `json:"workbook"`
	// WorkbookFile fingerprints the workbook as it was first read, so the
	// version judged can be told from a later one; nil when not known.
	WorkbookFile *FilePrint `json:"workbook_file,omitempty"`
	Store        string     `json:"store"`
}

// FilePrint is a file's SHA-256, size and modification time as read (a
// CSV folder's: the SHA-256 of its files' names and hashes in name order,
// their total size and latest modification).
type FilePrint struct {
	SHA256   string    `json:"sha256"`
	Bytes    int64     `json:"bytes"`
	Modified time.Time `json:"modified"`
}

// JudgeInfo describes a judge without its key.
type JudgeInfo struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"` // llm | lexical | imported
	Model   string `json:"model,omitempty"`
	Host    string `json:"host,omitempty"`
	Repeats int    `json:"repeats"`
}

// Adaptation is one parameter an endpoint refused and how the client
// changed its requests from then on (llm.Adaptation without the raw reply).
type Adaptation struct {
	Endpoint string `json:"endpoint"`
	Param    string `json:"param"`
	text.Text
}

// Problem is something the run could not do for an item: a target that
// failed, an answer that could not be generated, an unscorable judgement.
type Problem struct {
	Step   string `json:"step"`
	ItemID string `json:"item_id,omitempty"`
	Set    string `json:"set,omitempty"`
	Judge  string `json:"judge,omitempty"`
	Dim    string `json:"dimension,omitempty"`
	Reason string `json:"reason"`
}

// Warning is one finding about the input that the run went on despite: a
// hidden sheet the reader saw, a retrieved document it could not map to a
// guide, a factor MFSS doubts. Source names the package that found it
// ("ingest", "target", "mfss", …), Code the kind; Where names the file,
// sheet, row or item when there is one.
//
// Text is embedded so that SUMMARY.json keeps its keys "zh", "en" after
// "where" (a golden checks the bytes); w.In(lang) is the message.
type Warning struct {
	Source string `json:"source"`
	Code   string `json:"code"`
	Where  string `json:"where,omitempty"`
	text.Text
}

// Baselines are the traditional metrics beside the judges (the CuBE paper's
// Table 6): BLEU and ROUGE-L of each set's answers against the gold
// document, as means, and normalised between the zero and full sets exactly
// as CuBE normalises a dimension.
type Baselines struct {
	Items      int                              `json:"items"`   // items with all three answers and a gold document
	BLEU       map[string]*float64              `json:"bleu"`    // set → mean sentence BLEU (0–100)
	RougeL     map[string]*float64              `json:"rouge_l"` // set → mean ROUGE-L F (0–100)
	BLEUNorm   *float64                         `json:"bleu_normalized"`
	RougeLNorm *float64                         `json:"rouge_l_normalized"`
	PerItem    map[string]map[string][2]float64 `json:"-"` // item → set → {BLEU, ROUGE-L}
}

// VerdictCode is a deployment verdict code; its words come from the
// glossary only (glossary.VerdictCode.Words).
type VerdictCode = glossary.VerdictCode

// The deployment verdicts (glossary's).
const (
	Deployable   = glossary.Deployable
	NeedsWork    = glossary.NeedsWork
	NotReady     = glossary.NotReady
	Undetermined = glossary.Undetermined
)

// VerdictFor judges a CuBE score against the deployable and needs-work
// thresholds; a nil score is undetermined. The words are the glossary's;
// an undetermined verdict adds why.
func VerdictFor(c *float64, deployable, needsWork float64) Verdict {
	v := Verdict{Cube: c, Deployable: deployable, NeedsWork: needsWork}
	switch {
	case c == nil:
		v.Code = Undetermined
	case *c >= deployable:
		v.Code = Deployable
	case *c >= needsWork:
		v.Code = NeedsWork
	default:
		v.Code = NotReady
	}
	v.Text = v.Code.Text()
	if v.Code == Undetermined {
		v.Text = text.New(v.Text.ZH+"：未能算出 CuBE 分数", v.Text.EN+": no CuBE score could be computed")
	}
	return v
}

// NoQualifiedJudge makes the verdict undetermined when CuBE had judges but
// none of them qualified (cube's judge qualification): their numbers are
// no basis for a coloured verdict, whatever they are.
func NoQualifiedJudge(v Verdict, r *cube.Result) Verdict {
	if r == nil || len(r.Judges) == 0 || r.QualifiedJudges() > 0 {
		return v
	}
	v.Undetermine(Reason{Code: "no_qualified_judge",
		Text: text.New("没有评审模型通过评审资格检查", "no judge qualified"),
		Detail: text.New("没有评审模型通过评审资格检查，它们的分数不能作为结论依据（各评审模型的原因见其卡片）",
			"no judge qualified, so their scores are no basis for a verdict (each judge's card says why)")})
	return v
}

// Spent is what the run's calls cost in lang: each currency apart, unknown
// for an endpoint without a price (never 0), "" when nothing was paid for.
func (r RunInfo) Spent(lang text.Lang) string {
	if m := llm.Spent(r.Costs, r.Unpriced, lang); m != "" {
		return m
	}
	if r.Cost > 0 { // a summary written before currencies were recorded
		return llm.Money(r.Cost, "", lang)
	}
	return ""
}

// WarnTargetFailed is the warning code of a run whose system under test
// failed most questions (its verdict is undetermined).
const WarnTargetFailed = "target_failed"

// TargetFailed reports a run whose system under test failed most of its
// questions: the verdict is undetermined and the CLI exits non-zero.
func (s *Summary) TargetFailed() bool {
	for _, w := range s.Warnings {
		if w.Code == WarnTargetFailed {
			return true
		}
	}
	return false
}
