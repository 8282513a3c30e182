package docparse

import (
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits bound what one document may cost. A hostile or broken file must
// not hang a run, exhaust memory or be cut short silently: every limit that
// is hit is reported, naming the file.
type Limits struct {
	// A PDF's parser runs in a child process that is killed when its time
	// is up: TimeoutBase plus TimeoutPerMiB for each MiB of the file, at
	// most Timeout. A honest PDF's parse time grows with its size; a tiny
	// hostile one gets no more than the base.
	Timeout       time.Duration
	TimeoutBase   time.Duration
	TimeoutPerMiB time.Duration
	// Memory is the most a PDF's child process may hold, in bytes.
	Memory int64
	// Pages is the most PDF pages read; later pages are cut and reported.
	Pages int
	// PartBytes is the most uncompressed bytes read from one file or from
	// one part of a zip package (docx, pptx, xlsx); the rest is cut.
	PartBytes int64
	// TextBytes is the most text kept per document; the rest is cut.
	TextBytes int
}

// DefaultLimits are generous for real government documents (a 600-page
// guide is about 2 MiB of text) and tight enough that a hostile file costs
// seconds and a few hundred MiB at most.
var DefaultLimits = Limits{
	Timeout:       2 * time.Minute,
	TimeoutBase:   8 * time.Second,
	TimeoutPerMiB: 2 * time.Second,
	Memory:        384 << 20,
	Pages:         10000,
	PartBytes:     64 << 20,
	TextBytes:     16 << 20,
}

// timeFor is the time a file of size bytes may take.
func (l Limits) timeFor(size int64) time.Duration {
	t := l.TimeoutBase + time.Duration(float64(l.TimeoutPerMiB)*float64(size)/(1<<20))
	if t > l.Timeout || t <= 0 {
		return l.Timeout
	}
	return t
}

// withDefaults fills zero fields from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.Timeout > 0 {
		d.Timeout = l.Timeout
	}
	if l.TimeoutBase > 0 {
		d.TimeoutBase = l.TimeoutBase
	}
	if l.TimeoutPerMiB > 0 {
		d.TimeoutPerMiB = l.TimeoutPerMiB
	}
	if l.Memory > 0 {
		d.Memory = l.Memory
	}
	if l.Pages > 0 {
		d.Pages = l.Pages
	}
	if l.PartBytes > 0 {
		d.PartBytes = l.PartBytes
	}
	if l.TextBytes > 0 {
		d.TextBytes = l.TextBytes
	}
	return d
}

// capReader stops at n bytes and remembers that it did, so that a reader
// cut at the cap is told apart from a file that really ends there.
type capReader struct {
	r   io.Reader
	n   int64
	cut bool
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.n <= 0 {
		// Probe one byte: only a reader with more to give was cut.
		var one [1]byte
		if k, _ := c.r.Read(one[:]); k > 0 {
			c.cut = true
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.n {
		p = p[:c.n]
	}
	k, err := c.r.Read(p)
	c.n -= int64(k)
	if c.n == 0 {
		// The cap may fall inside a UTF-8 sequence; ending on a whole rune
		// keeps the text before the cut readable (the XML decoder refuses
		// a broken rune, losing the run it ends).
		k = len(dropPartialRune(p[:k]))
	}
	return k, err
}

// dropPartialRune removes a UTF-8 sequence cut in half at the end of b.
func dropPartialRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		if startsRune(b[len(b)-i]) {
			if r, size := utf8.DecodeRune(b[len(b)-i:]); r == utf8.RuneError && size <= 1 {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}

// textCap collects text up to a byte budget, cutting on a rune boundary.
type textCap struct {
	sb   strings.Builder
	max  int
	full bool
}

// Text is kept as valid UTF-8: a stray byte the decoders let through
// (an HTML page declared UTF-8, a PDF string) becomes U+FFFD.
func (t *textCap) WriteString(s string) {
	if t.full {
		return
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if room := t.max - t.sb.Len(); len(s) > room {
		for room > 0 && room < len(s) && !startsRune(s[room]) {
			room--
		}
		t.sb.WriteString(s[:room])
		t.full = true
		return
	}
	t.sb.WriteString(s)
}

func (t *textCap) WriteByte(b byte) error {
	if t.full || t.sb.Len() >= t.max {
		t.full = true
		return nil
	}
	return t.sb.WriteByte(b)
}

// Write is WriteString for byte slices (XML character data), without a copy.
func (t *textCap) Write(b []byte) {
	if t.full {
		return
	}
	if !utf8.Valid(b) {
		t.WriteString(string(b))
		return
	}
	if room := t.max - t.sb.Len(); len(b) > room {
		for room > 0 && room < len(b) && !startsRune(b[room]) {
			room--
		}
		t.sb.Write(b[:room])
		t.full = true
		return
	}
	t.sb.Write(b)
}

func (t *textCap) String() string { return t.sb.String() }

// startsRune reports whether b begins a UTF-8 sequence (is not a continuation byte).
func startsRune(b byte) bool { return b&0xC0 != 0x80 }
