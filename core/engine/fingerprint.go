package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/target"
	"cubeworkbench/core/text"
	"cubeworkbench/prompts"
)

// A fingerprint names the exact request that produced a stored answer, so
// an answer is reused only when this run would send the same request: the
// same question to the same target, or the same question (and, for the
// full set, the same gold guide text) to the same generator model with the
// same prompt template. Reusing by item id alone judged a rewritten
// question with the old question's answer (issue 12).
//
// The parts are length-prefixed so no two different requests share one.
func fingerprint(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// targetFingerprint binds a system answer to the question and to the
// target that answered it (the connector says what that is:
// target.FingerprintParts): kind, base URL (without password or secret
// query parameters), assistant/app, model, the generic connector's
// template and the name of the key's variable. A Dify app is known only by
// its key, so the variable's name stands in for the app; the key itself is
// never part of anything stored.
func targetFingerprint(t profile.Target, question string) string {
	parts := append([]string{"rag/1"}, target.FingerprintParts(t)...)
	return fingerprint(append(parts, question)...)
}

// generatorFP is what every generated answer's fingerprint shares: the
// generator's model, the prompt template's text (the user's edited copy
// when there is one), the language and the seed.
type generatorFP struct {
	model, seed      string
	lang             text.Lang // hashed as its bytes, "zh" or "en"
	answer, question string    // the templates' text, "" when they cannot be read
}

func newGeneratorFP(gen profile.Endpoint, p profile.Profile, lang text.Lang) generatorFP {
	g := generatorFP{model: gen.Model, seed: strconv.FormatInt(p.Seed, 10), lang: genLang(lang)}
	g.answer, _ = prompts.Load(p.PromptDir, "generate/answer", g.lang)
	g.question, _ = prompts.Load(p.PromptDir, "generate/question", g.lang)
	return g
}

// genLang is the prompt language the generator uses (core/generate: zh
// unless exactly en). Not text.LangOf: the fingerprints of stored answers
// hash these bytes (TestGeneratorFingerprintPinned).
func genLang(lang text.Lang) text.Lang {
	if lang == text.EN {
		return text.EN
	}
	return text.ZH
}

// bound is the fingerprint of a zero (document "") or full answer.
func (g generatorFP) bound(set, question, document string) string {
	return fingerprint("bound/1", set, g.model, string(g.lang), g.seed, g.answer, question, document)
}

// generatedQuestion is the fingerprint of a question written from a guide.
func (g generatorFP) generatedQuestion(queryType, document string) string {
	return fingerprint("question/1", g.model, string(g.lang), g.seed, g.question, queryType, document)
}

// expectedFingerprint is the fingerprint the answer of set for it would
// have if this run produced it; ok is false when this run cannot produce
// one (no target, no generator, no gold guide): such a stored answer is not
// reused either.
func (r *runner) expectedFingerprint(it *dataset.Item, set string, idx map[string]int) (string, bool) {
	p := r.opt.Profile
	switch set {
	case dataset.SetRAG:
		if p.Target == nil {
			return "", false
		}
		return targetFingerprint(*p.Target, it.Question), true
	case dataset.SetZero, dataset.SetFull:
		gen := p.Generator
		if gen == nil || gen.BaseURL == "" {
			return "", false
		}
		doc := ""
		if set == dataset.SetFull {
			i, ok := idx[it.DocID]
			if !ok {
				return "", false
			}
			doc = r.wb.Guides[i].Text
		}
		return r.generatorFP().bound(set, it.Question, doc), true
	}
	return "", false
}

// generatorFP reads the generator's templates once per run.
func (r *runner) generatorFP() generatorFP {
	r.genOnce.Do(func() {
		if gen := r.opt.Profile.Generator; gen != nil {
			r.genFP = newGeneratorFP(*gen, r.opt.Profile, r.lang)
		}
	})
	return r.genFP
}
