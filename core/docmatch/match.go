// Package docmatch resolves the documents a RAG system says it retrieved to
// the workbook's guides, and reports how well that went. A real knowledge
// base names documents by 32-hex ids (RAGFlow), UUIDs (Dify) and the file
// names people uploaded (食品经营许可办理指南.pdf for the guide 食品经营许可);
// a reference that resolves to no guide makes Recall@k silently 0, so the
// Report says how many resolved and lists the rest.
package docmatch

import (
	"strings"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/target"
)

// Method says how a reference was resolved.
type Method string

// Resolution methods, strongest first.
const (
	ByTargetDoc Method = "target_doc" // the guide's target_doc column names the id or file
	ByID        Method = "id"         // the reference is the guide id
	ByTitle     Method = "title"      // the reference is the guide title
	ByName      Method = "normalized" // equal after Normalize (extension, width, punctuation, 办事指南 …)
)

// Matcher resolves references against one set of guides. Build it once per
// run; it is safe for concurrent use once built.
type Matcher struct {
	guides []dataset.Guide
	exact  map[string]entry // raw target_doc values, ids, titles
	loose  map[string]entry // normalized forms
}

// entry is the guide a key names; ambiguous lists every guide when more than one does.
type entry struct {
	guide     int
	method    Method
	ambiguous []int
}

// New indexes guides by their target_doc names, ids, titles and the
// normalized forms of all three. Keys that name two guides are ambiguous
// and resolve to none (they are reported, never guessed).
func New(guides []dataset.Guide) *Matcher {
	m := &Matcher{guides: guides, exact: map[string]entry{}, loose: map[string]entry{}}
	add := func(idx map[string]entry, key string, i int, how Method) {
		if key == "" {
			return
		}
		e, ok := idx[key]
		switch {
		case !ok:
			idx[key] = entry{guide: i, method: how}
		case e.guide == i:
		case rank(how) < rank(e.method) && e.ambiguous == nil:
			// an id beats another guide's title: ids are unique, titles need not be
			idx[key] = entry{guide: i, method: how}
		case rank(how) == rank(e.method) || e.ambiguous != nil:
			if e.ambiguous == nil {
				e.ambiguous = []int{e.guide}
			}
			if !containsInt(e.ambiguous, i) {
				e.ambiguous = append(e.ambiguous, i)
			}
			idx[key] = e
		}
	}
	for i, g := range guides {
		for _, d := range splitTargetDocs(g.TargetDoc) {
			add(m.exact, d, i, ByTargetDoc)
			add(m.loose, Normalize(d), i, ByTargetDoc)
		}
		add(m.exact, strings.TrimSpace(g.ID), i, ByID)
		add(m.loose, Normalize(g.ID), i, ByID)
		add(m.exact, strings.TrimSpace(g.Title), i, ByTitle)
		add(m.loose, Normalize(g.Title), i, ByTitle)
	}
	return m
}

func rank(m Method) int {
	switch m {
	case ByTargetDoc:
		return 0
	case ByID:
		return 1
	default:
		return 2
	}
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Resolution is the outcome for one reference.
type Resolution struct {
	GuideID   string   // "" when unresolved
	Method    Method   // how it resolved
	Ambiguous []string // guide ids, when the reference names several guides
}

// Resolve maps one retrieved document to a guide: its id, then its name,
// exactly (target_doc, guide id, title); then the name and the id
// normalized. The first candidate that names exactly one guide wins; a
// candidate that names several is reported as ambiguous.
func (m *Matcher) Resolve(d target.Doc) Resolution {
	var amb []string
	try := func(idx map[string]entry, key string, loose bool) (Resolution, bool) {
		if key == "" {
			return Resolution{}, false
		}
		e, ok := idx[key]
		if !ok {
			return Resolution{}, false
		}
		if e.ambiguous != nil {
			if amb == nil {
				for _, i := range e.ambiguous {
					amb = append(amb, m.guides[i].ID)
				}
			}
			return Resolution{}, false
		}
		how := e.method
		if loose {
			how = ByName
			if e.method == ByTargetDoc {
				how = ByTargetDoc
			}
		}
		return Resolution{GuideID: m.guides[e.guide].ID, Method: how}, true
	}
	for _, c := range []struct {
		idx   map[string]entry
		key   string
		loose bool
	}{
		{m.exact, strings.TrimSpace(d.ID), false},
		{m.exact, strings.TrimSpace(d.Name), false},
		{m.exact, stripExtension(strings.TrimSpace(d.Name)), false},
		{m.loose, Normalize(d.Name), true},
		{m.loose, Normalize(d.ID), true},
	} {
		if r, ok := try(c.idx, c.key, c.loose); ok {
			return r
		}
	}
	return Resolution{Ambiguous: amb}
}
