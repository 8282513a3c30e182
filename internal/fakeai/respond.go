package fakeai

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
)

// Score is the default responder's score for a conversation: 1 + the first
// 8 bytes of SHA-256 over every role and content modulo 10, so it lies in
// 1..10 and is the same for the same messages in every run. (FNV's low bit
// only tracks the parity of odd bytes, which would halve the range.)
func Score(msgs []Message) int {
	h := sha256.New()
	for _, m := range msgs {
		io.WriteString(h, m.Role)
		h.Write([]byte{0})
		io.WriteString(h, m.Content)
		h.Write([]byte{0})
	}
	return 1 + int(binary.BigEndian.Uint64(h.Sum(nil))%10)
}

// Sequence is a responder that answers the n-th request (ChatRequest.N)
// with rs[n-1] and every later one with DefaultResponse: a script of
// replies for a test that checks what a client does with each in turn.
func Sequence(rs ...Response) func(ChatRequest) Response {
	return func(req ChatRequest) Response {
		if req.N >= 1 && req.N <= len(rs) {
			return rs[req.N-1]
		}
		return DefaultResponse(req)
	}
}

// DefaultResponse answers "Score: N" with N = Score(req.Messages).
func DefaultResponse(req ChatRequest) Response {
	return Response{Content: fmt.Sprintf("Score: %d", Score(req.Messages))}
}

// Vector is the fake embedding of text: dim pseudo-random components seeded
// by a hash of the text, L2-normalized like Ollama's.
func Vector(text string, dim int) []float32 {
	h := fnv.New64a()
	io.WriteString(h, text)
	x := h.Sum64()
	v := make([]float32, dim)
	var norm float64
	for i := range v {
		// splitmix64: cheap, well mixed, no state outside this loop.
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		z ^= z >> 31
		f := float64(z>>11)/float64(1<<53)*2 - 1
		v[i] = float32(f)
		norm += f * f
	}
	if norm > 0 {
		inv := 1 / math.Sqrt(norm)
		for i := range v {
			v[i] = float32(float64(v[i]) * inv)
		}
	}
	return v
}

func (s *Server) handleEmbeddings(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	n, fault, latency, dead := s.admit(body)
	if dead {
		s.dead(w)
		return
	}
	defer s.done()

	var req EmbeddingRequest
	var raw struct {
		Input json.RawMessage `json:"input"`
	}
	decodeErr := json.Unmarshal(body, &req)
	if decodeErr == nil {
		decodeErr = json.Unmarshal(body, &raw)
	}
	if decodeErr == nil {
		var one string
		if json.Unmarshal(raw.Input, &one) == nil {
			req.Input = []string{one}
		} else {
			decodeErr = json.Unmarshal(raw.Input, &req.Input)
		}
	}
	req.Body, req.N = body, n
	s.mu.Lock()
	s.embeds = append(s.embeds, req)
	dim := s.embedDim
	s.mu.Unlock()

	if !s.admitted(w, r, latency) {
		return
	}
	if decodeErr != nil {
		writeError(w, http.StatusBadRequest, "", "invalid_request_error", "input must be a string or an array of strings")
		return
	}
	resp := s.applyFault(fault, Response{})
	if !prelude(w, r, resp) {
		return
	}
	if resp.RawBody != "" {
		io.WriteString(w, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.1,`)
		return
	}
	if req.Dimensions > 0 {
		dim = req.Dimensions
	}
	data := []map[string]any{}
	tokens := 0
	if !resp.NoChoices {
		for i, text := range req.Input {
			v := Vector(text, dim)
			var emb any = v
			if req.EncodingFormat == "base64" {
				b := make([]byte, 4*len(v))
				for j, f := range v {
					binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(f))
				}
				emb = base64.StdEncoding.EncodeToString(b)
			}
			data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": emb})
			tokens += len([]rune(text))
		}
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model,
		"usage": map[string]int{"prompt_tokens": tokens, "total_tokens": tokens}})
}

// Blind is a responder whose score does not depend on how good the answer
// is: 1 + a hash of salt and every message modulo 10, written with format
// (e.g. "评分：%d"). It stands for a weak, misconfigured or fake judge;
// each salt is another such judge. On the bundled sample, salt 13 gives
// the state issue 22 found: trimmed means near 5 for every set, a weighted
// bounded score far above 100 and, averaged in, a green verdict.
func Blind(salt int, format string) func(ChatRequest) Response {
	return func(req ChatRequest) Response {
		h := sha256.New()
		fmt.Fprint(h, salt)
		for _, m := range req.Messages {
			io.WriteString(h, m.Content)
		}
		return Response{Content: fmt.Sprintf(format, 1+binary.BigEndian.Uint64(h.Sum(nil))%10)}
	}
}
