package gen

// Expert ratings (人工评分) for a sample of items, so the human-agreement part
// of a CuBE report has something to show. They follow the rag answer's level,
// with rater and dimension offsets and a little noise.

import "cubeworkbench/core/dimension"

// dimensions are CuBE's default rubric; the offsets below shape three of them.
var dimensions = dimension.Defaults()

var raters = []string{"专家A", "专家B"}

type rating struct {
	ID, Dimension, Rater string
	Score                int
}

// humanEvery picks every fourth item: 15 of 60.
const humanEvery = 4

func humanRatings(rows []row) []rating {
	r := &rng{s: seed + 1}
	base := map[int]int{levelWrong: 3, levelPartial: 5, levelGood: 7, levelFull: 9}
	var out []rating
	for i, rw := range rows {
		if i%humanEvery != 0 {
			continue
		}
		for _, dim := range dimensions {
			off := 0
			switch dim {
			case "relevance":
				if rw.Level > levelWrong {
					off = 1
				}
			case "specificity":
				if rw.Level == levelWrong {
					off = -1
				}
			case "completeness":
				if rw.Level < levelFull {
					off = -1
				}
			}
			for k, who := range raters {
				s := base[rw.Level] + off + []int{-1, 0, 0, 1}[r.intn(4)]
				if k == 1 && r.intn(2) == 0 { // 专家B is a little stricter
					s--
				}
				out = append(out, rating{ID: rw.ID, Dimension: dim, Rater: who, Score: clamp(s, 0, 10)})
			}
		}
	}
	return out
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
