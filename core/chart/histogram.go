package chart

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ScoreSample is every defined 0–10 score one judge gave on one dimension
// (unscorable judgements already left out, formulas.md §1).
type ScoreSample struct {
	Judge     string
	Dimension string
	Scores    []float64
}

// Histograms draws the score distribution of each judge × dimension as a grid
// of small panels (CuBE Figure 1): judges in rows, dimensions in columns, in
// order of first appearance. Scores fall in unit bins centred on 0…10, so a
// mean of repeats such as 7.5 counts in bin 8 (its half-open bin [7.5, 8.5)).
// Every panel shares one count axis so the panels compare; a combination with
// no scores shows "n/a".
func Histograms(samples []ScoreSample, o Options) (*Figure, error) {
	if err := registerFont(); err != nil {
		return nil, err
	}
	if len(samples) == 0 {
		return nil, fmt.Errorf("chart: histograms: %w", ErrNoData)
	}
	lang := o.lang()
	var judges, dims []string
	ji, di := map[string]int{}, map[string]int{}
	for _, s := range samples {
		if _, ok := ji[s.Judge]; !ok {
			ji[s.Judge] = len(judges)
			judges = append(judges, judgeName(lang, s.Judge))
		}
		if _, ok := di[s.Dimension]; !ok {
			di[s.Dimension] = len(dims)
			dims = append(dims, s.Dimension)
		}
	}
	cellsOf := make([][]bins, len(judges))
	for i := range cellsOf {
		cellsOf[i] = make([]bins, len(dims))
	}
	maxCount := 0
	for _, s := range samples {
		c := &cellsOf[ji[s.Judge]][di[s.Dimension]]
		c.add(s.Scores)
		for _, k := range c.counts {
			maxCount = max(maxCount, k)
		}
	}
	ymax := math.Max(1, float64(maxCount)*1.2)

	plots := make([][]*plot.Plot, len(judges))
	for i := range judges {
		plots[i] = make([]*plot.Plot, len(dims))
		for j := range dims {
			c := cellsOf[i][j]
			p := newPlot()
			p.Add(yGrid())
			if c.n > 0 {
				p.Add(&histBars{counts: c.counts})
				p.Add(&corner{text: fmt.Sprintf("n=%d  %s %.2f", c.n, label(lang, "mean"), c.sum/float64(c.n))})
			} else {
				p.Add(&centred{text: na(lang)})
			}
			p.X.Min, p.X.Max = -0.5, 10.5
			p.X.Tick.Marker = fixedTicks(0, 10, 2, 0)
			p.Y.Min, p.Y.Max = 0, ymax
			if i == len(judges)-1 {
				p.X.Label.Text = label(lang, "score")
			}
			if j == 0 {
				p.Y.Label.Text = label(lang, "count")
			}
			plots[i][j] = p
		}
	}
	cols := make([]string, len(dims))
	for j, d := range dims {
		cols[j] = label(lang, d)
	}
	w := vg.Length(60 + 170*len(dims))
	h := vg.Length(60 + 130*len(judges))
	return newFigure(o, &frame{title: o.title(lang, "hist.title"), body: &grid{plots: plots, rowHeads: judges, colHeads: cols}}, w, h), nil
}

// bins counts scores in the eleven unit bins centred on 0…10.
type bins struct {
	counts [11]int
	n      int // scores counted
	sum    float64
}

// add counts each score in the bin of its nearest integer, halves rounding
// up; a value outside [−0.5, 10.5) or NaN is not a 0–10 score and is left
// out, so n is what the panel draws.
func (b *bins) add(scores []float64) {
	for _, v := range scores {
		if math.IsNaN(v) || v < -0.5 || v >= 10.5 {
			continue
		}
		b.counts[int(math.Floor(v+0.5))]++
		b.n++
		b.sum += v
	}
}

// histBars draws the eleven unit bins.
type histBars struct{ counts [11]int }

func (h *histBars) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for b, n := range h.counts {
		if n == 0 {
			continue
		}
		x := float64(b)
		c.FillPolygon(okabeIto[0], []vg.Point{
			{X: tx(x - 0.42), Y: ty(0)}, {X: tx(x + 0.42), Y: ty(0)},
			{X: tx(x + 0.42), Y: ty(float64(n))}, {X: tx(x - 0.42), Y: ty(float64(n))},
		})
	}
}

// corner writes a short note in the top-left corner of the data area.
type corner struct{ text string }

func (k *corner) Plot(c draw.Canvas, _ *plot.Plot) {
	ts := textStyle(sizeValue, naText)
	ts.XAlign, ts.YAlign = draw.XLeft, draw.YTop
	c.FillText(ts, vg.Point{X: c.Min.X + 3, Y: c.Max.Y - 2}, k.text)
}

// centred writes a word in the middle of the data area.
type centred struct{ text string }

func (k *centred) Plot(c draw.Canvas, _ *plot.Plot) {
	ts := textStyle(sizeLabel, naText)
	ts.XAlign, ts.YAlign = draw.XCenter, draw.YCenter
	c.FillText(ts, c.Center(), k.text)
}
