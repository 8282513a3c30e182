package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// placeNames are the file dialog's places. Fyne (2.7 dialog/file.go,
// file_unix.go) sets them with SetText from fixed English names, not
// through its lang package, so its zh_Hans translations never reach them:
// the window translates them itself.
var placeNames = map[string]string{
	"Home": "place.home", "Computer": "place.computer", "App Files": "place.app_files",
	"Desktop": "place.desktop", "Documents": "place.documents", "Downloads": "place.downloads",
	"Music": "place.music", "Pictures": "place.pictures", "Videos": "place.videos", "Movies": "place.movies",
}

// translatePlaces names the places of the file dialog shown on top of c in
// the window's language: it wraps the places list's UpdateItem so that every
// redraw shows the translated name. Called right after the dialog's Show.
func translatePlaces(c fyne.Canvas) {
	top := c.Overlays().Top()
	if top == nil {
		return
	}
	var visit func(o fyne.CanvasObject)
	visit = func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *widget.List:
			update := v.UpdateItem
			if update == nil {
				return
			}
			v.UpdateItem = func(id widget.ListItemID, item fyne.CanvasObject) {
				update(id, item)
				translateLabels(item)
			}
			v.Refresh()
		case *fyne.Container:
			for _, c := range v.Objects {
				visit(c)
			}
		case *container.Split:
			visit(v.Leading)
			visit(v.Trailing)
		case *container.Scroll:
			visit(v.Content)
		case *widget.PopUp:
			visit(v.Content)
		}
	}
	visit(top)
}

// translateLabels translates every label under o naming a place.
func translateLabels(o fyne.CanvasObject) {
	switch v := o.(type) {
	case *widget.Label:
		if key, ok := placeNames[v.Text]; ok {
			v.SetText(tr(key))
		}
	case *fyne.Container:
		for _, c := range v.Objects {
			translateLabels(c)
		}
	}
}
