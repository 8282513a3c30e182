package ui

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/zalando/go-keyring"

	"cubeworkbench/core/secret"
	"cubeworkbench/internal/fakeai"
)

// TestKeyTypedInWindow: a key pasted in the judge form is used for the
// session, shown only as "typed in this session", and absent from every
// file the app wrote (the workbook's folder with the run store, the
// exported report unzipped, SUMMARY.json, the charts), from the
// preferences (the profile) and from the log.
func TestKeyTypedInWindow(t *testing.T) {
	keyring.MockInit() // never the real keyring of the machine running the tests
	const key = "sk-typed-in-the-window-7f3a9c"
	var logs bytes.Buffer
	log.SetOutput(io.MultiWriter(&logs, os.Stderr))
	t.Cleanup(func() { log.SetOutput(os.Stderr) })
	srv := fakeai.New(t)
	w, loop := newTestWindow(t, "zh", llmProfile(srv.URL(), 2))
	t.Cleanup(func() { _ = secret.Default().Delete(secret.Judge("fake-judge")) })

	w.judges.list.Select(0)
	f := w.judges.form
	if f.name.Text != "fake-judge" {
		t.Fatalf("selected judge %q", f.name.Text)
	}
	test.Type(f.key.entry, key)
	test.Tap(f.key.save)
	loop.runUntil(t, time.Minute, "the key's source", func() bool { return f.key.pending == 0 })
	if f.key.entry.Text != "" {
		t.Errorf("the entry still holds the key after saving")
	}
	if got := f.key.source.Text; got != tr("key.from_session") || strings.Contains(got, key) {
		t.Errorf("source %q, want %q", got, tr("key.from_session"))
	}
	if got, src, err := secret.Default().Get(secret.Judge("fake-judge"), ""); err != nil || got != key || src != secret.Session {
		t.Fatalf("secret has %q from %v (%v)", got, src, err)
	}

	path, err := w.writeSample()
	if err != nil {
		t.Fatal(err)
	}
	w.loadWorkbook(path, false)
	loop.runUntil(t, time.Minute, "the sample", func() bool { return w.workbook() != nil })
	test.Tap(w.eval.start)
	loop.runUntil(t, 10*time.Minute, "the evaluation", func() bool { return !w.eval.running })
	if w.result() == nil {
		t.Fatalf("no result: %q", w.eval.status.Text)
	}
	out := filepath.Join(t.TempDir(), "export")
	w.export.dir.SetText(out)
	test.Tap(w.export.all)
	loop.runUntil(t, 5*time.Minute, "the export", func() bool { return !w.export.busy })
	if _, err := os.Stat(filepath.Join(out, "SUMMARY.json")); err != nil {
		t.Fatalf("no SUMMARY.json: %v (%q)", err, w.export.status.Text)
	}

	t.Run("never written", func(t *testing.T) {
		checked := 0
		for _, dir := range []string{filepath.Dir(path), out, w.dataDir} {
			checked += grepTree(t, dir, key)
		}
		if checked < 3 {
			t.Errorf("only %d files checked", checked)
		}
		var prefs strings.Builder
		for _, k := range []string{prefProfile, prefLanguage} {
			prefs.WriteString(w.app.Preferences().String(k))
		}
		prefs.WriteString(strings.Join(w.app.Preferences().StringList(prefRecent), "\n"))
		text, err := profileChanges(w.prof)
		if err != nil {
			t.Fatal(err)
		}
		prefs.Write(text)
		if strings.Contains(prefs.String(), key) {
			t.Errorf("the key is in the preferences / profile")
		}
		if strings.Contains(logs.String(), key) {
			t.Errorf("the key is in the log")
		}
	})
	t.Run("sent as bearer", func(t *testing.T) {
		chats := srv.Chats()
		if len(chats) == 0 {
			t.Fatal("no requests reached the fake")
		}
		for _, c := range chats {
			if c.Auth != "Bearer "+key {
				t.Fatalf("Authorization %q, want the typed key", c.Auth)
			}
		}
	})
}

// grepTree fails when key is in any file under dir, looking inside zip
// files (the xlsx report) too; it returns how many files it read.
func grepTree(t *testing.T, dir, key string) int {
	t.Helper()
	n := 0
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		if bytes.Contains(b, []byte(key)) {
			t.Errorf("the key is in %s", p)
		}
		if zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b))); err == nil {
			for _, f := range zr.File {
				rc, err := f.Open()
				if err != nil {
					t.Fatal(err)
				}
				inner, err := io.ReadAll(rc)
				rc.Close()
				if err != nil {
					t.Fatal(err)
				}
				n++
				if bytes.Contains(inner, []byte(key)) {
					t.Errorf("the key is in %s:%s", p, f.Name)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestKeyKeyringUnavailable: choosing the keyring where there is none says
// so and keeps the key for the session; a working keyring is the source
// once the session forgets; Forget removes it from both.
func TestKeyKeyringUnavailable(t *testing.T) {
	cases := []struct {
		name     string
		init     func()
		wantNote bool
		want     string // the source line after saving
	}{
		{"no keyring", func() { keyring.MockInitWithError(errors.New("no secret service on this bus")) }, true, "key.from_session"},
		{"keyring", keyring.MockInit, false, "key.from_session"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.init()
			t.Cleanup(keyring.MockInit)
			w, loop := newTestWindow(t, "zh", nil)
			ref := secret.Target("openai")
			t.Cleanup(func() { _ = secret.Default().Delete(ref) })
			selectKind(t, w.judges.target, "openai")
			k := w.judges.target.key
			test.Type(k.entry, "sk-target-1")
			k.where.SetSelected(tr("key.keyring"))
			test.Tap(k.save)
			loop.runUntil(t, time.Minute, "the source", func() bool { return k.pending == 0 })
			if got := strings.Contains(k.source.Text, tr("key.keyring_unavailable")); got != c.wantNote {
				t.Errorf("source %q: unavailable note %v, want %v", k.source.Text, got, c.wantNote)
			}
			if !strings.Contains(k.source.Text, tr(c.want)) {
				t.Errorf("source %q, want %q", k.source.Text, tr(c.want))
			}
			if got, _, _ := secret.Default().Get(ref, ""); got != "sk-target-1" {
				t.Errorf("key %q", got)
			}
			test.Tap(k.forget)
			loop.runUntil(t, time.Minute, "the source", func() bool { return k.pending == 0 })
			if got, _, _ := secret.Default().Get(ref, ""); got != "" {
				t.Errorf("after Forget the key is still %q", got)
			}
		})
	}
}
