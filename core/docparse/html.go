package docparse

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// skipped elements hold no reader-visible text.
var skipped = map[string]bool{"script": true, "style": true, "noscript": true, "template": true}

// blocks end a line, so that sentences in adjacent cells or paragraphs do not
// run together into one token.
var blocks = map[string]bool{
	"p": true, "div": true, "br": true, "li": true, "tr": true, "td": true, "th": true, "h1": true,
	"h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "table": true, "ul": true, "ol": true,
	"section": true, "article": true, "header": true, "footer": true, "pre": true, "blockquote": true,
	"title": true, "dt": true, "dd": true, "hr": true,
}

func htmlFile(ctx context.Context, path string, lim Limits) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	cr := &capReader{r: f, n: lim.PartBytes}
	// charset.NewReader honours <meta charset> and BOMs, so GBK pages decode.
	r, err := charset.NewReader(cr, "text/html")
	if err == io.EOF {
		return "", nil // an empty page
	}
	if err != nil {
		return "", fmt.Errorf("%w (%v)", ErrCorrupt, err)
	}
	tc := &textCap{max: lim.TextBytes}
	if err := htmlText(ctx, r, tc); err != nil {
		if ctx.Err() != nil {
			return "", err
		}
		return "", fmt.Errorf("%w (%v)", ErrCorrupt, err)
	}
	return tidyLines(tc.String()), cutError(cr.cut, tc.full, "", lim)
}

// htmlText walks the token stream into tc, stopping when tc is full or ctx
// ends; entities are decoded by the tokenizer.
func htmlText(ctx context.Context, r io.Reader, tc *textCap) error {
	z := html.NewTokenizer(r)
	skip := 0
	lastNewline := true // nothing written yet: no newline needed
	newline := func() {
		if !lastNewline {
			tc.WriteByte('\n')
			lastNewline = true
		}
	}
	for n := 0; !tc.full; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if z.Err() == io.EOF {
				return nil
			}
			return z.Err()
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			// string(name) inside the index expression does not allocate (SA6001).
			if skipped[string(name)] && tt == html.StartTagToken {
				skip++
			}
			if blocks[string(name)] {
				newline()
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if skipped[string(name)] && skip > 0 {
				skip--
			}
			if blocks[string(name)] {
				newline()
			}
		case html.TextToken:
			if skip == 0 {
				if s := collapseSpace(string(z.Text())); s != "" {
					tc.WriteString(s)
					lastNewline = strings.HasSuffix(s, "\n")
				}
			}
		}
	}
	return nil
}

// collapseSpace turns runs of whitespace (source indentation) into one space.
func collapseSpace(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		if s == "" {
			return ""
		}
		return " "
	}
	out := strings.Join(f, " ")
	if strings.TrimLeft(s, " \t\r\n") != s {
		out = " " + out
	}
	if strings.TrimRight(s, " \t\r\n") != s {
		out += " "
	}
	return out
}
