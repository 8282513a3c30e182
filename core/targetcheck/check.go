// Package targetcheck is "Test connection" for the system under test: one
// real question, then a plain verdict naming the setting to fix by the
// label the form shows it under.
package targetcheck

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/docmatch"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/secret"
	"cubeworkbench/core/target"
	"cubeworkbench/core/text"
)

// Verdict codes, worst first.
const (
	Config      = "config"       // the profile cannot work (a required field is empty, unknown kind)
	Unreachable = "unreachable"  // no HTTP reply, or not the system's API at that address
	WrongKey    = "wrong_key"    // the key is missing or refused
	WrongID     = "wrong_id"     // the chat assistant, app or model named does not exist
	Failed      = "failed"       // the system answered with an error of its own
	NoDocuments = "no_documents" // it answered but returned no retrieved documents (quote / citations off)
	Unmatched   = "unmatched"    // documents came back but most match no guide
	OK          = "ok"
)

// Verdict is the outcome of one test.
type Verdict struct {
	Code    string
	Field   string    // profile key of the field to fix ("" when none)
	Message text.Text // what to tell the user, naming the field by its label
	Detail  string    // the system's own error, key redacted ("" when none)
	Answer  *target.Answer
	Mapping *docmatch.Report // for this one answer, when documents came back or should have
}

// OK reports a usable target.
func (v Verdict) OK() bool { return v.Code == OK }

// Text is the verdict for people in lang, with the system's error appended.
func (v Verdict) Text(lang text.Lang) string {
	s := v.Message.In(lang)
	if v.Detail != "" {
		s += "\n" + v.Detail
	}
	if v.Mapping != nil && v.Code == Unmatched {
		s += "\n" + strings.Join(v.Mapping.Messages(lang, 10), "\n")
	}
	return s
}

// Question is what Check asks when the caller gives none: about the first
// guide, so a knowledge base with the guides retrieves something.
func Question(guides []dataset.Guide) string {
	for _, g := range guides {
		if t := strings.TrimSpace(g.Title); t != "" {
			return "办理" + t + "需要什么材料？"
		}
	}
	return "你好，请问可以办理哪些事项？"
}

// Check builds the connector for cfg (through build; target.NewOnce when nil),
// asks one question and judges the reply against guides.
func Check(ctx context.Context, cfg profile.Target, guides []dataset.Guide, question string, build func(profile.Target) (target.Target, error)) Verdict {
	if build == nil {
		build = target.NewOnce
	}
	spec, known := target.SpecOf(cfg.Kind)
	label := func(key string, lang text.Lang) string {
		if f, ok := spec.Field(key); ok {
			return f.Label.In(lang)
		}
		return key
	}
	zh := func(key string) string { return label(key, text.ZH) }
	en := func(key string) string { return label(key, text.EN) }
	if !known {
		return Verdict{Code: Config, Field: "kind", Message: text.Text{
			ZH: fmt.Sprintf("不认识的系统类型“%s”，可选：%s。", cfg.Kind, strings.Join(target.Kinds(), "、")),
			EN: fmt.Sprintf("Unknown system kind %q; choose one of %s.", cfg.Kind, strings.Join(target.Kinds(), ", "))}}
	}
	if m := spec.Missing(cfg, "zh"); len(m) > 0 {
		return Verdict{Code: Config, Field: firstMissing(spec, cfg), Message: text.Text{
			ZH: "请先填写：" + strings.Join(m, "、") + "。",
			EN: "Fill in first: " + strings.Join(spec.Missing(cfg, "en"), ", ") + "."}}
	}
	if cfg.APIKeyEnv != "" {
		// A named variable that holds nothing (and no key typed in the
		// window or kept in the keyring): said before any request goes out.
		if _, _, err := secret.Default().Get(secret.Target(cfg.Kind), cfg.APIKeyEnv); err != nil {
			return Verdict{Code: WrongKey, Field: "api_key_env", Message: text.Text{
				ZH: fmt.Sprintf("“%s”没有密钥：环境变量 %s 未设置，窗口中也没有输入。请设置该变量，或在上面粘贴密钥。", zh("api_key_env"), cfg.APIKeyEnv),
				EN: fmt.Sprintf("The %s has no key: the environment variable %s is unset and none was typed in the window. Set it, or paste the key above.", en("api_key_env"), cfg.APIKeyEnv)}}
		}
	}
	tg, err := build(cfg)
	if err != nil {
		return Verdict{Code: Config, Message: text.Text{ZH: "配置无法使用：" + err.Error(), EN: "The settings cannot work: " + err.Error()}}
	}
	if question == "" {
		question = Question(guides)
	}
	ans, err := tg.Ask(ctx, question)
	if err != nil {
		return fromError(err, cfg, zh, en)
	}
	v := Verdict{Answer: &ans}
	if !spec.Retrieves {
		v.Code = OK
		v.Message = text.Text{
			ZH: "连接正常，系统已回答。此类接口只返回回答、不返回检索文档，指南召回率@k 将显示为 n/a。",
			EN: "Connected; the system answered. This kind of endpoint returns answers only, no retrieved documents, so guide recall@k will show n/a."}
		return v
	}
	rep := docmatch.ReportFor(docmatch.New(guides), ans)
	v.Mapping = &rep
	if len(ans.Retrieved) == 0 {
		v.Code = NoDocuments
		v.Message = text.Text{
			ZH: "系统回答了，但没有返回检索到的文档，无法计算指南召回率@k。",
			EN: "The system answered but returned no retrieved documents, so guide recall@k cannot be computed."}
		for _, w := range ans.Warnings {
			v.Message.ZH += "请打开：" + w.Setting.ZH + "。" + w.Message.ZH
			v.Message.EN += " Turn on: " + w.Setting.EN + ". " + w.Message.EN
		}
		return v
	}
	if len(guides) > 0 && rep.Loud() {
		v.Code = Unmatched
		v.Message = text.Text{
			ZH: fmt.Sprintf("系统返回了 %d 个文档，但只有 %d 个对应到工作簿的办事指南。请在办事指南表加“知识库文件名”（target_doc）列，或上传 cubectl kb export 导出的文档。", rep.Retrieved, rep.Resolved),
			EN: fmt.Sprintf("The system returned %d documents but only %d match the workbook's guides. Add a target_doc column to the guides, or upload the documents written by cubectl kb export.", rep.Retrieved, rep.Resolved)}
		return v
	}
	v.Code = OK
	v.Message = text.Text{
		ZH: fmt.Sprintf("连接正常：系统回答了，返回 %d 个文档，其中 %d 个对应到办事指南。", rep.Retrieved, rep.Resolved),
		EN: fmt.Sprintf("Connected: the system answered with %d documents, %d of which match a guide.", rep.Retrieved, rep.Resolved)}
	return v
}

func firstMissing(spec target.Spec, cfg profile.Target) string {
	for _, f := range spec.Fields {
		if f.Required && !f.Secret && strings.TrimSpace(cfg.Get(f.Key)) == "" {
			return f.Key
		}
	}
	return ""
}

// fromError names the field an error points at.
func fromError(err error, cfg profile.Target, zh, en func(string) string) Verdict {
	var te *target.Error
	if !errors.As(err, &te) {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return Verdict{Code: Unreachable, Field: "base_url", Detail: err.Error(), Message: text.Text{
				ZH: fmt.Sprintf("在限定时间内没有收到回复，请检查“%s”是否正确、服务是否在运行。", zh("base_url")),
				EN: fmt.Sprintf("No reply in time: check the %s and that the service is running.", en("base_url"))}}
		}
		return Verdict{Code: Failed, Detail: err.Error(), Message: text.Text{ZH: "测试失败。", EN: "The test failed."}}
	}
	detail := te.Error()
	msg := strings.ToLower(te.Message)
	switch {
	case te.IsAuth():
		v := Verdict{Code: WrongKey, Field: "api_key_env", Detail: detail, Message: text.Text{
			ZH: fmt.Sprintf("“%s”不对或没有提供：系统拒绝了请求。", zh("api_key_env")),
			EN: fmt.Sprintf("The %s is wrong or missing: the system refused the request.", en("api_key_env"))}}
		if cfg.APIKeyEnv == "" {
			v.Message.ZH += "尚未设置密钥。"
			v.Message.EN += " No key is set."
		}
		return v
	case te.Status == 0 && te.Retryable:
		return Verdict{Code: Unreachable, Field: "base_url", Detail: detail, Message: text.Text{
			ZH: fmt.Sprintf("连不上“%s”：%s。请检查地址和端口、服务是否在运行。", zh("base_url"), cfg.BaseURL),
			EN: fmt.Sprintf("Cannot reach the %s %s: check the address and port and that the service is running.", en("base_url"), cfg.BaseURL)}}
	case te.Code == target.CodeLLMError:
		if spec, _ := target.SpecOf(cfg.Kind); !spec.LLMFailed.IsZero() {
			return Verdict{Code: Failed, Detail: detail, Message: spec.LLMFailed}
		}
		return Verdict{Code: Failed, Detail: detail, Message: text.Text{
			ZH: "系统本身的大模型（或工作流节点）调用失败，请检查该系统里的模型设置。",
			EN: "The system's own model (or a workflow node) failed: check the model settings inside that system."}}
	}
	// The connector's own diagnosis (its registry entry's Blame).
	idKey := ""
	if spec, ok := target.SpecOf(cfg.Kind); ok && spec.Blame != nil {
		if field, why, blamed := spec.Blame(te); blamed {
			if why.ZH != "" || why.EN != "" {
				return Verdict{Code: WrongID, Field: field, Detail: detail, Message: why}
			}
			idKey = field
		}
	}
	if idKey != "" {
		return Verdict{Code: WrongID, Field: idKey, Detail: detail, Message: text.Text{
			ZH: fmt.Sprintf("“%s”不对：系统里没有这个（或当前密钥无权访问）。", zh(idKey)),
			EN: fmt.Sprintf("The %s is wrong: the system has none by that id (or the key may not use it).", en(idKey))}}
	}
	if te.Status == 404 || te.Status == 405 || strings.Contains(msg, "not json") {
		return Verdict{Code: Unreachable, Field: "base_url", Detail: detail, Message: text.Text{
			ZH: fmt.Sprintf("“%s”处不是该系统的 API（%s）。请核对地址%s。", zh("base_url"), cfg.BaseURL, hintOf(cfg.Kind, "base_url", text.ZH, "：")),
			EN: fmt.Sprintf("The %s %s is not this system's API; check it%s.", en("base_url"), cfg.BaseURL, hintOf(cfg.Kind, "base_url", text.EN, ": "))}}
	}
	return Verdict{Code: Failed, Detail: detail, Message: text.Text{ZH: "系统返回了错误。", EN: "The system returned an error."}}
}

// hintOf is the connector's own hint for a field (where its system shows
// the value: Dify's API server ends in /v1, FastGPT's in /api) after sep,
// or "" when it gives none.
func hintOf(kind, key string, lang text.Lang, sep string) string {
	spec, _ := target.SpecOf(kind)
	if f, ok := spec.Field(key); ok && !f.Hint.IsZero() {
		return sep + f.Hint.In(lang)
	}
	return ""
}
