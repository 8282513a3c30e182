package llm

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
)

// A request key names what an endpoint is asked, so a reply can be stored
// under it and reused. It belongs here, beside Request, rather than in the
// store: the judge and the batch writer need the key but not SQLite.

// keyVersion is hashed into every key so a future change of the canonical
// form cannot collide with keys written by this one.
const keyVersion = 1

// canonicalRequest fixes the field order and the set of fields that decide
// what an endpoint returns. Struct fields marshal in declaration order, so
// the JSON (and the hash) is stable across runs and Go versions.
type canonicalRequest struct {
	V           int       `json:"v"`
	Model       string    `json:"model"`
	Temperature *float64  `json:"temperature"` // null only when not finite
	Seed        *int      `json:"seed"`
	MaxTokens   int       `json:"max_tokens"`
	JSON        bool      `json:"json"`
	Messages    []Message `json:"messages"`
}

func canonical(model string, req Request) []byte {
	msgs := req.Messages
	if msgs == nil {
		msgs = []Message{}
	}
	var temp *float64
	if t := req.Temperature; !math.IsNaN(t) && !math.IsInf(t, 0) {
		temp = &t
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep <, > and & literal: the form is meant to be readable
	if err := enc.Encode(canonicalRequest{keyVersion, model, temp, req.Seed, req.MaxTokens, req.JSON, msgs}); err != nil {
		// Only strings, ints, a finite float and a bool: cannot fail.
		panic(fmt.Sprintf("llm: canonical request: %v", err))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// RequestKey names a request: sha256 hex of the canonical JSON of the model,
// temperature, seed, max_tokens, json flag and messages. Two requests with
// the same key get the same stored reply.
func RequestKey(model string, req Request) string {
	sum := sha256.Sum256(canonical(model, req))
	return hex.EncodeToString(sum[:])
}
