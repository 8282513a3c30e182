package fakeai

import (
	"fmt"
	"regexp"
	"strings"
)

var (
	guideTitle = regexp.MustCompile(`事项名称[：:]\s*([^\n]+)`)
	askedType  = regexp.MustCompile(`问题类型：([^（\n]+)`)
	askedAbout = regexp.MustCompile(`问题要问的方面：([^。\n]+)`)
)

// Generator is a responder that plays the question generator of a test set
// (prompts/generate/testquestion.zh.md: a citizen's question naming the
// guide's 事项名称, its query type and aspect), its critic
// (generate/critic: every question answerable), and answers anything else
// with DefaultResponse — so one fake serves generation, bounds, a target
// and judges.
func Generator(req ChatRequest) Response {
	p := ""
	for _, m := range req.Messages {
		p += m.Content
	}
	switch {
	case strings.Contains(p, "只凭这份指南就能回答"):
		title := "这个事项"
		if m := guideTitle.FindStringSubmatch(p); m != nil {
			title = strings.TrimSpace(m[1])
		}
		kind, about := "", "怎么办理"
		if m := askedType.FindStringSubmatch(p); m != nil {
			kind = strings.TrimSpace(m[1])
		}
		if m := askedAbout.FindStringSubmatch(p); m != nil {
			about = strings.TrimSpace(m[1])
		}
		return Response{Content: fmt.Sprintf("问题：“我想办%s，%s方面要注意什么？（%s）”", title, about, kind)}
	case strings.Contains(p, "能否仅凭这份办事指南"):
		return Response{Content: `{"answerable": true, "reason": "指南中有对应内容"}`}
	}
	return DefaultResponse(req)
}
