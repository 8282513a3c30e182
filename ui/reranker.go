package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/profile"
	"cubeworkbench/core/secret"
)

// rerankerKinds are the [reranker] kinds core/rerank serves (profile
// checks the list; auto asks the server GET /info).
var rerankerKinds = []string{"auto", "vllm", "tei", "xinference"}

// rerankerForm edits the profile's [reranker] section: CoFE's reranking
// stage. An empty address removes the section (retrieved order is kept).
type rerankerForm struct {
	baseURL, model, keyEnv *widget.Entry
	kind                   *widget.Select
	key                    *keyField // the key pasted here, filed as the engine reads it
	box                    *fyne.Container
	onChange               func(*profile.Reranker)
	loading                bool
}

func newRerankerForm(sh shell, cur *profile.Reranker, onChange func(*profile.Reranker)) *rerankerForm {
	f := &rerankerForm{onChange: onChange}
	changed := func(string) { f.changed() }
	entry := func(placeholder string) *widget.Entry {
		e := widget.NewEntry()
		e.SetPlaceHolder(placeholder)
		e.OnChanged = changed
		return e
	}
	f.baseURL = entry("http://127.0.0.1:8080")
	f.model = entry("BAAI/bge-reranker-v2-m3")
	f.keyEnv = entry(tr("judges.key_placeholder"))
	labels := make([]string, len(rerankerKinds))
	for i, k := range rerankerKinds {
		labels[i] = tr("reranker.kind_" + k)
	}
	f.kind = widget.NewSelect(labels, changed)
	f.loading = true
	f.kind.SetSelectedIndex(0)
	if cur != nil {
		f.baseURL.SetText(cur.BaseURL)
		f.model.SetText(cur.Model)
		f.keyEnv.SetText(cur.APIKeyEnv)
		for i, k := range rerankerKinds {
			if k == cur.Kind {
				f.kind.SetSelectedIndex(i)
			}
		}
	}
	f.loading = false
	// core/engine looks the reranker's key up as secret.Reranker("reranker").
	f.key = newKeyField(sh, func() secret.Ref { return secret.Reranker("reranker") }, func() string { return strings.TrimSpace(f.keyEnv.Text) })
	f.key.Refresh("")
	form := widget.NewForm(
		&widget.FormItem{Text: tr("judges.base_url"), Widget: f.baseURL, HintText: tr("reranker.base_url_hint")},
		&widget.FormItem{Text: tr("reranker.kind"), Widget: f.kind, HintText: tr("reranker.kind_hint")},
		&widget.FormItem{Text: tr("judges.model"), Widget: f.model, HintText: tr("reranker.model_hint")},
		&widget.FormItem{Text: tr("judges.key_env"), Widget: f.keyEnv, HintText: tr("judges.key_hint")},
		widget.NewFormItem(tr("key.label"), f.key.box),
	)
	f.box = container.NewVBox(wrapLabel(tr("reranker.help")), form)
	return f
}

// current is the section the form holds; nil without an address.
func (f *rerankerForm) current() *profile.Reranker {
	url := strings.TrimSpace(f.baseURL.Text)
	if url == "" {
		return nil
	}
	r := &profile.Reranker{BaseURL: url, Model: strings.TrimSpace(f.model.Text), APIKeyEnv: strings.TrimSpace(f.keyEnv.Text)}
	if i := f.kind.SelectedIndex(); i >= 0 && i < len(rerankerKinds) {
		r.Kind = rerankerKinds[i]
	}
	return r
}

func (f *rerankerForm) changed() {
	if !f.loading {
		f.onChange(f.current())
	}
}
