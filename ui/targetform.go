package ui

import (
	"context"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/secret"
	"cubeworkbench/core/target"
	"cubeworkbench/core/targetcheck"
)

// targetForm edits the system under test. Its fields are the connector
// registry's (target.Kinds, Spec.Fields): a connector added to core/target
// appears here with its labels and hints, and nothing here names a kind.
type targetForm struct {
	sh       shell
	onChange func(*profile.Target)
	guides   func() []dataset.Guide // the open workbook's guides, for Test connection

	kind    *widget.Select
	kinds   []string // registry kinds, in the Select's order
	entries map[string]*widget.Entry
	key     *keyField
	fields  *fyne.Container // the generated form
	test    *widget.Button
	spinner *widget.Activity
	reply   *widget.Label
	box     *fyne.Container
	loading bool
	busy    bool
}

func newTargetForm(sh shell, cur *profile.Target, guides func() []dataset.Guide, onChange func(*profile.Target)) *targetForm {
	f := &targetForm{sh: sh, onChange: onChange, guides: guides, entries: map[string]*widget.Entry{}}
	f.kinds = target.Kinds()
	labels := []string{tr("target.none")}
	for _, k := range f.kinds {
		spec, _ := target.SpecOf(k)
		labels = append(labels, spec.Label.In(sh.lang()))
	}
	f.kind = widget.NewSelect(labels, func(string) {
		f.build(f.current())
		f.changed()
	})
	f.key = newKeyField(sh, func() secret.Ref { return secret.Target(f.selectedKind()) },
		func() string {
			if e := f.entries["api_key_env"]; e != nil {
				return strings.TrimSpace(e.Text)
			}
			return ""
		})
	f.fields = container.NewVBox()
	f.test = widget.NewButtonWithIcon(tr("judges.test"), theme.MediaPlayIcon(), f.Test)
	f.spinner = widget.NewActivity()
	f.spinner.Hide()
	f.reply = widget.NewLabel("")
	f.reply.Wrapping = fyne.TextWrapWord
	f.reply.Selectable = true
	f.loading = true
	f.kind.SetSelectedIndex(0)
	if cur != nil {
		for i, k := range f.kinds {
			if k == cur.Kind {
				f.kind.SetSelectedIndex(i + 1)
			}
		}
	}
	f.build(cur)
	f.loading = false
	f.box = container.NewVBox(widget.NewForm(widget.NewFormItem(tr("judges.target_kind"), f.kind)), f.fields,
		container.NewHBox(f.test, f.spinner), f.reply)
	return f
}

// selectedKind is the registry kind chosen, "" for none.
func (f *targetForm) selectedKind() string {
	i := f.kind.SelectedIndex()
	if i <= 0 || i > len(f.kinds) {
		return ""
	}
	return f.kinds[i-1]
}

// build makes the form of the chosen kind's fields, filled from cfg.
func (f *targetForm) build(cfg *profile.Target) {
	kind := f.selectedKind()
	f.entries = map[string]*widget.Entry{}
	spec, ok := target.SpecOf(kind)
	if !ok {
		f.fields.Objects = nil
		f.fields.Refresh()
		f.test.Disable()
		return
	}
	lang := f.sh.lang()
	var items []*widget.FormItem
	for _, fd := range spec.Fields {
		e := widget.NewEntry()
		if fd.Multiline {
			e = widget.NewMultiLineEntry()
			e.SetMinRowsVisible(4)
		}
		if fd.Key == "base_url" {
			e.SetPlaceHolder(spec.Placeholder)
		}
		if cfg != nil && cfg.Kind == kind {
			e.SetText(cfg.Get(fd.Key))
		}
		e.OnChanged = func(string) { f.changed() }
		f.entries[fd.Key] = e
		label := fd.Label.In(lang)
		if fd.Required {
			label += " *"
		}
		if fd.Secret {
			// The profile keeps the variable's name; the key itself goes to
			// core/secret through the key field.
			e.SetPlaceHolder(tr("judges.key_placeholder"))
			items = append(items, &widget.FormItem{Text: label + " · " + tr("judges.key_env"), Widget: e, HintText: tr("judges.key_hint")},
				&widget.FormItem{Text: label, Widget: f.key.box, HintText: fd.Hint.In(lang)})
			continue
		}
		items = append(items, &widget.FormItem{Text: label, Widget: e, HintText: fd.Hint.In(lang)})
	}
	f.fields.Objects = []fyne.CanvasObject{widget.NewForm(items...)}
	f.fields.Refresh()
	if !f.busy {
		f.test.Enable()
	}
	f.key.Refresh("")
}

// current is the form as a target config; nil when no kind is chosen.
func (f *targetForm) current() *profile.Target {
	kind := f.selectedKind()
	if kind == "" {
		return nil
	}
	tg := &profile.Target{Kind: kind}
	for key, e := range f.entries {
		_ = tg.Set(key, strings.TrimSpace(e.Text))
	}
	return tg
}

func (f *targetForm) changed() {
	if f.loading {
		return
	}
	f.onChange(f.current())
}

// Test asks the system one question about the workbook's first guide and
// shows targetcheck's verdict, off the UI thread, with a spinner.
func (f *targetForm) Test() {
	tg := f.current()
	if tg == nil {
		f.reply.SetText(tr("judges.target_none"))
		return
	}
	f.busy = true
	f.test.Disable()
	f.spinner.Show()
	f.spinner.Start()
	f.reply.SetText(tr("judges.testing"))
	guides, lang := f.guides(), f.sh.lang()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		v := targetcheck.Check(ctx, *tg, guides, "", nil)
		text := v.Text(lang)
		if v.OK() {
			text = "✓ " + text
		}
		if v.Answer != nil && strings.TrimSpace(v.Answer.Text) != "" {
			text += "\n" + tr("judges.reply") + " " + oneLine(v.Answer.Text)
		}
		f.sh.do(func() {
			f.busy = false
			f.spinner.Stop()
			f.spinner.Hide()
			f.test.Enable()
			f.reply.SetText(text)
		})
	}()
}
