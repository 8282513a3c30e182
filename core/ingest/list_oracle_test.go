package ingest

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestParseListPlainJSON: parseList, which reads plain JSON lists of
// strings without encoding/json, reads every list cell as the JSON-only
// reading before it did (oldParseJSONList below): entries, nil for an
// empty list and errBadList, over hand-made edges and generated lists with
// escapes, numbers, nesting, control characters, invalid UTF-8, white
// space and trailing text.
func TestParseListPlainJSON(t *testing.T) {
	cells := []string{`[]`, `[ ]`, `["G0001","G0002"]`, `[ "a" , "b" ]`, `["a",]`, `["a" "b"]`, `["a"]x`, `["a"] `, `[""," "]`,
		`["a\"b"]`, `["\u4e2d"]`, `[1, "a"]`, `[["a"]]`, `["a", null]`, `["` + "\x01" + `"]`, `["` + "\xff" + `"]`, `["` + "\xed\xa0\x80" + `"]`,
		`["a`, `[`, `["a",`, "[\t\"a\"\r\n,\"b\"]", `["办事 指南 "]`, `[true]`, `["a"]]`, `[,"a"]`, `["\/"]`, "[\"a\x7fb\"]"}
	r := rand.New(rand.NewPCG(7, 8))
	pieces := []string{`"G0001"`, `"  "`, `""`, `"办理"`, `"a\nb"`, `"x\\y"`, `1`, `2.5e3`, `null`, `["z"]`, `"` + "\xff" + `"`, `"` + "\t" + `"`, ` `, `,`, `]`, `[`, `"`, "\n", `"é"`}
	for range 20000 {
		var b strings.Builder
		b.WriteString("[")
		for k := range r.IntN(6) {
			if k > 0 && r.IntN(8) > 0 {
				b.WriteString(",")
			}
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		if r.IntN(10) > 0 {
			b.WriteString("]")
		}
		cells = append(cells, b.String())
	}
	for _, c := range cells {
		got, gerr := parseList(c)
		want, werr := oldParseJSONList(strings.TrimSpace(c))
		if !reflect.DeepEqual(got, want) || gerr != werr {
			t.Fatalf("parseList(%q) = %q, %v; want %q, %v", c, got, gerr, want, werr)
		}
	}
}

// BenchmarkParseList reads a retrieved-list cell of internal/scale's
// workbook; -benchmem shows the allocations.
func BenchmarkParseList(b *testing.B) {
	cell := `["G0001","G0734","G1288","G0003","G1999","G0450","G0012","G1024"]`
	b.Run("now", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			parseList(cell)
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			oldParseJSONList(cell)
		}
	})
}

// oldParseJSONList is parseList's JSON branch before plainJSONList.
func oldParseJSONList(s string) ([]string, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(s), &raw); err != nil {
		return nil, errBadList
	}
	out := make([]string, 0, len(raw))
	for _, r := range raw {
		v, ok := jsonScalar(r)
		if !ok {
			return nil, errBadList
		}
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}
