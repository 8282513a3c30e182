package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
)

// TestRenderPinned pins the prompts a judge is sent in each language
// setting, computed before the language became a text.Lang (issue 21): a
// stored reply is found by its request's key, so a prompt that changed by
// one byte would make a resumed run ask (and pay) again. "" is a Judge
// whose Lang was never set: it gets the first built-in language, as
// before, not English.
func TestRenderPinned(t *testing.T) {
	in := Inputs{Question: "身份证丢了怎么补办？", Answer: "携带户口簿到派出所办理。", Document: "事项名称：居民身份证补领"}
	render := func(lang string) string {
		d, _ := Builtin("relevance")
		var msgs any
		var err error
		switch lang { // untyped constants: the same call before and after
		case "zh":
			msgs, err = Render(d, "zh", in)
		case "en":
			msgs, err = Render(d, "en", in)
		default:
			msgs, err = Render(d, "", in)
		}
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256([]byte(fmt.Sprintf("%#v", msgs)))
		return hex.EncodeToString(h[:8])
	}
	for lang, want := range map[string]string{"zh": "0017bac2348c9ba2", "en": "1e99e04ee5836ede", "": "0017bac2348c9ba2"} {
		if got := render(lang); got != want {
			t.Errorf("%q: prompt hash %s, want %s: stored replies would not be found", lang, got, want)
		}
	}
}
