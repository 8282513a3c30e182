package glossary

import (
	"strings"

	"cubeworkbench/core/dimension"
	"cubeworkbench/core/text"
)

// Lookups from the codes the rest of the product uses (set names,
// dimension names, verdict codes …) to glossary ids. ok is false for a
// code the glossary does not name — a user's own dimension, a further
// system — which the caller shows as the user wrote it.

// SetID is the id of an answer set named as in dataset (rag, zero, full).
func SetID(set string) (ID, bool) {
	return known("set." + set)
}

// DimensionID is the id of a rubric dimension (relevance, specificity …).
// The names are the dimension registry's titles (core/dimension): a
// dimension is named in one place, and the glossary reads it.
func DimensionID(dim string) (ID, bool) {
	return known("dim." + dim)
}

func init() {
	for _, d := range dimension.All() {
		terms[ID("dim."+d.Name)] = [2]string{d.Title("zh"), strings.ToLower(d.Title("en"))}
	}
}

// JudgeID is the id of a judge's name when the product named the judge
// itself: the offline judges lexical and semantic (engine.LexicalJudge,
// engine.SemanticJudge). A judge the user named (an LLM's endpoint) has no
// id and keeps the user's name.
func JudgeID(name string) (ID, bool) {
	switch name {
	case "lexical":
		return JudgeLexical, true
	case "semantic":
		return JudgeSemantic, true
	}
	return "", false
}

// JudgeName is a judge's name as people read it in lang: the glossary's
// for the offline judges, the user's own otherwise.
func JudgeName(name string, lang text.Lang) string { return Name(JudgeID, name, lang) }

// VerdictID is the id of a deployment verdict code (deployable,
// needs_work, not_ready, undetermined).
func VerdictID(code string) (ID, bool) {
	return known("verdict." + code)
}

// CompareID is the id of a comparison verdict code (better, none, worse,
// undefined).
func CompareID(code string) (ID, bool) {
	return known("compare." + code)
}

// QueryTypeID is the id of a canonical query type (factual, analytical,
// comparative, tutorial).
func QueryTypeID(t string) (ID, bool) {
	return known("query." + t)
}

// MFSSFactorID is the id of an MFSS factor by its JSON name (accuracy,
// factual_consistency, readability, coherence, rouge, conciseness, total).
func MFSSFactorID(f string) (ID, bool) {
	return known("mfss." + f)
}

// Name is code's glossary name in lang via lookup, or code itself when the
// glossary does not name it (a user's dimension keeps the user's name).
func Name(lookup func(string) (ID, bool), code string, lang text.Lang) string {
	if id, ok := lookup(code); ok {
		return Term(id, lang)
	}
	return code
}

func known(s string) (ID, bool) {
	id := ID(s)
	if _, ok := terms[id]; !ok || s == "" {
		return "", false
	}
	return id, true
}
