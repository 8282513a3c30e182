package chunk

import (
	"fmt"
	"strings"
	"unicode"

	"cubeworkbench/core/text"
	"cubeworkbench/core/textmetric"
)

// Chunk is one passage of one document. Text is doc[Start:End] (byte offsets).
type Chunk struct {
	DocID string
	Index int // position of the chunk within its document, from 0
	Text  string
	Start int
	End   int
}

// Chunker splits one document's text.
type Chunker interface {
	Name() string
	Chunk(docID, text string) []Chunk
}

// Kinds accepted by New (the profile's cofe.chunker values).
const (
	KindFixed    = "fixed"
	KindSentence = "sentence"
	KindDocument = "document"
)

// New returns the chunker a profile names. size and overlap are in tokens;
// overlap is used by the fixed chunker only.
func New(kind string, size, overlap int) (Chunker, error) {
	switch kind {
	case KindFixed:
		if size < 1 || overlap < 0 || overlap >= size {
			return nil, text.NewError(text.New(
				fmt.Sprintf("固定长度分块（fixed）的大小 %d、重叠 %d 不可用：需要大小 ≥ 1 且 0 ≤ 重叠 < 大小", size, overlap),
				fmt.Sprintf("chunk: fixed size %d overlap %d: need size ≥ 1 and 0 ≤ overlap < size", size, overlap)), nil)
		}
		return FixedTokens(size, overlap), nil
	case KindSentence:
		if size < 1 {
			return nil, text.NewError(text.New(
				fmt.Sprintf("按句分块（sentence）的大小 %d 不可用：需要大小 ≥ 1", size),
				fmt.Sprintf("chunk: sentence size %d: need size ≥ 1", size)), nil)
		}
		return SentencePack(size), nil
	case KindDocument:
		return PerDocument(), nil
	}
	return nil, text.NewError(text.New(
		fmt.Sprintf("未知的分块方式 %q（可选：fixed、sentence、document）", kind),
		fmt.Sprintf("chunk: unknown chunker %q (fixed, sentence, document)", kind)), nil)
}

// Span is a token's byte range in its text.
type Span struct{ Start, End int }

// Spans returns the byte ranges of the tokens textmetric.TokenizeChinese
// would produce from s, in order (TestSpansAgreeWithTextmetric checks this).
func Spans(s string) []Span {
	var out []Span
	start := -1
	for i, r := range s {
		switch {
		case unicode.Is(unicode.Han, r):
			if start >= 0 {
				out = append(out, Span{start, i})
				start = -1
			}
			out = append(out, Span{i, i + len(string(r))})
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				out = append(out, Span{start, i})
				start = -1
			}
		}
	}
	if start >= 0 {
		out = append(out, Span{start, len(s)})
	}
	return out
}

type fixed struct{ size, overlap int }

// FixedTokens windows size tokens at a time, each window starting
// size−overlap tokens after the previous, the last one ending at the last
// token. Invalid arguments are clamped (size ≥ 1, 0 ≤ overlap < size); use
// New to have them rejected instead.
func FixedTokens(size, overlap int) Chunker {
	size = max(size, 1)
	overlap = min(max(overlap, 0), size-1)
	return fixed{size, overlap}
}

func (f fixed) Name() string { return fmt.Sprintf("fixed-%d/%d", f.size, f.overlap) }

func (f fixed) Chunk(docID, text string) []Chunk {
	return windows(docID, text, Spans(text), f.size, f.size-f.overlap, 0)
}

// windows cuts tok into windows and numbers the chunks from first.
func windows(docID, text string, tok []Span, size, stride, first int) []Chunk {
	var out []Chunk
	for lo := 0; lo < len(tok); lo += stride {
		hi := min(lo+size, len(tok))
		s, e := tok[lo].Start, tok[hi-1].End
		out = append(out, Chunk{DocID: docID, Index: first + len(out), Text: text[s:e], Start: s, End: e})
		if hi == len(tok) {
			break
		}
	}
	return out
}

type sentencePack struct{ max int }

// SentencePack packs whole sentences (textmetric.Sentences) into chunks of
// at most maxTokens tokens; a sentence longer than that is cut into fixed
// windows of its own, because dropping text would hide facts.
func SentencePack(maxTokens int) Chunker { return sentencePack{max(maxTokens, 1)} }

func (p sentencePack) Name() string { return fmt.Sprintf("sentence-%d", p.max) }

func (p sentencePack) Chunk(docID, text string) []Chunk {
	var out []Chunk
	curStart, curEnd, curTok := -1, -1, 0
	flush := func() {
		if curStart >= 0 {
			out = append(out, Chunk{DocID: docID, Index: len(out), Text: text[curStart:curEnd], Start: curStart, End: curEnd})
			curStart, curTok = -1, 0
		}
	}
	for _, sp := range sentenceSpans(text) {
		tok := Spans(text[sp.Start:sp.End])
		n := len(tok)
		if n > p.max {
			flush()
			for i := range tok {
				tok[i].Start += sp.Start
				tok[i].End += sp.Start
			}
			out = append(out, windows(docID, text, tok, p.max, p.max, len(out))...)
			continue
		}
		if curStart >= 0 && curTok+n > p.max {
			flush()
		}
		if curStart < 0 {
			curStart = sp.Start
		}
		curEnd, curTok = sp.End, curTok+n
	}
	flush()
	return out
}

// sentenceSpans locates textmetric.Sentences' trimmed pieces in s, in
// order, so the splitting rule lives in one place.
func sentenceSpans(s string) []Span {
	var out []Span
	at := 0
	for _, sent := range textmetric.Sentences(s) {
		i := strings.Index(s[at:], sent)
		if i < 0 { // cannot happen for trimmed substrings; keep the rest whole
			return append(out, Span{at, len(s)})
		}
		out = append(out, Span{at + i, at + i + len(sent)})
		at += i + len(sent)
	}
	return out
}

type perDocument struct{}

// PerDocument makes each document one chunk (its text trimmed of outer
// whitespace); an empty document makes none.
func PerDocument() Chunker { return perDocument{} }

func (perDocument) Name() string { return "document" }

func (perDocument) Chunk(docID, text string) []Chunk {
	s := len(text) - len(strings.TrimLeftFunc(text, unicode.IsSpace))
	e := len(strings.TrimRightFunc(text, unicode.IsSpace))
	if s >= e {
		return nil
	}
	return []Chunk{{DocID: docID, Text: text[s:e], Start: s, End: e}}
}
