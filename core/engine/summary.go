package engine

import (
	"time"

	"cubeworkbench/core/cube"
	"cubeworkbench/core/mfss"
)

// Summary is SUMMARY.json (cli.md). The CuBE fields sit at the top level as
// the contract shows them; MFSS and CoFE are parts of their own. Field names
// are a contract: add freely, rename none.
type Summary struct {
	ToolVersion string `json:"tool_version"`
	*cube.Result
	MFSS      *mfss.Result `json:"mfss,omitempty"`
	CoFE      any          `json:"cofe,omitempty"`
	Baselines *Baselines   `json:"baselines,omitempty"`
	Verdict   Verdict      `json:"verdict"`
	Run       RunInfo      `json:"run"`
	Problems  []Problem    `json:"problems"`
	// Skipped lists the workbook rows left out because they had errors and
	// the user chose to evaluate without them.
	Skipped []string `json:"skipped_rows,omitempty"`
}

// Verdict answers "can we deploy?" against the profile's thresholds.
type Verdict struct {
	Code       string   `json:"code"` // deployable | needs_work | not_ready | undetermined
	EN         string   `json:"en"`
	ZH         string   `json:"zh"`
	Cube       *float64 `json:"cube"`
	Deployable float64  `json:"deployable_at"`
	NeedsWork  float64  `json:"needs_work_at"`
}

// RunInfo names exactly what produced a summary.
type RunInfo struct {
	ID         int64       `json:"id"`
	Started    time.Time   `json:"started"`
	Finished   time.Time   `json:"finished"`
	Calls      int         `json:"calls"`
	Cached     int         `json:"cached"`
	Failed     int         `json:"failed"`
	Unscorable int         `json:"unscorable"`
	Deferred   int         `json:"deferred"` // requests left for a batch file (batch mode)
	Tokens     int         `json:"tokens"`
	Cost       float64     `json:"cost"`
	Judges     []JudgeInfo `json:"judge_endpoints"`
	Embedder   string      `json:"embedder"`
	Offline    bool        `json:"offline"`
	Workbook   string      `json:"workbook"`
	Store      string      `json:"store"`
}

// JudgeInfo describes a judge without its key.
type JudgeInfo struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"` // llm | lexical | imported
	Model   string `json:"model,omitempty"`
	Host    string `json:"host,omitempty"`
	Repeats int    `json:"repeats"`
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

// VerdictFor judges a CuBE score against the deployable and needs-work
// thresholds; a nil score is undetermined.
func VerdictFor(c *float64, deployable, needsWork float64) Verdict {
	v := Verdict{Cube: c, Deployable: deployable, NeedsWork: needsWork}
	switch {
	case c == nil:
		v.Code, v.EN, v.ZH = "undetermined", "Undetermined: no CuBE score could be computed", "无法判定：未能算出 CuBE 分数"
	case *c >= deployable:
		v.Code, v.EN, v.ZH = "deployable", "Deployable", "可以部署"
	case *c >= needsWork:
		v.Code, v.EN, v.ZH = "needs_work", "Needs work before deployment", "需改进后部署"
	default:
		v.Code, v.EN, v.ZH = "not_ready", "Not ready for deployment", "尚不具备部署条件"
	}
	return v
}
