package judge

import (
	"context"
	"strings"
	"testing"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/text"
	"cubeworkbench/internal/fakeai"
)

// answerBlock is the answer a rubric prompt fences, as a judge reads it.
func answerBlock(req fakeai.ChatRequest) string {
	u := req.Messages[len(req.Messages)-1].Content
	_, rest, _ := strings.Cut(u, "<<<ANSWER")
	a, _, _ := strings.Cut(rest, "ANSWER>>>")
	return a
}

// sensible scores an answer that follows the guide high and any other low.
func sensible(format string) func(fakeai.ChatRequest) fakeai.Response {
	return func(req fakeai.ChatRequest) fakeai.Response {
		a := answerBlock(req)
		if strings.Contains(a, "户口簿") || strings.Contains(a, "household register") {
			return fakeai.Response{Content: "回答对应正确，材料、时限、收费齐全。\n" + strings.Replace(format, "%d", "9", 1)}
		}
		return fakeai.Response{Content: "答非所问。\n" + strings.Replace(format, "%d", "1", 1)}
	}
}

func probeWith(t *testing.T, lang text.Lang, respond func(fakeai.ChatRequest) fakeai.Response) (Probe, *fakeai.Server, error) {
	t.Helper()
	srv := fakeai.New(t, fakeai.WithResponder(respond))
	c, err := llm.New(llm.Endpoint{BaseURL: srv.URL(), Model: "m", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	p, err := ProbeJudge(context.Background(), c, lang, nil)
	return p, srv, err
}

// Test connection sends the real rubric prompt on the built-in pair and
// says plainly whether the reply could be read and whether the right
// answer scored higher.
func TestProbeJudge(t *testing.T) {
	cases := []struct {
		name    string
		respond func(fakeai.ChatRequest) fakeai.Response
		ok      bool
		want    []string // in the zh text
	}{
		{"sensible", sensible("评分：%d"), true, []string{"✓", "正确回答 9 分，错误回答 1 分"}},
		{"never a score", func(fakeai.ChatRequest) fakeai.Response {
			return fakeai.Response{Content: "The answer looks reasonable overall."}
		}, false, []string{"✗", "读不出分数", "无法评分"}},
		{"same score for both", func(fakeai.ChatRequest) fakeai.Response { return fakeai.Response{Content: "评分：5"} },
			false, []string{"✗", "分不清好坏"}},
		{"scores the wrong one higher", func(req fakeai.ChatRequest) fakeai.Response {
			if strings.Contains(answerBlock(req), "户口簿") {
				return fakeai.Response{Content: "评分：3"}
			}
			return fakeai.Response{Content: "评分：8"}
		}, false, []string{"✗", "正确回答（3 分）"}},
		{"content filter", func(fakeai.ChatRequest) fakeai.Response {
			return fakeai.Response{Content: "评分：9", FinishReason: "content_filter"}
		}, false, []string{"✗", "回复未正常结束", "content_filter"}},
	}
	for _, c := range cases {
		p, srv, err := probeWith(t, "zh", c.respond)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.OK() != c.ok {
			t.Errorf("%s: OK %v, want %v: %+v", c.name, p.OK(), c.ok, p)
		}
		for _, w := range c.want {
			if !strings.Contains(p.Text("zh"), w) {
				t.Errorf("%s: %q lacks %q", c.name, p.Text("zh"), w)
			}
		}
		if en := p.Text("en"); en == "" || en == p.Text("zh") {
			t.Errorf("%s: English text %q", c.name, en)
		}
		// The real rubric prompt: the relevance template's system text and
		// the pair's guide, question and answer, fenced.
		chats := srv.Chats()
		if len(chats) != 2 || !strings.Contains(chats[0].Messages[0].Content, "相关性") || !strings.Contains(chats[0].Messages[1].Content, "<<<GUIDE") {
			t.Errorf("%s: requests %+v", c.name, chats)
		}
	}
	// An endpoint that fails is an error, for the window's plain verdict.
	if _, _, err := probeWith(t, "en", func(fakeai.ChatRequest) fakeai.Response {
		return fakeai.Response{Status: 401, ErrorType: "invalid_request_error", ErrorMessage: "bad key"}
	}); err == nil {
		t.Error("a 401 is no error")
	}
	if p, _, err := probeWith(t, "en", sensible("Score: %d")); err != nil || !p.OK() || !strings.Contains(p.Text("en"), "right 9, wrong 1") {
		t.Errorf("en: %+v %v", p, err)
	}
}
