package explain

import (
	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/glossary"
)

// Input is what a session knows after an evaluation. Only Result and
// Verdict are needed; the rest sharpen the explanation (question texts,
// unscorable counts, banners).
type Input struct {
	Result  *cube.Result
	Verdict Verdict
	Items   []dataset.Item  // the workbook's questions, for texts and rows
	Scores  dataset.Scores  // the judgements CuBE read, for unscorable counts
	Guides  []dataset.Guide // to recognise the bundled sample
	Judges  []Judge         // as the run describes them (SUMMARY.json run.judge_endpoints)
	// SampleFile is set when the session opened the bundled sample itself
	// (the 打开示例 button, cubectl demo); the guides are checked as well.
	SampleFile bool
	Thresholds Thresholds
}

// Verdict is result.Verdict's part that explain reads: its code
// (deployable | needs_work | not_ready | undetermined) and thresholds.
type Verdict struct {
	Code         glossary.VerdictCode `json:"code"`
	Cube         *float64             `json:"cube"`
	DeployableAt float64              `json:"deployable_at"`
	NeedsWorkAt  float64              `json:"needs_work_at"`
}

// Judge is one judge of the run: engine.JudgeInfo's name and kind
// (llm | lexical | imported, or a further offline kind).
type Judge struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// Judge kinds explain knows.
const (
	KindLLM      = "llm"
	KindLexical  = "lexical"
	KindImported = "imported"
)

// Thresholds tune what counts as weak; a zero field takes its default.
type Thresholds struct {
	RecallLow float64 // guide recall (fraction) at or below this is worth a high-priority look; 0.8
	// LowScore: a question is low when its mean rag score, placed between
	// the run's bounds (0 = no-context level, 100 = gold-guide level), is
	// below this; 50. LowScoreAbs (0–10, default 5) stands in when the
	// bounds are undefined or collapse.
	LowScore        float64
	LowScoreAbs     float64
	Disagree        float64 // SD across judges of a question's score (0–10) at or above this; 2
	TargetHalfWidth float64 // the ± of the 95 % interval to plan for, in CuBE points; 5
	Weakest         int     // questions listed as weakest; 10
}

func (t Thresholds) withDefaults() Thresholds {
	def := func(v *float64, d float64) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&t.RecallLow, 0.8)
	def(&t.LowScore, 50)
	def(&t.LowScoreAbs, 5)
	def(&t.Disagree, 2)
	def(&t.TargetHalfWidth, 5)
	if t.Weakest <= 0 {
		t.Weakest = 10
	}
	return t
}

// belowDeployable says the verdict asks for changes to the system.
func (v Verdict) belowDeployable() bool {
	return v.Code == glossary.NeedsWork || v.Code == glossary.NotReady
}
