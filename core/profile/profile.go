package profile

import (
	"slices"

	"bytes"
	"cubeworkbench/core/llm"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"cubeworkbench/core/dimension"
	"cubeworkbench/core/target"
)

// Endpoint is an OpenAI-compatible model endpoint: a judge, the generator or
// the embedder. An endpoint with no BaseURL is "imported": its scores come
// only from the workbook's scores sheet.
type Endpoint struct {
	Name        string   `toml:"name"`
	BaseURL     string   `toml:"base_url,omitempty"`
	BaseURLs    []string `toml:"base_urls,omitempty"` // replicas of the same model
	Model       string   `toml:"model,omitempty"`
	APIKeyEnv   string   `toml:"api_key_env,omitempty"`
	Concurrency int      `toml:"concurrency,omitempty"`
	RPM         int      `toml:"rpm,omitempty"`
	Repeats     int      `toml:"repeats,omitempty"`
	TimeoutSec  int      `toml:"timeout_seconds,omitempty"`
	// StallSec aborts an attempt whose reply stops coming for this long
	// (default 60); TotalSec bounds a request, retries included (default
	// 600, or two timeouts when longer).
	StallSec int `toml:"stall_seconds,omitempty"`
	TotalSec int `toml:"total_timeout_seconds,omitempty"`
	// Server says what serves the endpoint ("auto", the default, asks it
	// once: GET /api/version for Ollama, /version for vLLM, …): its quirks
	// and thinking switch follow. One of llm.Servers.
	Server     string             `toml:"server,omitempty"`
	MaxRetries int                `toml:"max_retries,omitempty"`
	PriceIn    float64            `toml:"price_in_per_mtok,omitempty"`
	PriceOut   float64            `toml:"price_out_per_mtok,omitempty"`
	Currency   string             `toml:"currency,omitempty"` // of the prices: CNY, USD …
	Weights    map[string]float64 `toml:"weights,omitempty"`
	Lexical    bool               `toml:"lexical,omitempty"`  // the offline lexical baseline judge
	Semantic   bool               `toml:"semantic,omitempty"` // the offline semantic (embedding-similarity) baseline judge
	// AllowRedirects follows a redirect to another host; by default it is
	// refused, so prompts never go to an address not named here.
	AllowRedirects bool `toml:"allow_redirects,omitempty"`
	// MaxReplyBytes caps one reply's body (0: the client's 4 MiB); a longer
	// reply is reported, not read.
	MaxReplyBytes int64 `toml:"max_reply_bytes,omitempty"`
}

// Imported reports whether the endpoint is only a name for scores that
// already sit in the workbook.
func (e Endpoint) Imported() bool {
	return e.BaseURL == "" && len(e.BaseURLs) == 0 && !e.Offline()
}

// Offline reports whether the endpoint is one of the built-in offline
// baseline judges, which make no calls.
func (e Endpoint) Offline() bool { return e.Lexical || e.Semantic }

// Timeout returns the per-request timeout (default 120 s).
func (e Endpoint) Timeout() time.Duration {
	if e.TimeoutSec <= 0 {
		return 120 * time.Second
	}
	return time.Duration(e.TimeoutSec) * time.Second
}

// Target is the RAG system under test; its fields come from the connector
// registry (core/target).
type Target = target.Config

// Thresholds drive the verdict and the recommendations.
type Thresholds struct {
	Deployable    float64 `toml:"deployable"`      // CuBE ≥ this → deployable
	NeedsWork     float64 `toml:"needs_work"`      // CuBE ≥ this → needs work; below → not ready
	RecallLow     float64 `toml:"recall_low"`      // Recall@k below this → retrieval advice
	DimensionWeak float64 `toml:"dimension_weak"`  // normalised dimension below this → weak
	JudgeSDHigh   float64 `toml:"judge_sd_high"`   // SD of CuBE across judges above this → disagreement
	ZeroHighScore float64 `toml:"zero_high_score"` // rag score ≥ this without retrieval → own knowledge
	// MinQuestions is the fewest questions CuBE must be computed over (those
	// that retrieved their gold guide, or every question with subset "all")
	// for a verdict; below it the verdict is undetermined. 0 turns the check
	// off. Default DefaultMinQuestions.
	MinQuestions int `toml:"min_questions"`
}

// Qualify holds what a judge must show to be counted in the verdict (core/cube's
// judge qualification; docs/decisions.md says why each default).
type Qualify struct {
	MinReadable     float64 `toml:"min_readable"`     // share of scorable judgements; 0.90
	MinGap          float64 `toml:"min_gap"`          // the 95 % interval of W(full) − W(zero) above this (points); 0
	BoundsTolerance float64 `toml:"bounds_tolerance"` // weighted bounded score within [−t, 100 + t]; 25
	MinConsistency  float64 `toml:"min_consistency"`  // Krippendorff α across repeats; 0.667
	MinHuman        float64 `toml:"min_human"`        // mean Pearson r with the experts; 0.3
	MinUnits        int     `toml:"min_units"`        // repeated answers / rated questions before those two decide; 20
}

// DefaultMinQuestions is 30: below it one question moves the mean by more
// than 3 points of 100, and the percentile bootstrap's 95 % interval is
// known to be too narrow (it under-covers for small samples), so an
// interval that looks clear of a threshold may well not be. A verdict read
// from fewer questions would rest on which questions happened to be asked.
const DefaultMinQuestions = 30

// Profile is one evaluation's settings.
type Profile struct {
	Language   string       `toml:"language"`
	TopN       int          `toml:"top_n"`
	Trim       float64      `toml:"trim"`
	Subset     string       `toml:"subset"`
	Weights    any          `toml:"weights"` // "correlation" | "equal" | {dimension = weight}
	Dimensions []string     `toml:"dimensions"`
	Bootstrap  int          `toml:"bootstrap"`
	Seed       int64        `toml:"seed"`
	Thresholds Thresholds   `toml:"thresholds"`
	Qualify    Qualify      `toml:"qualify"`
	Judges     []Endpoint   `toml:"judge"`
	Generator  *Endpoint    `toml:"generator,omitempty"`
	Embedder   *Endpoint    `toml:"embedder,omitempty"`
	Target     *Target      `toml:"target,omitempty"`
	Reranker   *Reranker    `toml:"reranker,omitempty"`
	CoFE       CoFESettings `toml:"cofe"`
	MFSS       MFSSSettings `toml:"mfss"`
	BudgetUSD  float64      `toml:"budget,omitempty"`
	PromptDir  string       `toml:"prompt_dir,omitempty"` // the user's edited prompt copies
}

// CoFESettings configure the keyword evaluation.
type CoFESettings struct {
	K         int    `toml:"k"`
	RecallN   int    `toml:"recall_n"`
	Chunker   string `toml:"chunker"` // fixed | sentence | document
	ChunkSize int    `toml:"chunk_size"`
	Overlap   int    `toml:"overlap"`
	Retriever string `toml:"retriever"` // bm25 | dense | hybrid
	// Generation has every judge score the system's answers on CoFE's
	// correctness (1–5), faithfulness and relevancy (YES/NO) where the
	// workbook has reference answers.
	Generation bool `toml:"generation"`
	// Corpus is a folder of documents (txt, md, html, docx, pptx, xlsx,
	// pdf) to retrieve over instead of the guides.
	Corpus string `toml:"corpus,omitempty"`
}

// MFSSSettings configure the multi-factor score.
type MFSSSettings struct {
	Weights map[string]float64 `toml:"weights,omitempty"`
}

// Default returns the profile the demo and a workbook without a profile use:
// Chinese, TOP-N 8, α 0.10, the retrieved subset, correlation weights, the
// four CuBE dimensions, and the offline lexical judge.
func Default() Profile {
	return Profile{
		Language:   "zh",
		TopN:       8,
		Trim:       0.10,
		Subset:     "retrieved",
		Weights:    "correlation",
		Dimensions: dimension.Defaults(),
		Bootstrap:  1000,
		Seed:       1,
		Thresholds: Thresholds{Deployable: 60, NeedsWork: 40, RecallLow: 0.8, DimensionWeak: 60, JudgeSDHigh: 10, ZeroHighScore: 8, MinQuestions: DefaultMinQuestions},
		Qualify:    Qualify{MinReadable: 0.9, MinGap: 0, BoundsTolerance: 25, MinConsistency: 0.667, MinHuman: 0.3, MinUnits: 20},
		CoFE:       CoFESettings{K: 4, RecallN: 30, Chunker: "document", ChunkSize: 256, Overlap: 32, Retriever: "bm25", Generation: true},
	}
}

// ErrInvalid marks a profile that parsed but makes no sense.
var ErrInvalid = errors.New("profile: invalid")

// Load reads a TOML profile; fields it omits keep their defaults.
func Load(path string) (Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Profile{}, fmt.Errorf("profile: %w", err)
	}
	return Parse(data)
}

// Parse reads a TOML profile from bytes.
func Parse(data []byte) (Profile, error) {
	p := Default()
	md, err := toml.Decode(string(data), &p)
	if err != nil {
		return Profile{}, fmt.Errorf("profile: %w", err)
	}
	var keys []string
	for _, k := range md.Undecoded() {
		// A weights table decodes into an interface; toml still lists its keys.
		if len(k) == 2 && k[0] == "weights" {
			continue
		}
		keys = append(keys, k.String())
	}
	if len(keys) > 0 {
		sort.Strings(keys)
		return Profile{}, fmt.Errorf("%w: unknown keys %s", ErrInvalid, strings.Join(keys, ", "))
	}
	return p, p.Validate()
}

// Validate checks values that would make the formulas meaningless.
func (p Profile) Validate() error {
	var problems []string
	if p.Language != "zh" && p.Language != "en" {
		problems = append(problems, fmt.Sprintf("language %q (zh or en)", p.Language))
	}
	if p.TopN < 1 {
		problems = append(problems, fmt.Sprintf("top_n %d (≥ 1)", p.TopN))
	}
	if p.Trim < 0 || p.Trim >= 0.5 {
		problems = append(problems, fmt.Sprintf("trim %g (0 ≤ trim < 0.5)", p.Trim))
	}
	if p.Thresholds.MinQuestions < 0 {
		problems = append(problems, fmt.Sprintf("thresholds.min_questions %d (≥ 0)", p.Thresholds.MinQuestions))
	}
	if p.Subset != "retrieved" && p.Subset != "all" {
		problems = append(problems, fmt.Sprintf("subset %q (retrieved or all)", p.Subset))
	}
	if _, _, err := p.WeightMode(); err != nil {
		problems = append(problems, err.Error())
	}
	if len(p.Dimensions) == 0 {
		problems = append(problems, "dimensions is empty")
	}
	if q := p.Qualify; !(q.MinReadable >= 0 && q.MinReadable <= 1) || !(q.BoundsTolerance >= 0) || q.MinUnits < 0 {
		problems = append(problems, fmt.Sprintf("qualify: min_readable %g (0–1), bounds_tolerance %g (≥ 0), min_units %d (≥ 0)", q.MinReadable, q.BoundsTolerance, q.MinUnits))
	}
	seen := map[string]bool{}
	for i, j := range p.Judges {
		if j.Name == "" {
			problems = append(problems, fmt.Sprintf("judge %d has no name", i+1))
		} else if seen[j.Name] {
			problems = append(problems, fmt.Sprintf("judge %q appears twice", j.Name))
		}
		seen[j.Name] = true
		if !j.Imported() && !j.Offline() && j.Model == "" {
			problems = append(problems, fmt.Sprintf("judge %q has a base_url but no model", j.Name))
		}
		if strings.Contains(strings.ToLower(j.APIKeyEnv), "sk-") {
			problems = append(problems, fmt.Sprintf("judge %q: api_key_env must name an environment variable, not hold a key", j.Name))
		}
	}
	checkCap := func(what string, ep *Endpoint) {
		if ep != nil && ep.MaxReplyBytes < 0 {
			problems = append(problems, fmt.Sprintf("%s: max_reply_bytes %d (≥ 0; 0 is the default 4 MiB)", what, ep.MaxReplyBytes))
		}
	}
	for i := range p.Judges {
		checkCap(fmt.Sprintf("judge %q", p.Judges[i].Name), &p.Judges[i])
	}
	checkCap("generator", p.Generator)
	checkCap("embedder", p.Embedder)
	checkServer := func(what string, ep *Endpoint) {
		if ep != nil && ep.Server != "" && !slices.Contains(llm.Servers, strings.ToLower(ep.Server)) {
			problems = append(problems, fmt.Sprintf("%s: server %q (%s)", what, ep.Server, strings.Join(llm.Servers, ", ")))
		}
	}
	for i := range p.Judges {
		checkServer(fmt.Sprintf("judge %q", p.Judges[i].Name), &p.Judges[i])
	}
	checkServer("generator", p.Generator)
	if p.Target != nil {
		if bad := target.CheckKind(p.Target.Kind); bad != "" {
			problems = append(problems, bad)
		}
	}
	problems = append(problems, p.Reranker.problems()...)
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s", ErrInvalid, strings.Join(problems, "; "))
	}
	return nil
}

// WeightMode returns "correlation", "equal" or "hand" and, for hand
// weights, the table.
func (p Profile) WeightMode() (string, map[string]float64, error) {
	switch w := p.Weights.(type) {
	case nil:
		return "correlation", nil, nil
	case string:
		if w == "correlation" || w == "equal" {
			return w, nil, nil
		}
		return "", nil, fmt.Errorf("weights %q (correlation, equal or a table)", w)
	case map[string]any:
		table := make(map[string]float64, len(w))
		for k, v := range w {
			switch n := v.(type) {
			case float64:
				table[k] = n
			case int64:
				table[k] = float64(n)
			default:
				return "", nil, fmt.Errorf("weights.%s is not a number", k)
			}
			if table[k] < 0 {
				return "", nil, fmt.Errorf("weights.%s is negative", k)
			}
		}
		return "hand", table, nil
	case map[string]float64:
		return "hand", w, nil
	default:
		return "", nil, fmt.Errorf("weights has type %T", w)
	}
}

// Encode writes the profile as TOML. Keys are never part of a profile, so
// the text is safe to store in a run record and show in a report.
func (p Profile) Encode() ([]byte, error) {
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(p); err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	return buf.Bytes(), nil
}
