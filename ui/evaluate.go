package ui

import (
	"context"
	"cubeworkbench/core/result"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeworkbench/core/llm"
	"cubeworkbench/core/profile"
	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

// eventInterval is how often engine events reach the widgets: about ten
// updates a second whatever the engine's rate (design.md).
const eventInterval = 100 * time.Millisecond

// evaluateTab shows the plan, runs the engine in a goroutine with a bar per
// step, and cancels it. A cancelled run resumes: everything finished is in
// the store beside the workbook.
type evaluateTab struct {
	sh   shell
	act  evalActions
	item *container.TabItem

	sess *session.Session // the session shown; nil before a workbook opened
	path string           // the workbook last tried (batch import needs only its store)

	steps    *flowText
	estimate *flowText
	offline  *widget.Check
	start    *widget.Button
	cancel   *widget.Button
	// Batch mode: requests to a file for a GPU cluster, results back.
	batchOut *widget.Button
	batchIn  *widget.Button
	bars     *fyne.Container
	rows     map[string]*stepRow
	status   *flowText
	messages *flowText

	running   bool
	restoring bool             // the run shows the store's last result, unasked
	shownFor  *session.Session // the session the bars and status are of
	stop      context.CancelFunc
	done      chan struct{} // closed when a run's goroutine ends (tests wait on it)

	// newCompleter is handed to the engine; nil means the real client.
	newCompleter func(profile.Endpoint) (llm.Completer, error)
	// applied counts throttled updates, for the responsiveness test.
	applied int
}

// stepRow is one step's bar and its numbers.
type stepRow struct {
	title *widget.Label
	bar   *widget.ProgressBar
	info  *widget.Label
}

// evalActions are what the evaluate tab asks of the window.
type evalActions struct {
	profile func() profile.Profile // the profile to run, in the window's language
	// running is told when a run starts and ends (the window keeps the
	// language fixed meanwhile).
	running func(on bool)
	// evaluated shows a finished evaluation of sess in every tab; jump
	// brings the results forward (a run the user started, not a restore).
	evaluated func(sess *session.Session, idx *resultIndex, jump bool)
}

func newEvaluateTab(sh shell, act evalActions) *evaluateTab {
	t := &evaluateTab{sh: sh, act: act, rows: map[string]*stepRow{}}
	t.steps = newFlowText("")
	t.estimate = newFlowText("")
	t.offline = widget.NewCheck(tr("eval.offline"), func(on bool) {
		sh.app.Preferences().SetBool(prefOffline, on)
		t.refresh(t.sess, t.path)
	})
	t.offline.Checked = sh.app.Preferences().Bool(prefOffline)
	t.start = widget.NewButtonWithIcon(tr("eval.start"), theme.MediaPlayIcon(), t.Start)
	t.start.Importance = widget.HighImportance
	t.cancel = widget.NewButtonWithIcon(tr("eval.cancel"), theme.MediaStopIcon(), t.Cancel)
	t.cancel.Disable()
	t.batchOut = widget.NewButtonWithIcon(tr("eval.batch_export"), theme.UploadIcon(), t.BatchExport)
	t.batchIn = widget.NewButtonWithIcon(tr("eval.batch_import"), theme.DownloadIcon(), t.BatchImport)
	t.bars = container.NewVBox()
	t.status = newFlowText("")
	t.messages = newFlowText("")

	// The plan on the left and the run on the right, each scrolling on its
	// own: a long plan (many judges) never pushes the progress bars off a
	// 1024×640 screen.
	head := container.NewVBox(
		container.NewHBox(t.offline, t.start, t.cancel, widget.NewSeparator(), t.batchOut, t.batchIn),
		widget.NewSeparator(),
	)
	plan := container.NewVScroll(container.NewVBox(heading("eval.steps"), t.steps, heading("eval.estimate"), t.estimate))
	progress := container.NewVScroll(container.NewVBox(t.status, t.bars, t.messages))
	split := container.NewHSplit(plan, progress)
	split.Offset = 0.42
	t.item = container.NewTabItemWithIcon(tr("tab.evaluate"), theme.MediaPlayIcon(), container.NewBorder(head, nil, nil, nil, split))
	return t
}

// stepName is a step's label in the window's language.
func stepName(step string) string { return tr("step." + step) }

// ready says the shown workbook may be evaluated.
func (t *evaluateTab) ready() bool { return t.sess != nil && t.sess.Check() == nil }

// refresh shows what a run of sess would do now: the steps and the estimate.
func (t *evaluateTab) refresh(sess *session.Session, path string) {
	t.sess, t.path = sess, path
	if t.running {
		return
	}
	if sess != t.shownFor { // another workbook: the last one's run is not this one's
		t.shownFor = sess
		t.bars.Objects = nil
		t.rows = map[string]*stepRow{}
		t.bars.Refresh()
		t.status.SetText("")
		t.messages.SetText("")
	}
	prof := t.act.profile()
	switch {
	case sess == nil:
		t.steps.SetText(tr("eval.no_workbook"))
		t.estimate.SetText("")
		t.start.Disable()
		return
	case !t.ready():
		t.steps.SetText(tr("eval.has_errors"))
		t.estimate.SetText("")
		t.start.Disable()
		return
	}
	t.start.Enable()
	plan := sess.Plan(prof)
	var lines []string
	for _, s := range plan.Steps {
		label := stepName(s.Step)
		if s.Label != "" {
			label += " · " + judgeLabel(s.Label) // a judge's name, or a connector's
		}
		lines = append(lines, trf("eval.plan_step", map[string]any{"Step": label, "Calls": s.Calls}))
	}
	for _, j := range prof.Judges {
		switch {
		case j.Lexical:
			lines = append(lines, stepName(result.StepJudge)+" · "+tr("eval.lexical_step"))
		case j.Semantic:
			lines = append(lines, stepName(result.StepJudge)+" · "+tr("eval.semantic_step"))
		}
	}
	lines = append(lines, stepName(result.StepMetrics)+" · "+tr("eval.metrics_step"))
	t.steps.SetText("• " + strings.Join(lines, "\n• "))
	if plan.Calls == 0 {
		t.estimate.SetText(tr("eval.no_calls"))
	} else {
		text := plan.Estimate(t.sh.lang())
		if t.offline.Checked {
			text += "\n" + tr("eval.offline_blocks")
		}
		t.estimate.SetText(text)
	}
}

// Start runs the evaluation in a goroutine (UI thread).
func (t *evaluateTab) Start() {
	if t.running || !t.ready() {
		return
	}
	t.run(t.act.profile(), t.offline.Checked, false)
}

// restore shows sess's last finished evaluation at once: p, that run's
// profile, evaluated offline from the run store, where every reply it
// needs already is, so no endpoint is called (UI thread).
func (t *evaluateTab) restore(sess *session.Session, p profile.Profile) {
	if t.running || sess != t.sess || !t.ready() {
		return
	}
	t.run(p, true, true)
}

// run evaluates the shown session with p in a goroutine (UI thread).
func (t *evaluateTab) run(p profile.Profile, offline, restoring bool) {
	ctx, cancel := context.WithCancel(context.Background())
	t.stop = cancel
	t.running = true
	t.restoring = restoring
	t.shownFor = t.sess
	t.done = make(chan struct{})
	t.start.Disable()
	t.cancel.Enable()
	t.act.running(true)
	t.bars.Objects = nil
	t.rows = map[string]*stepRow{}
	t.bars.Refresh()
	t.status.SetText(tr("eval.running"))
	if restoring {
		t.status.SetText(tr("eval.restoring"))
	}
	t.messages.SetText("")

	sess := t.sess // the session evaluates a copy; the tables keep reading theirs
	done := t.done
	newCompleter := t.newCompleter
	go func() {
		defer close(done)
		defer cancel()
		th := newThrottle(t.sh.do, t.apply)
		res, err := sess.Evaluate(ctx, p, session.EvalOptions{Offline: offline, Progress: th, NewCompleter: newCompleter})
		// Read now, before the deferred cancel: only Cancel stops ctx
		// while the run is going, so this says the user asked.
		userStopped := errors.Is(ctx.Err(), context.Canceled)
		var idx *resultIndex
		if err == nil {
			idx = newResultIndex(res) // off the UI thread
		}
		th.close()
		t.sh.do(func() {
			t.finish(sess, idx, err, userStopped)
			if restoring && err == nil {
				t.status.SetText(tr("eval.restored") + "\n" + t.status.Text)
			} else if restoring {
				t.status.SetText(tr("eval.restore_failed") + " " + t.status.Text)
			}
		})
	}()
}

// Cancel stops the run; what finished stays in the store.
func (t *evaluateTab) Cancel() {
	if t.stop != nil {
		t.stop()
		t.status.SetText(tr("eval.cancelling"))
		t.cancel.Disable()
	}
}

// finish shows a run's outcome (UI thread). A run of a session the window
// has since replaced (another workbook opened) only reports its status.
func (t *evaluateTab) finish(sess *session.Session, idx *resultIndex, err error, cancelled bool) {
	t.running = false
	t.stop = nil
	t.cancel.Disable()
	t.start.Enable()
	t.act.running(false)
	lang := t.sh.lang()
	end := session.EndOf(err, cancelled)
	switch {
	case err == nil:
		r := sess.Result().Summary.Run
		t.status.SetText(trf("eval.done", map[string]any{
			"Duration": fmtDuration(r.Finished.Sub(r.Started), lang), "Calls": r.Calls, "Cached": r.Cached,
			"Failed": r.Failed, "Unscorable": r.Unscorable, "Tokens": r.Tokens, "Store": sess.StorePath,
		}))
		t.act.evaluated(sess, idx, !t.restoring)
	case end.Status == session.RunCancelled:
		t.status.SetText(sentence(end.Text(lang), lang) + " " + trf("eval.cancelled", map[string]any{"Store": sess.StorePath}))
	default:
		text := sentence(end.Text(lang), lang) + " " + trf("eval.stopped", map[string]any{"Store": sess.StorePath})
		if h := llm.Hint(err).In(lang); h != "" {
			text += "\n" + h
		}
		t.status.SetText(text)
	}
}

// sentence makes an ending's words a sentence of the window: capitalised
// and closed in English, closed with 。 in Chinese.
func sentence(s string, lang text.Lang) string {
	if lang == text.ZH {
		return s + "。"
	}
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s + "."
}

// apply shows the latest event of every step (UI thread).
func (t *evaluateTab) apply(events []result.Event, messages []string) {
	t.applied++
	for _, e := range events {
		key := e.Step + "\x00" + e.Label
		row := t.rows[key]
		if row == nil {
			row = &stepRow{title: widget.NewLabel(""), bar: widget.NewProgressBar(), info: widget.NewLabel("")}
			title := stepName(e.Step)
			if e.Label != "" {
				title += " · " + judgeLabel(e.Label)
			}
			row.title.SetText(title)
			row.title.TextStyle.Bold = true
			t.rows[key] = row
			// Two lines a step (its name and numbers, then the bar), so a run
			// with many judges keeps every bar on a 1024×640 screen.
			row.info.Truncation = fyne.TextTruncateEllipsis
			t.bars.Add(container.NewVBox(container.NewBorder(nil, nil, row.title, nil, row.info), row.bar))
		}
		if e.Total > 0 {
			row.bar.Max = float64(e.Total)
			row.bar.SetValue(float64(e.Done))
		} else if e.Finished {
			row.bar.Max = 1
			row.bar.SetValue(1)
		}
		row.info.SetText(eventText(e))
	}
	if len(messages) > 0 {
		all := strings.Split(t.messages.Text, "\n")
		all = append(all, messages...)
		if len(all) > 8 {
			all = all[len(all)-8:]
		}
		t.messages.SetText(strings.TrimSpace(strings.Join(all, "\n")))
	}
}

// eventText is a step's numbers: counts, ETA, failures, calls, tokens.
func eventText(e result.Event) string {
	parts := []string{fmt.Sprintf("%d / %d", e.Done, e.Total)}
	if e.ETA > 0 && !e.Finished {
		parts = append(parts, tr("eval.eta")+" "+fmtDuration(e.ETA, currentLanguage()))
	}
	if e.Finished {
		parts = append(parts, tr("eval.finished")+" "+fmtDuration(e.Elapsed, currentLanguage()))
	}
	parts = append(parts,
		fmt.Sprintf("%s %d", tr("eval.failed_n"), e.Failed),
		fmt.Sprintf("%s %d", tr("eval.calls"), e.Calls),
		fmt.Sprintf("%s %d", tr("eval.cached"), e.Cached),
		fmt.Sprintf("%s %d", tr("eval.tokens"), e.Tokens))
	if m := e.Money(currentLanguage()); m != "" {
		parts = append(parts, m)
	}
	return strings.Join(parts, " · ")
}

// throttle receives engine events from any goroutine without blocking and
// hands the latest per step to the UI thread at most every eventInterval.
type throttle struct {
	do    func(func())
	apply func([]result.Event, []string)

	mu     sync.Mutex
	latest map[string]result.Event
	order  []string
	msgs   []string
	dirty  bool

	quit chan struct{}
	wg   sync.WaitGroup
}

func newThrottle(do func(func()), apply func([]result.Event, []string)) *throttle {
	th := &throttle{do: do, apply: apply, latest: map[string]result.Event{}, quit: make(chan struct{})}
	th.wg.Add(1)
	go th.loop()
	return th
}

// Event records e; the engine's workers call it.
func (th *throttle) Event(e result.Event) {
	key := e.Step + "\x00" + e.Label
	th.mu.Lock()
	if _, ok := th.latest[key]; !ok {
		th.order = append(th.order, key)
	}
	th.latest[key] = e
	if e.Message != "" && len(th.msgs) < 64 {
		th.msgs = append(th.msgs, e.Message)
	}
	th.dirty = true
	th.mu.Unlock()
}

func (th *throttle) loop() {
	defer th.wg.Done()
	tick := time.NewTicker(eventInterval)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			th.flush()
		case <-th.quit:
			th.flush()
			return
		}
	}
}

// flush hands a snapshot to the UI thread when anything changed.
func (th *throttle) flush() {
	th.mu.Lock()
	if !th.dirty {
		th.mu.Unlock()
		return
	}
	events := make([]result.Event, len(th.order))
	for i, k := range th.order {
		events[i] = th.latest[k]
	}
	msgs := th.msgs
	th.msgs, th.dirty = nil, false
	th.mu.Unlock()
	th.do(func() { th.apply(events, msgs) })
}

// close delivers the last events and stops the loop.
func (th *throttle) close() {
	close(th.quit)
	th.wg.Wait()
}
