package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"

	"cubeworkbench/core/httpsafe"
	"cubeworkbench/core/text"
)

// Sentinel errors. ErrEmptyReply and ErrTruncated come with a filled Reply
// (Raw, FinishReason, Usage): callers count the item as unscorable (apis.md
// §5 rule 3) and may still store what came back.
var (
	ErrEmptyReply = errors.New("llm: empty reply (no choices or no content)")
	ErrTruncated  = errors.New(`llm: reply cut short (finish_reason "length")`)
	// ErrUnfinished: the reply ended for another reason than "stop" — a
	// content filter, the server's resources, a "sensitive" stop — so its
	// text is not the answer the model meant to give, however it reads.
	ErrUnfinished     = errors.New("llm: reply did not finish normally")
	ErrBudgetExceeded = errors.New("llm: cost budget exceeded")
	ErrTimeout        = errors.New("llm: request timed out")
	// ErrStalled: the reply began and then no byte came for StallTimeout.
	// Its message, "zh / en", is the one stored in problems' reasons
	// before it was a text.Error, and the engine still finds it there.
	ErrStalled error = text.NewError(text.New("llm: 回复中途停止，长时间没有再收到数据", "the reply stopped coming (no bytes)"), nil)
	// ErrGaveUp: the request, retries included, went past TotalTimeout.
	ErrGaveUp    error = text.NewError(text.New("llm: 请求总时长超过上限，已放弃", "gave up: the request took longer than its total time limit"), nil)
	ErrNoKey           = errors.New("llm: API key environment variable is empty")
	ErrMalformed       = errors.New("llm: reply is not valid JSON")
	// ErrReplyTooLarge: the body went past Endpoint.MaxReplyBytes. A chat
	// reply is kilobytes; a bigger one is a misconfigured URL or a hostile
	// server, and reading it whole at every slot is how memory runs out.
	ErrReplyTooLarge error = text.NewError(text.New("llm: 回复超过大小上限，已停止读取", "reply larger than the size limit, reading stopped"), nil)
)

// APIError is an HTTP error the endpoint answered with. Message is the
// server's own text with the API key redacted.
type APIError struct {
	Status  int
	Code    string // "invalid_api_key", "model_not_found", "exceed_context_size_error", …
	Type    string
	Param   string // the parameter a 400 names (OpenAI's "param"), "" when none
	Message string
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP %d", e.Status)
	if e.Code != "" {
		fmt.Fprintf(&b, " (%s)", e.Code)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

// Kinds of failure a user can act on; Hint explains each.
const (
	kindNone = iota
	kindBadKey
	kindModel
	kindContext
	kindBalance
	kindRate
	kindServer
	kindInvalid
)

func (e *APIError) kind() int {
	text := strings.ToLower(e.Code + " " + e.Type + " " + e.Message)
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(text, s) {
				return true
			}
		}
		return false
	}
	switch {
	case e.Status == 402 || has("insufficient_quota", "insufficient balance", "arrearage", "balance", "quota"):
		return kindBalance
	case e.Status == 401 || e.Status == 403 || has("invalid_api_key", "api key", "apikey", "unauthorized"):
		return kindBadKey
	case has("context length", "context_length", "exceed_context", "maximum context", "context window",
		"too long", "input length", "too many tokens"):
		return kindContext
	case e.Status == 404 || has("model_not_found", "not_found_error") ||
		(strings.Contains(text, "model") && has("not found", "does not exist", "not exist")):
		return kindModel
	case e.Status == 429:
		return kindRate
	case e.Status >= 500:
		return kindServer
	case e.Status == 400 || e.Status == 422:
		return kindInvalid
	}
	return kindNone
}

var hints = map[int]text.Text{
	kindBadKey: text.New("API 密钥被拒绝。请检查配置中 api_key_env 指定的环境变量里的密钥。",
		"The API key was refused. Check the key in the environment variable named in the profile (api_key_env)."),
	kindModel: text.New("该服务上找不到这个模型。请检查模型名称（Ollama 需先执行 ollama pull 模型名）。",
		"The model was not found on this endpoint. Check the model name (for Ollama, pull it first: ollama pull MODEL)."),
	kindContext: text.New("提示词超出了模型的上下文长度。请换用上下文更长的模型、调大服务端上下文长度，或缩短参考材料。",
		"The prompt is longer than the model's context window. Use a model with a longer context, raise the server's context length, or shorten the references."),
	kindBalance: text.New("账户余额或额度不足。请充值或换用其他密钥。",
		"The account has no balance or quota left. Top up or use another key."),
	kindRate: text.New("服务端触发限流。请降低并发数或在配置中设置 rpm。",
		"The endpoint is rate limiting. Lower concurrency or set rpm in the profile."),
	kindServer: text.New("服务端出错或繁忙。请稍后重试或降低并发数。",
		"The endpoint had a server error or is busy. Try again later or lower concurrency."),
	kindInvalid: text.New("服务端拒绝了请求。请检查模型名称，并确认服务兼容 OpenAI 对话接口。",
		"The endpoint rejected the request. Check the model name and that the server speaks the OpenAI chat API."),
}

// Hint is a one-line explanation of the error for the user, in both
// languages, or the zero Text when there is nothing more useful to say.
func (e *APIError) Hint() text.Text { return hints[e.kind()] }

var otherHints = map[error]text.Text{
	ErrTimeout: text.New("服务端未在限定时间内响应。本地大模型可能较慢：请调大超时或降低并发数。",
		"The endpoint did not answer in time. Large local models can be slow: raise the timeout or lower concurrency."),
	ErrStalled: text.New("该服务开始回复后就没有再发送任何数据：服务卡住了（过载或挂起，或代理占住了连接）。请检查该服务；配置中的 stall_seconds 可调整等待时长。",
		"The endpoint started a reply and then sent nothing more: it stalls (an overloaded or hung server, a proxy holding the connection). Check the server; stall_seconds in the profile sets how long to wait."),
	ErrGaveUp: text.New("该服务在总时长上限内（含重试）没有完成请求。请检查该服务；配置中的 total_timeout_seconds 可调整上限。",
		"The endpoint did not finish a request within its total time limit, retries included. Check the server; total_timeout_seconds in the profile sets the limit."),
	ErrEmptyReply: text.New("模型返回了空回答。推理模型可能需要关闭思考模式。",
		"The model returned an empty answer. A thinking model may need its thinking switched off."),
	ErrTruncated: text.New("回答因长度上限被截断。请调大 max_tokens 或关闭思考模式。",
		"The answer was cut off by the token limit. Raise max_tokens or switch thinking off."),
	ErrUnfinished: text.New("模型不是因为答完而停止（内容过滤、服务端资源不足等）。该回复不计为分数。",
		"The model stopped for another reason than finishing its answer (a content filter, server resources). The reply is not counted as a score."),
	ErrBudgetExceeded: text.New("本次运行的费用预算已用完。", "The cost budget for this run is used up."),
	ErrNoKey: text.New("api_key_env 指定的环境变量为空。请先设置该变量。",
		"The environment variable named in api_key_env is empty. Set it before starting."),
	ErrReplyTooLarge: text.New("服务端返回的内容远超正常回答的大小。请检查 base_url；只有模型确实会输出这么多内容时才调大 max_reply_bytes。",
		"The endpoint sent a reply far larger than any chat answer. Check base_url; raise max_reply_bytes only if the model really writes that much."),
	httpsafe.ErrCrossHostRedirect: text.New("服务端重定向到了另一个主机，请求未发往该处。请把 base_url 改为最终地址，或为该端点设置 allow_redirects = true。",
		"The endpoint redirected to another host and the request was not sent there. Point base_url at the final address, or set allow_redirects = true for this endpoint."),
	ErrMalformed: text.New("服务端返回的不是 OpenAI 格式的 JSON。请检查 base_url（通常以 /v1 结尾）。",
		"The endpoint answered with something that is not OpenAI-style JSON. Check base_url (it usually ends in /v1)."),
}

var connHint = text.New("无法连接到服务端。请检查 base_url 以及服务是否已启动。",
	"Cannot connect to the endpoint. Check base_url and that the server is running.")

// Hint explains any error this package returns, in both languages; the
// zero Text when it has no advice. The UI's "Test connection" shows it.
func Hint(err error) text.Text {
	if err == nil {
		return text.Text{}
	}
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Hint()
	}
	for target, h := range otherHints {
		if errors.Is(err, target) {
			return h
		}
	}
	if isConnError(err) {
		return connHint
	}
	return text.Text{}
}

// parseAPIError reads the error bodies the servers in apis.md §5 send:
// OpenAI/Ollama/DashScope/DeepSeek {"error":{message,type,code}}, vLLM's
// old flat {"object":"error","message",…,"code":400}, llama.cpp's numeric
// code, and plain {"error":"text"}.
func parseAPIError(status int, body []byte) *APIError {
	e := &APIError{Status: status}
	var outer struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Param   json.RawMessage `json:"param"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(body, &outer) == nil {
		e.Message, e.Type, e.Code, e.Param = outer.Message, outer.Type, rawString(outer.Code), rawString(outer.Param)
		var inner struct {
			Message string          `json:"message"`
			Type    string          `json:"type"`
			Param   json.RawMessage `json:"param"`
			Code    json.RawMessage `json:"code"`
		}
		var text string
		switch {
		case json.Unmarshal(outer.Error, &text) == nil:
			e.Message = text
		case len(outer.Error) > 0 && json.Unmarshal(outer.Error, &inner) == nil:
			e.Message, e.Type, e.Code, e.Param = inner.Message, inner.Type, rawString(inner.Code), rawString(inner.Param)
		}
	}
	if e.Message == "" {
		e.Message = strings.TrimSpace(string(body))
		if len(e.Message) > 300 {
			e.Message = e.Message[:300] + "…"
		}
	}
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	return e
}

// rawString renders a JSON code that may be a string, a number or null.
func rawString(r json.RawMessage) string {
	if len(r) == 0 || string(r) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(r, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(r, &n) == nil {
		if i, err := strconv.Atoi(n.String()); err == nil {
			return strconv.Itoa(i)
		}
		return n.String()
	}
	return string(r)
}

// retryable reports whether a status is worth another attempt: rate
// limits, server errors and request timeouts — but not a 429 that means
// "out of quota", which no amount of waiting fixes.
func (e *APIError) retryable() bool {
	switch {
	case e.kind() == kindBalance:
		return false
	case e.Status == 408, e.Status == 409, e.Status == 425, e.Status == 429:
		return true
	case e.Status >= 500:
		return true
	}
	return false
}

func isConnError(err error) bool {
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &oe) || errors.As(err, &ne) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET)
}

// ErrDeferred marks a request recorded for a batch file instead of sent.
var ErrDeferred = errors.New("llm: request deferred to a batch file")

// ParseAPIError reads an error body of any shape parseAPIError knows, for
// errors that arrive by other roads (a batch result line).
func ParseAPIError(status int, body []byte) *APIError { return parseAPIError(status, body) }
