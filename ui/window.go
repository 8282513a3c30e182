package ui

import (
	"cubeworkbench/assets/icon"
	"cubeworkbench/assets/sample"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/result"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"os"
	"path/filepath"
	"strings"
)

// AppID is the application identifier (also in FyneApp.toml).
const AppID = "org.cubeworkbench.cube"

// Preference keys.
const (
	prefProfile  = "profile.toml" // the profile keys the user changed, as TOML; never holds keys
	prefRecent   = "recent"       // recently opened workbooks, newest first
	prefLanguage = "language"     // "", "zh" or "en"; "" follows the system
	prefOffline  = "offline"      // the Evaluate tab's offline switch
	// Where exports go: exportInDocuments (default), exportBesideBook or
	// exportChosen with the folder in prefExportDir.
	prefExportWhere = "export.where"
	prefExportDir   = "export.dir"
	maxRecent       = 8
)

// Window is the main window. Its state (the workbook, the profile, the last
// result) lives here; each tab reads it and asks the window to change it.
type Window struct {
	app  fyne.App
	win  fyne.Window
	lang text.Lang

	// do runs f on the UI thread; fyne.Do except in tests that stand in a
	// serial loop of their own to measure how long the UI thread is held.
	do func(f func())

	prof profile.Profile
	// dataDir holds the sample copy and the user's prompts: the app's
	// storage, or a test's own folder.
	dataDir string

	// sess is the open workbook and its last result: the one place the
	// window's data lives (core/session, shared with the CLI). nil before
	// a workbook opened, or when the last one failed to (loadErr says why).
	sess    *session.Session
	path    string // the workbook last opened or tried
	loadErr error
	index   *resultIndex // the result, indexed for the explorer

	tabs      *container.AppTabs
	langPick  *widget.Select
	pathLabel *widget.Label

	open    *openTab
	judges  *judgesTab
	dims    *dimensionsTab
	eval    *evaluateTab
	results *resultsTab
	charts  *chartsTab
	compare *compareTab
	export  *exportTab
	people  *peopleTab
}

// shell is what a tab needs of the window besides the session it shows:
// the app (preferences, URLs), the window (dialogs), the UI thread and the
// language. A tab that holds a shell and is handed the session on refresh
// reads nothing else of the window.
type shell struct {
	app  fyne.App
	win  fyne.Window
	do   func(f func()) // runs f on the UI thread
	lang func() text.Lang
}

func (w *Window) shell() shell {
	return shell{app: w.app, win: w.win, do: func(f func()) { w.do(f) }, lang: func() text.Lang { return w.lang }}
}

// New builds the main window.
func New(a fyne.App) *Window {
	a.Settings().SetTheme(newTheme())
	a.SetIcon(fyne.NewStaticResource("icon.png", icon.PNG()))
	w := &Window{app: a, win: a.NewWindow("CuBE Workbench"), do: fyne.Do}
	if root := a.Storage().RootURI(); root != nil && root.Path() != "" {
		w.dataDir = root.Path()
	} else {
		w.dataDir = filepath.Join(os.TempDir(), "cube-workbench")
	}
	w.lang = w.chooseLanguage() // parsed once: the window speaks text.Lang
	useLanguage(w.lang)
	w.prof = w.loadProfile()
	w.prof.Language = w.lang.String()
	w.build()
	w.win.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) {
		if len(uris) > 0 {
			w.openAsync(uris[0].Path())
		}
	})
	w.win.Resize(preferredSize)
	a.Lifecycle().SetOnStarted(w.fitScreen)
	return w
}

// ShowAndRun shows the window and runs the app's event loop.
func (w *Window) ShowAndRun() { w.win.ShowAndRun() }

// chooseLanguage: CUBE_LANG, then the preference, then the system locale.
func (w *Window) chooseLanguage() text.Lang {
	for _, l := range []string{os.Getenv(EnvLang), w.app.Preferences().String(prefLanguage)} {
		if l == "zh" || l == "en" {
			return text.Lang(l)
		}
	}
	return systemLanguage()
}

// setLanguage switches every label: the tabs are rebuilt from the state.
func (w *Window) setLanguage(code text.Lang) {
	if code == w.lang || w.eval != nil && w.eval.running {
		return
	}
	w.lang = code
	w.prof.Language = string(code)
	w.saveProfile()
	useLanguage(code)
	w.build()
}

// build makes the window's content in the current language.
func (w *Window) build() {
	selected := 0
	if w.tabs != nil {
		selected = w.tabs.SelectedIndex()
	}
	w.open = newOpenTab(w.shell(), openActions{open: w.openAsync, reread: w.reread, sample: w.loadSample, recent: w.recent})
	w.judges = newJudgesTab(w)
	w.dims = newDimensionsTab(w)
	w.eval = newEvaluateTab(w.shell(), evalActions{
		profile: w.evalProfile,
		running: func(on bool) {
			if on {
				w.langPick.Disable()
			} else {
				w.langPick.Enable()
			}
		},
		evaluated: w.showEvaluation,
	})
	w.results = newResultsTab(w.shell())
	w.charts = newChartsTab(w.shell())
	w.export = newExportTab(w.shell())
	w.people = newPeopleTab(w)
	w.compare = newCompareTab(w)
	w.tabs = newTabs(w.open.item, w.judges.item, w.dims.item, w.eval.item, w.results.item, w.compare.item, w.charts.item, w.export.item, w.people.item)
	w.tabs.SelectIndex(selected)

	names := map[text.Lang]string{text.ZH: "中文", text.EN: "English"}
	w.langPick = widget.NewSelect([]string{"中文", "English"}, func(s string) {
		for code, name := range names {
			if name == s {
				// Rebuilding inside the Select's own callback would free it mid-call.
				go w.do(func() { w.setLanguage(code) })
			}
		}
	})
	w.langPick.SetSelected(names[w.lang])
	w.pathLabel = widget.NewLabel("")
	w.pathLabel.Truncation = fyne.TextTruncateEllipsis
	w.showPath()
	title := widget.NewLabelWithStyle("CuBE Workbench", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	top := container.NewBorder(nil, nil, title, container.NewHBox(widget.NewLabel(tr("settings.language")), w.langPick), w.pathLabel)
	w.win.SetContent(container.NewBorder(top, nil, nil, nil, w.tabs))
	w.refreshAll()
}

func (w *Window) showPath() {
	if w.path == "" {
		w.pathLabel.SetText(tr("open.none"))
		return
	}
	// The bundled sample is copied into the app's own storage, a hidden
	// folder an officer never chose: name it as the sample, not by that path.
	if rel, err := filepath.Rel(w.dataDir, w.path); err == nil && !strings.HasPrefix(rel, "..") && filepath.Base(w.path) == sample.FileName {
		w.pathLabel.SetText(trf("open.sample_path", map[string]any{"File": sample.FileName}))
		return
	}
	w.pathLabel.SetText(w.path)
}

// showEvaluation shows a finished evaluation of sess (UI thread): a few
// short tasks per tab (the results tab's parts, then one a tab), so that
// input and redraws interleave with them instead of waiting for all of
// them at once. A run of a session the window has since
// replaced (another workbook opened) changes nothing but its status line.
func (w *Window) showEvaluation(sess *session.Session, idx *resultIndex, jump bool) {
	if sess != w.sess {
		return
	}
	w.index = idx
	// The results tab, never shown yet, is laid out at the size it will
	// have, so that its texts are fitted once, by the tasks that fill it,
	// and not again all at once when the tab is selected.
	if sel := w.tabs.Selected(); sel != nil && w.results.item.Content.Size().IsZero() {
		w.results.item.Content.Resize(sel.Content.Size())
	}
	show := func() {
		if jump {
			w.tabs.Select(w.results.item)
		}
	}
	steps := append(w.results.refreshSteps(sess, idx), show,
		func() { w.open.refresh(w.sess, w.path, w.loadErr) }, func() { w.charts.refresh(w.sess) }, func() { w.export.refresh(w.sess) },
		w.dims.refreshWeights, w.people.refresh)
	for _, f := range steps {
		w.do(func() {
			if sess == w.sess { // not replaced while the steps waited
				f()
			}
		})
	}
}

// refreshAll shows the current state in every tab.
func (w *Window) refreshAll() {
	w.open.refresh(w.sess, w.path, w.loadErr)
	w.eval.refresh(w.sess, w.path)
	w.results.refresh(w.sess, w.index)
	w.compare.refresh(w.sess)
	w.charts.refresh(w.sess)
	w.export.refresh(w.sess)
	w.people.refresh()
}

// evalProfile is the profile an evaluation or a generation runs with: the
// window's, in the window's language.
func (w *Window) evalProfile() profile.Profile {
	p := w.prof
	p.Language = w.lang.String()
	return p
}

// loadProfile reads the profile from the preferences: the keys the user
// changed over the window's default (the offline lexical judge, so that a
// first Evaluate works anywhere). The default alone when there is none or
// it no longer parses.
func (w *Window) loadProfile() profile.Profile {
	if text := w.app.Preferences().String(prefProfile); text != "" {
		if p, err := profileFromChanges([]byte(text)); err == nil {
			return p
		} else {
			fyne.LogError("ui: stored profile ignored", err)
		}
	}
	return windowDefault()
}

// saveProfile stores the keys of the profile the user changed, as TOML:
// a default changed in a later version then reaches this user too. Keys
// never reach it: endpoints name the environment variable that holds theirs.
func (w *Window) saveProfile() {
	text, err := profileChanges(w.prof)
	if err != nil {
		fyne.LogError("ui: profile", err)
		return
	}
	w.app.Preferences().SetString(prefProfile, string(text))
	if w.eval != nil {
		w.eval.refresh(w.sess, w.path)
	}
}

// recent lists recently opened workbooks that still exist.
func (w *Window) recent() []string {
	var out []string
	for _, p := range w.app.Preferences().StringList(prefRecent) {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

func (w *Window) addRecent(path string) {
	list := []string{path}
	for _, p := range w.app.Preferences().StringList(prefRecent) {
		if p != path && len(list) < maxRecent {
			list = append(list, p)
		}
	}
	w.app.Preferences().SetStringList(prefRecent, list)
}

// storePath is the run store beside the workbook (cli.md: WORKBOOK.cube.db).
func storePath(workbook string) string { return session.StorePath(workbook) }

// workbook is the workbook the tables show: as read, or as the last
// evaluation left it; nil before one opened.
func (w *Window) workbook() *dataset.Workbook {
	if w.sess == nil {
		return nil
	}
	return w.sess.Shown()
}

// report is what the reader found in the workbook; nil before one opened.
func (w *Window) report() *dataset.ReadReport {
	if w.sess == nil {
		return nil
	}
	return w.sess.Report
}

// result is the last evaluation's outcome; nil before one finished.
func (w *Window) result() *result.Outcome {
	if w.sess == nil {
		return nil
	}
	return w.sess.Result()
}

// streamed is how many guides the session keeps in the run store.
func (w *Window) streamed() int {
	if w.sess == nil {
		return 0
	}
	return w.sess.Streamed
}
