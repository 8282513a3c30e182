package judge

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"cubeworkbench/assets/stopwords"
	"cubeworkbench/core/textmetric"
)

// A unit (units in lexical.go) is kept as a 64-bit key, so that the lexical
// judge compares sorted integer slices instead of maps of strings. The key
// is exact, never a hash:
//
//   - a pair of Han characters is unitBigram | r1<<21 | r2;
//   - a token of at most seven ASCII bytes is unitShort | its bytes, packed
//     (a token holds no NUL, so the packing is unambiguous): numbers and
//     most words;
//   - any other token is its id in the lexicon's vocabulary.
//
// unitNumber marks a token of digits only (isNumber).
const (
	unitBigram = 1 << 63
	unitShort  = 1 << 62
	unitNumber = 1 << 61
	shortMax   = 7
)

func isNumberKey(k uint64) bool { return k&unitBigram == 0 && k&unitNumber != 0 }

// Stopwords by key: stop flags of short tokens, and the Han characters and
// pairs of them that are stopwords, read from the lists textmetric uses and
// each confirmed by textmetric.IsStopword.
const (
	stopInEnglish = 1 << iota // IsStopword(t, false)
	stopInChinese             // IsStopword(t, true)
)

var stops = sync.OnceValue(func() *stopKeys {
	s := &stopKeys{short: map[uint64]uint8{}, han: map[rune]bool{}, pair: map[uint64]bool{}, hanBMP: new([1 << 16 / 64]uint64)}
	for _, list := range []map[string]bool{stopwords.English(), stopwords.Chinese()} {
		for w := range list {
			if k, ok := shortKey(w); ok {
				s.short[k] = stopFlags(w)
			}
			rs := []rune(w)
			switch {
			case len(rs) == 1 && isHanRune(rs[0]) && textmetric.IsStopword(w, true):
				s.han[rs[0]] = true
				if rs[0] < 1<<16 {
					s.hanBMP[rs[0]/64] |= 1 << (rs[0] % 64)
				}
			case len(rs) == 2 && isHanRune(rs[0]) && isHanRune(rs[1]) && textmetric.IsStopword(w, true):
				s.pair[pairKey(rs[0], rs[1])] = true
			}
		}
	}
	return s
})

type stopKeys struct {
	short map[uint64]uint8
	han   map[rune]bool
	// hanBMP is han for the Basic Multilingual Plane, as bits: it is read
	// for every Han character of every text.
	hanBMP *[1 << 16 / 64]uint64
	pair   map[uint64]bool
}

// isHanStop reports a Han character that is a stopword.
func (s *stopKeys) isHanStop(r rune) bool {
	if r < 1<<16 {
		return s.hanBMP[r/64]&(1<<(r%64)) != 0
	}
	return s.han[r]
}

func stopFlags(w string) uint8 {
	var f uint8
	if textmetric.IsStopword(w, false) {
		f |= stopInEnglish
	}
	if textmetric.IsStopword(w, true) {
		f |= stopInChinese
	}
	return f
}

func pairKey(a, b rune) uint64 { return unitBigram | uint64(a)<<21 | uint64(b) }

// shortKey packs a token of at most shortMax ASCII bytes; ok is false for
// any other.
func shortKey(tok string) (uint64, bool) {
	if len(tok) == 0 || len(tok) > shortMax {
		return 0, false
	}
	var k uint64
	digits := true
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c >= utf8.RuneSelf {
			return 0, false
		}
		digits = digits && '0' <= c && c <= '9'
		k = k<<8 | uint64(c)
	}
	k |= unitShort
	if digits {
		k |= unitNumber
	}
	return k, true
}

// isNumber reports a unit of digits and dots only (lexical.go).
func isNumber(u string) bool {
	return u != "" && strings.IndexFunc(u, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' }) < 0
}

// vocabLimit bounds a lexicon's vocabulary of long and non-ASCII tokens;
// past it the judge starts a new lexicon (and so new memos).
const vocabLimit = 1 << 19

// vocabEntry is a long or non-ASCII token's key and stop flags.
type vocabEntry struct {
	key  uint64
	stop uint8
}

// lexicon is the lexical judge's state for a run: the vocabulary giving
// ids to tokens a key cannot hold, and the memos of guides and questions,
// whose units are keys of this vocabulary. Safe for concurrent use.
type lexicon struct {
	mu        sync.RWMutex
	vocab     map[string]vocabEntry
	guides    *memo[lexicalDoc]
	questions *memo[[]uint64]
}

func newLexicon(memos bool) *lexicon {
	lx := &lexicon{vocab: map[string]vocabEntry{}}
	if memos {
		lx.guides, lx.questions = newMemo[lexicalDoc](), newMemo[[]uint64]()
	}
	return lx
}

// full reports a vocabulary past vocabLimit.
func (lx *lexicon) full() bool {
	lx.mu.RLock()
	defer lx.mu.RUnlock()
	return len(lx.vocab) > vocabLimit
}

// key returns tok's key and stop flags; tok is lower-cased already.
func (lx *lexicon) key(tok string) (uint64, uint8) {
	if k, ok := shortKey(tok); ok {
		return k, stops().short[k]
	}
	lx.mu.RLock()
	e, ok := lx.vocab[tok]
	lx.mu.RUnlock()
	if ok {
		return e.key, e.stop
	}
	lx.mu.Lock()
	defer lx.mu.Unlock()
	if e, ok := lx.vocab[tok]; ok {
		return e.key, e.stop
	}
	e = vocabEntry{key: uint64(len(lx.vocab)), stop: stopFlags(tok)}
	if isNumber(tok) {
		e.key |= unitNumber
	}
	lx.vocab[strings.Clone(tok)] = e
	return e.key, e.stop
}

// lowerASCII appends s lower-cased to buf; s is ASCII.
func lowerASCII(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf
}

// token appends the key of the token s (lower-cased here, as
// strings.ToLower does it) unless it is a stopword under stopMask.
func (lx *lexicon) token(out []uint64, buf *[]byte, s string, ascii bool, stopMask uint8) []uint64 {
	var k uint64
	var stop uint8
	if ascii {
		*buf = lowerASCII((*buf)[:0], s)
		if sk, ok := shortKey(string(*buf)); ok {
			k, stop = sk, stops().short[sk]
		} else {
			k, stop = lx.key(string(*buf))
		}
	} else {
		k, stop = lx.key(strings.ToLower(s))
	}
	if stop&stopMask != 0 {
		return out
	}
	return append(out, k)
}

// units appends text's units (lexical.go's units) to out as keys, in the
// order units lists them.
func (lx *lexicon) units(out []uint64, buf *[]byte, text string, zh bool) []uint64 {
	if !zh {
		return lx.englishUnits(out, buf, text)
	}
	st, tab := stops(), bmpClasses()
	start := -1      // byte offset of the current non-Han run, -1 when none
	ascii := true    // the run is ASCII
	prev := rune(-1) // the previous token when it is a Han character
	flush := func(end int) {
		if start >= 0 {
			out = lx.token(out, buf, text[start:end], ascii, stopInChinese)
			start, ascii, prev = -1, true, -1
		}
	}
	for i, r := range text {
		c := uint8(0)
		if r >= utf8.RuneSelf {
			c = classOf(tab, r)
		}
		switch {
		case c&classHan != 0:
			flush(i)
			if prev >= 0 && !st.isHanStop(prev) && !st.isHanStop(r) {
				if k := pairKey(prev, r); !st.pair[k] {
					out = append(out, k)
				}
			}
			prev = r
		case r < utf8.RuneSelf && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'):
			if start < 0 {
				start = i
			}
		case c&(classLetter|classDigit) != 0:
			if start < 0 {
				start = i
			}
			ascii = false
		default:
			flush(i)
		}
	}
	flush(len(text))
	return out
}

// englishUnits is units for English: TokenizeEnglish lower-cases the whole
// text before it splits it (a lower case may hold a mark that then splits
// a word), stopwords out.
func (lx *lexicon) englishUnits(out []uint64, buf *[]byte, text string) []uint64 {
	ascii := true
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii {
		text = strings.ToLower(text)
	}
	start, tab := -1, bmpClasses()
	for i, r := range text {
		word := r < utf8.RuneSelf && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') ||
			r >= utf8.RuneSelf && classOf(tab, r)&(classLetter|classDigit) != 0
		if word {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = lx.lowerToken(out, buf, text[start:i], ascii)
			start = -1
		}
	}
	if start >= 0 {
		out = lx.lowerToken(out, buf, text[start:], ascii)
	}
	return out
}

// lowerToken is token for a token of text lower-cased already (non-ASCII
// text) or to be lower-cased byte by byte (ASCII text).
func (lx *lexicon) lowerToken(out []uint64, buf *[]byte, s string, ascii bool) []uint64 {
	if ascii {
		return lx.token(out, buf, s, true, stopInEnglish)
	}
	k, stop := lx.key(s)
	if stop&stopInEnglish != 0 {
		return out
	}
	return append(out, k)
}

// sortedSet sorts keys and drops repeats, in place.
func sortedSet(keys []uint64) []uint64 {
	slices.Sort(keys)
	return slices.Compact(keys)
}

// contains reports k in the sorted set s.
func contains(s []uint64, k uint64) bool {
	_, ok := slices.BinarySearch(s, k)
	return ok
}
