package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// AppID is the application identifier (also in FyneApp.toml).
const AppID = "org.cubeworkbench.cube"

// Window is the main window.
type Window struct {
	app fyne.App
	win fyne.Window
}

// New builds the main window.
func New(a fyne.App) *Window {
	w := &Window{app: a, win: a.NewWindow("CuBE Workbench")}
	w.win.SetContent(widget.NewLabel("CuBE Workbench"))
	w.win.Resize(fyne.NewSize(1280, 800))
	return w
}

// ShowAndRun shows the window and runs the app's event loop.
func (w *Window) ShowAndRun() { w.win.ShowAndRun() }
