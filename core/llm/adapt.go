package llm

import (
	"errors"
	"strings"
)

// Adaptation is one change the client made to its requests because the
// endpoint refused a parameter, remembered for the rest of the run. The
// report's method notes list them: a judge that could not be run at
// temperature 0 is a fact the reader must know.
type Adaptation struct {
	Endpoint string // the endpoint's name
	Param    string // the parameter changed: reasoning_effort, max_tokens, temperature, …
	EN, ZH   string // what was done, for the method notes
	Server   string // the endpoint's own message (redacted)
}

// Adapter is implemented by completers that adapt their requests (Client,
// Pool): the engine asks it for the method notes.
type Adapter interface {
	Adaptations() []Adaptation
}

// adaptation kinds, each applied at most once per client.
const (
	adaptSwitch        = iota // drop the thinking switch
	adaptMaxCompletion        // max_tokens → max_completion_tokens
	adaptTemperature          // omit temperature (the model takes only its default)
	adaptKinds
)

var adaptText = [adaptKinds]struct{ param, en, zh string }{
	adaptSwitch: {"thinking switch",
		"The endpoint refused the switch that turns thinking off; requests are sent without it, so the model may think before it answers (its thinking is never scored).",
		"该服务拒绝了关闭思考模式的参数；之后的请求不再带该参数，模型可能先思考再作答（思考内容从不参与评分）。"},
	adaptMaxCompletion: {"max_tokens",
		"The model refuses max_tokens; the limit is sent as max_completion_tokens instead.",
		"该模型不接受 max_tokens；长度上限改用 max_completion_tokens 发送。"},
	adaptTemperature: {"temperature",
		"The model accepts only its default temperature (1); requests are sent without temperature, so its scores are sampled, not greedy: repeats may differ.",
		"该模型只接受默认温度（1）；之后的请求不再指定温度，评分为采样结果而非确定性输出，重复评审可能不同。"},
}

// adaptFor says which adaptation a refusal asks for, or -1. The shapes are
// the servers' own:
//   - Ollama 0.11.5–0.12.3 (api/types.go ThinkValue.UnmarshalJSON) refuse
//     reasoning_effort "none" with 400 `invalid think value: "none" (must
//     be "high", "medium", "low", true, or false)`;
//   - OpenAI's gpt-5 and o-series answer 400 with code
//     "unsupported_parameter", param "max_tokens", and code
//     "unsupported_value" (or "unsupported_parameter"), param "temperature";
//   - other servers name the switch field they refuse (DashScope, vLLM).
func adaptFor(err error, provider string, sentSwitch bool) int {
	var ae *APIError
	if !errors.As(err, &ae) || (ae.Status != 400 && ae.Status != 422) {
		return -1
	}
	code := strings.ToLower(ae.Code)
	param := strings.ToLower(ae.Param)
	msg := strings.ToLower(ae.Message)
	unsupported := code == "unsupported_parameter" || code == "unsupported_value" ||
		strings.Contains(msg, "unsupported parameter") || strings.Contains(msg, "unsupported value")
	refersTo := func(p string) bool { return param == p || strings.Contains(msg, "'"+p+"'") }
	switch {
	case unsupported && refersTo("max_tokens"):
		return adaptMaxCompletion
	case unsupported && refersTo("temperature"):
		return adaptTemperature
	case sentSwitch && rejectsSwitch(ae, provider):
		return adaptSwitch
	}
	return -1
}

// rejectsSwitch reports a refusal that names the thinking switch we sent.
func rejectsSwitch(ae *APIError, provider string) bool {
	m := strings.ToLower(ae.Message + " " + ae.Code + " " + ae.Param)
	if provider == ProviderDashScope && strings.Contains(m, "must be set to false") {
		// DashScope's complaint that thinking is on: dropping the switch
		// would only make it worse.
		return false
	}
	if provider == ProviderOllama && strings.Contains(m, "invalid think value") {
		return true
	}
	f := switchField(provider)
	return (f != "" && strings.Contains(m, f)) || strings.Contains(m, "reasoning") || strings.Contains(m, "thinking")
}

// Adaptations lists what the client changed in its requests, in the order
// it happened.
func (c *Client) Adaptations() []Adaptation {
	c.adaptMu.Lock()
	defer c.adaptMu.Unlock()
	return append([]Adaptation(nil), c.adaptations...)
}

// adapt turns adaptation k on; false when it already was (the server
// refused again after the change: a real error, not one to adapt to).
func (c *Client) adapt(k int, err error) bool {
	if c.adapted[k].Swap(true) {
		return false
	}
	var ae *APIError
	server := ""
	if errors.As(err, &ae) {
		server = ae.Message
	}
	t := adaptText[k]
	c.adaptMu.Lock()
	c.adaptations = append(c.adaptations, Adaptation{Endpoint: c.ep.Name, Param: t.param, EN: t.en, ZH: t.zh, Server: server})
	c.adaptMu.Unlock()
	return true
}

// stale reports a body built before adaptation k was learnt (by another
// request in flight at the time): its refusal asks for nothing new, and
// the request is sent again with the adapted body.
func stale(sent wireOptions, k int) bool {
	switch k {
	case adaptSwitch:
		return sent.withSwitch
	case adaptMaxCompletion:
		return !sent.maxCompletion
	case adaptTemperature:
		return !sent.noTemperature
	}
	return false
}
