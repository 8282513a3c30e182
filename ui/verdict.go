package ui

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strings"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/secret"
)

// judgeVerdict is the outcome of a judge's Test connection in plain words,
// naming the form field to fix by its label: unreachable (服务地址), wrong
// key (API 密钥), wrong model name (模型名称). The endpoint's own message
// follows on a second line; keys are redacted from it by llm.
func judgeVerdict(ep profile.Endpoint, reply string, err error) string {
	if err == nil {
		return "✓ " + trf("verdict.ok", map[string]any{"Reply": oneLine(reply)})
	}
	field := func(key string) string {
		if currentLanguage() == "en" {
			return "“" + tr(key) + "”"
		}
		return "「" + tr(key) + "」"
	}
	var msg string
	plain := true // the message says it all in plain words: no raw detail
	var ae *llm.APIError
	switch {
	case errors.Is(err, llm.ErrNoKey), errors.Is(err, secret.ErrNoKey):
		msg = trf("verdict.no_key", map[string]any{"Key": field("key.label"), "Env": field("judges.key_env")})
	case errors.As(err, &ae) && (ae.Status == 401 || ae.Status == 403 || strings.Contains(strings.ToLower(ae.Code), "api_key")):
		msg = trf("verdict.bad_key", map[string]any{"Key": field("key.label"), "Env": field("judges.key_env")})
	case errors.As(err, &ae) && modelMissing(ae):
		msg = trf("verdict.bad_model", map[string]any{"Field": field("judges.model"), "Model": ep.Model})
	case errors.Is(err, llm.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		msg = trf("verdict.timeout", map[string]any{"Field": field("judges.base_url"), "URL": ep.BaseURL})
	case unreachable(err):
		msg = trf("verdict.unreachable", map[string]any{"Field": field("judges.base_url"), "URL": ep.BaseURL})
	default:
		plain = false
		msg = tr("verdict.other")
		if h := llm.Hint(err).In(currentLanguage()); h != "" {
			msg += " " + h
		}
	}
	if plain {
		return "✗ " + msg
	}
	return "✗ " + msg + "\n" + tr("verdict.detail") + " " + err.Error()
}

// modelMissing: the endpoint does not serve the model named.
func modelMissing(ae *llm.APIError) bool {
	text := strings.ToLower(ae.Code + " " + ae.Message)
	return ae.Status == 404 || strings.Contains(text, "model_not_found") ||
		strings.Contains(text, "model") && (strings.Contains(text, "not found") || strings.Contains(text, "does not exist") || strings.Contains(text, "not exist"))
}

// unreachable: nothing answered at the address (refused, no such host,
// no route, a malformed URL).
func unreachable(err error) bool {
	var op *net.OpError
	var dns *net.DNSError
	var ue *url.Error
	return errors.As(err, &op) || errors.As(err, &dns) || errors.As(err, &ue)
}
