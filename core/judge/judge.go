package judge

import (
	"context"
	"errors"
	"fmt"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/text"
)

// Outcome is one judge's reading of one answer on one dimension.
type Outcome struct {
	Score  float64 // meaningful only when OK
	OK     bool
	Raw    string // the last reply's content, kept even when unscorable
	Reason string // why not OK: "<code>: <detail>"
	Key    string // request key of the last request (run store)
	Calls  int    // endpoint calls made (replies served from the store excluded)
	Cached int    // replies served from the store
	Usage  llm.Usage
}

// Scorer is what the engine needs from a judge: the LLM Judge and the
// offline Lexical and Semantic baselines implement it.
type Scorer interface {
	Score(ctx context.Context, d Dimension, in Inputs, repeat int) (Outcome, error)
}

// Batcher is a Scorer that scores one answer on several dimensions at once
// and derives what the dimensions share (the answer's units or vectors, the
// guide's) once: the offline judges, which a run over 100,000 questions
// calls 1.2 million times each. ScoreAll's outcomes equal Score's.
type Batcher interface {
	Scorer
	ScoreAll(ctx context.Context, dims []Dimension, in Inputs) ([]Outcome, error)
}

var (
	_ Batcher = Lexical{}
	_ Batcher = Semantic{}
)

// Judge scores answers with an LLM.
type Judge struct {
	Name         string
	C            llm.Completer
	Lang         text.Lang // prompt language: zh or en
	Repeats      int       // how many times the engine asks per answer (formulas.md §1)
	ParseRetries int       // further attempts, with another seed, after an unreadable reply
	Seed         int
	MaxTokens    int // 0: the endpoint's default
}

var _ Scorer = (*Judge)(nil)

// seedStride separates the seeds of repeats so that repeat r, attempt a
// never shares a request (and so a cached reply) with another repeat.
const seedStride = 1000

// Score asks the judge once (plus up to ParseRetries retries) and parses the
// reply. The temperature is 0 and the seed is Seed + 1000·(repeat−1) +
// attempt: the retry's request key differs, so a stored unreadable reply is
// not served again. An endpoint error (after the client's own retries) is
// an unscorable outcome with the error as its reason, never a 0. The error
// is non-nil only when the prompt cannot be rendered or ctx ended.
func (j *Judge) Score(ctx context.Context, d Dimension, in Inputs, repeat int) (Outcome, error) {
	msgs, err := Render(d, j.Lang, in)
	if err != nil {
		return Outcome{}, err
	}
	if repeat < 1 {
		repeat = 1
	}
	var out Outcome
	for attempt := 0; attempt <= max(0, j.ParseRetries); attempt++ {
		seed := j.Seed + seedStride*(repeat-1) + attempt
		req := llm.Request{Messages: msgs, Temperature: 0, Seed: &seed, MaxTokens: j.MaxTokens}
		out.Key = llm.RequestKey(j.C.Model(), req)
		rep, err := j.C.Complete(ctx, req)
		// A cut-off reply is an answer, not a failed call: llm.Client
		// returns it with ErrTruncated, and it is retried with the next seed
		// like any unreadable reply.
		truncated := errors.Is(err, llm.ErrTruncated) || rep.FinishReason == "length"
		// Any other end than "stop" (content_filter,
		// insufficient_system_resource, sensitive …) is not a score either.
		unfinished := errors.Is(err, llm.ErrUnfinished) || rep.FinishReason != "" && rep.FinishReason != "stop" && !truncated
		if err != nil && !truncated && !unfinished {
			if ctx.Err() != nil {
				return Outcome{}, fmt.Errorf("judge %s: %w", j.Name, ctx.Err())
			}
			out.Calls++
			out.OK, out.Raw, out.Reason = false, "", ReasonEndpoint+": "+err.Error()
			return out, nil
		}
		if rep.Cached {
			out.Cached++ // paid for by an earlier run: no tokens spent now
		} else {
			out.Calls++
			out.Usage.PromptTokens += rep.Usage.PromptTokens
			out.Usage.CompletionTokens += rep.Usage.CompletionTokens
		}
		out.Raw = rep.Content
		if truncated {
			out.Reason = StoredReason(ReasonTruncated, "回复达到了词元上限", "the reply hit the token limit")
			continue
		}
		if unfinished {
			out.Reason = StoredReason(ReasonUnfinished, fmt.Sprintf("服务给出的结束原因是“%s”，不是正常结束", rep.FinishReason), fmt.Sprintf("finish_reason %q, not stop", rep.FinishReason))
			continue
		}
		score, ok, reason := Reparse(rep.Content, d)
		if ok {
			out.Score, out.OK, out.Reason = score, true, ""
			return out, nil
		}
		out.Reason = reason
	}
	return out, nil
}

// ReasonCode returns the code part of an Outcome's Reason.
func ReasonCode(reason string) string {
	for i := range len(reason) {
		if reason[i] == ':' {
			return reason[:i]
		}
	}
	return reason
}

// IsParseError reports whether err is a *ParseError with the given code.
func IsParseError(err error, code string) bool {
	var pe *ParseError
	return errors.As(err, &pe) && pe.Code == code
}
