package judge

import (
	"fmt"
	"math"
	"strconv"

	"cubeworkbench/core/text"
)

// The offline judges' notes ("relevance: cosine … 0.42") take few distinct
// values over a run, and one was formatted (fmt.Sprintf for each language,
// then joined, then prefixed: five strings) for every judgement, 2.4
// million at 100,000 questions, most of them to be thrown away by the
// engine's interner. A note is now written into reused bytes and the
// string returned is one made before for the same bytes, when there was
// one: no allocation for a note seen before. The text is the same to the
// byte (TestOfflineJudgesMatchOracle compares every note with the oracle's
// fmt-made one; TestAppendFixed holds appendFixed to fmt).

// pair is a note being written: its Chinese and its English text.
type pair struct{ zh, en []byte }

func (p *pair) reset() { p.zh, p.en = p.zh[:0], p.en[:0] }

// set makes p a fixed note.
func (p *pair) set(zh, en string) {
	p.zh, p.en = append(p.zh[:0], zh...), append(p.en[:0], en...)
}

// appendFixed appends v as fmt's %.<prec>f does.
func appendFixed(b []byte, v float64, prec int) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Appendf(b, "%.*f", prec, v) // fmt's own words for these
	}
	return strconv.AppendFloat(b, v, 'f', prec, 64)
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

// noteLimit bounds a noteCache; past it, it starts again empty.
const noteLimit = 1 << 12

// noteCache turns written notes into strings, one string for equal notes.
// One per judgement's scratch: not safe for concurrent use.
type noteCache struct {
	b    []byte
	seen map[string]string
}

// stored is prefix + the note as text.Text.Stored writes it ("zh | en";
// the one language there is when the other is empty), as a string.
func (c *noteCache) stored(prefix string, p *pair) string {
	b := append(c.b[:0], prefix...)
	switch {
	case len(p.zh) > 0 && len(p.en) > 0:
		b = append(append(append(b, p.zh...), langSep...), p.en...)
	case len(p.en) > 0:
		b = append(b, p.en...)
	default:
		b = append(b, p.zh...)
	}
	c.b = b
	return c.string(b)
}

// The offline judges' words for their score, in a score out of range.
var (
	lexicalScore  = text.New("词汇基线得分", "lexical score")
	semanticScore = text.New("语义评分", "semantic score")
)

// outcome is the Outcome of offline judge name's score v on d with its
// note: the raw reply "name zh | en", or, when v is off d's scale (an
// edited template may change the scale; the rules do not follow it),
// unscorable with the note kept. Both offline judges store it alike.
func (c *noteCache) outcome(name string, score text.Text, d Dimension, v float64, note *pair) Outcome {
	raw := c.stored(name+" ", note)
	if d.Kind == KindScore && (v < float64(d.Min) || v > float64(d.Max)) {
		return Outcome{Raw: raw[len(name)+1:], Reason: StoredReason(ReasonOutOfRange,
			fmt.Sprintf("%s %g 超出 %d–%d", score.ZH, v, d.Min, d.Max),
			fmt.Sprintf("%s %g is outside %d–%d", score.EN, v, d.Min, d.Max))}
	}
	return Outcome{Score: v, OK: true, Raw: raw}
}

// string is b as a string, the one made before for the same bytes.
func (c *noteCache) string(b []byte) string {
	if s, ok := c.seen[string(b)]; ok { // the conversion does not allocate
		return s
	}
	if c.seen == nil || len(c.seen) >= noteLimit {
		c.seen = make(map[string]string)
	}
	s := string(b)
	c.seen[s] = s
	return s
}
