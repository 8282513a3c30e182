package generate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"text/template"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/querytype"
	"cubeworkbench/core/text"
	"cubeworkbench/prompts"
)

// Generator asks one LLM for questions, keywords and bound answers.
type Generator struct {
	C         llm.Completer
	Lang      text.Lang // zh or en
	PromptDir string    // the user's edited prompt copies, "" for the built-ins
	Seed      int
}

// ErrEmpty marks a reply with nothing usable in it.
var ErrEmpty = errors.New("generate: empty reply")

// fence breaks any <<< or >>> inside an input, as the judge's renderer
// does, so a document cannot close its own data fence.
var fence = strings.NewReplacer("<<<", "<< <", ">>>", "> >>")

type fields struct {
	Question, Document, QueryType string
	Aspect, Avoid                 string // the test-set prompt's (testset.go)
}

func (g *Generator) render(name string, f fields) ([]llm.Message, error) {
	src, err := prompts.Load(g.PromptDir, "generate/"+name, g.lang())
	if err != nil {
		return nil, err
	}
	tmpl, err := template.New(name).Parse(src)
	if err != nil {
		return nil, fmt.Errorf("generate: prompt %s: %w", name, err)
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, fields{
		Question:  fence.Replace(f.Question),
		Document:  fence.Replace(f.Document),
		QueryType: f.QueryType,
		Aspect:    f.Aspect,
		Avoid:     fence.Replace(f.Avoid),
	}); err != nil {
		return nil, fmt.Errorf("generate: prompt %s: %w", name, err)
	}
	return []llm.Message{{Role: "user", Content: buf.String()}}, nil
}

// lang is the prompts' language: zh unless Lang is exactly en (not read
// with text.LangOf: the prompts sent, and so the stored replies' request
// keys and the engine's fingerprints, stay what they were for every
// setting).
func (g *Generator) lang() text.Lang {
	if g.Lang == text.EN {
		return text.EN
	}
	return text.ZH
}

func (g *Generator) ask(ctx context.Context, msgs []llm.Message, temperature float64, jsonReply bool) (llm.Reply, error) {
	seed := g.Seed
	rep, err := g.C.Complete(ctx, llm.Request{Messages: msgs, Temperature: temperature, Seed: &seed, JSON: jsonReply})
	if errors.Is(err, llm.ErrEmptyReply) { // llm.Client's word for a blank answer
		return rep, fmt.Errorf("%w: %w", ErrEmpty, err)
	}
	if err != nil {
		return rep, err
	}
	if strings.TrimSpace(rep.Content) == "" {
		return rep, ErrEmpty
	}
	return rep, nil
}

// Answer writes a bound-set answer: with document == "" the zero set (no
// context), with the gold document the full set. Both use the same prompt
// so that the only difference between the bounds is the context.
func (g *Generator) Answer(ctx context.Context, question, document string) (string, llm.Reply, error) {
	msgs, err := g.render("answer", fields{Question: question, Document: document})
	if err != nil {
		return "", llm.Reply{}, err
	}
	rep, err := g.ask(ctx, msgs, 0, false)
	if err != nil {
		return "", rep, err
	}
	return strings.TrimSpace(rep.Content), rep, nil
}

// QueryTypeFor spreads the four query types over guides in turn, so a
// generated set is mixed unless the caller fixes one type.
func QueryTypeFor(i int) string {
	return [...]string{"factual", "tutorial", "analytical", "comparative"}[i%4]
}

// Question writes one citizen-style question answered by the guide.
func (g *Generator) Question(ctx context.Context, document, queryType string) (string, llm.Reply, error) {
	name := queryType // shown to the model in the prompt's language
	if t, ok := querytype.Lookup(queryType); ok && g.lang() != text.EN {
		name = t.TitleZH
	}
	msgs, err := g.render("question", fields{Document: document, QueryType: name})
	if err != nil {
		return "", llm.Reply{}, err
	}
	rep, err := g.ask(ctx, msgs, 0.7, false)
	if err != nil {
		return "", rep, err
	}
	q := firstLine(rep.Content)
	if q == "" {
		return "", rep, ErrEmpty
	}
	return q, rep, nil
}

var questionPrefix = regexp.MustCompile(`^(问题|Question)\s*[:：]\s*`)

// firstLine is the first non-empty line without a "问题：" label and the
// quotes around it; the quotes are trimmed on both sides of the label,
// because models write both “问题：…” and 问题：“…”.
func firstLine(s string) string {
	unquote := func(s string) string { return strings.TrimSpace(strings.Trim(strings.TrimSpace(s), `"“”`)) }
	for _, line := range strings.Split(s, "\n") {
		line = unquote(questionPrefix.ReplaceAllString(unquote(line), ""))
		if line != "" {
			return line
		}
	}
	return ""
}

// Keywords extracts CoFE coarse keywords and fine keyword groups. Keywords
// that do not occur in the document are dropped: CoFE matches them verbatim,
// so an invented keyword could never be hit and would only lower recall.
func (g *Generator) Keywords(ctx context.Context, question, document string) (coarse []string, fine [][]string, rep llm.Reply, err error) {
	msgs, err := g.render("keywords", fields{Question: question, Document: document})
	if err != nil {
		return nil, nil, llm.Reply{}, err
	}
	rep, err = g.ask(ctx, msgs, 0, true)
	if err != nil {
		return nil, nil, rep, err
	}
	coarse, fine, err = ParseKeywords(rep.Content, document)
	return coarse, fine, rep, err
}

var jsonObject = regexp.MustCompile(`(?s)\{.*\}`)

// ParseKeywords reads {"coarse": [...], "fine": [[...], ...]} from a reply
// (code fences and surrounding prose allowed) and keeps only keywords found
// in the document.
func ParseKeywords(reply, document string) ([]string, [][]string, error) {
	raw := jsonObject.FindString(reply)
	if raw == "" {
		return nil, nil, fmt.Errorf("generate: keywords reply has no JSON object")
	}
	var parsed struct {
		Coarse []string   `json:"coarse"`
		Fine   [][]string `json:"fine"`
	}
	if err := json.Unmarshal([]byte(raw), &parsed); err != nil {
		return nil, nil, fmt.Errorf("generate: keywords reply: %w", err)
	}
	var coarse []string
	for _, k := range parsed.Coarse {
		if k = strings.TrimSpace(k); k != "" && strings.Contains(document, k) {
			coarse = append(coarse, k)
		}
	}
	var fine [][]string
	for _, group := range parsed.Fine {
		var kept []string
		for _, k := range group {
			if k = strings.TrimSpace(k); k != "" && strings.Contains(document, k) {
				kept = append(kept, k)
			}
		}
		if len(kept) > 0 {
			fine = append(fine, kept)
		}
	}
	if len(coarse) == 0 {
		return nil, nil, fmt.Errorf("generate: no coarse keyword occurs in the document")
	}
	return coarse, fine, nil
}
