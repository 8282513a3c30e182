package session

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/explain"
	"cubeworkbench/core/humancheck"
	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// ErrNoSpotCheck is returned when ratings are entered before a sample was drawn.
var ErrNoSpotCheck = refusal("尚未抽取人工抽检样本", "no spot-check sample drawn yet")

// DrawSpotCheck draws a stratified sample of the last evaluation's answers
// for people to rate (humancheck.Draw) and records its design in the run
// store, where later ratings refer to it.
func (s *Session) DrawSpotCheck(ctx context.Context, o humancheck.DrawOptions) (*humancheck.Design, error) {
	res := s.Result()
	if res == nil {
		return nil, ErrNoResult
	}
	items := make(map[string]*dataset.Item, len(res.Workbook.Items))
	for i := range res.Workbook.Items {
		items[res.Workbook.Items[i].ID] = &res.Workbook.Items[i]
	}
	var infos []humancheck.ItemInfo
	for _, d := range res.Summary.ItemDetails {
		it := items[d.ID]
		if it == nil {
			continue
		}
		info := humancheck.ItemInfo{ID: d.ID, GoldKnown: d.GoldKnown, Rank: d.Rank, Score: d.RAGOverall, Disagreement: d.DisagreementOverall}
		for _, set := range []string{dataset.SetRAG, dataset.SetZero, dataset.SetFull} {
			if strings.TrimSpace(it.Answer(set)) != "" {
				info.Sets = append(info.Sets, set)
			}
		}
		infos = append(infos, info)
	}
	d := humancheck.Draw(infos, o)
	if len(d.Tasks) == 0 {
		return nil, refusal("没有可供抽检的回答", "no answers to spot-check")
	}
	data, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	b, err := people()
	if err != nil {
		return nil, err
	}
	if d.ID, err = b.PutSpotCheck(ctx, s.StorePath, string(data)); err != nil {
		return nil, err
	}
	return d, nil
}

// SpotCheckDesign is the newest drawn sample in the run store; nil when none.
func (s *Session) SpotCheckDesign(ctx context.Context) (*humancheck.Design, error) {
	b, err := people()
	if err != nil {
		return nil, err
	}
	id, design, ok, err := b.LatestSpotCheck(ctx, s.StorePath)
	if err != nil || !ok {
		return nil, err
	}
	d := &humancheck.Design{}
	if err := json.Unmarshal([]byte(design), d); err != nil {
		return nil, fmt.Errorf("session: spot check %d in %s: %w", id, s.StorePath, err)
	}
	d.ID = id
	return d, nil
}

// SpotCards are the newest sample's answers as a rater sees them: question,
// gold guide and answer, no set and no score.
func (s *Session) SpotCards(ctx context.Context) ([]humancheck.Card, error) {
	d, err := s.SpotCheckDesign(ctx)
	if err != nil || d == nil {
		return nil, err
	}
	return humancheck.Cards(d, s.Shown()), nil
}

// SpotDimensions are the dimensions people rate: the last evaluation's.
func (s *Session) SpotDimensions() []string {
	if r := s.Result(); r != nil && r.Summary.Result != nil {
		return slices.Clone(r.Summary.Dimensions)
	}
	return nil
}

// Rubric is a dimension's scoring guidance as the judges read it.
func (s *Session) Rubric(dimension string, lang text.Lang) string {
	_, p := s.last()
	return humancheck.Rubric(dimension, lang, p.PromptDir)
}

// Rate stores one rating of the newest sample's answer seq at once (so a
// closed window loses nothing) and refreshes the agreement figures.
func (s *Session) Rate(ctx context.Context, seq int, rater, dimension string, score float64) error {
	rater = strings.TrimSpace(rater)
	if rater == "" {
		return refusal("评分需要填写评分人姓名", "a rating needs the rater's name")
	}
	if !(score >= 0 && score <= 10) {
		return refusal(fmt.Sprintf("评分 %v 不在 0–10 之间", score), fmt.Sprintf("score %v is outside 0–10", score))
	}
	d, err := s.SpotCheckDesign(ctx)
	if err != nil {
		return err
	}
	t, ok := d.Task(seq)
	if !ok {
		return ErrNoSpotCheck
	}
	b, err := people()
	if err != nil {
		return err
	}
	return b.PutHumanRating(ctx, s.StorePath, StoredRating{CheckID: d.ID, Seq: seq, Rater: rater, ItemID: t.ItemID, Set: t.Set, Dimension: dimension, Score: score})
}

// RatingsBy is what rater has entered on the newest sample: answer seq →
// dimension → score, so the rating screen resumes where they stopped.
func (s *Session) RatingsBy(ctx context.Context, rater string) (map[int]map[string]float64, error) {
	out := map[int]map[string]float64{}
	rs, _, err := s.spotRatings(ctx)
	for _, r := range rs {
		if r.Rater == rater {
			if out[r.Seq] == nil {
				out[r.Seq] = map[string]float64{}
			}
			out[r.Seq][r.Dimension] = r.Score
		}
	}
	return out, err
}

func (s *Session) spotRatings(ctx context.Context) ([]StoredRating, *humancheck.Design, error) {
	d, err := s.SpotCheckDesign(ctx)
	if err != nil || d == nil {
		return nil, d, err
	}
	b, err := people()
	if err != nil {
		return nil, d, err
	}
	rs, err := b.HumanRatings(ctx, s.StorePath, d.ID)
	return rs, d, err
}

// HumanAgreement sets people's ratings beside the last evaluation's judges
// (humancheck.Compute) and keeps the outcome in its summary, where the
// report and SUMMARY.json find it. The ratings are the newest spot check's
// when it has any, weighted by its design; else the workbook's human sheet,
// unweighted. nil without ratings.
func (s *Session) HumanAgreement(ctx context.Context) (*humancheck.Result, error) {
	res, p := s.last()
	if res == nil || res.Summary.Result == nil {
		return nil, ErrNoResult
	}
	stored, d, err := s.spotRatings(ctx)
	if err != nil {
		return nil, err
	}
	in := humancheck.Input{Scores: res.Workbook.Scores, Dimensions: res.Summary.Dimensions, Recall: res.Summary.RecallAtK, Seed: p.Seed}
	for _, j := range res.Summary.Judges {
		in.Judges = append(in.Judges, j.Judge)
	}
	if len(stored) > 0 {
		in.Design, in.SetAside = d, len(res.Workbook.Human)
		for _, r := range stored {
			in.Ratings = append(in.Ratings, humancheck.Rating{Rater: r.Rater, ItemID: r.ItemID, Set: r.Set, Dimension: r.Dimension, Score: r.Score})
		}
	} else {
		for _, h := range res.Workbook.Human {
			in.Ratings = append(in.Ratings, humancheck.Rating{Rater: h.Rater, ItemID: h.ItemID, Set: dataset.SetRAG, Dimension: h.Dimension, Score: h.Score})
		}
	}
	var out *humancheck.Result
	if len(in.Ratings) > 0 {
		out = humancheck.Compute(in)
	}
	s.mu.Lock()
	res.Summary.SpotCheck = out
	s.mu.Unlock()
	return out, nil
}

// withSpotRatings is the workbook with the spot check's ratings of system
// answers added to its human sheet, for the report: the human sheet holds
// rag answers only, so ratings of the bounds stay in the run store (and in
// the report's spot-check sheet).
func (s *Session) withSpotRatings(ctx context.Context, wb *dataset.Workbook) *dataset.Workbook {
	stored, _, err := s.spotRatings(ctx)
	if err != nil || len(stored) == 0 {
		return wb
	}
	c := *wb
	c.Human = slices.Clone(wb.Human)
	for _, r := range stored {
		if r.Set == dataset.SetRAG {
			c.Human = append(c.Human, dataset.HumanRating{ItemID: r.ItemID, Dimension: r.Dimension, Score: r.Score, Rater: r.Rater})
		}
	}
	return &c
}

// Seed is the last evaluation's seed (its profile's), so a draw made with
// it is the same draw again.
func (s *Session) Seed() int64 {
	_, p := s.last()
	return p.Seed
}

// spotCheckAfter sets the people's ratings beside a finished evaluation's
// judges. Ratings that cannot be read do not undo the evaluation: a
// warning names the run store instead.
func (s *Session) spotCheckAfter(ctx context.Context, sum *result.Summary) {
	if sum.Result == nil {
		return
	}
	sc, err := s.HumanAgreement(ctx)
	if err != nil {
		sum.Warnings = append(sum.Warnings, result.Warning{Source: "spot_check", Code: "spot_check_unread", Where: s.StorePath,
			Text: text.New("未能读取人工抽检评分："+err.Error(), "The spot check's ratings could not be read: "+err.Error())})
		return
	}
	// People disagreeing with every judge is a doubt about the verdict: a
	// banner, so the window, the report and the brief say it in one wording.
	if t, ok := sc.Doubt(); ok && sum.Explanation != nil {
		sum.Explanation.Banners = append(sum.Explanation.Banners, explain.Banner{Code: BannerSpotCheckDoubt, Text: t,
			Evidence: map[string]any{"judge": sc.Trust, "answers": sc.Answers}})
	}
}

// BannerSpotCheckDoubt is the banner of a spot check in which no judge
// agrees well enough with people.
const BannerSpotCheckDoubt = "spot_check_doubt"

// SpotRatings is how many ratings the newest sample has (0 when none was
// drawn): the window asks before a new draw replaces a rated one.
func (s *Session) SpotRatings(ctx context.Context) int {
	rs, _, err := s.spotRatings(ctx)
	if err != nil {
		return 0
	}
	return len(rs)
}

// SpotCheck is the last evaluation's spot check as HumanAgreement last set
// it; nil before an evaluation or without ratings. Safe from any goroutine.
func (s *Session) SpotCheck() *humancheck.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.result == nil {
		return nil
	}
	return s.result.Summary.SpotCheck
}
