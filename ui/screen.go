package ui

import (
	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// The window opens at this size, or smaller when the screen is.
var preferredSize = fyne.NewSize(1280, 800)

// titleBar is room left for the window manager's title bar and borders,
// in Fyne units.
const titleBar = 48

// fitScreen shrinks the window to the primary screen's work area (the
// screen without the task bar) when it would not fit: a 1024×640 laptop
// gets a window it can see whole. It runs once the app has started, on the
// main thread, where the desktop driver has initialised GLFW; the content
// is kept small enough (scrolls, wrapping) that it never grows it back.
func (w *Window) fitScreen() {
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return
	}
	_, _, wpx, hpx := m.GetWorkarea()
	scale := w.win.Canvas().Scale()
	if wpx <= 0 || hpx <= 0 || scale <= 0 {
		return
	}
	w.win.Resize(fitWithin(preferredSize, fyne.NewSize(float32(wpx)/scale, float32(hpx)/scale-titleBar)))
}

// fitWithin is want, no larger than room in either direction.
func fitWithin(want, room fyne.Size) fyne.Size {
	return fyne.NewSize(min(want.Width, room.Width), min(want.Height, room.Height))
}
