package explain

import "cubeworkbench/core/text"

// Lines is the explanation as plain lines in lang, in
// the order a text screen, the CLI or the report's first page shows it:
// banners, bullets, the questions needed for ±5, then recommendations.
func (e Explanation) Lines(lang text.Lang) []string {
	var out []string
	for _, b := range e.Banners {
		out = append(out, "⚠ "+b.In(lang))
	}
	for _, b := range e.Bullets {
		out = append(out, "• "+b.In(lang))
	}
	if p := e.Precision.In(lang); p != "" {
		out = append(out, "• "+p)
	}
	for _, r := range e.Recommendations {
		out = append(out, "→ "+r.In(lang))
	}
	return out
}
