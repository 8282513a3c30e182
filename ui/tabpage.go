package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// newTabs is container.NewAppTabs with each tab's content held in a
// tabPage. Fyne's tabs refresh the content of every tab whenever one is
// selected (to apply a theme that may have changed), and a refresh
// re-measures every text of every tab: with a 10,000-question result that
// held the UI thread for over 100 ms at each click on a tab (issue 27).
func newTabs(items ...*container.TabItem) *container.AppTabs {
	for _, it := range items {
		it.Content = newTabPage(it.Content)
	}
	return container.NewAppTabs(items...)
}

// tabPage is one tab's content. It passes a refresh on to the content
// only when the theme changed since the last one; the widgets inside
// refresh themselves when what they show changes.
type tabPage struct {
	widget.BaseWidget
	content fyne.CanvasObject
}

func newTabPage(content fyne.CanvasObject) *tabPage {
	p := &tabPage{content: content}
	p.ExtendBaseWidget(p)
	return p
}

// Show shows the content too: a content that acts when it is shown (the
// Compare tab catches up with the workbook) sees its tab being selected.
func (p *tabPage) Show() {
	p.content.Show()
	p.BaseWidget.Show()
}

func (p *tabPage) CreateRenderer() fyne.WidgetRenderer { return &tabPageRenderer{page: p} }

type tabPageRenderer struct {
	page    *tabPage
	theme   fyne.Theme // as of the last refresh passed on; nil before the first
	variant fyne.ThemeVariant
}

func (r *tabPageRenderer) Layout(s fyne.Size) {
	r.page.content.Move(fyne.NewPos(0, 0))
	r.page.content.Resize(s)
}

func (r *tabPageRenderer) MinSize() fyne.Size { return r.page.content.MinSize() }

func (r *tabPageRenderer) Refresh() {
	st := fyne.CurrentApp().Settings()
	if th, v := st.Theme(), st.ThemeVariant(); th != r.theme || v != r.variant {
		r.theme, r.variant = th, v
		r.page.content.Refresh()
	}
	canvas.Refresh(r.page)
}

func (r *tabPageRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.page.content} }
func (r *tabPageRenderer) Destroy()                     {}
