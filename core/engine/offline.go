package engine

import (
	"context"
	"runtime"
	"slices"
	"sync"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/judge"
	"cubeworkbench/core/result"
)

// judgeOffline has an offline judge (lexical, semantic) make its
// judgements: one ScoreAll per answer over the dimensions it owes, on
// every core. The outcomes are those of Score, judgement by judgement; what
// differs from an LLM judge's path is only how they are made:
//
//   - The judgements are not written to the run store. The store is there
//     so that a paid reply is never paid for twice; an offline judgement
//     costs nothing, is the same on every run and is made again by every
//     run (the engine never reads stored judgements back), and 2.4 million
//     of them (100,000 questions × 3 answer sets × 4 dimensions × 2
//     judges) took longer to insert than everything else in the run.
//   - A judgement's note (Raw) is interned: the notes take few distinct
//     values ("relevance: 3/5 question words in the answer"), and a
//     million copies of them were the run's largest memory.
//   - Progress is told once per answer, not once per judgement.
func (r *runner) judgeOffline(ctx context.Context, name string, b judge.Batcher, dims []judge.Dimension, tasks []judgeTask, idx map[string]int) error {
	counter := newStepCounter(r.opt.Progress, StepJudge, name, len(tasks))
	defer counter.finish()
	groups := answerGroups(tasks)
	// The judgements go straight into the scores, which judgeAll made room for.
	base := len(r.wb.Scores)
	r.wb.Scores = slices.Grow(r.wb.Scores, len(tasks))[:base+len(tasks)]
	results := r.wb.Scores[base:]
	workers := runtime.GOMAXPROCS(0)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = r.judgeGroups(ctx, name, b, dims, tasks, groups, w, workers, idx, results, counter)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			r.wb.Scores = r.wb.Scores[:base] // a cancelled run keeps no half-made judgements
			return err
		}
	}
	return ctx.Err()
}

// answerGroups splits tasks, which owedJudgements lists answer by answer,
// into runs of one item, set and repeat: [start, end) pairs.
func answerGroups(tasks []judgeTask) [][2]int {
	var out [][2]int
	for start := 0; start < len(tasks); {
		end := start + 1
		for end < len(tasks) && tasks[end].item == tasks[start].item && tasks[end].set == tasks[start].set && tasks[end].repeat == tasks[start].repeat {
			end++
		}
		out = append(out, [2]int{start, end})
		start = end
	}
	return out
}

// judgeGroups is one worker of judgeOffline: groups w, w+step, … .
func (r *runner) judgeGroups(ctx context.Context, name string, b judge.Batcher, dims []judge.Dimension, tasks []judgeTask, groups [][2]int,
	w, step int, idx map[string]int, results []dataset.Judgement, counter *stepCounter) error {
	notes := newInterner()
	var gd []judge.Dimension
	for g := w; g < len(groups); g += step {
		if err := ctx.Err(); err != nil {
			return err
		}
		lo, hi := groups[g][0], groups[g][1]
		t0 := tasks[lo]
		it := &r.wb.Items[t0.item]
		doc := ""
		if i, ok := idx[it.DocID]; ok {
			doc = r.wb.Guides[i].Text
		}
		gd = gd[:0]
		for _, t := range tasks[lo:hi] {
			gd = append(gd, dims[t.dim])
		}
		in := judge.Inputs{Question: it.Question, Answer: it.Answer(t0.set), Document: doc, Reference: it.Reference, Contexts: r.contexts(it, idx)}
		outs, err := b.ScoreAll(ctx, gd, in)
		if err != nil {
			return err
		}
		failed := 0
		for k, out := range outs {
			t := tasks[lo+k]
			j := dataset.Judgement{ItemID: it.ID, Set: t.set, Judge: name, Dimension: dims[t.dim].Name, Repeat: t.repeat, Raw: notes.intern(out.Raw)}
			if out.OK {
				j.Score, j.Status = out.Score, dataset.StatusOK
			} else {
				failed++
				j.Status, j.Reason = dataset.StatusUnscorable, notes.intern(out.Reason)
				r.problem(result.Problem{Step: StepJudge, ItemID: it.ID, Set: t.set, Judge: name, Dim: j.Dimension, Reason: out.Reason})
			}
			results[lo+k] = j
		}
		if failed > 0 {
			r.mu.Lock()
			r.unscor += failed
			r.mu.Unlock()
		}
		counter.addDone(hi-lo, failed)
	}
	return nil
}

// internLimit bounds an interner; past it, it starts again empty.
const internLimit = 1 << 16

// interner keeps one copy of each distinct string it is given.
type interner map[string]string

func newInterner() interner { return interner{} }

func (in interner) intern(s string) string {
	if s == "" {
		return ""
	}
	if v, ok := in[s]; ok {
		return v
	}
	if len(in) >= internLimit {
		clear(in)
	}
	in[s] = s
	return s
}
