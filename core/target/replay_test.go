package target

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// ragflowSession is the create-session reply of api/apps/sdk/session.py
// create() (RAGFlow v0.24.0): get_result(data=conv) with messages and
// chat_id renamed.
const ragflowSession = `{"code":0,"data":{"chat_id":"chat9","create_date":"Mon, 01 Dec 2026 09:00:00 GMT","create_time":1764579600000,"id":"5d1c6b0a9f4e4f7e8b0c2a1d3e5f7a9b","messages":[{"content":"你好！ 我是你的助理，有什么可以帮到你的吗？","role":"assistant"}],"name":"cube-eval","update_date":"Mon, 01 Dec 2026 09:00:00 GMT","update_time":1764579600000,"user_id":""}}`

// ragflowServer answers the session call with ragflowSession and the
// completion call with completion.
func ragflowServer(t *testing.T, completion string) (*fake, string) {
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		if strings.HasSuffix(r.URL.Path, "/sessions") {
			io.WriteString(w, ragflowSession)
			return
		}
		io.WriteString(w, completion)
	}}
	return f, f.start(t).URL
}

func TestRAGFlowReplays(t *testing.T) {
	cases := []struct {
		name string
		// completion is get_result(data=answer) of chat_completion
		// (api/apps/sdk/session.py v0.24.0), the answer being
		// structure_answer(...) of api/db/services/conversation_service.py.
		completion  string
		wantIDs     []string
		wantWarning string
		wantErrCode string
	}{
		{
			// dialog_service.py v0.24.0 decorate_answer: with
			// prompt_config["quote"] false refs stays [] and
			// structure_answer replaces the non-dict with {}.
			name:        "quote off: reference {}",
			completion:  `{"code":0,"data":{"answer":"办理食品经营许可需要营业执照和健康证明。","reference":{},"audio_binary":null,"prompt":"…","created_at":1764579601.2,"id":"9a8b7c6d-0000-4000-8000-000000000001","session_id":"5d1c6b0a9f4e4f7e8b0c2a1d3e5f7a9b"}}`,
			wantWarning: WarnNoReference,
		},
		{
			// dialog_service.py v0.24.0: use_kg inserts kg_retriever's chunk
			// at index 0; rag/graphrag/search.py builds it with doc_id ""
			// and docnm_kwd "Related content in Knowledge Graph";
			// chunks_format (rag/prompts/generator.py) maps them to
			// document_id/document_name.
			name: "knowledge graph pseudo-chunk at rank 0",
			completion: `{"code":0,"data":{"answer":"需要营业执照 [ID:1]。","reference":{"total":2,"chunks":[
 {"id":"0f4b…","content":"---- Entities ----\n…","document_id":"","document_name":"Related content in Knowledge Graph","dataset_id":["kb1"],"image_id":"","positions":[],"url":null,"similarity":1.0,"vector_similarity":1.0,"term_similarity":0,"doc_type":null},
 {"id":"c1","content":"材料：营业执照","document_id":"3f2a9c1e5b7d4e8f9a0b1c2d3e4f5a6b","document_name":"食品经营许可办理指南.pdf","dataset_id":"kb1","image_id":"","positions":[[1,2,3,4,5]],"url":null,"similarity":0.81,"vector_similarity":0.8,"term_similarity":0.83,"doc_type":""},
 {"id":"c2","content":"卫生许可","document_id":"7b6a5c4d3e2f1a0b9c8d7e6f5a4b3c2d","document_name":"公共场所卫生许可办理指南.pdf","dataset_id":"kb1","similarity":0.42}],
 "doc_aggs":[{"doc_name":"食品经营许可办理指南.pdf","doc_id":"3f2a9c1e5b7d4e8f9a0b1c2d3e4f5a6b","count":1}]},"audio_binary":null,"prompt":"…","created_at":1764579601.2,"id":"m2","session_id":"5d1c6b0a9f4e4f7e8b0c2a1d3e5f7a9b"}}`,
			wantIDs: []string{"3f2a9c1e5b7d4e8f9a0b1c2d3e4f5a6b", "7b6a5c4d3e2f1a0b9c8d7e6f5a4b3c2d"},
		},
		{
			// rag/llm/chat_model.py v0.24.0 _exceptions_async: after its
			// retries the model wrapper returns f"{ERROR_PREFIX}: {code} - {e}"
			// as the answer; the envelope still says code 0.
			name:        "RAGFlow's LLM failed: **ERROR** answer with code 0",
			completion:  `{"code":0,"data":{"answer":"**ERROR**: RATE_LIMIT_EXCEEDED - Error code: 429 - {'error': {'message': 'Rate limit reached'}}","reference":{},"audio_binary":null,"prompt":"","created_at":1764579601.2,"id":"m3","session_id":"5d1c6b0a9f4e4f7e8b0c2a1d3e5f7a9b"}}`,
			wantErrCode: CodeLLMError,
		},
		{
			// chat_model.py v0.24.0 chat(): a failure after part of the
			// answer returns ans + "\n**ERROR**: " + str(e).
			name:        "partial answer, then **ERROR** on its own line",
			completion:  `{"code":0,"data":{"answer":"办理食品经营许可需要\n**ERROR**: Connection error.","reference":{},"audio_binary":null,"prompt":"","created_at":1764579601.2,"id":"m5","session_id":"s"}}`,
			wantErrCode: CodeLLMError,
		},
		{
			name:       "retrieval found nothing but quote on: chunks [] is no warning",
			completion: `{"code":0,"data":{"answer":"抱歉，知识库中未找到您要的答案！","reference":{"total":0,"chunks":[],"doc_aggs":[]},"audio_binary":null,"prompt":"","created_at":1764579601.2,"id":"m4","session_id":"s"}}`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, url := ragflowServer(t, c.completion)
			tg := &RAGFlow{client: client{http: http.DefaultClient, sleep: noSleep, attempts: 2}, Base: url, ChatID: "chat9"}
			ans, err := tg.Ask(context.Background(), "开餐馆要办什么证？")
			if c.wantErrCode != "" {
				var te *Error
				if !errors.As(err, &te) || te.Code != c.wantErrCode || !te.Retryable {
					t.Fatalf("err = %v, want a retryable %s target failure; answer %q", err, c.wantErrCode, ans.Text)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, d := range ans.Retrieved {
				ids = append(ids, d.ID)
			}
			if strings.Join(ids, ",") != strings.Join(c.wantIDs, ",") {
				t.Errorf("retrieved = %v, want %v", ids, c.wantIDs)
			}
			got := ""
			if len(ans.Warnings) > 0 {
				got = ans.Warnings[0].Code
				if !strings.Contains(ans.Warnings[0].Message.ZH, "显示引文") || !strings.Contains(ans.Warnings[0].Message.EN, "Show quote") {
					t.Errorf("warning does not name the setting: %+v", ans.Warnings[0])
				}
			}
			if got != c.wantWarning {
				t.Errorf("warning = %q, want %q", got, c.wantWarning)
			}
		})
	}
}

// token_required (api/utils/api_utils.py, RAGFlow v0.24.0) answers a
// missing Authorization header with get_json_result(data=False, message=…):
// code 0, so it used to surface as "session reply has no id".
func TestRAGFlowEmptyAuthorizationIsAuthError(t *testing.T) {
	for _, msg := range []string{"`Authorization` can't be empty", "Please check your authorization format."} {
		f := &fake{handler: func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
			io.WriteString(w, `{"code":0,"data":false,"message":"`+strings.ReplaceAll(msg, "`", "`")+`"}`)
		}}
		srv := f.start(t)
		tg := &RAGFlow{client: client{http: srv.Client(), sleep: noSleep, attempts: 1}, Base: srv.URL, ChatID: "c"}
		_, err := tg.Ask(context.Background(), "q")
		var te *Error
		if !errors.As(err, &te) || !te.IsAuth() || !strings.Contains(te.Message, msg) {
			t.Fatalf("err = %v, want an auth error carrying %q", err, msg)
		}
	}
}

// difyAgentServer behaves like a Dify agent-chat app on /v1/chat-messages:
// blocking mode is refused exactly as AgentChatAppGenerator.generate
// (api/core/app/apps/agent_chat/app_generator.py) raises it and
// libs/external_api.py renders a ValueError; streaming mode returns the
// events AgentChatAppGenerateResponseConverter.convert_stream_full_response
// yields for the service API, framed by
// BaseAppGenerator.convert_to_event_stream ("data: {json}\n\n", and
// "event: ping\n\n" for pings). Dify 1.x (langgenius/dify main, 2025-2026).
func difyAgentServer(t *testing.T, endEvent string) *fake {
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if body["response_mode"] != "streaming" {
			w.WriteHeader(400)
			io.WriteString(w, `{"code":"invalid_param","message":"Agent Chat App does not support blocking mode","status":400}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: ping\n\n")
		io.WriteString(w, `data: {"event":"agent_thought","conversation_id":"c1","message_id":"m1","created_at":1764579600,"task_id":"t1","id":"th1","position":1,"thought":"","observation":"","tool":"dataset_guides","tool_labels":{},"tool_input":"{\"query\":\"开餐馆\"}","message_files":[]}`+"\n\n")
		io.WriteString(w, `data: {"event":"agent_message","conversation_id":"c1","message_id":"m1","created_at":1764579600,"task_id":"t1","id":"m1","answer":"需要"}`+"\n\n")
		io.WriteString(w, `data: {"event":"agent_message","conversation_id":"c1","message_id":"m1","created_at":1764579600,"task_id":"t1","id":"m1","answer":"营业执照。"}`+"\n\n")
		io.WriteString(w, endEvent+"\n\n")
	}}
	return f
}

// message_end of MessageEndStreamResponse.to_dict() for the service API
// (full response: every retriever_resources field kept).
const difyEndWithResources = `data: {"event":"message_end","conversation_id":"c1","message_id":"m1","created_at":1764579601,"task_id":"t1","id":"m1","metadata":{"annotation_reply":null,"retriever_resources":[{"position":1,"dataset_id":"ds1","dataset_name":"办事指南","document_id":"0b9e4c2a-6f1d-4d8e-9a3b-5c7e1f2a4b6d","document_name":"食品经营许可办理指南.docx","data_source_type":"upload_file","segment_id":"seg1","retriever_from":"api","score":0.91,"hit_count":3,"word_count":512,"segment_position":1,"index_node_hash":"h","content":"材料：营业执照","page":null,"doc_metadata":null}],"usage":{"prompt_tokens":812,"completion_tokens":20,"total_tokens":832,"latency":1.2,"currency":"USD","total_price":"0"}},"files":null}`

// With "Citations and Attributions" off the pipeline never sets
// metadata.retriever_resources: only usage is left.
const difyEndWithoutResources = `data: {"event":"message_end","conversation_id":"c1","message_id":"m1","created_at":1764579601,"task_id":"t1","id":"m1","metadata":{"annotation_reply":null,"usage":{"prompt_tokens":812,"completion_tokens":20,"total_tokens":832,"latency":1.2,"currency":"USD","total_price":"0"}},"files":null}`

func TestDifyAgentChatStreams(t *testing.T) {
	f := difyAgentServer(t, difyEndWithResources)
	srv := f.start(t)
	tg, err := New(Config{Kind: "dify", BaseURL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	ans, err := tg.Ask(context.Background(), "开餐馆要什么")
	if err != nil {
		t.Fatal(err)
	}
	if ans.Text != "需要营业执照。" || len(ans.Retrieved) != 1 || ans.Retrieved[0].ID != "0b9e4c2a-6f1d-4d8e-9a3b-5c7e1f2a4b6d" || ans.Retrieved[0].Name != "食品经营许可办理指南.docx" {
		t.Fatalf("answer = %+v", ans)
	}
	if len(ans.Warnings) != 0 {
		t.Errorf("warnings = %+v", ans.Warnings)
	}
}

func TestDifyCitationsOffWarns(t *testing.T) {
	f := difyAgentServer(t, difyEndWithoutResources)
	srv := f.start(t)
	tg, _ := New(Config{Kind: "dify", BaseURL: srv.URL + "/v1"})
	ans, err := tg.Ask(context.Background(), "开餐馆要什么")
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Retrieved) != 0 || len(ans.Warnings) != 1 || ans.Warnings[0].Code != WarnNoReference ||
		!strings.Contains(ans.Warnings[0].Message.ZH, "引用和归属") || !strings.Contains(ans.Warnings[0].Message.EN, "Citations and Attributions") {
		t.Fatalf("answer = %+v", ans)
	}
}

// An error inside a 200 stream: _error_to_stream_response
// (api/core/app/apps/base_app_generate_response_converter.py) for an
// InvokeError.
func TestDifyStreamErrorEvent(t *testing.T) {
	f := difyAgentServer(t, `data: {"event":"error","conversation_id":"c1","message_id":"m1","created_at":1764579601,"code":"completion_request_error","status":400,"message":"[openai] Error: quota exceeded"}`)
	srv := f.start(t)
	tg, _ := New(Config{Kind: "dify", BaseURL: srv.URL + "/v1"})
	_, err := tg.Ask(context.Background(), "q")
	var te *Error
	if !errors.As(err, &te) || te.Code != "completion_request_error" || te.Status != 400 {
		t.Fatalf("err = %v", err)
	}
}

// RAGFlow's LLM failing once is retried in a fresh session; the second
// answer is the one returned.
func TestRAGFlowLLMErrorRetried(t *testing.T) {
	completions := 0
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		if strings.HasSuffix(r.URL.Path, "/sessions") {
			io.WriteString(w, ragflowSession)
			return
		}
		completions++
		if completions == 1 {
			io.WriteString(w, `{"code":0,"data":{"answer":"**ERROR**: TIMEOUT - Request timed out.","reference":{},"audio_binary":null,"prompt":"","created_at":1764579601.2,"id":"m","session_id":"s"}}`)
			return
		}
		io.WriteString(w, ragflowCompletion)
	}}
	srv := f.start(t)
	var waits int
	spec, _ := SpecOf("ragflow")
	tg := finishing{Target: &RAGFlow{client: client{http: srv.Client(), attempts: 3, sleep: func(context.Context, time.Duration) error { waits++; return nil }}, Base: srv.URL, ChatID: "c"},
		clean: spec.Cleanup}
	ans, err := tg.Ask(context.Background(), "q")
	if err != nil || completions != 2 || waits != 1 || ans.Text != "办理需要身份证，20个工作日。" {
		t.Fatalf("ans %q err %v after %d completions, %d waits", ans.Text, err, completions, waits)
	}
}

// Dify 1.x always sends metadata.retriever_resources: TaskStateMetadata
// (api/core/app/entities/task_entities.py, langgenius/dify 1.x main,
// 2025-2026) defaults it to an empty list, and the task pipeline's
// _handle_retriever_resources fills it only when
// app_config.additional_features.show_retrieve_source ("Citations and
// Attributions") is on. With it off the message_end (and the blocking
// reply, ChatAppGenerateResponseConverter.convert_blocking_full_response:
// event, task_id, id, message_id, conversation_id, mode, answer, metadata,
// created_at) carries retriever_resources []. GET /v1/parameters says the
// setting itself: get_parameters_from_feature_dict
// (api/core/app/app_config/common/parameters_mapping/__init__.py)
// returns "retriever_resource": {"enabled": …}.
const difyEndEmptyResources = `data: {"event":"message_end","conversation_id":"c1","message_id":"m1","created_at":1764579601,"task_id":"t1","id":"m1","metadata":{"annotation_reply":null,"retriever_resources":[],"usage":{"prompt_tokens":812,"completion_tokens":20,"total_tokens":832,"latency":1.2,"currency":"USD","total_price":"0"}},"files":null}`

const difyBlockingEmptyResources = `{"event":"message","task_id":"t1","id":"m1","message_id":"m1","conversation_id":"c1","mode":"chat","answer":"需要营业执照。","metadata":{"annotation_reply":null,"retriever_resources":[],"usage":{"prompt_tokens":812,"completion_tokens":20,"total_tokens":832,"latency":1.2,"currency":"USD","total_price":"0"}},"created_at":1764579601}`

func difyParameters(enabled bool) string {
	return fmt.Sprintf(`{"opening_statement":"","suggested_questions":[],"suggested_questions_after_answer":{"enabled":false},"speech_to_text":{"enabled":false},"text_to_speech":{"enabled":false},"retriever_resource":{"enabled":%v},"annotation_reply":{"enabled":false},"more_like_this":{"enabled":false},"user_input_form":[],"sensitive_word_avoidance":{"enabled":false,"type":"","configs":[]},"file_upload":{"image":{"enabled":false,"number_limits":3,"detail":"high","transfer_methods":["remote_url","local_file"]}},"system_parameters":{"image_file_size_limit":10,"video_file_size_limit":100,"audio_file_size_limit":50,"file_size_limit":15,"workflow_file_upload_limit":10}}`, enabled)
}

func TestDifyEmptyResourcesIsCitationsOff(t *testing.T) {
	cases := []struct {
		name       string
		parameters string // "" → /parameters answers 404 (an old server, a proxy)
		reply      string // a stream's message_end, or a blocking JSON body
		blocking   bool
		wantWarn   bool
	}{
		{name: "stream, citations off", parameters: difyParameters(false), reply: difyEndEmptyResources, wantWarn: true},
		{name: "blocking, citations off", parameters: difyParameters(false), reply: difyBlockingEmptyResources, blocking: true, wantWarn: true},
		{name: "stream, parameters unknown", reply: difyEndEmptyResources, wantWarn: true},
		{name: "stream, citations on, nothing retrieved", parameters: difyParameters(true), reply: difyEndEmptyResources},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stream := difyAgentServer(t, c.reply)
			f := &fake{handler: func(w http.ResponseWriter, r *http.Request, body map[string]any) {
				switch {
				case strings.HasSuffix(r.URL.Path, "/parameters") && c.parameters != "":
					io.WriteString(w, c.parameters)
				case strings.HasSuffix(r.URL.Path, "/parameters"):
					w.WriteHeader(404)
					io.WriteString(w, `{"code":"not_found","message":"The requested URL was not found on the server.","status":404}`)
				case c.blocking:
					io.WriteString(w, c.reply)
				default:
					stream.handler(w, r, body)
				}
			}}
			srv := f.start(t)
			tg, _ := New(Config{Kind: "dify", BaseURL: srv.URL + "/v1"})
			for range 2 {
				ans, err := tg.Ask(context.Background(), "开餐馆要什么")
				if err != nil {
					t.Fatal(err)
				}
				warned := len(ans.Warnings) == 1 && ans.Warnings[0].Code == WarnNoReference &&
					strings.Contains(ans.Warnings[0].Message.ZH, "引用和归属") && strings.Contains(ans.Warnings[0].Message.EN, "Citations and Attributions")
				if warned != c.wantWarn || len(ans.Retrieved) != 0 {
					t.Fatalf("answer = %+v, want warning %v", ans, c.wantWarn)
				}
			}
			params := 0
			for _, r := range f.requests {
				if strings.HasSuffix(r.Path, "/parameters") {
					params++
				}
			}
			if params != 1 {
				t.Errorf("/parameters asked %d times, want once", params)
			}
		})
	}
}
