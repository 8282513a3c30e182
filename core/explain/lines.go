package explain

import "cubeworkbench/core/text"

// Lines is the explanation as plain lines in lang, in
// the order a text screen, the CLI or the report's first page shows it:
// banners, bullets, the questions needed for ±5, then recommendations.
func (e Explanation) Lines(lang text.Lang) []string {
	pick := func(zh, en string) string { return text.New(zh, en).In(lang) }
	var out []string
	for _, b := range e.Banners {
		out = append(out, "⚠ "+pick(b.ZH, b.EN))
	}
	for _, b := range e.Bullets {
		out = append(out, "• "+pick(b.ZH, b.EN))
	}
	if p := pick(e.Precision.ZH, e.Precision.EN); p != "" {
		out = append(out, "• "+p)
	}
	for _, r := range e.Recommendations {
		out = append(out, "→ "+pick(r.ZH, r.EN))
	}
	return out
}
