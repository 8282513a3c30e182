package llm

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
)

// EmbedBatch is how many texts go in one /embeddings request. Servers cap
// batch sizes differently (DashScope at 10 in some versions, others at
// 2048); 32 stays under most limits and still amortises the round trip.
const EmbedBatch = 32

// Embed returns one vector per text, in order, from the endpoint's
// /embeddings route. It asks for float encoding and also accepts base64
// (some servers ignore encoding_format). Batches share the client's
// concurrency, rate limit, retries and meter.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, Usage, error) {
	out := make([][]float32, 0, len(texts))
	var total Usage
	for start := 0; start < len(texts); start += EmbedBatch {
		batch := texts[start:min(start+EmbedBatch, len(texts))]
		vecs, u, err := c.embedBatch(ctx, batch)
		total.PromptTokens += u.PromptTokens
		if err != nil {
			return nil, total, fmt.Errorf("texts %d–%d: %w", start, start+len(batch)-1, err)
		}
		out = append(out, vecs...)
	}
	return out, total, nil
}

func (c *Client) embedBatch(ctx context.Context, texts []string) ([][]float32, Usage, error) {
	done, err := c.enter(ctx)
	if err != nil {
		return nil, Usage{}, err
	}
	defer done()
	body, err := json.Marshal(wireEmbedRequest{Model: c.ep.Model, Input: texts, EncodingFormat: "float"})
	if err != nil {
		return nil, Usage{}, fmt.Errorf("llm: encode embeddings request: %w", err)
	}
	var vecs [][]float32
	var usage Usage
	t, err := c.do(ctx, c.embedURL, embedReplyBytes, func() ([]byte, error) { return body, nil }, func(b []byte) error {
		var err error
		vecs, usage, err = decodeEmbeddings(b, len(texts))
		return err
	}, nil)
	c.meter.record(c.ep, usage, usage != (Usage{}), t, err, false)
	if err != nil {
		return nil, usage, c.wrap(err, t.attempts)
	}
	return vecs, usage, nil
}

func decodeEmbeddings(body []byte, want int) ([][]float32, Usage, error) {
	var w wireEmbedReply
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, Usage{}, fmt.Errorf("%w: %v", errMalformed, err)
	}
	var u Usage
	if w.Usage != nil {
		u = *w.Usage
	}
	if len(w.Data) == 0 && len(w.Error) > 0 && string(w.Error) != "null" {
		return nil, u, parseAPIError(200, body)
	}
	if len(w.Data) != want {
		return nil, u, fmt.Errorf("%w: %d embeddings for %d texts", ErrEmptyReply, len(w.Data), want)
	}
	out := make([][]float32, want)
	for _, d := range w.Data {
		if d.Index < 0 || d.Index >= want || out[d.Index] != nil {
			return nil, u, fmt.Errorf("%w: embedding index %d out of range or repeated", errMalformed, d.Index)
		}
		v, err := decodeVector(d.Embedding)
		if err != nil {
			return nil, u, err
		}
		out[d.Index] = v
	}
	return out, u, nil
}

// decodeVector accepts a JSON array of numbers or a base64 string of
// little-endian float32s (OpenAI's encoding_format "base64").
func decodeVector(raw json.RawMessage) ([]float32, error) {
	var v []float32
	if err := json.Unmarshal(raw, &v); err == nil {
		return v, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("%w: embedding is neither an array nor base64", errMalformed)
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%4 != 0 {
		return nil, fmt.Errorf("%w: bad base64 embedding", errMalformed)
	}
	v = make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}
