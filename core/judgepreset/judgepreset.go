// Package judgepreset lists the OpenAI-compatible servers officers use for
// judges and the generator, as data, so the window and the CLI offer the
// same presets. Each base URL was checked against the vendor's own
// documentation (cited per entry, read 2026-12-01).
package judgepreset

import "cubeworkbench/core/text"

// Preset is a known OpenAI-compatible server.
type Preset struct {
	Name    string // shown in the preset list of the Chinese window, and the key
	NameEN  string // shown in the English window; "" when Name is already English
	BaseURL string // OpenAI-compatible base, the part before /chat/completions
	Model   string // a model the server serves; the user changes it
	KeyEnv  string // conventional environment variable of the key; "" for local servers
	Local   bool   // runs on the officer's own machine or network
	// Currency is the currency the vendor bills in (CNY for the Chinese
	// vendors); "" for local servers. Prices are not preset: they change,
	// and a missing price is shown as unknown, never as free.
	Currency string
}

var presets = []Preset{
	// docs.ollama.com/api/openai-compatibility: base_url http://localhost:11434/v1.
	{Name: "Ollama", BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen2.5:32b", Local: true},
	// docs.vllm.ai serving/openai_compatible_server: `vllm serve`, base_url http://localhost:8000/v1.
	{Name: "vLLM", BaseURL: "http://127.0.0.1:8000/v1", Model: "Qwen/Qwen2.5-32B-Instruct", Local: true},
	// llama.cpp tools/server README: llama-server listens on 8080 and serves /v1/chat/completions;
	// it serves the one model it loaded, whatever the name.
	{Name: "llama.cpp server", BaseURL: "http://127.0.0.1:8080/v1", Model: "local", Local: true},
	// lmstudio.ai/docs/api/openai-api: base_url http://localhost:1234/v1 (default port 1234).
	{Name: "LM Studio", BaseURL: "http://127.0.0.1:1234/v1", Model: "qwen2.5-32b-instruct", Local: true},
	// help.aliyun.com/zh/model-studio/compatibility-of-openai-with-dashscope:
	// base_url https://dashscope.aliyuncs.com/compatible-mode/v1.
	{Name: "通义千问 (DashScope)", NameEN: "Qwen (Alibaba DashScope)", BaseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1", Model: "qwen-plus", KeyEnv: "DASHSCOPE_API_KEY", Currency: "CNY"},
	// api-docs.deepseek.com: base_url https://api.deepseek.com (…/v1 also accepted).
	{Name: "DeepSeek", BaseURL: "https://api.deepseek.com/v1", Model: "deepseek-chat", KeyEnv: "DEEPSEEK_API_KEY", Currency: "CNY"},
	// platform.moonshot.cn docs (China; platform.moonshot.ai is the global site): base_url https://api.moonshot.cn/v1.
	{Name: "Kimi (Moonshot)", BaseURL: "https://api.moonshot.cn/v1", Model: "kimi-k2-0905-preview", KeyEnv: "MOONSHOT_API_KEY", Currency: "CNY"},
	// docs.bigmodel.cn/cn/guide/develop/http/introduction: https://open.bigmodel.cn/api/paas/v4/.
	{Name: "智谱 GLM", NameEN: "Zhipu GLM", BaseURL: "https://open.bigmodel.cn/api/paas/v4", Model: "glm-4-plus", KeyEnv: "ZHIPUAI_API_KEY", Currency: "CNY"},
	// volcengine.com/docs/82379 (火山方舟 V3 API, OpenAI-compatible): https://ark.cn-beijing.volces.com/api/v3;
	// the model is the doubao model id or an ep-… endpoint id from the Ark console.
	{Name: "豆包 (火山方舟 Volcengine Ark)", NameEN: "Doubao (Volcengine Ark)", BaseURL: "https://ark.cn-beijing.volces.com/api/v3", Model: "doubao-1-5-pro-32k-250115", KeyEnv: "ARK_API_KEY", Currency: "CNY"},
	// cloud.baidu.com/doc/WENXINWORKSHOP/s/2m3fihw8s (千帆 ModelBuilder OpenAI 兼容): https://qianfan.baidubce.com/v2.
	{Name: "百度千帆", NameEN: "Baidu Qianfan", BaseURL: "https://qianfan.baidubce.com/v2", Model: "ernie-4.0-turbo-8k", KeyEnv: "QIANFAN_API_KEY", Currency: "CNY"},
	// platform.openai.com/docs/api-reference: https://api.openai.com/v1.
	{Name: "OpenAI", BaseURL: "https://api.openai.com/v1", Model: "gpt-4o-mini", KeyEnv: "OPENAI_API_KEY", Currency: "USD"},
}

// All returns the presets in display order (local servers first). The
// slice is a copy.
func All() []Preset { return append([]Preset(nil), presets...) }

// Named returns the preset with name.
func Named(name string) (Preset, bool) {
	for _, p := range presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// Title is the preset's name in lang: its English name in English when it
// has one, its name otherwise.
func (p Preset) Title(lang text.Lang) string { return text.New(p.Name, p.NameEN).In(lang) }
