package textmetric

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The oracle tests compare the prepared references (BLEURef, RougeLRef),
// which the baselines score 100,000 questions with, against the pair-by-pair
// functions the reference vectors test (SentenceBLEU, Rouge, RougeL and the
// textbook LCS below) on thousands of generated texts: Chinese, ASCII,
// mixed, empty, long, and the characters where the tokenizers' rules bite.
// Every float must be equal to the last bit.

// oracleRunes are the characters the generated texts are drawn from, in
// classes, so that each text has a mix and matches happen across texts.
var oracleRunes = [][]rune{
	[]rune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
	[]rune("0123456789"),
	[]rune(".,-'&;<>\"!?()[]{}~`@#$%^*+=:/\\|_"),
	[]rune("     \t\n\r\x1c\x1d\x1e\x1f\u00a0\u0085\u3000\u2028"),
	[]rune("办理居民身份证须携带户口簿原件及复印件工本费元申请材料受理条件法定时限国务院"),
	[]rune("，。；：（）《》“”、！？【】…—①②"),
	[]rune("éß\u0130\u212aǅΣσçñ😀𠀀𪚥\u0301\u200b\ufeff\uff21\uff41\u2001\u2a6d\u2f81\u2600"),
}

// oracleWords are whole pieces the tokenizers treat specially.
var oracleWords = []string{"&amp;", "&quot;", "&lt;", "&gt;", "<skipped>", "-\n", "1,000.50", "12-3", "U.S.", "e.g.", "3.5", "the", "cat", "办理", "身份证", "APP", "İstanbul", "KELVIN"}

// oracleText draws a text of about n characters; mode picks its kind.
func oracleText(r *rand.Rand, n int, mode int) string {
	var b strings.Builder
	for b.Len() < n {
		if r.IntN(8) == 0 {
			b.WriteString(oracleWords[r.IntN(len(oracleWords))])
			continue
		}
		var class int
		switch mode {
		case 0: // ASCII
			class = []int{0, 0, 0, 0, 1, 2, 3, 3}[r.IntN(8)]
		case 1: // Chinese
			class = []int{4, 4, 4, 4, 5, 5, 1, 3}[r.IntN(8)]
		default: // everything
			class = r.IntN(len(oracleRunes))
		}
		rs := oracleRunes[class]
		b.WriteRune(rs[r.IntN(len(rs))])
	}
	return b.String()
}

// oraclePairs are (hypothesis, reference) pairs: unrelated texts, texts
// that share spans with each other (so that n-grams of every order match
// and repeat), empty texts and long ones.
func oraclePairs(seed uint64, n int) [][2]string {
	r := rand.New(rand.NewPCG(seed, 27))
	pairs := [][2]string{{"", ""}, {"", "a b"}, {"a b", ""}, {" ", "\n"}, {"办理", "办理办理"}}
	for len(pairs) < n {
		mode := r.IntN(3)
		ref := oracleText(r, []int{8, 40, 200, 1200}[r.IntN(4)], mode)
		var hyp string
		switch r.IntN(4) {
		case 0:
			hyp = oracleText(r, 1+r.IntN(200), r.IntN(3))
		default: // spans of the reference, shuffled, with noise between
			rs := []rune(ref)
			var b strings.Builder
			for range 1 + r.IntN(6) {
				i := r.IntN(len(rs) + 1)
				j := min(len(rs), i+r.IntN(30))
				b.WriteString(string(rs[i:j]))
				if r.IntN(2) == 0 {
					b.WriteString(oracleText(r, r.IntN(10), mode))
				}
			}
			hyp = b.String()
		}
		pairs = append(pairs, [2]string{hyp, ref})
	}
	return pairs
}

// oracleLCS is rouge-score's LCS length as a plain table, the oracle of
// the bit-parallel one.
func oracleLCS(a, b []int32) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else {
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func TestBLEURefOracle(t *testing.T) {
	pairs := oraclePairs(1, 600)
	var opts []BLEUOptions
	for _, tok := range []string{BLEUTok13a, BLEUTokZh, BLEUTokIntl, BLEUTokChar, BLEUTokNone} {
		opts = append(opts, BLEUOptions{Tokenize: tok}, BLEUOptions{Tokenize: tok, Lowercase: true, Smooth: SmoothFloor},
			BLEUOptions{Tokenize: tok, Smooth: SmoothAddK, MaxOrder: 3}, BLEUOptions{Tokenize: tok, Smooth: SmoothNone})
	}
	scratch := &BLEUScratch{}
	for _, o := range opts {
		for k, p := range pairs {
			if o.Tokenize != BLEUTok13a && o.Tokenize != BLEUTokZh && k%5 != 0 {
				continue // the other tokenizers share the counting, not the fast tokenizing
			}
			ref, want, diff := bleuRefAndSentence(t, o, p[0], p[1], scratch)
			if diff != "" {
				t.Fatal(diff)
			}
			if got := ref.Score(p[0], scratch); math.Float64bits(got) != math.Float64bits(want.Score) {
				t.Fatalf("%+v %q vs %q: Score %v, want %v", o, p[0], p[1], got, want.Score)
			}
		}
	}
}

func TestRougeLRefOracle(t *testing.T) {
	for _, limit := range []int{maxMaskWords, 0} { // masks, then the table for every text
		t.Run(strconv.Itoa(limit), func(t *testing.T) {
			defer func(m int) { maxMaskWords = m }(maxMaskWords)
			maxMaskWords = limit
			testRougeLRefOracle(t)
		})
	}
}

func testRougeLRefOracle(t *testing.T) {
	var (
		buf     []int32
		scratch RougeScratch
	)
	toks := []func(string) []string{TokenizeChinese, func(s string) []string { return RougeTokenize(s, false) }}
	for _, p := range oraclePairs(2, 1500) {
		for _, tok := range toks {
			target, pred := tok(p[1]), tok(p[0])
			ti, pi := intern(target, pred)
			l := float64(oracleLCS(ti, pi))
			want := PRF{}
			if len(target) > 0 && len(pred) > 0 {
				want.P, want.R = l/float64(len(pred)), l/float64(len(target))
				want.F = fmeasure(want.P, want.R)
			}
			var got PRF
			got, buf = NewRougeLRef(target).L(pred, buf)
			if got != want || RougeL(target, pred) != want {
				t.Fatalf("%q vs %q: %+v and %+v, want %+v", p[0], p[1], got, RougeL(target, pred), want)
			}
		}
		// The baselines' ROUGE-L: Rouge's own tokenizer choice.
		want := Rouge(p[1], p[0], RougeOptions{}).RougeL
		target := RougeTokenize(p[1], false)
		predTok := RougeTokenize(p[0], false)
		if IsChinese(p[1]) || IsChinese(p[0]) {
			target, predTok = TokenizeChinese(p[1]), TokenizeChinese(p[0])
		}
		ref := NewRougeLRef(target)
		got, _ := ref.L(predTok, nil)
		fromText := ref.LText(p[0], IsChinese(p[1]) || IsChinese(p[0]), false, &scratch)
		if math.Float64bits(got.F) != math.Float64bits(want.F) || fromText != got {
			t.Fatalf("%q vs %q: %v and %v, want %v", p[0], p[1], got.F, fromText.F, want.F)
		}
	}
}

// The tokenizers as they were before they shared buffers (commit 81dbe89),
// the oracle of expandPunct, regexpPasses and replace13a.
func oldTokenizeRegexp(line string) string {
	rs := make([]rune, 0, len(line)+8)
	for _, r := range line {
		if is13aPunct(r) {
			rs = append(rs, ' ', r, ' ')
		} else {
			rs = append(rs, r)
		}
	}
	isPeriodComma := func(r rune) bool { return r == '.' || r == ',' }
	notDigit := func(r rune) bool { return !isASCIIDigit(r) }
	rs = subPairs(rs, notDigit, isPeriodComma, func(x, y rune, out []rune) []rune {
		return append(out, x, ' ', y, ' ')
	})
	rs = subPairs(rs, isPeriodComma, notDigit, func(x, y rune, out []rune) []rune {
		return append(out, ' ', x, ' ', y)
	})
	rs = subPairs(rs, isASCIIDigit, func(r rune) bool { return r == '-' }, func(x, y rune, out []rune) []rune {
		return append(out, x, ' ', y, ' ')
	})
	return joinFields(string(rs))
}

func oldTokenize13a(line string) string {
	line = strings.ReplaceAll(line, "<skipped>", "")
	line = strings.ReplaceAll(line, "-\n", "")
	line = strings.ReplaceAll(line, "\n", " ")
	line = strings.ReplaceAll(line, "&quot;", `"`)
	line = strings.ReplaceAll(line, "&amp;", "&")
	line = strings.ReplaceAll(line, "&lt;", "<")
	line = strings.ReplaceAll(line, "&gt;", ">")
	return oldTokenizeRegexp(" " + line + " ")
}

func oldTokenizeZh(line string) string {
	line = strings.TrimFunc(line, isPySpace)
	var b strings.Builder
	for _, r := range line {
		if isSacreZhChar(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		} else {
			b.WriteRune(r)
		}
	}
	return oldTokenizeRegexp(b.String())
}

// oracleTexts are the texts of oraclePairs, each once, and some with
// invalid UTF-8.
func oracleTexts(seed uint64, n int) []string {
	var out []string
	for _, p := range oraclePairs(seed, n) {
		out = append(out, p[0], p[1])
	}
	return append(out, "a\xffb", "\xe4\xb8", "办\x80理 1.\xff,2", "\xed\xa0\x80x")
}

func TestTokenizersOracle(t *testing.T) {
	for _, s := range oracleTexts(3, 1500) {
		if got, want := tokenize13a(s), oldTokenize13a(s); got != want {
			t.Fatalf("13a %q: %q, want %q", s, got, want)
		}
		if got, want := tokenizeZh(s), oldTokenizeZh(s); got != want {
			t.Fatalf("zh %q: %q, want %q", s, got, want)
		}
		if got, want := tokenizeRegexp(s), oldTokenizeRegexp(s); got != want {
			t.Fatalf("regexp %q: %q, want %q", s, got, want)
		}
	}
}

// TestTokenIDsOracle: the ids a text is tokenised into without strings are
// those of the string tokenizers' tokens, looked up in a vocabulary made
// from another text (so that some tokens are in it and some are not).
func TestTokenIDsOracle(t *testing.T) {
	texts := oracleTexts(4, 800)
	var (
		bt    bleuTokens
		ids   []uint32
		rids  []int32
		buf   []byte
		nHits int
	)
	for k, s := range texts {
		other := texts[(k*7+3)%len(texts)] + " " + s[:len(s)/2]
		for _, o := range []BLEUOptions{{Tokenize: BLEUTok13a}, {Tokenize: BLEUTokZh}, {Tokenize: BLEUTokZh, Lowercase: true}, {Tokenize: BLEUTokIntl}, {Tokenize: BLEUTokChar}, {Tokenize: BLEUTokNone, Lowercase: true}} {
			o, _ = o.withDefaults()
			vocab := map[string]uint32{}
			for _, w := range o.preprocess(other) {
				vocab[w] = uint32(len(vocab) + 1)
			}
			var want []uint32
			for _, w := range o.preprocess(s) {
				want = append(want, vocab[w])
				if vocab[w] != 0 {
					nHits++
				}
			}
			ids = bt.bleuIDs(ids[:0], s, o, vocab)
			if !slices.Equal(ids, want) {
				t.Fatalf("%+v %q: %v, want %v", o, s, ids, want)
			}
		}
		for _, c := range []struct {
			chinese, stem bool
			tok           func(string) []string
		}{
			{true, false, TokenizeChinese},
			{false, false, func(s string) []string { return RougeTokenize(s, false) }},
			{false, true, func(s string) []string { return RougeTokenize(s, true) }},
		} {
			vocab := map[string]int32{}
			for _, w := range c.tok(other) {
				if _, ok := vocab[w]; !ok {
					vocab[w] = int32(len(vocab))
				}
			}
			var want []int32
			for _, w := range c.tok(s) {
				id, ok := vocab[w]
				if !ok {
					id = -1
				}
				want = append(want, id)
			}
			rids, buf = rougeIDs(rids[:0], s, c.chinese, c.stem, vocab, buf)
			if !slices.Equal(rids, want) {
				t.Fatalf("rouge chinese=%v stem=%v %q: %v, want %v", c.chinese, c.stem, s, rids, want)
			}
		}
	}
	if nHits < 1000 {
		t.Fatalf("only %d tokens found in the vocabularies: the test compares too little", nHits)
	}
}

// TestVocabOracle: a Vocab numbers the tokens of each tokenizer in the
// order of first sight and knows its stopwords; RougeIDs of two texts is
// RougeTokens of their tokens, to the bit.
func TestVocabOracle(t *testing.T) {
	texts := oracleTexts(5, 600)
	toks := map[Tokenizer]func(string) []string{
		TokEnglish: TokenizeEnglish, TokChinese: TokenizeChinese,
		TokRouge:     func(s string) []string { return RougeTokenize(s, false) },
		TokRougeStem: func(s string) []string { return RougeTokenize(s, true) },
	}
	var scratch RougeScratch
	for kind, tok := range toks {
		v, want := NewVocab(), map[string]int32{}
		for k, s := range texts {
			if k%100 == 0 {
				v.Reset()
				clear(want)
			}
			var wantIDs []int32
			for _, w := range tok(s) {
				id, ok := want[w]
				if !ok {
					id = int32(len(want))
					want[w] = id
				}
				wantIDs = append(wantIDs, id)
			}
			ids := v.AppendIDs(nil, s, kind)
			if !slices.Equal(ids, wantIDs) {
				t.Fatalf("tokenizer %d %q: %v, want %v", kind, s, ids, wantIDs)
			}
			for _, w := range tok(s) {
				for _, zh := range []bool{false, true} {
					if v.Stopword(want[w], zh) != IsStopword(w, zh) {
						t.Fatalf("%q: Stopword(%v) %v", w, zh, !IsStopword(w, zh))
					}
				}
			}
			if k%100 == 0 {
				continue
			}
			prev := texts[k-1]
			ta, tb := tok(prev), tok(s)
			w1, w2, wl := RougeTokens(ta, tb)
			g1, g2, gl := RougeIDs(NewRougeText(v.AppendIDs(nil, prev, kind)), NewRougeText(ids), &scratch)
			if g1 != w1 || g2 != w2 || gl != wl {
				t.Fatalf("%q vs %q: %v %v %v, want %v %v %v", prev, s, g1, g2, gl, w1, w2, wl)
			}
		}
	}
}

// TestRuneClassOracle: the rune class table answers as unicode does, for
// every character up to U+FFFF and the supplementary Han blocks.
func TestRuneClassOracle(t *testing.T) {
	for r := rune(0); r < 0x40000; r++ {
		if r > 0xFFFF && r < 0x20000 {
			continue
		}
		c := runeClass(r)
		if c&classHan != 0 != unicode.Is(unicode.Han, r) || c&classLetter != 0 != unicode.IsLetter(r) || c&classDigit != 0 != unicode.IsDigit(r) {
			t.Fatalf("U+%04X: class %b", r, c)
		}
	}
}

// closerOf is the table of pairs it replaced (a map), for every character
// of the Basic Multilingual Plane; openingMarks lists the same marks.
func TestCloserOfOracle(t *testing.T) {
	pairs := map[rune]rune{
		'“': '”', '"': '"', '《': '》', '〈': '〉', '「': '」', '『': '』',
		'（': '）', '(': ')', '【': '】', '[': ']',
	}
	for r := range rune(0x10000) {
		want, wok := pairs[r]
		if got, ok := closerOf(r); got != want || ok != wok {
			t.Fatalf("%q: %q %v, want %q %v", r, got, ok, want, wok)
		}
		if wok != strings.ContainsRune(openingMarks, r) {
			t.Fatalf("%q: in openingMarks %v", r, !wok)
		}
	}
}

// isPySpace's shortcut past U+3000 answers as unicode.IsSpace does, for
// every character.
func TestIsPySpaceOracle(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if want := unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f); isPySpace(r) != want {
			t.Fatalf("U+%04X: %v, want %v", r, !want, want)
		}
	}
}
