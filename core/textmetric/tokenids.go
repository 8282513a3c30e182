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

// Tokenizer names the word tokenizers whose tokens Vocab numbers.
type Tokenizer uint8

const (
	TokEnglish   Tokenizer = iota // TokenizeEnglish
	TokChinese                    // TokenizeChinese
	TokRouge                      // RougeTokenize(s, false)
	TokRougeStem                  // RougeTokenize(s, true)
)

// eachToken calls emit with the bytes of each token tok makes of s, in
// order, built in buf (returned grown); emit must not keep them.
func eachToken(s string, tok Tokenizer, buf []byte, emit func([]byte)) []byte {
	buf = buf[:0]
	flush := func() {
		if len(buf) == 0 {
			return
		}
		if tok == TokRougeStem && len(buf) > 3 {
			emit([]byte(PorterStem(string(buf))))
		} else {
			emit(buf)
		}
		buf = buf[:0]
	}
	switch tok {
	case TokEnglish: // strings.ToLower, rune by rune, then the split
		for _, r := range s {
			if r = unicode.ToLower(r); runeClass(r)&(classLetter|classDigit) != 0 {
				buf = utf8.AppendRune(buf, r)
			} else {
				flush()
			}
		}
	case TokChinese:
		for i, r := range s {
			switch c := runeClass(r); {
			case c&classHan != 0:
				flush()
				buf = append(buf, s[i:i+utf8.RuneLen(r)]...) // the text's own bytes
				emit(buf)
				buf = buf[:0]
			case c&(classLetter|classDigit) != 0:
				buf = utf8.AppendRune(buf, unicode.ToLower(r)) // strings.ToLower, rune by rune
			default:
				flush()
			}
		}
	default: // RougeTokenize's mapping, then its split
		for _, r := range s {
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
	}
	flush()
	return buf
}

// rougeIDs appends to ids the id in vocab of each token of s under
// TokenizeChinese (chinese) or RougeTokenize(s, stem), -1 for a token
// vocab lacks; buf is the token buffer, returned grown.
func rougeIDs(ids []int32, s string, chinese, stem bool, vocab map[string]int32, buf []byte) ([]int32, []byte) {
	tok := TokRouge
	switch {
	case chinese:
		tok = TokChinese
	case stem:
		tok = TokRougeStem
	}
	buf = eachToken(s, tok, buf, func(t []byte) {
		id, ok := vocab[string(t)]
		if !ok {
			id = -1
		}
		ids = append(ids, id)
	})
	return ids, buf
}

// Vocab numbers tokens 0, 1, 2… in the order it first sees them, for
// measures that compare many texts by token ids instead of strings. It
// knows which of its tokens are stopwords.
type Vocab struct {
	ids  map[string]int32
	stop []uint8 // per id: 1 an English stopword, 2 a Chinese one (IsStopword)
	buf  []byte
}

// NewVocab returns an empty vocabulary.
func NewVocab() *Vocab { return &Vocab{ids: map[string]int32{}} }

// Len is the number of tokens v has numbered.
func (v *Vocab) Len() int { return len(v.ids) }

// Reset forgets every token (keeping the memory).
func (v *Vocab) Reset() {
	clear(v.ids)
	v.stop = v.stop[:0]
}

// AppendIDs appends the ids of the tokens tok makes of s, numbering the
// tokens v has not seen.
func (v *Vocab) AppendIDs(ids []int32, s string, tok Tokenizer) []int32 {
	v.buf = eachToken(s, tok, v.buf, func(t []byte) {
		id, ok := v.ids[string(t)]
		if !ok {
			w := string(t)
			id = int32(len(v.ids))
			v.ids[w] = id
			var st uint8
			if stopEN[w] {
				st |= 1
			}
			if stopZH[w] {
				st |= 2
			}
			v.stop = append(v.stop, st)
		}
		ids = append(ids, id)
	})
	return ids
}

// Stopword is IsStopword of the token numbered id.
func (v *Vocab) Stopword(id int32, chinese bool) bool {
	st := v.stop[id]
	return st&1 != 0 || (chinese && st&2 != 0)
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
