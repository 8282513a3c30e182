package rerank

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"cubeworkbench/core/httpsafe"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/retrieve"
	"cubeworkbench/core/secret"
	"cubeworkbench/core/text"
)

// Server kinds a profile's [reranker] section may name.
const (
	KindAuto       = "auto"       // ask GET /info: TEI answers it, vLLM and Xinference do not
	KindVLLM       = "vllm"       // POST /rerank, Jina shape
	KindTEI        = "tei"        // POST /rerank, TEI shape (TEI serves no /v1/rerank)
	KindXinference = "xinference" // POST /v1/rerank, Jina shape; the model UID is required
)

// Kinds lists the kinds in the order the docs give them; profile.Validate
// accepts exactly these (a test keeps the two in step).
var Kinds = []string{KindAuto, KindVLLM, KindTEI, KindXinference}

// Config is what a profile says about the reranker.
type Config struct {
	BaseURL   string        // server root or its /v1, e.g. http://10.0.0.7:8080
	Model     string        // vLLM: optional served name; Xinference: model UID; TEI: ignored
	APIKeyEnv string        // name of the environment variable holding the key ("" = no key)
	Kind      string        // one of Kinds; "" = auto
	Timeout   time.Duration // per request, default 120 s
}

// Reranker reorders documents for a query; *Client implements it.
// cofe.Config.Reranker takes any Reranker.
type Reranker interface {
	Rerank(ctx context.Context, query string, docs []string, topN int) ([]retrieve.Ranked, error)
}

var versionSuffix = regexp.MustCompile(`/v[0-9]+$`)

// roots splits a base URL into the server root and its versioned API root:
// http://h:8000/v1 → http://h:8000, http://h:8000/v1; http://h:8000 →
// http://h:8000, http://h:8000/v1.
func roots(base string) (root, versioned string) {
	base = strings.TrimRight(strings.TrimSpace(base), "/")
	if versionSuffix.MatchString(base) {
		return versionSuffix.ReplaceAllString(base, ""), base
	}
	return base, base + "/v1"
}

// New checks cfg and builds the client. The key is read from the variable
// APIKeyEnv names and never logged. With KindAuto the server is identified
// on the first Rerank call, so New itself makes no request.
func New(cfg Config) (*Client, error) {
	if strings.TrimSpace(cfg.BaseURL) == "" {
		return nil, text.NewError(text.New("未配置重排序服务地址", "rerank: no base_url"), nil)
	}
	kind := cfg.Kind
	if kind == "" {
		kind = KindAuto
	}
	// A key typed in the window, else the variable, else the OS keyring;
	// a variable named but holding no key anywhere is an error at once.
	key := ""
	if cfg.APIKeyEnv != "" {
		if key, _, _ = secret.Default().Get(secret.Reranker("reranker"), cfg.APIKeyEnv); key == "" {
			return nil, text.NewError(text.New(fmt.Sprintf("环境变量 %s 未设置", cfg.APIKeyEnv), fmt.Sprintf("rerank: environment variable %s is empty", cfg.APIKeyEnv)), nil)
		}
	}
	httpsafe.Register(httpsafe.URLSecrets(cfg.BaseURL)...)
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 120 * time.Second
	}
	root, versioned := roots(cfg.BaseURL)
	// The shared client refuses a redirect to another host, so queries and
	// passages never go to an address the profile does not name.
	c := &Client{Model: cfg.Model, APIKey: key, Client: httpsafe.NewClient(httpsafe.Options{Timeout: timeout})}
	switch kind {
	case KindVLLM:
		// vLLM serves /rerank, /v1/rerank and /v2/rerank and warns that
		// /v1/rerank is not its home (vllm/entrypoints/pooling/score/api_router.py).
		c.URL, c.Flavor = root+"/rerank", FlavorJina
	case KindTEI:
		c.URL, c.Flavor = root+"/rerank", FlavorTEI
	case KindXinference:
		if strings.TrimSpace(cfg.Model) == "" {
			return nil, text.NewError(text.New("Xinference 需要在 model 中填写模型 UID", "rerank: xinference needs the model UID in model"), nil)
		}
		c.URL, c.Flavor = versioned+"/rerank", FlavorJina
	case KindAuto:
		c.auto = &detection{root: root, versioned: versioned}
	default:
		return nil, text.NewError(text.New(fmt.Sprintf("未知的重排序服务类型 %q（可选：%s）", cfg.Kind, strings.Join(Kinds, "、")), fmt.Sprintf("rerank: kind %q (one of %s)", cfg.Kind, strings.Join(Kinds, ", "))), nil)
	}
	return c, nil
}

// FromProfile builds the reranker a profile's [reranker] section describes;
// no section gives a nil Reranker (the retrieved order is kept). The result
// can be assigned to cofe.Config.Reranker as it is.
func FromProfile(p *profile.Reranker) (Reranker, error) {
	if p == nil {
		return nil, nil
	}
	c, err := New(Config{BaseURL: p.BaseURL, Model: p.Model, APIKeyEnv: p.APIKeyEnv, Kind: p.Kind})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// detection is the pending identification of a KindAuto server.
type detection struct {
	mu              sync.Mutex
	done            bool
	root, versioned string
}

// teiInfo is the part of TEI's GET /info reply (router/src/lib.rs, struct
// Info) that tells it apart and sizes its batches.
type teiInfo struct {
	ModelID            string          `json:"model_id"`
	ModelType          json.RawMessage `json:"model_type"`
	MaxClientBatchSize int             `json:"max_client_batch_size"`
}

// resolve identifies a KindAuto server once: a TEI /info reply selects the
// TEI shape at /rerank with TEI's own batch limit; a 404 or any other
// reply selects the Jina shape at /v1/rerank, which vLLM and Xinference
// both serve. A server that cannot be reached is an error, never a guess.
func (r *Client) resolve(ctx context.Context) error {
	a := r.auto
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.done {
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.root+"/info", nil)
	if err != nil {
		return fmt.Errorf("rerank: %s: %w", a.root, err)
	}
	if r.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+r.APIKey)
	}
	resp, err := r.httpClient().Do(req)
	if err != nil {
		return text.NewError(text.New(fmt.Sprintf("无法连接重排序服务 %s", a.root), fmt.Sprintf("rerank: cannot reach %s", a.root)), err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("rerank: %s/info: read reply: %w", a.root, err)
	}
	var info teiInfo
	if resp.StatusCode == http.StatusOK && json.Unmarshal(raw, &info) == nil &&
		info.ModelID != "" && len(info.ModelType) > 0 {
		r.URL, r.Flavor = a.root+"/rerank", FlavorTEI
		if r.Batch <= 0 && info.MaxClientBatchSize > 0 {
			r.Batch = info.MaxClientBatchSize
		}
	} else {
		r.URL, r.Flavor = a.versioned+"/rerank", FlavorJina
	}
	a.done = true
	return nil
}

func (r *Client) httpClient() *http.Client {
	if r.Client != nil {
		return r.Client
	}
	return httpsafe.NewClient(httpsafe.Options{Timeout: 120 * time.Second})
}
