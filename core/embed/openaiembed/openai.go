// Package openaiembed is the embed.Embedder that calls an OpenAI-compatible
// /v1/embeddings endpoint. It lives apart from package embed so the methods
// that take an Embedder (mfss, cofe) do not link net/http.
package openaiembed

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"cubeworkbench/core/embed"
	"cubeworkbench/core/httpsafe"
	"cubeworkbench/core/text"
)

// Config configures an OpenAI-compatible /v1/embeddings endpoint.
type Config struct {
	BaseURL   string        // API root, e.g. http://localhost:11434/v1; "/v1" is added when the path has no /vN
	Model     string        // e.g. all-minilm, text-embedding-3-small
	APIKeyEnv string        // name of the environment variable holding the key ("" = no key)
	APIKey    string        // the key itself when the caller has it (core/secret); wins over APIKeyEnv
	BatchSize int           // texts per request, default 64
	Timeout   time.Duration // per request, default 60 s
}

// Client embeds through an OpenAI-compatible endpoint, in batches, with an
// in-memory cache keyed by model and text, so a text is sent once per run.
type Client struct {
	cfg    Config
	client *openai.Client

	mu    sync.Mutex
	cache map[string][]float32
	dim   int
	calls int // requests sent, for tests and progress reports
}

var versionSuffix = regexp.MustCompile(`/v[0-9]+$`)

var _ embed.Embedder = (*Client)(nil)

// New checks the configuration and builds the client. The key is read
// from the environment variable named by APIKeyEnv and is never logged.
func New(cfg Config) (*Client, error) {
	if strings.TrimSpace(cfg.BaseURL) == "" {
		return nil, text.NewError(text.New("未配置嵌入服务地址", "embed: no base URL"), nil)
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, text.NewError(text.New("未配置嵌入模型", "embed: no model"), nil)
	}
	key := cfg.APIKey
	if key == "" && cfg.APIKeyEnv != "" {
		key = os.Getenv(cfg.APIKeyEnv)
		if key == "" {
			return nil, text.NewError(text.New(fmt.Sprintf("环境变量 %s 未设置", cfg.APIKeyEnv), fmt.Sprintf("embed: environment variable %s is empty", cfg.APIKeyEnv)), nil)
		}
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 64
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	base := strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/")
	if !versionSuffix.MatchString(base) {
		base += "/v1"
	}
	cfg.BaseURL = base
	oc := openai.DefaultConfig(key)
	oc.BaseURL = base
	httpsafe.Register(key)
	httpsafe.Register(httpsafe.URLSecrets(base)...)
	oc.HTTPClient = httpsafe.NewClient(httpsafe.Options{Timeout: cfg.Timeout}) // cross-host redirects refused
	return &Client{cfg: cfg, client: openai.NewClientWithConfig(oc), cache: map[string][]float32{}}, nil
}

// Name implements Embedder: the model name, so reports say which one.
func (o *Client) Name() string { return o.cfg.Model }

// Dim implements Embedder; 0 until the first reply has been seen.
func (o *Client) Dim() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.dim
}

// Calls returns how many requests have been sent.
func (o *Client) Calls() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.calls
}

func (o *Client) key(text string) string { return o.cfg.Model + "\x00" + text }

// Embed implements Embedder. Cached and repeated texts are not sent again;
// blank texts are not sent and get the zero vector.
func (o *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var todo []string
	seen := map[string]bool{}
	o.mu.Lock()
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			continue // endpoints reject empty input; an empty text has no direction
		}
		if v, ok := o.cache[o.key(t)]; ok {
			out[i] = v
		} else if !seen[t] {
			seen[t] = true
			todo = append(todo, t)
		}
	}
	o.mu.Unlock()
	for start := 0; start < len(todo); start += o.cfg.BatchSize {
		batch := todo[start:min(start+o.cfg.BatchSize, len(todo))]
		vecs, err := o.request(ctx, batch)
		if err != nil {
			return nil, httpsafe.RedactError(err) // no key or URL secret in any message
		}
		o.mu.Lock()
		for i, t := range batch {
			o.cache[o.key(t)] = vecs[i]
		}
		o.mu.Unlock()
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for i, t := range texts {
		if out[i] != nil {
			continue
		}
		if v, ok := o.cache[o.key(t)]; ok {
			out[i] = v
		} else { // empty text: the zero vector (its cosine with anything is 0)
			out[i] = make([]float32, o.dim)
		}
	}
	return out, nil
}

// request sends one batch and checks the reply's shape.
func (o *Client) request(ctx context.Context, batch []string) ([][]float32, error) {
	o.mu.Lock()
	o.calls++
	o.mu.Unlock()
	resp, err := o.client.CreateEmbeddings(ctx, openai.EmbeddingRequestStrings{
		Input:          batch,
		Model:          openai.EmbeddingModel(o.cfg.Model),
		EncodingFormat: openai.EmbeddingEncodingFormatFloat,
	})
	if err != nil {
		return nil, fmt.Errorf("embed: %s at %s: %w", o.cfg.Model, o.cfg.BaseURL, err)
	}
	if len(resp.Data) != len(batch) {
		return nil, text.NewError(text.New(fmt.Sprintf("嵌入模型 %s 返回 %d 个向量，而输入有 %d 段文本", o.cfg.Model, len(resp.Data), len(batch)), fmt.Sprintf("embed: %s returned %d vectors for %d texts", o.cfg.Model, len(resp.Data), len(batch))), nil)
	}
	data := resp.Data
	sort.SliceStable(data, func(i, j int) bool { return data[i].Index < data[j].Index })
	vecs := make([][]float32, len(batch))
	o.mu.Lock()
	defer o.mu.Unlock()
	for i, d := range data {
		if d.Index != i {
			return nil, text.NewError(text.New(fmt.Sprintf("嵌入模型 %s 返回的向量序号不是 0 至 %d", o.cfg.Model, len(batch)-1), fmt.Sprintf("embed: %s returned indices that are not 0..%d", o.cfg.Model, len(batch)-1)), nil)
		}
		if len(d.Embedding) == 0 {
			return nil, text.NewError(text.New(fmt.Sprintf("嵌入模型 %s 返回了空向量", o.cfg.Model), fmt.Sprintf("embed: %s returned an empty vector", o.cfg.Model)), nil)
		}
		if o.dim == 0 {
			o.dim = len(d.Embedding)
		}
		if len(d.Embedding) != o.dim {
			return nil, text.NewError(text.New(fmt.Sprintf("嵌入模型 %s 返回 %d 维向量，应为 %d 维", o.cfg.Model, len(d.Embedding), o.dim), fmt.Sprintf("embed: %s returned %d dimensions, expected %d", o.cfg.Model, len(d.Embedding), o.dim)), nil)
		}
		vecs[i] = d.Embedding
	}
	return vecs, nil
}
