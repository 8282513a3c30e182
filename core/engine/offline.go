package engine

import (
	"context"
	"runtime"
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
//   - The judgements go straight into the workbook's columns
//     (dataset.Scores), which keep one copy of each distinct note (Raw):
//     the notes take few distinct values ("relevance: 3/5 question words
//     in the answer"), and a million copies of them were once the run's
//     largest memory.
//   - Progress is told once per answer, not once per judgement.
func (r *runner) judgeOffline(ctx context.Context, name string, b judge.Batcher, dims []judge.Dimension, sets []string, tasks []judgeTask, idx map[string]int) error {
	counter := newStepCounter(r.opt.Progress, StepJudge, name, len(tasks))
	defer counter.finish()
	groups := answerGroups(tasks)
	// The judgements go straight into the scores, which judgeAll made room
	// for, in task order: each worker writes its answers' judgements in
	// place, one answer at a time under the lock (the columns' tables are
	// shared).
	base := r.wb.Scores.Len()
	r.wb.Scores.Extend(len(tasks))
	var mu sync.Mutex
	put := func(at int, js []dataset.Judgement) {
		mu.Lock()
		defer mu.Unlock()
		for k, j := range js {
			r.wb.Scores.Set(base+at+k, j)
		}
	}
	workers := runtime.GOMAXPROCS(0)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = r.judgeGroups(ctx, name, b, dims, sets, tasks, groups, w, workers, idx, put, counter)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			r.wb.Scores.Truncate(base) // a cancelled run keeps no half-made judgements
			return err
		}
	}
	return ctx.Err()
}

// answerGroups splits tasks, which owedJudgements lists answer by answer,
// into runs of one item, set and repeat: the start of each run, and then
// len(tasks).
func answerGroups(tasks []judgeTask) []int32 {
	var out []int32
	for start := 0; start < len(tasks); {
		end := start + 1
		for end < len(tasks) && tasks[end].item == tasks[start].item && tasks[end].set == tasks[start].set && tasks[end].repeat == tasks[start].repeat {
			end++
		}
		out = append(out, int32(start))
		start = end
	}
	return append(out, int32(len(tasks)))
}

// judgeGroups is one worker of judgeOffline: groups w, w+step, … .
func (r *runner) judgeGroups(ctx context.Context, name string, b judge.Batcher, dims []judge.Dimension, sets []string, tasks []judgeTask, groups []int32,
	w, step int, idx map[string]int, put func(at int, js []dataset.Judgement), counter *stepCounter) error {
	var gd []judge.Dimension
	var js []dataset.Judgement
	for g := w; g < len(groups)-1; g += step {
		if err := ctx.Err(); err != nil {
			return err
		}
		lo, hi := int(groups[g]), int(groups[g+1])
		t0 := tasks[lo]
		set := sets[t0.set]
		it := &r.wb.Items[t0.item]
		doc := ""
		if i, ok := idx[it.DocID]; ok {
			doc = r.wb.Guides[i].Text
		}
		gd = gd[:0]
		for _, t := range tasks[lo:hi] {
			gd = append(gd, dims[t.dim])
		}
		in := judge.Inputs{Question: it.Question, Answer: it.Answer(set), Document: doc, Reference: it.Reference, Contexts: r.contexts(it, idx)}
		outs, err := b.ScoreAll(ctx, gd, in)
		if err != nil {
			return err
		}
		failed := 0
		js = js[:0]
		for k, out := range outs {
			t := tasks[lo+k]
			j := dataset.Judgement{ItemID: it.ID, Set: set, Judge: name, Dimension: dims[t.dim].Name, Repeat: int(t.repeat), Raw: out.Raw}
			if out.OK {
				j.Score, j.Status = out.Score, dataset.StatusOK
			} else {
				failed++
				j.Status, j.Reason = dataset.StatusUnscorable, out.Reason
				r.problem(result.Problem{Step: StepJudge, ItemID: it.ID, Set: set, Judge: name, Dim: j.Dimension, Reason: out.Reason})
			}
			js = append(js, j)
		}
		put(lo, js)
		if failed > 0 {
			r.mu.Lock()
			r.unscor += failed
			r.mu.Unlock()
		}
		counter.addDone(hi-lo, failed)
	}
	return nil
}
