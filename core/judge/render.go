package judge

import (
	"fmt"
	"strings"
	"sync"
	"text/template"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/text"
	"cubeworkbench/prompts"
)

// Inputs is what a template can show the judge.
type Inputs struct {
	Question  string
	Answer    string
	Document  string   // the gold service guide
	Reference string   // reference answer (CoFE correctness)
	Contexts  []string // retrieved passages (CoFE faithfulness, relevancy)
}

// userMarker splits a template into its system and user messages.
const userMarker = "\n=== user ===\n"

var funcs = template.FuncMap{"inc": func(i int) int { return i + 1 }}

// parsed caches templates by their text: Render runs once per judgement.
var parsed sync.Map // string → *template.Template

func parseTemplate(text string) (*template.Template, error) {
	if t, ok := parsed.Load(text); ok {
		return t.(*template.Template), nil
	}
	t, err := template.New("prompt").Funcs(funcs).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, fmt.Errorf("template: %w", err)
	}
	parsed.Store(text, t)
	return t, nil
}

// fence breaks any <<< or >>> inside an input so that the text cannot close
// the data fence it sits in and pose as instructions.
var fence = strings.NewReplacer("<<<", "<< <", ">>>", "> >>")

func escape(s string) string { return fence.Replace(s) }

// templateFor picks the template in lang, else the language-neutral one,
// else the other built-in language. lang is matched as given (not read
// with text.LangOf): the prompt a judge is sent, and so its stored replies'
// request keys, stay what they were for every setting.
func (d Dimension) templateFor(lang text.Lang) (string, error) {
	if t, ok := d.Template[lang]; ok {
		return t, nil
	}
	if t, ok := d.Template[""]; ok {
		return t, nil
	}
	for _, l := range prompts.Languages {
		if t, ok := d.Template[l]; ok {
			return t, nil
		}
	}
	return "", fmt.Errorf("judge: dimension %q has no template", d.Name)
}

// Render builds the chat messages asking a judge to score in on d.
func Render(d Dimension, lang text.Lang, in Inputs) ([]llm.Message, error) {
	text, err := d.templateFor(lang)
	if err != nil {
		return nil, err
	}
	data := Inputs{Question: escape(in.Question), Answer: escape(in.Answer), Document: escape(in.Document),
		Reference: escape(in.Reference), Contexts: make([]string, len(in.Contexts))}
	for i, c := range in.Contexts {
		data.Contexts[i] = escape(c)
	}
	sys, user, split := strings.Cut(text, userMarker)
	if !split {
		sys, user = "", text
	}
	var msgs []llm.Message
	for _, part := range []struct{ role, text string }{{"system", sys}, {"user", user}} {
		if strings.TrimSpace(part.text) == "" {
			continue
		}
		t, err := parseTemplate(part.text)
		if err != nil {
			return nil, fmt.Errorf("judge: dimension %q: %w", d.Name, err)
		}
		var b strings.Builder
		if err := t.Execute(&b, data); err != nil {
			return nil, fmt.Errorf("judge: dimension %q: render: %w", d.Name, err)
		}
		msgs = append(msgs, llm.Message{Role: part.role, Content: strings.TrimSpace(b.String())})
	}
	if len(msgs) == 0 || msgs[len(msgs)-1].Role != "user" {
		return nil, fmt.Errorf("judge: dimension %q: template renders no user message", d.Name)
	}
	return msgs, nil
}
