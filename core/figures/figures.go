// Package figures builds every chart's input from a summary, once, for the
// window, the report and the exported chart files alike: the score
// histograms of the report and of the window are drawn from the same
// per-item means (cube.Result.RAGScores), never recomputed beside them.
package figures

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"cubeworkbench/core/chart"
	"cubeworkbench/core/cofe"
	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/mfss"
	"cubeworkbench/core/result"
)

// Figure is one chart a summary allows.
type Figure struct {
	File  string // base name of the exported files
	Kind  string // histograms | heatmap_all | heatmap_retrieved | cube | bounds | mfss_radar | cofe_query_types
	Judge string // the judge of a bounds chart
	// Build draws the chart; o carries the language and, when set, the title.
	Build func(o chart.Options) (*chart.Figure, error)
}

// Label turns a dimension name into the title a chart shows; nil leaves
// the name (core/chart translates the built-in ones itself).
type Label func(dim string) string

func (l Label) of(d string) string {
	if l == nil {
		return d
	}
	return l(d)
}

// All lists the charts of s in the window's order: histograms, both
// heatmaps, CuBE per judge, the three sets per judge, the MFSS radar, CoFE
// by query type.
func All(s *result.Summary) []Figure {
	if s == nil {
		return nil
	}
	var out []Figure
	if r := s.Result; r != nil && len(r.Judges) > 0 {
		out = append(out,
			Figure{File: "histograms", Kind: "histograms", Build: func(o chart.Options) (*chart.Figure, error) {
				return chart.Histograms(Histograms(r, nil), o)
			}},
			Figure{File: "heatmap_all", Kind: "heatmap_all", Build: func(o chart.Options) (*chart.Figure, error) {
				return chart.Heatmap(Correlations(r, false, nil), titled(o, "Correlation with rank score, all cases", "与排名分的相关性（全部题目）"))
			}},
			Figure{File: "heatmap_retrieved", Kind: "heatmap_retrieved", Build: func(o chart.Options) (*chart.Figure, error) {
				return chart.Heatmap(Correlations(r, true, nil), titled(o, "Correlation with rank score, retrieved cases", "与排名分的相关性（检索命中题目）"))
			}},
			Figure{File: "cube", Kind: "cube", Build: func(o chart.Options) (*chart.Figure, error) {
				return chart.CuBEBars(JudgeScores(r), o)
			}})
		for _, j := range r.Judges {
			out = append(out, Figure{File: "bounds_" + SafeName(j.Judge), Kind: "bounds", Judge: j.Judge,
				Build: func(o chart.Options) (*chart.Figure, error) { return chart.BoundsBars(Bounds(r, j), o) }})
		}
	}
	if m := s.MFSS; m != nil && len(m.Systems) > 0 {
		out = append(out, Figure{File: "mfss_radar", Kind: "mfss_radar", Build: func(o chart.Options) (*chart.Figure, error) {
			return chart.Radar(chart.MFSSFactors, Radar(m), o)
		}})
	}
	if c := s.CoFE; c != nil && len(c.ByQueryType) > 0 {
		out = append(out, Figure{File: "cofe_query_types", Kind: "cofe_query_types", Build: func(o chart.Options) (*chart.Figure, error) {
			return chart.QueryTypeBars(QueryTypes(c), o)
		}})
	}
	return out
}

// titled gives a chart whose default title would not say which case it
// shows a title of its own, unless the caller set one.
func titled(o chart.Options, en, zh string) chart.Options {
	if o.Title == "" {
		o.Title = zh
		if o.Lang == chart.LangEN {
			o.Title = en
		}
	}
	return o
}

// Histograms are the rag scores per judge × dimension (CuBE Figure 1): one
// value per item, the mean of the judge's ok repeats.
func Histograms(r *cube.Result, label Label) []chart.ScoreSample {
	var out []chart.ScoreSample
	for j, jr := range r.Judges {
		for k, d := range r.Dimensions {
			out = append(out, chart.ScoreSample{Judge: jr.Judge, Dimension: label.of(d), Scores: r.RAGScores.Column(j, k)})
		}
	}
	return out
}

// Correlations is r(rank score, rag score) per judge × dimension, over all
// cases or over the retrieved ones.
func Correlations(r *cube.Result, retrieved bool, label Label) chart.Matrix {
	m := chart.Matrix{Cols: make([]string, len(r.Dimensions))}
	for k, d := range r.Dimensions {
		m.Cols[k] = label.of(d)
	}
	for _, j := range r.Judges {
		src := j.CorrelationAll
		if retrieved {
			src = j.CorrelationRetrieved
		}
		row := make([]*float64, len(r.Dimensions))
		for i, d := range r.Dimensions {
			row[i] = src[d]
		}
		m.Rows = append(m.Rows, j.Judge)
		m.Values = append(m.Values, row)
	}
	return m
}

// JudgeScores is CuBE per judge with its interval, and the mean.
func JudgeScores(r *cube.Result) chart.JudgeScores {
	var s chart.JudgeScores
	est := func(v *float64, ci *[2]float64) chart.Estimate {
		e := chart.Estimate{Value: v}
		if ci != nil {
			lo, hi := ci[0], ci[1]
			e.Lo, e.Hi = &lo, &hi
		}
		return e
	}
	for _, j := range r.Judges {
		s.Judges = append(s.Judges, j.Judge)
		s.Scores = append(s.Scores, est(j.Cube, j.CubeCI95))
	}
	s.Mean = est(r.Aggregate.Cube.Mean, r.Aggregate.CubeCI95)
	return s
}

// Bounds is one judge's trimmed means of the three sets per dimension.
func Bounds(r *cube.Result, j cube.JudgeResult) chart.Bounds {
	b := chart.Bounds{Judge: j.Judge, Dimensions: r.Dimensions}
	for _, d := range r.Dimensions {
		b.Zero = append(b.Zero, j.TrimmedMeans[dataset.SetZero][d])
		b.RAG = append(b.RAG, j.TrimmedMeans[dataset.SetRAG][d])
		b.Full = append(b.Full, j.TrimmedMeans[dataset.SetFull][d])
	}
	return b
}

// Radar is each system's six MFSS factors, systems by name.
func Radar(m *mfss.Result) []chart.RadarSeries {
	names := make([]string, 0, len(m.Systems))
	for n := range m.Systems {
		names = append(names, n)
	}
	sort.Strings(names)
	var series []chart.RadarSeries
	for _, n := range names {
		f := m.Systems[n]
		vals := map[string]float64{"accuracy": f.Accuracy, "factual": f.FactualConsistency, "conciseness": f.Conciseness,
			"readability": f.Readability, "coherence": f.Coherence, "rouge": f.Rouge}
		rs := chart.RadarSeries{Name: n}
		for _, a := range chart.MFSSFactors {
			v := vals[a]
			rs.Values = append(rs.Values, &v)
		}
		series = append(series, rs)
	}
	return series
}

// QueryTypes is CoFE-RAG's four retrieval metrics per query type.
func QueryTypes(c *cofe.Result) chart.TypeMetrics {
	types := slices.Sorted(maps.Keys(c.ByQueryType))
	m := chart.TypeMetrics{Types: types}
	for _, metric := range []string{"accuracy@k", "recall", "coverage", "hit"} {
		ser := chart.Series{Name: metric}
		for _, q := range types {
			x := c.ByQueryType[q]
			ser.Values = append(ser.Values, map[string]*float64{"accuracy@k": x.AccuracyAtK, "recall": x.Recall,
				"coverage": x.Coverage, "hit": x.MeanHitScore}[metric])
		}
		m.Metrics = append(m.Metrics, ser)
	}
	return m
}

// SafeName makes a judge's name a file name.
func SafeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == ' ' || r == '*' || r == '?' {
			return '_'
		}
		return r
	}, s)
}
