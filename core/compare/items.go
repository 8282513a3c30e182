package compare

import (
	"cmp"
	"slices"
)

// items classifies every paired question by how its weighted normalised
// score moved (per judge, and across judges by the mean of the judges that
// scored it on both sides) and lists the regressions worst first.
func (c *comparison) items() {
	res := c.res
	a, b := c.sides[0], c.sides[1]
	ja, jb := a.rep.Judges(), b.rep.Judges()
	for x, id := range c.p.ids {
		by := map[string]*float64{}
		var sum float64
		n := 0
		for j, name := range c.judges {
			va, okA := a.rep.ItemNormalized(slices.Index(ja, name), x)
			vb, okB := b.rep.ItemNormalized(slices.Index(jb, name), x)
			jd := &res.Judges[j]
			if !okA || !okB {
				by[name] = nil
				jd.NotComparable++
				continue
			}
			d := vb - va
			by[name] = ptr(d)
			sum += d
			n++
			switch {
			case d > c.tol:
				jd.Better++
			case d < -c.tol:
				jd.Worse++
			default:
				jd.Same++
			}
		}
		if n == 0 {
			res.NotComparable++
			continue
		}
		d := sum / float64(n)
		if d >= -c.tol && d <= c.tol {
			res.Same++
			continue
		}
		ia, ib := a.idx[x], b.idx[x]
		ch := Change{ID: id, Question: a.side.Items[ia].Question, RowA: a.side.Items[ia].Row, RowB: b.side.Items[ib].Row,
			SetA: a.side.set(), SetB: b.side.set(),
			AnswerA: a.side.Items[ia].Answer(a.side.set()), AnswerB: b.side.Items[ib].Answer(b.side.set()),
			Diff: d, ByJudge: by}
		if d > 0 {
			res.Better++
			res.Improvements = append(res.Improvements, ch)
		} else {
			res.Worse++
			res.Regressions = append(res.Regressions, ch)
		}
	}
	// Worst first; ties in pairing order (stable), so the list is reproducible.
	slices.SortStableFunc(res.Regressions, func(x, y Change) int { return cmp.Compare(x.Diff, y.Diff) })
	slices.SortStableFunc(res.Improvements, func(x, y Change) int { return cmp.Compare(y.Diff, x.Diff) })
	res.Regressions = nonNilChanges(res.Regressions)
	res.Improvements = nonNilChanges(res.Improvements)
}

func nonNilChanges(c []Change) []Change {
	if c == nil {
		return []Change{}
	}
	return c
}
