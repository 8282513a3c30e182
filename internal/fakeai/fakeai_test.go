package fakeai

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strings"
	"syscall"
	"testing"
)

func post(t *testing.T, url, body string) (*http.Response, []byte, error) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

const chatBody = `{"model":"m","messages":[{"role":"user","content":"hello"}],"temperature":0,"seed":1}`

func TestDefaultReplyDeterministic(t *testing.T) {
	s := New(t)
	var contents []string
	for range 2 {
		resp, b, err := post(t, s.URL()+"/chat/completions", chatBody)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("status %v err %v", resp, err)
		}
		var r wireReply
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		contents = append(contents, *r.Choices[0].Message.Content)
		if r.Usage.PromptTokens != 5 || r.Usage.CompletionTokens != len(contents[0]) {
			t.Errorf("usage %+v", r.Usage)
		}
	}
	// SHA-256 of "user\x00hello\x00" starts 377511078488764e = 3996118968347162190;
	// mod 10 = 0, +1 = 1.
	if contents[0] != "Score: 1" || contents[1] != contents[0] {
		t.Errorf("replies %q", contents)
	}
	if s.Requests() != 2 || s.Distinct() != 1 || s.Repeats() != 1 {
		t.Errorf("requests %d distinct %d repeats %d", s.Requests(), s.Distinct(), s.Repeats())
	}
	ch := s.Chats()[0]
	if ch.Temperature == nil || *ch.Temperature != 0 || !ch.Has("temperature") || ch.Has("max_tokens") || ch.N != 1 {
		t.Errorf("decoded %+v", ch)
	}
}

func TestScoreRange(t *testing.T) {
	seen := map[int]bool{}
	for i := range 500 {
		n := Score([]Message{{Role: "user", Content: strings.Repeat("x", i)}})
		if n < 1 || n > 10 {
			t.Fatalf("score %d out of 1..10", n)
		}
		seen[n] = true
	}
	if len(seen) != 10 {
		t.Errorf("only %d distinct scores in 500 prompts", len(seen))
	}
}

func TestScriptedFaults(t *testing.T) {
	s := New(t, WithRetryAfter("7"), WithScript(RateLimited, Unavailable, Malformed, EmptyChoices, OutOfRange, Truncated, None))
	type want struct {
		status int
		check  func(h http.Header, b []byte) bool
	}
	wants := []want{
		{429, func(h http.Header, b []byte) bool { return h.Get("Retry-After") == "7" }},
		{503, func(h http.Header, b []byte) bool { return bytes.Contains(b, []byte(`"error"`)) }},
		{200, func(h http.Header, b []byte) bool { return !json.Valid(b) }},
		{200, func(h http.Header, b []byte) bool { return bytes.Contains(b, []byte(`"choices":[]`)) }},
		{200, func(h http.Header, b []byte) bool { return bytes.Contains(b, []byte(`"Score: 11"`)) }},
		{200, func(h http.Header, b []byte) bool { return bytes.Contains(b, []byte(`"finish_reason":"length"`)) }},
		{200, func(h http.Header, b []byte) bool { return bytes.Contains(b, []byte(`"Score: 1"`)) }},
	}
	for i, w := range wants {
		resp, b, err := post(t, s.URL()+"/chat/completions", chatBody)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != w.status || !w.check(resp.Header, b) {
			t.Errorf("request %d: status %d body %s", i+1, resp.StatusCode, b)
		}
	}
}

func TestFaultRatesSeeded(t *testing.T) {
	run := func() []int {
		s := New(t, WithFaultRates(42, map[Fault]float64{Unavailable: 0.3, Garbage: 0.2}))
		var codes []int
		for range 40 {
			resp, b, err := post(t, s.URL()+"/chat/completions", chatBody)
			if err != nil {
				t.Fatal(err)
			}
			code := resp.StatusCode
			if bytes.Contains(b, []byte("not able to rate")) {
				code = 1
			}
			codes = append(codes, code)
		}
		return codes
	}
	a, b := run(), run()
	n503, nGarbage := 0, 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different faults at %d", i)
		}
		switch a[i] {
		case 503:
			n503++
		case 1:
			nGarbage++
		}
	}
	if n503 == 0 || nGarbage == 0 || n503+nGarbage == 40 {
		t.Errorf("503 %d garbage %d of 40", n503, nGarbage)
	}
}

func TestDieAfter(t *testing.T) {
	s := New(t, WithDieAfter(2, Die503))
	for i, want := range []int{200, 200, 503, 503} {
		resp, _, err := post(t, s.URL()+"/chat/completions", chatBody)
		if err != nil || resp.StatusCode != want {
			t.Errorf("request %d: %v %v, want %d", i+1, resp, err, want)
		}
	}

	s = New(t, WithDieAfter(1, DieRefuse))
	if _, _, err := post(t, s.URL()+"/chat/completions", chatBody); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		// The first post may reuse the kept-alive connection (hung up on);
		// after that the listener is gone and the dial is refused.
		_, _, err := post(t, s.URL()+"/chat/completions", chatBody)
		if err == nil {
			t.Fatalf("request %d after death succeeded", i+2)
		}
		if i == 1 && !errors.Is(err, syscall.ECONNREFUSED) {
			t.Errorf("want connection refused, got %v", err)
		}
	}
}

func TestEmbeddings(t *testing.T) {
	s := New(t, WithEmbedDim(4))
	resp, b, err := post(t, s.URL()+"/embeddings", `{"model":"e","input":["a","b"],"encoding_format":"base64","dimensions":3}`)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %v", resp, err)
	}
	var r struct {
		Data []struct {
			Index     int    `json:"index"`
			Embedding string `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &r); err != nil || len(r.Data) != 2 {
		t.Fatalf("%s: %v", b, err)
	}
	raw, _ := base64.StdEncoding.DecodeString(r.Data[1].Embedding)
	want := Vector("b", 3)
	var norm float64
	for i := range want {
		got := math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		if got != want[i] {
			t.Errorf("component %d: %v, want %v", i, got, want[i])
		}
		norm += float64(got) * float64(got)
	}
	if math.Abs(norm-1) > 1e-6 || len(raw) != 12 {
		t.Errorf("norm² %v, %d bytes", norm, len(raw))
	}

	resp, b, _ = post(t, s.URL()+"/embeddings", `{"model":"e","input":"one"}`)
	var f struct {
		Data []struct {
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	json.Unmarshal(b, &f)
	if resp.StatusCode != 200 || len(f.Data) != 1 || len(f.Data[0].Embedding) != 4 {
		t.Errorf("single input: %s", b)
	}
	if resp, _, _ = post(t, s.URL()+"/embeddings", `{"model":"e","input":[[1,2]]}`); resp.StatusCode != 400 {
		t.Errorf("token arrays: status %d, want 400", resp.StatusCode)
	}
}

func TestModelsAndAuth(t *testing.T) {
	s := New(t, WithAPIKey("k1"), WithModels("a", "b"))
	resp, err := http.Get(s.URL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(b, []byte(`"id":"a"`)) || !bytes.Contains(b, []byte(`"id":"b"`)) {
		t.Errorf("models %s", b)
	}
	req, _ := http.NewRequest("POST", s.URL()+"/chat/completions", strings.NewReader(chatBody))
	req.Header.Set("Authorization", "Bearer wrong")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 401 || !bytes.Contains(b, []byte("wrong")) {
		t.Errorf("bad key: %d %s", resp.StatusCode, b)
	}
}
