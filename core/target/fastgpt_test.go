package target

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// fastgptReply is what projects/app/src/pages/api/v1/chat/completions.ts
// (labring/FastGPT, main at 004c0f13, v4.9.x) sends for stream false,
// detail true and an app key: responseData is every node's response
// (responseAllData), the dataset search node's quoteList holding
// SearchDataResponseItemType items (packages/global/core/dataset/type.d.ts);
// the AI chat node repeats the quotes it was given. The answer carries
// FastGPT's [id](CITE) markers (removeDatasetCiteText,
// packages/global/core/ai/llm/utils.ts).
const fastgptReply = `{"responseData":[
 {"id":"n1","nodeId":"workflowStartNodeId","moduleName":"流程开始","moduleType":"workflowStart","runningTime":0},
 {"id":"n2","nodeId":"iKBoX2vIzETU","moduleName":"知识库搜索","moduleType":"datasetSearchNode","runningTime":0.61,"totalPoints":0,"query":"开餐馆要办什么证？","model":"bge-m3","similarity":0.4,"limit":3000,"searchMode":"mixedRecall","searchUsingReRank":false,
  "quoteList":[
   {"id":"6745a1f0c2b3d4e5f6a7b8c9","updateTime":"2026-11-20T08:00:00.000Z","q":"材料：营业执照、健康证明","a":"","chunkIndex":0,"datasetId":"6745a0000000000000000001","collectionId":"6745a0000000000000000011","sourceId":"6745a0000000000000000f11","sourceName":"食品经营许可办理指南.pdf","score":[{"type":"embedding","value":0.83,"index":0},{"type":"rrf","value":0.032,"index":0}]},
   {"id":"6745a1f0c2b3d4e5f6a7b8ca","updateTime":"2026-11-20T08:00:00.000Z","q":"办理时限：20个工作日","a":"","chunkIndex":3,"datasetId":"6745a0000000000000000001","collectionId":"6745a0000000000000000011","sourceId":"6745a0000000000000000f11","sourceName":"食品经营许可办理指南.pdf","score":[{"type":"embedding","value":0.71,"index":1}]},
   {"id":"6745a1f0c2b3d4e5f6a7b8cb","updateTime":"2026-11-20T08:00:00.000Z","q":"卫生许可材料","a":"","chunkIndex":1,"datasetId":"6745a0000000000000000001","collectionId":"6745a0000000000000000012","sourceName":"公共场所卫生许可办理指南.docx","score":[{"type":"embedding","value":0.52,"index":2}]}]},
 {"id":"n3","nodeId":"7BdojPlukIQw","moduleName":"AI 对话","moduleType":"chatNode","runningTime":2.1,"model":"qwen-plus","tokens":812,
  "quoteList":[{"id":"6745a1f0c2b3d4e5f6a7b8cb","q":"卫生许可材料","a":"","chunkIndex":1,"datasetId":"6745a0000000000000000001","collectionId":"6745a0000000000000000012","sourceName":"公共场所卫生许可办理指南.docx","score":[]}],
  "historyPreview":[{"obj":"Human","value":"开餐馆要办什么证？"}]}],
 "newVariables":{},"id":"","model":"","usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":1},
 "choices":[{"message":{"role":"assistant","content":"需要营业执照和健康证明[6745a1f0c2b3d4e5f6a7b8c9](CITE)，20个工作日办结【6745a1f0c2b3d4e5f6a7b8ca】(CITE)。"},"finish_reason":"stop","index":0}]}`

func fastgptServer(t *testing.T, status int, body string) *fake {
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		w.WriteHeader(status)
		io.WriteString(w, body)
	}}
	return f
}

func TestFastGPTReplay(t *testing.T) {
	t.Setenv("FG_KEY", "fastgpt-abcdefghijklmnop")
	f := fastgptServer(t, 200, fastgptReply)
	srv := f.start(t)
	tg, err := New(Config{Kind: "fastgpt", BaseURL: srv.URL + "/api/", APIKeyEnv: "FG_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := tg.Ask(context.Background(), "开餐馆要办什么证？")
	if err != nil {
		t.Fatal(err)
	}
	if ans.Text != "需要营业执照和健康证明，20个工作日办结。" {
		t.Errorf("answer %q: FastGPT's citation markers must go", ans.Text)
	}
	if len(ans.Retrieved) != 2 || ans.Retrieved[0].ID != "6745a0000000000000000011" || ans.Retrieved[0].Name != "食品经营许可办理指南.pdf" ||
		ans.Retrieved[1].Name != "公共场所卫生许可办理指南.docx" || ans.Retrieved[0].Score != 0.83 {
		t.Errorf("retrieved %+v", ans.Retrieved)
	}
	if len(ans.Contexts) != 3 || len(ans.Warnings) != 0 {
		t.Errorf("contexts %d (want the search node's 3 only), warnings %+v", len(ans.Contexts), ans.Warnings)
	}
	req := f.requests[0]
	if req.Path != "/api/v1/chat/completions" || req.Auth != "Bearer fastgpt-abcdefghijklmnop" || req.Body["detail"] != true || req.Body["stream"] != false {
		t.Errorf("request %+v", req)
	}
	if _, has := req.Body["chatId"]; has {
		t.Errorf("a chatId would carry history between questions: %+v", req.Body)
	}
}

func TestFastGPTFailures(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		auth   bool
		code   string
		warn   bool
	}{
		// jsonRes(res, {code: 500, error: ERROR_ENUM.unAuthorization}) →
		// processError → HTTP 500 with ERROR_RESPONSE's own code 403.
		{name: "bad key: HTTP 500 carrying code 403 unAuthorization", status: 500,
			body: `{"code":403,"statusText":"unAuthorization","message":"凭证错误","data":null}`, auth: true, code: "unAuthorization"},
		// authHeaderRequest rejects an account key used without appId.
		{name: "account key instead of an app key", status: 500,
			body: `{"code":500,"statusText":"error","message":"Key is error. You need to use the app key rather than the account key.","data":null}`, auth: true, code: "500"},
		// The last node's error is sent beside a 200 answer.
		{name: "workflow node failed", status: 200,
			body: `{"responseData":[],"newVariables":{},"error":{"message":"模型调用失败"},"id":"","model":"","usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":1},"choices":[{"message":{"role":"assistant","content":""},"finish_reason":"stop","index":0}]}`,
			code: CodeLLMError},
		// filterPublicNodeResponseData without responseDetail: the search
		// node is listed, its quoteList withheld.
		{name: "quotes withheld", status: 200,
			body: `{"responseData":[{"moduleType":"datasetSearchNode","runningTime":0.5},{"moduleType":"chatNode","runningTime":1.2}],"newVariables":{},"id":"","model":"","usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":1},"choices":[{"message":{"role":"assistant","content":"您好"},"finish_reason":"stop","index":0}]}`,
			warn: true},
		// An app with no dataset search node: responseData without quoteList.
		{name: "no knowledge base", status: 200,
			body: `{"responseData":[{"moduleName":"AI 对话","moduleType":"chatNode","runningTime":1.2}],"newVariables":{},"id":"","model":"","usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":1},"choices":[{"message":{"role":"assistant","content":"您好"},"finish_reason":"stop","index":0}]}`,
			warn: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := fastgptServer(t, c.status, c.body).start(t)
			tg, _ := NewOnce(Config{Kind: "fastgpt", BaseURL: srv.URL + "/api"})
			ans, err := tg.Ask(context.Background(), "q")
			if c.warn {
				if err != nil || len(ans.Warnings) != 1 || ans.Warnings[0].Code != WarnNoReference {
					t.Fatalf("err %v warnings %+v", err, ans.Warnings)
				}
				return
			}
			var te *Error
			if !errors.As(err, &te) || te.IsAuth() != c.auth || te.Code != c.code {
				t.Fatalf("err = %#v, want auth %v code %s", err, c.auth, c.code)
			}
		})
	}
}

func TestFastGPTCiteMarkers(t *testing.T) {
	in := "甲[6745a1f0c2b3d4e5f6a7b8c9](CITE)乙【6745a1f0c2b3d4e5f6a7b8ca】(CITE)丙[id](CITE)，[链接](http://x)"
	spec, _ := SpecOf("fastgpt")
	if got, _ := spec.Cleanup.Clean(in); got != "甲乙丙，[链接](http://x)" {
		t.Errorf("got %q", got)
	}
	if !strings.Contains(fastgptText([]byte(`[{"type":"text","text":{"content":"一"}},{"type":"tool"},{"type":"text","text":{"content":"二"}}]`)), "一\n二") {
		t.Error("list content not joined")
	}
}
