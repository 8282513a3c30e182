package ingest

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/dimension"
	"cubeworkbench/core/judge"
)

// scoreKey hashes what identifies one judgement (item, set, judge,
// dimension, repeat) with FNV-1a. Hashes keep 2.4 million judgements' keys
// in tens of megabytes; two different judgements share a hash with
// probability about n²/2⁶⁵ (10⁻⁷ at 2.4 million), so a second row with a
// seen hash is a duplicate only when its key equals the first's (see
// scoresSheet.duplicate): a collision never drops a judgement.
func scoreKey(id, set, judge, dim string, repeat int) uint64 {
	h := uint64(14695981039346656037)
	for _, part := range [...]string{id, set, judge, dim, strconv.Itoa(repeat)} {
		for i := 0; i < len(part); i++ {
			h ^= uint64(part[i])
			h *= 1099511628211
		}
		h ^= 0xff // separator: ("ab","c") and ("a","bc") differ
		h *= 1099511628211
	}
	return h
}

// scoreSeen is where a judgement was first given: the sheet (an index into
// loader.scoreSheets, since scores may go on over "scores (2)", …) and the
// judgement (an index into the workbook's Scores, which hold its row).
type scoreSeen struct {
	sheet uint16
	index int32
}

// scoreHash is scoreKey; tests make it collide.
var scoreHash = scoreKey

type scoresSheet struct {
	l     *loader
	c     *collector
	h     *header
	sheet uint16 // index into loader.scoreSheets
	idx   map[string]int
	// rows with neither score nor status: left to be judged again
	blank, firstBlank int
}

func newScoresSheet(l *loader, c *collector, h *header) *scoresSheet {
	s := &scoresSheet{l: l, c: c, h: h, sheet: uint16(len(l.scoreSheets)), idx: map[string]int{}}
	l.scoreSheets = append(l.scoreSheets, c.sheet)
	for _, k := range []string{colID, colSet, colJudge, colDimension, colScore, colRepeat, colRaw, colStatus, colReason} {
		s.idx[k] = h.index(k)
	}
	return s
}

func (s *scoresSheet) row(row int, cells []string) {
	get := func(k string) string { return cell(cells, s.idx[k]) }
	// The few distinct ids, sets, judges and dimensions are shared by
	// millions of rows: intern them so each is stored once.
	in := s.l.intern
	j := dataset.Judgement{
		ItemID: in(get(colID)), Set: in(canonicalSet(get(colSet))), Judge: in(get(colJudge)), Dimension: in(get(colDimension)),
		Raw: get(colRaw), Reason: in(get(colReason)), Row: row, Repeat: 1,
	}
	required(s.c, s.h, row, get, colID, colSet, colDimension)
	status, score := strings.ToLower(get(colStatus)), get(colScore)
	switch status {
	case "":
		if score == "" {
			if s.blank == 0 {
				s.firstBlank = row
			}
			s.blank++
			s.c.row = s.c.row[:0]
			return
		}
		j.Status = dataset.StatusOK
	case dataset.StatusOK, "正常", "有效":
		j.Status = dataset.StatusOK
	case dataset.StatusUnscorable, "无法评分", "不可评分", "无效":
		j.Status = dataset.StatusUnscorable
	default:
		s.c.rowProblem(row, s.h.label(colStatus), CodeBadStatus, SeverityError,
			fmt.Sprintf("the status %q is neither ok nor unscorable.", status),
			fmt.Sprintf("状态“%s”既不是 ok 也不是 unscorable。", status))
	}
	if j.Status == dataset.StatusOK {
		if v, ok := parseScore(score); ok {
			j.Score = v
			s.inScale(row, j.Dimension, score, v)
		} else {
			badScore(s.c, s.h, row, score, "")
		}
	}
	if r := get(colRepeat); r != "" {
		v, err := strconv.ParseFloat(r, 64)
		if err != nil || v < 1 || v != math.Trunc(v) || v > math.MaxInt32 {
			s.c.rowProblem(row, s.h.label(colRepeat), CodeBadRepeat, SeverityError,
				fmt.Sprintf("the repeat %q is not a whole number of 1 or more.", r),
				fmt.Sprintf("重复次数“%s”不是不小于 1 的整数。", r))
		} else {
			j.Repeat = int(v)
		}
	}
	knownItem(s.l, s.c, s.h, row, j.ItemID)
	if !s.c.endRow() {
		return
	}
	if first, dup := s.duplicate(j); dup {
		firstRow := s.l.wb.Scores.At(int(first.index)).Row
		where, whereZH := fmt.Sprintf("row %d", firstRow), fmt.Sprintf("第 %d 行", firstRow)
		if first.sheet != s.sheet {
			sheet := s.l.scoreSheets[first.sheet]
			where, whereZH = fmt.Sprintf("sheet %q row %d", sheet, firstRow), fmt.Sprintf("工作表“%s”第 %d 行", sheet, firstRow)
		}
		s.c.sheetProblem(row, "", CodeDuplicateScore, SeverityWarning,
			fmt.Sprintf("this judgement (id %q, set %q, judge %q, dimension %q, repeat %d) is already given at %s; only the first is used.", j.ItemID, j.Set, j.Judge, j.Dimension, j.Repeat, where),
			fmt.Sprintf("该评分（编号“%s”，答案集“%s”，评审模型“%s”，维度“%s”，第 %d 次）已在%s出现，只采用前者。", j.ItemID, j.Set, j.Judge, j.Dimension, j.Repeat, whereZH))
		return
	}
	s.l.wb.Scores.Add(j)
}

// duplicate is where j was first given, if it was; else it records j as
// the judgement about to be added. A hash seen before is a duplicate only
// when the judgement it stands for has j's key: one of another key (a
// collision) is kept, with its key in full in a map of the few such.
func (s *scoresSheet) duplicate(j dataset.Judgement) (scoreSeen, bool) {
	here := scoreSeen{sheet: s.sheet, index: int32(s.l.wb.Scores.Len())}
	key := scoreHash(j.ItemID, j.Set, j.Judge, j.Dimension, j.Repeat)
	first, seen := s.l.scoreSeen[key]
	if !seen {
		s.l.scoreSeen[key] = here
		return scoreSeen{}, false
	}
	if sameJudgement(s.l.wb.Scores.At(int(first.index)), j) {
		return first, true
	}
	full := fmt.Sprintf("%q %q %q %q %d", j.ItemID, j.Set, j.Judge, j.Dimension, j.Repeat)
	if first, seen := s.l.scoreCollided[full]; seen {
		return first, true
	}
	if s.l.scoreCollided == nil {
		s.l.scoreCollided = map[string]scoreSeen{}
	}
	s.l.scoreCollided[full] = here
	return scoreSeen{}, false
}

// sameJudgement says a and b judge the same thing: item, set, judge,
// dimension and repeat.
func sameJudgement(a, b dataset.Judgement) bool {
	return a.ItemID == b.ItemID && a.Set == b.Set && a.Judge == b.Judge && a.Dimension == b.Dimension && a.Repeat == b.Repeat
}

// inScale checks a score against its dimension's scale: a typo (55 for 5)
// would otherwise normalise far past the bounds and flip the verdict. It is
// an error of the row, so the row is skipped only when the user chooses to
// skip bad rows.
func (s *scoresSheet) inScale(row int, dim, score string, v float64) {
	sc, seen := s.l.scales[dim]
	if !seen {
		sc.lo, sc.hi, sc.ok = s.l.opt.ScoreScale(dim)
		s.l.scales[dim] = sc
	}
	if !sc.ok || v >= sc.lo && v <= sc.hi {
		return
	}
	s.c.rowProblem(row, s.h.label(colScore), CodeScoreRange, SeverityError,
		fmt.Sprintf("the score %s is outside the %s scale %g–%g; correct it (a typo such as 55 for 5 moves the verdict), or evaluate without this row.", score, dim, sc.lo, sc.hi),
		fmt.Sprintf("分数 %s 超出维度“%s”的量程 %g–%g；请更正（如把 5 误输为 55 会改变评估结论），或跳过该行后评估。", score, dimTitleZH(dim), sc.lo, sc.hi))
}

// scale is a dimension's score range, as ScoreScale gave it.
type scale struct {
	lo, hi float64
	ok     bool
}

// BuiltinScale is the scale of a built-in dimension as its embedded
// prompt template states it (core/judge: 0–10 for CuBE's, 1–5 for CoFE's
// correctness, 0–1 for a YES/NO dimension).
func BuiltinScale(dim string) (lo, hi float64, ok bool) {
	d, ok := judge.Builtin(dim)
	if !ok {
		return 0, 0, false
	}
	return float64(d.Min), float64(d.Max), true
}

// dimTitleZH names a dimension in Chinese when it is built in.
func dimTitleZH(dim string) string {
	if t, ok := dimension.Title(dim, "zh"); ok {
		return t
	}
	return dim
}

func (s *scoresSheet) finish() {
	if s.blank > 0 {
		s.c.sheetProblem(0, s.h.label(colScore), CodeMissingValue, SeverityWarning,
			fmt.Sprintf("%d row(s) have neither a score nor a status (first at row %d); they are ignored and will be judged again.", s.blank, s.firstBlank),
			fmt.Sprintf("有 %d 行既无分数也无状态（首行为第 %d 行）；这些行被忽略，将重新评分。", s.blank, s.firstBlank))
	}
}

type humanSheet struct {
	l   *loader
	c   *collector
	h   *header
	idx map[string]int
}

func newHumanSheet(l *loader, c *collector, h *header) *humanSheet {
	s := &humanSheet{l: l, c: c, h: h, idx: map[string]int{}}
	for _, k := range []string{colID, colDimension, colScore, colRater} {
		s.idx[k] = h.index(k)
	}
	return s
}

func (s *humanSheet) row(row int, cells []string) {
	get := func(k string) string { return cell(cells, s.idx[k]) }
	r := dataset.HumanRating{ItemID: get(colID), Dimension: get(colDimension), Rater: get(colRater), Row: row}
	required(s.c, s.h, row, get, colID, colDimension)
	score := get(colScore)
	if v, ok := parseScore(score); ok && v >= 0 && v <= 10 {
		r.Score = v
	} else if ok {
		badScore(s.c, s.h, row, score, " (0–10)")
	} else {
		badScore(s.c, s.h, row, score, "")
	}
	knownItem(s.l, s.c, s.h, row, r.ItemID)
	if s.c.endRow() {
		s.l.wb.Human = append(s.l.wb.Human, r)
	}
}

func (s *humanSheet) finish() {}

// parseScore reads a finite number.
func parseScore(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

func badScore(c *collector, h *header, row int, score, rng string) {
	if rng != "" {
		c.rowProblem(row, h.label(colScore), CodeBadScore, SeverityError,
			fmt.Sprintf("the score %q is outside the range 0–10.", score),
			fmt.Sprintf("分数“%s”超出 0–10 的范围。", score))
		return
	}
	c.rowProblem(row, h.label(colScore), CodeBadScore, SeverityError,
		fmt.Sprintf("the score %q is not a number.", score),
		fmt.Sprintf("分数“%s”不是数字。", score))
}

func required(c *collector, h *header, row int, get func(string) string, keys ...string) {
	for _, k := range keys {
		if get(k) == "" {
			c.rowProblem(row, h.label(k), CodeMissingValue, SeverityError,
				fmt.Sprintf("the %s is empty; it is required.", k),
				fmt.Sprintf("“%s”为空，这是必填项。", k))
		}
	}
}

// knownItem checks that a score or rating names a question of the QA set,
// when there is one. A question left out for its own errors is not
// reported again here.
func knownItem(l *loader, c *collector, h *header, row int, id string) {
	if id == "" || !l.haveQA || l.itemIDs[id] {
		return
	}
	if l.droppedItems[id] {
		c.rowProblem(row, h.label(colID), CodeUnknownItem, SeverityError,
			fmt.Sprintf("question %q was left out for its own errors, so this row is left out too.", id),
			fmt.Sprintf("问题“%s”因自身错误未被读取，因此该行也未被读取。", id))
		return
	}
	c.rowProblem(row, h.label(colID), CodeUnknownItem, SeverityError,
		fmt.Sprintf("no question of the QA set has the id %q.", id),
		fmt.Sprintf("问答集中没有编号为“%s”的问题。", id))
}
