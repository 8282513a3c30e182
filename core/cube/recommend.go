package cube

import (
	"slices"
	"strings"
)

// maxListed caps the item ids quoted as evidence.
const maxListed = 5

// unscorableHigh is the share of unscorable replies above which the judge
// set-up itself is worth a look.
const unscorableHigh = 0.05

// find applies the rules whose thresholds Config holds. It finds; the
// words and what to do are core/explain's (explain.FromFinding).
func (e *evaluation) find(res *Result) []Finding {
	recs := []Finding{}
	cfg := e.cfg

	if res.RecallAtK != nil && *res.RecallAtK < cfg.RecallLow {
		var missed []string
		for i, it := range e.items {
			if e.goldKnown[i] && e.rank[i] == 0 && len(missed) < maxListed {
				missed = append(missed, it.ID)
			}
		}
		known := res.Items - res.UnknownGold
		recs = append(recs, Finding{Rule: RuleRecallLow, Severity: SeverityHigh,
			Evidence: Evidence{RecallAtK: *res.RecallAtK, Threshold: cfg.RecallLow, TopN: cfg.TopN,
				Missed: known - res.Retrieved, GoldKnown: known, Examples: missed},
		})
	}

	for _, d := range e.dims {
		m := res.Aggregate.Normalized[d].Mean
		if m == nil || *m >= cfg.DimensionWeak {
			continue
		}
		recs = append(recs, Finding{Rule: RuleDimensionWeak, Severity: SeverityMedium,
			Evidence: Evidence{Dimension: d, Normalized: *m, Threshold: cfg.DimensionWeak},
		})
	}

	if sd := res.Aggregate.Cube.SD; sd != nil && *sd > cfg.JudgeSDHigh {
		top := e.mostDisputed(res)
		recs = append(recs, Finding{Rule: RuleJudgesDisagree, Severity: SeverityMedium,
			Evidence: Evidence{SD: *sd, Threshold: cfg.JudgeSDHigh, Judges: len(res.Judges), Examples: top},
		})
	}
	if res.Aggregate.Cube.N == 1 {
		recs = append(recs, Finding{Rule: RuleSingleJudge, Severity: SeverityLow,
			Evidence: Evidence{Judges: len(res.Judges)},
		})
	}

	var own []string
	count := 0
	for i, d := range res.ItemDetails {
		if e.goldKnown[i] && e.rank[i] == 0 && d.RAGOverall != nil && *d.RAGOverall >= cfg.ZeroHighScore {
			count++
			if len(own) < maxListed {
				own = append(own, d.ID)
			}
		}
	}
	if count > 0 {
		recs = append(recs, Finding{Rule: RuleOwnKnowledge, Severity: SeverityLow,
			Evidence: Evidence{Items: count, Threshold: cfg.ZeroHighScore, Examples: own},
		})
	}

	for _, jr := range res.Judges {
		if jr.Judgements > 0 && float64(jr.Unscorable) > unscorableHigh*float64(jr.Judgements) {
			recs = append(recs, Finding{Rule: RuleUnscorable, Severity: SeverityMedium,
				Evidence: Evidence{Judge: jr.Judge, Unscorable: jr.Unscorable, Judgements: jr.Judgements},
			})
		}
		var bounds []string
		for _, f := range jr.Flags {
			if strings.HasSuffix(f, FlagCollapse) || strings.HasSuffix(f, FlagOutside) {
				bounds = append(bounds, f)
			}
		}
		if len(bounds) > 0 {
			recs = append(recs, Finding{Rule: RuleBounds, Severity: SeverityMedium,
				Evidence: Evidence{Judge: jr.Judge, Flags: bounds},
			})
		}
	}
	return recs
}

// mostDisputed lists the items whose judges disagree most overall.
func (e *evaluation) mostDisputed(res *Result) []string {
	type pair struct {
		id string
		sd float64
	}
	var ps []pair
	for _, d := range res.ItemDetails {
		if d.DisagreementOverall != nil {
			ps = append(ps, pair{d.ID, *d.DisagreementOverall})
		}
	}
	slices.SortStableFunc(ps, func(a, b pair) int {
		switch {
		case a.sd > b.sd:
			return -1
		case a.sd < b.sd:
			return 1
		}
		return 0
	})
	var ids []string
	for _, p := range ps[:min(len(ps), maxListed)] {
		ids = append(ids, p.id)
	}
	return ids
}
