package target

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"cubeworkbench/core/text"
)

// Every connector owns its answer cleanup: a registry entry without one
// (markers, or "none" said with the reason) would silently pass another
// system's markers to the judges, or cut text that only looks like them.
func TestEveryConnectorOwnsItsCleanup(t *testing.T) {
	for _, s := range Specs() {
		if strings.TrimSpace(s.Cleanup.Why) == "" {
			t.Errorf("%s: no Cleanup.Why: say which markers its answers carry, and where its source writes them, or why none", s.Kind)
		}
		if len(s.Cleanup.Markers) == 0 && !strings.HasPrefix(s.Cleanup.Why, "none") {
			t.Errorf("%s: no markers, so Cleanup.Why must start with \"none\" and say why: %q", s.Kind, s.Cleanup.Why)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("register accepted a connector without a Cleanup")
		}
	}()
	register(Spec{Kind: "cleanup-guard-test"}, nil)
}

// Each system's real markers, as its source writes them, come out of its
// answers; text that is not a marker stays.
func TestCleanupPerConnector(t *testing.T) {
	cases := []struct {
		kind, name, in, want string
	}{
		// rag/nlp/search.py insert_citations (ragflow nightly b1b8cd6): " [ID:n]".
		{"ragflow", "insert_citations", "需要营业执照 [ID:0]。办结时限20个工作日 [ID:3] [ID:12]。", "需要营业执照。办结时限20个工作日。"},
		// dialog_service.py repair_bad_citation_formats leaves out-of-range ids as the model wrote them.
		{"ragflow", "unrepaired model markers", "需要营业执照【ID: 7】和健康证明(ID: 9)。", "需要营业执照和健康证明。"},
		// dialog_service.py use_sql: the Source column's " ##n$$" (and older versions' ##n$$).
		{"ragflow", "use_sql source column", "|食品经营许可| ##0$$|\n见材料##12$$。", "|食品经营许可||\n见材料。"},
		{"ragflow", "reasoning block", "<think>先查材料\n再答</think>答案 [ID:1]", "答案"},
		{"ragflow", "bare [n] is text", "依据《条例》第三条[1]办理。", "依据《条例》第三条[1]办理。"},
		// removeDatasetCiteText (FastGPT 0225519b): [24-hex](CITE), full-width, any link, and [id](CITE).
		{"fastgpt", "quote markers", "需要营业执照[6745a1f0c2b3d4e5f6a7b8c9](CITE)，20日办结【6745a1f0c2b3d4e5f6a7b8ca】(CITE)。", "需要营业执照，20日办结。"},
		{"fastgpt", "quote with a link", "需要营业执照[6745a1f0c2b3d4e5f6a7b8c9](http://fastgpt/quote?id=1)。", "需要营业执照。"},
		{"fastgpt", "prompt placeholder", "需要营业执照[id](CITE)。", "需要营业执照。"},
		{"fastgpt", "a marker cut at the end", "需要营业执照。[6745a1f0c2b3d4e5f6a7b8c9](CI", "需要营业执照。"},
		{"fastgpt", "an unclosed parenthesis keeps the text after it", "见[6745a1f0c2b3d4e5f6a7b8c9](附件一\n需要营业执照。", "见(附件一\n需要营业执照。"},
		{"fastgpt", "RAGFlow's markers are text here", "窗口编号 [ID:3]", "窗口编号 [ID:3]"},
		// Dify and MaxKB write no markers: only the reasoning block goes.
		{"dify", "reasoning block only", "<think>检索到两篇</think>需要营业执照。", "需要营业执照。"},
		// api/core/workflow/nodes/llm/node.py _THINK_PATTERN: attributes, any case.
		{"dify", "reasoning tag with attributes", "<THINK type=\"r1\">检索</THINK>\n需要营业执照。", "需要营业执照。"},
		{"dify", "nothing that looks like a marker is cut", "见第[6745a1f0c2b3d4e5f6a7b8c9]号 ##1$$", "见第[6745a1f0c2b3d4e5f6a7b8c9]号 ##1$$"},
		{"maxkb", "orphan closing reasoning tag", "先想一想</think>需要营业执照。", "需要营业执照。"},
		// base_form_node.py (MaxKB 041cf090): the form node's JSON is drawn as a form, never read.
		{"maxkb", "workflow form node", "请先填写以下信息：<form_rander>{\"form_field_list\": [{\"field\": \"name\", \"label\": \"姓名\", \"input_type\": \"TextInput\"}], \"runtime_node_id\": \"n1\", \"chat_record_id\": \"r1\", \"is_submit\": false}</form_rander>", "请先填写以下信息："},
		{"ragflow", "a form is text where MaxKB does not draw it", "<form_rander>x</form_rander>", "<form_rander>x</form_rander>"},
		{"ragflow", "Doubao's reasoning behind RAGFlow", "<seed:think>查材料</seed:think>需要营业执照 [ID:0]。", "需要营业执照。"},
		{"maxkb", "no markers", "需要营业执照 [ID:0]", "需要营业执照 [ID:0]"},
		// An OpenAI-compatible or generic endpoint may front RAGFlow or FastGPT.
		{"openai", "RAGFlow behind the OpenAI API", "需要营业执照 [ID:0]。", "需要营业执照。"},
		{"openai", "FastGPT behind the OpenAI API", "需要营业执照[6745a1f0c2b3d4e5f6a7b8c9](CITE)。", "需要营业执照。"},
		{"http", "a wrapper passing RAGFlow's answer on", "见材料##0$$和##12$$。", "见材料和。"},
		{"http", "plain", "  plain  ", "plain"},
	}
	for _, c := range cases {
		t.Run(c.kind+"/"+c.name, func(t *testing.T) {
			spec, ok := SpecOf(c.kind)
			if !ok {
				t.Fatalf("no connector %s", c.kind)
			}
			if got, _ := spec.Cleanup.Clean(c.in); got != c.want {
				t.Errorf("Clean(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// The cleanup is applied where every answer leaves the package, by the
// connector's own entry: a Dify answer keeps what only RAGFlow would mark.
func TestNewCleansWithTheConnectorsOwnCleanup(t *testing.T) {
	const stream = "data: {\"event\":\"message\",\"answer\":\"<think>想</think>需要营业执照 [ID:0]。\"}\n\n" +
		"data: {\"event\":\"message_end\",\"metadata\":{\"retriever_resources\":[{\"position\":1,\"document_id\":\"d1\",\"document_name\":\"a.pdf\",\"content\":\"材料\",\"score\":0.5}]}}\n\n"
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, _ map[string]any) { io.WriteString(w, stream) }}
	srv := f.start(t)
	tg, err := New(Config{Kind: "dify", BaseURL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := tg.Ask(context.Background(), "q")
	if err != nil {
		t.Fatal(err)
	}
	if ans.Text != "需要营业执照 [ID:0]。" {
		t.Errorf("Dify answer = %q: the reasoning block goes, RAGFlow's markers are not Dify's", ans.Text)
	}
}

// Answers stored before Warning's texts were core/text.Text wrote their
// keys as "ZH"/"EN"; they still read (stored runs keep their warnings).
func TestStoredWarningsStillRead(t *testing.T) {
	const stored = `{"text":"答","retrieved":[],"warnings":[{"Code":"no_reference","Setting":{"ZH":"显示引文","EN":"Show quote"},"Message":{"ZH":"引用关了","EN":"quote off"}}]}`
	var ans Answer
	if err := json.Unmarshal([]byte(stored), &ans); err != nil {
		t.Fatal(err)
	}
	if len(ans.Warnings) != 1 || ans.Warnings[0].Setting.In(text.ZH) != "显示引文" || ans.Warnings[0].Message.In(text.EN) != "quote off" {
		t.Fatalf("stored warning read as %+v", ans.Warnings)
	}
}

// An answer that ends inside its reasoning is no answer: what follows the
// opening tag is the system's model thinking (here it even names the right
// licence), and judged as an answer it would score what nobody was told.
// It leaves the package as ErrReasoningCut, with no text.
func TestAnswerCutInsideReasoningIsNoAnswer(t *testing.T) {
	const stream = "data: {\"event\":\"message\",\"answer\":\"<think>用户问开餐馆，应当需要食品经营许可证和营业执照，再想想时限\"}\n\n" +
		"data: {\"event\":\"message_end\",\"metadata\":{\"retriever_resources\":[]}}\n\n"
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, _ map[string]any) { io.WriteString(w, stream) }}
	srv := f.start(t)
	tg, err := New(Config{Kind: "dify", BaseURL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := tg.Ask(context.Background(), "q")
	if !errors.Is(err, ErrReasoningCut) {
		t.Fatalf("Ask = %q, %v; want ErrReasoningCut", ans.Text, err)
	}
	if ans.Text != "" {
		t.Errorf("the thinking left the package as the answer: %q", ans.Text)
	}
}

// An answer that is only the system's marks (a MaxKB workflow stopping at
// its form node, as base_form_node.py writes it) is no answer either: it
// leaves as ErrOnlyMarks, not as an empty text the judges would score.
func TestAnswerOfOnlyMarksIsNoAnswer(t *testing.T) {
	form := `<form_rander>{"form_field_list": [{"field": "idcard", "label": "身份证号", "input_type": "TextInput"}], "runtime_node_id": "n1", "chat_record_id": "` + maxkbRecID + `", "is_submit": false}</form_rander>`
	msg := strings.Replace(maxkbMessage, `"content":"<think>想一想</think>需要营业执照和健康证明。"`, `"content":`+strconv.Quote(form), 1)
	f := maxkbServer(t, "v2", maxkbRecord(maxkbParagraphsV2))
	inner := f.handler
	f.handler = func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if strings.HasPrefix(r.URL.Path, "/chat/api/chat_message/") {
			io.WriteString(w, msg)
			return
		}
		inner(w, r, body)
	}
	srv := f.start(t)
	tg, err := New(Config{Kind: "maxkb", BaseURL: srv.URL, APIVersion: "v2"})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := tg.Ask(context.Background(), "开餐馆要办什么证？")
	if !errors.Is(err, ErrOnlyMarks) || ans.Text != "" {
		t.Fatalf("Ask = %q, %v; want ErrOnlyMarks and no text", ans.Text, err)
	}
}
