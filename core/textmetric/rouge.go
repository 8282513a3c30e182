package textmetric

import (
	"math/bits"
	"slices"
	"strings"
)

// PRF is a precision / recall / F1 triple, each in [0, 1].
type PRF struct {
	P float64 `json:"precision"`
	R float64 `json:"recall"`
	F float64 `json:"f"`
}

// RougeScores holds the four ROUGE variants rouge-score reports.
type RougeScores struct {
	Rouge1    PRF `json:"rouge1"`
	Rouge2    PRF `json:"rouge2"`
	RougeL    PRF `json:"rougeL"`
	RougeLsum PRF `json:"rougeLsum"`
}

// RougeOptions configures Rouge.
type RougeOptions struct {
	// Stem applies NLTK's Porter stemmer to English tokens longer than three
	// characters, as rouge-score's use_stemmer=True does.
	Stem bool
	// Tokenizer replaces the automatic choice when set. The automatic choice
	// is rouge-score's own tokenizer for English and TokenizeChinese when
	// either text IsChinese (rouge-score's tokenizer drops every non-ASCII
	// character, so it would score all Chinese text 0).
	Tokenizer func(string) []string
}

// RougeTokenize is rouge-score's default tokenizer: lowercase, every run of
// characters outside [a-z0-9] becomes a separator, optional Porter stemming
// of tokens longer than three characters.
func RougeTokenize(s string, stem bool) []string {
	var b strings.Builder
	b.Grow(len(s) + 1)
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + ('a' - 'A'))
		case r == '\u212A': // KELVIN SIGN lowercases to ASCII k in Python
			b.WriteByte('k')
		case r == '\u0130': // İ lowercases to i + combining dot; the dot separates
			b.WriteString("i ")
		default:
			b.WriteByte(' ')
		}
	}
	toks := strings.Fields(b.String())
	if stem {
		for i, t := range toks {
			if len(t) > 3 {
				toks[i] = PorterStem(t)
			}
		}
	}
	return toks
}

// rougeTokenizer returns the tokenizer Rouge uses for a pair of texts.
func rougeTokenizer(target, prediction string, opt RougeOptions) func(string) []string {
	if opt.Tokenizer != nil {
		return opt.Tokenizer
	}
	if IsChinese(target) || IsChinese(prediction) {
		return TokenizeChinese
	}
	return func(s string) []string { return RougeTokenize(s, opt.Stem) }
}

// Rouge scores prediction against target (target first, as rouge-score's
// RougeScorer.score does) on ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum.
// ROUGE-Lsum treats each line as a sentence.
func Rouge(target, prediction string, opt RougeOptions) RougeScores {
	tok := rougeTokenizer(target, prediction, opt)
	t, p := tok(target), tok(prediction)
	var s RougeScores
	s.Rouge1, s.Rouge2, s.RougeL = RougeTokens(t, p)
	s.RougeLsum = RougeLsum(splitLines(target, tok), splitLines(prediction, tok))
	return s
}

// splitLines tokenizes each non-empty line, as rouge-score does for Lsum.
func splitLines(text string, tok func(string) []string) [][]string {
	var out [][]string
	for _, line := range strings.Split(text, "\n") {
		if line != "" {
			out = append(out, tok(line))
		}
	}
	return out
}

// RougeTokens computes ROUGE-1, ROUGE-2 and ROUGE-L over already tokenized
// texts, interning tokens once so the three share the work.
func RougeTokens(target, prediction []string) (r1, r2, rl PRF) {
	t, p := intern(target, prediction)
	return rougeN(t, p, 1), rougeN(t, p, 2), rougeLIDs(t, p)
}

// RougeN computes ROUGE-N over tokens.
func RougeN(target, prediction []string, n int) PRF {
	t, p := intern(target, prediction)
	return rougeN(t, p, n)
}

// RougeL computes sentence-level ROUGE-L (longest common subsequence).
func RougeL(target, prediction []string) PRF {
	t, p := intern(target, prediction)
	return rougeLIDs(t, p)
}

// intern maps tokens to small integers shared by both texts.
func intern(a, b []string) ([]int32, []int32) {
	ids := make(map[string]int32, len(a)+len(b))
	conv := func(toks []string) []int32 {
		out := make([]int32, len(toks))
		for i, t := range toks {
			id, ok := ids[t]
			if !ok {
				id = int32(len(ids))
				ids[t] = id
			}
			out[i] = id
		}
		return out
	}
	return conv(a), conv(b)
}

func fmeasure(p, r float64) float64 {
	if p+r > 0 {
		return 2 * p * r / (p + r)
	}
	return 0
}

// ngramKeys returns the sorted n-grams of ids, each packed into one key
// (ids are < 2^21 in practice; n-grams longer than 3 fall back to a string
// key so nothing collides).
func ngramKeys(ids []int32, n int) []string {
	if len(ids) < n {
		return nil
	}
	keys := make([]string, 0, len(ids)-n+1)
	buf := make([]byte, 4*n)
	for i := 0; i+n <= len(ids); i++ {
		for j := 0; j < n; j++ {
			v := uint32(ids[i+j])
			buf[4*j], buf[4*j+1], buf[4*j+2], buf[4*j+3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
		}
		keys = append(keys, string(buf))
	}
	slices.Sort(keys)
	return keys
}

// rougeN counts clipped n-gram overlap between two sorted multisets.
func rougeN(target, prediction []int32, n int) PRF {
	var overlap, nt, np int
	if n <= 2 {
		tk, pk := smallKeys(target, n), smallKeys(prediction, n)
		nt, np = len(tk), len(pk)
		overlap = SortedOverlap(tk, pk)
	} else {
		tk, pk := ngramKeys(target, n), ngramKeys(prediction, n)
		nt, np = len(tk), len(pk)
		overlap = SortedOverlap(tk, pk)
	}
	p := float64(overlap) / float64(max(np, 1))
	r := float64(overlap) / float64(max(nt, 1))
	return PRF{p, r, fmeasure(p, r)}
}

// smallKeys packs unigrams or bigrams into sorted uint64 keys.
func smallKeys(ids []int32, n int) []uint64 {
	if len(ids) < n {
		return nil
	}
	keys := make([]uint64, 0, len(ids)-n+1)
	for i := 0; i+n <= len(ids); i++ {
		k := uint64(uint32(ids[i]))
		if n == 2 {
			k = k<<32 | uint64(uint32(ids[i+1]))
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// SortedOverlap is Σ min(count_a, count_b) over two sorted multisets: for
// two sorted sets, the size of their intersection. The judges and MFSS
// count shared token ids with it.
func SortedOverlap[T int32 | uint64 | string](a, b []T) int {
	i, j, n := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

// lcsLen is the length of the longest common subsequence of a and b, whose
// ids are ≥ 0 (a negative id in b matches nothing).
func lcsLen(a, b []int32) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	var vocab int32
	for _, id := range a {
		vocab = max(vocab, id+1)
	}
	m := newLCSMasks(a, int(vocab))
	return m.lcs(b, nil)
}

// lcsTableLen is the LCS length by the textbook table, one row at a time.
func lcsTableLen(a, b []int32) int {
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

// lcsMasks is a text made ready for the bit-parallel LCS length (Allison
// and Dix 1986; Hyyrö 2004, "Bit-parallel LCS-length computation
// revisited"): for each token id, the bit mask of the positions where the
// text has it. The LCS with another text then costs one pass over that
// text, a few word operations per token, where the textbook table costs
// one step per pair of positions; the length is the same integer.
type lcsMasks struct {
	words int      // 64-bit words per mask
	masks []uint64 // id's mask is masks[id*words : (id+1)*words]
	table []int32  // the text itself when its masks would be too large (maxMaskWords)
}

// maxMaskWords bounds the masks of one text (8 MiB): they take distinct
// tokens × length / 8 bytes, which a very long text with a large
// vocabulary would make large. Past it the LCS takes the table, one row
// at a time, as before.
var maxMaskWords = 1 << 20

func newLCSMasks(a []int32, vocab int) lcsMasks {
	m := lcsMasks{words: (len(a) + 63) / 64}
	if vocab*m.words > maxMaskWords {
		return lcsMasks{words: m.words, table: a}
	}
	m.masks = make([]uint64, vocab*m.words)
	for i, id := range a {
		m.masks[int(id)*m.words+i/64] |= 1 << (i % 64)
	}
	return m
}

// lcs is the LCS length of the masked text and b; an id of b outside the
// masks' vocabulary (negative, or too large) matches nothing. v, when long
// enough, is reused as working memory.
//
// V starts all ones; each token c of b sets V = (V + (V & M[c])) | (V &^
// M[c]) over the whole multi-word vector, and the LCS length is the number
// of zero bits in V. Bits above len(a) stay 1: M has none there, so
// V &^ M keeps them.
func (m lcsMasks) lcs(b []int32, v []uint64) int {
	if m.words == 0 || len(b) == 0 {
		return 0
	}
	if m.table != nil {
		return lcsTableLen(m.table, b)
	}
	if cap(v) < m.words {
		v = make([]uint64, m.words)
	}
	v = v[:m.words]
	for w := range v {
		v[w] = ^uint64(0)
	}
	vocab := len(m.masks) / m.words
	for _, id := range b {
		if id < 0 || int(id) >= vocab {
			continue // V + 0 | V = V
		}
		mask := m.masks[int(id)*m.words : (int(id)+1)*m.words]
		var carry uint64
		for w, x := range v {
			u := x & mask[w]
			var sum uint64
			sum, carry = bits.Add64(x, u, carry)
			v[w] = sum | (x &^ mask[w])
		}
	}
	n := 0
	for _, x := range v {
		n += bits.OnesCount64(^x)
	}
	return n
}

func rougeLIDs(target, prediction []int32) PRF {
	if len(target) == 0 || len(prediction) == 0 {
		return PRF{}
	}
	l := float64(lcsLen(target, prediction))
	p, r := l/float64(len(prediction)), l/float64(len(target))
	return PRF{p, r, fmeasure(p, r)}
}

// lcsTable is rouge-score's _lcs_table.
func lcsTable[T comparable](ref, can []T) [][]int {
	t := make([][]int, len(ref)+1)
	for i := range t {
		t[i] = make([]int, len(can)+1)
	}
	for i := 1; i <= len(ref); i++ {
		for j := 1; j <= len(can); j++ {
			if ref[i-1] == can[j-1] {
				t[i][j] = t[i-1][j-1] + 1
			} else {
				t[i][j] = max(t[i-1][j], t[i][j-1])
			}
		}
	}
	return t
}

// lcsIndices is rouge-score's _backtrack_norec: the indices into ref of one
// LCS, with its tie-break (move up in ref unless left is strictly better).
func lcsIndices[T comparable](ref, can []T) []int {
	t := lcsTable(ref, can)
	i, j := len(ref), len(can)
	var out []int
	for i > 0 && j > 0 {
		switch {
		case ref[i-1] == can[j-1]:
			out = append(out, i-1)
			i--
			j--
		case t[i][j-1] > t[i-1][j]:
			j--
		default:
			i--
		}
	}
	slices.Reverse(out)
	return out
}

// unionLCS is rouge-score's _union_lcs: the tokens of ref that belong to the
// LCS with at least one candidate sentence, in ref order.
func unionLCS[T comparable](ref []T, cans [][]T) []T {
	seen := make([]bool, len(ref))
	for _, c := range cans {
		for _, i := range lcsIndices(ref, c) {
			seen[i] = true
		}
	}
	var out []T
	for i, ok := range seen {
		if ok {
			out = append(out, ref[i])
		}
	}
	return out
}

// RougeLsum is summary-level ROUGE-L (Lin 2004 §3.2) over sentences as
// rouge-score computes it: union-LCS per reference sentence, hits clipped by
// each token's count on both sides.
func RougeLsum(target, prediction [][]string) PRF {
	if len(target) == 0 || len(prediction) == 0 {
		return PRF{}
	}
	m, n := 0, 0
	refCount, canCount := map[string]int{}, map[string]int{}
	for _, s := range target {
		m += len(s)
		for _, t := range s {
			refCount[t]++
		}
	}
	for _, s := range prediction {
		n += len(s)
		for _, t := range s {
			canCount[t]++
		}
	}
	if m == 0 || n == 0 {
		return PRF{}
	}
	hits := 0
	for _, r := range target {
		for _, t := range unionLCS(r, prediction) {
			if canCount[t] > 0 && refCount[t] > 0 {
				hits++
				canCount[t]--
				refCount[t]--
			}
		}
	}
	p, r := float64(hits)/float64(n), float64(hits)/float64(m)
	return PRF{p, r, fmeasure(p, r)}
}

// ParseRougeType reads a rouge-score type name: "rouge1" … "rouge9" give
// n, "rougeL" gives n = 0, "rougeLsum" gives n = 0 and lsum = true.
func ParseRougeType(name string) (n int, lsum bool, ok bool) {
	switch name {
	case "rougeL":
		return 0, false, true
	case "rougeLsum":
		return 0, true, true
	}
	if len(name) == len("rouge1") && strings.HasPrefix(name, "rouge") && name[5] >= '1' && name[5] <= '9' {
		return int(name[5] - '0'), false, true
	}
	return 0, false, false
}
