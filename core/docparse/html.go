package docparse

import (
	"bytes"
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

func htmlFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	// charset.NewReader honours <meta charset> and BOMs, so GBK pages decode.
	r, err := charset.NewReader(bytes.NewReader(b), "text/html")
	if err != nil {
		return "", err
	}
	return htmlText(r)
}

// htmlText walks the token stream; entities are decoded by the tokenizer.
func htmlText(r io.Reader) (string, error) {
	z := html.NewTokenizer(r)
	var sb strings.Builder
	skip := 0
	newline := func() {
		s := sb.String()
		if len(s) > 0 && !strings.HasSuffix(s, "\n") {
			sb.WriteByte('\n')
		}
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if z.Err() == io.EOF {
				return tidyLines(sb.String()), nil
			}
			return "", z.Err()
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			tag := string(name)
			if skipped[tag] && tt == html.StartTagToken {
				skip++
			}
			if blocks[tag] {
				newline()
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			if skipped[tag] && skip > 0 {
				skip--
			}
			if blocks[tag] {
				newline()
			}
		case html.TextToken:
			if skip == 0 {
				sb.WriteString(collapseSpace(string(z.Text())))
			}
		}
	}
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

// tidyLines trims every line and drops empty ones.
func tidyLines(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
