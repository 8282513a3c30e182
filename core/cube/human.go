package cube

import (
	"math"
	"slices"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/stats"
)

// humanScale puts 0–10 scores on the paper's Table 5 scale.
const humanScale = 10

// human compares the judges' rag scores with the experts' ratings.
func (e *evaluation) human(ratings []dataset.HumanRating, byID map[string]int) *Human {
	K := len(e.dims)
	dimIdx := make(map[string]int, K)
	for k, d := range e.dims {
		dimIdx[d] = k
	}
	// per (item, dimension): each rater's mean score.
	type cell struct{ sum, n float64 }
	byRater := map[string]map[[2]int]*cell{}
	h := &Human{Dimensions: map[string]HumanDim{}, Raters: []string{}}
	for _, r := range ratings {
		i, okItem := byID[r.ItemID]
		k, okDim := dimIdx[r.Dimension]
		if !okItem || !okDim || math.IsNaN(r.Score) || math.IsInf(r.Score, 0) {
			h.Ignored++
			continue
		}
		h.Ratings++
		m := byRater[r.Rater]
		if m == nil {
			m = map[[2]int]*cell{}
			byRater[r.Rater] = m
		}
		c := m[[2]int{i, k}]
		if c == nil {
			c = &cell{}
			m[[2]int{i, k}] = c
		}
		c.sum += r.Score
		c.n++
	}
	for name := range byRater {
		h.Raters = append(h.Raters, name)
	}
	slices.Sort(h.Raters)

	itemsRated := map[int]bool{}
	var allUnits [][]float64
	for k, d := range e.dims {
		// the expert values of each rated item, rater order
		var rated []int
		values := map[int][]float64{}
		for _, name := range h.Raters {
			for key, c := range byRater[name] {
				if key[1] == k {
					if values[key[0]] == nil {
						rated = append(rated, key[0])
					}
					values[key[0]] = append(values[key[0]], c.sum/c.n)
				}
			}
		}
		slices.Sort(rated)
		hmean := make(map[int]float64, len(rated))
		var hv []float64
		for _, i := range rated {
			itemsRated[i] = true
			m, _ := stats.Mean(values[i])
			hmean[i] = m
			hv = append(hv, humanScale*m)
		}
		hd := HumanDim{N: len(rated), Mean: num(stats.Mean(hv)), SD: num(stats.SD(hv)), Judges: map[string]HumanJudge{}}
		var units [][]float64
		for _, i := range rated {
			u := slices.Clone(values[i])
			for _, c := range e.cells {
				if v, ok := c.score(sRAG, k, i); ok {
					u = append(u, v)
				}
			}
			units = append(units, u)
		}
		hd.Alpha = num(stats.KrippendorffAlphaInterval(units))
		allUnits = append(allUnits, units...)
		for j, c := range e.cells {
			var jv, hv []float64
			for _, i := range rated {
				if v, ok := c.score(sRAG, k, i); ok {
					jv = append(jv, humanScale*v)
					hv = append(hv, humanScale*hmean[i])
				}
			}
			p, pok := stats.Pearson(jv, hv)
			s, sok := stats.Spearman(jv, hv)
			hd.Judges[e.judges[j]] = HumanJudge{
				N:         len(jv),
				JudgeMean: num(stats.Mean(jv)), JudgeSD: num(stats.SD(jv)),
				HumanMean: num(stats.Mean(hv)), HumanSD: num(stats.SD(hv)),
				Pearson: num(p, pok), Spearman: num(s, sok),
			}
		}
		h.Dimensions[d] = hd
	}
	h.Items = len(itemsRated)
	h.Alpha = num(stats.KrippendorffAlphaInterval(allUnits))
	return h
}
