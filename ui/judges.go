package ui

import (
	"context"
	"cubeworkbench/core/result"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/dataset"
	"cubeworkbench/core/judge"
	"cubeworkbench/core/judgepreset"
	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/secret"
	"cubeworkbench/core/text"
)

// preset is a known OpenAI-compatible server (core/judgepreset).
type preset struct {
	name, baseURL, model, keyEnv string
	nameEN                       string // the English window's name; "" when name is English
	currency                     string // the vendor's billing currency
}

// title is the preset's name in the window's language.
func (p preset) title() string {
	if currentLanguage() != "zh" && p.nameEN != "" {
		return p.nameEN
	}
	return p.name
}

var presets = func() []preset {
	var out []preset
	for _, p := range judgepreset.All() {
		out = append(out, preset{name: p.Name, baseURL: p.BaseURL, model: p.Model, keyEnv: p.KeyEnv, nameEN: p.NameEN, currency: p.Currency})
	}
	return out
}()

func presetNames() []string {
	out := make([]string, len(presets))
	for i, p := range presets {
		out[i] = p.title()
	}
	return out
}

// endpointForm edits one OpenAI-compatible endpoint (a judge or the
// generator) and tests it.
type endpointForm struct {
	w                               *Window
	preset                          *widget.Select
	name, baseURL, model, keyEnv    *widget.Entry
	concurrency, repeats, pIn, pOut *widget.Entry
	currency                        *widget.Entry
	key                             *keyField // a key pasted in the window (core/secret)
	test                            *widget.Button
	spinner                         *widget.Activity
	reply                           *widget.Label
	form                            *widget.Form
	onChange                        func()
	loading                         bool
	judge                           bool // a judge's form: Test connection probes the rubric
}

// newEndpointForm builds the form of a judge (withJudgeFields) or the
// generator; kind is its secret kind (secret.KindJudge, KindGenerator).
func newEndpointForm(w *Window, withJudgeFields bool, kind string, onChange func()) *endpointForm {
	f := &endpointForm{w: w, onChange: onChange, judge: withJudgeFields}
	changed := func(string) {
		if !f.loading && f.onChange != nil {
			f.onChange()
		}
	}
	entry := func(placeholder string) *widget.Entry {
		e := widget.NewEntry()
		e.SetPlaceHolder(placeholder)
		e.OnChanged = changed
		return e
	}
	f.name = entry("qwen2.5-32b")
	f.baseURL = entry("http://127.0.0.1:11434/v1")
	f.model = entry("qwen2.5:32b")
	f.keyEnv = entry(tr("judges.key_placeholder"))
	f.concurrency = entry("4")
	f.repeats = entry("1")
	f.pIn = entry(tr("judges.price_unknown"))
	f.pOut = entry(tr("judges.price_unknown"))
	f.currency = entry(tr("judges.currency_hint"))
	f.preset = widget.NewSelect(presetNames(), func(name string) {
		for _, p := range presets {
			if p.title() == name {
				f.loading = true
				f.baseURL.SetText(p.baseURL)
				f.model.SetText(p.model)
				f.keyEnv.SetText(p.keyEnv)
				f.currency.SetText(currencyText(p.currency))
				if f.name.Text == "" {
					f.name.SetText(p.model)
				}
				f.loading = false
				changed("")
			}
		}
	})
	f.preset.PlaceHolder = tr("judges.preset")
	f.key = newKeyField(w.shell(), func() secret.Ref { return secret.Ref{Kind: kind, Name: strings.TrimSpace(f.name.Text)} },
		func() string { return strings.TrimSpace(f.keyEnv.Text) })
	f.reply = widget.NewLabel("")
	f.reply.Wrapping = fyne.TextWrapWord
	f.reply.Selectable = true
	f.test = widget.NewButtonWithIcon(tr("judges.test"), theme.MediaPlayIcon(), f.testConnection)
	f.spinner = widget.NewActivity()
	f.spinner.Hide()
	items := []*widget.FormItem{
		widget.NewFormItem(tr("judges.preset"), f.preset),
		widget.NewFormItem(tr("judges.name"), f.name),
		widget.NewFormItem(tr("judges.base_url"), f.baseURL),
		widget.NewFormItem(tr("judges.model"), f.model),
		{Text: tr("judges.key_env"), Widget: f.keyEnv, HintText: tr("judges.key_hint")},
		widget.NewFormItem(tr("key.label"), f.key.box),
		widget.NewFormItem(tr("judges.concurrency"), f.concurrency),
	}
	if withJudgeFields {
		items = append(items, widget.NewFormItem(tr("judges.repeats"), f.repeats))
	}
	items = append(items,
		widget.NewFormItem(tr("judges.price_in"), f.pIn),
		widget.NewFormItem(tr("judges.price_out"), f.pOut),
		widget.NewFormItem(tr("judges.currency"), f.currency))
	f.form = widget.NewForm(items...)
	return f
}

// enable switches the form's fields (a judge must be selected to edit it).
func (f *endpointForm) enable(on bool) {
	for _, e := range []*widget.Entry{f.name, f.baseURL, f.model, f.keyEnv, f.concurrency, f.repeats, f.pIn, f.pOut, f.currency} {
		if on {
			e.Enable()
		} else {
			e.Disable()
		}
	}
	f.key.enable(on)
	if on {
		f.test.Enable()
	} else {
		f.test.Disable()
	}
	f.form.Refresh() // the item labels take the disabled colour from their widgets
}

func (f *endpointForm) set(ep profile.Endpoint) {
	f.loading = true
	defer func() { f.loading = false }()
	f.name.SetText(ep.Name)
	f.baseURL.SetText(ep.BaseURL)
	f.model.SetText(ep.Model)
	f.keyEnv.SetText(ep.APIKeyEnv)
	f.concurrency.SetText(intText(ep.Concurrency))
	f.repeats.SetText(intText(ep.Repeats))
	f.pIn.SetText(floatText(ep.PriceIn))
	f.pOut.SetText(floatText(ep.PriceOut))
	f.currency.SetText(currencyText(ep.Currency))
	f.reply.SetText("")
	f.key.Refresh("")
}

// get reads the form into ep, keeping ep's fields the form does not show.
func (f *endpointForm) get(ep profile.Endpoint) profile.Endpoint {
	ep.Name = strings.TrimSpace(f.name.Text)
	ep.BaseURL = strings.TrimSpace(f.baseURL.Text)
	ep.Model = strings.TrimSpace(f.model.Text)
	ep.APIKeyEnv = strings.TrimSpace(f.keyEnv.Text)
	ep.Concurrency = atoi(f.concurrency.Text)
	ep.Repeats = atoi(f.repeats.Text)
	ep.PriceIn = atof(f.pIn.Text)
	ep.PriceOut = atof(f.pOut.Text)
	ep.Currency = currencyCode(f.currency.Text)
	return ep
}

// testConnection sends the real rubric prompt on a built-in pair (a right
// and a wrong answer to one question, core/judge.ProbeJudge) with the key
// typed in the field, else the one the judge would use (saved, environment
// or keyring), and says in plain words whether the replies could be read
// and whether the right answer scored higher — or names the field to fix;
// off the UI thread, with a spinner. A generator form has no rubric to
// answer and keeps the one-line check.
func (f *endpointForm) testConnection() {
	ep := f.get(profile.Endpoint{})
	ref := f.key.ref()
	typed := strings.TrimSpace(f.key.entry.Text)
	lang := currentLanguage()
	f.reply.SetText(tr("judges.testing"))
	f.test.Disable()
	f.spinner.Show()
	f.spinner.Start()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var opts []llm.Option
		if typed != "" {
			opts = append(opts, llm.WithAPIKey(typed))
		} else if key, _, err := secret.Default().Get(ref, ep.APIKeyEnv); err == nil && ref.Name != "" {
			opts = append(opts, llm.WithAPIKey(key))
		}
		lep := llm.Endpoint{Name: ep.Name, BaseURL: ep.BaseURL, Model: ep.Model, APIKeyEnv: ep.APIKeyEnv}
		var text string
		if f.judge {
			text = probeVerdict(ctx, ep, lep, lang, opts)
		} else {
			reply, err := llm.TestConnection(ctx, lep, opts...)
			text = judgeVerdict(ep, reply, err)
		}
		f.w.do(func() {
			f.spinner.Stop()
			f.spinner.Hide()
			f.reply.SetText(text)
			f.test.Enable()
		})
	}()
}

// judgesTab edits the profile's judges, the generator and the target.
type judgesTab struct {
	w    *Window
	item *container.TabItem

	list        *widget.List
	selected    int
	form        *endpointForm
	add, remove *widget.Button
	lexical     *widget.Check
	semantic    *widget.Check // the offline semantic baseline: a second judge of another nature
	generator   *endpointForm
	target      *targetForm
	reranker    *rerankerForm
	empty       *widget.Label // shown while the list is empty
}

func (t *judgesTab) refreshEmpty() {
	if len(t.llmJudges()) == 0 {
		t.empty.Show()
	} else {
		t.empty.Hide()
	}
}

// llmJudges are the indexes of the profile's judges that the list shows:
// every judge but the lexical one, which has its own checkbox.
func (t *judgesTab) llmJudges() []int {
	var out []int
	for i, j := range t.w.prof.Judges {
		if !j.Offline() {
			out = append(out, i)
		}
	}
	return out
}

func newJudgesTab(w *Window) *judgesTab {
	t := &judgesTab{w: w, selected: -1}
	t.form = newEndpointForm(w, true, secret.KindJudge, t.formChanged)
	t.list = widget.NewList(
		func() int { return len(t.llmJudges()) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.ListItemID, o fyne.CanvasObject) {
			idx := t.llmJudges()
			if id < len(idx) {
				j := w.prof.Judges[idx[id]]
				text := j.Name
				if j.Imported() {
					text += " · " + tr("judges.imported")
				} else {
					text += " · " + j.Model
				}
				o.(*widget.Label).SetText(text)
			}
		})
	t.list.OnSelected = func(id widget.ListItemID) {
		idx := t.llmJudges()
		if id < len(idx) {
			t.selected = idx[id]
			t.form.set(w.prof.Judges[t.selected])
			t.form.enable(true)
		}
	}
	t.add = widget.NewButtonWithIcon(tr("judges.add"), theme.ContentAddIcon(), t.addJudge)
	t.remove = widget.NewButtonWithIcon(tr("judges.remove"), theme.ContentRemoveIcon(), t.removeJudge)
	t.lexical = widget.NewCheck(tr("judges.lexical"), t.setLexical)
	t.semantic = widget.NewCheck(tr("judges.semantic"), t.setSemantic)
	for _, j := range w.prof.Judges {
		if j.Semantic {
			t.semantic.Checked = true
		}
	}
	for _, j := range w.prof.Judges {
		if j.Lexical {
			t.lexical.Checked = true
		}
	}
	t.form.enable(false)

	t.generator = newEndpointForm(w, false, secret.KindGenerator, t.generatorChanged)
	if g := w.prof.Generator; g != nil {
		t.generator.set(*g)
	}

	t.target = newTargetForm(w.shell(), w.prof.Target, func() []dataset.Guide {
		if wb := w.workbook(); wb != nil {
			return wb.Guides
		}
		return nil
	}, func(tg *profile.Target) {
		w.prof.Target = tg
		w.saveProfile()
	})

	t.reranker = newRerankerForm(w.shell(), w.prof.Reranker, func(r *profile.Reranker) {
		w.prof.Reranker = r
		w.saveProfile()
	})

	empty := wrapLabel(tr("judges.empty"))
	t.empty = empty
	t.refreshEmpty()
	keyNote := widget.NewLabel(tr("judges.key_note"))
	keyNote.Wrapping = fyne.TextWrapWord
	left := container.NewBorder(
		heading("judges.list"),
		container.NewVBox(empty, container.NewHBox(t.add, t.remove), t.lexical, t.semantic), nil, nil, t.list)
	// Test connection and its result stay above the scrolling form, where
	// the button is, on the smallest screen.
	tested := func(f *endpointForm, body ...fyne.CanvasObject) fyne.CanvasObject {
		top := container.NewVBox(container.NewHBox(f.test, f.spinner), f.reply, widget.NewSeparator())
		return container.NewBorder(top, nil, nil, nil, container.NewVScroll(container.NewVBox(body...)))
	}
	right := newTabs(
		container.NewTabItem(tr("judges.judge"), tested(t.form, t.form.form, keyNote)),
		container.NewTabItem(tr("judges.generator"), tested(t.generator, wrapLabel(tr("judges.generator_help")), t.generator.form)),
		container.NewTabItem(tr("judges.target"), container.NewVScroll(container.NewVBox(
			wrapLabel(tr("judges.target_help")), t.target.box))),
		container.NewTabItem(tr("reranker.tab"), container.NewVScroll(t.reranker.box)),
	)
	split := container.NewHSplit(left, right)
	split.Offset = 0.28
	t.item = container.NewTabItemWithIcon(tr("tab.judges"), theme.AccountIcon(), split)
	return t
}

func wrapLabel(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// formChanged writes the form into the selected judge and saves the profile.
func (t *judgesTab) formChanged() {
	if t.selected < 0 || t.selected >= len(t.w.prof.Judges) {
		return
	}
	t.w.prof.Judges[t.selected] = t.form.get(t.w.prof.Judges[t.selected])
	t.list.Refresh()
	t.w.saveProfile()
}

// addJudge adds a judge from the chosen preset (Ollama when none is chosen).
func (t *judgesTab) addJudge() {
	p := presets[0]
	for _, q := range presets {
		if q.title() == t.form.preset.Selected {
			p = q
		}
	}
	name := p.model
	for n := 2; t.hasJudge(name); n++ {
		name = p.model + "-" + strconv.Itoa(n)
	}
	t.w.prof.Judges = append(t.w.prof.Judges, profile.Endpoint{Name: name, BaseURL: p.baseURL, Model: p.model, APIKeyEnv: p.keyEnv, Currency: p.currency, Concurrency: 4, Repeats: 1})
	t.w.saveProfile()
	t.list.Refresh()
	t.refreshEmpty()
	t.list.Select(len(t.llmJudges()) - 1)
}

func (t *judgesTab) hasJudge(name string) bool {
	for _, j := range t.w.prof.Judges {
		if j.Name == name {
			return true
		}
	}
	return false
}

func (t *judgesTab) removeJudge() {
	if t.selected < 0 || t.selected >= len(t.w.prof.Judges) {
		return
	}
	t.w.prof.Judges = append(t.w.prof.Judges[:t.selected], t.w.prof.Judges[t.selected+1:]...)
	t.selected = -1
	t.list.UnselectAll()
	t.form.set(profile.Endpoint{})
	t.form.enable(false)
	t.list.Refresh()
	t.refreshEmpty()
	t.w.saveProfile()
}

// setSemantic adds or removes the offline semantic baseline judge
// (embedding similarity): with the lexical one, judges side by side work
// on the sample without any endpoint.
func (t *judgesTab) setSemantic(on bool) {
	var kept []profile.Endpoint
	for _, j := range t.w.prof.Judges {
		if !j.Semantic {
			kept = append(kept, j)
		}
	}
	if on {
		kept = append(kept, profile.Endpoint{Name: result.SemanticJudge, Semantic: true})
	}
	t.w.prof.Judges = kept
	t.selected = -1
	t.list.UnselectAll()
	t.list.Refresh()
	t.w.saveProfile()
}

// setLexical adds or removes the offline lexical baseline judge.
func (t *judgesTab) setLexical(on bool) {
	var kept []profile.Endpoint
	for _, j := range t.w.prof.Judges {
		if !j.Lexical {
			kept = append(kept, j)
		}
	}
	if on {
		kept = append(kept, profile.Endpoint{Name: result.LexicalJudge, Lexical: true})
	}
	t.w.prof.Judges = kept
	t.selected = -1
	t.list.UnselectAll()
	t.list.Refresh()
	t.w.saveProfile()
}

func (t *judgesTab) generatorChanged() {
	g := t.generator.get(profile.Endpoint{})
	if g.BaseURL == "" && g.Model == "" {
		t.w.prof.Generator = nil
	} else {
		if g.Name == "" {
			g.Name = "generator"
		}
		t.w.prof.Generator = &g
	}
	t.w.saveProfile()
}

func intText(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func floatText(v float64) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func atoi(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

func atof(s string) float64 {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v < 0 {
		return 0
	}
	return v
}

// probeVerdict runs Test connection for a judge: the endpoint's errors get
// judgeVerdict's plain words, a reply the plain words of the probe.
func probeVerdict(ctx context.Context, ep profile.Endpoint, lep llm.Endpoint, lang text.Lang, opts []llm.Option) string {
	lep.MaxRetries = 1
	c, err := llm.New(lep, opts...)
	if err != nil {
		return judgeVerdict(ep, "", err)
	}
	p, err := judge.ProbeJudge(ctx, c, lang, nil)
	if err != nil {
		return judgeVerdict(ep, "", err)
	}
	return p.Text(lang)
}

// currencyText is a currency code as the window shows it: 人民币 and 美元 in
// the Chinese window, the code otherwise.
func currencyText(code string) string {
	if currentLanguage() == "zh" {
		switch code {
		case "CNY":
			return "人民币"
		case "USD":
			return "美元"
		}
	}
	return code
}

// currencyCode reads what was typed in the currency field as a code.
func currencyCode(text string) string {
	switch t := strings.ToUpper(strings.TrimSpace(text)); t {
	case "人民币", "元", "RMB", "¥", "CNY":
		return "CNY"
	case "美元", "$", "USD":
		return "USD"
	default:
		return t
	}
}
