package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/dimension"
	"cubeworkbench/core/judge"
	"cubeworkbench/core/text"
	"cubeworkbench/prompts"
)

// The built-in dimensions (core/dimension): CuBE's, scored by the judges, and
// CoFE-RAG's generation metrics.
var (
	cubeDims = dimension.Names(dimension.CuBE)
	cofeDims = dimension.Names(dimension.CoFE)
)

// dimensionsTab chooses the dimensions, shows and edits their prompts (the
// user's copies go to the prompt directory) and sets the weights.
type dimensionsTab struct {
	w    *Window
	item *container.TabItem

	names     []string // shown in the list: CuBE, custom, CoFE
	list      *widget.List
	current   string
	use       *widget.Check
	promptLng *widget.Select
	prompt    *widget.Entry
	// front is the prompt's YAML front matter (name, kind, scale, titles):
	// kept out of the editor, which shows the officer only the words the
	// judge reads, and written back in front of them on save.
	front   string
	save    *widget.Button
	restore *widget.Button
	status  *widget.Label
	newName *widget.Entry

	weightMode *widget.RadioGroup
	hand       map[string]*widget.Entry
	handBox    *fyne.Container
	used       *widget.Label
	topN, trim *widget.Entry
	subset     *widget.Select
}

func newDimensionsTab(w *Window) *dimensionsTab {
	t := &dimensionsTab{w: w, hand: map[string]*widget.Entry{}}
	t.collectNames()
	t.list = widget.NewList(
		func() int { return len(t.names) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id < len(t.names) {
				o.(*widget.Label).SetText(t.label(t.names[id]))
			}
		})
	t.list.OnSelected = func(id widget.ListItemID) {
		if id < len(t.names) {
			t.show(t.names[id])
		}
	}
	t.use = widget.NewCheck(tr("dims.use"), t.setUsed)
	t.promptLng = widget.NewSelect([]string{tr("lang.zh"), tr("lang.en")}, func(string) { t.loadPrompt() })
	t.promptLng.SetSelectedIndex(indexOf(promptLangs, w.lang.String()))
	t.prompt = widget.NewMultiLineEntry()
	t.prompt.Wrapping = fyne.TextWrapWord
	t.save = widget.NewButtonWithIcon(tr("dims.save"), theme.DocumentSaveIcon(), t.savePrompt)
	t.restore = widget.NewButtonWithIcon(tr("dims.restore"), theme.ContentUndoIcon(), t.restorePrompt)
	t.status = widget.NewLabel("")
	t.status.Wrapping = fyne.TextWrapWord
	t.newName = widget.NewEntry()
	t.newName.SetPlaceHolder(tr("dims.new_placeholder"))
	add := widget.NewButtonWithIcon(tr("dims.add"), theme.ContentAddIcon(), t.addDimension)

	t.weightMode = widget.NewRadioGroup([]string{tr("weights.correlation"), tr("weights.equal"), tr("weights.hand")}, func(string) { t.weightsChanged() })
	t.weightMode.Horizontal = true
	t.handBox = container.NewGridWithColumns(4)
	t.used = widget.NewLabel("")
	t.used.Wrapping = fyne.TextWrapWord
	t.topN = widget.NewEntry()
	t.trim = widget.NewEntry()
	t.subset = widget.NewSelect([]string{tr("subset.retrieved"), tr("subset.all")}, func(string) { t.settingsChanged() })
	t.subset.PlaceHolder = tr("subset.default")
	t.loadSettings()
	t.topN.OnChanged = func(string) { t.settingsChanged() }
	t.trim.OnChanged = func(string) { t.settingsChanged() }

	editorTop := container.NewBorder(nil, nil, t.use, container.NewHBox(widget.NewLabel(tr("dims.prompt_lang")), t.promptLng))
	editor := container.NewBorder(editorTop, container.NewVBox(container.NewHBox(t.save, t.restore), t.status), nil, nil, t.prompt)
	left := container.NewBorder(heading("dims.list"),
		container.NewBorder(nil, nil, nil, add, t.newName), nil, nil, t.list)
	split := container.NewHSplit(left, editor)
	split.Offset = 0.25

	settings := widget.NewForm(
		widget.NewFormItem(tr("dims.weights"), container.NewHBox(t.weightMode, helpButton(w.win, "help.weights"))),
		widget.NewFormItem(tr("dims.hand_weights"), t.handBox),
		widget.NewFormItem(tr("dims.top_n"), container.NewBorder(nil, nil, nil, helpButton(w.win, "help.rank"), t.topN)),
		widget.NewFormItem(tr("dims.trim"), container.NewBorder(nil, nil, nil, helpButton(w.win, "help.trim"), t.trim)),
		widget.NewFormItem(tr("dims.subset"), container.NewBorder(nil, nil, nil, helpButton(w.win, "help.subset"), t.subset)),
	)
	bottom := container.NewVBox(widget.NewSeparator(), settings, t.used)
	t.item = container.NewTabItemWithIcon(tr("tab.dimensions"), theme.ListIcon(), container.NewBorder(nil, bottom, nil, nil, split))
	if len(t.names) > 0 {
		t.list.Select(0)
	}
	t.refreshWeights()
	return t
}

// helpButton shows a formula's explanation (formulas.md) in a dialog.
func helpButton(win fyne.Window, key string) *widget.Button {
	return widget.NewButtonWithIcon("", theme.QuestionIcon(), func() {
		l := widget.NewLabel(tr(key))
		l.Wrapping = fyne.TextWrapWord
		d := dialog.NewCustom(tr("help.title"), tr("dialog.close"), container.NewVScroll(l), win)
		d.Resize(fyne.NewSize(640, 360))
		d.Show()
	})
}

// promptDir is where the user's copies of the prompts live.
func (w *Window) promptDir() string {
	if w.prof.PromptDir != "" {
		return w.prof.PromptDir
	}
	return filepath.Join(w.dataDir, "prompts")
}

// collectNames lists the CuBE four, the profile's and the prompt
// directory's custom dimensions, then CoFE's.
func (t *dimensionsTab) collectNames() {
	seen := map[string]bool{}
	var custom []string
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			custom = append(custom, n)
		}
	}
	for _, n := range append(append([]string{}, cubeDims...), cofeDims...) {
		seen[n] = true
	}
	for _, n := range t.w.prof.Dimensions {
		add(n)
	}
	if entries, err := os.ReadDir(t.w.promptDir()); err == nil {
		for _, e := range entries {
			if name, ok := strings.CutSuffix(e.Name(), ".md"); ok && !e.IsDir() && !strings.Contains(name, ".") {
				add(name)
			}
		}
	}
	sort.Strings(custom)
	t.names = append(append(append([]string{}, cubeDims...), custom...), cofeDims...)
}

func isCoFE(name string) bool {
	for _, n := range cofeDims {
		if n == name {
			return true
		}
	}
	return false
}

func isBuiltin(name string) bool {
	_, ok := judge.Builtin(name)
	return ok
}

func (t *dimensionsTab) inUse(name string) bool {
	for _, n := range t.w.prof.Dimensions {
		if n == name {
			return true
		}
	}
	return false
}

// label is the list entry: the title in the window's language, the name,
// and whether the profile uses it.
func (t *dimensionsTab) label(name string) string {
	title := name
	if d, ok := judge.Builtin(name); ok {
		// The name is the profile's key: shown in English only, a Chinese
		// window names the dimension in Chinese alone.
		title = dimLabel(name)
		if t.w.lang == text.EN && !strings.EqualFold(title, name) && !strings.EqualFold(d.Title("en"), name) {
			title += " (" + name + ")"
		}
	}
	switch {
	case isCoFE(name):
		return "CoFE · " + title
	case t.inUse(name):
		return "✓ " + title
	}
	return "   " + title
}

// promptFile is the user's copy of a dimension's prompt: the prompts
// package's layout for built-ins (cube/NAME.LANG.md), NAME.md for custom
// dimensions (which engine reads for every language).
func (t *dimensionsTab) promptFile(name string, lang text.Lang) string {
	dir := t.w.promptDir()
	if isBuiltin(name) {
		p := "cube/" + name
		if isCoFE(name) {
			p = "cofe/" + name
		}
		return filepath.Join(dir, filepath.FromSlash(prompts.File(p, lang)))
	}
	return filepath.Join(dir, name+".md")
}

func (t *dimensionsTab) show(name string) {
	t.current = name
	t.use.SetChecked(t.inUse(name))
	if isCoFE(name) {
		t.use.Disable()
	} else {
		t.use.Enable()
	}
	t.loadPrompt()
}

// loadPrompt shows the user's copy when there is one, else the default.
func (t *dimensionsTab) loadPrompt() {
	if t.current == "" || t.prompt == nil {
		return
	}
	lang := t.promptLang()
	file := t.promptFile(t.current, lang)
	if b, err := os.ReadFile(file); err == nil {
		t.showPrompt(string(b))
		t.status.SetText(trf("dims.user_copy", map[string]any{"Path": file}))
		return
	}
	if isBuiltin(t.current) {
		p := "cube/" + t.current
		if isCoFE(t.current) {
			p = "cofe/" + t.current
		}
		text, err := prompts.Load("", p, lang)
		if err != nil {
			t.status.SetText(errText(err))
			return
		}
		t.showPrompt(text)
		t.status.SetText(tr("dims.default_copy"))
		return
	}
	t.showPrompt("")
	t.status.SetText(tr("dims.no_prompt"))
}

// showPrompt puts a prompt file's body in the editor, its front matter aside.
func (t *dimensionsTab) showPrompt(text string) {
	t.front, text = splitFrontMatter(text)
	t.prompt.SetText(text)
}

// splitFrontMatter cuts a leading "---" … "---" block off text: front is
// the block with its fences and the newline after them ("" when there is
// none), so that front+body is text again.
func splitFrontMatter(text string) (front, body string) {
	norm := strings.ReplaceAll(text, "\r\n", "\n")
	if !strings.HasPrefix(norm, "---\n") {
		return "", text
	}
	end := strings.Index(norm[4:], "\n---")
	if end < 0 {
		return "", text
	}
	cut := 4 + end + len("\n---")
	if nl := strings.IndexByte(norm[cut:], '\n'); nl >= 0 && strings.TrimSpace(norm[cut:cut+nl]) == "" {
		cut += nl + 1
	} else if strings.TrimSpace(norm[cut:]) != "" {
		return "", text // "---" followed by more on the line: not a fence
	} else {
		cut = len(norm)
	}
	return norm[:cut], norm[cut:]
}

// savePrompt writes the editor's text as the user's copy, after checking
// that it parses as a rubric.
func (t *dimensionsTab) savePrompt() {
	if t.current == "" {
		return
	}
	file := t.promptFile(t.current, t.promptLang())
	err := os.MkdirAll(filepath.Dir(file), 0o755)
	if err == nil {
		err = os.WriteFile(file, []byte(t.front+t.prompt.Text), 0o644)
	}
	if err == nil && !isBuiltin(t.current) {
		if _, lerr := judge.LoadDimension(file); lerr != nil {
			err = lerr
		}
	}
	if err != nil {
		t.status.SetText(tr("judges.error") + " " + errText(err))
		return
	}
	t.w.prof.PromptDir = t.w.promptDir()
	t.w.saveProfile()
	t.status.SetText(trf("dims.saved", map[string]any{"Path": file}))
}

func (t *dimensionsTab) restorePrompt() {
	if t.current == "" {
		return
	}
	err := os.Remove(t.promptFile(t.current, t.promptLang()))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.status.SetText(tr("judges.error") + " " + errText(err))
		return
	}
	t.loadPrompt()
}

// addDimension starts a custom dimension from the relevance rubric, renamed.
func (t *dimensionsTab) addDimension() {
	name := strings.ToLower(strings.TrimSpace(t.newName.Text))
	if name == "" || strings.ContainsAny(name, `/\. `) {
		t.status.SetText(tr("dims.bad_name"))
		return
	}
	for _, n := range t.names {
		if n == name {
			t.status.SetText(tr("dims.exists"))
			return
		}
	}
	text, err := prompts.Load("", "cube/relevance", t.w.lang)
	if err == nil {
		text = strings.Replace(text, "name: relevance", "name: "+name, 1)
		file := t.promptFile(name, t.w.lang)
		if err = os.MkdirAll(filepath.Dir(file), 0o755); err == nil {
			err = os.WriteFile(file, []byte(text), 0o644)
		}
	}
	if err != nil {
		t.status.SetText(tr("judges.error") + " " + errText(err))
		return
	}
	t.w.prof.PromptDir = t.w.promptDir()
	t.w.prof.Dimensions = append(t.w.prof.Dimensions, name)
	t.w.saveProfile()
	t.newName.SetText("")
	t.collectNames()
	t.list.Refresh()
	for i, n := range t.names {
		if n == name {
			t.list.Select(i)
		}
	}
	t.refreshWeights()
}

func (t *dimensionsTab) setUsed(on bool) {
	if t.current == "" || isCoFE(t.current) || on == t.inUse(t.current) {
		return
	}
	var dims []string
	for _, n := range t.names { // keep the list's order
		if n == t.current && on || n != t.current && t.inUse(n) {
			dims = append(dims, n)
		}
	}
	if len(dims) == 0 {
		t.use.SetChecked(true)
		return
	}
	t.w.prof.Dimensions = dims
	t.w.saveProfile()
	t.list.Refresh()
	t.refreshWeights()
}

func (t *dimensionsTab) loadSettings() {
	mode, table, _ := t.w.prof.WeightMode()
	switch mode {
	case "equal":
		t.weightMode.Selected = tr("weights.equal")
	case "hand":
		t.weightMode.Selected = tr("weights.hand")
	default:
		t.weightMode.Selected = tr("weights.correlation")
	}
	for _, d := range t.w.prof.Dimensions {
		e := widget.NewEntry()
		if v, ok := table[d]; ok {
			e.SetText(strconv.FormatFloat(v, 'f', -1, 64))
		}
		e.OnChanged = func(string) { t.weightsChanged() }
		t.hand[d] = e
	}
	t.topN.SetText(strconv.Itoa(t.w.prof.TopN))
	t.trim.SetText(strconv.FormatFloat(t.w.prof.Trim, 'f', -1, 64))
	if i := indexOf(subsets, t.w.prof.Subset); i >= 0 {
		t.subset.Selected = t.subset.Options[i]
	}
}

// The prompt languages and CuBE subsets the selects offer, in their order.
var (
	promptLangs = []string{"zh", "en"}
	subsets     = []string{"retrieved", "all"}
)

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// promptLang is the code of the prompt language chosen.
func (t *dimensionsTab) promptLang() text.Lang {
	if i := t.promptLng.SelectedIndex(); i >= 0 && i < len(promptLangs) {
		return text.LangOf(promptLangs[i])
	}
	return t.w.lang
}

// weightsChanged writes the weights mode (and hand weights) to the profile.
func (t *dimensionsTab) weightsChanged() {
	if t.hand == nil {
		return
	}
	switch t.weightMode.Selected {
	case tr("weights.equal"):
		t.w.prof.Weights = "equal"
	case tr("weights.hand"):
		table := map[string]any{}
		for _, d := range t.w.prof.Dimensions {
			if e := t.hand[d]; e != nil {
				if v := atof(e.Text); v > 0 {
					table[d] = v
				}
			}
		}
		if len(table) == 0 {
			return // nothing typed yet: keep the previous mode
		}
		t.w.prof.Weights = table
	default:
		t.w.prof.Weights = "correlation"
	}
	t.w.saveProfile()
	t.refreshWeights()
}

func (t *dimensionsTab) settingsChanged() {
	if n := atoi(t.topN.Text); n >= 1 {
		t.w.prof.TopN = n
	}
	if v, err := strconv.ParseFloat(strings.TrimSpace(t.trim.Text), 64); err == nil && v >= 0 && v < 0.5 {
		t.w.prof.Trim = v
	}
	if i := t.subset.SelectedIndex(); i >= 0 && i < len(subsets) {
		t.w.prof.Subset = subsets[i]
	}
	t.w.saveProfile()
}

// refreshWeights shows a hand-weight entry per dimension in use and the
// weights the last evaluation used, per judge.
func (t *dimensionsTab) refreshWeights() {
	var objs []fyne.CanvasObject
	for _, d := range t.w.prof.Dimensions {
		e := t.hand[d]
		if e == nil {
			e = widget.NewEntry()
			e.OnChanged = func(string) { t.weightsChanged() }
			t.hand[d] = e
		}
		e.SetPlaceHolder("0.25")
		objs = append(objs, container.NewBorder(nil, nil, widget.NewLabel(dimLabel(d)), nil, e))
	}
	t.handBox.Objects = objs
	t.handBox.Refresh()
	res := t.w.result()
	if res == nil || res.Summary == nil || res.Summary.Result == nil {
		t.used.SetText(tr("dims.weights_after"))
		return
	}
	var lines []string
	for _, j := range res.Summary.Judges {
		var parts []string
		for _, d := range res.Summary.Dimensions {
			parts = append(parts, fmt.Sprintf("%s %.4f", dimLabel(d), j.Weights[d]))
		}
		line := fmt.Sprintf("%s (%s): %s", judgeLabel(j.Judge), weightSource(j.WeightSource), strings.Join(parts, " · "))
		if j.WeightNote != nil {
			line += " — " + j.WeightNote.In(t.w.lang)
		}
		lines = append(lines, line)
	}
	t.used.SetText(tr("dims.weights_used") + "\n" + strings.Join(lines, "\n"))
}
