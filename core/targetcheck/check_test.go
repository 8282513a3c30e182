package targetcheck

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/target"
)

var guides = []dataset.Guide{
	{ID: "YC-0001", Title: "食品经营许可", Text: "材料：营业执照"},
	{ID: "YC-0002", Title: "公共场所卫生许可", Text: "材料：卫生检测报告"},
}

// The RAGFlow session reply of api/apps/sdk/session.py create() (v0.24.0).
const session = `{"code":0,"data":{"chat_id":"c","id":"5d1c6b0a9f4e4f7e8b0c2a1d3e5f7a9b","messages":[{"content":"你好","role":"assistant"}],"name":"cube-eval","user_id":""}}`

func completion(reference string) string {
	return `{"code":0,"data":{"answer":"需要营业执照。","reference":` + reference + `,"audio_binary":null,"prompt":"","created_at":1764579601.2,"id":"m","session_id":"5d1c6b0a9f4e4f7e8b0c2a1d3e5f7a9b"}}`
}

const chunks = `{"total":1,"chunks":[{"id":"c1","content":"材料：营业执照","document_id":"3f2a9c1e5b7d4e8f9a0b1c2d3e4f5a6b","document_name":"%s","dataset_id":"kb1","similarity":0.8}],"doc_aggs":[]}`

func ragflow(sessionBody, completionBody string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/sessions") {
			io.WriteString(w, sessionBody)
			return
		}
		io.WriteString(w, completionBody)
	}
}

// The Dify stream of an agent-chat app (see core/target/replay_test.go for
// the server files it follows); end is the message_end event.
func dify(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

const difyStream = "event: ping\n\n" +
	`data: {"event":"agent_message","conversation_id":"c1","message_id":"m1","created_at":1764579600,"task_id":"t1","id":"m1","answer":"需要营业执照。"}` + "\n\n"

func TestCheckVerdicts(t *testing.T) {
	t.Setenv("CUBE_TEST_KEY", "ragflow-SECRETKEY123")
	cases := []struct {
		name    string
		kind    string
		handler http.HandlerFunc // nil: nothing listens
		cfg     func(url string) profile.Target
		code    string
		field   string
		zh      string // the verdict names this
	}{
		{name: "unreachable", kind: "ragflow", code: Unreachable, field: "base_url", zh: "服务地址"},
		{name: "RAGFlow wrong key (code 109, data false)", kind: "ragflow",
			// token_required, api/utils/api_utils.py v0.24.0
			handler: ragflow(`{"code":109,"data":false,"message":"Authentication error: API key is invalid!"}`, ""),
			code:    WrongKey, field: "api_key_env", zh: "API 密钥"},
		{name: "RAGFlow ≤v0.24 empty Authorization (code 0, data false)", kind: "ragflow",
			handler: ragflow("{\"code\":0,\"data\":false,\"message\":\"`Authorization` can't be empty\"}", ""),
			cfg:     func(url string) profile.Target { return profile.Target{Kind: "ragflow", BaseURL: url, ChatID: "c"} },
			code:    WrongKey, field: "api_key_env", zh: "尚未设置密钥"},
		{name: "RAGFlow wrong chat id", kind: "ragflow",
			// create(): get_error_data_result(message="You do not own the assistant."), DATA_ERROR 102
			handler: ragflow(`{"code":102,"message":"You do not own the assistant."}`, ""),
			code:    WrongID, field: "chat_id", zh: "聊天助理 ID"},
		{name: "RAGFlow's own LLM failed: its words", kind: "ragflow",
			// chat_model.py v0.24.0: ERROR_PREFIX answer with code 0
			handler: ragflow(session, `{"code":0,"data":{"answer":"**ERROR**: TIMEOUT - Request timed out.","reference":{},"audio_binary":null,"prompt":"","created_at":1764579601.2,"id":"m","session_id":"s"}}`),
			code:    Failed, zh: "**ERROR**"},
		{name: "FastGPT's workflow failed: the generic words", kind: "fastgpt",
			// the handler answers 200 with the last node's error beside the answer
			handler: dify(200, `{"error":{"message":"model overloaded"},"responseData":[],"choices":[{"message":{"role":"assistant","content":""},"finish_reason":"stop","index":0}]}`),
			code:    Failed, zh: "工作流节点"},
		{name: "RAGFlow web port instead of the API", kind: "ragflow",
			handler: ragflow("<!doctype html><html><body>RAGFlow</body></html>", ""),
			code:    Unreachable, field: "base_url", zh: "不是该系统的 API"},
		{name: "RAGFlow quote off", kind: "ragflow", handler: ragflow(session, completion(`{}`)),
			code: NoDocuments, zh: "显示引文"},
		{name: "RAGFlow documents named unlike the guides", kind: "ragflow",
			handler: ragflow(session, completion(strings.Replace(chunks, "%s", "停车场管理.pdf", 1))),
			code:    Unmatched, zh: "target_doc"},
		{name: "RAGFlow ok, uploaded file name", kind: "ragflow",
			handler: ragflow(session, completion(strings.Replace(chunks, "%s", "食品经营许可办理指南.pdf", 1))),
			code:    OK, zh: "1 个对应到办事指南"},
		{name: "RAGFlow no chat id", kind: "ragflow", handler: ragflow(session, ""),
			cfg:  func(url string) profile.Target { return profile.Target{Kind: "ragflow", BaseURL: url} },
			code: Config, field: "chat_id", zh: "聊天助理 ID"},
		{name: "Dify wrong key", kind: "dify",
			// validate_app_token (api/controllers/service_api/wraps.py) raises Unauthorized
			handler: dify(401, `{"code":"unauthorized","message":"Access token is invalid","status":401}`),
			code:    WrongKey, field: "api_key_env", zh: "应用 API 密钥"},
		{name: "Dify without /v1", kind: "dify", handler: dify(404, "<html><title>404 Not Found</title></html>"),
			code: Unreachable, field: "base_url", zh: "以 /v1 结尾"},
		{name: "FastGPT without /api: its own hint", kind: "fastgpt", handler: dify(404, "<html><title>404 Not Found</title></html>"),
			code: Unreachable, field: "base_url", zh: "以 /api 结尾"},
		{name: "Dify citations off", kind: "dify",
			handler: dify(200, difyStream+`data: {"event":"message_end","conversation_id":"c1","message_id":"m1","created_at":1764579601,"task_id":"t1","id":"m1","metadata":{"usage":{"total_tokens":9}},"files":null}`+"\n\n"),
			code:    NoDocuments, zh: "引用和归属"},
		{name: "Dify 1.x citations off: retriever_resources []", kind: "dify",
			// Dify 1.x TaskStateMetadata defaults retriever_resources to [];
			// /parameters says retriever_resource.enabled false (see
			// core/target/replay_test.go for the server files).
			handler: func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, "/parameters") {
					io.WriteString(w, `{"opening_statement":"","retriever_resource":{"enabled":false},"annotation_reply":{"enabled":false},"user_input_form":[]}`)
					return
				}
				io.WriteString(w, difyStream+`data: {"event":"message_end","conversation_id":"c1","message_id":"m1","created_at":1764579601,"task_id":"t1","id":"m1","metadata":{"annotation_reply":null,"retriever_resources":[],"usage":{"total_tokens":9}},"files":null}`+"\n\n")
			},
			code: NoDocuments, zh: "引用和归属"},
		{name: "FastGPT ok", kind: "fastgpt",
			handler: dify(200, `{"responseData":[{"moduleType":"datasetSearchNode","moduleName":"知识库搜索","quoteList":[{"id":"6745a1f0c2b3d4e5f6a7b8c9","q":"材料：营业执照","a":"","chunkIndex":0,"datasetId":"6745a0000000000000000001","collectionId":"6745a0000000000000000011","sourceName":"食品经营许可办理指南.pdf","score":[{"type":"embedding","value":0.8,"index":0}]}]}],"newVariables":{},"id":"","model":"","usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":1},"choices":[{"message":{"role":"assistant","content":"需要营业执照。"},"finish_reason":"stop","index":0}]}`),
			code:    OK, zh: "1 个对应到办事指南"},
		{name: "FastGPT wrong key (HTTP 500, code 403)", kind: "fastgpt",
			// jsonRes → processError with ERROR_RESPONSE.unAuthorization
			handler: dify(500, `{"code":403,"statusText":"unAuthorization","message":"凭证错误","data":null}`),
			code:    WrongKey, field: "api_key_env", zh: "应用 API 密钥"},
		{name: "FastGPT key of a deleted app (HTTP 500, unExist)", kind: "fastgpt",
			// AppErrEnum.unExist 应用不存在, code 502000
			// (packages/global/common/error/code/app.ts, labring/FastGPT 7c9d4a93)
			handler: dify(500, `{"code":502000,"statusText":"unExist","message":"应用不存在","data":null}`),
			code:    WrongID, field: "api_key_env", zh: "应用已不存在"},
		{name: "MaxKB v2 application not published", kind: "maxkb",
			// ChatSerializers open(): AppApiException(500, "The application has not been
			// published…") (apps/chat/serializers/chat.py, MaxKB v2.1.0-10-g121614fb; zh_CN django.po)
			handler: dify(500, `{"code":500,"message":"应用未发布，请发布后使用。","data":null}`),
			code:    WrongID, field: "api_key_env", zh: "尚未发布"},
		{name: "MaxKB v2 application deleted", kind: "maxkb",
			handler: dify(500, `{"code":500,"message":"Application does not exist","data":null}`),
			code:    WrongID, field: "api_key_env", zh: "已不存在"},
		{name: "MaxKB v2 knowledge source hidden", kind: "maxkb",
			handler: func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.URL.Path == "/chat/api/open":
					io.WriteString(w, `{"code":200,"message":"成功","data":"6f1e2d3c-b4a5-11ef-9a8b-0242ac120002"}`)
				case strings.HasPrefix(r.URL.Path, "/chat/api/chat_message/"):
					io.WriteString(w, `{"code":200,"message":"成功","data":{"chat_id":"6f1e2d3c-b4a5-11ef-9a8b-0242ac120002","id":"7a2b3c4d-b4a5-11ef-9a8b-0242ac120002","operate":true,"content":"需要营业执照。","is_end":true,"completion_tokens":9,"prompt_tokens":9}}`)
				default:
					io.WriteString(w, `{"code":200,"message":"成功","data":{"id":"7a2b3c4d-b4a5-11ef-9a8b-0242ac120002","problem_text":"q","answer_text":"需要营业执照。","padding_problem_text":null}}`)
				}
			},
			code: NoDocuments, zh: "显示知识来源"},
		{name: "MaxKB wrong key", kind: "maxkb",
			// TokenAuth: AppAuthenticationFailed(1002, …) as HTTP 401
			handler: dify(401, `{"code":1002,"message":"Authentication information is incorrect! illegal user","data":null}`),
			code:    WrongKey, field: "api_key_env", zh: "应用 API Key"},
		{name: "key variable named but unset: said before any request", kind: "maxkb",
			handler: func(w http.ResponseWriter, r *http.Request) { panic("no request may go out without the key") },
			cfg: func(url string) profile.Target {
				return profile.Target{Kind: "maxkb", BaseURL: url, APIKeyEnv: "CUBE_TEST_UNSET_KEY_VAR"}
			},
			code: WrongKey, field: "api_key_env", zh: "CUBE_TEST_UNSET_KEY_VAR"},
		{name: "OpenAI-compatible wrong model", kind: "openai",
			handler: dify(404, `{"error":{"message":"The model `+"`qwen-max-x`"+` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`),
			cfg: func(url string) profile.Target {
				return profile.Target{Kind: "openai", BaseURL: url, Model: "qwen-max-x"}
			},
			code: WrongID, field: "model", zh: "模型名称"},
		{name: "key echoed by the server never shown", kind: "dify",
			handler: dify(400, `{"code":"invalid_param","message":"bad key ragflow-SECRETKEY123","status":400}`),
			code:    Failed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			url := "http://127.0.0.1:1"
			if c.handler != nil {
				srv := httptest.NewServer(c.handler)
				defer srv.Close()
				url = srv.URL
			} else {
				srv := httptest.NewServer(http.NotFoundHandler())
				url = srv.URL
				srv.Close() // a port nothing listens on any more
			}
			cfg := profile.Target{Kind: c.kind, BaseURL: url, ChatID: "c", APIKeyEnv: "CUBE_TEST_KEY"}
			if c.kind == "dify" {
				cfg.BaseURL += "/v1"
			}
			if c.cfg != nil {
				cfg = c.cfg(url)
			}
			v := Check(context.Background(), cfg, guides, "", nil)
			text := v.Text("zh") + v.Text("en")
			if v.Code != c.code || v.Field != c.field || !strings.Contains(v.Text("zh"), c.zh) {
				t.Fatalf("verdict = %s field %q\n%s", v.Code, v.Field, text)
			}
			if strings.Contains(text, "SECRETKEY123") {
				t.Fatalf("the key is in the verdict: %s", text)
			}
		})
	}
}

func TestQuestionFromGuides(t *testing.T) {
	if q := Question(guides); q != "办理食品经营许可需要什么材料？" {
		t.Errorf("question = %q", q)
	}
	if q := Question(nil); q == "" {
		t.Error("no question without guides")
	}
}

// Test connection knows no connector by name: what a system's errors mean
// comes from its registry entry (Blame, LLMFailed), so a new connector
// brings its diagnosis with it. A string literal equal to a kind in this
// package's code is a per-kind case that belongs in the connector.
func TestNoPerKindCases(t *testing.T) {
	kinds := map[string]bool{}
	for _, k := range target.Kinds() {
		kinds[strconv.Quote(k)] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && kinds[lit.Value] {
				t.Errorf("%s: %s names a connector kind; put what it decides in the connector's registry entry", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
	}
}
