package ui

import (
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"cubeworkbench/core/session"
	"cubeworkbench/core/text"
)

// peopleTab is where people check the machine: the questions generated
// from the guides are reviewed before anything is paid (问题生成与审核), and
// answers are rated blind after an evaluation (人工抽检).
type peopleTab struct {
	item   *container.TabItem
	inner  *container.AppTabs
	review *reviewTab
	spot   *spotTab
}

func newPeopleTab(w *Window) *peopleTab {
	sess := func() *session.Session { return w.sess }
	t := &peopleTab{}
	t.review = newReviewTab(w.shell(), sess, w.evalProfile, func(path string) {
		w.loadWith(path, session.OpenOptions{})
		w.do(func() { w.tabs.Select(w.eval.item) })
	})
	t.spot = newSpotTab(w.shell(), sess)
	lang := w.lang
	t.inner = newTabs(
		container.NewTabItem(text.New("问题生成与审核", "Questions: write and review").In(lang), t.review.content),
		container.NewTabItem(text.New("人工抽检", "Spot check by people").In(lang), t.spot.root))
	t.item = container.NewTabItemWithIcon(text.New("人工核查", "People check").In(lang), theme.AccountIcon(), t.inner)
	return t
}

// refresh shows the session in both screens (UI thread).
func (t *peopleTab) refresh() {
	t.review.refresh()
	t.spot.refresh()
}
