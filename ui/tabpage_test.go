package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// pageContent is o's content when o is a tabPage, else o.
func pageContent(o fyne.CanvasObject) fyne.CanvasObject {
	if p, ok := o.(*tabPage); ok {
		return p.content
	}
	return o
}

// refreshCounter counts the refreshes and shows that reach it.
type refreshCounter struct {
	widget.BaseWidget
	refreshes, shows int
}

func newRefreshCounter() *refreshCounter {
	c := &refreshCounter{}
	c.ExtendBaseWidget(c)
	return c
}

func (c *refreshCounter) Refresh() { c.refreshes++; c.BaseWidget.Refresh() }
func (c *refreshCounter) Show()    { c.shows++; c.BaseWidget.Show() }
func (c *refreshCounter) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(theme.Color(theme.ColorNameBackground)))
}

// Selecting a tab refreshes no other tab's content (Fyne's own tabs
// refresh all of them, re-measuring every text of the window), and the
// selected content sees that it is shown; a theme change still reaches
// every content.
func TestTabSwitchRefreshesNoOtherTab(t *testing.T) {
	a := test.NewTempApp(t)
	for _, c := range []struct {
		name  string
		tabs  func(...*container.TabItem) *container.AppTabs
		paged bool
	}{{"container.NewAppTabs", container.NewAppTabs, false}, {"newTabs", newTabs, true}} {
		one, two, three := newRefreshCounter(), newRefreshCounter(), newRefreshCounter()
		tabs := c.tabs(container.NewTabItem("1", one), container.NewTabItem("2", two), container.NewTabItem("3", three))
		w := test.NewTempWindow(t, tabs)
		w.Resize(fyne.NewSize(400, 300))
		before := one.refreshes + three.refreshes
		tabs.SelectIndex(1)
		tabs.SelectIndex(2)
		tabs.SelectIndex(1)
		got := one.refreshes + three.refreshes - before
		if c.paged && got != 0 {
			t.Errorf("%s: selecting tabs refreshed the other tabs' contents %d times", c.name, got)
		}
		if !c.paged && got == 0 { // the cost newTabs exists for
			t.Errorf("%s: selecting tabs no longer refreshes every tab: tabPage may go", c.name)
		}
		if c.paged && two.shows < 2 {
			t.Errorf("%s: the content of the selected tab saw %d shows, want 2", c.name, two.shows)
		}
		before = one.refreshes
		a.Settings().SetTheme(newTheme())
		tabs.SelectIndex(0)
		if one.refreshes == before {
			t.Errorf("%s: a theme change did not reach the first tab's content", c.name)
		}
	}
}
