package judgepreset

import (
	"net/url"
	"strings"
	"testing"
)

// Every preset is a usable endpoint: an absolute http(s) base without the
// /chat/completions path, a model, a key variable for every cloud service
// and none for local servers, and a unique name.
func TestPresetsAreUsable(t *testing.T) {
	want := []string{"Ollama", "vLLM", "llama.cpp server", "LM Studio", "通义千问 (DashScope)", "DeepSeek",
		"Kimi (Moonshot)", "智谱 GLM", "豆包 (火山方舟 Volcengine Ark)", "百度千帆", "OpenAI"}
	all := All()
	if len(all) != len(want) {
		t.Fatalf("%d presets, want %d", len(all), len(want))
	}
	seen := map[string]bool{}
	for i, p := range all {
		if p.Name != want[i] {
			t.Errorf("preset %d = %q, want %q", i, p.Name, want[i])
		}
		if seen[p.Name] {
			t.Errorf("%q twice", p.Name)
		}
		seen[p.Name] = true
		u, err := url.Parse(p.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			strings.HasSuffix(p.BaseURL, "/") || strings.Contains(p.BaseURL, "chat/completions") {
			t.Errorf("%s: base URL %q", p.Name, p.BaseURL)
		}
		if p.Model == "" {
			t.Errorf("%s: no model", p.Name)
		}
		if p.Local != (p.KeyEnv == "") {
			t.Errorf("%s: local %v but key env %q", p.Name, p.Local, p.KeyEnv)
		}
		if !p.Local && u.Scheme != "https" {
			t.Errorf("%s: a cloud service over %s", p.Name, u.Scheme)
		}
		if got, ok := Named(p.Name); !ok || got != p {
			t.Errorf("Named(%q) = %+v", p.Name, got)
		}
	}
}
