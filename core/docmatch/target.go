package docmatch

import (
	"context"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/target"
)

// Tracked is a target whose answers come back with their documents mapped
// to guide ids and counted in a Tally.
type Tracked struct {
	target.Target
	Tally *Tally
}

// Ask asks the wrapped target and maps the answer's documents.
func (t *Tracked) Ask(ctx context.Context, question string) (target.Answer, error) {
	ans, err := t.Target.Ask(ctx, question)
	if err != nil {
		return ans, err
	}
	return t.Tally.Map(ans), nil
}

// Tracker plugs document matching into an evaluation without changing the
// engine: pass Tracker.NewTarget as engine.Options.NewTarget, run, then
// read Tracker.Report().
//
//	tr := docmatch.NewTracker(wb.Guides, nil, func(w target.Warning) { fmt.Fprintln(stderr, w.Message.In(lang)) })
//	opt.NewTarget = tr.NewTarget
//	res, err := engine.Run(ctx, wb, opt)
//	rep := tr.Report() // show rep.Messages(lang, 20); rep.Loud() → a warning, rep.RecallMissing() → Recall@k n/a
type Tracker struct {
	tally *Tally
	build func(profile.Target) (target.Target, error)
}

// NewTracker matches against guides. build makes the real connector
// (target.New when nil); onWarning is called once per target warning code.
func NewTracker(guides []dataset.Guide, build func(profile.Target) (target.Target, error), onWarning func(target.Warning)) *Tracker {
	if build == nil {
		build = target.New
	}
	return &Tracker{tally: NewTally(New(guides), onWarning), build: build}
}

// NewTarget builds the connector and wraps it.
func (tr *Tracker) NewTarget(cfg profile.Target) (target.Target, error) {
	tg, err := tr.build(cfg)
	if err != nil {
		return nil, err
	}
	return &Tracked{Target: tg, Tally: tr.tally}, nil
}

// Report is the mapping report of every answer asked so far.
func (tr *Tracker) Report() Report { return tr.tally.Report() }
