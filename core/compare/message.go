package compare

import (
	"strings"

	"cubeworkbench/core/text"
)

// Message is one sentence in both product languages (core/text), with a
// stable code. Its JSON is {"code", "zh", "en"}, as before Text existed.
type Message struct {
	Code string `json:"code"`
	text.Text
}

// msg is a Message from its code and its Chinese and English forms.
func msg(code, zh, en string) Message { return Message{Code: code, Text: text.New(zh, en)} }

// Error is an input the comparison refuses, said in both languages.
type Error struct{ Message }

func (e *Error) Error() string { return "compare: " + e.EN }

func fail(code, zh, en string) error { return &Error{msg(code, zh, en)} }

// Warning and error codes.
const (
	CodeUnmatched      = "unmatched_ids"     // question ids on one side only
	CodeBoundsDiffer   = "bounds_differ"     // same id, different question or gold guide
	CodeJudgeOneSide   = "judge_one_side"    // a judge scored only one side
	CodeJudgeLeftOut   = "judge_left_out"    // a judge's ΔCuBE is undefined, so the average leaves it out
	CodeSameRetrieval  = "same_retrieval"    // both sides retrieved the same lists: ΔRecall@k is 0 by construction
	CodeJudgesDisagree = "judges_disagree"   // judges see opposite directions
	CodeNoItemScore    = "no_item_score"     // questions without a per-item score on a side
	CodeMFSSOneSide    = "mfss_one_side"     // MFSS totals for one side only
	CodeNoPairs        = "no_pairs"          // no question id on both sides
	CodeDuplicateID    = "duplicate_id"      // an id twice on one side
	CodeMissingID      = "missing_id"        // an item without an id
	CodeBoundSet       = "bound_set"         // a side names zero or full as its system
	CodeNoJudgements   = "no_judgements"     // a side has no judgement of its answer set
	CodeDimensions     = "dimensions_differ" // the sides were scored on different dimensions
	CodeOptions        = "bad_options"       // unusable options
)

// listIDs names up to max ids, then how many more.
func listIDs(ids []string, max int) (en, zh string) {
	if len(ids) <= max {
		s := strings.Join(ids, ", ")
		return s, strings.Join(ids, "、")
	}
	rest := len(ids) - max
	return strings.Join(ids[:max], ", ") + ", … (" + itoa(rest) + " more)",
		strings.Join(ids[:max], "、") + "……（另有 " + itoa(rest) + " 个）"
}
