package cofe

import (
	"strings"
	"unicode"
)

// Clean keeps letters, numbers and underscores (Unicode classes, so Han
// too), lowercases, then replaces "一一" with "一" (formulas.md §3). It is
// the reference's re.sub(r"[^\w\u4e00-\u9fa5]+", "", t) followed by
// .replace('一一','一') and .lower(): Python's \w is str.isalnum() plus "_",
// which is Go's IsLetter or IsNumber (Nd, Nl and No all count; combining
// marks do not). Replacement is left to right without overlap, as Python's:
// "一一一" becomes "一一".
func Clean(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return strings.ReplaceAll(b.String(), "一一", "一")
}

// Verdict is the full outcome of matching one query's keywords.
type Verdict struct {
	HitScore float64  // hit groups / groups; 0 when there are no groups
	Gold     bool     // every group hit (and at least one group)
	Hits     int      // fine groups hit
	Groups   int      // fine groups
	Relevant int      // chunks holding a coarse keyword
	Missing  []string // cleaned fine keywords not found, in group order
}

// Match returns the hit score and gold flag of one query over a ranked chunk
// list (formulas.md §3). Chunk texts are raw; they and the keywords are
// cleaned here.
//
// Edge cases, decided:
//   - zero fine groups: hit score 0, not gold. 0/0 is undefined and the
//     reference skips such a query while keeping it in the denominator,
//     i.e. counts it as a miss; Evaluate reports it as an empty-keyword query.
//   - an empty group (zh example 102, fine = [[]]) is hit, as the formula
//     says, even when no chunk is relevant.
//   - an empty coarse list makes no chunk relevant, so S is "" and every
//     non-empty group misses; Evaluate reports the query.
//   - a keyword that cleans to "" (zh example 2478 has "☆") is a substring
//     of everything: as a coarse keyword it makes every chunk relevant, as a
//     fine keyword it is always found — the reference behaves the same way.
func Match(chunks []string, coarse []string, fine [][]string) (hitScore float64, gold bool) {
	v := Find(cleanAll(chunks), coarse, fine)
	return v.HitScore, v.Gold
}

func cleanAll(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = Clean(t)
	}
	return out
}

// Find matches keywords against chunk texts that are ALREADY cleaned (so a
// corpus is cleaned once, not once per query) and explains the outcome.
func Find(cleaned []string, coarse []string, fine [][]string) Verdict {
	cc := cleanAll(coarse)
	var s strings.Builder
	v := Verdict{Groups: len(fine)}
	for _, c := range cleaned {
		for _, k := range cc {
			if strings.Contains(c, k) {
				s.WriteString(c)
				v.Relevant++
				break
			}
		}
	}
	joined := s.String()
	for _, g := range fine {
		hit := true
		for _, k := range g {
			if k = Clean(k); !strings.Contains(joined, k) {
				hit = false
				v.Missing = append(v.Missing, k)
			}
		}
		if hit {
			v.Hits++
		}
	}
	if v.Groups > 0 {
		v.HitScore = float64(v.Hits) / float64(v.Groups)
		v.Gold = v.Hits == v.Groups
	}
	return v
}

// EmptyKeywords reports whether a query lacks coarse keywords or fine
// keywords altogether (no groups, or only empty groups); such queries stay
// in every denominator and are listed in the result.
func EmptyKeywords(coarse []string, fine [][]string) bool {
	if len(coarse) == 0 {
		return true
	}
	for _, g := range fine {
		if len(g) > 0 {
			return false
		}
	}
	return true
}
