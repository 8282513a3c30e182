package target

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Bodies of 1Panel-dev/MaxKB, tags v1.10.10-lts and v2.1.0:
// common/response(result).success wraps data as {"code":200,"message":"成功","data":…};
// ChatSerializers.OpenChat.open returns the chat id; the blocking
// chat_message reply is SystemToResponse.to_block_response
// (common/handle/impl/response/system_to_response.py) with
// base_chat_step's answer_list; the chat record is
// reset_chat_record (v1 application/serializers/chat_serializers.py,
// v2 application/serializers/application_chat_record.py) over
// ParagraphPipelineModel.to_dict (chat_pipeline/I_base_chat_pipeline.py:
// v1 dataset_id/dataset_name, v2 knowledge_id/knowledge_name). v2 adds
// paragraph_list only when the access token's show_source is on.
const (
	maxkbAppID  = "0193a5c8-1f2e-7a4b-9c3d-5e6f7a8b9c0d"
	maxkbChatID = "6f1e2d3c-b4a5-11ef-9a8b-0242ac120002"
	maxkbRecID  = "7a2b3c4d-b4a5-11ef-9a8b-0242ac120002"
)

const maxkbProfile = `{"code":200,"message":"成功","data":{"id":"` + maxkbAppID + `","name":"政务问答","desc":"","prologue":"您好","dialogue_number":0,"icon":"/ui/favicon.ico","type":"SIMPLE","stt_model_enable":false,"tts_model_enable":false,"file_upload_enable":false}}`

const maxkbMessage = `{"code":200,"message":"成功","data":{"chat_id":"` + maxkbChatID + `","id":"` + maxkbRecID + `","operate":true,"content":"<think>想一想</think>需要营业执照和健康证明。","is_end":true,"reasoning_content":"","answer_list":[{"content":"需要营业执照和健康证明。","reasoning_content":""}],"completion_tokens":812,"prompt_tokens":20}}`

func maxkbRecord(paragraphs string) string {
	list := ""
	if paragraphs != "" {
		list = `,"dataset_list":[{"id":"ds1","name":"办事指南"}],"paragraph_list":` + paragraphs
	}
	return `{"code":200,"message":"成功","data":{"id":"` + maxkbRecID + `","chat":"` + maxkbChatID + `","vote_status":"-1","problem_text":"开餐馆要办什么证？","answer_text":"需要营业执照和健康证明。","message_tokens":812,"answer_tokens":20,"const":0,"improve_paragraph_id_list":[],"run_time":2.3,"index":0,"create_time":"2026-12-01T09:00:00","update_time":"2026-12-01T09:00:00","padding_problem_text":null` + list + `,"execution_details":[]}}`
}

const maxkbParagraphsV1 = `[
 {"id":"p1","document_id":"d-food","dataset_id":"ds1","content":"材料：营业执照","title":"材料","status":"nn2","is_active":true,"comprehensive_score":0.83,"similarity":0.83,"dataset_name":"办事指南","document_name":"食品经营许可办理指南.pdf","meta":{},"hit_handling_method":"optimization"},
 {"id":"p2","document_id":"d-food","dataset_id":"ds1","content":"时限：20个工作日","title":"","status":"nn2","is_active":true,"comprehensive_score":0.7,"similarity":0.7,"dataset_name":"办事指南","document_name":"食品经营许可办理指南.pdf","meta":{}},
 {"id":"p3","document_id":"d-hyg","dataset_id":"ds1","content":"卫生许可","title":"","status":"nn2","is_active":true,"comprehensive_score":0.5,"similarity":0.5,"dataset_name":"办事指南","document_name":"公共场所卫生许可办理指南.docx","meta":{}}]`

const maxkbParagraphsV2 = `[
 {"id":"p1","document_id":"d-food","knowledge_id":"k1","content":"材料：营业执照","title":"材料","status":"nn2","is_active":true,"comprehensive_score":0.83,"similarity":0.83,"knowledge_name":"办事指南","document_name":"食品经营许可办理指南.pdf","knowledge_type":0,"meta":{}},
 {"id":"p3","document_id":"d-hyg","knowledge_id":"k1","content":"卫生许可","title":"","status":"nn2","is_active":true,"comprehensive_score":0.5,"similarity":0.5,"knowledge_name":"办事指南","document_name":"公共场所卫生许可办理指南.docx","knowledge_type":0,"meta":{}}]`

// maxkbServer routes like MaxKB v1 or v2 (v2: the chat app under
// /chat/api/, v1: /api/application/…); record is the chat record reply.
func maxkbServer(t *testing.T, version, record string) *fake {
	return &fake{handler: func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		p := r.URL.Path
		ok := func(s string) { io.WriteString(w, s) }
		switch {
		case version == "v2" && p == "/chat/api/open", version == "v1" && p == "/api/application/"+maxkbAppID+"/chat/open":
			ok(`{"code":200,"message":"成功","data":"` + maxkbChatID + `"}`)
		case version == "v1" && p == "/api/application/profile":
			ok(maxkbProfile)
		case version == "v2" && p == "/chat/api/chat_message/"+maxkbChatID, version == "v1" && p == "/api/application/chat_message/"+maxkbChatID:
			if body["message"] != "开餐馆要办什么证？" || body["stream"] != false {
				t.Errorf("chat_message body %v", body)
			}
			ok(maxkbMessage)
		case version == "v2" && p == "/chat/api/historical_conversation/"+maxkbChatID+"/record/"+maxkbRecID,
			version == "v1" && p == "/api/application/"+maxkbAppID+"/chat/"+maxkbChatID+"/chat_record/"+maxkbRecID:
			ok(record)
		default:
			w.WriteHeader(404) // Django's not-found page
			io.WriteString(w, "<!doctype html><title>Not Found</title>")
		}
	}}
}

func TestMaxKBReplays(t *testing.T) {
	cases := []struct {
		name, version, setting, record string
		wantNames                      []string
		wantWarn                       bool
	}{
		{name: "v1 simple application", version: "v1", setting: "v1", record: maxkbRecord(maxkbParagraphsV1),
			wantNames: []string{"食品经营许可办理指南.pdf", "公共场所卫生许可办理指南.docx"}},
		{name: "v1 detected", version: "v1", record: maxkbRecord(maxkbParagraphsV1),
			wantNames: []string{"食品经营许可办理指南.pdf", "公共场所卫生许可办理指南.docx"}},
		{name: "v2 detected", version: "v2", record: maxkbRecord(maxkbParagraphsV2),
			wantNames: []string{"食品经营许可办理指南.pdf", "公共场所卫生许可办理指南.docx"}},
		{name: "v2 show_source off", version: "v2", setting: "v2", record: maxkbRecord(""), wantWarn: true},
		{name: "v1 nothing retrieved", version: "v1", record: maxkbRecord("[]")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("MK_KEY", "application-0123456789abcdef")
			f := maxkbServer(t, c.version, c.record)
			srv := f.start(t)
			tg, err := New(Config{Kind: "maxkb", BaseURL: srv.URL, APIKeyEnv: "MK_KEY", APIVersion: c.setting})
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the second question reuses what the first learnt
				ans, err := tg.Ask(context.Background(), "开餐馆要办什么证？")
				if err != nil {
					t.Fatal(err)
				}
				if ans.Text != "需要营业执照和健康证明。" {
					t.Errorf("answer %q", ans.Text)
				}
				var names []string
				for _, d := range ans.Retrieved {
					names = append(names, d.Name)
				}
				if strings.Join(names, "|") != strings.Join(c.wantNames, "|") {
					t.Errorf("retrieved %v, want %v", names, c.wantNames)
				}
				if got := len(ans.Warnings) == 1 && ans.Warnings[0].Code == WarnNoReference && strings.Contains(ans.Warnings[0].Message.ZH, "显示知识来源"); got != c.wantWarn {
					t.Errorf("warnings %+v", ans.Warnings)
				}
			}
			probes, profiles := 0, 0
			for _, r := range f.requests {
				if r.Auth != "Bearer application-0123456789abcdef" {
					t.Errorf("auth %q on %s", r.Auth, r.Path)
				}
				if r.Path == "/chat/api/open" && c.version == "v1" {
					probes++
				}
				if r.Path == "/api/application/profile" {
					profiles++
				}
			}
			if c.version == "v1" && (profiles != 1 || c.setting == "" && probes != 1) {
				t.Errorf("profile asked %d times, version probed %d times: want once each", profiles, probes)
			}
		})
	}
}

// A wrong key: TokenAuth raises AppAuthenticationFailed(1002, …), rendered
// by handle_exception as HTTP 401 {"code":1002,…}.
func TestMaxKBBadKey(t *testing.T) {
	f := &fake{handler: func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		w.WriteHeader(401)
		io.WriteString(w, `{"code":1002,"message":"Authentication information is incorrect! illegal user","data":null}`)
	}}
	srv := f.start(t)
	tg, _ := NewOnce(Config{Kind: "maxkb", BaseURL: srv.URL, APIVersion: "v2"})
	_, err := tg.Ask(context.Background(), "q")
	var te *Error
	if !errors.As(err, &te) || !te.IsAuth() || !strings.Contains(te.Message, "illegal user") {
		t.Fatalf("err = %v", err)
	}
}

// The model behind MaxKB failed: base_chat_step.execute_block answers
// to_block_response(…, 'Exception:' + str(e), …, _status=500), i.e. HTTP
// 500 with code 500 and message "成功" around the exception text.
func TestMaxKBModelFailure(t *testing.T) {
	f := maxkbServer(t, "v2", maxkbRecord(maxkbParagraphsV2))
	inner := f.handler
	f.handler = func(w http.ResponseWriter, r *http.Request, body map[string]any) {
		if strings.HasPrefix(r.URL.Path, "/chat/api/chat_message/") {
			w.WriteHeader(500)
			io.WriteString(w, `{"code":500,"message":"成功","data":{"chat_id":"`+maxkbChatID+`","id":"`+maxkbRecID+`","operate":true,"content":"Exception:Error code: 401 - {'error': {'message': 'Incorrect API key provided'}}","is_end":true,"completion_tokens":0,"prompt_tokens":0}}`)
			return
		}
		inner(w, r, body)
	}
	srv := f.start(t)
	tg, _ := NewOnce(Config{Kind: "maxkb", BaseURL: srv.URL, APIVersion: "v2"})
	_, err := tg.Ask(context.Background(), "开餐馆要办什么证？")
	var te *Error
	if !errors.As(err, &te) || te.Code != CodeLLMError || !strings.Contains(te.Message, "Incorrect API key") {
		t.Fatalf("err = %v", err)
	}
}
