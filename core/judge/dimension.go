package judge

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"cubeworkbench/core/dimension"
	"cubeworkbench/core/text"
	"cubeworkbench/prompts"
)

// Dimension kinds.
const (
	KindScore = "score" // an integer on [Min, Max]
	KindYesNo = "yesno" // YES = 1, NO = 0
)

// Dimension is one thing a judge scores, with its prompt template per
// language ("" = any language).
type Dimension struct {
	Name             string
	Kind             string // KindScore or KindYesNo
	Min, Max         int
	TitleZH, TitleEN string
	Template         map[text.Lang]string // language → template text (front matter removed)
}

// Title is the dimension's display name in lang: the title in lang, else
// in the other language, else the name.
func (d Dimension) Title(lang text.Lang) string {
	if t := text.New(d.TitleZH, d.TitleEN); !t.IsZero() {
		return t.In(lang)
	}
	return d.Name
}

// builtinPath is the prompts/ template of a built-in dimension (core/dimension).
func builtinPath(name string) (string, bool) {
	d, ok := dimension.Lookup(name)
	if !ok {
		return "", false
	}
	return d.Prompt(), true
}

// Builtin returns a built-in dimension by name (any of dimension.All).
func Builtin(name string) (Dimension, bool) {
	d, err := BuiltinFrom("", name)
	return d, err == nil
}

// BuiltinFrom is Builtin with the user's edited templates in dir taking
// precedence over the embedded ones (dir may be "").
func BuiltinFrom(dir, name string) (Dimension, error) {
	p, ok := builtinPath(name)
	if !ok {
		return Dimension{}, fmt.Errorf("judge: no built-in dimension %q", name)
	}
	var d Dimension
	for _, lang := range prompts.Languages {
		content, err := prompts.Load(dir, p, lang)
		if err != nil {
			return Dimension{}, err
		}
		if err := d.add(lang, content, p+"."+string(lang)); err != nil {
			return Dimension{}, err
		}
	}
	return d, nil
}

// CubeDimensions returns CuBE's default dimensions in report order.
func CubeDimensions() []Dimension {
	names := dimension.Defaults()
	out := make([]Dimension, 0, len(names))
	for _, n := range names {
		d, ok := Builtin(n)
		if !ok { // embedded at build time and covered by tests
			panic("judge: built-in dimension missing: " + n)
		}
		out = append(out, d)
	}
	return out
}

// LoadDimension reads a user-defined dimension from a template file. A file
// named NAME.zh.md or NAME.en.md gives that language and its sibling in the
// other language is read too when present; any other name (NAME.md) serves
// every language.
func LoadDimension(path string) (Dimension, error) {
	var d Dimension
	base := filepath.Base(path)
	var lang text.Lang // "": the file serves every language
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	for _, l := range prompts.Languages {
		if strings.HasSuffix(base, "."+string(l)+".md") {
			lang, stem = l, strings.TrimSuffix(base, "."+string(l)+".md")
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return Dimension{}, fmt.Errorf("judge: dimension file: %w", err)
	}
	if err := d.add(lang, string(b), path); err != nil {
		return Dimension{}, err
	}
	if lang != "" {
		for _, l := range prompts.Languages {
			if l == lang {
				continue
			}
			sib := filepath.Join(filepath.Dir(path), stem+"."+string(l)+".md")
			b, err := os.ReadFile(sib)
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err != nil {
				return Dimension{}, fmt.Errorf("judge: dimension file: %w", err)
			}
			if err := d.add(l, string(b), sib); err != nil {
				return Dimension{}, err
			}
		}
	}
	if d.Name == "" {
		d.Name = stem
	}
	return d, nil
}

// add merges one template file into d; the first file sets the header.
func (d *Dimension) add(lang text.Lang, content, src string) error {
	h, body, err := splitFrontMatter(content)
	if err != nil {
		return fmt.Errorf("judge: %s: %w", src, err)
	}
	nd := Dimension{Name: h["name"], Kind: h["kind"], TitleZH: h["title_zh"], TitleEN: h["title_en"]}
	if nd.Kind == "" {
		nd.Kind = KindScore
	}
	switch nd.Kind {
	case KindScore:
		nd.Min, nd.Max = 0, 10
	case KindYesNo:
		nd.Min, nd.Max = 0, 1
	default:
		return fmt.Errorf("judge: %s: kind %q is neither %q nor %q", src, nd.Kind, KindScore, KindYesNo)
	}
	for k, p := range map[string]*int{"min": &nd.Min, "max": &nd.Max} {
		if v, ok := h[k]; ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("judge: %s: %s %q is not an integer", src, k, v)
			}
			*p = n
		}
	}
	if nd.Kind == KindScore && nd.Min >= nd.Max {
		return fmt.Errorf("judge: %s: scale min %d must be below max %d", src, nd.Min, nd.Max)
	}
	if strings.TrimSpace(body) == "" {
		return fmt.Errorf("judge: %s: empty template", src)
	}
	if _, err := parseTemplate(body); err != nil {
		return fmt.Errorf("judge: %s: %w", src, err)
	}
	if d.Template == nil {
		tmpl := d.Template
		*d = nd
		d.Template = tmpl
		if d.Template == nil {
			d.Template = map[text.Lang]string{}
		}
	} else if nd.Kind != d.Kind || nd.Min != d.Min || nd.Max != d.Max {
		return fmt.Errorf("judge: %s: scale %s %d–%d differs from the other language's %s %d–%d",
			src, nd.Kind, nd.Min, nd.Max, d.Kind, d.Min, d.Max)
	}
	d.Template[lang] = body
	return nil
}

// splitFrontMatter reads a leading "---" block of "key: value" lines.
func splitFrontMatter(text string) (map[string]string, string, error) {
	h := map[string]string{}
	text = strings.TrimPrefix(text, "\ufeff")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return h, text, nil
	}
	rest := text[len("---\n"):]
	end := strings.Index(rest, "\n---\n")
	if end < 0 {
		return nil, "", errors.New("front matter not closed by a --- line")
	}
	for i, line := range strings.Split(rest[:end], "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, "", fmt.Errorf("front matter line %d: want key: value, got %q", i+2, line)
		}
		h[strings.ToLower(strings.TrimSpace(k))] = strings.Trim(strings.TrimSpace(v), `"'`)
	}
	return h, rest[end+len("\n---\n"):], nil
}
