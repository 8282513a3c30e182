package textmetric

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The functions here tokenise a text straight into the ids a prepared
// reference gave its tokens, so that scoring an answer against it makes no
// string per token: each token is built in a reused byte buffer and looked
// up (a map index by string(bytes) does not copy). They give the ids of
// exactly the tokens the string tokenizers give (TestTokenIDsOracle).

// rougeIDs appends to ids the id in vocab of each token of s under
// TokenizeChinese (chinese) or RougeTokenize(s, stem), -1 for a token
// vocab lacks; buf is the token buffer, returned grown.
func rougeIDs(ids []int32, s string, chinese, stem bool, vocab map[string]int32, buf []byte) ([]int32, []byte) {
	emit := func(tok []byte) {
		id, ok := vocab[string(tok)]
		if !ok {
			id = -1
		}
		ids = append(ids, id)
	}
	buf = buf[:0]
	if chinese {
		for i, r := range s {
			switch {
			case unicode.Is(unicode.Han, r):
				if len(buf) > 0 {
					emit(buf)
					buf = buf[:0]
				}
				emit([]byte(s[i : i+utf8.RuneLen(r)])) // does not escape: no copy
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				buf = utf8.AppendRune(buf, unicode.ToLower(r)) // strings.ToLower, rune by rune
			case len(buf) > 0:
				emit(buf)
				buf = buf[:0]
			}
		}
		if len(buf) > 0 {
			emit(buf)
		}
		return ids, buf
	}
	flush := func() {
		if len(buf) == 0 {
			return
		}
		if stem && len(buf) > 3 {
			emit([]byte(PorterStem(string(buf))))
		} else {
			emit(buf)
		}
		buf = buf[:0]
	}
	for _, r := range s { // RougeTokenize's mapping, then its split
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			buf = append(buf, byte(r))
		case r >= 'A' && r <= 'Z':
			buf = append(buf, byte(r+('a'-'A')))
		case r == '\u212A':
			buf = append(buf, 'k')
		case r == '\u0130':
			buf = append(buf, 'i')
			flush()
		default:
			flush()
		}
	}
	flush()
	return ids, buf
}

// bleuTokens is the working memory of bleuIDs.
type bleuTokens struct {
	a, b []rune
	tok  []byte
}

// bleuIDs appends to ids the id in vocab of each token opt.preprocess(s)
// gives, 0 for a token vocab lacks. The 13a and zh tokenizers run on
// reused rune buffers; the others through preprocess.
func (t *bleuTokens) bleuIDs(ids []uint32, s string, opt BLEUOptions, vocab map[string]uint32) []uint32 {
	if opt.Lowercase {
		s = strings.ToLower(s)
	}
	s = strings.TrimRightFunc(s, isPySpace)
	switch opt.Tokenize {
	case BLEUTok13a, "":
		t.a = pad13a(t.a[:0], replace13a(s))
	case BLEUTokZh:
		t.a = expandPunct(t.a[:0], strings.TrimFunc(s, isPySpace), true)
	default:
		tok, _ := bleuTokenizer(opt.Tokenize)
		for _, w := range pyFields(tok(s)) {
			ids = append(ids, vocab[w])
		}
		return ids
	}
	t.a, t.b = regexpPasses(t.a, t.b)
	rs := t.a
	for i := 0; i < len(rs); {
		if isPySpace(rs[i]) {
			i++
			continue
		}
		t.tok = t.tok[:0]
		for ; i < len(rs) && !isPySpace(rs[i]); i++ {
			t.tok = utf8.AppendRune(t.tok, rs[i])
		}
		ids = append(ids, vocab[string(t.tok)])
	}
	return ids
}
