package judge

import (
	"context"
	"testing"
)

// TestOfflineOutOfRangePinned: both offline judges store a score off an
// edited scale the same way as before their note writers shared one
// helper — the reason and the raw note, to the byte (stored runs are read
// back by these words).
func TestOfflineOutOfRangePinned(t *testing.T) {
	narrow := Dimension{Name: "completeness", Kind: KindScore, Min: 0, Max: 5}
	in := Inputs{Question: semQ, Answer: semDoc, Document: semDoc}
	cases := []struct {
		name        string
		s           Scorer
		reason, raw string
	}{
		{"lexical", NewLexical(), "out_of_range: 词汇基线得分 10 超出 0–5 | lexical score 10 is outside 0–5",
			"完整性：指南的 30 个关键词中有 30 个出现在回答中 | completeness: 30/30 key guide words in the answer"},
		{"semantic", Semantic{}, "out_of_range: 语义评分 10 超出 0–5 | semantic score 10 is outside 0–5",
			"完整性：指南 7 句中 7 句被回答覆盖，按篇幅计 100 % | completeness: 7 of 7 guide sentences covered by the answer, 100 % of the text"},
	}
	for _, c := range cases {
		out, err := c.s.Score(context.Background(), narrow, in, 1)
		if err != nil {
			t.Fatal(err)
		}
		if out.OK || out.Reason != c.reason || out.Raw != c.raw {
			t.Errorf("%s: reason %q raw %q, want %q %q", c.name, out.Reason, out.Raw, c.reason, c.raw)
		}
	}
}
