package ui

import (
	"context"
	"cubeworkbench/core/result"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"cubeworkbench/core/session"
)

// BatchExport asks where to write the pending requests of this evaluation
// as batch JSONL (UI thread); the work runs in a goroutine.
func (t *evaluateTab) BatchExport() {
	if t.running || !t.ready() {
		return
	}
	d := dialog.NewFileSave(func(uc fyne.URIWriteCloser, err error) {
		if err != nil || uc == nil {
			return
		}
		path := uc.URI().Path()
		uc.Close()
		t.exportBatchTo(path)
	}, t.sh.win)
	d.SetFileName("requests.jsonl")
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
	translatePlaces(t.sh.win.Canvas())
}

// exportBatchTo writes the batch file (UI thread: starts the goroutine).
func (t *evaluateTab) exportBatchTo(path string) {
	p := t.act.profile()
	sess := t.sess
	t.setBatchBusy(true)
	go func() {
		n, err := func() (int, error) {
			f, err := os.Create(path)
			if err != nil {
				return 0, err
			}
			n, err := sess.BatchExport(context.Background(), p, f, nil)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			return n, err
		}()
		t.sh.do(func() {
			t.setBatchBusy(false)
			switch {
			case err != nil:
				t.status.SetText(tr("eval.failed") + " " + errText(err))
			case n == 0:
				t.status.SetText(tr("eval.batch_nothing"))
			default:
				t.status.SetText(trf("eval.batch_exported", map[string]any{"N": n, "Path": path}))
			}
		})
	}()
}

// BatchImport asks for a batch result file and stores its replies.
func (t *evaluateTab) BatchImport() {
	if t.running || t.path == "" {
		return
	}
	d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
		if err != nil || rc == nil {
			return
		}
		path := rc.URI().Path()
		rc.Close()
		t.importBatchFrom(path)
	}, t.sh.win)
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
	translatePlaces(t.sh.win.Canvas())
}

// importBatchFrom reads a result file into the store (UI thread: starts the
// goroutine).
func (t *evaluateTab) importBatchFrom(path string) {
	store := storePath(t.path)
	if t.sess != nil {
		store = t.sess.StorePath
	}
	t.setBatchBusy(true)
	go func() {
		rep, err := func() (result.BatchReport, error) {
			f, err := os.Open(path)
			if err != nil {
				return result.BatchReport{}, err
			}
			defer f.Close()
			return session.BatchImport(context.Background(), store, f)
		}()
		t.sh.do(func() {
			t.setBatchBusy(false)
			if err != nil {
				t.status.SetText(tr("eval.failed") + " " + errText(err))
				return
			}
			t.status.SetText(trf("eval.batch_imported", map[string]any{
				"Lines": rep.Lines, "Imported": rep.Imported, "Already": rep.AlreadyStored, "Failed": rep.Failed,
				"Duplicates": rep.Duplicates, "Unknown": rep.Unknown, "Malformed": rep.Malformed, "Pending": len(rep.StillPending),
			}))
		})
	}()
}

// setBatchBusy keeps a second run from starting while a batch file is
// written or read (UI thread).
func (t *evaluateTab) setBatchBusy(busy bool) {
	for _, b := range []interface {
		Enable()
		Disable()
	}{t.batchOut, t.batchIn, t.start} {
		if busy {
			b.Disable()
		} else {
			b.Enable()
		}
	}
	if busy {
		t.status.SetText(tr("eval.running"))
	}
}
