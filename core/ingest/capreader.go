package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// capReader bounds what one XML token can cost. encoding/xml gathers a
// whole text run (or attribute, comment) into one token, so a single 900 MiB
// shared string, or 900 MiB of whitespace between two elements, costs
// gigabytes before any code of ours sees it. capReader sits between the
// unzipped part and the decoder: it drops the bytes of a text or CDATA run
// past textLimit (cutting at a character boundary and never inside an
// entity, so the XML stays well formed) and counts the cut, and it fails on
// a tag, comment or processing instruction longer than tagLimit, which no
// spreadsheet writer produces.
type capReader struct {
	r         io.Reader
	textLimit int
	tagLimit  int

	st      int
	q       byte // quote of the attribute value being read
	run     int  // bytes of the current run
	ent     bool // inside &…; in text
	drop    bool // dropping the rest of the current text run
	pre     []byte
	t1, t2  byte // the last two bytes, for terminators
	cuts    int  // text runs cut so far
	readErr error
}

const (
	capText = iota
	capOpen
	capBang
	capTag
	capQuote
	capComment
	capCDATA
	capPI
)

// errTagTooLong marks a tag, comment or instruction over tagLimit.
var errTagTooLong = errors.New("an XML tag longer than any spreadsheet writer produces")

// textLimit: 10 bytes can spell one character (&#x10FFFF;), so a run of
// up to MaxCellChars characters always passes whole.
func newCapReader(r io.Reader) *capReader {
	return &capReader{r: r, textLimit: 10*MaxCellChars + 16, tagLimit: 1 << 20}
}

func (c *capReader) Read(p []byte) (int, error) {
	for {
		if c.readErr != nil {
			return 0, c.readErr
		}
		n, err := c.r.Read(p)
		w := 0
		for i := 0; i < n; i++ {
			if c.st == capText {
				// Fast paths: skip a run being dropped up to the next tag;
				// copy plain text below the limit without the state machine.
				if c.drop {
					j := bytes.IndexByte(p[i:n], '<')
					if j < 0 {
						c.run += n - i
						break
					}
					c.run += j
					i += j
				} else {
					end := min(n, i+max(0, c.textLimit-c.run))
					k := i
					for k < end && p[k] != '<' && p[k] != '&' && p[k] != ';' {
						k++
					}
					if k > i {
						w += copy(p[w:], p[i:k])
						c.run += k - i
						i = k
						if i == n {
							break
						}
					}
				}
			}
			if c.st == capTag || c.st == capQuote {
				// Fast path: inside a tag only quotes and '>' matter.
				k := i
				if c.st == capTag {
					for k < n && p[k] != '"' && p[k] != '\'' && p[k] != '>' {
						k++
					}
				} else {
					for k < n && p[k] != c.q {
						k++
					}
				}
				if k > i {
					c.run += k - i
					if c.run > c.tagLimit {
						c.readErr = fmt.Errorf("%w (over %d bytes)", errTagTooLong, c.tagLimit)
						return w, nil
					}
					w += copy(p[w:], p[i:k])
					i = k
					if i == n {
						break // t1, t2 only matter in comments and CDATA
					}
				}
			}
			b := p[i]
			keep, perr := c.step(b)
			if perr != nil {
				c.readErr = perr
				return w, nil
			}
			if keep {
				p[w] = b
				w++
			}
			c.t1, c.t2 = c.t2, b
		}
		if err != nil {
			c.readErr = err
			if w > 0 {
				return w, nil
			}
			return 0, err
		}
		if w > 0 || n == 0 {
			return w, nil
		}
	}
}

// step advances the state machine by one byte and says whether to keep it.
func (c *capReader) step(b byte) (bool, error) {
	switch c.st {
	case capText, capCDATA:
		if c.st == capText && b == '<' {
			c.st, c.run, c.ent, c.drop, c.pre = capOpen, 0, false, false, c.pre[:0]
			return true, nil
		}
		if c.st == capCDATA && b == '>' && c.t1 == ']' && c.t2 == ']' {
			c.st, c.run, c.drop = capText, 0, false
			return true, nil
		}
		c.run++
		if c.drop {
			// In CDATA the terminator's brackets must survive the cut.
			return c.st == capCDATA && (b == ']' || b == '>'), nil
		}
		if c.run > c.textLimit && b&0xc0 != 0x80 && (!c.ent || c.run > c.textLimit+64) {
			c.drop = true
			c.cuts++
			return c.st == capCDATA && b == ']', nil
		}
		if b == '&' {
			c.ent = true
		} else if b == ';' {
			c.ent = false
		}
		return true, nil
	case capOpen:
		switch b {
		case '?':
			c.st = capPI
		case '!':
			c.st = capBang
		default:
			c.st = capTag
			return c.stepTag(b)
		}
		return true, nil
	case capBang:
		c.pre = append(c.pre, b)
		switch s := string(c.pre); {
		case s == "--":
			c.st, c.run = capComment, 0
		case s == "[CDATA[":
			c.st, c.run = capCDATA, 0
		case len(s) < 7 && (s == "-" || s == "[CDATA["[:len(s)]):
		default:
			c.st = capTag // a directive such as DOCTYPE: the decoder refuses it later
		}
		return true, nil
	case capTag, capQuote:
		return c.stepTag(b)
	case capComment:
		if err := c.grow(); err != nil {
			return false, err
		}
		if b == '>' && c.t1 == '-' && c.t2 == '-' {
			c.st, c.run = capText, 0
		}
		return true, nil
	case capPI:
		if err := c.grow(); err != nil {
			return false, err
		}
		if b == '>' && c.t2 == '?' {
			c.st, c.run = capText, 0
		}
		return true, nil
	}
	return true, nil
}

func (c *capReader) stepTag(b byte) (bool, error) {
	if err := c.grow(); err != nil {
		return false, err
	}
	if c.st == capQuote {
		if b == c.q {
			c.st = capTag
		}
		return true, nil
	}
	switch b {
	case '"', '\'':
		c.st, c.q = capQuote, b
	case '>':
		c.st, c.run = capText, 0
	}
	return true, nil
}

func (c *capReader) grow() error {
	c.run++
	if c.run > c.tagLimit {
		return fmt.Errorf("%w (over %d bytes)", errTagTooLong, c.tagLimit)
	}
	return nil
}
